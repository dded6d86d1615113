"""QR decoders behind one interface, and the companion's scanner that combines them.

* :class:`ZxingDecoder` (zxing-cpp) is the first decoder: fastest and the best
  single reader (see docs/benchmarks.md).
* :class:`PyzbarDecoder` (pyzbar + the system's libzbar0) is the second opinion,
  and the only decoder where zxing-cpp cannot be installed.
* :class:`OpenCVDecoder` (``cv2.QRCodeDetector``) is only a comparison in the
  benchmark.  It is asked once, on a generated code, whether it can decode at
  all: Debian 12's OpenCV 4.6 (what a Pi on Bookworm gets from apt) is built without
  QUIRC, and its detector then locates codes but reads none, silently.  Such
  an OpenCV is refused (:class:`DecoderUnusable`) with the reason, and
  ``companion doctor`` lists it.

Every decode call is wrapped: a decoder that raises (OpenCV raises
``UnicodeDecodeError`` / ``cv2.error`` on some real codes) counts as "found
nothing", never as a crash.

:class:`Scanner` reads one frame: zxing-cpp first (on a denoised copy when
the frame is noisy, plus a sharpened copy when it is blurry); codes zxing-cpp
*located* but could not decode are retried on a crop around them with every
decoder and a short ladder of preprocessing retries (blur, 2x up, 2x down,
sharpen, bright threshold), so a frame with several codes does not lose the
hard one.  A thorough read (stills) also tries pyzbar and the ladder on the
whole frame when nothing was read.
"""

from __future__ import annotations

import contextlib
import functools
import logging
import os
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

try:
    import numpy as np
except ImportError:  # no vision extra: every decoder says so when probed (probe_decoders), none loads
    np = None  # type: ignore[assignment]

log = logging.getLogger(__name__)

#: what a decoder needs before anything else, and where it comes from
NUMPY_HINT = ("numpy cannot be imported: it is in the vision extra (make run installs it, or "
              ".venv/bin/pip install -e '.[vision]'; on a Raspberry Pi: sudo apt install python3-numpy python3-opencv)")

Image = Any  # a numpy array: grayscale (H, W) or BGR (H, W, 3)
Point = tuple[float, float]


@dataclass(frozen=True)
class Decoded:
    """One code read in one image."""

    text: str
    raw: bytes
    corners: tuple[Point, ...] = ()
    decoder: str = ""
    how: str = "first pass"  # which pass of the scanner read it

    @property
    def center(self) -> Point:
        if not self.corners:
            return (0.0, 0.0)
        xs = [p[0] for p in self.corners]
        ys = [p[1] for p in self.corners]
        return (sum(xs) / len(xs), sum(ys) / len(ys))

    def to_json(self) -> dict[str, Any]:
        return {
            "text": self.text,
            "raw_hex": self.raw.hex() if self.raw != self.text.encode("utf-8", "replace") else None,
            "corners": [[round(x, 1), round(y, 1)] for x, y in self.corners],
            "decoder": self.decoder,
            "how": self.how,
        }


@dataclass
class Attempt:
    """What one decoder call found: codes read, and regions where a code was
    located but could not be decoded (``(x0, y0, x1, y1)``)."""

    codes: list[Decoded] = field(default_factory=list)
    unreadable: list[tuple[int, int, int, int]] = field(default_factory=list)


class Decoder(Protocol):
    name: str

    def attempt(self, gray: Image) -> Attempt: ...


def to_gray(image: Image) -> Image:
    arr = np.asarray(image)
    if arr.ndim == 2:
        return np.ascontiguousarray(arr, dtype=np.uint8)
    import cv2

    if arr.ndim == 3 and arr.shape[2] == 4:
        return cv2.cvtColor(arr, cv2.COLOR_BGRA2GRAY)
    if arr.ndim == 3 and arr.shape[2] == 3:
        return cv2.cvtColor(arr, cv2.COLOR_BGR2GRAY)
    if arr.ndim == 3 and arr.shape[2] == 1:
        return np.ascontiguousarray(arr[:, :, 0], dtype=np.uint8)
    raise ValueError(f"not an image: shape {arr.shape}")


