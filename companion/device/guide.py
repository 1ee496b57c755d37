"""The calibration guide, from the setup menu: the family shows the companion the 23
cards of the calibration set, and the reader learns their deck (``vision.calibrate``).

The cards are those ``elfer calibrate`` asks for (all of red, the other colours' 11s).
One by one: each alone in the play area with the markers in view, NEXT takes its
picture, BACK goes back a card to take it again. Laid out (faster): all of them in rows
in the play area, in order, and NEXT takes a picture of the rows; where the play area
does not hold them all, the rows go on after the first picture and NEXT takes a second
(the screen counts the cards the pictures show; BACK drops the last picture). Holding
NEXT leaves, nothing learned. After the last picture the deck is learned there and then
(seconds on a PC, longer on a Pi); the profile is saved, and the reader reads with it
from then on. A picture the calibration wants again is named.
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
    laid_out: bool = False
    cards: list[Card] = field(default_factory=calibration_set)
    pictures: dict[Card, np.ndarray] = field(default_factory=dict)
    index: int = 0
    shots: list[tuple[np.ndarray, int]] = field(default_factory=list)  # laid out: each picture and its cards found

    @property
    def card(self) -> Card | None:
        """The card to lay now (one by one); None once every picture is taken."""
        if self.laid_out:
            return None if self.found >= len(self.cards) else self.cards[self.found]
        return self.cards[self.index] if self.index < len(self.cards) else None

    @property
    def found(self) -> int:
        """Laid out: how many cards the pictures taken so far show."""
        return sum(count for _, count in self.shots)

    def press(self, name: str, picture: np.ndarray | None) -> str | None:
        """A press during the guide with the camera's latest picture: ``"learn"`` once the
        last picture is taken, ``"cancel"`` to leave, None while it goes on."""
        if name == "menu":
            return "cancel"
        if self.laid_out:
            return self._press_laid_out(name, picture)
        if name == "back":
            self.index = max(0, self.index - 1)
        elif name == "next" and picture is not None and self.card is not None:
            self.pictures[self.card] = picture
            self.index += 1
            if self.card is None:
                return "learn"
        return None

    def _press_laid_out(self, name: str, picture: np.ndarray | None) -> str | None:
        from ..vision.laid_out import laid_out_outlines

        if name == "back" and self.shots:
            self.shots.pop()
        elif name == "next" and picture is not None and len(self.shots) < 2:
            self.shots.append((picture, len(laid_out_outlines(picture))))
            if self.done:
                return "learn"
        return None

    def calibration_pictures(self) -> dict:
        """What :func:`~companion.vision.calibrate` learns from: the pictures by card, or
        the laid-out pictures' cards by their places (a count that is not the set's is a
        :class:`~companion.vision.CalibrationError`)."""
        if not self.laid_out:
            return self.pictures
        from ..vision.laid_out import laid_out_pictures

        return laid_out_pictures([(f"#{k + 1}", picture) for k, (picture, _) in enumerate(self.shots)], self.cards)

    @property
    def done(self) -> bool:
        """Every picture taken: the deck is learned next."""
        if self.laid_out:
            return self.found >= len(self.cards) or len(self.shots) == 2
        return self.card is None

    def image(self, problem: str | None = None) -> Image.Image:
        if self.done:
            return screens.message("Kalibrieren" if self.lang == "de" else "Calibrating",
                                   ["Lerne das Deck ..." if self.lang == "de" else "Learning the deck ..."])
        if self.laid_out:
            return screens.guide_laid_out(self.found, len(self.cards), problem, self.lang)
        return screens.guide(self.card.name(self.lang), self.index + 1, len(self.cards), problem, self.lang)
