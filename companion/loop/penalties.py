"""Penalty points entered with the three buttons once a game is over.

One non-winner after another, in seat order. The player lays the cards left in their
hand face up on the table: the camera reads them and the number is their sum, no
arithmetic left to a child. By hand, DRAW adds a point, DRAW held adds ten at a time,
BACK takes a point off (also to correct a card the camera cannot read). NEXT enters the
number. Before anything is entered, BACK (or lifting the winning card) takes the
winning card back, as during the game. The referee checks the number against the cards
the player holds (``Game.penalty``); a number it refuses stays on the screen to be
corrected. Nothing here draws or times anything.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..cards import Card
from ..rules import Penalty
from ..rules.game import Game

STEPS = {"draw": 1, "draw_repeat": 10, "back": -1}


@dataclass(frozen=True)
class PenaltyView:
    """The entry as a screen shows it."""

    player: str
    points: int
    cards: int  # how many cards the player holds
    least: int
    most: int
    counted: tuple[str, ...] = ()  # the cards the camera read for it, in the order laid
    unread: int = 0  # cards laid for it that the camera cannot read (to be turned or moved)


class PenaltyEntry:
    def __init__(self, game: Game):
        self.game = game
        self.points = 0
        self.counted: list[Card] = []  # the cards laid to be counted for the player now
        self.pressed = False  # has a button been pressed for the entry yet?
        self.entered_cards: set[Card] = set()  # cards counted for a player before: they count once

    @property
    def untouched(self) -> bool:
        """Nothing entered or counted yet: BACK then takes back the winning card (the
        last event), as it takes back any event during the game."""
        return not self.pressed and not self.counted and not self.game.penalties

    def laid(self, card: Card) -> bool:
        """A card laid on the table after the game: one of the current player's; its number counts."""
        if self.player is None or card in self.counted or card in self.entered_cards:
            return False
        self.counted.append(card)
        self.points = sum(c.number for c in self.counted)
        return True

    def lifted(self, card: Card) -> bool:
        """A counted card taken away again (before NEXT: laid by mistake, or turned to be read)."""
        if card not in self.counted:
            return False
        self.counted.remove(card)
        self.points = sum(c.number for c in self.counted)
        return True

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
        self.pressed = True
        if name == "next":
            return Penalty(player, self.points)
        self.points = max(0, self.points + STEPS.get(name, 0))
        return None

    def entered(self) -> None:
        """The referee accepted the points: the next player starts from zero, and the cards
        counted so far are theirs no more (they are taken away, or stay: they count once)."""
        self.points = 0
        self.entered_cards.update(self.counted)
        self.counted = []

    def view(self, unread: int = 0) -> PenaltyView | None:
        """``unread``: how many cards laid since the game ended the camera cannot read."""
        player = self.player
        if player is None:
            return None
        cards, least, most = self.game.penalty_bounds(player)
        return PenaltyView(player, self.points, cards, least, most, tuple(card.code for card in self.counted),
                           unread)
