"""The 80 cards of Elfer raus!, their colours and the card notation.

A card is written as a colour letter and a number: ``R11``, ``Y3``, ``G20``, ``B7``.
Cards are interned values: ``Card.parse("r11") is Card(Colour.RED, 11)``, so they
compare and hash by identity, which keeps the rules engine fast.
"""

from __future__ import annotations

import enum
import re
import unicodedata
from typing import Iterable

LANGUAGES = ("de", "en")
LOWEST, HIGHEST = 1, 20


class CardError(ValueError):
    """Text that does not name a card."""


class Colour(enum.Enum):
    """The four card colours, in the order in which their 11s open a classic game."""

    RED = "R"
    YELLOW = "Y"
    GREEN = "G"
    BLUE = "B"

    @property
    def letter(self) -> str:
        return self.value

    @property
    def index(self) -> int:
        return _COLOUR_INDEX[self]

    def label(self, lang: str = "de") -> str:
        """The colour's name as shown to players: ``Rot`` or ``Red``."""
        return _COLOUR_NAMES[lang][self]

    @classmethod
    def parse(cls, text: str) -> "Colour":
        key = _fold(text)
        try:
            return _COLOUR_WORDS[key]
        except KeyError:
            raise CardError(f"unknown colour {text!r}: use R, Y, G, B or a colour name") from None


COLOURS: tuple[Colour, ...] = tuple(Colour)
_COLOUR_INDEX = {colour: i for i, colour in enumerate(COLOURS)}
_COLOUR_NAMES = {
    "de": {Colour.RED: "Rot", Colour.YELLOW: "Gelb", Colour.GREEN: "Grün", Colour.BLUE: "Blau"},
    "en": {Colour.RED: "Red", Colour.YELLOW: "Yellow", Colour.GREEN: "Green", Colour.BLUE: "Blue"},
}


def _fold(text: str) -> str:
    """Lower-case, strip accents (grün → grun, gruen stays gruen) and spaces."""
    text = unicodedata.normalize("NFKD", text.strip().lower())
    return "".join(ch for ch in text if not unicodedata.combining(ch) and not ch.isspace())


_COLOUR_WORDS: dict[str, Colour] = {}
for _colour in COLOURS:
    _COLOUR_WORDS[_colour.letter.lower()] = _colour
    for _names in _COLOUR_NAMES.values():
        _COLOUR_WORDS[_fold(_names[_colour])] = _colour
_COLOUR_WORDS["gruen"] = Colour.GREEN


class Card:
    """One card: a colour and a number from 1 to 20. Immutable and interned."""

    __slots__ = ("colour", "number", "row", "bit", "code")

    colour: Colour
    number: int
    row: int  # index of the colour, for per-colour tables
    bit: int  # 1 << number, this card's place in a row's bitmask
    code: str

    def __new__(cls, colour: Colour, number: int) -> "Card":
        try:
            return _CARDS[colour, number]
        except KeyError:
            raise CardError(f"no card {colour!r} {number!r}: numbers run from 1 to 20") from None

    def __setattr__(self, name, value):
        raise AttributeError("cards are immutable")

    def __reduce__(self):
        return Card, (self.colour, self.number)

    def __repr__(self) -> str:
        return f"Card({self.code})"

    def __str__(self) -> str:
        return self.code

    def __lt__(self, other: "Card") -> bool:
        return (self.row, self.number) < (other.row, other.number)

    def name(self, lang: str = "de") -> str:
        """The card as players say it: ``Rot 11`` (German) or ``Red 11``."""
        return f"{self.colour.label(lang)} {self.number}"

    @classmethod
    def parse(cls, text: str) -> "Card":
        """Read ``R11``, ``r11``, ``rot11``, ``Grün 3``, ``gruen 3`` or ``Blue 7``."""
        if isinstance(text, Card):
            return text
        if not isinstance(text, str):
            raise CardError(f"a card is written like R11, not {text!r}")
        match = _NOTATION.match(unicodedata.normalize("NFC", text))
        if not match:
            raise CardError(f"{text!r} is not a card: write a colour and a number, like R11 or Rot 11")
        colour = Colour.parse(match["colour"])
        number = int(match["number"])
        if not LOWEST <= number <= HIGHEST:
            raise CardError(f"{text!r} is not a card: numbers run from {LOWEST} to {HIGHEST}")
        return _CARDS[colour, number]


_NOTATION = re.compile(r"^\s*(?P<colour>[^\W\d_]+)\s*(?P<number>\d{1,2})\s*$")

def _make_card(colour: Colour, number: int) -> Card:
    made = object.__new__(Card)
    for name, value in (
        ("colour", colour),
        ("number", number),
        ("row", colour.index),
        ("bit", 1 << number),
        ("code", f"{colour.letter}{number}"),
    ):
        object.__setattr__(made, name, value)
    return made


_CARDS: dict[tuple[Colour, int], Card] = {
    (colour, number): _make_card(colour, number) for colour in COLOURS for number in range(LOWEST, HIGHEST + 1)
}

DECK: tuple[Card, ...] = tuple(_CARDS.values())
"""All 80 cards, colour by colour in opening order, each colour from 1 to 20."""


def card(text: str) -> Card:
    """Shorthand for :meth:`Card.parse`."""
    return Card.parse(text)


def cards(text: str | Iterable[str]) -> list[Card]:
    """Several cards at once: ``cards("R10 R11 R12")``."""
    if isinstance(text, str):
        text = text.split()
    return [Card.parse(item) for item in text]


def join_names(items: Iterable[Card], lang: str = "de", alternatives: bool = False) -> str:
    """``Rot 12``, ``Rot 12 und Rot 13``, ``Rot 12, Gelb 3 und Blau 4`` (or ``oder``)."""
    names = [item.name(lang) for item in items]
    word = {"de": ("und", "oder"), "en": ("and", "or")}[lang][alternatives]
    if len(names) <= 1:
        return "".join(names)
    return f"{', '.join(names[:-1])} {word} {names[-1]}"
