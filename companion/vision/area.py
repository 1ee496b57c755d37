"""The play area seen from straight above: frames mapped onto a top-down view.

:class:`PlayArea` finds the four ArUco markers (:mod:`companion.vision.markers`) and
maps each frame onto a rectified view of the play area plus a margin, in which one
millimetre on the table is ``px_per_mm`` pixels and cards have their true 59 × 91 mm
shape. It is a stateful tracker, fed one frame after another.

View coordinates: pixel centres at integers, as everywhere in OpenCV. View pixel
(u, v) is centred on the table point ((u + 0.5) / s - margin, (v + 0.5) / s - margin)
mm, with s = ``px_per_mm`` and the table's origin at the top-left marker's centre
(:func:`AreaView.mm_to_view`, :func:`AreaView.view_to_mm`).

The mapping rules (what :meth:`PlayArea.update` does with each frame):

1. **No mapping yet**: detect the markers (on a half-size grey frame, the full frame
   when some are missing there, and the half-size frame evened by its local mean when
   some are missing still: a glare streak along a marker; each marker's corners then
   come from straight lines fitted to its four outer edges on the full frame, to a
   tenth of a pixel). When at least two are found a mapping starts: the homography
   that fits the corners of every marker found to where they lie on the table (least
   squares; three markers span the whole area, so a hand over the fourth at the start
   does not matter). Each marker's neighbourhood is kept as a reference picture. Two
   markers fix the far side of the area less well than three, but far better than none
   (see ``sure_markers``): a mapping from two is *provisional*, and while it is in use
   the markers are detected afresh every ``redetect_every`` frames until three or four
   replace it.
2. **A mapping in use**: no detection. Each marker's reference picture is looked for
   within a few pixels of where it was (normalised cross-correlation, sub-pixel peak).
   A marker is *in place* when it matches well at most ``tolerance_px`` from there,
   *moved* when it matches well further off, *hidden* otherwise (a hand, a card, glare).
3. At least one marker in place and none moved: the mapping is kept (markers hidden by
   a hand do not matter while another one vouches for the camera).
4. A marker moved, or none is in place: the markers are detected afresh. Two or
   more found: a new mapping (equal to the old one if nothing moved). Otherwise, when some
   marker is seen off its place (by the check or by the detection), the mapping is
   dropped: the camera or the markers moved and there is no way to know where the
   area is. Otherwise (all of them hidden, nothing seen off its place) the mapping is
   kept; while all stay hidden, detection runs only every ``redetect_every`` frames.
5. Without a mapping the view is the frame itself: ``image`` is the frame,
   ``to_frame`` the identity and ``px_per_mm`` None.

Costs on one core (1280 × 720): the check in rule 2 about 0.3 ms; a detection (rules
1 and 4) a few milliseconds on a half-size frame, about 10 ms more when it must look
at the full frame too, and 2.5 ms more when markers are missing even there. The
top-down ``image`` is warped only when it is first asked for (a 2 px/mm view costs
about 5 ms); :meth:`AreaView.resampled` gives a coarser view for finders that do not
need every pixel. The limits named here are fields of
:data:`~companion.vision.thresholds.THRESHOLDS`.
"""

from __future__ import annotations

import logging
import math
from dataclasses import dataclass, field
from functools import cached_property

import cv2
import numpy as np

from .marker_layout import MarkerLayout, aligned_corners, fit_layout, layout_homography
from .markers import CORNER_IDS, MARKER_SIZE_MM, marker_dictionary
from .thresholds import THRESHOLDS

log = logging.getLogger(__package__)

MARKER_IDS = tuple(sorted(CORNER_IDS.values()))
DEFAULT_MARGIN_MM = 40.0  # cards lying a little outside the marker rectangle stay in view

_EDGE_SAMPLES = 16  # points per marker side where the edge is measured
_EDGE_REACH_PX = 4.0  # how far across the detected side the edge is looked for
_EDGE_STEPS = np.arange(-_EDGE_REACH_PX, _EDGE_REACH_PX + 0.01, 0.5)  # where across the side it is sampled …
_EDGE_ALONG = np.linspace(0.15, 0.85, _EDGE_SAMPLES)  # … at these shares of the side's length


