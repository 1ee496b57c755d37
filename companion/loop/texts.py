"""What the loop's notices say, in German (the default) and English."""

from __future__ import annotations

from typing import Mapping

from ..cards import Card, Colour, join_names

NOTICES: Mapping[str, tuple[str, str]] = {
    "question": ("{cards} darunter?", "{cards} underneath?"),
    "answered": ("{cards} darunter: gezählt", "{cards} underneath: counted"),
    "assumed": ("{cards} darunter angenommen", "Assumed {cards} underneath"),
    "withdrawn": ("{card} zurückgenommen", "{card} taken back"),
    "taken_back": ("{card} zurückgenommen", "{card} taken back"),
    "lift_first": ("Erst {card} wegnehmen", "Take {card} away first"),
    "unread": ("Karte nicht erkannt: bitte gerade hinlegen", "Card not recognised: please lay it straight"),
    "desync": ("{rows}", "{rows}"),
    "in_sync": ("Tisch stimmt wieder", "The table matches again"),
    "no_view": ("Tisch nicht zu sehen", "Cannot see the table"),
    "busy": ("Tisch kommt nicht zur Ruhe", "The table does not come to rest"),
    "clear": ("Tisch wieder zu sehen", "The table is in view again"),
    "set_up": ("Neu eingestellt: {seats}", "Set up: {seats}"),
    "set_up_later": ("Gilt ab der nächsten Runde", "From the next session on"),
    "markers": ("Marker nicht gefunden: {found} von 4", "Markers not found: {found} of 4"),
    "markers_found": ("Alle 4 Marker gefunden", "All 4 markers found"),
    "profile": ("Kartenprofil nicht lesbar: Standarddeck", "Deck profile unreadable: standard deck"),
    "calibrated": ("Deck gelernt", "Deck learned"),
    "calibrated_again": ("Deck gelernt; besser nochmal: {cards}", "Deck learned; better again: {cards}"),
    "calibration_failed": ("Kalibrieren fehlgeschlagen: nochmal", "Calibration failed: try again"),
    "no_camera": ("Kamera fehlt: weiter mit den Tasten", "No camera: play on with the buttons"),
    "camera_back": ("Kamera wieder da", "The camera is back"),
}
_EXPECTED = ("{colour}: {numbers} erwartet", "{colour}: {numbers} expected")
_NOTHING = ("{colour}: keine Karte erwartet", "{colour}: no card expected")
_AND = (" und ", " and ")


def notice_message(kind: str, params: Mapping[str, object], lang: str = "de") -> str:
    index = 0 if lang == "de" else 1
    values: dict[str, str] = {}
    if "cards" in params:
        values["cards"] = join_names([Card.parse(c) for c in params["cards"]], lang)  # type: ignore[union-attr]
    if "card" in params and kind != "question":
        values["card"] = Card.parse(str(params["card"])).name(lang)
    if "expected" in params:
        values["rows"] = "; ".join(_row_text(letter, numbers, index, lang)
                                   for letter, numbers in params["expected"].items())  # type: ignore[union-attr]
    if "found" in params:
        values["found"] = str(params["found"])
    if "seats" in params:
        values["seats"] = ", ".join(params["seats"])  # type: ignore[arg-type]
    return NOTICES[kind][index].format(**values)


def _row_text(letter: str, numbers, index: int, lang: str) -> str:
    colour = Colour.parse(letter).label(lang)
    if not numbers:
        return _NOTHING[index].format(colour=colour)
    return _EXPECTED[index].format(colour=colour, numbers=_AND[index].join(str(n) for n in numbers))
