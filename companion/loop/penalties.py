"""Penalty points entered with the three buttons once a game is over.

One non-winner after another, in seat order: DRAW adds a point, DRAW held adds ten at a
time, BACK takes a point off, NEXT enters the number. The referee checks it against the
cards the player holds (``Game.penalty``); a number it refuses stays on the screen to
be corrected. Nothing here draws or times anything.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..rules import Penalty
from ..rules.game import Game

STEPS = {"draw": 1, "draw_repeat": 10, "back": -1}


@dataclass(frozen=True)
class PenaltyView:
    """The entry as a screen shows it."""

    player: str
    points: int
    cards: int
    least: int
    most: int


class PenaltyEntry:
    def __init__(self, game: Game):
        self.game = game
        self.points = 0

    @property
    def player(self) -> str | None:
        """Whose points are being entered; None before the game is over and once all are in."""
        game = self.game
        if not game.over:
            return None
        return next((name for seat, name in enumerate(game.players)
                     if seat != game.winner and name not in game.penalties), None)

    def press(self, name: str) -> Penalty | None:
        """A press during the entry: the penalty to enter (NEXT), or None (the number changed)."""
        player = self.player
        if player is None:
            return None
        if name == "next":
            return Penalty(player, self.points)
        self.points = max(0, self.points + STEPS.get(name, 0))
        return None

    def entered(self) -> None:
        """The referee accepted the points: the next player starts from zero."""
        self.points = 0

    def view(self) -> PenaltyView | None:
        player = self.player
        if player is None:
            return None
        cards, least, most = self.game.penalty_bounds(player)
        return PenaltyView(player, self.points, cards, least, most)
