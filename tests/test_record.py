"""Game records as JSON Lines: parsing every event, every malformed line, reading, checking, the summary."""

from __future__ import annotations

import io
import json
from types import MappingProxyType

import pytest

from companion.cards import Card
from companion.record import (
    RecordError,
    check,
    dumps,
    event_to_dict,
    parse_event,
    read_objects,
    read_record,
    summary,
    write_record,
)
from companion.rules.errors import ErrorCode, Rejection
from companion.rules.events import Draw, Next, Penalty, Place, Start, Undo
from companion.rules.session import Referee
from helpers import EXAMPLE, SUMMARY_FIELDS


def lines_of(*texts: str) -> list[str]:
    return [t + "\n" for t in texts]


def run(lines: list[str]) -> tuple[list, Referee]:
    referee = Referee()
    return list(check(read_objects(lines), referee)), referee


def is_bad_event(result: object) -> bool:
    return isinstance(result, Rejection) and result.code is ErrorCode.BAD_EVENT


# ----------------------------------------------------------------- parse_event: every kind
@pytest.mark.parametrize(
    "obj, expected",
    [
        ({"event": "start", "players": ["Anna", "Ben", "Cem"], "rules": "classic"},
         Start(("Anna", "Ben", "Cem"), "classic")),
        ({"event": "start", "players": ["Anna", "Ben"]}, Start(("Anna", "Ben"), "classic")),
        ({"event": "start", "players": ["Anna", "Ben"], "rules": "sixty", "options": {"without": "G"}},
         Start(("Anna", "Ben"), "sixty", MappingProxyType({"without": "G"}))),
        ({"event": "place", "card": "R11"}, Place(Card.parse("R11"))),
        ({"event": "place", "card": "R11", "player": "Ben"}, Place(Card.parse("R11"), "Ben")),
        ({"event": "place", "card": "R12", "player": "Ben", "on": "R11"},
         Place(Card.parse("R12"), "Ben", Card.parse("R11"))),
        ({"event": "place", "card": "Rot 12"}, Place(Card.parse("R12"))),
        ({"event": "place", "card": "R11", "player": None}, Place(Card.parse("R11"))),
        ({"event": "next"}, Next()),
        ({"event": "next", "player": "Cem"}, Next("Cem")),
        ({"event": "draw"}, Draw()),
        ({"event": "draw", "player": "Anna"}, Draw("Anna")),
        ({"event": "undo"}, Undo()),
        ({"event": "penalty", "player": "Anna", "points": 21}, Penalty("Anna", 21)),
        ({"event": "penalty", "player": "Anna", "points": 0}, Penalty("Anna", 0)),
    ],
)
def test_parse_every_event_kind(obj, expected):
    event = parse_event(obj)
    assert event == expected
    assert event.kind == obj["event"]


def test_start_keeps_players_in_seat_order_and_options():
    event = parse_event({"event": "start", "players": ["Cem", "Anna", "Ben"], "options": {"games": 5}})
    assert event.players == ("Cem", "Anna", "Ben")
    assert event.rules == "classic"
    assert dict(event.options) == {"games": 5}


def test_unknown_extra_fields_are_ignored():
    assert parse_event({"event": "next", "t_ms": 1234, "mistake": "none"}) == Next()
    assert parse_event({"event": "place", "card": "B7", "t_ms": 5}) == Place(Card.parse("B7"))
    assert parse_event({"event": "penalty", "player": "Ben", "points": 3, "note": "x"}) == Penalty("Ben", 3)


