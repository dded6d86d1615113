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

import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Protocol

import numpy as np

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


class PicameraSource:
    kind = "picamera2"
    simulated = False

    def __init__(self, size: tuple[int, int] = (1280, 720), camera_num: int = 0) -> None:
        self.size = size
        self.camera_num = camera_num
        self._cam: Any = None
        self._online = False

    def open(self) -> None:
        from picamera2 import Picamera2

        cam = Picamera2(self.camera_num)
        config = cam.create_video_configuration(main={"size": self.size, "format": "YUV420"})
        cam.configure(config)
        cam.start()
        self._cam = cam
        self._online = True

    def read(self) -> Image | None:
        if self._cam is None:
            return None
        try:
            yuv = self._cam.capture_array("main")
        except Exception:
            self._online = False
            return None
        h = self.size[1]
        return np.ascontiguousarray(yuv[:h, : self.size[0]])

    def still(self) -> Image | None:
        if self._cam is None:
            return None
        try:
            config = self._cam.create_still_configuration()
            image = self._cam.switch_mode_and_capture_array(config, "main")
        except Exception:
            return None
        return to_gray(image)

    def close(self) -> None:
        if self._cam is not None:
            try:
                self._cam.stop()
                self._cam.close()
            finally:
                self._cam = None
                self._online = False

    @property
    def online(self) -> bool:
        return self._online

    def describe(self) -> str:
        return f"Pi camera {self.camera_num} via Picamera2, {self.size[0]}x{self.size[1]} grey"


class V4L2Source:
    kind = "v4l2"
    simulated = False

    def __init__(self, device: str | int = "/dev/video0", size: tuple[int, int] = (1280, 720)) -> None:
        self.device = device
        self.size = size
        self._cap: Any = None
        self._failures = 0

    def open(self) -> None:
        import cv2

        cap = cv2.VideoCapture(self.device, cv2.CAP_V4L2)
        if not cap.isOpened():
            raise OSError(f"cannot open {self.device} as a V4L2 camera")
        cap.set(cv2.CAP_PROP_FRAME_WIDTH, self.size[0])
        cap.set(cv2.CAP_PROP_FRAME_HEIGHT, self.size[1])
        cap.set(cv2.CAP_PROP_BUFFERSIZE, 1)
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
        return f"USB camera {self.device} via OpenCV V4L2"


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
