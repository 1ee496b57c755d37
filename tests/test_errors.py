"""Every error code and every message: each rejection leaves the game exactly as it was.

A scenario builds a game by pushing accepted events, then pushes one event the rules
must refuse. The test checks the code, the reason, both languages of the message, and
that nothing in the game changed.
"""

from __future__ import annotations

import string
from types import MappingProxyType

import pytest

from companion.cards import Card, Colour
from companion.record import parse_event
from companion.rules import PRESETS, ErrorCode, Game
from companion.rules.errors import ACCEPTED, MESSAGES, Rejection, reject
from companion.rules.events import Draw, Next, Penalty, Place, Start, Undo
from companion.rules.session import Referee
from helpers import C, empty_stock, new_game, ok, play, won


# ----------------------------------------------------------------- helpers
def game(script: str = "", preset: str = "classic", players: int = 2) -> Game:
    return play(new_game(preset, players), script)


def snapshot(g: Game) -> tuple:
    """Everything a rejected event must leave alone."""
    return (
        tuple(g.masks),
        tuple(g.hands),
        g.stock,
        g.current,
        g.current_player,
        g.started,
        g.opened,
        g.placed,
        g.drawn,
        g.turn_over,
        g.winner,
        g.turns,
        g.openers,
        dict(g.penalties),
        tuple(g.table()),
        repr(g.rows()),
        g.over,
    )


