"""Game records as JSON Lines: read, write, validate, and replay them (``elfer check``).

One JSON object per line, one event per object; see docs/record.md for the format. A line
that is not JSON makes the whole file unreadable (:class:`RecordError`); a line that is
JSON but not a valid event is rejected as ``bad_event`` like any other illegal event.
Fields the format does not define (``t_ms``, ``mistake``, ...) are ignored, so episode
truth files check as they are.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import IO, Iterable, Iterator

from .cards import Card, CardError
from .rules.errors import Rejection, Verdict, reject
from .rules.events import DRAW, EVENT_KINDS, NEXT, PLACE, UNDO, Draw, Event, Next, Penalty, Place, Start
from .rules.session import Referee

ERROR_EXIT, UNREADABLE_EXIT = 1, 2


class RecordError(Exception):
    """The file cannot be read, or a line is not JSON."""

    def __init__(self, message: str, line: int | None = None):
        super().__init__(message if line is None else f"line {line}: {message}")
        self.line = line


# ----------------------------------------------------------------- JSON <-> events
def parse_event(obj: object) -> Event | Rejection:
    """A decoded JSON line as an event, or the ``bad_event`` rejection that says why not."""
    if not isinstance(obj, dict):
        return reject("not_an_object")
    kind = obj.get("event")
    if kind is None:
        return reject("missing_field", field="event")
    if not isinstance(kind, str) or kind not in EVENT_KINDS:
        return reject("unknown_event", text=_shown(kind))
    try:
        return _PARSERS[kind](obj)
    except _FieldError as error:
        return error.rejection


class _FieldError(Exception):
    def __init__(self, rejection: Rejection):
        self.rejection = rejection


def _shown(value: object) -> str:
    """A field's value as the message quotes it."""
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def _required(obj: dict, name: str) -> object:
    if name not in obj:
        raise _FieldError(reject("missing_field", field=name))
    return obj[name]


def _name(obj: dict, name: str, required: bool = False) -> str | None:
    value = _required(obj, name) if required else obj.get(name)
    if value is not None and not (isinstance(value, str) and value.strip()):
        raise _FieldError(reject("bad_field", field=name, text="ein Name / a name"))
    return value


def _card(obj: dict, name: str, required: bool = False) -> Card | None:
    value = _required(obj, name) if required else obj.get(name)
    if value is None and not required:
        return None
    try:
        return Card.parse(value)
    except CardError:
        raise _FieldError(reject("unknown_card", text=_shown(value))) from None


def _start(obj: dict) -> Start:
    players = _required(obj, "players")
    if (
        not isinstance(players, list)
        or not 2 <= len(players) <= 6
        or not all(isinstance(p, str) and p.strip() for p in players)
    ):
        raise _FieldError(reject("bad_players", text="2 bis 6 Namen / 2 to 6 names"))
    rules = obj.get("rules", "classic")
    if not isinstance(rules, str):
        raise _FieldError(reject("unknown_rules", text=_shown(rules)))
    options = obj.get("options", {})
    if not isinstance(options, dict):
        raise _FieldError(reject("bad_field", field="options", text="ein Objekt / an object"))
    return Start(tuple(players), rules, MappingProxyType(dict(options)))


def _penalty(obj: dict) -> Penalty:
    points = _required(obj, "points")
    if not isinstance(points, int) or isinstance(points, bool):
        raise _FieldError(reject("bad_field", field="points", text="eine ganze Zahl / a whole number"))
    return Penalty(_name(obj, "player", required=True), points)


def _place(obj: dict) -> Place:
    card, player, on = _card(obj, "card", required=True), _name(obj, "player"), _card(obj, "on")
    return PLACE[card] if player is None and on is None else Place(card, player, on)


def _draw(obj: dict) -> Draw:
    player = _name(obj, "player")
    return DRAW if player is None else Draw(player)


def _next(obj: dict) -> Next:
    player = _name(obj, "player")
    return NEXT if player is None else Next(player)


_PARSERS = {"start": _start, "place": _place, "draw": _draw, "next": _next, "undo": lambda o: UNDO, "penalty": _penalty}