class ZxingDecoder:
    name = "zxing-cpp"

    def __init__(self, *, binarizer: str = "LocalAverage", try_downscale: bool = True) -> None:
        import zxingcpp

        self._z = zxingcpp
        self._binarizer = getattr(zxingcpp.Binarizer, binarizer)
        self._try_downscale = try_downscale

    def attempt(self, gray: Image) -> Attempt:
        z = self._z
        out = Attempt()
        try:
            found = z.read_barcodes(
                gray,
                formats=z.BarcodeFormat.QRCode,
                text_mode=z.TextMode.Plain,
                binarizer=self._binarizer,
                try_downscale=self._try_downscale,
                return_errors=True,
            )
        except Exception as err:  # the library's own errors must never stop the scanner
            log.debug("zxing-cpp failed: %s", err)
            return out
        for bc in found:
            pos = bc.position
            corners = tuple(
                (float(p.x), float(p.y)) for p in (pos.top_left, pos.top_right, pos.bottom_right, pos.bottom_left)
            )
            if bc.valid:
                out.codes.append(Decoded(bc.text, bytes(bc.bytes), corners, self.name))
            else:
                xs = [c[0] for c in corners]
                ys = [c[1] for c in corners]
                out.unreadable.append((int(min(xs)), int(min(ys)), int(max(xs)) + 1, int(max(ys)) + 1))
        return out


class PyzbarDecoder:
    name = "pyzbar"

    def __init__(self) -> None:
        from pyzbar import pyzbar

        self._p = pyzbar

    def attempt(self, gray: Image) -> Attempt:
        p = self._p
        out = Attempt()
        try:
            found = p.decode(gray, symbols=[p.ZBarSymbol.QRCODE])
        except Exception as err:
            log.debug("pyzbar failed: %s", err)
            return out
        for sym in found:
            raw = bytes(sym.data)
            text = raw.decode("utf-8", "replace")
            corners = tuple((float(pt.x), float(pt.y)) for pt in sym.polygon)
            out.codes.append(Decoded(text, raw, corners, self.name))
        return out


class DecoderUnusable(RuntimeError):
    """A decoder that loads but cannot read a code on this machine."""


#: the text of the code an OpenCV detector must read before it is used
PROBE_TEXT = "Table Companion: can this OpenCV read a QR code?"


def probe_image() -> Image:
    """A clean, generated QR code (6 px modules, quiet zone): any working
    decoder reads it."""
    import segno

    rows = list(segno.make_qr(PROBE_TEXT, error="m").matrix_iter(scale=6, border=4))
    return np.where(np.array(rows, dtype=bool), 0, 255).astype(np.uint8)


@contextlib.contextmanager
def _stdout_to_devnull() -> Iterator[None]:
    """OpenCV without QUIRC prints "Library QUIRC is not linked" on the
    process's standard output (C++ ``std::cout``), which would break
    ``--json`` output: the probe's one call sends file descriptor 1 to
    /dev/null."""
    sys.stdout.flush()
    try:
        saved = os.dup(1)
    except OSError:  # no file descriptor 1 at all: nothing to protect
        yield
        return
    try:
        with open(os.devnull, "wb") as devnull:
            os.dup2(devnull.fileno(), 1)
        yield
    finally:
        os.dup2(saved, 1)
        os.close(saved)


def opencv_decode_problem(detector: Any, version: str) -> str | None:
    """Why this OpenCV QR detector cannot be used, or ``None`` when it reads
    the generated probe code."""
    try:
        with _stdout_to_devnull():
            ok, texts, _points, _ = detector.detectAndDecodeMulti(probe_image())
    except Exception as err:
        return f"OpenCV {version}'s QR detector fails on a clean generated code ({type(err).__name__}: {err})"
    if ok and PROBE_TEXT in tuple(texts or ()):
        return None
    located = " locates it but" if ok else ""
    return (
        f"OpenCV {version}'s QR detector{located} reads no text from a clean generated code: this OpenCV is "
        "built without QUIRC (as Debian 12's python3-opencv 4.6 is, what apt gives a Pi on Bookworm), so it would read no card; "
        "use zxing-cpp or pyzbar (COMPANION_DECODERS=zxing-cpp,pyzbar)"
    )


