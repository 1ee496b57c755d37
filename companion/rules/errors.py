"""Verdicts: the stable error codes and the German and English messages behind them.

A rejection carries a code (stable, for machines), a reason (which message) and the
values the message names. It renders itself in either language; nothing here prints.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Mapping

from ..cards import Card, Colour, join_names


class ErrorCode(str, enum.Enum):
    """Why an event was rejected. The values are part of the record contract."""

    BAD_EVENT = "bad_event"
    NOT_YOUR_TURN = "not_your_turn"
    ROW_NOT_OPEN = "row_not_open"
    SKIPPED_NUMBER = "skipped_number"
    WRONG_COLOUR = "wrong_colour"
    ALREADY_PLAYED = "already_played"
    TURN_OVER = "turn_over"
    DRAW_AFTER_PLAY = "draw_after_play"
    DRAW_LIMIT = "draw_limit"
    STOCK_EMPTY = "stock_empty"
    MUST_PLAY_OR_DRAW = "must_play_or_draw"
    GAME_OVER = "game_over"
    BAD_PENALTY = "bad_penalty"


E = ErrorCode

# reason: (code, German, English). Placeholders are filled by Rejection.message.
MESSAGES: Mapping[str, tuple[ErrorCode, str, str]] = MappingProxyType(
    {
        "unknown_event": (E.BAD_EVENT, "Unbekanntes Ereignis „{text}“", "Unknown event “{text}”"),
        "not_an_object": (E.BAD_EVENT, "Eine Zeile muss ein JSON-Objekt sein", "A line must be a JSON object"),
        "missing_field": (E.BAD_EVENT, "Feld „{field}“ fehlt", "Field “{field}” is missing"),
        "bad_field": (E.BAD_EVENT, "Ungültiges Feld „{field}“: {text}", "Invalid field “{field}”: {text}"),
        "unknown_card": (E.BAD_EVENT, "Unbekannte Karte „{text}“", "Unknown card “{text}”"),
        "not_in_deck": (E.BAD_EVENT, "{card} gehört nicht zu diesem Spiel", "{card} is not part of this game"),
        "unknown_rules": (E.BAD_EVENT, "Unbekannte Regeln „{text}“", "Unknown rules “{text}”"),
        "bad_players": (E.BAD_EVENT, "Ungültige Spieler: {text}", "Invalid players: {text}"),
        "bad_option": (E.BAD_EVENT, "Ungültige Option: {text}", "Invalid option: {text}"),
        "no_start": (E.BAD_EVENT, "Vor dem ersten Ereignis fehlt start", "No start before this event"),
        "opening_first": (
            E.BAD_EVENT,
            "Das Spiel beginnt mit dem Auslegen der ersten Karte",
            "The game begins with the first card being laid",
        ),
        "nothing_to_undo": (E.BAD_EVENT, "Nichts zurückzunehmen", "Nothing to undo"),
        "unknown_player": (E.BAD_EVENT, "{player} spielt nicht mit", "{player} is not playing"),
        "on_not_on_table": (E.BAD_EVENT, "{on} liegt nicht auf dem Tisch", "{on} is not on the table"),
        "not_your_turn": (E.NOT_YOUR_TURN, "{player} ist nicht dran, {current} ist am Zug", "It is {current}'s turn, not {player}'s"),
        "row_not_open": (
            E.ROW_NOT_OPEN,
            "Reihe {colour} ist noch nicht eröffnet: sie beginnt mit {openers}",
            "The {colour} row is not open yet: it starts with {openers}",
        ),
        "row_not_open_first": (
            E.ROW_NOT_OPEN,
            "Noch keine Reihe offen: das Spiel beginnt mit {openers}",
            "No row is open yet: the game starts with {openers}",
        ),
        "missing_one": (E.SKIPPED_NUMBER, "{missing} fehlt", "{missing} is missing"),
        "missing_many": (E.SKIPPED_NUMBER, "{missing} fehlen", "{missing} are missing"),
        "wrong_colour": (E.WRONG_COLOUR, "{card} liegt auf {on}: falsche Farbe", "{card} lies on {on}: wrong colour"),
        "already_played": (E.ALREADY_PLAYED, "{card} liegt schon auf dem Tisch", "{card} is already on the table"),
        "after_opening": (
            E.TURN_OVER,
            "Die erste Karte liegt allein: {current} ist fertig, weiter mit NEXT",
            "The opening card is laid alone: {current} is done, press NEXT",
        ),
        "after_drawn_card": (
            E.TURN_OVER,
            "Nach der gezogenen Karte ist der Zug vorbei: weiter mit NEXT",
            "After the drawn card the turn is over: press NEXT",
        ),
        "draw_after_play": (
            E.DRAW_AFTER_PLAY,
            "Nach dem Anlegen wird nicht mehr gezogen",
            "No drawing after a card was laid",
        ),
        "draw_limit": (E.DRAW_LIMIT, "Höchstens {limit} Karten ziehen", "Draw at most {limit} cards"),
        "draw_limit_one": (E.DRAW_LIMIT, "Nur eine Karte ziehen", "Draw only one card"),
        "stock_empty": (E.STOCK_EMPTY, "Der Nachziehstapel ist leer", "The stock is empty"),
        "nothing_done": (
            E.MUST_PLAY_OR_DRAW,
            "{current} muss erst anlegen oder ziehen",
            "{current} must lay or draw a card first",
        ),
        "draw_more": (
            E.MUST_PLAY_OR_DRAW,
            "{current} muss weiter ziehen ({drawn} von {limit} gezogen)",
            "{current} must draw again ({drawn} of {limit} drawn)",
        ),
        "game_over": (E.GAME_OVER, "Das Spiel ist vorbei: {winner} hat gewonnen", "The game is over: {winner} won"),
        "penalty_negative": (E.BAD_PENALTY, "Strafpunkte können nicht negativ sein", "Penalty points cannot be negative"),
        "penalty_winner": (E.BAD_PENALTY, "{player} hat gewonnen und bekommt 0 Punkte", "{player} won and scores 0"),
        "penalty_unknown": (E.BAD_PENALTY, "{player} spielt nicht mit", "{player} is not playing"),
        "penalty_early": (E.BAD_PENALTY, "Strafpunkte erst nach dem Spielende", "Penalties only after the game ended"),
        "penalty_twice": (
            E.BAD_PENALTY,
            "{player} hat schon {points} Punkte (zum Ändern erst zurücknehmen)",
            "{player} already has {points} points (undo to change them)",
        ),
        "penalty_range": (
            E.BAD_PENALTY,
            "{player} hat {count} Karten: das sind {low} bis {high} Punkte, nicht {points}",
            "{player} holds {count} cards: that is {low} to {high} points, not {points}",
        ),
        "penalty_impossible": (
            E.BAD_PENALTY,
            "{count} Karten, die nicht auf dem Tisch liegen, ergeben nie {points} Punkte",
            "No {count} cards off the table add up to {points} points",
        ),
    }
)


# Lists under these names are alternatives ("Rot 10 oder Rot 12"), others add up.
ALTERNATIVES = frozenset({"openers"})


def _render(key: str, value: object, lang: str) -> str:
    if isinstance(value, Card):
        return value.name(lang)
    if isinstance(value, Colour):
        return value.label(lang)
    if isinstance(value, (list, tuple)) and all(isinstance(item, Card) for item in value):
        return join_names(value, lang, alternatives=key in ALTERNATIVES)
    return str(value)


@dataclass(frozen=True)
class Rejection:
    """Why an event was not accepted. The state that rejected it is unchanged."""

    reason: str
    params: Mapping[str, object] = field(default_factory=dict)

    @property
    def code(self) -> ErrorCode:
        return MESSAGES[self.reason][0]

    @property
    def ok(self) -> bool:
        return False

    def message(self, lang: str = "de") -> str:
        _, german, english = MESSAGES[self.reason]
        template = german if lang == "de" else english
        return template.format(**{key: _render(key, value, lang) for key, value in self.params.items()})

    def __str__(self) -> str:
        return f"{self.code.value}: {self.message('en')}"


def reject(reason: str, **params: object) -> Rejection:
    if reason not in MESSAGES:
        raise KeyError(f"no message for {reason!r}")
    return Rejection(reason, params)


class Accepted:
    """The verdict on an accepted event (a singleton: :data:`ACCEPTED`)."""

    __slots__ = ()
    ok = True
    code = None
    reason = None

    def message(self, lang: str = "de") -> None:
        return None

    def __repr__(self) -> str:
        return "ACCEPTED"


ACCEPTED = Accepted()
Verdict = Accepted | Rejection
