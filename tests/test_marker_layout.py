"""The play area measured from the markers themselves (companion.vision.marker_layout):
any size a family lays them at, the scale from the markers' printed 40 mm."""

from __future__ import annotations

import functools

import cv2
import numpy as np
import pytest

from companion.cards import Card
from companion.sim.camera import Camera
from companion.sim.layout import CardPose
from companion.sim.lighting import Lighting
from companion.sim.render import SceneCamera, Scenery
from companion.vision.area import PlayArea
from companion.vision.marker_layout import MarkerLayout, fit_layout
from companion.vision.markers import PLAY_AREA_MM, corner_positions_mm


@functools.lru_cache(maxsize=None)
def _table(area_mm: tuple[float, float], seed: int, tilt: float):
    """A picture of a table with the markers ``area_mm`` apart and one card in the middle."""
    camera = Camera.framing(area_mm, rng=np.random.default_rng(seed), tilt_deg=tilt)
    scene = SceneCamera(Scenery("reference", "wood", area_mm, camera, Lighting.neutral(), seed))
    pose = CardPose(Card.parse("R11"), (area_mm[0] / 2, area_mm[1] / 2), 10.0)
    picture, _ = scene.picture((pose,))
    return cv2.imdecode(np.frombuffer(scene.encode(picture), np.uint8), cv2.IMREAD_COLOR), scene, pose


@pytest.mark.parametrize("area_mm,seed,tilt", [((350.0, 250.0), 1, 0.0), ((460.0, 330.0), 2, 15.0),
                                                ((1000.0, 700.0), 3, 10.0)])
def test_the_area_is_measured_wherever_the_markers_lie(area_mm, seed, tilt):
    frame, scene, pose = _table(area_mm, seed, tilt)
    view = PlayArea().update(frame)
    assert view.mapped and view.layout.measured == (0, 1, 2, 3)
    for marker_id, truth in corner_positions_mm(area_mm).items():
        assert np.hypot(*np.subtract(view.layout.centres_mm[marker_id], truth)) <= max(2.0, 0.005 * max(area_mm))
    assert view.size == pytest.approx(((area_mm[0] + 80) * 2, (area_mm[1] + 80) * 2), abs=8)
    # a card in the middle shows its true 59 x 91 mm in the view
    corners_mm = view.view_to_mm(view.frame_to_view(scene.camera.project(pose.corners())))
    sides = np.hypot(*(corners_mm - np.roll(corners_mm, -1, axis=0)).T)
    assert sides == pytest.approx([59, 91, 59, 91], rel=0.01)


def test_markers_laid_at_the_default_size_are_taken_as_laid_and_a_given_size_is_kept():
    frame, scene, _ = _table(PLAY_AREA_MM, 4, 20.0)
    measured = PlayArea().update(frame).layout
    assert measured.size_mm == pytest.approx(PLAY_AREA_MM, abs=3)
    told = PlayArea(play_area_mm=(700.0, 500.0))
    assert told.update(frame).layout.size_mm == (700.0, 500.0)  # a size given is never measured over


def test_three_markers_measure_the_area_and_place_the_fourth():
    frame, scene, _ = _table((460.0, 330.0), 2, 15.0)
    corners = PlayArea()._detect(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY))
    del corners[2]
    layout = fit_layout(corners)
    assert layout.measured == (0, 1, 3)
    assert layout.centres_mm[2] == pytest.approx((460.0, 330.0), abs=4)


@pytest.mark.parametrize("hidden", [0, 1, 2, 3])
def test_any_three_markers_of_a_small_table_give_its_size_with_marker_0_at_the_origin(hidden):
    """A hand over marker 0 or 1 must not move the table onto the sheet's 60 x 45 cm
    example: the view starts at the origin, and a table lying partly left of it is cut off."""
    frame, scene, _ = _table((460.0, 330.0), 2, 15.0)
    corners = PlayArea()._detect(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY))
    del corners[hidden]
    layout = fit_layout(corners)
    assert layout.centres_mm[0] == pytest.approx((0.0, 0.0), abs=1e-6)
    assert layout.size_mm == pytest.approx((460.0, 330.0), abs=4)


def test_a_layout_from_four_markers_is_not_replaced_by_one_from_three():
    frame, scene, _ = _table((460.0, 330.0), 2, 15.0)
    area = PlayArea()
    area.update(frame)
    four = area.layout
    grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    corners = area._detect(grey)
    del corners[1]
    area._learn_layout(grey, corners, relearn=False)
    assert area.layout is four
    area._learn_layout(grey, corners, relearn=True)  # a marker moved
    assert area.layout is not four and area.layout.measured == (0, 2, 3)


def test_one_marker_is_no_layout():
    with pytest.raises(ValueError, match="two markers"):
        fit_layout({0: np.array([[0, 0], [10, 0], [10, 10], [0, 10]], float)})
    assert MarkerLayout.default().size_mm == PLAY_AREA_MM


def test_calibration_pictures_of_one_table_measure_it_together():
    from companion.vision.single import table_size

    pictures = [_table((460.0, 330.0), seed, tilt)[0] for seed, tilt in ((2, 15.0), (5, 5.0), (6, 20.0))]
    assert table_size(pictures) == pytest.approx((460.0, 330.0), abs=3)
    assert table_size(pictures[:2]) is None  # too few to trust: each picture measures its own
    blank = np.full((720, 1280, 3), 200, np.uint8)
    assert table_size([blank, blank, blank, *pictures[:2]]) is None
