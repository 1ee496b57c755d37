"""Without markers (companion.vision.frame_scale): a family that has not printed the
markers yet still gets its cards read, from a camera looking (nearly) straight down,
and the reading says the play area was not found."""

from __future__ import annotations

import json

import cv2
import numpy as np

from companion.cli import main
from companion.sim.camera import Camera
from companion.sim.render import SceneCamera, Scenery
from companion.vision.area import PlayArea
from companion.vision.table_reader import TableReader
from companion.vision.stream import StreamReader

from test_stream import NOISY, ON_TOP, ROWS, _frame, _named
from test_find import _pose


def _scene(markers: bool, tilt_deg: float = 8.0, seed: int = 3) -> SceneCamera:
    camera = Camera.framing((600.0, 450.0), rng=np.random.default_rng(seed), tilt_deg=tilt_deg)
    return SceneCamera(Scenery("reference", "wood", (600.0, 450.0), camera, NOISY, 9, markers=markers))


def _marked_px_per_mm(frame) -> float:
    """Frame pixels per millimetre at the middle of the view, as the markers tell it."""
    view = PlayArea().update(frame)
    middle = np.array([view.size[0] / 2, view.size[1] / 2])
    ten_mm = view.px_per_mm * 10
    points = view.view_to_frame(np.array([middle, middle + (ten_mm, 0), middle + (0, ten_mm)]))
    return float(np.linalg.norm(points[1] - points[0]) + np.linalg.norm(points[2] - points[0])) / 20


def test_without_markers_the_cards_are_read_where_they_lie():
    marked, unmarked = _frame(_scene(True), ROWS), _frame(_scene(False), ROWS)
    with_markers, reader = TableReader().read(marked), TableReader()
    reading = reader.read(unmarked)
    assert not reading.area and with_markers.area
    assert _named(reading) == ON_TOP
    for seen in reading.cards:
        same = next(card for card in with_markers.cards if card.card == seen.card)
        assert np.abs(seen.polygon - same.polygon).max() < 6.0
    assert abs(reader.frame_px_per_mm / _marked_px_per_mm(marked) - 1) < 0.05


def test_the_scale_is_kept_while_cards_show_and_guessed_again_after_an_empty_table():
    scene, reader = _scene(False, seed=5), TableReader()
    reader.read(_frame(scene, ROWS))
    guessed = reader.frame_px_per_mm
    assert guessed is not None
    fewer = _frame(scene, ROWS[:4])  # the table cleared but for two piles
    assert _named(reader.read(fewer)) == {"R5", "Y10"}
    assert reader.frame_px_per_mm == guessed
    empty = _frame(scene, ())
    assert _named(reader.read(empty)) == set() and reader.frame_px_per_mm is None
    assert _named(reader.read(_frame(scene, ROWS))) == ON_TOP


def test_a_still_unmarked_table_is_read_once_and_a_card_laid_on_it_where_it_lies():
    scene, stream = _scene(False), StreamReader()
    first = stream.read(_frame(scene, ROWS))
    assert _named(first) == ON_TOP and not first.area
    for _ in range(2):
        assert stream.read(_frame(scene, ROWS)).cards == first.cards
    laid = ROWS + (_pose("Y8", 260, 150, 5),)
    assert _named(stream.read(_frame(scene, laid))) == ON_TOP | {"Y8"}
    assert (stream.scale_guesses, stream.reads, stream.partial_reads) == (1, 1, 1)


def test_an_empty_unmarked_table_is_guessed_at_once_until_cards_are_laid_on_it():
    scene, stream = _scene(False, seed=5), StreamReader()
    for _ in range(3):
        assert stream.read(_frame(scene, ())).cards == ()
    assert stream.scale_guesses == 1
    assert _named(stream.read(_frame(scene, ROWS))) == ON_TOP
    assert stream.scale_guesses == 2


def test_elfer_read_says_there_are_no_markers_and_reads_the_cards(tmp_path, capsys):
    path = tmp_path / "unmarked.png"
    cv2.imwrite(str(path), _frame(_scene(False), ROWS))
    assert main(["read", str(path), "--json"]) == 0
    line = json.loads(capsys.readouterr().out)
    assert line["area"] is False and {card["card"] for card in line["cards"]} - {None} == ON_TOP
    assert main(["read", str(path)]) == 0
    assert "keine Marker" in capsys.readouterr().out


def test_elfer_read_reads_each_picture_on_its_own(tmp_path, capsys):
    """A picture with markers, then one of another camera without: nothing of the
    first picture's mapping is used for the second."""
    marked, unmarked = tmp_path / "marked.png", tmp_path / "unmarked.png"
    cv2.imwrite(str(marked), _frame(_scene(True, tilt_deg=0.0, seed=7), ROWS))
    cv2.imwrite(str(unmarked), _frame(_scene(False, seed=5), ROWS))
    assert main(["read", str(marked), str(unmarked), "--json"]) == 0
    first, second = (json.loads(line) for line in capsys.readouterr().out.splitlines())
    assert first["area"] is True and second["area"] is False
    assert {card["card"] for card in second["cards"]} - {None} == ON_TOP


def test_an_outline_is_narrowed_along_one_side_about_its_centre_whichever_corner_comes_first():
    from companion.vision.outlines import stretched

    turned = np.radians(20.0)
    along, across = np.array([np.cos(turned), np.sin(turned)]), np.array([-np.sin(turned), np.cos(turned)])
    centre = np.array([300.0, 200.0])
    corners = np.array([centre + sx * 30 * along + sy * 45 * across for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1))])
    for start in range(4):
        outline = np.roll(corners, -start, axis=0)
        narrowed = stretched(outline, 0.9, 1.0)
        first_side, second_side = (np.linalg.norm(narrowed[1] - narrowed[0]), np.linalg.norm(narrowed[3] - narrowed[0]))
        assert np.allclose(narrowed.mean(axis=0), centre)
        assert np.isclose(first_side, 0.9 * np.linalg.norm(outline[1] - outline[0]))
        assert np.isclose(second_side, np.linalg.norm(outline[3] - outline[0]))
        assert np.allclose(stretched(outline, 1.0, 1.0), outline)


def test_an_unmarked_stream_whose_frames_change_size_is_read_whole_not_broken():
    scene, stream = _scene(False), StreamReader()
    frame = _frame(scene, ROWS)
    assert _named(stream.read(frame)) == ON_TOP
    smaller = cv2.resize(frame, (960, 540), interpolation=cv2.INTER_AREA)
    reading = stream.read(smaller)
    assert {seen.card.code for seen in reading.cards if seen.card is not None} <= ON_TOP
    blank = np.full((540, 960, 3), 128, np.uint8)
    assert stream.read(blank).cards == ()
    assert stream.read(np.full((720, 1280, 3), 128, np.uint8)).cards == ()