@dataclass(frozen=True, eq=False)
class AreaView:
    """One frame seen as the play area from above (or, without a mapping, as itself).

    ``to_frame`` maps view pixels to frame pixels (3 × 3 homography, identity without a
    mapping); ``found`` says whether play-area markers were seen in this frame (detected,
    or confirmed in place by the check), ``markers`` which ones; ``mapped`` says whether
    a mapping is in use (it may have been made on an earlier frame); ``guessed`` that
    there are no markers and the frame itself stands for the view, at the scale its
    cards show (:func:`frame_as_view`).
    """

    frame: np.ndarray
    to_frame: np.ndarray
    px_per_mm: float | None
    size: tuple[int, int]  # (width, height) of the view in pixels
    found: bool = False
    mapped: bool = False
    markers: tuple[int, ...] = ()
    margin_mm: float = DEFAULT_MARGIN_MM
    guessed: bool = False
    layout: MarkerLayout | None = None  # where the markers lie on the table, with a mapping from them
    _cache: dict = field(default_factory=dict, repr=False)

    @cached_property
    def image(self) -> np.ndarray:
        """The top-down BGR view (warped on first use; the frame itself without a mapping)."""
        if not self.mapped:
            return self.frame
        return self._warp(self.to_frame, self.size)

    @cached_property
    def from_frame(self) -> np.ndarray:
        """3 × 3 homography from frame pixels to view pixels."""
        return np.linalg.inv(self.to_frame)

    def resampled(self, px_per_mm: float) -> tuple[np.ndarray, float]:
        """A coarser (or finer) top-down view warped straight from the frame, and its
        scale relative to this view (view pixel = (coarse pixel + 0.5) * scale - 0.5).
        Without a mapping, the frame resized to ``px_per_mm / 2`` of its size is a
        stand-in (so 1.0 gives half the frame). Memoised per scale."""
        key = round(float(px_per_mm), 4)
        if key not in self._cache:
            if self.mapped:
                scale = self.px_per_mm / key
                width, height = (math.ceil(side / scale) for side in self.size)
            else:
                scale = 2.0 / key
                width, height = (max(1, round(side / scale)) for side in self.size)
                scale = self.size[0] / width
            to_view = np.array([[scale, 0, 0.5 * scale - 0.5], [0, scale, 0.5 * scale - 0.5], [0, 0, 1]])
            if self.mapped:
                image = self._warp(self.to_frame @ to_view, (width, height))
            else:
                image = cv2.resize(self.frame, (width, height), interpolation=cv2.INTER_AREA)
            self._cache[key] = (image, scale)
        return self._cache[key]

    def _warp(self, to_frame: np.ndarray, size: tuple[int, int]) -> np.ndarray:
        return cv2.warpPerspective(self.frame, to_frame, size, flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                                   borderMode=cv2.BORDER_REPLICATE)

    def view_to_frame(self, points: np.ndarray) -> np.ndarray:
        """View pixels (N, 2) → frame pixels (N, 2)."""
        return _apply(self.to_frame, points)

    def frame_to_view(self, points: np.ndarray) -> np.ndarray:
        """Frame pixels (N, 2) → view pixels (N, 2)."""
        return _apply(self.from_frame, points)

    def mm_to_view(self, points_mm: np.ndarray) -> np.ndarray:
        """Table millimetres (N, 2) → view pixels (needs a mapping)."""
        self._need_mapping()
        return (np.asarray(points_mm, np.float64) + self.margin_mm) * self.px_per_mm - 0.5

    def view_to_mm(self, points: np.ndarray) -> np.ndarray:
        """View pixels (N, 2) → table millimetres (needs a mapping)."""
        self._need_mapping()
        return (np.asarray(points, np.float64) + 0.5) / self.px_per_mm - self.margin_mm

    def _need_mapping(self) -> None:
        if not self.mapped:
            raise ValueError("no play-area mapping: the view is the raw frame")


def frame_as_view(frame: np.ndarray, px_per_mm: float) -> AreaView:
    """Without markers: the frame taken for a top-down view of the table at
    ``px_per_mm`` (true of a camera looking straight down; a tilted one makes the scale
    vary across the frame). The scale is guessed from the cards (``frame_scale.py``)."""
    height, width = frame.shape[:2]
    return AreaView(frame, np.eye(3), float(px_per_mm), (width, height), found=False, mapped=True, margin_mm=0.0,
                    guessed=True)


