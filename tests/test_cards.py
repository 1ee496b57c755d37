"""The 80 cards and their notation: R11, Y3, G20, B7, colour words, names, errors."""

from __future__ import annotations

import copy
import pickle
import unicodedata

import pytest

from companion.cards import COLOURS, DECK, Card, CardError, Colour, card, cards, join_names


# ----------------------------------------------------------------- notation
@pytest.mark.parametrize(
    "text, colour, number",
    [
        ("R11", Colour.RED, 11),
        ("Y3", Colour.YELLOW, 3),
        ("G20", Colour.GREEN, 20),
        ("B7", Colour.BLUE, 7),
        ("R1", Colour.RED, 1),
        ("B20", Colour.BLUE, 20),
    ],
)
def test_notation_names_colour_and_number(text, colour, number):
    parsed = Card.parse(text)
    assert parsed.colour is colour
    assert parsed.number == number
    assert parsed.code == text
    assert str(parsed) == text
    assert repr(parsed) == f"Card({text})"


@pytest.mark.parametrize("text", ["r11", "R11", " r11 ", "R 11", "r 11"])
def test_notation_is_case_and_space_insensitive(text):
    assert Card.parse(text) is Card(Colour.RED, 11)


@pytest.mark.parametrize(
    "text, code",
    [
        ("rot11", "R11"),
        ("Rot 11", "R11"),
        ("ROT 11", "R11"),
        ("gelb 3", "Y3"),
        ("Gelb3", "Y3"),
        ("Grün 3", "G3"),
        ("grün3", "G3"),
        ("GRÜN 3", "G3"),
        ("gruen 3", "G3"),
        ("Gruen 3", "G3"),
        ("blau 7", "B7"),
        ("Blau 20", "B20"),
    ],
)
def test_german_colour_words(text, code):
    assert Card.parse(text).code == code


def test_german_colour_word_in_decomposed_unicode():
    text = unicodedata.normalize("NFD", "Grün 3")
    assert text != "Grün 3"  # really the decomposed spelling
    assert Card.parse(text) is Card(Colour.GREEN, 3)


@pytest.mark.parametrize(
    "text, code",
    [
        ("Red 11", "R11"),
        ("red11", "R11"),
        ("Yellow 3", "Y3"),
        ("YELLOW 3", "Y3"),
        ("green 20", "G20"),
        ("Blue 7", "B7"),
    ],
)
def test_english_colour_words(text, code):
    assert Card.parse(text).code == code


def test_german_g_is_green_not_gelb():
    # The notation letters are the English initials: G is green (grün), Y is yellow (gelb).
    assert Card.parse("G5").colour is Colour.GREEN
    assert Card.parse("Y5").colour is Colour.YELLOW
    assert Card.parse("Gelb 5").colour is Colour.YELLOW


# ----------------------------------------------------------------- interning
def test_parse_returns_the_interned_card():
    assert Card.parse("r11") is Card(Colour.RED, 11)
    assert Card.parse("Rot 11") is Card.parse("R11") is card("red 11")


def test_every_card_is_a_single_object():
    for c in DECK:
        assert Card(c.colour, c.number) is c
        assert Card.parse(c.code) is c
        assert Card.parse(c.code.lower()) is c


def test_cards_survive_copy_and_pickle_as_the_same_object():
    c = Card.parse("G13")
    assert copy.copy(c) is c
    assert copy.deepcopy(c) is c
    assert pickle.loads(pickle.dumps(c)) is c


def test_cards_are_immutable():
    c = Card.parse("R11")
    with pytest.raises(AttributeError):
        c.number = 12
    assert c.number == 11


def test_parse_accepts_a_card():
    c = Card.parse("B4")
    assert Card.parse(c) is c


def test_cards_helper_reads_several():
    assert cards("R10 R11 r12") == [Card(Colour.RED, 10), Card(Colour.RED, 11), Card(Colour.RED, 12)]
    assert cards(["Y1", "blau 2"]) == [Card(Colour.YELLOW, 1), Card(Colour.BLUE, 2)]


