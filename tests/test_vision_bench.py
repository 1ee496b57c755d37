"""How ``elfer bench vision`` scores a reading against the labels (not the benchmark itself)."""

from __future__ import annotations

import cv2
import numpy as np

from companion.cards import Card
from companion.bench.vision import score_frame
from companion.vision.table_reader import SeenCard, TableReading


def _label(card: str, x: float, y: float, share: float) -> dict:
    return {"card": card, "visible_share": share,
            "polygon": [[x - 30, y - 45], [x + 30, y - 45], [x + 30, y + 45], [x - 30, y + 45]]}


def _seen(card: str | None, x: float, y: float) -> SeenCard:
    polygon = np.array([[x - 30, y - 45], [x + 30, y - 45], [x + 30, y + 45], [x - 30, y + 45]], float)
    return SeenCard(None if card is None else Card.parse(card), 0.9, polygon)


def _score(seen: list[SeenCard], labels: list[dict]):
    return score_frame(TableReading(True, tuple(seen)), labels)


def test_a_reading_of_a_pile_belongs_to_its_top_card_even_nearer_the_card_below():
    labels = [_label("R5", 100, 100, 1.0), _label("R4", 103, 102, 0.2)]
    score = _score([_seen("R5", 103, 102)], labels)
    assert (score.required, score.right, score.wrong, score.unknown, score.frames_right) == (1, 1, 0, 0, 1)


def test_misread_unknown_missing_and_false_readings_are_counted_apart():
    labels = [_label("R5", 100, 100, 1.0), _label("B7", 300, 100, 1.0), _label("G2", 500, 100, 1.0),
              _label("Y9", 700, 100, 0.7)]
    seen = [_seen("R6", 100, 100), _seen(None, 300, 100), _seen("Y8", 700, 100), _seen("G1", 900, 400),
            _seen(None, 900, 600)]
    score = _score(seen, labels)
    assert score.required == 3 and score.right == 0
    assert score.unknown == 2  # B7 left unknown, G2 not found
    assert score.false_readings == 1  # G1 where no card lies
    assert score.empty_outlines == 1  # an unreadable card reported where no card lies: no misreading, but counted
    assert score.wrong == 3  # R5 misread, the partly covered Y9 misread, the false reading
    assert score.frames_right == 0


def test_a_partly_covered_card_may_be_left_unread_but_a_second_outline_may_not_contradict():
    labels = [_label("R5", 100, 100, 1.0), _label("Y9", 400, 100, 0.7)]
    assert _score([_seen("R5", 100, 100)], labels).frames_right == 1
    twice = _score([_seen("R5", 100, 100), _seen("R3", 104, 100)], labels)
    assert twice.right == 0 and twice.wrong == 1 and twice.frames_right == 0


def test_a_retaken_calibration_picture_is_not_written_into_the_cache(tmp_path):
    """A benchmark cache keeps the calibration pictures as first taken: a picture the
    calibration asks to retake (here a blank R5) is retaken for this run only, so the
    next run (another version of the reader) calibrates from the same first takes and
    retakes what it needs itself."""
    from companion.sim.datasets import write_cards
    from companion.bench.evaluate_read import calibrated_profiles, calibration_set

    folder = tmp_path / "cache"
    # seed 8: no picture of the set but the blanked R5 asks to be retaken (with seed 7 five
    # more were, some twice, each retake a whole calibration more: 36 s, not 14)
    write_cards(folder / "reference", "reference", variants=1, seed=8, cards=calibration_set())
    blank = np.full_like(cv2.imread(str(folder / "reference" / "R5.png")), 120)
    cv2.imwrite(str(folder / "reference" / "R5.png"), blank)
    retaken = {}
    profile = calibrated_profiles(["reference"], seed=8, folder=folder, retaken=retaken)["reference"]
    assert "R5" in retaken["reference"] and 5 in profile.numbers
    assert np.array_equal(cv2.imread(str(folder / "reference" / "R5.png")), blank)
