"""Reading a camera's frames one after another (companion.vision.stream): what a family
would check is that the referee sees every change (a card laid down, a card taken back,
a hand that came and went) and nothing that did not happen; and, for speed, that a
still table is not read again frame after frame."""

from __future__ import annotations

import dataclasses
import math

import cv2
import numpy as np
import pytest

from companion.sim.camera import Camera
from companion.sim.lighting import Lighting
from companion.sim.render import SceneCamera, Scenery
from companion.sim.script import Hand
from companion.tracker.geometry import intersect, outline_of
from companion.vision.markers import PLAY_AREA_MM
from companion.vision.outlines import overlap
from companion.vision.table_reader import SeenCard, TableReader, TableReading
from companion.vision.stream import StreamReader
from companion.vision.thresholds import THRESHOLDS

from test_area import _cover, _drawn_marker_centres, _marker_radius
from test_find import _pose

ROWS = (  # four piles and two single cards
    _pose("R4", 120, 330), _pose("R5", 126, 335, 2),
    _pose("Y9", 260, 330), _pose("Y10", 254, 324, -2),
    _pose("G15", 400, 330, 1), _pose("G16", 405, 324),
    _pose("B2", 520, 330), _pose("B3", 515, 336, 1, True),
    _pose("R12", 120, 150, -4), _pose("B14", 520, 150, 3),
)
NOISY = dataclasses.replace(Lighting.neutral(), noise_sigma=3.0)


def _camera(seed: int = 3, lighting: Lighting = NOISY) -> SceneCamera:
    camera = Camera.framing(PLAY_AREA_MM, rng=np.random.default_rng(seed), tilt_deg=8.0)
    return SceneCamera(Scenery("reference", "wood", PLAY_AREA_MM, camera, lighting, 9))


def _frame(scene: SceneCamera, poses, hand: Hand | None = None) -> np.ndarray:
    picture, _ = scene.picture(tuple(poses), hand)  # every picture with its own sensor noise
    return cv2.imdecode(np.frombuffer(scene.encode(picture), np.uint8), cv2.IMREAD_COLOR)


def _named(reading) -> set[str]:
    return {seen.card.code for seen in reading.cards if seen.card is not None}


ON_TOP = {"R5", "Y10", "G16", "B3", "R12", "B14"}


def test_a_still_table_is_read_once_and_the_same_cards_come_back():
    scene, stream = _camera(), StreamReader()
    first = stream.read(_frame(scene, ROWS))
    assert _named(first) == ON_TOP
    for _ in range(4):
        again = stream.read(_frame(scene, ROWS))
        assert again.area and again.cards == first.cards
    assert (stream.reads, stream.partial_reads) == (1, 0)


def test_a_stream_begun_with_two_markers_hidden_is_read_again_on_all_four():
    """A hand over two markers at the start: the area is mapped from the other two (for
    now) and the cards are read; once all four show, the mapping is made from them and the
    table is read again on it."""
    scene, stream = _camera(), StreamReader()
    covered = _frame(scene, ROWS)
    for marker_id in (0, 1):
        covered = _cover(covered, _drawn_marker_centres(scene)[marker_id], _marker_radius(scene))
    first = stream.read(covered)
    assert first.area and first.cards and _named(first) == ON_TOP
    assert stream.reads == 1
    later = [stream.read(_frame(scene, ROWS)) for _ in range(stream.reader.area.redetect_every)]
    assert all(_named(reading) == ON_TOP for reading in later)
    assert stream.reads == 2 and later[-1].cards != first.cards  # read again, on the new mapping


def test_a_card_laid_on_a_pile_is_read_and_the_cards_far_from_it_are_not_read_again():
    scene, stream = _camera(), StreamReader()
    before = stream.read(_frame(scene, ROWS))
    after = stream.read(_frame(scene, ROWS + (_pose("R6", 123, 331, -1),)))
    assert _named(after) == ON_TOP - {"R5"} | {"R6"}
    assert stream.partial_reads == 1
    far = [seen for seen in before.cards if seen.card is not None and seen.card.code in {"B3", "B14", "G16"}]
    assert all(any(seen is kept for kept in after.cards) for seen in far)  # the very same readings


def test_a_stream_says_where_each_frame_changed():
    scene, stream = _camera(), StreamReader()
    assert stream.read(_frame(scene, ROWS)).changes is None  # read whole: everywhere
    assert stream.read(_frame(scene, ROWS)).changes == ()  # nothing changed
    after = stream.read(_frame(scene, ROWS + (_pose("R6", 123, 331, -1),)))
    r6 = next(seen.polygon for seen in after.cards if seen.card is not None and seen.card.code == "R6")
    b14 = next(seen.polygon for seen in after.cards if seen.card is not None and seen.card.code == "B14")
    assert after.changes and all(box.shape == (4, 2) for box in after.changes)
    assert any(intersect(outline_of(box), outline_of(r6)) for box in after.changes)
    assert not any(intersect(outline_of(box), outline_of(b14)) for box in after.changes)