# ----------------------------------------------------------------- parse_event: malformed input
MALFORMED = {
    # not an object
    "list": [1, 2],
    "string": "place R11",
    "number": 5,
    "null": None,
    "true": True,
    # no or unknown event
    "empty object": {},
    "event null": {"event": None},
    "unknown event": {"event": "fold"},
    "event upper case": {"event": "PLACE", "card": "R11"},
    "event number": {"event": 3},
    # start
    "start without players": {"event": "start"},
    "start players string": {"event": "start", "players": "Anna, Ben"},
    "start one player": {"event": "start", "players": ["Anna"]},
    "start seven players": {"event": "start", "players": ["A", "B", "C", "D", "E", "F", "G"]},
    "start rules number": {"event": "start", "players": ["Anna", "Ben"], "rules": 5},
    "start options list": {"event": "start", "players": ["Anna", "Ben"], "options": ["games", 3]},
    # place
    "place without card": {"event": "place"},
    "place card number": {"event": "place", "card": 11},
    "place card object": {"event": "place", "card": {"card": "R11"}},
    "place unknown colour": {"event": "place", "card": "X11"},
    "place number 21": {"event": "place", "card": "R21"},
    "place number 0": {"event": "place", "card": "R0"},
    "place no number": {"event": "place", "card": "R"},
    "place player number": {"event": "place", "card": "R11", "player": 2},
    "place player empty": {"event": "place", "card": "R11", "player": "  "},
    "place on unknown card": {"event": "place", "card": "R12", "on": "Q9"},
    "place on number": {"event": "place", "card": "R12", "on": 11},
    # draw / next
    "draw player number": {"event": "draw", "player": 1},
    "draw player empty": {"event": "draw", "player": ""},
    "next player list": {"event": "next", "player": ["Anna"]},
    # penalty
    "penalty without points": {"event": "penalty", "player": "Anna"},
    "penalty without player": {"event": "penalty", "points": 21},
    "penalty points bool true": {"event": "penalty", "player": "Anna", "points": True},
    "penalty points bool false": {"event": "penalty", "player": "Anna", "points": False},
    "penalty points string": {"event": "penalty", "player": "Anna", "points": "21"},
    "penalty points float": {"event": "penalty", "player": "Anna", "points": 21.5},
    "penalty points null": {"event": "penalty", "player": "Anna", "points": None},
    "penalty player number": {"event": "penalty", "player": 7, "points": 21},
    "penalty player empty": {"event": "penalty", "player": "", "points": 21},
}


MALFORMED_PARAMS = [pytest.param(obj, id=name) for name, obj in MALFORMED.items()] + [
    pytest.param({"event": "place", "card": None}, id="place card null"),
    pytest.param({"event": "place", "card": ["R", 11]}, id="place card list"),
    pytest.param({"event": "place", "card": "R12", "on": ["R", 11]}, id="place on list"),
    pytest.param({"event": "start", "players": ["Anna", "Ben"], "rules": ["classic"]}, id="start rules list"),
]


@pytest.mark.parametrize("obj", MALFORMED_PARAMS)
def test_malformed_input_is_bad_event(obj):
    result = parse_event(obj)
    assert is_bad_event(result), result
    # the rejection explains itself in both languages
    assert result.message("de") and result.message("en")
    assert result.message("de") != result.message("en")


@pytest.mark.parametrize(
    "obj, field",
    [
        ({}, "event"),
        ({"event": "place"}, "card"),
        ({"event": "start"}, "players"),
        ({"event": "penalty", "player": "Anna"}, "points"),
        ({"event": "penalty", "points": 3}, "player"),
    ],
)
def test_missing_field_is_named(obj, field):
    result = parse_event(obj)
    assert is_bad_event(result)
    assert field in result.message("en")
    assert field in result.message("de")


def test_unknown_event_and_card_are_named():
    assert "fold" in parse_event({"event": "fold"}).message("en")
    assert "X11" in parse_event({"event": "place", "card": "X11"}).message("de")


@pytest.mark.parametrize("kind", [["place"], {"kind": "place"}])
def test_unhashable_event_field_is_bad_event(kind):
    assert is_bad_event(parse_event({"event": kind, "card": "R11"}))


def test_start_with_unhashable_player_names_is_rejected():
    checked, referee = run(lines_of('{"event": "start", "players": [["Anna"], "Ben"]}'))
    assert len(checked) == 1
    assert not checked[0].verdict.ok
    assert checked[0].verdict.code is ErrorCode.BAD_EVENT
    assert referee.game is None


@pytest.mark.parametrize("players", [["Anna", 5], ["Anna", "Anna"], ["Anna", " "]])
def test_start_with_bad_player_names_is_rejected(players):
    checked, referee = run(lines_of(json.dumps({"event": "start", "players": players})))
    assert not checked[0].verdict.ok
    assert checked[0].verdict.code is ErrorCode.BAD_EVENT
    assert referee.game is None


