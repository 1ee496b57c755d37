"""Bots that play legal Elfer raus! from a dealt hand.

A bot chooses one of :meth:`Deal.legal_moves`; it never sees other hands or the stock.
"""

from __future__ import annotations

import random
from typing import Protocol

from ..cards import Card
from ..rules.deal import Deal, TurnEvent
from ..rules.events import DRAW, NEXT, Place


class Bot(Protocol):
    name: str

    def choose(self, deal: Deal, moves: list[TurnEvent]) -> TurnEvent: ...


class RandomBot:
    """Picks any legal move with equal chance."""

    name = "random"

    def __init__(self, rng: random.Random):
        self._choice = rng.choice

    def choose(self, deal: Deal, moves: list[TurnEvent]) -> TurnEvent:
        return moves[0] if len(moves) == 1 else self._choice(moves)


class SensibleBot:
    """Plays like a careful family player.

    It lays cards that lead on to more of its own cards first, gets rid of high cards
    (they cost their face value at the end), and holds back a card that would only
    open the way for the others, unless it must lay something.
    """

    name = "sensible"
    CHAIN_WEIGHT = 10
    BLOCKER_COST = 15

    def __init__(self, rng: random.Random | None = None):
        pass

    def choose(self, deal: Deal, moves: list[TurnEvent]) -> TurnEvent:
        if len(moves) == 1:
            return moves[0]
        hand = deal.hand
        if len(hand) == 1 and moves[0].__class__ is Place:
            return moves[0]
        masks = deal.game.masks
        best, best_score = None, None
        for move in moves:
            if move.__class__ is Place:
                score = self._score(move.card, hand, masks[move.card.row])
                if best_score is None or score > best_score:
                    best, best_score = move, score
        if best is None:
            return DRAW if DRAW in moves else NEXT
        if NEXT in moves and best_score <= 0 and (deal.game.placed or self._may_stall(deal)):
            return NEXT
        return best

    @staticmethod
    def _may_stall(deal: Deal) -> bool:
        """With a free pass, hold everything back only while ahead and the stock lasts.

        Otherwise two careful players could block each other for ever.
        """
        game = deal.game
        mine = game.hands[deal.seat]
        return bool(game.stock) and all(mine < n for seat, n in enumerate(game.hands) if seat != deal.seat)

    def _score(self, card: Card, hand: dict[Card, None], mask: int) -> int:
        colour, number = card.colour, card.number
        if mask >> (number - 1) & 1:
            steps = (1,)
        elif mask >> (number + 1) & 1:
            steps = (-1,)
        else:  # opening a row: both directions open up
            steps = (1, -1)
        chain = 0
        for step in steps:
            follow = number + step
            while 1 <= follow <= 20 and Card(colour, follow) in hand:
                chain += 1
                follow += step
        score = number + self.CHAIN_WEIGHT * chain
        return score - self.BLOCKER_COST if not chain else score


BOTS = {"random": RandomBot, "sensible": SensibleBot}
