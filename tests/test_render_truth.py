"""The synthetic table's ground truth is exact: labelled outlines, visibility, corner order, determinism.

Every check compares the labels with the pixels (or with an independent computation),
never with the code that made them.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

import companion
from companion.cards import Card
from companion.rules.presets import get_preset
from companion.sim.camera import Camera
from companion.sim.datasets import render_scene
from companion.sim.deck import CARD_MM, STYLES, render_card
from companion.sim.episode import write_episode
from companion.sim.layout import CardPose, Table, TableLayout
from companion.sim.lighting import Lighting
from companion.sim.render import Scenery, SceneCamera
from companion.sim.script import Hand, seat_angles
from companion.vision.markers import PLAY_AREA_MM

AREA = PLAY_AREA_MM
C = Card.parse
TOLERANCE_PX = 2.0
CHANGED = 40  # 8-bit levels: a pixel belongs to a card when it differs this much from the empty table


# ------------------------------------------------------------------ helpers
def signed_distance(points: np.ndarray, polygon: np.ndarray) -> np.ndarray:
    """Exact distance (px) of each point to a convex polygon's outline: positive inside, negative outside."""
    points = np.asarray(points, float).reshape(-1, 2)
    polygon = np.asarray(polygon, float)
    a, b = polygon, np.roll(polygon, -1, axis=0)
    edge = b - a
    normal = np.stack([-edge[:, 1], edge[:, 0]], axis=1) / np.linalg.norm(edge, axis=1)[:, None]
    centre = polygon.mean(axis=0)
    normal *= np.sign(((centre - a) * normal).sum(axis=1))[:, None]  # every normal points inwards
    rel = points[:, None, :] - a[None]  # (N, 4, 2)
    depth = (rel * normal[None]).sum(axis=2)  # distance to each edge's line, positive inwards
    t = np.clip((rel * edge[None]).sum(axis=2) / (edge * edge).sum(axis=1)[None], 0, 1)
    to_segment = np.linalg.norm(rel - t[..., None] * edge[None], axis=2).min(axis=1)
    inside = (depth >= 0).all(axis=1)
    return np.where(inside, depth.min(axis=1), -to_segment)


def tilted_scenery(style: str, seed: int, resolution=(1280, 720), surface: str = "mat", **camera) -> Scenery:
    """A scenery on a random, clearly tilted and distorted camera under neutral light."""
    rng = np.random.default_rng([seed, 77])
    camera.setdefault("tilt_deg", float(rng.uniform(15, 30)))
    cam = Camera.framing(AREA, rng=rng, resolution=resolution, **camera)
    return Scenery(style, surface, AREA, cam, Lighting.neutral(), seed)


