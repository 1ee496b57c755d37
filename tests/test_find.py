"""The card finder (companion.vision.find) on pictures from the synthetic table.

Two kinds of scenes: a fixed layout under even light (single cards, a card turned 15°
and upside down, a pile whose top card is turned against the one below, two cards
touching, a side-by-side row, a pile of two) where every fully visible card must be
found to 4 px and nothing else; and random scenes from the data set (hands, blur, glare,
piles of many cards) where the finder is held to its measured level, so that a change
that makes it worse fails.
"""

from __future__ import annotations

import functools
import json
import math
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.cards import Card
from companion.sim.camera import Camera
from companion.sim.datasets import render_scene
from companion.sim.layout import CardPose
from companion.sim.lighting import Lighting
from companion.sim.render import SceneCamera, Scenery
from companion.vision.area import AreaView, PlayArea
from companion.vision.candidates import COARSE_PX_PER_MM, card_candidates
from companion.bench.evaluate_find import corner_error, score_scene
from companion.vision.find import CARD_MM, CardFinder, FoundCard, find_cards
from companion.vision.markers import PLAY_AREA_MM

TOLERANCE_PX = 4.0


def _pose(code, x, y, angle=0.0, upside_down=False):
    return CardPose(Card.parse(code), (float(x), float(y)), float(angle), upside_down)


LAYOUT = (  # bottom to top
    _pose("R5", 110, 100), _pose("Y7", 215, 105, 15, True),
    _pose("G3", 330, 110, 2), _pose("G4", 332, 112, -3),  # a pile: G4 on G3
    _pose("B9", 450, 105), _pose("B10", 509.5, 106, 1, True),  # touching
    _pose("R12", 120, 330, 1), _pose("R13", 142, 331, -1), _pose("R14", 164, 329, 2),  # a row
    _pose("Y2", 330, 330, -2), _pose("Y1", 331, 328, 3, True),  # a pile
    _pose("G20", 470, 330, -12),
)
FULLY_VISIBLE = {"R5", "Y7", "G4", "B9", "B10", "R14", "Y1", "G20"}
# every style on two surfaces, every surface with two styles
LAID_OUT = [("reference", "wood"), ("inverse", "cloth"), ("cream", "mat"), ("condensed", "pattern"),
            ("reference", "mat"), ("inverse", "wood"), ("cream", "pattern"), ("condensed", "cloth")]
# measured misses of the current finder (see the module docstring of companion.vision.find);
# strict: a miss mended shows as a failure, and its entry goes
KNOWN_MISSES = {("cream", "pattern"): "B9 of the touching pair settles 2 mm towards its neighbour along the "
                                      "plaid's lines, where its borders differ: the strict check rejects it"}
RANDOM_SEEDS = (11, 22, 33, 44, 55, 66, 77, 88)


@functools.lru_cache(maxsize=None)
def _laid_out(style: str, surface: str, lighting: Lighting | None = None) -> tuple[np.ndarray, list[dict]]:
    camera = Camera.framing(PLAY_AREA_MM, rng=np.random.default_rng(len(style) + len(surface)), tilt_deg=10.0)
    scene = SceneCamera(Scenery(style, surface, PLAY_AREA_MM, camera, lighting or Lighting.neutral(), 5))
    picture, _ = scene.picture(LAYOUT)
    frame = cv2.imdecode(np.frombuffer(scene.encode(picture), np.uint8), cv2.IMREAD_COLOR)
    return frame, scene.labels(LAYOUT)


@functools.lru_cache(maxsize=None)
def _scene(poses: tuple[CardPose, ...], surface: str = "wood") -> tuple[np.ndarray, dict[str, dict]]:
    """The reference deck laid out as ``poses`` under even light: the decoded frame and
    each card's label by its code."""
    camera = Camera.framing(PLAY_AREA_MM, rng=np.random.default_rng(3), tilt_deg=8.0)
    scene = SceneCamera(Scenery("reference", surface, PLAY_AREA_MM, camera, Lighting.neutral(), 9))
    picture, _ = scene.picture(poses)
    frame = cv2.imdecode(np.frombuffer(scene.encode(picture), np.uint8), cv2.IMREAD_COLOR)
    return frame, {label["card"]: label for label in scene.labels(poses)}


@functools.lru_cache(maxsize=None)
def _random(seed: int) -> tuple[np.ndarray, dict]:
    _, entry = render_scene(seed)
    return cv2.imdecode(np.frombuffer(entry["jpeg"], np.uint8), cv2.IMREAD_COLOR), entry


