"""The calibration guide, from the setup menu: the family lays the 23 cards one by one,
NEXT takes each picture, and the reader learns their deck (``vision.calibrate``).

The cards are those ``elfer calibrate`` asks for (all of red, the other colours' 11s),
each alone in the play area with the markers in view. BACK goes back a card to take its
picture again; holding NEXT leaves, nothing learned. After the last picture the deck is
learned there and then (seconds on a PC, longer on a Pi); the profile is saved, and the
reader reads with it from then on. A picture the calibration wants again is named.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from PIL import Image

from ..cards import Card
from ..ui import screens
from ..vision.calibration import calibration_set


@dataclass
class Guide:
    lang: str = "de"
    cards: list[Card] = field(default_factory=calibration_set)
    pictures: dict[Card, np.ndarray] = field(default_factory=dict)
    index: int = 0

    @property
    def card(self) -> Card | None:
        """The card to lay now; None once every picture is taken."""
        return self.cards[self.index] if self.index < len(self.cards) else None

    def press(self, name: str, picture: np.ndarray | None) -> str | None:
        """A press during the guide with the camera's latest picture: ``"learn"`` once the
        last picture is taken, ``"cancel"`` to leave, None while it goes on."""
        if name == "menu":
            return "cancel"
        if name == "back":
            self.index = max(0, self.index - 1)
        elif name == "next" and picture is not None and self.card is not None:
            self.pictures[self.card] = picture
            self.index += 1
            if self.card is None:
                return "learn"
        return None

    def image(self, problem: str | None = None) -> Image.Image:
        card = self.card
        if card is None:
            return screens.message("Kalibrieren" if self.lang == "de" else "Calibrating",
                                   ["Lerne das Deck ..." if self.lang == "de" else "Learning the deck ..."])
        return screens.guide(card.name(self.lang), self.index + 1, len(self.cards), problem, self.lang)