# ----------------------------------------------------------------- event_to_dict / round trip
ROUND_TRIP = [
    Start(("Anna", "Ben", "Cem")),
    Start(("Anna", "Ben"), "sixty", MappingProxyType({"without": "Y", "games": 3})),
    Start(("A", "B", "C", "D", "E", "F"), "junior", MappingProxyType({"limit": 500, "tiebreak": "playoff"})),
    Place(Card.parse("R11")),
    Place(Card.parse("G20"), "Ben"),
    Place(Card.parse("B1"), "Cem", Card.parse("B2")),
    Draw(),
    Draw("Anna"),
    Next(),
    Next("Ben"),
    Undo(),
    Penalty("Anna", 21),
    Penalty("Ben", 0),
]


@pytest.mark.parametrize("event", ROUND_TRIP, ids=repr)
def test_event_to_dict_round_trip(event):
    as_dict = event_to_dict(event)
    assert as_dict["event"] == event.kind
    assert parse_event(as_dict) == event
    # and through real JSON text
    assert parse_event(json.loads(dumps(event))) == event
    assert parse_event(json.loads(json.dumps(as_dict))) == event


def test_event_to_dict_leaves_out_unset_optional_fields():
    assert event_to_dict(Place(Card.parse("R11"))) == {"event": "place", "card": "R11"}
    assert event_to_dict(Next()) == {"event": "next"}
    assert event_to_dict(Draw()) == {"event": "draw"}
    assert event_to_dict(Undo()) == {"event": "undo"}
    assert event_to_dict(Penalty("Anna", 21)) == {"event": "penalty", "player": "Anna", "points": 21}
    assert event_to_dict(Start(("Anna", "Ben"))) == {"event": "start", "players": ["Anna", "Ben"], "rules": "classic"}


def test_dumps_writes_one_line_and_keeps_umlauts():
    text = dumps(Start(("Jürgen", "Zoë")), t_ms=12)
    assert "\n" not in text
    assert "Jürgen" in text
    assert json.loads(text) == {"event": "start", "players": ["Jürgen", "Zoë"], "rules": "classic", "t_ms": 12}


def test_write_and_read_record_round_trip(tmp_path):
    path = tmp_path / "game.jsonl"
    write_record(ROUND_TRIP, path)
    text = path.read_text(encoding="utf-8")
    assert len(text.splitlines()) == len(ROUND_TRIP)
    assert read_record(path) == ROUND_TRIP
    buffer = io.StringIO()
    write_record(ROUND_TRIP, buffer)
    assert buffer.getvalue() == text


# ----------------------------------------------------------------- reading
def test_read_objects_numbers_lines_and_skips_blank_ones():
    lines = ['{"event": "next"}\n', "\n", "   \n", '{"event": "draw"}\n']
    assert list(read_objects(lines)) == [(1, {"event": "next"}), (4, {"event": "draw"})]


def test_read_objects_from_a_file(tmp_path):
    path = tmp_path / "r.jsonl"
    path.write_text("\n".join(EXAMPLE) + "\n", encoding="utf-8")
    objects = list(read_objects(path))
    assert [n for n, _ in objects] == [1, 2, 3, 4, 5, 6]
    assert objects[1][1] == {"event": "place", "card": "R11", "player": "Ben"}


@pytest.mark.parametrize("bad", ["not json", '{"event": "next"', "{'event': 'next'}", '{"event": "next"} x'])
def test_read_objects_raises_record_error_naming_the_line(bad):
    lines = lines_of(EXAMPLE[0], "", EXAMPLE[1], bad, EXAMPLE[2])
    with pytest.raises(RecordError) as info:
        list(read_objects(lines))
    assert info.value.line == 4
    assert "line 4" in str(info.value)


def test_read_objects_raises_record_error_for_a_missing_file(tmp_path):
    with pytest.raises(RecordError) as info:
        list(read_objects(tmp_path / "nope.jsonl"))
    assert "nope.jsonl" in str(info.value)