@functools.lru_cache(maxsize=None)
def _found(kind: str, key) -> tuple[AreaView, list[FoundCard]]:
    frame = _laid_out(*key)[0] if kind == "laid out" else _random(key)[0]
    view = PlayArea(play_area_mm=PLAY_AREA_MM).update(frame)  # the scene's own layout: finding, not measuring
    return view, find_cards(view)


def test_the_layout_shows_what_the_tests_expect():
    _, labels = _laid_out("reference", "wood")
    assert {label["card"] for label in labels if label["visible_share"] >= 0.98} == FULLY_VISIBLE
    assert all(label["visible_share"] < 0.5 for label in labels if label["card"] in {"G3", "R12", "R13", "Y2"})


@pytest.mark.parametrize("style,surface", LAID_OUT)
def test_nothing_is_found_that_is_not_a_visible_card(style, surface):
    _, labels = _laid_out(style, surface)
    view, found = _found("laid out", (style, surface))
    assert view.mapped
    for card in found:
        errors = [corner_error(card.corners_frame, np.asarray(label["polygon"])) for label in labels
                  if label["visible_share"] >= 0.5]
        assert min(errors) <= TOLERANCE_PX


@pytest.mark.parametrize("style,surface", [
    pytest.param(*key, marks=pytest.mark.xfail(reason=KNOWN_MISSES[key], strict=True)) if key in KNOWN_MISSES else key
    for key in LAID_OUT])
def test_every_fully_visible_card_is_found(style, surface):
    _, labels = _laid_out(style, surface)
    _, found = _found("laid out", (style, surface))
    for label in labels:
        if label["visible_share"] >= 0.98:
            polygon = np.asarray(label["polygon"])
            assert any(corner_error(card.corners_frame, polygon) <= TOLERANCE_PX for card in found), label["card"]


def test_found_cards_are_clockwise_card_shaped_and_consistent():
    view, found = _found("laid out", ("reference", "wood"))
    assert found
    for card in found:
        assert card.corners_view.shape == card.corners_frame.shape == (4, 2)
        assert np.allclose(view.view_to_frame(card.corners_view), card.corners_frame)
        corners = view.view_to_mm(card.corners_view)
        sides = np.linalg.norm(np.roll(corners, -1, axis=0) - corners, axis=1)
        assert np.allclose(sorted(sides), sorted([CARD_MM[0]] * 2 + [CARD_MM[1]] * 2), atol=0.01)
        x, y = card.corners_frame[:, 0], card.corners_frame[:, 1]
        assert np.dot(x, np.roll(y, -1)) - np.dot(np.roll(x, -1), y) > 0  # clockwise on screen (y down)
        assert 0 < card.score <= 1


def test_outlines_around_a_card_settle_elsewhere_than_the_card():
    """Outlines refined from starts beside a found card are other outlines (a neighbour,
    the card below): none repeats the card itself, and each is card-shaped."""
    view, found = _found("laid out", ("reference", "wood"))
    finder = CardFinder(occlusion_only=True)
    for card in found[:4]:
        centre = view.view_to_mm(card.corners_view).mean(axis=0)
        for other in finder.outlines_around(view, card, 8.0, (-5.0, 5.0)):
            corners = view.view_to_mm(other.corners_view)
            assert np.linalg.norm(corners.mean(axis=0) - centre) > 1.0
            sides = np.linalg.norm(np.roll(corners, -1, axis=0) - corners, axis=1)
            assert np.allclose(sorted(sides), sorted([CARD_MM[0]] * 2 + [CARD_MM[1]] * 2), atol=0.01)


def test_the_top_card_of_a_pile_wins_over_the_card_below_though_that_one_is_refined_first():
    """``data/pile-G4-on-G3-opencv4.png``: the fine view around the laid-out pile (G4
    turned 5° on G3) of the cream deck on the mat, as OpenCV 4.8 renders and maps it. From
    the candidate there, the first start settles on G3's outline, whose three whole sides
    looked convincing enough to skip the second start; the second start finds G4, whose
    whole outline and border show more."""
    data = Path(__file__).parent / "data"
    fine = cv2.imread(str(data / "pile-G4-on-G3-opencv4.png"))
    truth = json.loads((data / "pile-G4-on-G3-opencv4.json").read_text())
    (x, y, theta), score, _ = CardFinder().refine(fine, *truth["candidate"])
    top, below = np.asarray(truth["G4"]), np.asarray(truth["G3"])
    assert score is not None
    assert np.hypot(*(top.mean(axis=0) - (x, y))) <= 1.5
    assert abs(math.degrees(theta) - _side_turn_deg(top)) <= 1.0
    assert abs(math.degrees(theta) - _side_turn_deg(below)) > 3.0


