"""The play-area mapping (companion.vision.area) on pictures from the synthetic table."""

from __future__ import annotations

import functools

import cv2
import numpy as np
import pytest

from companion.cards import Card
from companion.sim.camera import Camera
from companion.sim.layout import CardPose
from companion.sim.lighting import Lighting
from companion.sim.render import PX_PER_MM, SceneCamera, Scenery
from companion.vision.area import AreaView, PlayArea
from companion.vision.markers import MARKER_SIZE_MM, PLAY_AREA_MM, corner_positions_mm, quiet_zone_px

POSES = (CardPose(Card.parse("R11"), (300.0, 225.0), 4.0), CardPose(Card.parse("B3"), (380.0, 120.0), -12.0, True))
SCENES = {  # name: (style, surface, camera seed, tilt)
    "straight": ("reference", "cloth", 1, 0.0),
    "tilted": ("inverse", "wood", 2, 24.0),
    "turned": ("cream", "mat", 3, 12.0),
}


@functools.lru_cache(maxsize=None)
def _scene(name: str) -> tuple[np.ndarray, SceneCamera]:
    """A rendered picture (through JPEG) and its camera, for one of SCENES."""
    style, surface, seed, tilt = SCENES[name]
    rng = np.random.default_rng(seed)
    camera = Camera.framing(PLAY_AREA_MM, rng=rng, tilt_deg=tilt)
    scene = SceneCamera(Scenery(style, surface, PLAY_AREA_MM, camera, Lighting.neutral(), seed))
    picture, _ = scene.picture(POSES)
    frame = cv2.imdecode(np.frombuffer(scene.encode(picture), np.uint8), cv2.IMREAD_COLOR)
    return frame, scene


def _drawn_marker_centres(scene: SceneCamera) -> dict[int, np.ndarray]:
    """Where each marker's centre really is in the frame. The renderer pastes the marker
    pictures at whole table-raster pixels, up to a quarter millimetre off the corner
    positions, so the truth is recomputed the renderer's way and projected."""
    renderer = scene.table
    side = int(round(MARKER_SIZE_MM * PX_PER_MM))
    paper = side + 2 * quiet_zone_px(side) + 8
    centres = {}
    for marker_id, position in corner_positions_mm().items():
        cx, cy = renderer.to_px(np.array([position]))[0]
        x, y = round(cx - paper / 2), round(cy - paper / 2)
        centre_mm = renderer.raster.to_mm(np.array([[x + (paper - 1) / 2, y + (paper - 1) / 2]]))
        centres[marker_id] = scene.camera.project(centre_mm)[0]
    return centres


def _cover(frame: np.ndarray, centre: np.ndarray, radius: int, colour=(90, 120, 170)) -> np.ndarray:
    covered = frame.copy()
    cv2.circle(covered, (int(round(centre[0])), int(round(centre[1]))), radius, colour, -1)
    return covered


def _marker_radius(scene: SceneCamera) -> int:
    return int(np.ceil(0.85 * MARKER_SIZE_MM * scene.px_per_mm))


@pytest.mark.parametrize("name", sorted(SCENES))
def test_mapping_puts_the_marker_centres_where_the_layout_says(name):
    frame, scene = _scene(name)
    view = PlayArea(px_per_mm=2.0, play_area_mm=PLAY_AREA_MM).update(frame)
    assert view.mapped and view.found and view.markers == (0, 1, 2, 3)
    assert view.px_per_mm == 2.0
    for marker_id, drawn in _drawn_marker_centres(scene).items():
        expected = view.mm_to_view(np.array([corner_positions_mm()[marker_id]]))[0]
        assert np.linalg.norm(view.frame_to_view(drawn[None])[0] - expected) <= 1.0, marker_id


