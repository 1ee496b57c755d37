"""A table described in the test, turned into the readings a stream reader would give:
cards at places, frames quiet or with a hand moving, button presses at their times."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from companion.cards import Card

FPS = 10
CARD_PX = (60.0, 90.0)


@dataclass(frozen=True)
class Seen:
    card: Card | None
    polygon: np.ndarray
    confidence: float = 0.99


@dataclass(frozen=True)
class Reading:
    area: bool
    cards: tuple
    still_frames: int
    changes: tuple | None = None  # where the frame changed: everywhere, unless a test says


def outline(x: float, y: float, dx: float = 0.0) -> np.ndarray:
    w, h = CARD_PX
    return np.array([[x - w / 2 + dx, y - h / 2], [x + w / 2 + dx, y - h / 2],
                     [x + w / 2 + dx, y + h / 2], [x - w / 2 + dx, y + h / 2]])


def box(left: float, top: float, right: float, bottom: float) -> np.ndarray:
    """A changed region, as the stream reports one."""
    return np.array([[left, top], [right, top], [right, bottom], [left, bottom]], np.float64)


class Feed:
    """Drives a tracker (``observe``) or a loop (``frame``/``button``) frame by frame."""

    def __init__(self, target, places: dict[str, tuple[float, float]] | None = None):
        self.target = target
        self.t = 0
        self.still = 0
        self.table: dict[str, tuple[float, float]] = dict(places or {})  # card code -> centre
        self.unreadable: set[str] = set()  # cards on the table the reader sees as outlines only
        self.events: list = []

    def _reading(self, table, area=True, where=None) -> Reading:
        cards = tuple(Seen(None if code in self.unreadable else Card.parse(code), outline(*xy))
                      for code, xy in table.items())
        return Reading(area, cards, self.still, where)

    def _frame(self, reading: Reading) -> None:
        if hasattr(self.target, "observe"):
            self.events.extend(self.target.observe(self.t, reading))
        else:
            self.target.frame(self.t, reading)
        self.t += 1000 // FPS

    def quiet(self, seconds: float = 1.0) -> None:
        for _ in range(round(seconds * FPS)):
            self.still += 1
            self._frame(self._reading(self.table))

    def moving(self, frames: int = 5, shown: dict | None = None, where: tuple | None = None) -> None:
        """Frames in which something moves (a hand): ``shown`` is what the reader sees meanwhile,
        ``where`` the boxes (``box``) in which the picture changes (None: everywhere)."""
        for _ in range(frames):
            self.still = 0
            self._frame(self._reading(self.table if shown is None else shown, where=where))

    def lay(self, code: str, at: tuple[float, float], hidden_frames: int = 2, where: tuple | None = None) -> int:
        """A hand lays a card: it enters (the card not yet where it will lie), the card goes
        down under the hand, the hand leaves. Returns the time the card touched the table."""
        self.moving(4, where=where)
        touched = self.t
        self.moving(hidden_frames, where=where)  # the hand covers the card
        self.table[code] = at
        self.moving(3, where=where)
        return touched

    def lift(self, code: str) -> None:
        self.moving(4)
        del self.table[code]
        self.moving(3)

    def press(self, name: str) -> int:
        self.target.button(self.t, name)
        return self.t