def test_cards_sort_by_colour_then_number():
    assert [c.code for c in sorted(cards("Y3 R12 B1 R2 G20"))] == ["R2", "R12", "Y3", "G20", "B1"]


# ----------------------------------------------------------------- the deck
def test_deck_has_80_distinct_cards():
    assert len(DECK) == 80
    assert len(set(DECK)) == 80
    assert len({c.code for c in DECK}) == 80


def test_deck_has_every_colour_from_1_to_20():
    for colour in COLOURS:
        numbers = [c.number for c in DECK if c.colour is colour]
        assert numbers == list(range(1, 21))


def test_colours_in_opening_order():
    # red, then yellow, green, blue: the order in which an 11 opens a classic game
    assert COLOURS == (Colour.RED, Colour.YELLOW, Colour.GREEN, Colour.BLUE)
    assert [c.letter for c in COLOURS] == ["R", "Y", "G", "B"]


# ----------------------------------------------------------------- names
@pytest.mark.parametrize(
    "code, german, english",
    [
        ("R11", "Rot 11", "Red 11"),
        ("Y3", "Gelb 3", "Yellow 3"),
        ("G20", "Grün 20", "Green 20"),
        ("B7", "Blau 7", "Blue 7"),
    ],
)
def test_card_names(code, german, english):
    c = Card.parse(code)
    assert c.name() == german  # German is the default
    assert c.name("de") == german
    assert c.name("en") == english


def test_names_read_back():
    for c in DECK:
        assert Card.parse(c.name("de")) is c
        assert Card.parse(c.name("en")) is c


def test_join_names():
    r12, r13, y3 = cards("R12 R13 Y3")
    assert join_names([r12]) == "Rot 12"
    assert join_names([r12, r13]) == "Rot 12 und Rot 13"
    assert join_names([r12, r13, y3]) == "Rot 12, Rot 13 und Gelb 3"
    assert join_names([r12, r13], "en") == "Red 12 and Red 13"
    assert join_names([r12, r13], alternatives=True) == "Rot 12 oder Rot 13"
    assert join_names([r12, r13], "en", alternatives=True) == "Red 12 or Red 13"


# ----------------------------------------------------------------- bad input
@pytest.mark.parametrize(
    "bad",
    ["R21", "X5", "", None, "R0", "R", "11", "R-1", "R1.5", "RR11", "Rot 111", "R11x", "Schwarz 3", "  ", 11, b"R11"],
)
def test_bad_input_is_a_card_error(bad):
    with pytest.raises(CardError) as info:
        Card.parse(bad)
    assert str(info.value)  # says something
    assert isinstance(info.value, ValueError)


def test_card_error_messages_say_what_is_wrong():
    with pytest.raises(CardError, match="1 to 20"):
        Card.parse("R21")
    with pytest.raises(CardError, match="1 to 20"):
        Card.parse("R0")
    with pytest.raises(CardError, match="colour"):
        Card.parse("X5")
    with pytest.raises(CardError, match="R11"):
        Card.parse("")


@pytest.mark.parametrize("number", [0, 21, -1])
def test_constructor_rejects_numbers_outside_1_to_20(number):
    with pytest.raises(CardError):
        Card(Colour.RED, number)


def test_colour_parse():
    assert Colour.parse("r") is Colour.RED
    assert Colour.parse("Grün") is Colour.GREEN
    assert Colour.parse("gruen") is Colour.GREEN
    assert Colour.parse("YELLOW") is Colour.YELLOW
    with pytest.raises(CardError):
        Colour.parse("purple")


def test_colour_labels():
    assert [c.label() for c in COLOURS] == ["Rot", "Gelb", "Grün", "Blau"]
    assert [c.label("en") for c in COLOURS] == ["Red", "Yellow", "Green", "Blue"]