def unmapped_view(frame: np.ndarray, found: tuple[int, ...] = (), margin_mm: float = DEFAULT_MARGIN_MM) -> AreaView:
    """The frame as it is, without a mapping (``found``: the markers seen, too few to map)."""
    height, width = frame.shape[:2]
    return AreaView(frame, np.eye(3), None, (width, height), bool(found), False, found, margin_mm)


def _apply(homography: np.ndarray, points: np.ndarray) -> np.ndarray:
    points = np.asarray(points, np.float64)
    flat = points.reshape(-1, 2)
    mapped = cv2.perspectiveTransform(flat[None], homography)[0]
    return mapped.reshape(points.shape)


@dataclass
class _Mapping:
    homography: np.ndarray  # table mm → frame px
    centres: dict[int, np.ndarray]  # marker id → centre in frame px
    references: dict[int, tuple[np.ndarray, np.ndarray]]  # id → (grey patch, its top-left in frame px)

    @property
    def provisional(self) -> bool:
        return len(self.centres) < THRESHOLDS.sure_markers


class PlayArea:
    """Maps frames to a top-down view of the play area; see the module docstring for
    the rules that keep, renew or drop the mapping."""

    def __init__(self, px_per_mm: float = 2.0, margin_mm: float = DEFAULT_MARGIN_MM,
                 play_area_mm: tuple[float, float] | None = None, tolerance_px: float = 2.5,
                 redetect_every: int = 5):
        """``play_area_mm``: the markers' rectangle when it is known; by default it is
        measured from the markers themselves (:mod:`.marker_layout`)."""
        if px_per_mm <= 0 or margin_mm < 0:
            raise ValueError("px_per_mm must be positive and margin_mm not negative")
        self.px_per_mm = float(px_per_mm)
        self.margin_mm = float(margin_mm)
        self.learns_layout = play_area_mm is None
        self.layout = MarkerLayout.default() if play_area_mm is None else MarkerLayout.default(play_area_mm)
        self.tolerance_px = float(tolerance_px)
        self.redetect_every = max(1, int(redetect_every))
        s, m = self.px_per_mm, self.margin_mm
        self._mm_from_view = np.array([[1 / s, 0, 0.5 / s - m], [0, 1 / s, 0.5 / s - m], [0, 0, 1]])
        self._detector = cv2.aruco.ArucoDetector(marker_dictionary(), _detector_parameters())
        self._mapping: _Mapping | None = None
        self._frames_all_hidden = 0
        self._frames_provisional = 0

    @property
    def mapped(self) -> bool:
        return self._mapping is not None

    @property
    def play_area_mm(self) -> tuple[float, float]:
        return self.layout.size_mm

    @property
    def size(self) -> tuple[int, int]:
        """(width, height) of the view in pixels: the markers' rectangle and the margin."""
        width, height = self.layout.size_mm
        return (math.ceil((width + 2 * self.margin_mm) * self.px_per_mm),
                math.ceil((height + 2 * self.margin_mm) * self.px_per_mm))

    def reset(self) -> None:
        """Forget the mapping (the next frame is detected afresh)."""
        self._mapping = None
        self._frames_all_hidden = self._frames_provisional = 0

    def update(self, frame: np.ndarray) -> AreaView:
        """Map one BGR frame (see the rules in the module docstring)."""
        if frame.ndim != 3 or frame.shape[2] != 3 or frame.dtype != np.uint8:
            raise ValueError("frames are uint8 BGR images")
        found: tuple[int, ...] = ()
        if self._mapping is None:
            found = tuple(sorted(self._detect_and_map(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY))))
        else:
            in_place, moved = self._check(frame)
            found = in_place
            if moved or not in_place:
                self._frames_all_hidden = 0 if moved else self._frames_all_hidden + 1
                if moved or (self._frames_all_hidden - 1) % self.redetect_every == 0:
                    found = self._redetect(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY), bool(moved))
            else:
                self._frames_all_hidden = 0
                if self._mapping.provisional:
                    found = self._look_for_more_markers(frame, found)
        return self._view(frame, found)

    def _look_for_more_markers(self, frame: np.ndarray, in_place: tuple[int, ...]) -> tuple[int, ...]:
        """A provisional mapping in use: every ``redetect_every`` frames the markers are
        detected afresh, and three or more found replace it."""
        self._frames_provisional += 1
        if self._frames_provisional % self.redetect_every:
            return in_place
        corners = self._detect_and_map(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY), THRESHOLDS.sure_markers)
        return tuple(sorted(corners)) if len(corners) >= THRESHOLDS.sure_markers else in_place

    # --- the view ------------------------------------------------------------------

    def _view(self, frame: np.ndarray, found: tuple[int, ...]) -> AreaView:
        if self._mapping is None:
            return unmapped_view(frame, found, self.margin_mm)
        to_frame = self._mapping.homography @ self._mm_from_view
        return AreaView(frame, to_frame / to_frame[2, 2], self.px_per_mm, self.size, bool(found), True, found,
                        self.margin_mm, layout=self.layout)

    # --- detection -----------------------------------------------------------------

    def _detect(self, grey: np.ndarray) -> dict[int, np.ndarray]:
        """Marker id → its four corners (4, 2 frame px; the marker's own top-left first,
        clockwise) for the play-area markers in the frame: detected on a half-size frame
        (and on the full one when some are missing there, then on the half-size one
        evened, :func:`_evened`), corners refined on the full one."""
        height, width = grey.shape
        small = cv2.resize(grey, (width // 2, height // 2), interpolation=cv2.INTER_AREA)
        boxes: dict[int, np.ndarray] = {}
        # the half-size frame; for markers still missing, the full frame (small or faint
        # markers), then the half-size frame evened (uneven light: a glare streak along one)
        looks = ((lambda: small, 2), (lambda: grey, 1), (lambda: _evened(small), 2))
        for look, scale in looks:
            if all(marker_id in boxes for marker_id in MARKER_IDS):
                break
            corners, ids, _rejected = self._detector.detectMarkers(look())
            for marker_id, box in zip(() if ids is None else np.ravel(ids), corners):
                box = np.asarray(box, np.float32).reshape(4, 2)
                boxes.setdefault(int(marker_id), box if scale == 1 else (box + 0.5) * scale - 0.5)
        ids = [marker_id for marker_id in boxes if marker_id in MARKER_IDS]
        if not ids:
            return {}
        detected = np.array([boxes[marker_id] for marker_id in ids], np.float64)
        return {marker_id: box if refined is None else refined
                for marker_id, box, refined in zip(ids, detected, _refine_squares(grey, detected))}

    def _detect_and_map(self, grey: np.ndarray, least: int = THRESHOLDS.min_markers,
                        relearn: bool = False) -> dict[int, np.ndarray]:
        """The markers detected (:meth:`_detect`), and with at least ``least`` of them a new
        mapping from them (``relearn``: a marker moved, so where they lie is measured anew)."""
        corners = self._detect(grey)
        if len(corners) >= least:
            self._learn_layout(grey, corners, relearn)
            self._start_mapping(grey, corners)
        return corners

    def _learn_layout(self, grey: np.ndarray, corners: dict[int, np.ndarray], relearn: bool) -> None:
        """Measure where the markers lie from three or more of them, unless more were
        measured before and none has moved since."""
        if not self.learns_layout or len(corners) < THRESHOLDS.sure_markers:
            return
        if relearn or len(corners) >= len(self.layout.measured):
            # the markers aligned whole: their size is what scales the table
            self.layout = fit_layout({k: aligned_corners(grey, k, box) for k, box in corners.items()}, self.layout)
            log.info("play area measured from markers %s: %.0f x %.0f mm", sorted(corners), *self.layout.size_mm)

    def _redetect(self, grey: np.ndarray, moved: bool) -> tuple[int, ...]:
        if moved:
            log.info("a play-area marker moved (or the camera did): the markers are detected afresh")
        corners = self._detect_and_map(grey, relearn=moved)
        if len(corners) >= THRESHOLDS.min_markers:
            return tuple(sorted(corners))
        off_place = any(marker_id in self._mapping.centres
                        and np.linalg.norm(_diagonals_crossing(box) - self._mapping.centres[marker_id]) > self.tolerance_px
                        for marker_id, box in corners.items())
        if moved or off_place:
            self._mapping = None
            log.info("play-area mapping lost: the markers moved and too few show to map again (%d)", len(corners))
        return tuple(sorted(corners))

    def _start_mapping(self, grey: np.ndarray, corners: dict[int, np.ndarray]) -> None:
        positions = self.layout.centres_mm
        found = sorted(corners)
        homography = layout_homography(corners, found, self.layout)
        centres = {marker_id: _diagonals_crossing(corners[marker_id]) for marker_id in found}
        references = {}
        for marker_id, half in zip(found, _patch_halves(homography, [positions[marker_id] for marker_id in found])):
            patch, origin = _crop(grey, centres[marker_id], half)
            if patch is not None:
                references[marker_id] = (patch.copy(), origin)
        self._mapping = _Mapping(homography, {k: v.copy() for k, v in centres.items()}, references)
        self._frames_all_hidden = self._frames_provisional = 0
        if self._mapping.provisional:
            log.info("play area mapped provisionally from markers %s: a third is looked for", found)
        else:
            log.info("play area mapped from markers %s", found)

    # --- the cheap check -----------------------------------------------------------

    def _check(self, frame: np.ndarray) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """(ids in place, ids moved) by matching each marker's reference picture near its place."""
        in_place, moved = [], []
        for marker_id, (patch, origin) in self._mapping.references.items():
            half = patch.shape[0] // 2
            search, search_origin = _crop(frame, origin + half, half + THRESHOLDS.marker_search_px)
            if search is None:
                continue
            scores = cv2.matchTemplate(cv2.cvtColor(search, cv2.COLOR_BGR2GRAY), patch, cv2.TM_CCOEFF_NORMED)
            _, best, _, (bx, by) = cv2.minMaxLoc(scores)
            if not best >= THRESHOLDS.marker_match_score:
                continue
            dx, dy = _parabola_peak(scores, bx, by)
            shift = search_origin + np.array([bx + dx, by + dy]) - origin
            (in_place if np.hypot(*shift) <= self.tolerance_px else moved).append(marker_id)
        return tuple(in_place), tuple(moved)


def _evened(grey: np.ndarray) -> np.ndarray:
    """The grey picture divided by its mean over ``marker_even_px`` around each pixel: a
    glare streak or a lamp's fall-off across a marker can keep ArUco from seeing it at all."""
    size = THRESHOLDS.marker_even_px
    mean = cv2.blur(grey, (size, size)).astype(np.float32)
    return cv2.convertScaleAbs(grey.astype(np.float32) / np.maximum(mean, 1.0), alpha=128.0)


def _detector_parameters() -> cv2.aruco.DetectorParameters:
    """Tuned on synthetic tables: one adaptive-threshold window instead of three (three
    times faster and, on blurred or washed-out markers, more often right), small markers
    allowed, each bit read from the middle of its cell, and markers right at the frame's
    edge kept (a camera framing the area tightly cuts off their white margin, and ArUco
    otherwise drops them although every bit is readable)."""
    parameters = cv2.aruco.DetectorParameters()
    parameters.minDistanceToBorder = 0
    parameters.adaptiveThreshWinSizeMin = parameters.adaptiveThreshWinSizeMax = 7
    parameters.minMarkerPerimeterRate = 0.05
    parameters.perspectiveRemovePixelPerCell = 8
    parameters.perspectiveRemoveIgnoredMarginPerCell = 0.2
    return parameters


def _patch_halves(homography: np.ndarray, centres_mm: list[tuple[float, float]]) -> list[int]:
    """Half the side (px) of each marker's reference picture (the marker centred at each of
    ``centres_mm``): its black square, a little less."""
    half_mm = MARKER_SIZE_MM * 0.45
    square = np.array([[-half_mm, -half_mm], [half_mm, -half_mm], [half_mm, half_mm], [-half_mm, half_mm]])
    corners = _apply(homography, np.asarray(centres_mm, np.float64)[:, None, :] + square)
    spans = np.abs(corners - corners.mean(axis=1, keepdims=True)).min(axis=(1, 2))
    return [max(6, int(span)) for span in spans.tolist()]


def _crop(image: np.ndarray, centre: np.ndarray, half: int) -> tuple[np.ndarray | None, np.ndarray]:
    """The square of side 2 * half + 1 around the pixel nearest to ``centre``, with its
    top-left pixel; None when it does not lie wholly inside the image."""
    cx, cy = (int(round(float(c))) for c in centre)
    x0, y0 = cx - half, cy - half
    if x0 < 0 or y0 < 0 or cx + half >= image.shape[1] or cy + half >= image.shape[0]:
        return None, np.array([x0, y0], np.float64)
    return image[y0:cy + half + 1, x0:cx + half + 1], np.array([x0, y0], np.float64)


def _refine_squares(grey: np.ndarray, boxes: np.ndarray) -> list[np.ndarray | None]:
    """Each marker's corners (4, 2) from straight lines fitted to its four outer edges
    (``boxes``: the detected corners, markers × 4 × 2).

    Along each side the black-to-white step is measured across the side at a few
    points (where the intensity crosses halfway between the black and the white level,
    which a symmetric blur leaves in place), a line is fitted through those points,
    points off it are dropped (a finger, a glare spot) and the line is fitted again;
    neighbouring lines cross at the corners. None for a marker with a side that gives
    too few points. Every side of every marker at once: numpy's cost per call, not the
    arithmetic, is most of the time on arrays this small.
    """
    markers = len(boxes)
    sides = 4 * markers
    steps = _EDGE_STEPS
    centres = np.repeat(boxes.mean(axis=1), 4, axis=0)
    starts, ends = boxes.reshape(-1, 2), np.roll(boxes, -1, axis=1).reshape(-1, 2)
    directions = (ends - starts) / np.maximum(np.linalg.norm(ends - starts, axis=1), 1e-9)[:, None]
    normals = np.stack([directions[:, 1], -directions[:, 0]], axis=1)
    outward = np.einsum("ij,ij->i", normals, (starts + ends) / 2 - centres) >= 0
    normals[~outward] *= -1  # pointing out of the marker, from black to white
    points = starts[:, None, :] + _EDGE_ALONG[None, :, None] * (ends - starts)[:, None, :]  # (side, sample, 2)
    # all sides' profiles in one remap (a call per side cost more than the sampling); x
    # and y apart: numpy's broadcasting over a last axis of two costs more than the sums
    across = [(points[:, :, None, axis] + steps[None, None, :] * normals[:, None, None, axis])
              .reshape(sides * _EDGE_SAMPLES, -1).astype(np.float32) for axis in (0, 1)]
    values = cv2.remap(grey, *across, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE).astype(np.float64)
    # every sample point at once: where its profile first rises above halfway from
    # the black level (first three samples) to the white level (last three)
    dark = (values[:, 0] + values[:, 1] + values[:, 2]) / 3
    light = (values[:, -3] + values[:, -2] + values[:, -1]) / 3
    halfway = (dark + light) / 2
    above = values > halfway[:, None]
    first = above.argmax(axis=1)
    usable = (light - dark >= 20) & above.any(axis=1) & (first > 0)
    rows = np.arange(sides * _EDGE_SAMPLES)
    before, at = values[rows, first - 1], values[rows, first]
    fraction = (halfway - before) / np.maximum(at - before, 1e-9)
    edges = (points.reshape(-1, 2) + (steps[first - 1] + 0.5 * fraction)[:, None]
             * np.repeat(normals, _EDGE_SAMPLES, axis=0)).reshape(sides, _EDGE_SAMPLES, 2)
    keep = usable.reshape(sides, _EDGE_SAMPLES)
    failed = (keep.sum(axis=1) < _EDGE_SAMPLES // 2).reshape(markers, 4).any(axis=1)
    # a line through each side's points (least squares, as cv2.fitLine with DIST_L2), the
    # points off it dropped and the line fitted again; a side too few points kept fails its marker
    lines = None
    for _ in range(2):
        keep[np.repeat(failed, 4)] = True  # a failed marker's lines are not used: keep them computable
        lines = _fitted_lines(edges, keep)
        offsets = np.abs(np.einsum("skj,sj->sk", edges - lines[:, None, 2:], lines[:, [1, 0]] * (1.0, -1.0)))
        keep = keep & (offsets <= np.maximum(0.5, 2.5 * _masked_medians(offsets, keep))[:, None])
        failed |= (keep.sum(axis=1) < _EDGE_SAMPLES // 2).reshape(markers, 4).any(axis=1)
    refined: list[np.ndarray | None] = []
    for marker, box in enumerate(boxes):
        refined.append(None if failed[marker] else _crossings(lines[4 * marker:4 * marker + 4], box))
    return refined


def _crossings(lines: np.ndarray, box: np.ndarray) -> np.ndarray | None:
    """Where neighbouring lines (4 × (vx, vy, x0, y0)) of a marker's sides cross: its
    corners, or None where two are parallel or a corner lies more than 3 px off the
    detected one. In plain floats: numpy's cost per call was the whole cost."""
    lines, detected = lines.tolist(), box.tolist()
    corners = []
    for k in range(4):
        (vx1, vy1, x1, y1), (vx2, vy2, x2, y2) = lines[k - 1], lines[k]
        denominator = vx1 * vy2 - vy1 * vx2
        if abs(denominator) < 1e-6:
            return None
        t = ((x2 - x1) * vy2 - (y2 - y1) * vx2) / denominator
        x, y = x1 + t * vx1, y1 + t * vy1
        if not (abs(x - detected[k][0]) <= 3.0 and abs(y - detected[k][1]) <= 3.0):  # NaN fails too
            return None
        corners.append((x, y))
    return np.array(corners)


def _fitted_lines(points: np.ndarray, keep: np.ndarray) -> np.ndarray:
    """(vx, vy, x0, y0) per row of ``points`` (rows, n, 2), fitted to the points ``keep``
    marks: through their mean, along their covariance's main axis (total least squares)."""
    weights = keep.astype(np.float64)
    count = weights.sum(axis=1)
    mean = (points * weights[..., None]).sum(axis=1) / count[:, None]
    centred = (points - mean[:, None]) * weights[..., None]
    xx, yy, xy = (centred[..., 0] ** 2).sum(1), (centred[..., 1] ** 2).sum(1), (centred[..., 0] * centred[..., 1]).sum(1)
    angle = 0.5 * np.arctan2(2 * xy, xx - yy)
    return np.stack([np.cos(angle), np.sin(angle), mean[:, 0], mean[:, 1]], axis=1)


def _masked_medians(values: np.ndarray, keep: np.ndarray) -> np.ndarray:
    """The median of each row of ``values`` over the entries ``keep`` marks (at least one)."""
    ranked = np.sort(np.where(keep, values, np.inf), axis=1)
    count = keep.sum(axis=1)
    rows = np.arange(len(values))
    return (ranked[rows, (count - 1) // 2] + ranked[rows, count // 2]) / 2


def _parabola_peak(scores: np.ndarray, x: int, y: int) -> tuple[float, float]:
    """Sub-pixel offset of a correlation peak from a parabola through its neighbours."""
    def offset(before: float, at: float, after: float) -> float:
        denominator = before - 2 * at + after
        return 0.0 if denominator >= 0 else float(np.clip(0.5 * (before - after) / denominator, -0.5, 0.5))
    height, width = scores.shape
    dx = offset(scores[y, x - 1], scores[y, x], scores[y, x + 1]) if 0 < x < width - 1 else 0.0
    dy = offset(scores[y - 1, x], scores[y, x], scores[y + 1, x]) if 0 < y < height - 1 else 0.0
    return dx, dy


def _diagonals_crossing(corners: np.ndarray) -> np.ndarray:
    """Where the diagonals of a quadrilateral (4, 2) cross: its centre under perspective."""
    p0, p1, p2, p3 = corners
    d1, d2 = p2 - p0, p3 - p1
    denominator = d1[0] * d2[1] - d1[1] * d2[0]
    if abs(denominator) < 1e-9:
        return corners.mean(axis=0)
    t = ((p1[0] - p0[0]) * d2[1] - (p1[1] - p0[1]) * d2[0]) / denominator
    return p0 + t * d1