@pytest.mark.parametrize("turn", [-25.0, -19.0, 19.0, 25.0])
def test_a_card_turned_far_on_a_pile_is_a_candidate_though_the_pile_scores_better(turn):
    """A pile squared up (its cards at 0–2°) with its top card turned 19–25° against it:
    the pile's edges make the better candidate at that place, and the top card's own,
    as far turned, must be kept beside it (the pile's outline reads as no card)."""
    pile = (_pose("B12", 300, 220, 1), _pose("B13", 301, 221, -1), _pose("B14", 300, 219, 2),
            _pose("B15", 301, 220, turn))
    frame, labels = _scene(pile)
    top = labels["B15"]
    view = PlayArea(play_area_mm=PLAY_AREA_MM).update(frame)
    coarse, coarse_scale = view.resampled(COARSE_PX_PER_MM)
    candidates = card_candidates(cv2.cvtColor(coarse, cv2.COLOR_BGR2GRAY), CARD_MM)
    corners = (view.frame_to_view(np.asarray(top["polygon"], np.float64)) + 0.5) / coarse_scale - 0.5
    centre, side_turn = corners.mean(axis=0), _side_turn_deg(corners)
    near = [(x, y, theta) for x, y, theta, _ in candidates if np.hypot(x - centre[0], y - centre[1]) <= 4]
    assert any(abs((math.degrees(theta) - side_turn + 45) % 90 - 45) <= 6 for _, _, theta in near), near
    assert any(abs((math.degrees(theta) - side_turn + 45) % 90 - 45) >= 15 for _, _, theta in near), near


def _side_turn_deg(corners: np.ndarray) -> float:
    dx, dy = corners[1] - corners[0]
    return math.degrees(math.atan2(dy, dx))


def test_random_scenes_are_read_at_the_measured_level():
    """Hands, blur, glare, piles of many cards: recall and false detections over a few
    random scenes stay at what the finder reaches today (see evaluate_find for the
    full measurement)."""
    totals = {"full": 0, "found": 0, "detections": 0, "imprecise": 0, "invented": 0}
    for seed in RANDOM_SEEDS:
        _, entry = _random(seed)
        view, found = _found("random", seed)
        result = score_scene([card.corners_frame for card in found], entry["cards"], TOLERANCE_PX)
        totals["full"] += result["full"]
        totals["found"] += result["found"]
        totals["detections"] += len(found)
        totals["imprecise"] += len(result["imprecise"])
        totals["invented"] += len(result["invented"])
    # measured: 40 of 59 found (one scene has no mapping: its markers are unreadable),
    # 2 imprecise outlines and 1 invented one among 46 detections
    assert totals["found"] >= 0.6 * totals["full"]
    assert totals["invented"] <= 2
    assert totals["imprecise"] <= 0.1 * totals["detections"]


def test_without_a_mapping_nothing_is_guessed_unless_asked():
    frame, _ = _laid_out("reference", "wood")
    height, width = frame.shape[:2]
    whole = AreaView(frame, np.eye(3), None, (width, height))
    assert find_cards(whole) == []
    found = CardFinder(whole_frame=True).find(whole)  # the shy fallback: the 59:91 shape at a guessed scale
    assert all(card.corners_frame.shape == (4, 2) for card in found)
    assert all(np.array_equal(card.corners_view, card.corners_frame) for card in found)


def test_a_card_on_a_busy_cloth_is_not_crowded_out_by_sixty_likelier_places():
    """A plaid cloth's squares can outline card-sized rectangles better than a card whose
    sides blur into the cloth (on the bench's plaid frames 100–160 places in all): with
    sixty such places the card still gets its candidate."""
    grey = np.full((600, 900), 128, np.uint8)  # 1,800 × 1,200 mm at the coarse scale
    w, h = CARD_MM[0] * COARSE_PX_PER_MM, CARD_MM[1] * COARSE_PX_PER_MM
    for row in range(6):
        for column in range(10):
            x, y = 40 + 80 * column, 40 + 90 * row
            cv2.rectangle(grey, (x, y), (round(x + w), round(y + h)), 230, 1)
    x, y = 855.0, 300.0  # the card, beside the squares: its sides broken, a third of each missing
    card = np.array([[x - w / 2, y - h / 2], [x + w / 2, y - h / 2], [x + w / 2, y + h / 2], [x - w / 2, y + h / 2]])
    for start, end in zip(card, np.roll(card, -1, axis=0)):
        cv2.line(grey, tuple(np.round(start).astype(int)), tuple(np.round(start + (end - start) * 0.66).astype(int)),
                 230, 1)
    candidates = card_candidates(grey, CARD_MM)
    assert sum(s >= 0.9 for _, _, _, s in candidates) >= 60
    assert any(np.hypot(cx - x, cy - y) <= 3 for cx, cy, _, _ in candidates)