@pytest.mark.parametrize("name", sorted(SCENES))
def test_the_view_shows_the_table_from_above(name):
    frame, scene = _scene(name)
    view = PlayArea(px_per_mm=2.0, margin_mm=40, play_area_mm=PLAY_AREA_MM).update(frame)
    assert view.image.shape == (view.size[1], view.size[0], 3) == (1060, 1360, 3)
    # a point on the table lands where its millimetres say (camera distortion and the
    # renderer's marker placement leave well under a millimetre)
    points_mm = np.array([[300.0, 225.0], [100.0, 400.0], [550.0, 40.0], [-20.0, 200.0]])
    in_view = view.frame_to_view(scene.camera.project(points_mm))
    assert np.abs(in_view - view.mm_to_view(points_mm)).max() <= 2.0
    assert np.allclose(view.view_to_mm(view.mm_to_view(points_mm)), points_mm)
    # a coarser view is the same mapping at another scale
    coarse, scale = view.resampled(0.5)
    assert scale == 4.0 and coarse.shape[:2] == (265, 340)


def test_the_mapping_is_kept_while_a_hand_covers_a_marker():
    frame, scene = _scene("tilted")
    area = PlayArea()
    first = area.update(frame)
    centres = _drawn_marker_centres(scene)
    covered = _cover(frame, centres[2], _marker_radius(scene))
    view = area.update(covered)
    assert view.mapped and view.found
    assert 2 not in view.markers and set(view.markers) == {0, 1, 3}
    assert np.allclose(view.to_frame, first.to_frame)
    # three markers covered: still kept (nothing contradicts the mapping)
    for marker_id in (0, 1):
        covered = _cover(covered, centres[marker_id], _marker_radius(scene))
    view = area.update(covered)
    assert view.mapped and view.markers == (3,)


def test_the_mapping_is_made_afresh_when_the_camera_moves():
    frame, scene = _scene("turned")
    area = PlayArea()
    before = area.update(frame)
    shift = np.array([9.0, -6.0])
    moved = _shifted(frame, shift)
    after = area.update(moved)
    assert after.mapped and after.markers == (0, 1, 2, 3)
    points = np.array([[100.0, 100.0], [600.0, 500.0], [1100.0, 200.0]])
    assert np.abs(after.view_to_frame(points) - (before.view_to_frame(points) + shift)).max() <= 0.6


def _shifted(frame: np.ndarray, shift: np.ndarray) -> np.ndarray:
    return cv2.warpAffine(frame, np.float32([[1, 0, shift[0]], [0, 1, shift[1]]]), frame.shape[1::-1],
                          borderMode=cv2.BORDER_REPLICATE)


def test_three_markers_are_enough_to_map_afresh_when_the_camera_moved():
    frame, scene = _scene("straight")
    area = PlayArea()
    before = area.update(frame)
    shift = np.array([14.0, 8.0])
    moved = _cover(_shifted(frame, shift), _drawn_marker_centres(scene)[1] + shift, _marker_radius(scene))
    view = area.update(moved)
    assert view.mapped and view.markers == (0, 2, 3)
    points = np.array([[100.0, 100.0], [600.0, 500.0], [1100.0, 200.0]])
    assert np.abs(view.view_to_frame(points) - (before.view_to_frame(points) + shift)).max() <= 0.6


def test_a_hand_over_one_marker_at_the_start_does_not_stop_the_mapping():
    frame, scene = _scene("tilted")
    covered = _cover(frame, _drawn_marker_centres(scene)[0], _marker_radius(scene))
    view = PlayArea(play_area_mm=PLAY_AREA_MM).update(covered)
    assert view.mapped and view.markers == (1, 2, 3)
    # even at the hidden marker's corner a table point lands within about two
    # millimetres of where it is (the lens bends what a homography cannot)
    points_mm = np.array([[0.0, 0.0], [300.0, 225.0], [600.0, 450.0], [-20.0, 200.0]])
    in_frame = view.view_to_frame(view.mm_to_view(points_mm))
    assert np.abs(in_frame - scene.camera.project(points_mm)).max() <= 2.5


def test_the_mapping_is_dropped_when_the_camera_moved_and_three_markers_are_hidden():
    frame, scene = _scene("straight")
    area = PlayArea()
    assert area.update(frame).mapped
    shift = np.array([14.0, 8.0])
    moved = _shifted(frame, shift)
    for marker_id in (1, 2, 3):
        moved = _cover(moved, _drawn_marker_centres(scene)[marker_id] + shift, _marker_radius(scene))
    view = area.update(moved)
    assert not view.mapped  # one marker seen elsewhere, three unknown: no way to know where the area is
    assert view.image is moved and view.px_per_mm is None
    # and one marker alone does not start a mapping
    assert not PlayArea().update(moved).mapped