def test_a_card_taken_back_off_its_pile_shows_the_card_below():
    scene, stream = _camera(), StreamReader()
    stream.read(_frame(scene, ROWS))
    taken_back = [pose for pose in ROWS if pose.card.code != "Y10"]
    assert _named(stream.read(_frame(scene, taken_back))) == ON_TOP - {"Y10"} | {"Y9"}


def test_a_hand_over_the_table_is_read_where_it_is_and_the_cards_come_back_when_it_leaves():
    scene, stream = _camera(), StreamReader()
    stream.read(_frame(scene, ROWS))
    over_g16 = Hand(0, math.pi / 2, (405.0, 324.0), 1.0)
    with_hand = stream.read(_frame(scene, ROWS, over_g16))
    assert "G16" not in _named(with_hand)  # the fingers cover its numeral
    assert {"R12", "B3"} <= _named(with_hand)
    assert _named(stream.read(_frame(scene, ROWS))) == ON_TOP
    assert stream.reads == 1 and stream.partial_reads == 2


def test_a_light_switched_on_is_a_change_everywhere_and_the_table_is_read_again():
    dim = dataclasses.replace(NOISY, exposure=0.6)
    stream = StreamReader()
    stream.read(_frame(_camera(lighting=dim), ROWS))
    assert _named(stream.read(_frame(_camera(), ROWS))) == ON_TOP
    assert stream.reads + stream.partial_reads == 2


def test_a_camera_that_moved_is_read_whole():
    stream = StreamReader()
    stream.read(_frame(_camera(seed=3), ROWS))
    assert _named(stream.read(_frame(_camera(seed=4), ROWS))) == ON_TOP
    assert (stream.reads, stream.partial_reads) == (2, 0)


def test_a_blank_frame_without_markers_is_not_guessed_at_again_until_it_changes():
    frame = _frame(_camera(), ROWS)
    blank = np.full_like(frame, 128)
    stream = StreamReader()
    for _ in range(3):
        reading = stream.read(blank)
        assert not reading.area and reading.cards == ()
    assert (stream.scale_guesses, stream.reads) == (1, 0)
    assert _named(stream.read(frame)) == ON_TOP  # the markers show: read as ever


class _MissesAtFirst(TableReader):
    """A reader whose first read misses one card (``as_unknown``: sees it but cannot read
    it), as a frame's noise can make a read miss; ``always``: every later read misses it
    as well (altogether, or with ``as_unknown`` and ``unknown_always`` seen but unread)."""

    def __init__(self, missed: str, as_unknown: bool = False, always: bool = False, unknown_always: bool = False):
        super().__init__()
        self.missed, self.as_unknown, self.always, self.calls = missed, as_unknown, always, 0
        self.unknown_always = unknown_always

    def read_view(self, frame, view, look_in=None, known=()):
        reading = super().read_view(frame, view, look_in, known)
        self.calls += 1
        if self.calls > 1 and not self.always:
            return reading
        cards = []
        for seen in reading.cards:
            if seen.card is not None and seen.card.code == self.missed:
                if self.as_unknown and (self.calls == 1 or self.unknown_always):
                    cards.append(SeenCard(None, 0.4, seen.polygon))
                continue
            cards.append(seen)
        return TableReading(reading.area, tuple(cards))


def test_a_card_the_first_read_missed_is_found_when_the_table_has_lain_still_a_moment():
    scene, stream = _camera(), StreamReader(reader=_MissesAtFirst("B14"))
    first = stream.read(_frame(scene, ROWS))
    assert _named(first) == ON_TOP - {"B14"}
    still = [stream.read(_frame(scene, ROWS)) for _ in range(THRESHOLDS.second_look_after)]
    assert all(_named(reading) == ON_TOP - {"B14"} for reading in still[:-1])
    assert _named(still[-1]) == ON_TOP
    assert all(any(seen is kept for kept in still[-1].cards) for seen in first.cards)  # the very same readings
    assert (stream.reads, stream.partial_reads, stream.second_looks) == (1, 0, 1)
    for _ in range(3):
        assert stream.read(_frame(scene, ROWS)).cards == still[-1].cards
    assert stream.second_looks == 1  # not on every still frame


