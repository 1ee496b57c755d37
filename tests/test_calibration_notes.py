"""What a calibration tells its user reads in German and in English, every kind of note
with the values the calibration gives it."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.cards import Colour
from companion.vision.calibration_notes import MOST_NAMED, TEMPLATES, note, ranges

LOST = [("R5.png", note("no_card", problem=note("no_card_edge")))]
SAMPLES = {
    "not_a_folder": {"folder": Path("cards.png")}, "no_folder": {"folder": Path("karten")},
    "no_pictures": {"folder": Path("karten")}, "unreadable": {"path": Path("karten/R1.png")},
    "unreadable_format": {"folder": Path("karten"), "formats": ".heic"},
    "unnamed": {"folder": Path("karten"), "found": "urlaub.jpg"}, "no_pictures_given": {},
    "no_picture": {"path": Path("reihen.jpg")}, "laid_out_count": {"found": 22, "expected": 23, "counts": "reihen.jpg: 22"},
    "not_colour": {"name": "R1#1"}, "no_card": {"problem": note("nothing_card_shaped")},
    "nothing_card_shaped": {}, "no_card_edge": {}, "no_print": {}, "cannot_use": {"lost": LOST},
    "black_and_white": {}, "all_black_and_white": {"count": 23}, "file_format": {},
    "inks_alike": {"first": Colour.YELLOW, "second": Colour.GREEN, "apart": 0, "suspect": Colour.YELLOW,
                   "names": ["Y11.png"]},
    "reads_too_few": {"right": 3, "total": 23, "names": ["R1.png", "R2.png"]},
    "no_numerals": {}, "no_full_colour": {"colour": Colour.RED, "missing": [3, 4, 5, 18]},
    "no_full_colour_lost": {"colour": Colour.RED, "missing": [5], "lost": LOST}, "left_out": {"lost": LOST},
    "no_colour": {"colour": Colour.GREEN}, "no_eleven": {"colour": Colour.YELLOW}, "no_numeral": {"numbers": [6, 9]},
    "glare": {"names": ["R3.png"]}, "misread": {"right": 22, "total": 23, "names": ["R17_2.png"]},
    "poor_beside_good": {"name": "R19_2.png", "poor": "blurred"},
    "poor_only": {"poor": "poorly outlined", "names": ["R7.png"]},
    "odd_numeral": {"number": 13, "names": ["R13_2.png"]},
}


def test_every_kind_of_note_has_a_sample():
    assert set(SAMPLES) == set(TEMPLATES)


@pytest.mark.parametrize("kind", sorted(TEMPLATES))
def test_every_note_reads_in_german_and_english(kind):
    made = note(kind, **SAMPLES[kind])
    german, english = made.text("de"), made.text("en")
    assert german and english and "{" not in german + english
    assert str(made) == english
    if kind not in ("unreadable",):  # a path alone reads the same either way: the rest differs
        assert german != english


def test_colours_and_poor_pictures_are_named_in_each_language():
    assert note("no_colour", colour=Colour.GREEN).text("de").startswith("kein Bild einer grünen Karte: grüne Karten")
    assert note("no_eleven", colour=Colour.YELLOW).text("de").startswith("Gelb hat kein Bild ihrer 11")
    assert str(note("no_colour", colour=Colour.GREEN)).startswith("no picture of a green card: green cards")
    assert str(note("poor_beside_good", name="R19_2.png", poor="blurred")).startswith("R19_2.png is blurred:")
    assert note("poor_only", poor="blurred", names=["R19.png"]).text("de").startswith(
        "unscharf (verwackelt oder nicht scharf gestellt): R19.png")


def test_long_lists_of_pictures_are_cut_short():
    names = [f"R{n}.png" for n in range(1, 12)]
    assert note("glare", names=names).text("en") == (f"glare or uneven light on {', '.join(names[:MOST_NAMED])} ...: "
                                                     "retake these pictures if cards misread")
    assert ranges([1, 2, 3, 5, 7, 8]) == "1-3, 5, 7-8" and ranges([], "de") == "keine"


def test_an_unknown_kind_is_refused():
    with pytest.raises(KeyError, match="no such calibration note"):
        note("no_such_kind")
