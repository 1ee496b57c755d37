"""The setup menu: a button-only flow (NEXT on, DRAW/BACK change, NEXT held to leave), and
what its choices change on the device: the players and rules at once before the first
card, from the next session once one has begun; sound and language at once."""

from __future__ import annotations

import pytest

from companion.cards import Card
from companion.device.app import build
from companion.device.config import parse_config
from companion.rules import Place
from companion.ui import screens
from companion.ui.menu import ITEMS, Choice, Menu

NAMES = ("Anna", "Ben", "Cem", "Spieler 4", "Spieler 5", "Spieler 6")


def choice(**changes) -> Choice:
    fields = dict(names=NAMES, players=3, dealer=2, rules="classic", session=("games", 3), tiebreak="share",
                  volume=0.8, lang="de")
    return Choice(**{**fields, **changes})


def test_next_walks_the_items_and_closes_the_menu_after_the_last():
    menu = Menu(choice())
    results = [menu.press("next") for _ in ITEMS]
    assert results == [None] * (len(ITEMS) - 1) + ["done"] and menu.choice == choice()


def test_draw_and_back_step_a_value_round_and_round():
    menu = Menu(choice())
    menu.press("draw")
    assert menu.choice.players == 4
    menu.press("back")
    menu.press("back")
    assert menu.choice.players == 2
    menu.press("back")  # past the fewest: round to the most
    assert menu.choice.players == 6


def test_fewer_players_keep_a_dealer_and_rules_that_fit():
    menu = Menu(choice(players=4, dealer=3, rules="classic"))
    menu.press("back")
    menu.press("back")  # 2 players
    assert menu.choice.players == 2 and menu.choice.dealer == 1


def test_the_player_after_the_dealer_begins():
    assert choice(dealer=0).seats == ("Ben", "Cem", "Anna")
    assert choice(dealer=2).seats == ("Anna", "Ben", "Cem")


def test_holding_next_leaves_the_menu_with_nothing_changed():
    menu = Menu(choice())
    menu.press("draw")
    assert menu.press("menu") == "cancel" and menu.choice == choice()


def test_the_menu_screen_shows_the_item_and_its_value():
    menu = Menu(choice())
    menu.press("next")
    menu.press("next")
    menu.press("next")
    assert menu.image().tobytes() == screens.menu("Runde", "3 Spiele", 4, len(ITEMS), "de").tobytes()


@pytest.fixture
def app(tmp_path):
    config = parse_config({"display": {"kind": "none"}, "buzzer": {"kind": "none"},
                           "camera": {"backend": "usb"}}, "test", tmp_path)
    return build(config, need_buttons=False)


def walk(app, presses):
    for name in ["menu", *presses]:
        assert app.menu_press(0, name)


def test_four_players_chosen_before_the_first_card_start_a_new_session_at_once(app):
    walk(app, ["draw"] + ["next"] * len(ITEMS))
    loop = app.runner.loop
    seats = ("Spieler 4", "Anna", "Ben", "Cem")  # Cem still deals: the seat after him begins
    assert loop.game.players == seats and app.menu is None
    assert [line["event"] for line in app.journal.lines] == ["start"]  # the unused start is superseded
    assert tuple(app.journal.lines[0]["players"]) == seats
    game = loop.game
    assert app.feedback.image.tobytes() == screens.turn(None, game.hand_sizes(), game.stock, 0, 3).tobytes()


def test_once_a_session_has_begun_new_rules_wait_for_the_next_session(app):
    loop = app.runner.loop
    assert loop.referee.push(Place(Card.parse("R11"))).ok  # a card is down: the session has begun
    walk(app, ["next", "next", "draw"] + ["next"] * (len(ITEMS) - 2))
    assert loop.game.preset.name == "classic" and loop.start.rules != "classic"
    assert loop.game.on_table(Card.parse("R11"))


def test_language_and_sound_change_at_once(app):
    walk(app, ["next"] * 5 + ["draw", "next", "draw", "next", "next"])  # sound: loud -> off; language: English
    assert app.feedback.panel.lang == "en" and app.choice.volume == 0.0