def test_two_markers_map_afresh_when_the_camera_moved():
    frame, scene = _scene("straight")
    area = PlayArea(play_area_mm=PLAY_AREA_MM)
    before = area.update(frame)
    shift = np.array([14.0, 8.0])
    moved = _shifted(frame, shift)
    for marker_id in (1, 2):
        moved = _cover(moved, _drawn_marker_centres(scene)[marker_id] + shift, _marker_radius(scene))
    view = area.update(moved)
    assert view.mapped and view.markers == (0, 3)
    points = np.array([[100.0, 100.0], [600.0, 500.0], [1100.0, 200.0]])
    assert np.abs(view.view_to_frame(points) - (before.view_to_frame(points) + shift)).max() <= 2.0


@pytest.mark.parametrize("hidden", [(0, 2), (2, 3)], ids=["diagonal", "one side"])
def test_two_markers_start_a_mapping_that_the_others_replace_when_they_show(hidden):
    frame, scene = _scene("tilted")
    covered = frame
    for marker_id in hidden:
        covered = _cover(covered, _drawn_marker_centres(scene)[marker_id], _marker_radius(scene))
    area = PlayArea(redetect_every=3)
    view = area.update(covered)
    assert view.mapped and view.markers == tuple(sorted(set(range(4)) - set(hidden)))
    points_mm = np.array([[0.0, 0.0], [300.0, 225.0], [600.0, 450.0], [-20.0, 200.0]])
    in_frame = view.view_to_frame(view.mm_to_view(points_mm))
    assert np.abs(in_frame - scene.camera.project(points_mm)).max() <= 6.0
    provisional = view.to_frame
    # the hand goes: the markers are looked for again on every third frame, not on each
    for _ in range(2):
        view = area.update(frame)
        assert set(view.markers) == set(range(4)) - set(hidden)
    view = area.update(frame)
    assert view.markers == (0, 1, 2, 3) and not np.array_equal(view.to_frame, provisional)
    in_frame = view.view_to_frame(view.mm_to_view(points_mm))
    assert np.abs(in_frame - scene.camera.project(points_mm)).max() <= 2.5
    # a mapping from three or four markers is not looked for again while they show
    area._detect = lambda grey: pytest.fail("markers detected again under a mapping from all four")
    for _ in range(3):
        assert area.update(frame).markers == (0, 1, 2, 3)


def test_a_marker_beside_a_glare_streak_is_found():
    """Scene 725 of ``elfer bench seeds --seeds 5``: a hand lies over marker 0 and a lamp's
    glare streak runs along marker 1. ArUco saw no marker there, not even a candidate, on
    the frame as it is; on the half-size frame evened by its local mean it does."""
    from companion.sim.datasets import render_scene

    _, entry = render_scene(5 * 100_000 + 725, style="cream", surface="cloth")
    frame = cv2.imdecode(np.frombuffer(entry["jpeg"], np.uint8), cv2.IMREAD_COLOR)
    view = PlayArea().update(frame)
    assert view.mapped and view.markers == (1, 2, 3)


def test_without_markers_the_view_is_the_whole_frame():
    frame, scene = _scene("straight")
    blank = frame.copy()
    for centre in _drawn_marker_centres(scene).values():
        blank = _cover(blank, centre, _marker_radius(scene), colour=tuple(int(c) for c in frame[5, 5]))
    area = PlayArea()
    for _ in range(2):
        view = area.update(blank)
        assert isinstance(view, AreaView)
        assert not view.mapped and not view.found and view.markers == ()
        assert view.image is blank and view.px_per_mm is None
        assert np.array_equal(view.to_frame, np.eye(3))
        assert view.size == (blank.shape[1], blank.shape[0])
    with pytest.raises(ValueError):
        view.mm_to_view(np.zeros((1, 2)))
    # the markers come back: the mapping starts
    assert area.update(frame).mapped


def test_frames_must_be_colour_pictures():
    with pytest.raises(ValueError):
        PlayArea().update(np.zeros((720, 1280), np.uint8))
