"""The reliability table ``elfer bench designs`` prints: is a confidence the share right?"""

from __future__ import annotations

import numpy as np

from companion.bench.confidence import named_confidences, reliability_lines
from companion.bench.vision import label_places
from companion.cards import Card
from companion.vision.table_reader import SeenCard


def _label(code, x):
    return {"card": code, "polygon": [[x, 0], [x + 60, 0], [x + 60, 90], [x, 90]], "visible_share": 1.0}


def test_each_card_named_counts_right_or_wrong_at_its_confidence():
    labels = [_label("R5", 0), _label("G11", 200)]
    square = lambda x: np.float32([[x, 0], [x + 60, 0], [x + 60, 90], [x, 90]])
    reading = type("Reading", (), {"cards": (SeenCard(Card.parse("R5"), 0.999, square(0)),
                                             SeenCard(Card.parse("Y11"), 0.95, square(200)),
                                             SeenCard(None, 0.2, square(100)),
                                             SeenCard(Card.parse("B3"), 0.91, square(500)))})()
    assert named_confidences(reading, labels, label_places(labels)) == [(0.999, True), (0.95, False), (0.91, False)]


def test_the_calibration_error_weighs_each_band_by_its_cards():
    # 100 cards at 0.95 of which 90 right (5 points off), 100 at 1.0 all right: 2.5 % overall
    pairs = [(0.95, True)] * 90 + [(0.95, False)] * 10 + [(1.0, True)] * 100
    lines = reliability_lines(pairs)
    assert "0.900-0.990:    100 cards named,  90.000 % right" in lines[0]
    assert lines[-1].startswith("  expected calibration error 2.500 %")
    assert reliability_lines([]) == ["  confidence: no card named"]