# ----------------------------------------------------------------- the scenarios
# (id, setup, action, code, reason)
SCENARIOS = [
    # bad_event
    ("not_in_deck_junior", lambda: game(preset="junior"), lambda g: g.place(C("R12")), ErrorCode.BAD_EVENT, "not_in_deck"),
    ("not_in_deck_sixty", lambda: game(preset="sixty"), lambda g: g.place(C("B11")), ErrorCode.BAD_EVENT, "not_in_deck"),
    ("unknown_player_place", lambda: game(), lambda g: g.place(C("R11"), player="Zoe"), ErrorCode.BAD_EVENT, "unknown_player"),
    ("unknown_player_draw", lambda: game("R11 |"), lambda g: g.draw(player="Zoe"), ErrorCode.BAD_EVENT, "unknown_player"),
    ("unknown_player_next", lambda: game("R11"), lambda g: g.next(player="Zoe"), ErrorCode.BAD_EVENT, "unknown_player"),
    ("on_not_on_table", lambda: game("R11 |"), lambda g: g.place(C("R12"), on=C("R13")), ErrorCode.BAD_EVENT, "on_not_on_table"),
    ("opening_first_draw", lambda: game(), lambda g: g.draw(), ErrorCode.BAD_EVENT, "opening_first"),
    ("opening_first_next", lambda: game(), lambda g: g.next(), ErrorCode.BAD_EVENT, "opening_first"),
    ("opening_first_any_start", lambda: game(preset="any-start"), lambda g: g.draw(), ErrorCode.BAD_EVENT, "opening_first"),
    ("nothing_to_undo", lambda: game(), lambda g: g.undo(), ErrorCode.BAD_EVENT, "nothing_to_undo"),
    # not_your_turn
    ("not_your_turn_place", lambda: game("R11 |"), lambda g: g.place(C("R12"), player="Anna"), ErrorCode.NOT_YOUR_TURN, "not_your_turn"),
    ("not_your_turn_draw", lambda: game("R11 |"), lambda g: g.draw(player="Anna"), ErrorCode.NOT_YOUR_TURN, "not_your_turn"),
    ("not_your_turn_next", lambda: game("R11 | R12"), lambda g: g.next(player="Anna"), ErrorCode.NOT_YOUR_TURN, "not_your_turn"),
    ("not_your_turn_junior", lambda: game("draw", preset="junior", players=3), lambda g: g.place(C("R2"), player="Cem"), ErrorCode.NOT_YOUR_TURN, "not_your_turn"),
    # row_not_open
    ("row_not_open_first", lambda: game(), lambda g: g.place(C("R10")), ErrorCode.ROW_NOT_OPEN, "row_not_open_first"),
    ("row_not_open", lambda: game("R11 |"), lambda g: g.place(C("Y10")), ErrorCode.ROW_NOT_OPEN, "row_not_open"),
    ("row_not_open_any_start", lambda: game("G5 |", preset="any-start"), lambda g: g.place(C("R11")), ErrorCode.ROW_NOT_OPEN, "row_not_open"),
    # skipped_number
    ("missing_one", lambda: game("R11 |"), lambda g: g.place(C("R13")), ErrorCode.SKIPPED_NUMBER, "missing_one"),
    ("missing_many", lambda: game("R11 |"), lambda g: g.place(C("R14")), ErrorCode.SKIPPED_NUMBER, "missing_many"),
    ("missing_false_start", lambda: game(preset="false-start"), lambda g: g.place(C("R11")), ErrorCode.SKIPPED_NUMBER, "missing_many"),
    # wrong_colour
    ("wrong_colour", lambda: game("R11 | Y11"), lambda g: g.place(C("R12"), on=C("Y11")), ErrorCode.WRONG_COLOUR, "wrong_colour"),
    # already_played
    ("already_played", lambda: game("R11 | R10"), lambda g: g.place(C("R10")), ErrorCode.ALREADY_PLAYED, "already_played"),
    ("already_played_laid_out", lambda: game(preset="junior"), lambda g: g.place(C("B11")), ErrorCode.ALREADY_PLAYED, "already_played"),
    # turn_over
    ("after_opening", lambda: game("R11"), lambda g: g.place(C("R12")), ErrorCode.TURN_OVER, "after_opening"),
    ("after_drawn_card", lambda: game("R11 | draw R12"), lambda g: g.place(C("R13")), ErrorCode.TURN_OVER, "after_drawn_card"),
    # draw_after_play
    ("draw_after_play", lambda: game("R11 | R12"), lambda g: g.draw(), ErrorCode.DRAW_AFTER_PLAY, "draw_after_play"),
    ("draw_after_opening", lambda: game("R11"), lambda g: g.draw(), ErrorCode.DRAW_AFTER_PLAY, "draw_after_play"),
    # draw_limit
    ("draw_limit", lambda: game("R11 | draw draw draw"), lambda g: g.draw(), ErrorCode.DRAW_LIMIT, "draw_limit"),
    ("draw_limit_one", lambda: game("R11 | draw", preset="draw-one"), lambda g: g.draw(), ErrorCode.DRAW_LIMIT, "draw_limit_one"),
    ("draw_limit_junior", lambda: game("draw", preset="junior"), lambda g: g.draw(), ErrorCode.DRAW_LIMIT, "draw_limit_one"),
    # stock_empty
    ("stock_empty", empty_stock, lambda g: g.draw(), ErrorCode.STOCK_EMPTY, "stock_empty"),
    # must_play_or_draw
    ("nothing_done", lambda: game("R11 |"), lambda g: g.next(), ErrorCode.MUST_PLAY_OR_DRAW, "nothing_done"),
    ("nothing_done_junior", lambda: game(preset="junior"), lambda g: g.next(), ErrorCode.MUST_PLAY_OR_DRAW, "nothing_done"),
    ("draw_more_1", lambda: game("R11 | draw"), lambda g: g.next(), ErrorCode.MUST_PLAY_OR_DRAW, "draw_more"),
    ("draw_more_2", lambda: game("R11 | draw draw"), lambda g: g.next(), ErrorCode.MUST_PLAY_OR_DRAW, "draw_more"),
    # game_over
    ("game_over_place", won, lambda g: g.place(C("Y20")), ErrorCode.GAME_OVER, "game_over"),
    ("game_over_draw", won, lambda g: g.draw(), ErrorCode.GAME_OVER, "game_over"),
    ("game_over_next", won, lambda g: g.next(), ErrorCode.GAME_OVER, "game_over"),
    # bad_penalty
    ("penalty_negative", won, lambda g: g.penalty("Ben", -3), ErrorCode.BAD_PENALTY, "penalty_negative"),
    ("penalty_winner", won, lambda g: g.penalty("Anna", 4), ErrorCode.BAD_PENALTY, "penalty_winner"),
    ("penalty_unknown", won, lambda g: g.penalty("Zoe", 4), ErrorCode.BAD_PENALTY, "penalty_unknown"),
    ("penalty_early", lambda: game("R11 | R12"), lambda g: g.penalty("Ben", 4), ErrorCode.BAD_PENALTY, "penalty_early"),
    ("penalty_twice", lambda: _with_penalty(won(), "Ben", 20), lambda g: g.penalty("Ben", 20), ErrorCode.BAD_PENALTY, "penalty_twice"),
    ("penalty_range_high", won, lambda g: g.penalty("Ben", 21), ErrorCode.BAD_PENALTY, "penalty_range"),
    ("penalty_range_low", lambda: won(2), lambda g: g.penalty("Ben", 1), ErrorCode.BAD_PENALTY, "penalty_range"),
    ("penalty_impossible", won, lambda g: g.penalty("Ben", 11), ErrorCode.BAD_PENALTY, "penalty_impossible"),
]


