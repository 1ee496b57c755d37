"""The card detector (companion.vision.detect): the shipped network proposes every fully
visible card of rendered tables it was not trained on, where it lies and how it is
turned; a missing or broken model file is a clear error."""

from __future__ import annotations

import functools
import math
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.vision.area import PlayArea
from companion.vision.detect import MODEL, STRIDE, CardDetector, DetectorError, card_corners, decode
from companion.vision.find import LookIn

# Scenes of the synthetic table far from the detector's training seeds (60,000,000 on)
# and from the benchmark's (seed * 100,000 + scene): every style, piles and rows.
SCENE_SEEDS = (910_000_001, 910_000_002, 910_000_003, 910_000_004, 910_000_005, 910_000_006)
STYLES = ("reference", "inverse", "cream", "condensed")


@functools.lru_cache(maxsize=None)
def _scene(seed: int, style: str):
    from companion.sim.datasets import render_scene

    _, entry = render_scene(seed, style=style)
    frame = cv2.imdecode(np.frombuffer(entry.pop("jpeg"), np.uint8), cv2.IMREAD_COLOR)
    return frame, entry["cards"]


@functools.lru_cache(maxsize=1)
def _detector() -> CardDetector:
    return CardDetector()


def _pose_mm(view, corners_frame: np.ndarray) -> tuple[np.ndarray, float]:
    """Centre (mm) and long side's direction (degrees, 0–180) of an outline in frame pixels."""
    corners = view.frame_to_view(np.asarray(corners_frame, np.float64)) / view.px_per_mm
    sides = [corners[(k + 1) % 4] - corners[k] for k in range(4)]
    longest = max(sides, key=np.linalg.norm)
    return corners.mean(axis=0), math.degrees(math.atan2(longest[1], longest[0])) % 180


@pytest.mark.parametrize("style", STYLES)
@pytest.mark.parametrize("seed", SCENE_SEEDS[:3])
def test_every_fully_visible_card_is_proposed_where_it_lies(seed, style):
    frame, labels = _scene(seed, style)
    view = PlayArea().update(frame)
    assert view.mapped
    proposals = [_pose_mm(view, p.corners_frame) for p in _detector().detect(view)]
    for label in labels:
        if label["visible_share"] < 0.98:
            continue
        centre, direction = _pose_mm(view, label["polygon"])
        errors = [(np.linalg.norm(c - centre), abs((d - direction + 90) % 180 - 90)) for c, d in proposals]
        assert errors, f"no proposal at all; {label['card']} lies there"
        distance, turn = min(errors)
        assert distance <= 4.0, f"{label['card']}: nearest proposal {distance:.1f} mm off"
        assert turn <= 6.0, f"{label['card']}: proposal turned {turn:.1f}° against the card"


@pytest.mark.parametrize("seed", SCENE_SEEDS[3:])
def test_cards_below_a_pile_and_the_bare_table_are_not_proposed(seed):
    frame, labels = _scene(seed, "reference")
    view = PlayArea().update(frame)
    shown = [_pose_mm(view, label["polygon"])[0] for label in labels if label["visible_share"] >= 0.5]
    for proposal in _detector().detect(view):
        if proposal.score < 0.5:
            continue  # the reader checks the unsure ones
        centre, _ = _pose_mm(view, proposal.corners_frame)
        assert min(np.linalg.norm(centre - c) for c in shown) <= 8.0, f"a sure proposal at {centre} mm, no card there"


