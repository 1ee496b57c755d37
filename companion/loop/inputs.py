"""What reaches the loop, in time order: camera frames and button presses.

A source (an episode folder, a camera with its buttons) yields these; :func:`run`
drives the loop with them. Frames are decoded only when their turn comes, so a long
episode is never held in memory.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Callable, Iterable, Protocol

import numpy as np

from .loop import RefereeLoop

log = logging.getLogger(__package__)


@dataclass(frozen=True)
class FrameIn:
    t_ms: int
    load: Callable[[], np.ndarray | None]  # the picture, or None where it cannot be decoded
    name: str = ""


@dataclass(frozen=True)
class ButtonIn:
    t_ms: int
    name: str  # "next", "draw" or "back"


class Reader(Protocol):
    """A stream's card reader (``companion.vision.StreamReader``)."""

    def read(self, frame: np.ndarray): ...


def run(inputs: Iterable[FrameIn | ButtonIn], reader: Reader, loop: RefereeLoop,
        on_frame: Callable[[int, np.ndarray], None] | None = None) -> int:
    """Feed every input to the loop in order, then finish it; returns the frames skipped
    because they could not be decoded (a camera's hiccup, a damaged file). ``on_frame``
    sees each picture after the loop has judged it (the demo films the table with it)."""
    skipped = 0
    last = 0
    for item in inputs:
        last = max(last, item.t_ms)
        if isinstance(item, ButtonIn):
            loop.button(item.t_ms, item.name)
            continue
        picture = item.load()
        if picture is None:
            skipped += 1
            log.warning("frame %s at %d ms cannot be decoded: skipped", item.name or "?", item.t_ms)
            continue
        loop.frame(item.t_ms, reader.read(picture))
        if on_frame is not None:
            on_frame(item.t_ms, picture)
    loop.finish(last)
    return skipped
