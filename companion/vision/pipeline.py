"""The card reader as one step: a camera frame in, the cards on the table out.

``TableReader.read(frame)`` maps the play area (``area.py``), finds every fully visible
card (``find.py``) and reads each one (``read.py``) with the calibration profile. A card
that cannot be read with confidence comes back with ``card`` None: an honest "I can't
read this" beats a wrong guess.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..cards import Card
from .area import PlayArea
from .find import find_cards
from .profile import Profile, default_profile
from .read import CardReader


@dataclass(frozen=True)
class SeenCard:
    """One card on the table: what it says (None: unreadable), how sure, and its outline."""

    card: Card | None
    confidence: float
    polygon: np.ndarray  # 4 × 2 frame pixels, clockwise from the printed face's top-left when read

    def to_json(self) -> dict:
        return {
            "card": None if self.card is None else self.card.code,
            "confidence": round(float(self.confidence), 3),
            "polygon": [[round(float(x), 1), round(float(y), 1)] for x, y in self.polygon],
        }


@dataclass(frozen=True)
class TableReading:
    area: bool  # the play-area markers were found in this frame
    cards: tuple[SeenCard, ...]


class TableReader:
    """Reads frames of one camera; keeps the play-area mapping from frame to frame."""

    def __init__(self, profile: Profile | None = None):
        self.profile = profile or default_profile()
        self.area = PlayArea()
        self.reader = CardReader(self.profile)

    def read(self, frame: np.ndarray) -> TableReading:
        view = self.area.update(frame)
        seen = []
        for found in find_cards(view):
            reading = self.reader.read_card(frame, found.corners_frame)
            corners = found.corners_frame if reading.corners is None else reading.corners
            seen.append(SeenCard(reading.card, reading.confidence, np.asarray(corners, float)))
        return TableReading(view.found, tuple(seen))
