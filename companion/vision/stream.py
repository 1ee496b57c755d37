"""Reading a camera's frames one after another: only what changed is read again.

A table lies still most of the time, and when it does not, a hand or a new card changes
one part of it. :class:`StreamReader` keeps the cards it read and a small top-down
picture of the table as it was when it read them (``change_px_per_mm``). Each new frame
is mapped to the play area (``area.py``, a check of the markers) and compared with that
picture:

- nothing changed beyond the camera's noise: the cards read before come back, without
  reading anything (a frame then costs the marker check and a small warp);
- some places changed: the cards whose outline touches a change are forgotten, new
  outlines are looked for only around the changes (within a card's reach), the other
  cards come back as they were (``TableReader.read_view``), and the picture is brought
  up to date where outlines were looked for (not only where it changed: a pixel that
  moved just past the limit, in too small a spot to count, must not stay different
  from the picture for ever); elsewhere it stays as it was when the cards there were
  read, so a slow drift of the light adds up until it is seen as a change;
- a new mapping (the camera or the markers moved), or the first frame: everything is
  read;
- no markers: the frame, at the scale its cards show (``TableReader.view_without_markers``),
  stands for the view, and is read as above while the scale stays; a new scale is a new
  mapping. Where no scale can be had (a table without cards, or none read whole), the
  scale is guessed again only when the frame changes (``frame_divisor``): a guess runs
  the detector a dozen times, several times the cost of a read;
- the table lay still for a few frames (``second_look_after``, and every
  ``second_look_every`` still frames after that): everything but the cards read whole
  is looked at again. A read depends on the frame's noise: a card the first read of a
  place missed, or left unknown, would otherwise stay missed until something changed
  near it. Cards read whole come back as they were; what the new look sees elsewhere
  (cards, and outlines it cannot read) replaces what was there, so an outline one read
  took for a card that cannot be read where none lies (a glare spot on wood) does not
  stay for good once a look sees nothing there. The first such look after a change
  reads the whole frame afresh: a card read in part of a frame, with a hand's shadow
  still near and without the cards elsewhere to tell the light, is read once more on
  its own before the tracker decides what was laid (it decides on that frame).

The limits named here are fields of :data:`~companion.vision.thresholds.THRESHOLDS`.
"""

from __future__ import annotations

import dataclasses
import logging

import cv2
import numpy as np

from .area import AreaView
from .find import LookIn
from .table_reader import TableReader, TableReading
from .profile import Profile
from .thresholds import THRESHOLDS

log = logging.getLogger(__package__)


class StreamReader:
    """Reads one camera's frames in order (see the module docstring). ``reads`` counts
    the frames read whole, ``partial_reads`` those read only where they changed,
    ``second_looks`` the still frames in which the places without a card read whole
    were looked at again, ``scale_guesses`` the frames without markers whose scale was
    guessed."""

    def __init__(self, profile: Profile | None = None, reader: TableReader | None = None):
        self.reader = reader or TableReader(profile)
        self.reads = self.partial_reads = self.second_looks = self.scale_guesses = 0
        self._still = 0  # frames without a change since the last change
        self._changed = False  # has the table changed since the last whole look?
        self._picture: np.ndarray | None = None  # the table as the cards in ``_cards`` were read
        self._to_frame: np.ndarray | None = None
        self._px_per_mm: float | None = None
        self._cards: tuple = ()
        self._unscaled: np.ndarray | None = None  # no markers: the frame (shrunk) where no scale was had
        self._where_changed: tuple[np.ndarray, ...] | None = None  # where the frame being read changed

    def reset(self) -> None:
        """Forget what was read: the next frame is read whole."""
        self._picture, self._to_frame, self._cards, self._unscaled = None, None, (), None
        self._still = 0

    def read(self, frame: np.ndarray) -> TableReading:
        """The cards in the next frame, with ``still_frames``: how many frames in a row
        the table has shown no change (a tracker waits for a quiet table)."""
        view = self.reader.area.update(frame)
        self._where_changed = None
        if not view.mapped:
            reading = self._read_without_markers(frame, view)
        else:
            self._unscaled = None
            reading = self._read_mapped(frame, view)
        return dataclasses.replace(reading, still_frames=self._still, changes=() if self._still else self._where_changed)

    def _read_without_markers(self, frame: np.ndarray, view: AreaView) -> TableReading:
        """A frame without markers (see the module docstring): read at the scale its cards
        show, or where none can be had, what was read comes back until the frame changes."""
        # the shrunk frame only where no scale is kept: a frame read at a kept scale never needs it
        small = _shrunk(frame) if self.reader.frame_px_per_mm is None else None
        if (small is not None and self._unscaled is not None
                and self._unscaled.shape == small.shape and not _changes(small, self._unscaled).any()):
            self._still += 1
            return TableReading(view.found, self._cards)
        self.scale_guesses += small is not None
        scaled = self.reader.view_without_markers(frame, view)
        if not scaled.mapped:
            self.reset()
            self._unscaled = small
            return TableReading(view.found, ())
        reading = self._read_mapped(frame, scaled)
        if self.reader.frame_px_per_mm is None:  # no card read whole: the reader let the scale go
            self._picture, self._unscaled = None, _shrunk(frame) if small is None else small
        return reading

    def _read_mapped(self, frame: np.ndarray, view: AreaView) -> TableReading:
        picture = _picture(view)
        # without markers every view maps the frame as it is, at the scale guessed for it
        if (self._picture is None or not _same_mapping(self._to_frame, view) or view.px_per_mm != self._px_per_mm
                or picture.shape != self._picture.shape):  # without markers, the camera's resolution may change
            log.debug("stream: a new view (first frame, new mapping or scale): the frame is read whole")
            reading = self._read_whole(frame, view)
            self._picture, self._to_frame, self._px_per_mm = picture, view.to_frame, view.px_per_mm
            self._cards = reading.cards
            return reading
        changed = _changes(picture, self._picture)
        if not changed.any():
            self._still += 1
            every = THRESHOLDS.second_look_every
            if self._still % every == THRESHOLDS.second_look_after % every:
                return self._look_again(frame, view)
            return TableReading(view.found, self._cards)
        self._still = 0
        self._changed = True
        scale = view.px_per_mm / THRESHOLDS.change_px_per_mm  # view pixels per picture pixel
        self._where_changed = _boxes(changed, view, scale)
        distance = _distance_to(changed)
        reach = _within(distance, THRESHOLDS.change_reach_mm * THRESHOLDS.change_px_per_mm)
        touched = _within(distance, THRESHOLDS.change_touch_mm * THRESHOLDS.change_px_per_mm)
        kept = tuple(card for card in self._cards if not _touches(card.polygon, touched, view, scale))

        reading = self.reader.read_view(frame, view, LookIn(reach, scale), kept)
        self.partial_reads += 1
        np.copyto(self._picture, picture, where=reach[..., None].astype(bool))
        self._cards = reading.cards
        return reading

    def _read_whole(self, frame: np.ndarray, view: AreaView) -> TableReading:
        self._still = 0
        self.reads += 1
        return self.reader.read_view(frame, view)

    def _look_again(self, frame: np.ndarray, view: AreaView) -> TableReading:
        """Everything but the cards read whole, looked at again in a still frame: what the
        look sees there replaces what was. The first look after a change reads the whole
        frame afresh instead: a card read in part of a frame, under a hand's shadow and
        without the light the other cards tell, is read once more on its own before
        anyone is told what it is."""
        self.second_looks += 1
        if self._changed:
            self._changed = False
            self._cards = self.reader.read_view(frame, view).cards
            return TableReading(view.found, self._cards)
        whole = tuple(card for card in self._cards if card.card is not None)
        new = self.reader.read_view(frame, view, known=whole).cards[len(whole):]
        self._cards = whole + new
        return TableReading(view.found, self._cards)


