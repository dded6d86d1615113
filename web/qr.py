"""QR codes as inline SVG, drawn on the server with segno (no JavaScript)."""

from __future__ import annotations

from functools import lru_cache

import segno


@lru_cache(maxsize=64)
def qr_svg(text: str) -> str:
    code = segno.make(text, error="m")
    svg: str = code.svg_inline(scale=1, border=2, omitsize=True, dark="#000", light="#fff")
    return svg.replace('class="segno"', 'class="qr" role="img" aria-label="QR code to join"', 1)