def spread_cards(seed: int) -> tuple[CardPose, ...]:
    """Six cards on a 3 × 2 grid, well apart and clear of the markers, randomly turned and flipped."""
    rng = np.random.default_rng([seed, 11])
    codes = rng.choice([f"{c}{n}" for c in "RYGB" for n in range(1, 21)], size=6, replace=False)
    poses = []
    for i, code in enumerate(codes):
        centre = (120 + 180 * (i % 3) + rng.uniform(-15, 15), 120 + 210 * (i // 3) + rng.uniform(-15, 15))
        poses.append(CardPose(C(str(code)), (float(centre[0]), float(centre[1])), float(rng.uniform(-25, 25)),
                              bool(i % 2)))
    return tuple(poses)


def card_mask(camera: SceneCamera, poses) -> np.ndarray:
    """Pixels that change when the cards are put on the table (same scenery, neutral light: no noise)."""
    picture, _ = camera.picture(poses)
    empty, _ = camera.picture(())
    return np.abs(picture.astype(np.int16) - empty.astype(np.int16)).max(axis=2) > CHANGED


def outline_errors(mask: np.ndarray, polygons: list[np.ndarray], radii: list[float]) -> list[dict]:
    """For each polygon: how far its card's pixels reach outside it, and which pixels well inside it are not card.

    - ``outside``: the largest distance (px) of a changed pixel outside the polygon it is
      nearest to (every changed pixel must belong to some card: ``stray`` counts the others).
    - ``holes``: pixels whose centre lies at least 2 px inside the polygon but that did not
      change. Cards have rounded corners (radius r = 3–4 mm, 3–5 px here), which cut the
      sharp polygon corner off only inside the r × r square at each corner, i.e. within
      r·√2 of the corner; a disc of 1.5 r around each corner is therefore left out.
    Together: the polygon lies within 2 px of the card's edge all round, both ways.
    """
    ys, xs = np.nonzero(mask)
    pixels = np.column_stack([xs, ys]).astype(float)
    distances = np.stack([signed_distance(pixels, poly) for poly in polygons])  # (cards, pixels)
    nearest = distances.argmax(axis=0)
    best = distances.max(axis=0)
    results = []
    for index, (poly, radius) in enumerate(zip(polygons, radii)):
        own = best[nearest == index]
        x0, y0 = np.floor(poly.min(axis=0)).astype(int)
        x1, y1 = np.ceil(poly.max(axis=0)).astype(int)
        gx, gy = np.meshgrid(np.arange(x0, x1 + 1), np.arange(y0, y1 + 1))
        grid = np.column_stack([gx.ravel(), gy.ravel()]).astype(float)
        deep = signed_distance(grid, poly) >= TOLERANCE_PX
        far_from_corners = np.linalg.norm(grid[:, None, :] - poly[None], axis=2).min(axis=1) > 1.5 * radius
        check = grid[deep & far_from_corners].astype(int)
        holes = int((~mask[check[:, 1], check[:, 0]]).sum())
        results.append({"outside": float(-own.min()) if own.size else np.inf, "holes": holes, "checked": len(check)})
    stray = int((best < -15).sum())  # changed pixels far from every card
    for result in results:
        result["stray"] = stray
    return results


def corner_radii_px(polygons, style: str) -> list[float]:
    radius_mm = STYLES[style].corner_radius_mm
    return [radius_mm * np.linalg.norm(poly[1] - poly[0]) / CARD_MM[0] for poly in polygons]


def projected_shares(camera: Camera, poses, cover: np.ndarray | None = None) -> list[float]:
    """Visible share of each card, computed independently: the pixels whose centres lie inside each
    projected outline, painted bottom to top, over the outline's area."""
    w, h = camera.resolution
    ids = np.zeros((h, w), np.int32)
    areas = []
    for index, pose in enumerate(poses):
        poly = camera.project(pose.corners())
        areas.append(abs(cv2.contourArea(poly.astype(np.float32))))
        x0, y0 = np.maximum(np.floor(poly.min(axis=0)).astype(int), 0)
        x1, y1 = np.minimum(np.ceil(poly.max(axis=0)).astype(int), (w - 1, h - 1))
        gx, gy = np.meshgrid(np.arange(x0, x1 + 1), np.arange(y0, y1 + 1))
        inside = signed_distance(np.column_stack([gx.ravel(), gy.ravel()]), poly).reshape(gx.shape) > 0
        ids[y0:y1 + 1, x0:x1 + 1][inside] = index + 1
    if cover is not None:
        ids[cover > 127] = 0
    counts = np.bincount(ids.ravel(), minlength=len(poses) + 1)
    return [counts[i + 1] / area for i, area in enumerate(areas)]


def polygons_of(labels) -> list[np.ndarray]:
    return [np.array(label["polygon"], float) for label in labels]


# ------------------------------------------------------------------ the outline is the card, within 2 px
CASES = [(style, seed, {}) for seed, style in enumerate(STYLES, start=1)] + [
    ("reference", 11, {"tilt_deg": 29.0, "k1": 0.01, "k2": 0.002}),  # pincushion, steep
    ("inverse", 12, {"tilt_deg": 27.0, "k1": -0.01, "k2": -0.002}),  # barrel, steep
]


@pytest.mark.parametrize("style, seed, camera_args", CASES, ids=[f"{s}-{n}" for s, n, _ in CASES])
def test_labelled_polygon_covers_the_rendered_card_within_2_px(style, seed, camera_args):
    scenery = tilted_scenery(style, seed, **camera_args)
    assert scenery.camera.tilt_deg >= 15 and scenery.camera.k1 != 0  # really a tilted, distorted view
    camera = SceneCamera(scenery)
    poses = spread_cards(seed)
    labels = camera.labels(poses)
    assert [label["card"] for label in labels] == [pose.card.code for pose in poses]
    assert all(label["visible"] and label["visible_share"] > 0.98 for label in labels)
    polygons = polygons_of(labels)
    mask = card_mask(camera, poses)
    for label, result in zip(labels, outline_errors(mask, polygons, corner_radii_px(polygons, style))):
        assert result["stray"] == 0, "pixels changed far from every card"
        assert result["outside"] <= TOLERANCE_PX, f"{label['card']}: card pixels {result['outside']:.2f} px outside"
        assert result["checked"] > 1000
        assert result["holes"] == 0, f"{label['card']}: {result['holes']} pixels 2 px inside the outline are not card"


def test_the_2_px_check_catches_an_outline_3_px_off():
    """The check above can fail: the same scene with every polygon moved 3 px (or grown/shrunk by 3 px) does."""
    style = "reference"
    camera = SceneCamera(tilted_scenery(style, 1))
    poses = spread_cards(1)
    polygons = polygons_of(camera.labels(poses))
    mask = card_mask(camera, poses)
    radii = corner_radii_px(polygons, style)
    good = outline_errors(mask, polygons, radii)
    assert all(r["outside"] <= TOLERANCE_PX and r["holes"] == 0 for r in good)

    def scaled(poly, px):  # grown (px > 0) or shrunk by about px at every edge
        centre = poly.mean(axis=0)
        return centre + (poly - centre) * (1 + px / np.linalg.norm(poly - centre, axis=1).mean() * 1.2)

    for moved in ([p + [3.0, 0.0] for p in polygons], [p + [0.0, -3.0] for p in polygons],
                  [scaled(p, 3.0) for p in polygons], [scaled(p, -3.0) for p in polygons]):
        bad = outline_errors(mask, moved, radii)
        assert all(r["outside"] > TOLERANCE_PX or r["holes"] > 0 for r in bad)


def test_a_cards_pixels_on_a_light_surface_match_its_outline_too():
    """Not only on the dark mat: on wood the card is found by difference and still fits its outline."""
    scenery = tilted_scenery("condensed", 21, resolution=(960, 540), surface="wood")
    camera = SceneCamera(scenery)
    poses = spread_cards(21)[:3]
    polygons = polygons_of(camera.labels(poses))
    picture, _ = camera.picture(poses)
    empty, _ = camera.picture(())
    mask = np.abs(picture.astype(np.int16) - empty.astype(np.int16)).max(axis=2) > 30
    for result in outline_errors(mask, polygons, corner_radii_px(polygons, "condensed")):
        assert result["outside"] <= TOLERANCE_PX and result["stray"] == 0
        # on wood some card paper is as light as the table: only require that nearly all the card is found
        assert result["holes"] <= 0.02 * result["checked"]


# ------------------------------------------------------------------ hidden cards are not visible
@pytest.fixture(scope="module")
def small_camera():
    return SceneCamera(tilted_scenery("reference", 5, resolution=(640, 360)))


def test_a_lone_card_is_fully_visible(small_camera):
    for angle, flipped in ((0.0, False), (17.0, True), (-24.0, False)):
        (label,) = small_camera.labels((CardPose(C("R7"), (300.0, 225.0), angle, flipped),))
        assert label["visible"] is True
        assert label["visible_share"] == pytest.approx(1.0, abs=0.02)
        assert label["upside_down"] is flipped and label["angle"] == pytest.approx(angle, abs=0.05)


@pytest.mark.parametrize("seed", range(4))
def test_in_a_pile_only_the_top_card_is_visible(small_camera, seed):
    layout = TableLayout(get_preset("classic"), AREA, np.random.default_rng(seed), layout="piles")
    table = Table()
    for code in ("R12", "R13", "R14", "R15", "R16"):  # one pile: the reds above the 11
        table.add(layout.place(C(code), table, 11))
    poses = tuple(table.poses)
    labels = small_camera.labels(poses)
    assert [label["visible"] for label in labels] == [False] * 4 + [True]
    assert labels[-1]["visible_share"] > 0.98
    assert all(label["visible_share"] < 0.3 for label in labels[:-1])
    for label, share in zip(labels, projected_shares(small_camera.camera, poses)):
        assert label["visible_share"] == pytest.approx(share, abs=0.03)


def test_side_by_side_row_a_neat_row_shows_only_its_ends(small_camera):
    # laid as a family does: the 11, then alternately up and down, each card 21 mm beside the last
    order = (11, 12, 10, 13, 9, 14)
    poses = tuple(CardPose(C(f"G{n}"), (300.0 + 21 * (n - 11), 225.0), 0.0) for n in order)
    labels = {label["card"]: label for label in small_camera.labels(poses)}
    assert {code for code, label in labels.items() if label["visible"]} == {"G9", "G14"}
    assert labels["G9"]["visible_share"] > 0.98 and labels["G14"]["visible_share"] > 0.98
    # every other card shows one 21 mm strip of its 59 mm width at most
    assert all(labels[f"G{n}"]["visible_share"] < 21 / 59 + 0.03 for n in (10, 11, 12, 13))
    assert labels["G11"]["visible_share"] < 0.05  # covered from both sides


@pytest.mark.parametrize("seed", range(4))
def test_side_by_side_layout_visibility_is_at_least_half_showing(small_camera, seed):
    layout = TableLayout(get_preset("classic"), AREA, np.random.default_rng(seed), layout="side_by_side")
    table = Table()
    for n in (11, 12, 10, 13, 9, 14, 15):
        table.add(layout.place(C(f"Y{n}"), table, 11))
    poses = tuple(table.poses)
    labels = small_camera.labels(poses)
    shares = projected_shares(small_camera.camera, poses)
    for label, share in zip(labels, shares):
        assert label["visible_share"] == pytest.approx(share, abs=0.03), label["card"]
        if abs(share - 0.5) > 0.03:
            assert label["visible"] is bool(share >= 0.5), label["card"]
    visible = {label["card"] for label in labels if label["visible"]}
    assert {"Y9", "Y15"} <= visible  # the ends of the row
    assert "Y11" not in visible


def test_a_hand_over_a_card_lowers_its_visible_share(small_camera):
    pose = CardPose(C("B5"), (300.0, 225.0), 8.0)
    (alone,) = small_camera.labels((pose,))
    assert alone["visible_share"] == pytest.approx(1.0, abs=0.02)
    for seat in range(4):
        hand = Hand(seat, seat_angles(4)[seat], pose.centre, 1.0)
        picture, cover = small_camera.picture((pose,), hand)
        assert cover is not None and cover.shape == picture.shape[:2]
        (label,) = small_camera.labels((pose,), cover)
        assert label["visible_share"] < 0.9
        assert label["visible_share"] == pytest.approx(projected_shares(small_camera.camera, (pose,), cover)[0],
                                                       abs=0.03)
        # the hand is really in the picture where the cover says
        bare, _ = small_camera.picture((pose,))
        under = cover > 200
        assert under.sum() > 500
        assert np.abs(picture.astype(int) - bare.astype(int)).max(axis=2)[under].mean() > 20


# ------------------------------------------------------------------ corner order follows the printed face
def _face_match(picture: np.ndarray, polygon: np.ndarray, card: Card, style: str) -> float:
    """Correlation of the picture, warped from ``polygon`` (taken as TL, TR, BR, BL of the face), with the face."""
    face = render_card(card, style, 2.0)[..., :3]
    h, w = face.shape[:2]
    target = np.float32([[-0.5, -0.5], [w - 0.5, -0.5], [w - 0.5, h - 0.5], [-0.5, h - 0.5]])
    matrix = cv2.getPerspectiveTransform(np.float32(polygon), target)
    upright = cv2.warpPerspective(picture, matrix, (w, h), flags=cv2.INTER_LINEAR)
    inner = (slice(12, h - 12), slice(12, w - 12))  # away from the edges and rounded corners
    a = cv2.cvtColor(upright, cv2.COLOR_BGR2GRAY)[inner].astype(float)
    b = cv2.cvtColor(np.ascontiguousarray(face), cv2.COLOR_BGR2GRAY)[inner].astype(float)
    a, b = a - a.mean(), b - b.mean()
    return float((a * b).sum() / np.sqrt((a * a).sum() * (b * b).sum()))


@pytest.mark.parametrize("style", list(STYLES))
def test_polygon_starts_at_the_printed_faces_top_left(style):
    scenery = tilted_scenery(style, 31, yaw_deg=4.0)
    camera = SceneCamera(scenery)
    codes = ("R7", "B12", "G4", "Y17", "R2", "B15")  # no numeral that reads the same upside down
    poses = tuple(CardPose(C(code), pose.centre, pose.angle, pose.upside_down)
                  for code, pose in zip(codes, spread_cards(31)))
    assert any(p.upside_down for p in poses) and not all(p.upside_down for p in poses)
    picture, _ = camera.picture(poses)
    for pose, label in zip(poses, camera.labels(poses)):
        polygon = np.array(label["polygon"])
        right = _face_match(picture, polygon, pose.card, style)
        turned = _face_match(picture, np.roll(polygon, 2, axis=0), pose.card, style)  # the face read upside down
        assert right > 0.8, (label["card"], right)
        assert right > turned + 0.2, (label["card"], right, turned)
        x, y = polygon[:, 0], polygon[:, 1]
        assert ((x * np.roll(y, -1) - np.roll(x, -1) * y).sum()) > 0  # clockwise in the picture (y down)


def test_an_upside_down_card_starts_at_its_bottom_right_on_the_table():
    camera = SceneCamera(Scenery("reference", "mat", AREA, Camera.framing(AREA, resolution=(640, 360)),
                                 Lighting.neutral(), 0))
    upright, flipped = camera.labels((CardPose(C("R7"), (150.0, 225.0), 0.0, False),
                                      CardPose(C("R8"), (450.0, 225.0), 0.0, True)))
    for label, first in ((upright, (min, min)), (flipped, (max, max))):
        polygon = np.array(label["polygon"])
        assert polygon[0][0] == pytest.approx(first[0](polygon[:, 0]), abs=0.2)
        assert polygon[0][1] == pytest.approx(first[1](polygon[:, 1]), abs=0.2)
    assert flipped["upside_down"] is True and upright["upside_down"] is False


# ------------------------------------------------------------------ determinism
def test_render_scene_is_byte_identical_for_the_same_seed():
    for seed in (3, 8):
        _, first = render_scene(seed, resolution=(640, 360))
        _, second = render_scene(seed, resolution=(640, 360))
        assert first["jpeg"] == second["jpeg"]
        assert json.dumps({k: v for k, v in first.items() if k != "jpeg"}) == \
            json.dumps({k: v for k, v in second.items() if k != "jpeg"})
    assert render_scene(3, resolution=(640, 360))[1]["jpeg"] != render_scene(8, resolution=(640, 360))[1]["jpeg"]


def _episode_files(folder: Path) -> dict[str, bytes]:
    frames = sorted((folder / "frames").iterdir())
    picked = [frames[0], frames[len(frames) // 3], frames[len(frames) // 2], frames[-1]]
    return {name: (folder / name).read_bytes() for name in ("meta.json", "buttons.jsonl", "truth.jsonl")} | {
        f"frames/{p.name}": p.read_bytes() for p in picked} | {"count": str(len(frames)).encode()}


def test_write_episode_twice_gives_identical_files(tmp_path):
    args = dict(preset=get_preset("junior"), players=("Anna", "Ben"), seed=4, fps=2.0, mistakes=0.3,
                resolution=(320, 180))
    write_episode(tmp_path / "a", **args)
    write_episode(tmp_path / "b", **args)
    assert _episode_files(tmp_path / "a") == _episode_files(tmp_path / "b")


_SCRIPT_TRUTH = """
import json, sys
from companion.rules.presets import get_preset
from companion.sim.script import play_script
script, _ = play_script(get_preset("classic"), ("Anna", "Ben", "Cem"), int(sys.argv[1]), 2.0, (600.0, 450.0),
                        mistake_rate=0.5)
print(json.dumps(script.truth))
"""


def test_the_same_seed_gives_the_same_episode_in_another_process():
    """'The same seed gives the same pixels' must hold across runs of elfer, not only within one process."""
    runs = []
    for hash_seed in ("1", "2", "3"):
        root = str(Path(companion.__file__).resolve().parent.parent)  # the same code as this process tests
        env = {**os.environ, "PYTHONHASHSEED": hash_seed,
               "PYTHONPATH": os.pathsep.join([root, *filter(None, [os.environ.get("PYTHONPATH")])])}
        out = subprocess.run([sys.executable, "-c", _SCRIPT_TRUTH, "2"], env=env, capture_output=True, text=True,
                             check=True, cwd=Path(__file__).parent)
        runs.append(out.stdout)
    assert any('"mistake": true' in run for run in runs)
    assert runs[0] == runs[1] == runs[2]