def _picture(view: AreaView) -> np.ndarray:
    small, _ = view.resampled(THRESHOLDS.change_px_per_mm)
    return cv2.GaussianBlur(small, (3, 3), 0)


def _shrunk(frame: np.ndarray) -> np.ndarray:
    height, width = frame.shape[:2]
    size = (max(1, width // THRESHOLDS.frame_divisor), max(1, height // THRESHOLDS.frame_divisor))
    return cv2.GaussianBlur(cv2.resize(frame, size, interpolation=cv2.INTER_AREA), (3, 3), 0)


def _same_mapping(to_frame: np.ndarray | None, view: AreaView) -> bool:
    if to_frame is None:
        return False
    width, height = view.size
    corners = np.array([[0, 0], [width, 0], [width, height], [0, height]], np.float64)
    before = cv2.perspectiveTransform(corners[None], to_frame)[0]
    return bool(np.abs(before - view.view_to_frame(corners)).max() < THRESHOLDS.same_mapping_px)


def _changes(picture: np.ndarray, before: np.ndarray) -> np.ndarray:
    """uint8 mask (255: changed) of the places where ``picture`` differs from ``before``."""
    blue, green, red = cv2.split(cv2.absdiff(picture, before))
    _, changed = cv2.threshold(cv2.max(cv2.max(blue, green), red), THRESHOLDS.change_level, 255, cv2.THRESH_BINARY)
    smallest = THRESHOLDS.change_min_px
    return cv2.morphologyEx(changed, cv2.MORPH_OPEN, np.ones((smallest, smallest), np.uint8))


def _distance_to(mask: np.ndarray) -> np.ndarray:
    """Each pixel's distance (float32, pixels) to the nearest marked pixel of ``mask``: one
    pass serves every reach, where a dilation by a disk that wide costs several."""
    return cv2.distanceTransform(cv2.bitwise_not(mask), cv2.DIST_L2, cv2.DIST_MASK_PRECISE)


def _within(distance: np.ndarray, radius_px: float) -> np.ndarray:
    """uint8 mask (255) of the pixels at most ``radius_px`` from a marked one."""
    return cv2.threshold(distance, radius_px, 255, cv2.THRESH_BINARY_INV)[1].astype(np.uint8)


def _boxes(mask: np.ndarray, view: AreaView, scale: float) -> tuple[np.ndarray, ...]:
    """The boxes around the marked spots of ``mask`` (a picture of the view at 1/``scale``),
    as 4 × 2 frame-pixel outlines."""
    count, _, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    boxes = []
    for left, top, width, height, _ in stats[1:count]:
        corners = np.array([[left, top], [left + width, top], [left + width, top + height], [left, top + height]],
                           np.float64)
        boxes.append(view.view_to_frame(corners * scale - 0.5))  # pixel edges, not centres
    return tuple(boxes)


def _touches(polygon_frame: np.ndarray, mask: np.ndarray, view: AreaView, scale: float) -> bool:
    """Whether a card's outline (frame pixels) covers a marked pixel of ``mask``."""
    corners = np.round((view.frame_to_view(np.asarray(polygon_frame, np.float64)) + 0.5) / scale - 0.5).astype(np.int32)
    (left, top), (right, bottom) = np.maximum(corners.min(axis=0), 0), corners.max(axis=0) + 1
    window = mask[top:bottom, left:right]
    if not window.size:
        return False
    shape = np.zeros_like(window)
    cv2.fillConvexPoly(shape, corners - (left, top), 255)
    return bool(np.any(shape & window))