def _with_penalty(g: Game, player: str, points: int) -> Game:
    ok(g.penalty(player, points))
    return g


@pytest.mark.parametrize("setup, action, code, reason", [s[1:] for s in SCENARIOS], ids=[s[0] for s in SCENARIOS])
def test_rejection_leaves_the_game_unchanged(setup, action, code, reason):
    g = setup()
    before = snapshot(g)
    verdict = action(g)
    assert isinstance(verdict, Rejection)
    assert not verdict.ok
    assert verdict.code is code
    assert verdict.reason == reason
    assert snapshot(g) == before
    german, english = verdict.message("de"), verdict.message("en")
    assert german and english and german != english
    assert "{" not in german + english
    assert str(verdict) == f"{code.value}: {english}"
    # the same event again gets the same verdict: nothing was half-done
    assert action(g) == verdict
    assert snapshot(g) == before
    # and nothing was left to undo: undo takes back the same event as in an untouched game
    untouched = setup()
    assert g.undo().ok == untouched.undo().ok
    assert snapshot(g) == snapshot(untouched)


def test_every_error_code_has_a_scenario():
    covered = {s[3] for s in SCENARIOS} | {code for _, _, code in REFEREE_SCENARIOS}
    assert covered == set(ErrorCode)


def test_every_message_has_a_scenario():
    reasons = {s[4] for s in SCENARIOS} | {reason for reason, _, _ in REFEREE_SCENARIOS}
    reasons |= {reason for reason, _ in RECORD_SCENARIOS}
    assert reasons == set(MESSAGES)


def test_error_code_values_are_the_record_contract():
    assert {c.value for c in ErrorCode} == {
        "bad_event", "not_your_turn", "row_not_open", "skipped_number", "wrong_colour", "already_played",
        "turn_over", "draw_after_play", "draw_limit", "stock_empty", "must_play_or_draw", "game_over",
        "bad_penalty",
    }


# ----------------------------------------------------------------- the session referee
def _started(*extra) -> Referee:
    referee = Referee()
    ok(referee.push(Start(("Anna", "Ben"))))
    for event in extra:
        ok(referee.push(event))
    return referee


class _Strange:
    kind = "jump"


# (reason, build referee, event)
REFEREE_SCENARIOS_EVENTS = [
    ("no_start", Referee, Place(C("R11"))),
    ("no_start", Referee, Undo()),
    ("unknown_rules", _started, Start(("Anna", "Ben"), "schnipp-schnapp")),
    ("bad_players", _started, Start(("Anna", "Anna"))),
    ("bad_players", _started, Start(("Anna",))),
    ("bad_players", _started, Start(("Anna", " "))),
    ("bad_option", _started, Start(("Anna", "Ben"), "classic", MappingProxyType({"without": "R"}))),
    ("bad_option", _started, Start(("Cem", "Dana"), "sixty", MappingProxyType({"without": "X"}))),
    ("bad_option", _started, Start(("Cem", "Dana"), "classic", MappingProxyType({"games": 0}))),
    ("unknown_event", _started, _Strange()),
]
REFEREE_SCENARIOS = [(reason, build, ErrorCode.BAD_EVENT) for reason, build, _ in REFEREE_SCENARIOS_EVENTS]


@pytest.mark.parametrize("reason, build, event", REFEREE_SCENARIOS_EVENTS, ids=[r[0] for r in REFEREE_SCENARIOS_EVENTS])
def test_referee_rejections_change_nothing(reason, build, event):
    referee = build()
    game_before, session_before = referee.game, referee.session
    games_before = len(session_before.games) if session_before else None
    state_before = snapshot(game_before) if game_before else None
    verdict = referee.push(event)
    assert verdict.code is ErrorCode.BAD_EVENT and verdict.reason == reason
    assert referee.game is game_before and referee.session is session_before
    assert (len(referee.session.games) if referee.session else None) == games_before
    assert (snapshot(referee.game) if referee.game else None) == state_before
    assert verdict.message("de") and verdict.message("en")


