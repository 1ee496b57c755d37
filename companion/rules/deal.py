"""A full-information game: real hands and a real stock, as the simulator plays it.

The referee (:class:`Game`) only counts cards. Here the cards are dealt, so the engine
also knows what each player could do and enforces what only a player can know: lay a
card if you can (unless the preset allows a free pass), lay a fitting drawn card at
once, and open a classic game with the red 11 (else yellow, green, blue; no 11 dealt:
deal again).
"""

from __future__ import annotations

import random
from typing import Sequence

from ..cards import Card
from .events import DRAW, NEXT, PLACE, Draw, Next, Place
from .game import Game
from .presets import Preset

TurnEvent = Place | Draw | Next


class IllegalMove(ValueError):
    """A move the full-information rules do not allow (a bot's mistake, not a player's)."""


class Deal:
    """One dealt game. ``legal_moves()`` lists what the player on turn may do; ``push`` does it."""

    def __init__(self, preset: Preset, players: Sequence[str], rng: random.Random, first: int = 0):
        self.game = game = Game(preset, players)
        self.preset = preset
        laid_out = frozenset(game.table())
        deck = [c for c in game.deck if c not in laid_out]
        size = preset.hand_size(len(players))
        self.redeals = -1
        while True:
            self.redeals += 1
            rng.shuffle(deck)
            # Hands are insertion-ordered dicts used as sets: a set of cards would iterate
            # in hash (memory address) order, and a seed would not replay the same game.
            self.hands: list[dict[Card, None]] = [
                dict.fromkeys(deck[i * size : (i + 1) * size]) for i in range(len(players))
            ]
            self.stock: list[Card] = deck[len(players) * size :]
            self.opening_card, self.first = self._opening(rng, first)
            if self.first is not None:
                break
        self.last_drawn: Card | None = None

    def _opening(self, rng: random.Random, first: int) -> tuple[Card | None, int | None]:
        """Who begins, and with which card when the game opens with a card."""
        preset = self.preset
        if not preset.opening_card_starts:
            return None, first
        if preset.openers_follow_first:  # any start: a player chosen by lot lays any card
            return None, rng.randrange(len(self.hands))
        for colour in preset.colours:
            for number in sorted(preset.openers):
                opener = Card(colour, number)
                for seat, hand in enumerate(self.hands):
                    if opener in hand:
                        return opener, seat
        return None, None

    @property
    def seat(self) -> int:
        """The seat of the player on turn (the opener before the first event)."""
        game = self.game
        return game.current if game.started else self.first

    @property
    def hand(self) -> dict[Card, None]:
        return self.hands[self.seat]

    def fitting(self) -> list[Card]:
        """The cards in the current hand that may be laid now."""
        fitting = self.game.fitting_numbers()
        return [c for c in self.hand if fitting[c.row] & c.bit]

    def legal_moves(self) -> list[TurnEvent]:
        game, preset = self.game, self.preset
        if game.winner is not None:
            return []
        if not game.started and preset.opening_card_starts:
            if self.opening_card is not None:
                return [PLACE[self.opening_card]]
            return [PLACE[c] for c in self.hand]
        if game.turn_over:
            return [NEXT]
        if game.drawn and not game.placed:
            drawn = self.last_drawn
            if game.fits(drawn):
                return [PLACE[drawn]]
            if game.drawn < preset.draw_limit and game.stock:
                return [DRAW, NEXT] if preset.free_pass else [DRAW]
            return [NEXT]
        fitting = self.fitting()
        moves: list[TurnEvent] = [PLACE[c] for c in fitting]
        if game.placed:
            moves.append(NEXT)
            return moves
        if not fitting and game.stock:
            moves.append(DRAW)
        if preset.free_pass or not (fitting or game.stock):
            moves.append(NEXT)
        return moves

    def push(self, move: TurnEvent) -> TurnEvent:
        """Make a move for the player on turn; IllegalMove if the rules forbid it."""
        if move not in self.legal_moves():
            raise IllegalMove(f"{move} is not legal for {self.game.players[self.seat]} now")
        return self.push_unchecked(move)

    def push_unchecked(self, move: TurnEvent) -> TurnEvent:
        """Make a move taken from :meth:`legal_moves` (the simulator's fast path).

        Returns the event as the record keeps it: the game's first event names who began.
        """
        game, seat = self.game, self.seat
        kind = move.__class__
        if not game.started:
            move = kind(move.card, game.players[seat]) if kind is Place else kind(game.players[seat])
        if kind is Place:
            verdict = game.place(move.card, move.player)
            del self.hands[seat][move.card]
        elif kind is Draw:
            verdict = game.draw(move.player)
            self.last_drawn = card = self.stock.pop()
            self.hands[seat][card] = None
        else:
            verdict = game.next(move.player)
        if not verdict.ok:  # the two views of the game disagree: a bug, never a player's mistake
            raise AssertionError(f"referee rejected a legal move {move}: {verdict}")
        return move

    def penalties(self) -> dict[str, int]:
        """What each player's remaining hand is worth (the winner's is empty: 0)."""
        return {name: sum(c.number for c in hand) for name, hand in zip(self.game.players, self.hands)}
