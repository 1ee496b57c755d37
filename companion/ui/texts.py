"""The words on the screens, in German (the default) and English.

Headlines are what a seven-year-old understands at a glance ("Falsche Farbe"); the
referee's full message (``Rejection.message``) stands below them in small print.
"""

from __future__ import annotations

from typing import Mapping

from ..rules.errors import ErrorCode

# error code -> (German, English) headline; skipped numbers name the missing card instead
HEADLINES: Mapping[ErrorCode, tuple[str, str]] = {
    ErrorCode.NOT_YOUR_TURN: ("Nicht dran!", "Not your turn!"),
    ErrorCode.ROW_NOT_OPEN: ("Reihe noch zu!", "Row not open!"),
    ErrorCode.SKIPPED_NUMBER: ("Zahl fehlt!", "Number missing!"),
    ErrorCode.WRONG_COLOUR: ("Falsche Farbe!", "Wrong colour!"),
    ErrorCode.ALREADY_PLAYED: ("Liegt schon!", "Already there!"),
    ErrorCode.TURN_OVER: ("Zug ist vorbei!", "Turn is over!"),
    ErrorCode.DRAW_AFTER_PLAY: ("Nicht mehr ziehen!", "No more drawing!"),
    ErrorCode.DRAW_LIMIT: ("Genug gezogen!", "Drawn enough!"),
    ErrorCode.STOCK_EMPTY: ("Stapel leer!", "Stock empty!"),
    ErrorCode.MUST_PLAY_OR_DRAW: ("Erst legen/ziehen!", "Lay or draw first!"),
    ErrorCode.GAME_OVER: ("Spiel ist vorbei!", "Game is over!"),
    ErrorCode.BAD_PENALTY: ("Punkte passen nicht!", "Points do not fit!"),
    ErrorCode.BAD_EVENT: ("Geht nicht!", "Not possible!"),
}

WORDS: Mapping[str, tuple[str, str]] = {
    "turn": ("{player} ist dran", "{player}'s turn"),
    "waiting": ("Erste Karte legen", "Lay the first card"),
    "stock": ("Stapel {stock}", "Stock {stock}"),
    "drawn": ("Ziehen {drawn}/{limit}", "Drawn {drawn}/{limit}"),
    "question_hint": ("NEXT: ja   BACK: nein", "NEXT: yes  BACK: no"),
    "lift_hint": ("Karte wegnehmen", "Take the card away"),
    "game_over": ("Spielende", "Game over"),
    "winner": ("{player} gewinnt!", "{player} wins!"),
    "penalty": ("Strafpunkte {player}", "Penalty {player}"),
    "penalty_hint": ("DRAW + BACK - NEXT ok", "DRAW + BACK - NEXT ok"),
    "penalty_cards": ("{count} Karten: {low}-{high}", "{count} cards: {low}-{high}"),
    "penalty_unread": ("{count} Karte(n) unlesbar: drehen", "{count} card(s) unreadable: turn"),
    "penalty_counted": ("{count} von {of}: {cards}", "{count} of {of}: {cards}"),
    "penalty_range": ("Nur {low} bis {high} möglich", "Only {low} to {high} possible"),
    "penalty_impossible": ("{points} geht nicht", "{points} is impossible"),
    "guide_title": ("Kalibrieren {number}/{count}", "Calibrating {number}/{count}"),
    "guide_hint": ("allein ins Feld legen", "lay it alone in the area"),
    "guide_keys": ("NEXT Foto  BACK zurück", "NEXT photo  BACK back"),
    "laid_title": ("Auslegen {found}/{count}", "Laid out {found}/{count}"),
    "laid_order": ("Rot 1-20, Gelb Grün Blau 11", "Red 1-20, yellow green blue 11"),
    "laid_hint": ("in Reihen, je Reihe von links", "in rows, each from the left"),
    "menu_hint": ("DRAW/BACK ±   NEXT ►", "DRAW/BACK ±   NEXT ►"),
}


def word(key: str, lang: str = "de", **values: object) -> str:
    return WORDS[key][0 if lang == "de" else 1].format(**values)


def headline(code: ErrorCode, lang: str = "de") -> str:
    return HEADLINES[code][0 if lang == "de" else 1]