@functools.cache
def _this_opencv_problem() -> str | None:
    """:func:`opencv_decode_problem` for the process's own OpenCV, asked once."""
    import cv2

    return opencv_decode_problem(cv2.QRCodeDetector(), str(getattr(cv2, "__version__", "?")))


class OpenCVDecoder:
    """``cv2.QRCodeDetector`` (several codes per image); a benchmark comparison.

    Raises :class:`DecoderUnusable` when this OpenCV cannot decode (no QUIRC)."""

    name = "opencv"

    def __init__(self) -> None:
        import cv2

        problem = _this_opencv_problem()
        if problem is not None:
            raise DecoderUnusable(problem)
        self._det = cv2.QRCodeDetector()

    def attempt(self, gray: Image) -> Attempt:
        out = Attempt()
        try:
            ok, texts, points, _ = self._det.detectAndDecodeMulti(gray)
        except Exception as err:
            log.debug("opencv failed: %s", err)
            return out
        if not ok or texts is None:
            return out
        for i, text in enumerate(texts):
            if not text:
                continue
            corners = tuple((float(x), float(y)) for x, y in points[i]) if points is not None else ()
            out.codes.append(Decoded(text, text.encode("utf-8", "replace"), corners, self.name))
        return out


DECODER_CLASSES: dict[str, Callable[[], Decoder]] = {
    "zxing-cpp": ZxingDecoder,
    "pyzbar": PyzbarDecoder,
    "opencv": OpenCVDecoder,
}


#: what to install when a decoder cannot be imported
INSTALL_HINTS = {
    "zxing-cpp": " (pip install zxing-cpp)",
    "pyzbar": " (apt-get install libzbar0)",
    "opencv": " (pip install opencv-python-headless; on a Pi: apt-get install python3-opencv)",
}


@dataclass(frozen=True)
class DecoderStatus:
    name: str
    available: bool
    why: str


def probe_decoders(names: Sequence[str] = ("zxing-cpp", "pyzbar")) -> tuple[list[Decoder], list[DecoderStatus]]:
    """The decoders that load here, in order, and a line about each."""
    ready: list[Decoder] = []
    report: list[DecoderStatus] = []
    for name in names:
        factory = DECODER_CLASSES.get(name)
        if factory is None:
            report.append(DecoderStatus(name, False, "unknown decoder"))
            continue
        if np is None:
            report.append(DecoderStatus(name, False, f"cannot load: {NUMPY_HINT}"))
            continue
        try:
            ready.append(factory())
            report.append(DecoderStatus(name, True, "loaded"))
        except DecoderUnusable as err:
            report.append(DecoderStatus(name, False, f"cannot be used: {err}"))
        except Exception as err:  # ImportError, or libzbar0 missing (OSError/ImportError)
            report.append(DecoderStatus(name, False, f"cannot load: {err}{INSTALL_HINTS.get(name, '')}"))
    return ready, report


# the scanner ---------------------------------------------------------------------
def _scale(gray: Image, factor: float) -> Image:
    import cv2

    interp = cv2.INTER_AREA if factor < 1 else cv2.INTER_CUBIC
    return cv2.resize(gray, None, fx=factor, fy=factor, interpolation=interp)


#: noise_level at and above which a frame also gets a denoised pass
NOISY = 4.0


def noise_level(gray: Image) -> float:
    """A cheap estimate of pixel noise: the median absolute Laplacian of an
    image subsampled 3x (about 0-1 on clean frames, 10-60 on noisy ones)."""
    small = np.ascontiguousarray(gray[::3, ::3], dtype=np.int16)
    lap = np.abs(
        4 * small[1:-1, 1:-1] - small[:-2, 1:-1] - small[2:, 1:-1] - small[1:-1, :-2] - small[1:-1, 2:]
    )
    return _percentile_of_counts(np.bincount(lap.ravel(), minlength=1021), 0.5)


