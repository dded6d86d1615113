"""QR codes as inline SVG, drawn on the server with segno (no JavaScript)."""

from __future__ import annotations

from functools import lru_cache

import segno
from markupsafe import escape

from web.i18n import _


@lru_cache(maxsize=64)
def _drawn(text: str, label: str) -> str:
    code = segno.make(text, error="m")
    svg: str = code.svg_inline(scale=1, border=2, omitsize=True, dark="#000", light="#fff")
    return svg.replace('class="segno"', f'class="qr" role="img" aria-label="{escape(label)}"', 1)


def qr_svg(text: str) -> str:
    """The join QR, named in the language spoken (drawn once per address
    and language: the table screen shows it at every state)."""
    return _drawn(text, _("QR code to join"))
