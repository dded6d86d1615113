"""An uploaded photo's kind and declared size, read from its header only.

A compressed file can declare far more pixels than its bytes suggest (a
249 KB PNG declaring 16000x16000 pixels would decode into 256 MB), so the
station upload reads the width and height from the header and refuses a
photo that is too large *before* OpenCV decodes a byte of it.  Only the
kinds read here are decoded at all (JPEG, PNG, WebP): anything else is
refused, so no other decoder's header handling is ever reached.

Everything here works on the bytes alone and never raises for bad input:
:func:`read_header` gives a :class:`PhotoHeader` or a message.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass

#: the kinds an upload may be, as the page says them
KINDS = ("JPEG", "PNG", "WebP")
UNREADABLE = "That file is not a photo the companion can read: send a JPEG, PNG or WebP image."

# JPEG start-of-frame markers (baseline, extended, progressive, lossless, ...);
# C4 (DHT), C8 (JPG) and CC (DAC) are not frames
_SOF = {0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF}
# markers without a length: TEM, RST0-7, SOI
_STANDALONE = {0x01, *range(0xD0, 0xD8), 0xD8}
#: how far into a JPEG the frame header is looked for (EXIF and a thumbnail come first)
JPEG_SEARCH = 1024 * 1024


@dataclass(frozen=True)
class PhotoHeader:
    kind: str  # one of KINDS
    width: int
    height: int
    #: colour channels the decoder works with (JPEG: components; PNG: 1-4; WebP: 3-4)
    channels: int = 3
    progressive: bool = False

    @property
    def pixels(self) -> int:
        return self.width * self.height

    @property
    def decode_bytes(self) -> int:
        """About how much memory decoding it to grey takes, output included:
        a progressive JPEG keeps every component's coefficients (2 bytes a
        pixel each), a WebP is decoded in colour and then converted; a
        baseline JPEG and a PNG are read row by row into the grey output."""
        if self.kind == "JPEG" and self.progressive:
            return self.pixels * (2 * self.channels + 1)
        if self.kind == "WebP":
            return self.pixels * (self.channels + 1)
        return self.pixels


def read_header(data: bytes) -> PhotoHeader | str:
    """The photo's kind and declared size, or a message saying why it is
    not a photo the companion reads."""
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        header = _png(data)
    elif data.startswith(b"\xff\xd8\xff"):
        header = _jpeg(data)
    elif data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        header = _webp(data)
    else:
        return UNREADABLE
    if header is None or header.width <= 0 or header.height <= 0:
        return UNREADABLE
    return header


def _png(data: bytes) -> PhotoHeader | None:
    # signature, then the IHDR chunk: length 13, "IHDR", width, height, depth, colour type
    if len(data) < 33 or data[12:16] != b"IHDR":
        return None
    width, height, _depth, colour = struct.unpack(">IIBB", data[16:26])
    channels = {0: 1, 2: 3, 3: 3, 4: 2, 6: 4}.get(colour)
    if channels is None:
        return None
    return PhotoHeader("PNG", width, height, channels)


def _jpeg(data: bytes) -> PhotoHeader | None:
    at, end = 2, min(len(data), JPEG_SEARCH)
    while at + 4 <= end:
        if data[at] != 0xFF:
            return None
        marker = data[at + 1]
        if marker == 0xFF:  # fill byte
            at += 1
            continue
        if marker in _STANDALONE:
            at += 2
            continue
        if marker in (0xD9, 0xDA):  # end of image, or the scan began before any frame header
            return None
        (length,) = struct.unpack(">H", data[at + 2 : at + 4])
        if length < 2:
            return None
        if marker in _SOF:
            if at + 10 > len(data) or length < 8:
                return None
            height, width, components = struct.unpack(">HHB", data[at + 5 : at + 10])
            return PhotoHeader("JPEG", width, height, components, progressive=marker in (0xC2, 0xC6, 0xCA, 0xCE))
        at += 2 + length
    return None


def _webp(data: bytes) -> PhotoHeader | None:
    chunk = data[12:16]
    body = data[20:]
    if chunk == b"VP8 " and len(body) >= 10 and body[3:6] == b"\x9d\x01\x2a":
        width, height = struct.unpack("<HH", body[6:10])
        return PhotoHeader("WebP", width & 0x3FFF, height & 0x3FFF, 3)
    if chunk == b"VP8L" and len(body) >= 5 and body[0] == 0x2F:
        bits = int.from_bytes(body[1:5], "little")
        return PhotoHeader("WebP", (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1, 4)
    if chunk == b"VP8X" and len(body) >= 10:
        width = int.from_bytes(body[4:7], "little") + 1
        height = int.from_bytes(body[7:10], "little") + 1
        return PhotoHeader("WebP", width, height, 4)
    return None