def test_read_objects_raises_record_error_for_non_utf8(tmp_path):
    path = tmp_path / "latin1.jsonl"
    path.write_bytes('{"event": "start", "players": ["Jürgen", "Ben"]}\n'.encode("latin-1"))
    with pytest.raises(RecordError):
        list(read_objects(path))


def test_read_record_raises_on_an_invalid_event_naming_the_line():
    with pytest.raises(RecordError) as info:
        read_record(lines_of(EXAMPLE[0], '{"event": "fold"}'))
    assert info.value.line == 2
    assert "line 2" in str(info.value)


# ----------------------------------------------------------------- check: the example, line by line
def test_check_example_record_line_by_line():
    checked, referee = run(lines_of(*EXAMPLE))
    assert [c.line for c in checked] == [1, 2, 3, 4, 5, 6]
    assert [c.kind for c in checked] == ["start", "place", "next", "draw", "undo", "penalty"]
    assert [c.verdict.ok for c in checked] == [True, True, True, True, True, False]
    # Ben opened with the red 11; after NEXT it is Cem's turn; the draw was taken back
    assert [c.current for c in checked] == [None, "Ben", "Cem", "Cem", "Cem", "Cem"]
    last = checked[-1].to_json("de")
    assert last["ok"] is False
    assert last["error"] == "bad_penalty"  # penalties only after the game ended
    assert last["line"] == 6 and last["event"] == "penalty"
    for line in checked[:-1]:
        as_json = line.to_json()
        assert as_json["ok"] is True and as_json["error"] is None
    state = summary(referee)
    assert state["hands"] == {"Anna": 20, "Ben": 19, "Cem": 20}
    assert state["stock"] == 20  # the draw was undone
    assert state["penalties"] == {}


def test_check_skipped_number_message():
    checked, _ = run(lines_of(EXAMPLE[0], EXAMPLE[1], EXAMPLE[2], '{"event": "place", "card": "R13"}'))
    line = checked[3].to_json("de")
    assert line == {**line, "line": 4, "event": "place", "ok": False, "error": "skipped_number",
                    "message": "Rot 12 fehlt"}
    assert checked[3].to_json("en")["message"] == "Red 12 is missing"


def test_check_rejects_json_that_is_not_an_event_without_stopping():
    lines = lines_of(EXAMPLE[0], "[1, 2]", '{"event": "fold"}', '"x"', EXAMPLE[1], '{"event": "place"}', EXAMPLE[2])
    checked, referee = run(lines)
    assert [c.verdict.ok for c in checked] == [True, False, False, False, True, False, True]
    assert all(c.verdict.code is ErrorCode.BAD_EVENT for c in checked if not c.verdict.ok)
    assert checked[1].kind is None  # not an object: no event kind to report
    assert checked[2].kind == "fold"
    assert referee.game.current_player == "Cem"


def test_check_rejected_events_change_nothing():
    base = lines_of(EXAMPLE[0], EXAMPLE[1], EXAMPLE[2])
    _, clean = run(base)
    noisy = base + lines_of(
        '{"event": "place", "card": "R13"}',          # skipped number
        '{"event": "place", "card": "R11"}',          # already played
        '{"event": "place", "card": "Y12"}',          # row not open
        '{"event": "next"}',                          # nothing done yet
        '{"event": "draw", "player": "Anna"}',        # not Anna's turn
        '{"event": "penalty", "player": "Ben", "points": 5}',  # game not over
        '{"event": "place", "card": "R10", "player": "Dora"}',  # not playing
    )
    checked, referee = run(noisy)
    assert [c.verdict.ok for c in checked[3:]] == [False] * 7
    assert [c.verdict.code.value for c in checked[3:]] == [
        "skipped_number", "already_played", "row_not_open", "must_play_or_draw", "not_your_turn",
        "bad_penalty", "bad_event",
    ]
    assert summary(referee) == summary(clean)


def test_events_before_start_are_rejected():
    checked, referee = run(lines_of('{"event": "next"}', '{"event": "undo"}', EXAMPLE[0]))
    assert [c.verdict.ok for c in checked] == [False, False, True]
    assert checked[0].verdict.code is ErrorCode.BAD_EVENT