def test_the_table_is_looked_at_again_now_and_then_while_it_lies_still_and_after_every_change():
    scene, stream = _camera(), StreamReader()
    stream.read(_frame(scene, ROWS))
    for _ in range(THRESHOLDS.second_look_after + THRESHOLDS.second_look_every):
        stream.read(_frame(scene, ROWS))
    assert stream.second_looks == 2
    stream.read(_frame(scene, ROWS + (_pose("R6", 123, 331, -1),)))
    for _ in range(THRESHOLDS.second_look_after):
        assert _named(stream.read(_frame(scene, ROWS + (_pose("R6", 123, 331, -1),)))) == ON_TOP - {"R5"} | {"R6"}
    assert (stream.partial_reads, stream.second_looks) == (1, 3)


def _still_frames(stream: StreamReader, scene: SceneCamera, frames: int):
    return [stream.read(_frame(scene, ROWS)) for _ in range(frames)][-1]


def test_a_card_left_unknown_is_read_on_a_second_look():
    scene, stream = _camera(), StreamReader(reader=_MissesAtFirst("B14", as_unknown=True))
    first = stream.read(_frame(scene, ROWS))
    unknown = [seen for seen in first.cards if seen.card is None]
    assert _named(first) == ON_TOP - {"B14"} and unknown
    looked_again = _still_frames(stream, scene, THRESHOLDS.second_look_after)
    assert _named(looked_again) == ON_TOP and not any(seen is unknown[0] for seen in looked_again.cards)


def test_a_card_left_unknown_stays_unknown_where_a_second_look_cannot_read_it_either():
    reader = _MissesAtFirst("B14", as_unknown=True, always=True, unknown_always=True)
    scene, stream = _camera(), StreamReader(reader=reader)
    first = stream.read(_frame(scene, ROWS))
    looked_again = _still_frames(stream, scene, THRESHOLDS.second_look_after)
    assert stream.second_looks == 1
    assert _named(looked_again) == ON_TOP - {"B14"}
    unknown = [seen for seen in first.cards if seen.card is None]
    there = [seen.card for seen in looked_again.cards if overlap(seen.polygon, unknown[0].polygon) > 0.5]
    assert len(unknown) == 1 and there == [None]  # still an outline that cannot be read


def test_an_unknown_outline_a_second_look_sees_nothing_at_goes():
    """An outline reported as a card that cannot be read, where a second look at the still
    table sees nothing at all (a glare spot on wood that one read took for a card), does
    not stay for good: it goes as it came."""
    scene, stream = _camera(), StreamReader(reader=_MissesAtFirst("B14", as_unknown=True, always=True))
    first = stream.read(_frame(scene, ROWS))
    assert any(seen.card is None for seen in first.cards)
    looked_again = _still_frames(stream, scene, THRESHOLDS.second_look_after)
    assert stream.second_looks == 1
    assert _named(looked_again) == ON_TOP - {"B14"} and all(seen.card is not None for seen in looked_again.cards)


@pytest.mark.parametrize("seed,style", [(2026_000, "reference"), (2026_001, "cream")])
def test_a_stream_of_a_game_says_what_reading_every_frame_whole_says(seed, style, bench_profile):
    """A stretch of a bots' game (hands, cards going down): read as a stream, every frame
    without a hand names the cards that reading it from scratch names. With the shipped
    profile for its own deck, and a cream deck with the profile a family calibrates for it."""
    from companion.sim.datasets import render_stream

    entries = render_stream(seed, 30, style=style)
    profile = None if style == "reference" else bench_profile(style)
    stream, whole = StreamReader(profile), TableReader(profile)
    quiet = 0
    for entry in entries:
        frame = cv2.imdecode(np.frombuffer(entry["jpeg"], np.uint8), cv2.IMREAD_COLOR)
        streamed = stream.read(frame)
        if entry["hand"]:
            continue
        quiet += 1
        whole.area.reset()
        assert _named(streamed) == _named(whole.read(frame))
    assert quiet >= 5 and stream.reads == 1 and stream.partial_reads < len(entries) - 5


def test_the_place_to_look_is_told_in_view_pixels_and_boxed_at_any_scale():
    from companion.vision.find import LookIn

    mask = np.zeros((50, 80), np.uint8)
    mask[10:12, 20:25] = 255  # mask pixels of 4 view pixels each
    look_in = LookIn(mask, 4.0)
    assert look_in(4 * 22 + 1.5, 4 * 11 + 1.5) and not look_in(4 * 30, 4 * 11)
    assert not look_in(-100, 5) and not look_in(5, 10_000)
    # in pixels of 2 view pixels: columns 40–50, rows 20–24, grown by 3
    assert look_in.box(2.0, 3) == (37, 17, 53, 27)
