"""Frame sources behind one interface.

* :class:`PicameraSource`: the Pi's ribbon camera through Picamera2 (imported
  only when used; ``apt install python3-picamera2`` and a virtualenv made with
  ``--system-site-packages``).  Frames are the Y (grey) plane of a YUV420
  stream; :meth:`still` switches to the full-resolution still mode once.
* :class:`V4L2Source`: a USB webcam through OpenCV (``cv2.CAP_V4L2``).
* :class:`FolderSource`: the images of a folder or the frames of a video
  file, paced at a frame rate and looped (demos, tests, benchmarks).
* :class:`BlankSource`: a simulated camera looking at an empty table, to which
  a demo or a test can :meth:`~BlankSource.show` tag images.

Every source returns grayscale ``uint8`` numpy arrays.  ``read()`` returns
``None`` when no frame is available right now (end of a non-looping video, a
camera that dropped out); ``online`` says whether the device is there.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Protocol

try:
    import numpy as np
except ImportError:  # no vision extra: no frame source opens (doctor and the scanner say why)
    np = None  # type: ignore[assignment]

from hardware.decoders import Image, to_gray

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".pgm", ".tif", ".tiff", ".webp")
VIDEO_SUFFIXES = (".mp4", ".avi", ".mkv", ".mov", ".webm", ".h264", ".mjpeg")


class FrameSource(Protocol):
    kind: str
    simulated: bool

    def open(self) -> None: ...

    def read(self) -> Image | None: ...

    def still(self) -> Image | None: ...

    def close(self) -> None: ...

    @property
    def online(self) -> bool: ...

    def describe(self) -> str: ...


class _Pacer:
    """Sleep so that frames come at ``fps`` (0: as fast as asked)."""

    def __init__(self, fps: float) -> None:
        self.period = 1.0 / fps if fps > 0 else 0.0
        self._next = 0.0

    def wait(self) -> None:
        if not self.period:
            return
        now = time.monotonic()
        if self._next > now:
            time.sleep(self._next - now)
            now = self._next
        self._next = max(now, self._next) + self.period


def lens_dioptres(distance_cm: float) -> float:
    """libcamera's ``LensPosition`` for a subject ``distance_cm`` away (dioptres)."""
    return 100.0 / distance_cm


class ExposureCap:
    """Keeps the exposure time at or under ``cap_us`` so moving hands stay
    sharp, leaving the rest to libcamera's automatic exposure.

    Raspberry Pi's AGC keeps adjusting the analogue gain while the exposure
    time is fixed, so: when AGC wants longer than the cap, the exposure is
    fixed at the cap (gain makes up the light); once the gain is back near
    1.0 (plenty of light) the exposure is released to AGC again.  Pure code:
    :meth:`advise` takes the frame's metadata and returns the controls to set.
    """

    def __init__(self, cap_us: int) -> None:
        self.cap_us = cap_us
        self.fixed = False

    def advise(self, metadata: dict[str, Any]) -> dict[str, Any] | None:
        exposure = metadata.get("ExposureTime")
        gain = metadata.get("AnalogueGain")
        if not isinstance(exposure, int | float) or not isinstance(gain, int | float):
            return None
        if not self.fixed and exposure > self.cap_us * 1.05:
            self.fixed = True
            return {"ExposureTime": self.cap_us}
        if self.fixed and gain <= 1.05:
            self.fixed = False
            return {"ExposureTime": 0}  # 0: automatic again
        return None


