"""A camera that stays open but stops delivering frames: reported as stalled
(host page, table screen), its error cleared when frames return, and a read
stuck in the camera thread never blocks the host's still.  The stall logic
runs on an injected clock; the camera is simulated."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest

from companion.table import Room, Table
from hardware.frames import BlankSource
from hardware.runtime import TABLE_NOTES, CameraTimeout, HardwareConfig, HardwareRuntime
from hardware.stall import CameraHealth, CameraState, FrameWatch
from tests.hardware.cardgame import to_rolling
from tests.hardware.test_runtime import eventually
from tests.web.conftest import make_app


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


# the stall logic, pure ------------------------------------------------------------------
def test_an_open_camera_without_frames_is_stalled_after_the_limit() -> None:
    clock = FakeClock()
    watch = FrameWatch(3.0, clock)
    assert watch.health().state is CameraState.OFFLINE
    watch.opened()
    clock.advance(2.9)
    assert watch.health().state is CameraState.SEEING  # still starting up
    clock.advance(0.1)
    stalled = watch.health()
    assert stalled.state is CameraState.STALLED and stalled.online
    assert "no frame for more than 3 s" in stalled.problem and stalled.silent_for is None
    watch.frame()
    assert watch.health() == CameraHealth(CameraState.SEEING, "", 0.0)
    clock.advance(10)
    assert watch.health().state is CameraState.STALLED and watch.health().silent_for == 10
    watch.closed("unplugged")
    assert watch.health().state is CameraState.OFFLINE and watch.health().problem == "unplugged"


def test_an_error_text_stays_only_until_the_next_frame() -> None:
    clock = FakeClock()
    watch = FrameWatch(3.0, clock)
    watch.frame()
    watch.failed("the last read failed: VIDIOC_DQBUF")
    assert watch.health().problem.endswith("VIDIOC_DQBUF") and watch.health().state is CameraState.SEEING
    clock.advance(4)
    assert "VIDIOC_DQBUF" in watch.health().problem and watch.health().state is CameraState.STALLED
    watch.frame()
    assert watch.health().problem == "" and watch.health().state is CameraState.SEEING


def test_each_change_of_state_is_reported_once() -> None:
    clock = FakeClock()
    watch = FrameWatch(3.0, clock)
    assert watch.changed() is None  # offline from the start: nothing new
    watch.frame()
    assert watch.changed() is not None and watch.changed() is None
    clock.advance(5)
    change = watch.changed()
    assert change is not None and change.state is CameraState.STALLED
    assert watch.changed() is None
    watch.frame()
    seeing = watch.changed()
    assert seeing is not None and seeing.state is CameraState.SEEING


# a simulated camera that hangs ---------------------------------------------------------
class HangingCamera(BlankSource):
    """Reads block while ``hang()`` is in force (a driver stuck in a read),
    stills while ``hang_stills()`` is; ``broken`` makes reads raise."""

    def __init__(self) -> None:
        super().__init__((160, 120), fps=200)
        self._flowing = threading.Event()
        self._flowing.set()
        self._stills = threading.Event()
        self._stills.set()
        self.broken = ""
        self.reads = 0

    def hang(self) -> None:
        self._flowing.clear()

    def hang_stills(self) -> None:
        self._stills.clear()

    def release(self) -> None:
        self._flowing.set()
        self._stills.set()

    def read(self) -> Any:
        self._flowing.wait(10)
        self.reads += 1
        if self.broken:
            raise OSError(self.broken)
        return super().read()

    def still(self) -> Any:
        self._stills.wait(10)
        return super().still()


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def camera() -> Iterator[HangingCamera]:
    cam = HangingCamera()
    yield cam
    cam.release()


@pytest.fixture
def runtime(room: Room, camera: HangingCamera, clock: FakeClock) -> Iterator[HardwareRuntime]:
    config = HardwareConfig(camera="none", dice="none", still_timeout_s=0.3)
    rt = HardwareRuntime(room, config, frame_source=camera)
    rt.watch = FrameWatch(3.0, clock)
    rt.start()
    yield rt
    camera.release()
    rt.stop()


def camera_status(rt: HardwareRuntime) -> dict[str, Any]:
    status: dict[str, Any] = rt.status()["camera"]
    return status


def camera_notices(rt: HardwareRuntime) -> str:
    return " | ".join(n["message"] for n in rt.notices(200) if n["kind"] == "camera")


def card_table(room: Room, rt: HardwareRuntime) -> Table:
    table = room.open_table("cardgame", ["Ann", "Bob"])
    rt.set_table(table.id)
    return table


def test_a_stalled_camera_is_reported_and_clears_when_frames_return(
        room: Room, runtime: HardwareRuntime, camera: HangingCamera, clock: FakeClock) -> None:
    assert eventually(lambda: camera.reads > 3 and camera_status(runtime)["state"] == "seeing")
    camera.hang()
    time.sleep(0.05)  # the camera thread is now inside a read that does not return
    clock.advance(4)
    status = camera_status(runtime)
    assert status["state"] == "stalled" and status["online"] is True
    assert "no frame for more than 3 s" in status["problem"]
    assert "stalled" in camera_notices(runtime)
    camera.release()
    assert eventually(lambda: camera_status(runtime)["state"] == "seeing")
    assert "problem" not in camera_status(runtime)
    assert "seeing the table again" in camera_notices(runtime)
    assert camera_notices(runtime).count("is seeing the table") == 2  # at the start, then "again"


def test_a_read_error_is_shown_and_cleared_when_frames_return(
        runtime: HardwareRuntime, camera: HangingCamera, clock: FakeClock) -> None:
    assert eventually(lambda: camera_status(runtime)["state"] == "seeing")
    camera.broken = "select() timeout"
    assert eventually(lambda: "select() timeout" in camera_status(runtime).get("problem", ""))
    clock.advance(4)
    assert camera_status(runtime)["state"] == "stalled"
    camera.broken = ""
    assert eventually(lambda: "problem" not in camera_status(runtime))
    assert camera_status(runtime)["state"] == "seeing"


def test_a_hung_read_never_blocks_a_still(room: Room, runtime: HardwareRuntime, camera: HangingCamera) -> None:
    card_table(room, runtime)
    assert runtime.scan_spread() is not None  # a still while frames flow
    camera.hang()
    time.sleep(0.05)
    started = time.monotonic()
    with pytest.raises(CameraTimeout, match="stuck"):
        runtime.scan_spread()
    assert time.monotonic() - started < 3  # the timeout is 0.3 s; never the read's 10 s
    assert "no still" in camera_notices(runtime)
    camera.release()
    assert eventually(lambda: camera.reads > 5)
    assert runtime.scan_spread() is not None  # and stills work again


def test_a_still_that_never_returns_times_out(room: Room, runtime: HardwareRuntime, camera: HangingCamera) -> None:
    card_table(room, runtime)
    camera.hang_stills()  # frames flow; only the still never comes
    started = time.monotonic()
    with pytest.raises(CameraTimeout):
        runtime.scan_spread()
    assert time.monotonic() - started < 3
    camera.release()
    assert eventually(lambda: camera.reads > 5)
    assert runtime.scan_spread() is not None  # the still's lock came back when it finished


# what the table sees ---------------------------------------------------------------------
def test_the_table_screen_says_what_players_need_to_know(
        room: Room, runtime: HardwareRuntime, camera: HangingCamera, clock: FakeClock) -> None:
    table = card_table(room, runtime)
    assert eventually(lambda: camera_status(runtime)["state"] == "seeing")
    assert runtime.table_notes() == []
    camera.hang()
    time.sleep(0.05)
    clock.advance(4)
    assert runtime.table_notes() == [TABLE_NOTES["camera-blind"]]
    other = room.open_table("cardgame", ["Cy", "Di"])
    assert runtime.table_notes(other) == []  # the hardware feeds the first table, not this one
    camera.release()
    assert eventually(lambda: runtime.table_notes() == [])
    to_rolling(table)
    assert runtime.table_notes() == []  # no tower: the host's dice form is the input


def test_a_tower_offline_while_dice_are_awaited_is_on_the_table_screen(room: Room) -> None:
    rt = HardwareRuntime(room, HardwareConfig(camera="none", dice="sim-tower")).start()
    try:
        table = card_table(room, rt)
        assert rt.tower is not None and rt.tower.wait_online(True, 5)
        assert rt.table_notes() == []
        assert rt.sim_tower is not None
        rt.sim_tower.unplug()
        assert rt.tower.wait_online(False, 5)
        assert rt.table_notes() == []  # the game is dealing cards, not waiting for dice
        to_rolling(table)
        assert rt.table_notes() == [TABLE_NOTES["tower-offline"]]
        rt.sim_tower.plug()
        assert rt.tower.wait_online(True, 5)
        assert rt.table_notes() == []
    finally:
        rt.stop()


def test_host_page_and_table_screen_show_the_stall(
        room: Room, runtime: HardwareRuntime, camera: HangingCamera, clock: FakeClock) -> None:
    table = card_table(room, runtime)
    app = make_app(room, hardware=runtime)
    from web import dashboard_of

    dashboard_of(app).show(table.id)
    tv = app.test_client()
    assert eventually(lambda: camera_status(runtime)["state"] == "seeing")
    assert "Camera not seeing the table" not in tv.get(f"/t/{table.id}/live").text
    camera.hang()
    time.sleep(0.05)
    clock.advance(4)
    assert "Camera not seeing the table: the host enters cards by hand." in tv.get(f"/t/{table.id}/live").text
    host = app.test_client()
    with host.session_transaction() as session:
        session["csrf"] = "t"
    assert host.post("/host/login", data={"csrf": "t", "pin": "2468"}).status_code == 303
    page = host.get(f"/host/t/{table.id}").text
    assert 'hw-dot stalled' in page and "no frame for more than 3 s" in page
    station = host.get(f"/host/t/{table.id}/station").text
    assert "Camera still: the camera is stalled" in station  # the still is not offered while stalled
    camera.release()
    assert eventually(lambda: camera_status(runtime)["state"] == "seeing")
    assert "Camera not seeing the table" not in tv.get(f"/t/{table.id}/live").text
    page = host.get(f"/host/t/{table.id}/live").text
    assert "hw-dot stalled" not in page and '<span class="reason">no frame' not in page  # the notice stays in the list


def test_a_dice_input_that_could_not_start_is_on_the_table_screen(room: Room,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    import hardware.runtime as runtime_module

    def no_pins(*args: Any, **kwargs: Any) -> Any:
        raise OSError("no pin factory")

    monkeypatch.setattr(runtime_module, "ButtonInput", no_pins)
    rt = HardwareRuntime(room, HardwareConfig(camera="none", dice="button:17")).start()
    try:
        table = card_table(room, rt)
        assert rt.table_notes() == []  # dealing: no dice awaited
        to_rolling(table)
        assert rt.table_notes() == [TABLE_NOTES["dice-failed"]]
        assert "could not start" in " ".join(n["message"] for n in rt.notices(20))
    finally:
        rt.stop()
