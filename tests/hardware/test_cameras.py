"""The Pi camera and the USB webcam set up as their libraries intend:
Picamera2's lores YUV stream for scanning and full stills, focus fixed for
the mount, an exposure cap; V4L2 in MJPG with the size checked."""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np
import pytest

from hardware.frames import ExposureCap, PicameraSource, V4L2Source, lens_dioptres
from hardware.runtime import HardwareConfig


class FakeRequest:
    def __init__(self, cam: FakePicamera2) -> None:
        self.cam = cam

    def make_array(self, stream: str) -> np.ndarray:
        assert stream == "lores"
        return self.cam.lores_array

    def get_metadata(self) -> dict[str, Any]:
        self.cam.metadata_reads += 1
        return self.cam.metadata.pop(0) if self.cam.metadata else {}

    def release(self) -> None:
        self.cam.released += 1


class FakePicamera2:
    """What PicameraSource uses of picamera2.Picamera2 (no camera here)."""

    def __init__(self, num: int, *, autofocus: bool = True) -> None:
        self.num = num
        self.sensor_resolution = (4608, 2592)
        self.camera_controls: dict[str, Any] = {"ExposureTime": (1, 1000000, None)}
        if autofocus:
            self.camera_controls |= {"AfMode": (0, 2, 0), "LensPosition": (0.0, 15.0, 1.0)}
        self.configured: dict[str, Any] = {}
        self.controls: list[dict[str, Any]] = []
        self.metadata: list[dict[str, Any]] = []
        self.metadata_reads = self.released = 0
        self.started = self.closed = False
        w, h, stride = 1280, 720, 1344  # rows padded to the ISP's stride
        self.lores_array = np.zeros((h * 3 // 2, stride), dtype=np.uint8)
        self.lores_array[:h, :w] = np.arange(w, dtype=np.uint8)[None, :]
        self.lores_array[:h, w:] = 255  # padding must not reach the scanner
        self.lores_array[h:] = 128  # the U/V planes neither

    def create_video_configuration(self, **kw: Any) -> dict[str, Any]:
        return {"kind": "video", **kw}

    def create_still_configuration(self, **kw: Any) -> dict[str, Any]:
        return {"kind": "still", **kw}

    def configure(self, config: dict[str, Any]) -> None:
        self.configured = config

    def set_controls(self, controls: dict[str, Any]) -> None:
        self.controls.append(controls)

    def start(self) -> None:
        self.started = True

    def capture_request(self) -> FakeRequest:
        return FakeRequest(self)

    def switch_mode_and_capture_array(self, config: dict[str, Any], stream: str) -> np.ndarray:
        assert config["kind"] == "still" and stream == "main"
        return np.full((2592 * 3 // 2, 4608), 77, dtype=np.uint8)

    def stop(self) -> None:
        self.started = False

    def close(self) -> None:
        self.closed = True


def test_picamera2_scans_the_lores_y_plane_with_focus_fixed_for_the_mount() -> None:
    cams: list[FakePicamera2] = []
    def factory(n: int) -> FakePicamera2:
        cams.append(FakePicamera2(n))
        return cams[-1]

    source = PicameraSource((1280, 720), focus_cm=45, max_exposure_ms=12, factory=factory)
    source.open()
    cam = cams[0]
    assert cam.configured["lores"] == {"size": (1280, 720), "format": "YUV420"}
    assert cam.configured["main"] == {"size": (2304, 1296), "format": "YUV420"}  # the full field of view, binned
    assert cam.controls[0] == {"AfMode": 0, "LensPosition": pytest.approx(100 / 45)}
    frame = source.read()
    assert frame is not None and frame.shape == (720, 1280) and frame.dtype == np.uint8
    assert frame[0, 1279] == 1279 % 256 and (frame != 255).any()  # no padding, no chroma
    still = source.still()
    assert still is not None and still.shape == (2592, 4608)
    assert "fixed at 45 cm" in source.describe() and "at most 12 ms" in source.describe()
    source.close()
    assert cam.closed and not source.online


def test_focus_auto_and_a_fixed_focus_module() -> None:
    auto = FakePicamera2(0)
    source = PicameraSource(focus_cm=None, factory=lambda n: auto)
    source.open()
    assert auto.controls[0] == {"AfMode": 2}
    plain = FakePicamera2(0, autofocus=False)  # Camera Module 2 / HQ: no lens control
    source = PicameraSource(focus_cm=45, factory=lambda n: plain)
    source.open()
    assert plain.controls[0] == {} and "fixed-focus lens" in source.describe()


def test_the_exposure_cap_follows_the_light() -> None:
    cam = FakePicamera2(0)
    source = PicameraSource(max_exposure_ms=12, factory=lambda n: cam)
    source.open()
    cam.metadata = [{"ExposureTime": 30000, "AnalogueGain": 2.0}]  # dim: AGC wants 30 ms
    for _ in range(10):
        source.read()
    assert cam.controls[-1] == {"ExposureTime": 12000}  # capped; gain makes up the light
    assert cam.metadata_reads == 1 and cam.released == 10  # metadata every 10th frame; every request released
    cam.metadata = [{"ExposureTime": 12000, "AnalogueGain": 1.0}]  # the lamp is on: no gain left to drop
    for _ in range(10):
        source.read()
    assert cam.controls[-1] == {"ExposureTime": 0}  # automatic again


def test_exposure_cap_advice() -> None:
    cap = ExposureCap(10000)
    assert cap.advise({}) is None
    assert cap.advise({"ExposureTime": 9000, "AnalogueGain": 3.0}) is None
    assert cap.advise({"ExposureTime": 20000, "AnalogueGain": 1.0}) == {"ExposureTime": 10000}
    assert cap.advise({"ExposureTime": 10000, "AnalogueGain": 4.0}) is None  # held while gain works
    assert cap.advise({"ExposureTime": 10000, "AnalogueGain": 1.0}) == {"ExposureTime": 0}
    assert lens_dioptres(50) == 2.0


class FakeCapture:
    """cv2.VideoCapture of a webcam that offers only some sizes."""

    def __init__(self, device: Any, api: int, *, sizes: tuple[tuple[int, int], ...] = ((1280, 720),),
                 focus: bool = True) -> None:
        self.api = api
        self.sets: list[tuple[int, float]] = []
        self.sizes, self.focus = sizes, focus
        self.w, self.h = 640, 480

    def isOpened(self) -> bool:
        return True

    def set(self, prop: int, value: float) -> bool:
        self.sets.append((prop, value))
        if prop == cv2.CAP_PROP_FRAME_WIDTH:
            fits = [s for s in self.sizes if s[0] <= value]
            self.w, self.h = max(fits) if fits else min(self.sizes)
        if prop == cv2.CAP_PROP_AUTOFOCUS:
            return self.focus
        return True

    def get(self, prop: int) -> float:
        return {cv2.CAP_PROP_FRAME_WIDTH: self.w, cv2.CAP_PROP_FRAME_HEIGHT: self.h}.get(prop, 0.0)

    def read(self) -> tuple[bool, np.ndarray]:
        return True, np.zeros((self.h, self.w, 3), dtype=np.uint8)

    def release(self) -> None:
        pass


def test_v4l2_asks_for_mjpg_before_the_size_and_fixes_focus() -> None:
    caps: list[FakeCapture] = []
    def capture(device: Any, api: Any) -> FakeCapture:
        caps.append(FakeCapture(device, api))
        return caps[-1]

    source = V4L2Source("/dev/video0", (1280, 720), capture=capture)
    source.open()
    cap = caps[0]
    assert cap.api == cv2.CAP_V4L2
    props = [p for p, _ in cap.sets]
    assert props.index(cv2.CAP_PROP_FOURCC) < props.index(cv2.CAP_PROP_FRAME_WIDTH)
    assert (cv2.CAP_PROP_FOURCC, cv2.VideoWriter.fourcc(*"MJPG")) in cap.sets
    assert (cv2.CAP_PROP_AUTOFOCUS, 0) in cap.sets
    assert source.warnings == [] and source.negotiated == (1280, 720)
    assert "MJPG, 1280x720 (autofocus off)" in source.describe()


def test_v4l2_warns_when_the_camera_gives_another_size() -> None:
    source = V4L2Source("/dev/video2", (1920, 1080),
                        capture=lambda d, a: FakeCapture(d, a, sizes=((640, 480), (1280, 720)), focus=False))
    source.open()
    assert source.negotiated == (1280, 720)
    [warning] = source.warnings
    assert warning.startswith("/dev/video2 gives 1280x720, not the 1920x1080 asked for")
    assert "no focus control" in source.describe()


def test_camera_settings_from_the_environment() -> None:
    config = HardwareConfig.from_env({"COMPANION_CAMERA_FOCUS_CM": "60", "COMPANION_CAMERA_MAX_EXPOSURE_MS": "8"})
    assert (config.camera_focus_cm, config.max_exposure_ms) == (60.0, 8.0)
    assert HardwareConfig.from_env({"COMPANION_CAMERA_FOCUS_CM": "auto"}).camera_focus_cm is None
    for env in ({"COMPANION_CAMERA_FOCUS_CM": "near"}, {"COMPANION_CAMERA_FOCUS_CM": "1"},
                {"COMPANION_CAMERA_MAX_EXPOSURE_MS": "slow"}, {"COMPANION_CAMERA_MAX_EXPOSURE_MS": "0"},
                {"COMPANION_TOWER_USB": "pico"}):
        with pytest.raises(ValueError, match="COMPANION_"):
            HardwareConfig.from_env(env)


def test_the_size_warning_reaches_the_host_page_notices(room: Any) -> None:
    import time

    from hardware.runtime import HardwareRuntime

    source = V4L2Source("/dev/video2", (1920, 1080), capture=lambda d, a: FakeCapture(d, a))
    runtime = HardwareRuntime(room, HardwareConfig(dice="none"), frame_source=source).start()
    try:
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline and not runtime.notices():
            time.sleep(0.02)
        assert any("not the 1920x1080 asked for" in n["message"] for n in runtime.notices())
    finally:
        runtime.stop()
