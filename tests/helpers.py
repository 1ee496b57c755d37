"""Helpers shared by the test modules: players, cards, scripted games, arranged deals, the example record.

Imported as ``from helpers import ...``: pytest's default ("prepend") import mode puts
``tests/`` on ``sys.path`` because the directory has no ``__init__.py``.
"""

from __future__ import annotations

import random

from companion.cards import Card, Colour
from companion.rules import PRESETS, ErrorCode, Game
from companion.rules.deal import Deal

NAMES = ("Anna", "Ben", "Cem", "Dana", "Emil", "Fiona")
C = Card.parse
RED, YELLOW, GREEN, BLUE = Colour.RED, Colour.YELLOW, Colour.GREEN, Colour.BLUE

# The example record of the issue, line by line.
EXAMPLE = [
    '{"event": "start", "players": ["Anna","Ben","Cem"], "rules": "classic"}',
    '{"event":"place","card":"R11","player":"Ben"}',
    '{"event":"next"}',
    '{"event":"draw"}',
    '{"event":"undo"}',
    '{"event":"penalty","player":"Anna","points":21}',
]
# The fields of ``companion.record.summary``.
SUMMARY_FIELDS = {"over", "winner", "current", "hands", "stock", "rows", "penalties", "totals", "games"}


def preset_of(preset):
    """A preset given by name, or the preset itself."""
    return PRESETS[preset] if isinstance(preset, str) else preset


# ----------------------------------------------------------------- the referee
def new_game(preset="classic", players: int = 2, **options) -> Game:
    """A fresh game of ``preset`` (a name or a preset) for the first ``players`` of :data:`NAMES`."""
    p = preset_of(preset)
    return Game(p.with_options(options) if options else p, NAMES[:players])


def ok(verdict) -> None:
    assert verdict.ok, str(verdict)


def refused(verdict, code: ErrorCode, reason: str | None = None):
    assert not verdict.ok, "expected a rejection"
    assert verdict.code is code, str(verdict)
    if reason is not None:
        assert verdict.reason == reason, verdict.reason
    return verdict


def play(game: Game, script: str) -> Game:
    """Push a script of accepted events: card codes place, ``draw`` draws, ``|`` is NEXT."""
    for token in script.split():
        if token == "|":
            ok(game.next())
        elif token == "draw":
            ok(game.draw())
        else:
            ok(game.place(C(token)))
    return game


def run(colour: str, numbers) -> str:
    """A script laying ``numbers`` of one colour, e.g. ``run("R", [10, 9])`` is ``"R10 R9"``."""
    return " ".join(f"{colour}{n}" for n in numbers)


def won(ben_keeps: int = 1) -> Game:
    """Two players, classic: Anna opens, Ben lays 20 - ``ben_keeps`` cards, Anna lays out and wins.

    Ben lays Y11, B11, then yellow down to 1 and up from 12, so all four 11s are on the
    table at the end (Anna's last card is G11; R20 stays off the table).
    """
    assert 1 <= ben_keeps <= 19
    bens = ["Y11", "B11"] + [f"Y{n}" for n in range(10, 0, -1)] + [f"Y{n}" for n in range(12, 21)]
    game = play(new_game(), "R11 |")
    play(game, " ".join(bens[: 20 - ben_keeps]) + " |")
    play(game, run("R", range(10, 0, -1)) + " " + run("R", range(12, 20)))
    assert game.hands == [1, ben_keeps] and not game.over
    ok(game.place(C("G11")))
    assert game.over and game.winner_name == "Anna" and game.hands == [0, ben_keeps]
    return game


def empty_stock() -> Game:
    """Six players, classic (stock 20): the stock is drawn empty, Anna to move, nothing done."""
    game = play(new_game(players=6), "R11 |")  # Ben to move
    while game.stock:
        for _ in range(min(3, game.stock)):
            ok(game.draw())
        ok(game.next())
    while game.current_player != "Anna":
        ok(game.next())  # with an empty stock a player may pass
    assert game.stock == 0 and game.placed == 0 and game.drawn == 0
    return game


# ----------------------------------------------------------------- the full-information deal
class ScriptedRng(random.Random):
    """A random source whose shuffles lay the deck out in given orders, one per deal.

    After the last order is used up, further shuffles repeat it.
    """

    def __init__(self, *orders):
        super().__init__(0)
        self.orders = [list(o) for o in orders]
        self.shuffles = 0

    def shuffle(self, x):
        order = self.orders[min(self.shuffles, len(self.orders) - 1)]
        assert sorted(order) == sorted(x), "an arrangement must be a permutation of the deck"
        x[:] = order
        self.shuffles += 1


def arrange(preset, players: int, hands, draws=(), safe=lambda c: not 9 <= c.number <= 13):
    """A deck order dealing ``hands`` (filled up with ``safe`` cards) and ``draws`` on top of the stock."""
    preset = preset_of(preset)
    size = preset.hand_size(players)
    laid = {Card(colour, n) for colour in preset.colours for n in preset.laid_out}
    deck = [c for c in preset.deck if c not in laid]
    named = [C(x) for hand in hands for x in hand] + [C(x) for x in draws]
    assert len(set(named)) == len(named)
    filler = [c for c in deck if c not in named and safe(c)]
    used = set(named)
    order = []
    for seat in range(players):
        hand = [C(x) for x in (hands[seat] if seat < len(hands) else ())]
        while len(hand) < size:
            c = filler.pop(0)
            hand.append(c)
            used.add(c)
        order += hand
    order += [c for c in deck if c not in used]
    order += [C(x) for x in reversed(draws)]  # the stock's top is its last card
    return order


def dealt(preset, hands, draws=(), players: int = 2, **kw) -> Deal:
    """A :class:`Deal` of ``preset`` (a name or a preset) arranged by :func:`arrange`; ``kw`` goes to it."""
    preset = preset_of(preset)
    return Deal(preset, NAMES[:players], ScriptedRng(arrange(preset, players, hands, draws, **kw)))
