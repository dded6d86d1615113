"""Is the camera seeing the table?  Pure bookkeeping with an injected clock.

The camera thread tells a :class:`FrameWatch` what happens (the device
opened, a frame arrived, a read failed, the device closed); anyone may ask
for :meth:`FrameWatch.health` at any moment, also while the camera thread is
stuck inside a read that never returns.  A camera that is open but has
delivered no frame for ``stall_after`` seconds is *stalled*; an error text
stays only until the next frame arrives.  :meth:`FrameWatch.changed` gives
each change of state once, for a notice.
"""

from __future__ import annotations

import enum
import time
from collections.abc import Callable
from dataclasses import dataclass


class CameraState(enum.Enum):
    SEEING = "seeing"  # frames arrive
    STALLED = "stalled"  # open, but no frame for a while
    OFFLINE = "offline"  # not open (unplugged, never started, failed to open)


@dataclass(frozen=True)
class CameraHealth:
    state: CameraState
    #: what is wrong, for the host ("" when frames arrive)
    problem: str
    #: seconds since the last frame (None: none yet)
    silent_for: float | None

    @property
    def online(self) -> bool:
        return self.state is not CameraState.OFFLINE


#: seconds without a frame after which an open camera counts as stalled
STALL_AFTER = 3.0


class FrameWatch:
    def __init__(self, stall_after: float = STALL_AFTER, clock: Callable[[], float] = time.monotonic) -> None:
        self.stall_after = stall_after
        self.clock = clock
        self._open = False
        self._since: float | None = None  # the last frame, or the moment the camera opened
        self._last_frame: float | None = None
        self._error = ""
        self._reported = CameraState.OFFLINE

    def opened(self) -> None:
        self._open = True
        self._since = self.clock()
        self._error = ""

    def frame(self) -> None:
        now = self.clock()
        self._open = True
        self._since = self._last_frame = now
        self._error = ""

    def failed(self, why: str) -> None:
        """A read raised or gave nothing: kept until the next frame."""
        self._error = why

    def closed(self, why: str = "") -> None:
        self._open = False
        self._error = why

    def health(self) -> CameraHealth:
        now = self.clock()
        silent = None if self._last_frame is None else max(0.0, now - self._last_frame)
        if not self._open:
            return CameraHealth(CameraState.OFFLINE, self._error or "the camera is not open", silent)
        if self._since is not None and now - self._since >= self.stall_after:
            what = f"no frame for more than {self.stall_after:g} s: the camera is connected but not delivering"
            return CameraHealth(CameraState.STALLED, f"{what} ({self._error})" if self._error else what, silent)
        return CameraHealth(CameraState.SEEING, self._error, silent)

    def changed(self) -> CameraHealth | None:
        """The health, when its state differs from the last one reported."""
        health = self.health()
        if health.state is self._reported:
            return None
        self._reported = health.state
        return health
