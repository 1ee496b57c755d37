"""The companion at the table: the camera's frames and the buttons' presses through the
referee loop, until it is stopped.

Presses arrive on gpiozero's threads and wait in a queue; before each frame is read,
the presses since the last one are handed to the loop with that frame's time (a press
counts before the frame that shows what followed it). A camera that gives no picture
is said on the screen once (``no_camera``); the buttons go on tracking the turn, and
when pictures come again the camera judges again (``camera_back``). Nothing a frame or
a press brings may stop the loop: an error is logged and play goes on.
"""

from __future__ import annotations

import logging
import queue
import threading
from typing import Callable

from ..loop import Notice, RefereeLoop
from ..vision.markers import CORNER_IDS

log = logging.getLogger(__package__)


class Runner:
    def __init__(self, loop: RefereeLoop, reader, camera, menu: Callable[[int, str], bool] | None = None):
        """``reader``: a ``StreamReader`` (pictures → readings); ``camera``: a backend of
        ``camera.py`` (``frames()`` yields ``(t_ms, picture or None)``); ``menu(t_ms, name)``:
        takes a press while the setup menu is open, or the long press that opens it, and
        says whether it took it."""
        self.loop, self.reader, self.camera, self.menu = loop, reader, camera, menu
        self.presses: queue.SimpleQueue[str] = queue.SimpleQueue()
        self.camera_lost = False
        self.now = 0
        self.markers_missing: int | None = None  # until all four play-area markers were seen once: how many were
        self._markers_looked_at: int | None = None
        self.last_picture = None  # the latest picture (the calibration guide takes it)
        self.paused = False  # while the calibration guide runs, the pictures are no moves

    def press(self, name: str) -> None:
        """A button's press (``ButtonPanel``'s callback, on its thread)."""
        self.presses.put(name)

    def run(self, stop: threading.Event | None = None, before_frame: Callable[[int], None] | None = None) -> None:
        """Until the camera ends (an episode) or ``stop`` is set. ``before_frame(t_ms)`` is
        called before each frame is handed on (a test presses its scripted buttons there)."""
        for t_ms, picture in self.camera.frames():
            self.now = t_ms
            if before_frame is not None:
                before_frame(t_ms)
            self._presses(t_ms)
            self._frame(t_ms, picture)
            if stop is not None and stop.is_set():
                break
        self._presses(self.now)
        self.loop.finish(self.now)

    def _presses(self, t_ms: int) -> None:
        while True:
            try:
                name = self.presses.get_nowait()
            except queue.Empty:
                return
            try:
                if self.menu is not None and self.menu(t_ms, name):
                    continue
                if name == "menu":
                    continue  # no menu on this device
                self.loop.button(t_ms, name)
            except Exception:  # a bug must not take the referee off the table
                log.exception("the press %s at %d ms could not be judged", name, t_ms)

    def _frame(self, t_ms: int, picture) -> None:
        if picture is None:
            if not self.camera_lost:
                self.camera_lost = True
                self.loop.outputs.notice(Notice(t_ms, "no_camera"))
            return
        if self.camera_lost:
            self.camera_lost = False
            self.loop.look_again()
            self.loop.outputs.notice(Notice(t_ms, "camera_back"))
        self.last_picture = picture
        if self.paused:
            return
        if self.markers_missing != 0 and (self._markers_looked_at is None or t_ms - self._markers_looked_at >= 1000):
            self._look_for_markers(t_ms, picture)  # once a second: a marker hidden for good costs little
        try:
            self.loop.frame(t_ms, self.reader.read(picture))
        except Exception:
            log.exception("the frame at %d ms could not be judged", t_ms)

    def _look_for_markers(self, t_ms: int, picture) -> None:
        """At start-up, until the four markers of the play area have all been seen: say
        how many are, as that changes (a family lays them out while the screen counts)."""
        from ..vision import detect_markers

        self._markers_looked_at = t_ms
        found = len(set(detect_markers(picture)) & set(CORNER_IDS.values()))
        missing = len(CORNER_IDS) - found
        if missing == 0:
            if self.markers_missing:
                self.loop.outputs.notice(Notice(t_ms, "markers_found"))
        elif missing != self.markers_missing:
            self.loop.outputs.notice(Notice(t_ms, "markers", {"found": found}))
        self.markers_missing = missing