#: sharpness below which a frame counts as blurry
BLURRY = 0.3


def sharpness(gray: Image) -> float:
    """How crisp the frame's edges are: the strongest second differences
    along every 8th row (99.5th percentile), relative to the frame's contrast
    (1st to 99th percentile of brightness).  About 0.05-0.3 when blurred,
    0.3-0.9 when sharp."""
    rows = np.ascontiguousarray(gray[::8, :], dtype=np.int16)
    d2 = np.abs(rows[:, 2:] - 2 * rows[:, 1:-1] + rows[:, :-2])
    top = _percentile_of_counts(np.bincount(d2.ravel(), minlength=1021), 0.995)
    levels = np.bincount(gray[::8, ::2].ravel(), minlength=256)
    contrast = _percentile_of_counts(levels, 0.99) - _percentile_of_counts(levels, 0.01)
    return top / max(contrast, 1.0)


def _percentile_of_counts(counts: Any, q: float) -> float:
    cumulative = np.cumsum(counts)
    return float(np.searchsorted(cumulative, q * cumulative[-1]))


def _denoise(gray: Image) -> Image:
    import cv2

    return cv2.GaussianBlur(gray, (0, 0), 1.0)


def _blur(gray: Image) -> Image:
    import cv2

    return cv2.GaussianBlur(gray, (5, 5), 0)


def _sharpen(gray: Image) -> Image:
    import cv2

    soft = cv2.GaussianBlur(gray, (0, 0), 3)
    return cv2.addWeighted(gray, 1.8, soft, -0.8, 0)


def _sharpen_light(gray: Image) -> Image:
    import cv2

    soft = cv2.GaussianBlur(gray, (0, 0), 1.5)
    return cv2.addWeighted(gray, 2.5, soft, -1.5, 0)


def _inside(point: Point, box: tuple[int, int, int, int]) -> bool:
    x, y = point
    return box[0] <= x <= box[2] and box[1] <= y <= box[3]