class PicameraSource:
    """The Pi camera through Picamera2, as the library intends: a small
    ``lores`` YUV420 stream (the ISP scales the full field of view down; its Y
    plane is the grey frame the scanner reads) beside a ``main`` stream, and
    full-resolution stills from a still mode.  Focus is fixed for the mount
    (Camera Module 3 autofocuses otherwise, and hunts when hands move), and
    the exposure time is capped (:class:`ExposureCap`).
    """

    kind = "picamera2"
    simulated = False

    def __init__(
        self,
        size: tuple[int, int] = (1280, 720),
        camera_num: int = 0,
        *,
        focus_cm: float | None = 45.0,
        max_exposure_ms: float = 12.0,
        factory: Any = None,
    ) -> None:
        self.size = size
        self.camera_num = camera_num
        self.focus_cm = focus_cm
        self.cap = ExposureCap(int(max_exposure_ms * 1000))
        self._factory = factory
        self._cam: Any = None
        self._online = False
        self._frames = 0
        self.notes: list[str] = []

    def open(self) -> None:
        factory = self._factory
        if factory is None:
            from picamera2 import Picamera2

            factory = Picamera2
        cam = factory(self.camera_num)
        try:
            w, h = self.size
            sensor_w, sensor_h = getattr(cam, "sensor_resolution", (w * 2, h * 2))
            # main: the sensor's full field of view, binned (half size), at least the scan size
            main = (max(w, (sensor_w // 2) & ~1), max(h, (sensor_h // 2) & ~1))
            config = cam.create_video_configuration(
                main={"size": main, "format": "YUV420"},
                lores={"size": (w, h), "format": "YUV420"},
                buffer_count=4,
            )
            cam.configure(config)
            cam.set_controls(self._controls(getattr(cam, "camera_controls", {}) or {}))
            cam.start()
        except Exception:
            with contextlib.suppress(Exception):
                cam.close()
            raise
        self._cam = cam
        self._online = True

    def _controls(self, available: dict[str, Any]) -> dict[str, Any]:
        controls: dict[str, Any] = {}
        self.notes = []
        if "AfMode" in available and "LensPosition" in available:
            if self.focus_cm is None:
                controls["AfMode"] = 2  # continuous autofocus (COMPANION_CAMERA_FOCUS_CM=auto)
                self.notes.append("focus: continuous autofocus")
            else:
                controls["AfMode"] = 0  # manual
                controls["LensPosition"] = lens_dioptres(self.focus_cm)
                self.notes.append(f"focus: fixed at {self.focus_cm:g} cm ({lens_dioptres(self.focus_cm):.2f} dioptres)")
        else:
            self.notes.append("focus: fixed-focus lens (turn the lens to focus at the mount height)")
        return controls

    def read(self) -> Image | None:
        if self._cam is None:
            return None
        try:
            request = self._cam.capture_request()
            try:
                yuv = request.make_array("lores")
                metadata = request.get_metadata() if self._frames % 10 == 0 else None
            finally:
                request.release()
        except Exception:
            self._online = False
            return None
        self._frames += 1
        if metadata:
            advice = self.cap.advise(metadata)
            if advice:
                with contextlib.suppress(Exception):
                    self._cam.set_controls(advice)
        w, h = self.size
        return np.ascontiguousarray(yuv[:h, :w])

    def still(self) -> Image | None:
        """One full-resolution still (the sensor's full size), then back to scanning."""
        if self._cam is None:
            return None
        try:
            config = self._cam.create_still_configuration(main={"format": "YUV420"})
            image = self._cam.switch_mode_and_capture_array(config, "main")
        except Exception:
            return None
        height = image.shape[0] * 2 // 3  # the Y plane of a YUV420 array
        return np.ascontiguousarray(image[:height])

    def close(self) -> None:
        if self._cam is not None:
            try:
                with contextlib.suppress(Exception):
                    self._cam.stop()
                self._cam.close()
            finally:
                self._cam = None
                self._online = False

    @property
    def online(self) -> bool:
        return self._online

    def describe(self) -> str:
        extra = "; ".join([*self.notes, f"exposure at most {self.cap.cap_us / 1000:g} ms"])
        return f"Pi camera {self.camera_num} via Picamera2, {self.size[0]}x{self.size[1]} grey lores stream ({extra})"


class V4L2Source:
    """A USB webcam through OpenCV's V4L2 backend: MJPG (the only format most
    webcams deliver at 720p and 30 fps over USB 2), the size asked for and
    checked, and the focus fixed where the camera has a focus control."""

    kind = "v4l2"
    simulated = False

    def __init__(
        self,
        device: str | int = "/dev/video0",
        size: tuple[int, int] = (1280, 720),
        *,
        focus_cm: float | None = 45.0,
        capture: Any = None,
    ) -> None:
        self.device = device
        self.size = size
        self.focus_cm = focus_cm
        self._capture = capture
        self._cap: Any = None
        self._failures = 0
        self.negotiated: tuple[int, int] | None = None
        self.warnings: list[str] = []
        self.notes: list[str] = []

    def open(self) -> None:
        import cv2

        make = self._capture or cv2.VideoCapture
        cap = make(self.device, cv2.CAP_V4L2)
        if not cap.isOpened():
            raise OSError(f"cannot open {self.device} as a V4L2 camera")
        self.warnings, self.notes = [], []
        # the format first: the sizes a webcam offers depend on it
        if not cap.set(cv2.CAP_PROP_FOURCC, cv2.VideoWriter.fourcc(*"MJPG")):
            self.notes.append("MJPG not accepted: the camera's default format is used")
        cap.set(cv2.CAP_PROP_FRAME_WIDTH, self.size[0])
        cap.set(cv2.CAP_PROP_FRAME_HEIGHT, self.size[1])
        cap.set(cv2.CAP_PROP_BUFFERSIZE, 1)
        got = (int(cap.get(cv2.CAP_PROP_FRAME_WIDTH)), int(cap.get(cv2.CAP_PROP_FRAME_HEIGHT)))
        self.negotiated = got
        if got != self.size:
            self.warnings.append(
                f"{self.device} gives {got[0]}x{got[1]}, not the {self.size[0]}x{self.size[1]} asked for "
                "(COMPANION_CAMERA_SIZE): tags look smaller or larger than planned, see firmware_notes/camera.md"
            )
        if self.focus_cm is not None:
            if cap.set(cv2.CAP_PROP_AUTOFOCUS, 0):
                self.notes.append("autofocus off")
            else:
                self.notes.append("no focus control (a fixed-focus webcam)")
        self._cap = cap

    def read(self) -> Image | None:
        if self._cap is None:
            return None
        ok, frame = self._cap.read()
        if ok and frame is not None:
            self._failures = 0
            return to_gray(frame)
        self._failures += 1
        if self._failures >= 30:  # about a second without a frame: unplugged
            self.close()
        return None

    def still(self) -> Image | None:
        return self.read()

    def close(self) -> None:
        if self._cap is not None:
            self._cap.release()
            self._cap = None

    @property
    def online(self) -> bool:
        return self._cap is not None and bool(self._cap.isOpened())

    def describe(self) -> str:
        size = f", {self.negotiated[0]}x{self.negotiated[1]}" if self.negotiated else ""
        extra = f" ({'; '.join(self.notes)})" if self.notes else ""
        return f"USB camera {self.device} via OpenCV V4L2, MJPG{size}{extra}"


def image_files(folder: Path) -> list[Path]:
    return sorted(p for p in folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)


class FolderSource:
    """The images of a folder (sorted by name) or a video file's frames."""

    kind = "folder"
    simulated = True

    def __init__(self, path: Path | str, fps: float = 0.0, loop: bool = True) -> None:
        self.path = Path(path)
        self.fps = fps
        self.loop = loop
        self._files: list[Path] = []
        self._video: Any = None
        self._index = 0
        self._pacer = _Pacer(fps)
        self._open = False

    def open(self) -> None:
        if self.path.is_dir():
            self._files = image_files(self.path)
            if not self._files:
                raise OSError(f"{self.path}: no images ({', '.join(IMAGE_SUFFIXES)})")
        elif self.path.is_file() and self.path.suffix.lower() in VIDEO_SUFFIXES:
            import cv2

            self._video = cv2.VideoCapture(str(self.path))
            if not self._video.isOpened():
                raise OSError(f"{self.path}: cannot be read as a video")
        elif self.path.is_file():
            self._files = [self.path]
        else:
            raise OSError(f"{self.path}: no such folder or file")
        self._open = True

    def read(self) -> Image | None:
        if not self._open:
            return None
        self._pacer.wait()
        if self._video is not None:
            ok, frame = self._video.read()
            if not ok and self.loop:
                import cv2

                self._video.set(cv2.CAP_PROP_POS_FRAMES, 0)
                ok, frame = self._video.read()
            return to_gray(frame) if ok else None
        if self._index >= len(self._files):
            if not self.loop:
                return None
            self._index = 0
        path = self._files[self._index]
        self._index += 1
        return load_gray(path)

    def still(self) -> Image | None:
        return self.read()

    def close(self) -> None:
        if self._video is not None:
            self._video.release()
            self._video = None
        self._open = False

    @property
    def online(self) -> bool:
        return self._open

    def describe(self) -> str:
        what = "video file" if self.path.suffix.lower() in VIDEO_SUFFIXES else "folder of images"
        return f"{what} {self.path}" + (f" at {self.fps:g} fps" if self.fps else "")


class BlankSource:
    """A simulated camera: an empty grey table, plus whatever was shown."""

    kind = "simulated"
    simulated = True

    def __init__(self, size: tuple[int, int] = (1280, 720), fps: float = 10.0) -> None:
        self.size = size
        self._pacer = _Pacer(fps)
        self.fps = fps
        self._lock = threading.Lock()
        self._shown: list[Image] = []
        self._blank = np.full((size[1], size[0]), 150, dtype=np.uint8)
        self._open = False

    def show(self, images: Sequence[Image], frames: int = 1) -> None:
        """Put these images (e.g. :func:`companion.tags.tag_image`) on the
        table for the next ``frames`` frames."""
        with self._lock:
            for _ in range(frames):
                self._shown.append(compose(self.size, images))

    def open(self) -> None:
        self._open = True

    def read(self) -> Image | None:
        self._pacer.wait()
        with self._lock:
            if self._shown:
                return self._shown.pop(0)
        return self._blank

    def still(self) -> Image | None:
        with self._lock:
            return self._shown[0] if self._shown else self._blank

    def close(self) -> None:
        self._open = False

    @property
    def online(self) -> bool:
        return self._open

    def describe(self) -> str:
        return f"simulated camera (empty table, {self.size[0]}x{self.size[1]}, {self.fps:g} fps)"


def compose(size: tuple[int, int], images: Sequence[Image], background: int = 150) -> Image:
    """Lay images side by side on a grey frame of ``size`` (w, h)."""
    w, h = size
    frame = np.full((h, w), background, dtype=np.uint8)
    x, y, row_h = 20, 20, 0
    for img in images:
        tile = to_gray(img)
        th, tw = tile.shape
        if x + tw > w - 20:
            x, y, row_h = 20, y + row_h + 20, 0
        if y + th > h or tw > w:
            break
        frame[y : y + th, x : x + tw] = tile
        x += tw + 20
        row_h = max(row_h, th)
    return frame


def load_gray(path: Path | str) -> Image:
    """An image file as grayscale; ``OSError`` if it cannot be read."""
    import cv2

    data = np.fromfile(str(path), dtype=np.uint8)
    img = cv2.imdecode(data, cv2.IMREAD_GRAYSCALE) if data.size else None
    if img is None:
        raise OSError(f"{path}: not an image OpenCV can read")
    return img
