"""``elfer bench misses`` lists what the reader missed and what it read around it (not
the benchmark itself)."""

from __future__ import annotations

import numpy as np
import pytest

from companion.cards import Card, Colour
from companion.bench.misses import frame_misses, recorded_readings
from companion.vision.table_reader import SeenCard, TableReader, TableReading
from companion.vision.card_reader import CardReading


def _label(card: str, x: float, share: float = 1.0) -> dict:
    return {"card": card, "visible_share": share,
            "polygon": [[x - 30, 55], [x + 30, 55], [x + 30, 145], [x - 30, 145]]}


def _polygon(x: float) -> np.ndarray:
    return np.array([[x - 30, 55], [x + 30, 55], [x + 30, 145], [x - 30, 145]], float)


def test_only_missed_cards_are_listed_with_the_outlines_read_around_them():
    labels = [_label("R5", 100), _label("B7", 300), _label("G2", 500), _label("Y9", 700, share=0.7)]
    reading = TableReading(True, (SeenCard(Card.parse("R5"), 0.99, _polygon(100)), SeenCard(None, 0.3, _polygon(301)),
                                  SeenCard(Card.parse("G3"), 0.95, _polygon(500))))
    unsure = CardReading(None, 0.3, False, colour=Colour.BLUE, number=7, colour_confidence=1.0, number_confidence=0.3,
                         match=0.7)
    recorded = [(unsure, _polygon(303)), (CardReading(Card.parse("R5"), 0.99, False, match=0.95), _polygon(100))]
    misses = frame_misses(reading, labels, recorded)
    assert [(miss["card"], miss["outcome"]) for miss in misses] == [("B7", "unknown"), ("G2", "wrong")]
    blue = misses[0]
    assert blue["named"] == [None]
    assert blue["read_around"] == [{"card": None, "took": "B7", "colour_confidence": 1.0, "number_confidence": 0.3,
                                    "match": 0.7, "stray_ink": 0.0, "seam": 0.0, "index_ink": 0.0}]
    assert misses[1]["named"] == ["G3"] and misses[1]["read_around"] == []


def test_an_outline_reported_unreadable_where_no_card_lies_is_listed():
    labels = [_label("R5", 100)]
    reading = TableReading(True, (SeenCard(Card.parse("R5"), 0.99, _polygon(100)), SeenCard(None, 0.0, _polygon(600))))
    empty = CardReading(None, 0.0, False, colour=Colour.GREEN, number=14, match=0.2)
    misses = frame_misses(reading, labels, [(empty, _polygon(602))])
    assert [(miss["card"], miss["outcome"], miss["centre"]) for miss in misses] == [
        (None, "unreadable where no card lies", [600.0, 100.0])]
    assert misses[0]["read_around"][0]["took"] == "G14"


def test_a_card_named_where_no_card_lies_is_listed():
    """The benchmark counts a card named where no card shows at least half of itself as
    wrong (an outline across two strips of a fanned row): the list shows it too."""
    labels = [_label("R5", 100), _label("R6", 600, share=0.3)]
    reading = TableReading(True, (SeenCard(Card.parse("R5"), 0.99, _polygon(100)),
                                  SeenCard(Card.parse("R11"), 0.9, _polygon(600))))
    eleven = CardReading(Card.parse("R11"), 0.9, False, colour=Colour.RED, number=11, match=0.85)
    misses = frame_misses(reading, labels, [(eleven, _polygon(600))])
    assert [(miss["card"], miss["outcome"], miss["named"]) for miss in misses] == [
        (None, "named where no card lies", ["R11"])]
    assert misses[0]["read_around"][0]["took"] == "R11"


def test_the_reader_is_left_as_it_was():
    before = TableReader._read_on_numeral
    with pytest.raises(RuntimeError):
        with recorded_readings():
            assert TableReader._read_on_numeral is not before
            raise RuntimeError("a camera that vanished")
    assert TableReader._read_on_numeral is before