def event_to_dict(event: Event) -> dict:
    """The JSON object for an event; optional fields appear only when set."""
    out: dict = {"event": event.kind}
    if isinstance(event, Start):
        out["players"] = list(event.players)
        out["rules"] = event.rules
        if event.options:
            out["options"] = dict(event.options)
    elif isinstance(event, Place):
        out["card"] = event.card.code
        if event.player is not None:
            out["player"] = event.player
        if event.on is not None:
            out["on"] = event.on.code
    elif isinstance(event, (Draw, Next)):
        if event.player is not None:
            out["player"] = event.player
    elif isinstance(event, Penalty):
        out["player"] = event.player
        out["points"] = event.points
    return out


def dumps(event: Event, **extra: object) -> str:
    return json.dumps({**event_to_dict(event), **extra}, ensure_ascii=False)


def write_record(events: Iterable[Event], out: IO[str] | Path | str) -> None:
    if isinstance(out, (str, Path)):
        with open(out, "w", encoding="utf-8") as handle:
            write_record(events, handle)
        return
    for event in events:
        out.write(dumps(event) + "\n")


def read_objects(source: Path | str | Iterable[str]) -> Iterator[tuple[int, object]]:
    """``(line number, decoded JSON)`` for every non-blank line; RecordError if unreadable."""
    if isinstance(source, (str, Path)):
        try:
            with open(source, encoding="utf-8") as handle:
                yield from read_objects(handle)
        except OSError as error:
            raise RecordError(f"cannot read {source}: {error.strerror or error}") from None
        except UnicodeDecodeError:
            raise RecordError(f"{source} is not UTF-8 text") from None
        return
    for number, line in enumerate(source, start=1):
        if not line.strip():
            continue
        try:
            yield number, json.loads(line)
        except json.JSONDecodeError as error:
            raise RecordError(f"not JSON ({error.msg}, column {error.colno})", line=number) from None


def read_record(source: Path | str | Iterable[str]) -> list[Event]:
    """The events of a record; RecordError on the first line that is not a valid event."""
    events = []
    for number, obj in read_objects(source):
        event = parse_event(obj)
        if isinstance(event, Rejection):
            raise RecordError(event.message("en"), line=number)
        events.append(event)
    return events


# ----------------------------------------------------------------- replay
@dataclass(frozen=True)
class CheckedLine:
    line: int
    kind: str | None
    verdict: Verdict
    current: str | None

    def to_json(self, lang: str = "de") -> dict:
        return {
            "line": self.line,
            "event": self.kind,
            "ok": self.verdict.ok,
            "error": None if self.verdict.ok else self.verdict.code.value,
            "message": self.verdict.message(lang),
            "current": self.current,
        }


def check(objects: Iterable[tuple[int, object]], referee: Referee | None = None) -> Iterator[CheckedLine]:
    """Replay decoded lines through a referee, yielding one verdict per line."""
    referee = referee or Referee()
    for number, obj in objects:
        event = parse_event(obj)
        kind = obj.get("event") if isinstance(obj, dict) and isinstance(obj.get("event"), str) else None
        verdict = event if isinstance(event, Rejection) else referee.push(event)
        game = referee.game
        yield CheckedLine(number, kind, verdict, game.current_player if game else None)


def summary(referee: Referee) -> dict:
    """Where the last game and its session stand, as the ``summary`` line of ``elfer check``."""
    game, session = referee.game, referee.session
    if game is None:
        return {"over": False, "winner": None, "current": None, "hands": {}, "stock": None,
                "rows": {}, "penalties": {}, "totals": {}, "games": 0, "session": None}
    return {
        "rules": game.preset.name,
        "over": game.over,
        "winner": game.winner_name,
        "current": game.current_player,
        "hands": game.hand_sizes(),
        "stock": game.stock,
        "rows": {colour.letter: row for colour, row in game.rows().items()},
        "penalties": dict(game.penalties),
        "totals": session.totals(),
        "games": len(session.finished_games),
        "session": {
            "players": list(session.players),
            "games_planned": session.rules.games,
            "limit": session.rules.limit,
            "tiebreak": session.rules.tiebreak,
            "over": session.over,
            "winners": session.winners(),
            "playoff": session.playoff_pending,
        },
    }
