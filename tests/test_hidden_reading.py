"""``Game.hidden_reading``: the one card that, laid in the same reach beneath a card, makes
it legal. The camera sees only a pile's top; the loop asks about this card rather than
accuse."""

import pytest

from companion.cards import cards
from companion.rules import Game, get_preset


def game(rules="classic", players=("Anna", "Ben", "Cem"), moves=("R11", "next")):
    g = Game(get_preset(rules), players)
    for move in moves:
        assert (g.next() if move == "next" else g.draw() if move == "draw" else g.place(cards(move)[0])).ok, move
    return g


def reading(g, card, on=None):
    before = (list(g.masks), list(g.hands), g.placed, g.drawn, g.turn_over, len(g._history))
    result = g.hidden_reading(cards(card)[0], on=cards(on)[0] if on else None)
    assert (list(g.masks), list(g.hands), g.placed, g.drawn, g.turn_over, len(g._history)) == before
    return None if result is None else [c.code for c in result]


@pytest.mark.parametrize("card, on, expected", [
    ("R12", None, []),  # legal as it is
    ("R13", None, ["R12"]),  # R12 and R13 in one reach
    ("R9", None, ["R10"]),
    ("R13", "R11", ["R12"]),
    ("R14", None, None),  # two missing: more than one reach holds
    ("B13", None, None),  # the row is not open
    ("R13", "G11", None),  # on another colour: wrong however it is read
    ("R11", None, None),  # on the table already
])
def test_readings_in_classic(card, on, expected):
    g = game(moves=("R11", "next", "G11", "next"))
    assert reading(g, card, on) == expected


def test_no_reading_where_the_turn_ends_after_one_card():
    g = game(moves=("R11", "next", "draw"))  # classic: a card laid after drawing ends the turn
    assert reading(g, "R13") is None
    assert reading(g, "R12") == []


def test_no_reading_where_the_opening_card_ends_the_turn():
    g = game(moves=())
    assert reading(g, "R12") is None  # R11 then R12: the opening ends the turn in classic


def test_no_reading_where_the_hidden_card_would_be_the_players_last():
    g = game(players=("Anna", "Ben"), moves=("R11", "next"))
    g.hands[g.current] = 1
    assert reading(g, "R13") is None


def test_rows_growing_inward_read_the_card_between_the_runs():
    g = Game(get_preset("junior"), ("Anna", "Ben"))
    low, high = g.preset.laid_out
    colour = "R"
    assert reading(g, f"{colour}{low + 2}") == [f"{colour}{low + 1}"]
    assert reading(g, f"{colour}{high - 2}") == [f"{colour}{high - 1}"]