def test_around_some_places_the_cards_there_are_proposed_as_in_the_whole_view():
    """A stream reader asks only around what changed: the network then sees a piece of the
    view, and must place the cards there as it does in the whole view."""
    frame, labels = _scene(SCENE_SEEDS[0], "reference")
    view = PlayArea().update(frame)
    whole = _detector().detect(view)
    label = next(label for label in labels if label["visible_share"] >= 0.98)
    coarse, scale = view.resampled(0.5)
    mask = np.zeros(coarse.shape[:2], np.uint8)
    centre = (view.frame_to_view(np.asarray(label["polygon"], np.float64)).mean(axis=0) + 0.5) / scale - 0.5
    cv2.circle(mask, tuple(int(v) for v in centre), 6, 255, -1)
    around = _detector().detect(view, LookIn(mask, scale))
    assert 0 < len(around) < len(whole)
    here = min(around, key=lambda p: np.linalg.norm(p.corners_frame.mean(axis=0) - np.mean(label["polygon"], axis=0)))
    same = min(whole, key=lambda p: np.abs(p.corners_frame - here.corners_frame).max())
    assert np.abs(same.corners_frame - here.corners_frame).max() <= 2.0


def test_without_a_mapping_nothing_is_proposed():
    frame, _ = _scene(SCENE_SEEDS[0], "reference")
    blank = frame.copy()
    blank[:] = 128  # no markers
    view = PlayArea().update(blank)
    assert not view.mapped
    assert _detector().detect(view) == []


def test_decode_reads_centres_offsets_and_directions():
    maps = np.full((5, 10, 12), 0.0, np.float32)
    maps[0] = -8.0
    maps[0, 3, 4], maps[1:, 3, 4] = 3.0, (0.25, 0.75, math.cos(2 * 0.3), math.sin(2 * 0.3))
    maps[0, 7, 9], maps[1:, 7, 9] = 1.0, (0.5, 0.5, -1.0, 0.0)  # turned a quarter: the long side across
    maps[0, 7, 8] = 0.5  # beside a stronger peak: no proposal of its own
    poses = decode(maps, min_score=0.2)
    assert len(poses) == 2
    (x, y, theta, score), (x2, y2, theta2, score2) = poses
    assert (x, y) == pytest.approx(((4 + 0.25) * STRIDE, (3 + 0.75) * STRIDE))
    assert theta == pytest.approx(0.3, abs=1e-6)
    assert score == pytest.approx(1 / (1 + math.exp(-3.0)))
    assert (x2, y2) == pytest.approx((9.5 * STRIDE, 7.5 * STRIDE))
    assert abs(theta2) == pytest.approx(math.pi / 2, abs=1e-6)
    assert score2 < score


def test_card_corners_are_a_card_clockwise_on_screen():
    corners = card_corners(100.0, 50.0, math.pi / 2, 1.0)  # long side down the screen: upright
    assert corners.mean(axis=0) == pytest.approx((100.0, 50.0))
    assert np.linalg.norm(corners[1] - corners[0]) == pytest.approx(59.0)
    assert np.linalg.norm(corners[2] - corners[1]) == pytest.approx(91.0)
    assert corners[0] == pytest.approx((70.5, 4.5))  # top-left first
    assert cv2.contourArea(corners.astype(np.float32), oriented=True) > 0  # clockwise with y pointing down


def test_the_model_ships_with_the_package():
    assert MODEL.is_file()
    assert MODEL.stat().st_size < 2_000_000  # small enough to load on a Pi in a blink


def test_a_missing_model_is_a_clear_error(tmp_path):
    with pytest.raises(DetectorError, match="not found"):
        CardDetector(tmp_path / "cards.onnx")


def test_a_broken_model_is_a_clear_error(tmp_path):
    broken = tmp_path / "cards.onnx"
    broken.write_bytes(MODEL.read_bytes()[:5000])
    with pytest.raises(DetectorError, match="cannot be loaded"):
        CardDetector(broken)


def test_a_model_that_takes_the_view_unrewritten_is_a_clear_error():
    # a network whose first layer takes the scaled 3-channel view, as training exports it
    # before training/stem.py rewrites it for the view in 2 x 2 cells
    with pytest.raises(DetectorError, match="2 x 2 cells"):
        CardDetector(Path(__file__).parent / "data" / "three_channel_detector.onnx")