def test_referee_passes_game_rejections_through():
    referee = _started(Place(C("R11")), Next())
    verdict = referee.push(Place(C("R12"), player="Anna"))
    assert verdict.code is ErrorCode.NOT_YOUR_TURN
    assert referee.push(Penalty("Ben", 3)).reason == "penalty_early"
    assert referee.push(Draw(player="Ben")) is ACCEPTED


# (reason, JSON object)
RECORD_SCENARIOS = [
    ("not_an_object", ["place", "R11"]),
    ("missing_field", {"card": "R11"}),
    ("missing_field", {"event": "place"}),
    ("bad_field", {"event": "penalty", "player": "Ben", "points": "ten"}),
    ("bad_field", {"event": "draw", "player": 7}),
    ("unknown_card", {"event": "place", "card": "R21"}),
    ("unknown_event", {"event": "shuffle"}),
]


@pytest.mark.parametrize("reason, obj", RECORD_SCENARIOS)
def test_record_lines_that_are_no_event(reason, obj):
    verdict = parse_event(obj)
    assert isinstance(verdict, Rejection)
    assert verdict.reason == reason and verdict.code is ErrorCode.BAD_EVENT
    assert verdict.message("de") != verdict.message("en")


# ----------------------------------------------------------------- explicit cases the brief names
def test_not_your_turn_when_player_names_someone_else():
    g = game("R11 |", players=3)  # Ben on turn
    verdict = g.place(C("R12"), player="Cem")
    assert verdict.code is ErrorCode.NOT_YOUR_TURN
    assert verdict.message("de") == "Cem ist nicht dran, Ben ist am Zug"
    assert verdict.message("en") == "It is Ben's turn, not Cem's"
    ok(g.place(C("R12"), player="Ben"))
    assert g.next(player="Anna").code is ErrorCode.NOT_YOUR_TURN
    ok(g.next(player="Ben"))
    assert g.current_player == "Cem"


def test_naming_the_first_player_is_not_a_turn_error():
    """Before the first turn event any player may be named: that player begins."""
    g = game(preset="junior", players=3)
    ok(g.draw(player="Cem"))
    assert g.current_player == "Cem"
    assert g.hands == [5, 5, 6]


def test_wrong_colour_when_on_is_another_colour():
    g = game("R11 | Y11 Y10")
    verdict = g.place(C("R10"), on=C("Y10"))
    assert verdict.code is ErrorCode.WRONG_COLOUR
    assert verdict.message("de") == "Rot 10 liegt auf Gelb 10: falsche Farbe"
    assert verdict.message("en") == "Red 10 lies on Yellow 10: wrong colour"
    ok(g.place(C("R10"), on=C("R11")))


def test_on_must_be_on_the_table():
    g = game("R11 |")
    verdict = g.place(C("R12"), on=C("Y11"))
    assert verdict.reason == "on_not_on_table"
    assert verdict.message("de") == "Gelb 11 liegt nicht auf dem Tisch"


def test_already_played():
    g = game("R11 | R12 |")
    verdict = g.place(C("R12"))
    assert verdict.code is ErrorCode.ALREADY_PLAYED
    assert verdict.message("de") == "Rot 12 liegt schon auf dem Tisch"
    assert verdict.message("en") == "Red 12 is already on the table"


# ----------------------------------------------------------------- undo
UNDO_SCRIPT = "R11 | R10 R12 Y11 | draw draw draw | draw R13 | B11 G11 |"


def test_undo_restores_each_previous_state_exactly():
    g = game(players=3)
    states = [snapshot(g)]
    for token in UNDO_SCRIPT.split():
        play(g, token)
        states.append(snapshot(g))
    # the last states differ from the first: undo really has work to do
    assert states[-1] != states[0]
    for expected in reversed(states[:-1]):
        assert g.undo() is ACCEPTED
        assert snapshot(g) == expected
    verdict = g.undo()
    assert verdict.code is ErrorCode.BAD_EVENT and verdict.reason == "nothing_to_undo"
    assert verdict.message("de") == "Nichts zurückzunehmen"
    assert snapshot(g) == states[0]