# ----------------------------------------------------------------- summary
def test_summary_without_any_game():
    state = summary(Referee())
    assert SUMMARY_FIELDS <= set(state)
    assert state["over"] is False and state["winner"] is None and state["current"] is None
    assert state["games"] == 0


def test_summary_fields_of_a_running_game():
    _, referee = run(lines_of(*EXAMPLE))
    state = summary(referee)
    assert SUMMARY_FIELDS <= set(state)
    assert state["over"] is False
    assert state["winner"] is None
    assert state["current"] == "Cem"
    assert state["hands"] == {"Anna": 20, "Ben": 19, "Cem": 20}
    assert sum(state["hands"].values()) + state["stock"] + 1 == 80
    assert state["rows"] == {"R": [11, 11], "Y": None, "G": None, "B": None}
    assert state["penalties"] == {}
    assert state["totals"] == {"Anna": 0, "Ben": 0, "Cem": 0}
    assert state["games"] == 0
    json.dumps(state)  # the summary line must be JSON


def junior_win_record(winner: str = "Anna") -> list[str]:
    """A two-player Junior game that ``winner`` wins by laying red 2 to 6 in one turn."""
    lines = ['{"event": "start", "players": ["Anna", "Ben"], "rules": "junior", "options": {"games": 2}}']
    lines.append(json.dumps({"event": "place", "card": "R2", "player": winner}))
    lines += [json.dumps({"event": "place", "card": f"R{n}"}) for n in range(3, 7)]
    return lines


def test_summary_fields_of_a_finished_game():
    record = junior_win_record("Ben") + ['{"event": "penalty", "player": "Anna", "points": 30}']
    checked, referee = run(lines_of(*record))
    assert all(c.verdict.ok for c in checked)
    state = summary(referee)
    assert state["over"] is True
    assert state["winner"] == "Ben"
    assert state["hands"] == {"Anna": 5, "Ben": 0}
    assert state["stock"] == 44 - 8 - 10
    # junior rows grow inward from 1 and 11
    assert state["rows"]["R"] == [[1, 6], [11, 11]]
    assert state["rows"]["Y"] == [[1, 1], [11, 11]]
    assert state["penalties"] == {"Anna": 30}
    assert state["totals"] == {"Anna": 30, "Ben": 0}
    assert state["games"] == 1
    # and the game is over for any further turn event
    checked, _ = run(lines_of(*record, '{"event": "draw"}'))
    assert checked[-1].to_json()["error"] == "game_over"


def test_check_the_longer_readme_example():
    record = [
        '{"event": "start", "players": ["Anna", "Ben", "Cem"], "rules": "classic"}',
        '{"event": "place", "card": "R11", "player": "Ben"}',
        '{"event": "next"}',
        '{"event": "place", "card": "R12"}',
        '{"event": "place", "card": "R10", "on": "R11"}',
        '{"event": "next"}',
        '{"event": "draw"}',
        '{"event": "place", "card": "Y11"}',
        '{"event": "next"}',
        '{"event": "undo"}',
        '{"event": "penalty", "player": "Anna", "points": 21}',
    ]
    checked, referee = run(lines_of(*record))
    assert [c.verdict.ok for c in checked] == [True] * 10 + [False]
    assert checked[-1].verdict.code.value == "bad_penalty"
    assert [c.current for c in checked[1:]] == ["Ben", "Cem", "Cem", "Cem", "Anna", "Anna", "Anna", "Ben", "Anna",
                                               "Anna"]
    state = summary(referee)
    assert state["hands"] == {"Anna": 20, "Ben": 19, "Cem": 18}
    assert state["stock"] == 19
    assert state["rows"] == {"R": [10, 12], "Y": [11, 11], "G": None, "B": None}
    assert state["current"] == "Anna"  # the undo took back Anna's NEXT
    # Anna's turn ended with the drawn card: after the undo she can only press NEXT again
    checked, _ = run(lines_of(*record, '{"event": "place", "card": "Y12"}', '{"event": "next"}'))
    assert checked[-2].verdict.code.value == "turn_over"
    assert checked[-1].verdict.ok and checked[-1].current == "Ben"
