"""The referee's view of one game: the table, hand sizes, the stock and whose turn it is.

The referee never sees hands. It knows how many cards each player holds, how many lie
in the stock, and which cards lie on the table. Each colour row is a bitmask of the
numbers on the table; a card fits when its row is open and a neighbouring number of
its colour is already down. That one rule covers rows growing out from an opener
(classic) and rows growing inward from both ends (junior, false-start).

Every method that changes the state returns a verdict; a rejected event changes nothing.
"""

from __future__ import annotations

import operator
from typing import Sequence

from ..cards import COLOURS, Card, Colour
from .errors import ACCEPTED, Rejection, Verdict, reject
from .presets import Preset, PresetError


# Everything undo must restore besides the masks, hands and penalties.
_SCALAR_STATE = ("stock", "current", "started", "opened", "placed", "drawn", "turn_over", "winner", "turns", "opener_bits")
_scalar_state = operator.attrgetter(*_SCALAR_STATE)


class Game:
    """One game of Elfer raus! as the referee sees it."""

    def __init__(self, preset: Preset, players: Sequence[str]):
        preset.check_players(len(players))
        self.preset = preset
        self.players: tuple[str, ...] = tuple(players)
        self._seat = {name: seat for seat, name in enumerate(self.players)}
        self.deck: tuple[Card, ...] = preset.deck
        self._in_deck = frozenset(self.deck)
        self.masks = [0] * len(COLOURS)
        for colour in preset.colours:
            for number in preset.laid_out:
                self.masks[colour.index] |= 1 << number
        size = preset.hand_size(len(players))
        self.hands = [size] * len(players)
        self.stock = len(self.deck) - size * len(players) - len(preset.laid_out) * len(preset.colours)
        if self.stock < 0:
            raise PresetError(f"{preset.name} has too few cards for {len(players)} players")
        self.opener_bits = sum(1 << n for n in preset.openers)  # numbers that may open a row
        self.current: int | None = None if preset.opening_card_starts else 0
        self.started = False  # has any turn event been accepted?
        self.opened = bool(preset.laid_out)  # is any card on the table?
        self.placed = 0  # cards laid this turn
        self.drawn = 0  # cards drawn this turn
        self.turn_over: str | None = None  # why the rules ended this turn, if they did
        self.winner: int | None = None
        self.turns = 0
        self.penalties: dict[str, int] = {}
        self._history: list[tuple] = []

    # ----------------------------------------------------------------- queries
    @property
    def over(self) -> bool:
        return self.winner is not None

    @property
    def current_player(self) -> str | None:
        return None if self.current is None else self.players[self.current]

    @property
    def winner_name(self) -> str | None:
        return None if self.winner is None else self.players[self.winner]

    def hand_sizes(self) -> dict[str, int]:
        return dict(zip(self.players, self.hands))

    def on_table(self, card: Card) -> bool:
        return bool(self.masks[card.row] & card.bit)

    def table(self) -> list[Card]:
        return [c for c in self.deck if self.masks[c.row] & c.bit]

    @property
    def openers(self) -> frozenset[int]:
        """The numbers that may open a row now."""
        return frozenset(n for n in range(self.opener_bits.bit_length()) if self.opener_bits >> n & 1)

    def fits(self, card: Card) -> bool:
        """Whether the card may be laid now, as far as the table goes."""
        return bool(_fitting_numbers(self.masks[card.row], self.opener_bits) & card.bit)

    def fitting_numbers(self) -> list[int]:
        """Per colour row (by ``Colour.index``), a bitmask of the numbers that may be laid now."""
        openers = self.opener_bits
        return [_fitting_numbers(mask, openers) for mask in self.masks]

    def rows(self) -> dict[Colour, object]:
        """Per colour: ``[lowest, highest]`` on the table, or None while the row is not open.

        Converging presets (junior, false-start) give the two runs growing toward each
        other: ``[[1, up_to], [down_to, highest]]``; the row is complete when they touch.
        """
        result: dict[Colour, object] = {}
        for colour in self.preset.colours:
            mask = self.masks[colour.index]
            if not mask:
                result[colour] = None
            elif self.preset.converging:
                low_end, high_end = self.preset.laid_out[0], self.preset.laid_out[-1]
                up = low_end
                while mask >> (up + 1) & 1 and up + 1 < high_end:
                    up += 1
                down = high_end
                while mask >> (down - 1) & 1 and down - 1 > up:
                    down -= 1
                result[colour] = [[low_end, up], [down, high_end]]
            else:
                result[colour] = [(mask & -mask).bit_length() - 1, mask.bit_length() - 1]
        return result

    def hidden_reading(self, card: Card, on: Card | None = None) -> tuple[Card, ...] | None:
        """The card that, laid just before ``card`` in the same reach, would make it legal.

        A camera sees only the top card of a pile: R13 seen where R11 lay may be R12 and
        R13 laid at once. Returns ``()`` when the card is legal as it is, ``(R12,)`` when
        the one missing card, laid first by the same player, makes both legal, and None
        when no such reading exists (the card is judged as it is). A reach holds at most
        two cards. Nothing changes: the reading is tried and taken back.
        """
        mask = self.masks[card.row]
        if mask & card.bit or card not in self._in_deck:
            return None
        if self.place(card, on=on).ok:
            self.undo()
            return ()
        if not mask or (on is not None and on.colour is not card.colour):
            return None
        missing = self._missing(card)
        if len(missing) != 1 or missing[0] not in self._in_deck:
            return None
        below = missing[0]
        if not self.place(below, on=on).ok:
            return None
        fits = self.place(card, on=below).ok
        self.undo()
        if fits:
            self.undo()
        return (below,) if fits else None

    @property
    def penalties_complete(self) -> bool:
        """Whether the game ended and every player but the winner has a penalty entered."""
        return self.over and all(
            name in self.penalties for seat, name in enumerate(self.players) if seat != self.winner
        )

    # ----------------------------------------------------------------- events
    def place(self, card: Card, player: str | None = None, on: Card | None = None) -> Verdict:
        if self.winner is not None:
            return reject("game_over", winner=self.players[self.winner])
        if card not in self._in_deck:
            return reject("not_in_deck", card=card)
        seat = self._seat_for(player)
        if seat.__class__ is Rejection:
            return seat
        if self.turn_over:
            return reject(self.turn_over, current=self.players[self.current])
        mask = self.masks[card.row]
        if mask & card.bit:
            return reject("already_played", card=card)
        if on is not None:
            if not self.masks[on.row] & on.bit:
                return reject("on_not_on_table", on=on)
            if on.colour is not card.colour:
                return reject("wrong_colour", card=card, on=on)
        if not _fitting_numbers(mask, self.opener_bits) & card.bit:
            if not mask:
                return self._not_open(card)
            missing = self._missing(card)
            return reject("missing_one" if len(missing) == 1 else "missing_many", missing=missing)

        self._save()
        if not self.started:
            self.started = True
            if seat is not None:
                self.current = seat
            elif self.current is None:
                self.current = 0
        current = self.current
        opening = not self.opened
        self.masks[card.row] = mask | card.bit
        self.opened = True
        self.hands[current] -= 1
        self.placed += 1
        if opening and self.preset.openers_follow_first:
            self.opener_bits = card.bit
        if not self.hands[current]:
            self.winner = current
        elif opening and self.preset.opening_ends_turn:
            self.turn_over = "after_opening"
        elif self.drawn and self.preset.drawn_card_ends_turn:
            self.turn_over = "after_drawn_card"
        return ACCEPTED

    def draw(self, player: str | None = None) -> Verdict:
        seat = self._button_check(player)
        if seat.__class__ is Rejection:
            return seat
        if self.placed:
            return reject("draw_after_play")
        limit = self.preset.draw_limit
        if self.drawn >= limit:
            return reject("draw_limit_one" if limit == 1 else "draw_limit", limit=limit)
        if not self.stock:
            return reject("stock_empty")
        self._save()
        self._begin(seat)
        self.stock -= 1
        self.hands[self.current] += 1
        self.drawn += 1
        return ACCEPTED

    def next(self, player: str | None = None) -> Verdict:
        seat = self._button_check(player)
        if seat.__class__ is Rejection:
            return seat
        if not (self.placed or self.preset.free_pass or not self.stock or self.drawn >= self.preset.draw_limit):
            name = self.players[self.current if seat is None else seat]
            if self.drawn:
                return reject("draw_more", current=name, drawn=self.drawn, limit=self.preset.draw_limit)
            return reject("nothing_done", current=name)
        self._save()
        self._begin(seat)
        self.current = (self.current + 1) % len(self.players)
        self.placed = self.drawn = 0
        self.turn_over = None
        self.turns += 1
        return ACCEPTED

    def penalty_bounds(self, player: str) -> tuple[int, int, int]:
        """``(cards, least, most)``: how many cards ``player`` holds and the fewest and
        most points those cards can be worth (the cards not on the table)."""
        return _bounds(self.hands[self._seat[player]], self._off_table())

    def _off_table(self) -> list[int]:
        """The numbers of the cards not on the table, in order."""
        return sorted(c.number for c in self.deck if not self.masks[c.row] & c.bit)

    def penalty(self, player: str, points: int) -> Verdict:
        seat = self._seat.get(player)
        if seat is None:
            return reject("penalty_unknown", player=player)
        if self.winner is None:
            return reject("penalty_early")
        if points < 0:
            return reject("penalty_negative")
        if player in self.penalties:
            return reject("penalty_twice", player=player, points=self.penalties[player])
        if seat == self.winner:
            if points:
                return reject("penalty_winner", player=player)
        else:
            off_table = self._off_table()
            count, low, high = _bounds(self.hands[seat], off_table)
            if not low <= points <= high:
                return reject("penalty_range", player=player, count=count, low=low, high=high, points=points)
            if not _sum_reachable(off_table, count, points):
                return reject("penalty_impossible", count=count, points=points)
        self._save()
        self.penalties[player] = points
        return ACCEPTED

    def undo(self) -> Verdict:
        if not self._history:
            return reject("nothing_to_undo")
        masks, hands, penalties, *scalars = self._history.pop()
        self.masks, self.hands, self.penalties = list(masks), list(hands), penalties
        for name, value in zip(_SCALAR_STATE, scalars):
            setattr(self, name, value)
        return ACCEPTED

    # ----------------------------------------------------------------- helpers
    def _seat_for(self, player: str | None) -> int | None | Rejection:
        """The seat a ``player`` field names, checked against whose turn it is."""
        if player is None:
            return None
        seat = self._seat.get(player)
        if seat is None:
            return reject("unknown_player", player=player)
        if self.started and seat != self.current:
            return reject("not_your_turn", player=player, current=self.players[self.current])
        return seat

    def _button_check(self, player: str | None) -> int | None | Rejection:
        """What DRAW and NEXT both need: the game goes on, it is this player's turn, it has opened."""
        if self.winner is not None:
            return reject("game_over", winner=self.players[self.winner])
        seat = self._seat_for(player)
        if seat.__class__ is not Rejection and not self.started and self.preset.opening_card_starts:
            return reject("opening_first")
        return seat

    def _begin(self, seat: int | None) -> None:
        """The first turn event of the game may name who begins."""
        if not self.started:
            self.started = True
            if seat is not None:
                self.current = seat

    def _save(self) -> None:
        self._history.append(
            (tuple(self.masks), tuple(self.hands), self.penalties.copy(), *_scalar_state(self))
        )

    def _missing(self, card: Card) -> list[Card]:
        """The cards between the card and the nearest end of its row."""
        mask, number = self.masks[card.row], card.number
        gaps = []
        below = mask & ((1 << number) - 1)
        if below:
            gaps.append(range(below.bit_length(), number))
        above = mask >> (number + 1)
        if above:
            gaps.append(range(number + 1, number + (above & -above).bit_length()))
        gap = min(gaps, key=len)
        return [Card(card.colour, n) for n in gap]

    def _not_open(self, card: Card) -> Rejection:
        openers = sorted(self.openers)
        if self.opened:
            return reject("row_not_open", colour=card.colour, openers=[Card(card.colour, n) for n in openers])
        return reject("row_not_open_first", openers=[Card(c, n) for c in self.preset.colours for n in openers])


def _fitting_numbers(row: int, opener_bits: int) -> int:
    """The numbers that fit a row: the neighbours of an open row, else its openers.

    One rule for every preset: a card fits when a neighbouring number of its colour
    is on the table, whether rows grow out from an opener or in from both ends.
    """
    return (row << 1 | row >> 1) & ~row if row else opener_bits


def _bounds(count: int, off_table: list[int]) -> tuple[int, int, int]:
    """``(count, least, most)`` points that ``count`` of the cards ``off_table`` (sorted) can be worth."""
    return count, sum(off_table[:count]), sum(off_table[len(off_table) - count:])


def _sum_reachable(numbers: list[int], count: int, total: int) -> bool:
    """Whether some ``count`` of the ``numbers`` add up to ``total`` (bitset subset sum)."""
    reach = [1] + [0] * count
    for seen, number in enumerate(numbers, start=1):
        for k in range(min(count, seen), 0, -1):
            reach[k] |= reach[k - 1] << number
    return bool(reach[count] >> total & 1)