def test_undo_then_redo_gives_the_same_state():
    g = game("R11 | R10 R12", players=3)
    after = snapshot(g)
    ok(g.undo())
    ok(g.place(C("R12")))
    assert snapshot(g) == after


def test_undo_takes_back_the_win_and_the_penalties():
    g = won(2)
    ended = snapshot(g)
    ok(g.penalty("Ben", 21))
    ok(g.penalty("Anna", 0))
    assert g.penalties_complete
    ok(g.undo())
    assert g.penalties == {"Ben": 21}
    ok(g.undo())
    assert snapshot(g) == ended and g.penalties == {}
    ok(g.undo())  # the winning card
    assert not g.over and g.winner is None and g.hands == [1, 2]
    ok(g.place(C("G11")))
    assert g.winner_name == "Anna"


def test_undo_after_a_rejection_takes_back_the_last_accepted_event():
    g = game("R11 | R12")
    before_r12 = snapshot(game("R11 |"))
    assert not g.place(C("R14")).ok
    ok(g.undo())
    assert snapshot(g) == before_r12


def test_undo_restores_the_any_start_openers():
    g = game(preset="any-start")
    ok(g.place(C("G5")))
    assert g.openers == frozenset({5})
    ok(g.undo())
    assert g.openers == PRESETS["any-start"].openers
    assert g.current is None and not g.started
    ok(g.place(C("Y7"), player="Ben"))
    assert g.openers == frozenset({7}) and g.current_player == "Ben"


def test_undo_restores_the_turn():
    g = game("R11 | R10 |", players=3)
    assert g.current_player == "Cem" and g.turns == 2
    ok(g.undo())
    assert g.current_player == "Ben" and g.placed == 1 and g.turns == 1


def test_rejected_events_are_not_undone():
    g = game("R11 |")
    for _ in range(3):
        assert not g.place(C("R13")).ok
    ok(g.undo())  # takes back the NEXT
    assert g.current_player == "Anna" and g.turn_over == "after_opening"


# ----------------------------------------------------------------- the messages
PLAUSIBLE = {
    "text": "R21",
    "field": "card",
    "card": C("R12"),
    "player": "Anna",
    "on": C("Y11"),
    "current": "Ben",
    "colour": Colour.GREEN,
    "openers": [C("G11")],
    "missing": [C("R12"), C("R13")],
    "limit": 3,
    "drawn": 1,
    "winner": "Cem",
    "points": 25,
    "count": 2,
    "low": 2,
    "high": 40,
}


def _placeholders(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


@pytest.mark.parametrize("reason", list(MESSAGES))
def test_every_message_exists_in_german_and_english(reason):
    code, german, english = MESSAGES[reason]
    assert isinstance(code, ErrorCode)
    assert german.strip() and english.strip() and german != english
    assert _placeholders(german) == _placeholders(english)
    assert _placeholders(german) <= set(PLAUSIBLE), "a placeholder without a plausible value here"
    params = {name: PLAUSIBLE[name] for name in _placeholders(german)}
    rejection = reject(reason, **params)
    assert rejection.code is code
    de, en = rejection.message("de"), rejection.message("en")
    assert de and en and de != en
    assert "{" not in de + en and "}" not in de + en
    assert rejection.message() == de  # German is the default
    for value in params.values():
        if isinstance(value, Card):
            assert value.name("de") in de and value.name("en") in en


def test_messages_render_cards_and_colours_in_each_language():
    r = reject("row_not_open", colour=Colour.GREEN, openers=[C("G10"), C("G11"), C("G12")])
    assert r.message("de") == "Reihe Grün ist noch nicht eröffnet: sie beginnt mit Grün 10, Grün 11 oder Grün 12"
    assert r.message("en") == "The Green row is not open yet: it starts with Green 10, Green 11 or Green 12"
    r = reject("missing_many", missing=[C("B5"), C("B6"), C("B7")])
    assert r.message("de") == "Blau 5, Blau 6 und Blau 7 fehlen"
    assert r.message("en") == "Blue 5, Blue 6 and Blue 7 are missing"


def test_reject_refuses_an_unknown_reason():
    with pytest.raises(KeyError):
        reject("no_such_reason")


def test_accepted_has_no_code_or_message():
    assert ACCEPTED.ok and ACCEPTED.code is None and ACCEPTED.reason is None
    assert ACCEPTED.message("de") is None and ACCEPTED.message("en") is None