def _bright_threshold(gray: Image) -> Image:
    """Only the brightest parts stay white: separates printed modules from a
    grey, glossy or fabric background that Otsu/local thresholds merge."""
    import cv2

    otsu, _ = cv2.threshold(gray, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    level = otsu + (255 - otsu) * 0.45
    # one byte per pixel throughout (np.where(gray > level, 255, 0) built an
    # int64 copy: 8 bytes per pixel, 96 MB for a 12 MP still)
    _, bright = cv2.threshold(gray, level, 255, cv2.THRESH_BINARY)
    return bright


#: the retry ladder: (name, transform, scale of the result relative to its input)
Retry = tuple[str, Callable[[Image], Image], float]
RETRIES: tuple[Retry, ...] = (
    ("blur", _blur, 1.0),
    ("upscale x2", lambda g: _scale(g, 2.0), 2.0),
    ("downscale x2", lambda g: _scale(g, 0.5), 0.5),
    ("sharpen", _sharpen, 1.0),
    ("bright threshold", _bright_threshold, 1.0),
)


def _mapped(code: Decoded, factor: float, dx: int, dy: int, how: str) -> Decoded:
    corners = tuple((x / factor + dx, y / factor + dy) for x, y in code.corners)
    return Decoded(code.text, code.raw, corners, code.decoder, how)


class Scanner:
    """The companion's QR reader for one image (a camera frame or a still).

    Every frame: a noise estimate picks the first pass (the frame, or a
    lightly blurred copy when it is noisy); a blurry frame also gets a pass
    on a sharpened copy; codes the first decoder located but could not
    decode are retried on a crop with every decoder and then the retry
    ladder.

    ``thorough`` (stills, ``companion scan``, spread scans, the benchmark):
    when nothing was read, the second decoder reads the whole frame and then
    the retry ladder runs over it.  Live (``thorough=False``, the camera
    thread) skips those two whole-frame steps, so an empty table costs about
    one zxing-cpp pass per frame.
    """

    def __init__(self, decoders: Sequence[Decoder] | None = None, *, thorough: bool = True) -> None:
        if decoders is None:
            decoders, _ = probe_decoders()
        if not decoders:
            raise RuntimeError("no QR decoder can be loaded: install zxing-cpp, or pyzbar with libzbar0")
        self.decoders = list(decoders)
        self.thorough = thorough

    @property
    def names(self) -> list[str]:
        return [d.name for d in self.decoders]

    def read(self, image: Image) -> list[Decoded]:
        gray = to_gray(image)
        first_decoder = self.decoders[0]
        codes: list[Decoded] = []
        unreadable: list[tuple[int, int, int, int]] = []

        def look(img: Image, how: str, factor: float = 1.0) -> None:
            found = first_decoder.attempt(img)
            codes.extend(c if how == "first pass" else _mapped(c, factor, 0, 0, how) for c in found.codes)
            unreadable.extend(
                (int(x0 / factor), int(y0 / factor), int(x1 / factor) + 1, int(y1 / factor) + 1)
                for x0, y0, x1, y1 in found.unreadable
            )

        if noise_level(gray) >= NOISY:
            # sensor noise (dim light, high gain) breaks the binarizer and
            # slows it down: a light blur first
            look(_denoise(gray), "denoised")
            if self.thorough or not codes:
                look(gray, "first pass")
        else:
            look(gray, "first pass")
            if sharpness(gray) < BLURRY:
                # a soft (defocused or shaken) frame: crisper edges for small codes
                look(_sharpen_light(gray), "blurry: sharpened")
        boxes = [b for b in unreadable if not any(_inside(c.center, b) for c in codes)]
        if codes:
            for box in boxes:
                codes += self._retry_region(gray, box)
            return _unique(codes)
        if self.thorough:
            # the second decoder over the whole frame costs ~8x the first; the
            # live camera leaves it to the regions where a code was located
            for decoder in self.decoders[1:]:
                more = decoder.attempt(gray)
                if more.codes:
                    return _unique([_mapped(c, 1.0, 0, 0, f"second decoder ({decoder.name})") for c in more.codes])
        for box in boxes:
            codes += self._retry_region(gray, box)
        if codes:
            return _unique(codes)
        if self.thorough:
            return _unique(self._ladder(gray, 0, 0))
        return []

    def _retry_region(self, gray: Image, box: tuple[int, int, int, int]) -> list[Decoded]:
        x0, y0, x1, y1 = box
        h, w = gray.shape[:2]
        pad = max(x1 - x0, y1 - y0) // 2 + 8
        x0, y0 = max(0, x0 - pad), max(0, y0 - pad)
        x1, y1 = min(w, x1 + pad), min(h, y1 + pad)
        if x1 - x0 < 8 or y1 - y0 < 8:
            return []
        crop = np.ascontiguousarray(gray[y0:y1, x0:x1])
        for decoder in self.decoders:
            found = decoder.attempt(crop)
            if found.codes:
                return [_mapped(c, 1.0, x0, y0, f"region retry ({decoder.name})") for c in found.codes]
        return self._ladder(crop, x0, y0)

    def _ladder(self, gray: Image, dx: int, dy: int) -> list[Decoded]:
        for name, transform, factor in RETRIES:
            if factor > 1 and max(gray.shape[:2]) * factor > 2600:
                continue  # upscaling a large frame costs much and helps little
            try:
                variant = transform(gray)
            except Exception as err:  # pragma: no cover - OpenCV on odd input
                log.debug("retry %s failed: %s", name, err)
                continue
            for decoder in self.decoders:
                found = decoder.attempt(variant)
                if found.codes:
                    return [_mapped(c, factor, dx, dy, f"retry: {name} ({decoder.name})") for c in found.codes]
        return []


def _unique(codes: Iterable[Decoded]) -> list[Decoded]:
    seen: set[bytes] = set()
    out: list[Decoded] = []
    for code in codes:
        if code.raw in seen:
            continue
        seen.add(code.raw)
        out.append(code)
    return out
