"""What the table sees and hears from the device while the referee loop judges: the
loop's outputs through the panel onto luma's dummy display, sounds by name. Readings are
fed without rendering (``table_feed``), as in ``test_loop``."""

from __future__ import annotations

import pytest

from companion.device.display import Screen, open_display
from companion.device.feedback import Feedback
from companion.loop import GameView, RefereeLoop
from companion.rules import Start
from companion.ui import Panel, screens
from table_feed import Feed
from test_loop import place


class Heard:
    def __init__(self):
        self.sounds: list[str] = []

    def play(self, name: str) -> None:
        self.sounds.append(name)


def device(lang="de", players=("Anna", "Ben", "Cem")):
    display, sounder = open_display("dummy"), Heard()
    loop = RefereeLoop(Start(players, "classic"), Feedback(Panel(lang), Screen(display), sounder), opener="Anna")
    feed = Feed(loop)
    feed.quiet()
    return loop, feed, display, sounder


def shows(display, expected) -> bool:
    return display.image.tobytes() == expected.tobytes()


def opened(feed):
    feed.lay("R11", place("R11", "mid"))
    feed.quiet()
    feed.press("next")
    feed.quiet(0.5)


def test_whose_turn_is_shown_with_every_hand_and_the_stock():
    loop, feed, display, _ = device()
    # classic: whoever holds the red 11 opens, so nobody is named before the first card
    assert shows(display, screens.turn(None, {"Anna": 20, "Ben": 20, "Cem": 20}, loop.game.stock, 0, 3))
    opened(feed)
    assert shows(display, screens.turn("Ben", {"Anna": 19, "Ben": 20, "Cem": 20}, loop.game.stock, 0, 3))
    feed.press("draw")
    assert shows(display, screens.turn("Ben", {"Anna": 19, "Ben": 21, "Cem": 20}, loop.game.stock, 1, 3))


def test_a_wrong_colour_beeps_and_stays_on_the_screen_until_the_card_is_taken_back():
    loop, feed, display, sounder = device()
    opened(feed)
    feed.lay("G11", place("G11", "mid"))
    feed.quiet()
    del feed.table["R11"]
    feed.lay("G12", place("R11", "mid"))  # onto the red 11
    feed.quiet()
    assert sounder.sounds == ["rejected"]
    wrong = screens.alert("Falsche Farbe!", "Grün 12 liegt auf Rot 11: falsche Farbe", "Karte wegnehmen")
    assert shows(display, wrong)
    feed.quiet(2.0)
    assert shows(display, wrong)  # it stays
    feed.moving(3)
    del feed.table["G12"]
    feed.table["R11"] = place("R11", "mid")
    feed.moving(2)
    feed.quiet()
    assert shows(display, screens.turn("Ben", loop.game.hand_sizes(), loop.game.stock, 0, 3))


def test_a_skipped_number_names_the_missing_card():
    loop, feed, display, sounder = device()
    opened(feed)
    feed.lay("R13", place("R13", "high"))
    feed.quiet()
    assert sounder.sounds == ["question"]
    assert shows(display, screens.question("Rot 12"))
    feed.press("back")  # no: R13 lies on the 11 alone
    assert sounder.sounds == ["question", "rejected"]
    assert shows(display, screens.alert("Rot 12 fehlt!", "Rot 13 gelegt", "Karte wegnehmen"))


def test_a_refused_button_says_why_without_a_hint_to_lift_a_card():
    loop, feed, display, sounder = device()
    opened(feed)
    feed.press("next")  # Ben has neither laid nor drawn
    assert sounder.sounds == ["rejected"]
    assert shows(display, screens.alert("Erst legen/ziehen!", "Ben muss erst anlegen oder ziehen"))
    feed.press("draw")  # accepted: the alert is over
    assert shows(display, screens.turn("Ben", loop.game.hand_sizes(), loop.game.stock, 1, 3))


def test_the_table_out_of_step_shows_what_the_referee_expects_until_it_matches_again():
    loop, feed, display, sounder = device()
    opened(feed)
    feed.press("draw")
    feed.moving(3)
    hidden = feed.table.pop("R11")  # a cup stands on it
    feed.moving(2)
    feed.quiet(3.5)
    assert shows(display, screens.message("Tisch prüfen", ["Rot: 11 erwartet"]))
    feed.moving(3)
    feed.table["R11"] = hidden
    feed.quiet()
    assert shows(display, screens.turn("Ben", loop.game.hand_sizes(), loop.game.stock, 1, 3))


def test_the_screens_speak_english_on_request():
    loop, feed, display, _ = device(lang="en")
    opened(feed)
    feed.press("next")
    assert shows(display, screens.alert("Lay or draw first!", "Ben must lay or draw a card first"))


def view(**changes) -> GameView:
    fields = dict(t_ms=0, current="Ben", hands={"Anna": 0, "Ben": 3}, stock=0, rows={}, drawn=0, over=False,
                  winner=None, alert=None, question=None)
    return GameView(**{**fields, **changes})


def test_the_end_of_the_game_sounds_once_and_shows_the_winner():
    panel = Panel("de")
    assert panel.state(view()) is None
    assert panel.state(view(over=True, winner="Anna")) == "game_over"
    assert panel.state(view(over=True, winner="Anna")) is None  # once
    assert panel.image().tobytes() == screens.game_over("Anna", {}, "de").tobytes()


@pytest.mark.parametrize("tick, sounds", [(False, []), (True, ["turn"])])
def test_the_turn_tick_sounds_only_when_asked_for(tick, sounds):
    display, sounder = open_display("dummy"), Heard()
    loop = RefereeLoop(Start(("Anna", "Ben"), "classic"), Feedback(Panel("de", turn_tick=tick), Screen(display),
                                                                    sounder), opener="Anna")
    feed = Feed(loop)
    feed.quiet()
    opened(feed)
    assert sounder.sounds == sounds
