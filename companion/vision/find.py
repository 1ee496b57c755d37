"""Finding the fully visible cards in a view of the play area.

With a play-area mapping (:mod:`companion.vision.area`) the view is a top-down picture
in which every card is a 59 × 91 mm rectangle lying within about ±25° of upright, so
the finder hunts for rectangles of exactly that size:

1. **Candidates** (0.5 px/mm view, :mod:`companion.vision.candidates`): places where
   all four sides of a card-sized outline lie on edges at one of five angles, the
   inside neither crossed by a straight edge nor as busy as a patterned cloth.
2. **Refinement** (1 px/mm view, per candidate, skipped when the candidate lies inside a
   card found already): a card-aligned patch is cut out. The pair of left and right
   sides exactly one card width apart (and top and bottom one height apart) that is
   best supported by edges *and* whose borders look alike from inside is the position
   (a card's border is the same on every side; a card half under another is not); the
   angle is the turn at which the edge points near those sides line up most sharply
   (deskewing). Two rounds, then sub-pixel side positions. The refinement starts from
   two angles and keeps the result with the better evidence.
3. **Verification**: no straight edge across the inside (another card lying on it, at
   whatever angle, or a seam of the table: Canny edges and a probabilistic Hough
   transform find unbroken lines longer than any numeral's stroke); at least three
   sides clearly seen (the fourth may lie on a white card of the pile below, where it
   shows no edge), the border looks alike turned by 180° and along the width and the
   height, and most of the inside is one colour (card stock, or an inverse card's ink).
   Overlapping results keep the best one.

:meth:`CardFinder.find` puts precision before recall: a card that is not clearly a
whole card is left out. The edge search (``companion.bench.search``) asks instead for
every outline, one candidate at a time (:meth:`CardFinder.outlines`), with only the
first check (``occlusion_only``), and lets the numeral decide: the other checks reject
one true card in several under blur, glare or on a white cloth.
Without a mapping nothing is reported unless asked for (``CardFinder(whole_frame=True)``,
a slow and shy fallback, see :meth:`CardFinder._find_whole_frame`).

The patch cut for steps 2 and 3, and its evidence, live in :mod:`companion.vision.patch`.
Measured figures and failure modes: ``python -m companion.bench.evaluate_find``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Iterator

import cv2
import numpy as np

from .area import AreaView
from .candidates import COARSE_PX_PER_MM, card_candidates
from .patch import FINE_PX_PER_MM, Patch, coverage, side_positions
from .profile import CARD_MM


@dataclass(frozen=True, eq=False)
class LookIn:
    """Where outlines are wanted: around the pixels of ``mask`` that are not 0, a mask
    over the view with ``scale`` view pixels per mask pixel."""

    mask: np.ndarray
    scale: float

    def __call__(self, x: float, y: float) -> bool:
        """Whether outlines are wanted around view pixel (x, y)."""
        column, row = round((x + 0.5) / self.scale - 0.5), round((y + 0.5) / self.scale - 0.5)
        return 0 <= row < self.mask.shape[0] and 0 <= column < self.mask.shape[1] and bool(self.mask[row, column])

    def box(self, scale: float, margin: float) -> tuple[int, int, int, int]:
        """(left, top, right, bottom), right and bottom exclusive, of the marked places in
        pixels of a resampled view (``scale`` view pixels per pixel), grown by ``margin``
        of those pixels; not clipped to the view."""
        left, top, width, height = cv2.boundingRect(self.mask)
        factor = self.scale / scale
        return (math.floor(left * factor - margin), math.floor(top * factor - margin),
                math.ceil((left + width) * factor + margin), math.ceil((top + height) * factor + margin))




@dataclass(frozen=True)
class FoundCard:
    """One fully visible card: its corners clockwise on screen (starting at any corner;
    the reader decides which way up the face is)."""

    corners_view: np.ndarray  # (4, 2) float, view pixels
    corners_frame: np.ndarray  # (4, 2) float, frame pixels
    score: float | None  # 0–1, how well the outline and the inside are supported; None: rejected
    evidence: Mapping = field(default_factory=dict, compare=False, repr=False)  # see ``patch.Evidence``


# --- settings -----------------------------------------------------------------------------
MAX_ANGLE_DEG = 25.0  # cards lie within this much of upright (5° more are tolerated)

START_TURNS_DEG = (-2.5, 2.5)  # candidates come in 10° steps: start from both halves
# evidence quality (sides + 2 × turned likeness) that needs no second start: above what the card
# below a pile's top card can show (three whole sides and a border half hidden: 4.5)
CONVINCING = 4.6
HOPELESS = 2.0  # a first start this poor (about two sides seen) is no card: the second start rarely finds one
REFINE_STAGES = ((12.0, 9, 49), (1.5, 4, 7))  # (turn searched ±deg, band around the sides px, steps)
CROP_MARGIN_PX = 4  # candidates from part of the view: this much more than a card around it (the edge filters' reach)
REACH_MM = 14  # how far the refinement looks for a side beyond where it expects it
VERDICT = {
    "oblique": 0.75,  # share of a line across the inside on edges (and at least OBLIQUE_MIN_LENGTH_MM)
    "second_side": 0.6,  # the second weakest side: this share of it on an edge
    "third_side": 0.8,
    "crossing_u": 0.72,  # share of a card's height one straight edge inside it may cover (a condensed 14's strokes: 0.69)
    # … of its width: a numeral's base line can span 0.9 of it (a condensed "12": the 1's
    # foot and the 2's base in one line), a card lying across spans all of it
    "crossing_v": 0.95,
    "mismatch": 0.9,  # how much the borders along the width and along the height may differ
    "turned": 0.0,  # the border band correlates with itself turned by 180° at least this much
    "paper": 0.4,  # share of the inside in the card's own main colour
    "weak_side": 0.5,  # a side this faint counts as not seen; then the border must match better:
    "turned_three_sides": 0.2,
    "mismatch_three_sides": 0.6,
}

_UNJUDGED = object()  # a refinement result whose verdict has not been asked for yet

WHOLE_FRAME_HEIGHT_MM = 560.0  # without a mapping: a frame this tall (mm) is the middle guess
WHOLE_FRAME_SCALES = tuple(0.7 * 1.1 ** k for k in range(9))  # 0.7 … 1.5 times that
WHOLE_FRAME_MIN_SIDE = 0.8  # without a mapping every side must be clearly seen
WHOLE_FRAME_SIZE_TOLERANCE = 0.06


class CardFinder:
    """Finds fully visible cards; one instance serves any number of frames (it keeps
    no state between frames; ``debug`` holds the last frame's candidates and results).

    ``occlusion_only``: the verification rejects only outlines another card lies across.
    The other checks (every side seen, the border alike all round, mostly paper inside)
    keep the outline of a card below or a piece of table from being taken for a card
    when nothing else looks; they also reject one true card in several under blur,
    glare or on white cloth. A reader that reads every outline and keeps only those
    whose numeral it finds in place (``table_reader.TableReader``) does that job better."""

    def __init__(self, card_mm: tuple[float, float] = CARD_MM, whole_frame: bool = False,
                 occlusion_only: bool = False):
        self.card_mm = (float(card_mm[0]), float(card_mm[1]))
        self.whole_frame = whole_frame
        self.occlusion_only = occlusion_only
        self.debug: dict = {}

    def find(self, view: AreaView) -> list[FoundCard]:
        """Every fully visible card in the view, best supported first."""
        if not view.mapped:
            return self._find_whole_frame(view) if self.whole_frame else []
        coarse, _ = view.resampled(COARSE_PX_PER_MM)
        fine, fine_scale = view.resampled(FINE_PX_PER_MM)
        candidates = self.candidates(cv2.cvtColor(coarse, cv2.COLOR_BGR2GRAY))
        return [self._found(view, corners, fine_scale, score, evidence)
                for corners, score, evidence in self._refine_all(candidates, fine, fine_scale)]

    def outlines(self, view: AreaView, covered: list[np.ndarray], look_in: LookIn | None = None) -> Iterator[FoundCard]:
        """One outline per candidate, best candidate first, rejected ones too (``score``
        None), for a caller that judges each one itself: on a pile the outlines of the
        top card and of a card below can be equally well supported by the edges alone
        (white card on white card shows none), and a reader's numeral tells them apart.
        Candidates inside a polygon of ``covered`` (frame pixels; the caller adds the
        cards it has settled while this runs) are skipped, and so are repeats, and with
        ``look_in`` those centred on view pixels (x, y) where ``look_in(x, y)`` is false."""
        if not view.mapped:
            return
        coarse, coarse_scale = view.resampled(COARSE_PX_PER_MM)
        fine, fine_scale = view.resampled(FINE_PX_PER_MM)
        factor = FINE_PX_PER_MM / COARSE_PX_PER_MM
        grey, left, top = cv2.cvtColor(coarse, cv2.COLOR_BGR2GRAY), 0, 0
        if look_in is not None:  # candidates only from around the places asked for: a card's reach, and then some
            margin = math.hypot(*self.card_mm) / 2 * COARSE_PX_PER_MM + CROP_MARGIN_PX
            left, top, right, bottom = look_in.box(coarse_scale, margin)
            left, top = max(left, 0), max(top, 0)
            grey = grey[top:bottom, left:right]
        poses: list[tuple[float, float, float]] = []
        for cx, cy, theta, _ in self.candidates(grey):
            cx, cy = cx + left, cy + top
            fx, fy = (cx + 0.5) * factor - 0.5, (cy + 0.5) * factor - 0.5
            at_view = ((fx + 0.5) * fine_scale - 0.5, (fy + 0.5) * fine_scale - 0.5)
            if look_in is not None and not look_in(*at_view):
                continue
            point = view.view_to_frame(np.array([at_view]))[0]
            if any(cv2.pointPolygonTest(np.asarray(polygon, np.float32), (float(point[0]), float(point[1])), False) >= 0
                   for polygon in covered):
                continue
            refined = self.refine(fine, fx, fy, theta)
            if refined is None or _repeated(refined[0], poses):
                continue
            poses.append(refined[0])
            pose, score, evidence = refined
            yield self._found(view, _corners(pose, self.card_mm), fine_scale, score, evidence)

    def outline_near(self, view: AreaView, x: float, y: float, theta: float, rim_mm: float = 0.0) -> FoundCard | None:
        """The outline the edges support best around a point of the fine view
        (``FINE_PX_PER_MM``; a card at turn ``theta``), for a caller that has other
        reasons to expect a card there (a numeral); None when the
        edges give no outline. ``score`` None: the outline fails the verification.
        ``rim_mm``: a side may show up to this far inside the card (a colour fill
        within a paper rim, on a table as pale as the rim)."""
        fine, fine_scale = view.resampled(FINE_PX_PER_MM)
        # one start: the paper region gave the turn
        refined = self._refine_from(fine, x, y, theta, int(round(rim_mm * FINE_PX_PER_MM)))
        if refined is None:
            return None
        pose, evidence = refined
        return self._found(view, _corners(pose, self.card_mm), fine_scale, _verdict(evidence, self.occlusion_only),
                           evidence)

    def outline_from(self, view: AreaView, corners_view: np.ndarray, rim_mm: float = 0.0) -> FoundCard | None:
        """:meth:`outline_near`, started from an outline (view pixels) another finder gave
        (the card detector's): its centre and turn."""
        _, fine_scale = view.resampled(FINE_PX_PER_MM)
        return self.outline_near(view, *_pose((np.asarray(corners_view) + 0.5) / fine_scale - 0.5), rim_mm)

    def outline_at(self, view: AreaView, x: float, y: float, theta: float) -> FoundCard:
        """The outline of a card centred on a point of the fine view at turn ``theta``, as it
        lies, with the verdict of its edges (``score`` None: it fails the verification):
        where a numeral tells a card's place better than the edges do (a patterned cloth
        pulls the refinement off the card)."""
        fine, fine_scale = view.resampled(FINE_PX_PER_MM)
        w, h = self.card_mm[0] * FINE_PX_PER_MM, self.card_mm[1] * FINE_PX_PER_MM
        evidence = Patch.cut(fine, x, y, theta, w, h, 4).evidence()
        return self._found(view, _corners((x, y, theta), self.card_mm), fine_scale,
                           _verdict(evidence, self.occlusion_only), evidence)

    def outlines_around(self, view: AreaView, found: FoundCard, shift_mm: float,
                        turns_deg: tuple[float, ...] = ()) -> Iterator[FoundCard]:
        """Other outlines near ``found``: refined from starts ``shift_mm`` to either side of it
        along each of its axes, and from its centre turned by each of ``turns_deg``; those
        that settle where ``found`` lies or where another of them did are left out. For a
        caller whose reading says ``found`` is not the card that lies there (on a pile the
        edges of the card below can win; on a row of piles, a neighbour's)."""
        fine, fine_scale = view.resampled(FINE_PX_PER_MM)
        cx, cy, theta = _pose((found.corners_view + 0.5) / fine_scale - 0.5)
        step = shift_mm * FINE_PX_PER_MM
        starts = [(cx + side * step * math.cos(theta + axis), cy + side * step * math.sin(theta + axis), theta)
                  for side in (-1, 1) for axis in (0.0, math.pi / 2)]
        starts += [(cx, cy, theta + math.radians(turn)) for turn in turns_deg]
        poses = [(cx, cy, theta)]
        for x, y, turn in starts:
            refined = self._refine_from(fine, x, y, turn)
            if refined is None or _repeated(refined[0], poses, within_px=3.0, within_deg=2.0):
                continue
            pose, evidence = refined
            poses.append(pose)
            yield self._found(view, _corners(pose, self.card_mm), fine_scale, _verdict(evidence, self.occlusion_only),
                              evidence)

    def verify(self, view: AreaView, corners_frame: np.ndarray) -> float | None:
        """The score of a whole card with these corners (frame pixels), None when the
        outline does not show a whole card there (see step 3)."""
        if not view.mapped:
            return None
        fine, fine_scale = view.resampled(FINE_PX_PER_MM)
        cx, cy, theta = _pose((view.frame_to_view(np.asarray(corners_frame, np.float64)) + 0.5) / fine_scale - 0.5)
        if abs(math.degrees(theta)) > MAX_ANGLE_DEG + 5:
            return None
        w, h = self.card_mm[0] * FINE_PX_PER_MM, self.card_mm[1] * FINE_PX_PER_MM
        return _verdict(Patch.cut(fine, cx, cy, theta, w, h, 4).evidence(), self.occlusion_only)

    def _found(self, view, corners, fine_scale, score, evidence) -> FoundCard:
        corners_view = (corners + 0.5) * fine_scale - 0.5
        return FoundCard(corners_view, view.view_to_frame(corners_view), score, evidence)

    def _refine_all(self, candidates, fine: np.ndarray, fine_scale: float, free: bool = False):
        """Refine candidates best first (skipping those inside a card found already: the
        same card again, or one below it), keep the best of overlapping results:
        [(corners in fine pixels, score, evidence)]. ``free``: outlines of measured
        rather than known size (whole-frame mode)."""
        factor = FINE_PX_PER_MM / COARSE_PX_PER_MM
        results, taken = [], []
        for cx, cy, theta, _ in candidates:
            fx, fy = (cx + 0.5) * factor - 0.5, (cy + 0.5) * factor - 0.5
            if any(cv2.pointPolygonTest(polygon, (fx, fy), False) >= 0 for polygon in taken):
                continue
            refined = self.refine(fine, fx, fy, theta)
            if refined is not None:
                results.append(refined)
                if refined[1] is not None:
                    taken.append(_corners(refined[0], self.card_mm).astype(np.float32))
        self.debug = {"candidates": candidates, "refined": results, "scale": fine_scale}
        out = []
        for pose, score, evidence in _select([r for r in results if r[1] is not None], self.card_mm):
            corners = self._free_outline(fine, pose) if free else _corners(pose, self.card_mm)
            if corners is not None:
                out.append((corners, score, evidence))
        return out

    # --- step 1: candidates --------------------------------------------------------------

    def candidates(self, grey: np.ndarray) -> list[tuple[float, float, float, float]]:
        """(x, y, angle in radians, score) in coarse pixels, best first (see :mod:`.candidates`)."""
        return card_candidates(grey, self.card_mm)

    # --- step 2: refinement and verification -----------------------------------------------

    def refine(self, fine: np.ndarray, cx: float, cy: float, theta: float):
        """The card pose near a candidate (fine pixels): refined from two starting angles
        (a wrong start can settle on the card below or on a neighbour's edge), the one
        with the better evidence wins; one start when its evidence is convincing or
        hopeless. (pose (x, y, angle), score or None, evidence)."""
        best, best_score = None, None
        for tried, start in enumerate(START_TURNS_DEG):
            result = self._refine_from(fine, cx, cy, theta + math.radians(start))
            if result is not None and (best is None or _quality(result[1]) > _quality(best[1])):
                best, best_score = result, _UNJUDGED
            if not tried and best is not None and _quality(best[1]) < HOPELESS:
                break  # most candidates are no card (a pile's edges, the cloth): their second start is wasted
            # the verdict (its line search is the costliest check) only where it decides something
            if best is not None and _quality(best[1]) >= CONVINCING:
                if best_score is _UNJUDGED:
                    best_score = _verdict(best[1], self.occlusion_only)
                if best_score is not None:
                    break
        if best is None:
            return None
        if best_score is _UNJUDGED:
            best_score = _verdict(best[1], self.occlusion_only)
        return best[0], best_score, best[1]

    def _refine_from(self, fine, cx, cy, theta, rim: int = 0):
        """(pose, evidence) refined from one start, None when no pair of sides is found
        (``rim``: see ``Patch.locate``)."""
        w, h = self.card_mm[0] * FINE_PX_PER_MM, self.card_mm[1] * FINE_PX_PER_MM
        reach = int(REACH_MM * FINE_PX_PER_MM)
        for span_deg, band, steps in REFINE_STAGES:
            patch = Patch.cut(fine, cx, cy, theta, w, h, reach)
            located = patch.locate(rim)
            if located is None:
                return None
            du, dv = located
            sides = ((reach + du, reach + du + w), (reach + dv, reach + dv + h))
            turn = patch.straightest_turn(span_deg, steps, sides, band)
            cx, cy = _moved(cx, cy, theta, du, dv)
            theta += turn
            reach = max(6, reach // 2)
        patch = Patch.cut(fine, cx, cy, theta, w, h, 4)
        cx, cy = _moved(cx, cy, theta, *patch.fine_offsets())
        if abs(math.degrees(theta)) > MAX_ANGLE_DEG + 5:
            return None
        return (cx, cy, theta), patch.evidence()

    # --- without a mapping -------------------------------------------------------------------

    def _find_whole_frame(self, view: AreaView) -> list[FoundCard]:
        """The frame stands in for the view, at an unknown scale. Candidates are looked
        for at scales around a camera that frames the play area; of those about as good
        as the best, the largest wins (the printed frame inside a card is a smaller
        card-like rectangle). The cards found are measured, the scale corrected by their
        median size and the finder runs again. Every side must be seen (each side is a
        line of its own: a tilted camera makes cards trapezoids) and the size must agree
        within 6 %. Tens of milliseconds, and on the synthetic table about half of what
        it reports is more than 4 px off: a last resort, off by default."""
        frame = view.frame
        height, width = frame.shape[:2]
        tries = []
        for factor in WHOLE_FRAME_SCALES:
            scale = factor * height / WHOLE_FRAME_HEIGHT_MM
            candidates = self.candidates(cv2.cvtColor(_resized(frame, COARSE_PX_PER_MM / scale), cv2.COLOR_BGR2GRAY))
            tries.append((sum(sorted((c[3] for c in candidates), reverse=True)[:6]), scale, candidates))
        strongest = max(t[0] for t in tries)
        _, scale, candidates = max((t for t in tries if t[0] >= 0.9 * strongest), key=lambda t: t[1])
        for attempt in range(2):
            fine = _resized(frame, FINE_PX_PER_MM / scale)
            fine_scale = width / fine.shape[1]
            outlines = self._refine_all(candidates, fine, fine_scale, free=True)
            sizes = [_outline_size(corners) for corners, _, _ in outlines]
            if not sizes:
                return []
            ratio = float(np.median([size for pair in sizes for size in
                                     (pair[0] / self.card_mm[0], pair[1] / self.card_mm[1])])) / FINE_PX_PER_MM
            if attempt or abs(ratio - 1) <= 0.03:
                break
            scale *= ratio
            candidates = self.candidates(cv2.cvtColor(_resized(frame, COARSE_PX_PER_MM / scale), cv2.COLOR_BGR2GRAY))
        expected = np.array(self.card_mm) * FINE_PX_PER_MM
        return [self._found(view, corners, fine_scale, score, evidence)
                for (corners, score, evidence), size in zip(outlines, sizes)
                if np.all(np.abs(np.array(size) / expected - 1) <= WHOLE_FRAME_SIZE_TOLERANCE)]

    def _free_outline(self, fine: np.ndarray, pose) -> np.ndarray | None:
        """Each side of the card at ``pose`` moved to the line of edges nearest to it,
        with a slope of its own; the corners are where the lines cross. None unless all
        four sides are clearly seen and the shape is still close to 59:91."""
        cx, cy, theta = pose
        w, h = self.card_mm[0] * FINE_PX_PER_MM, self.card_mm[1] * FINE_PX_PER_MM
        reach = 8
        patch = Patch.cut(fine, cx, cy, theta, w, h, reach)
        lines = []  # vertical sides: column = a * row + b; horizontal sides: row = a * column + b
        for thin, magnitude, start, expected in patch.sides(((reach, reach + w), (reach, reach + h))):
            cover = coverage(thin)
            low = max(1, int(round(expected)) - reach)
            strong = np.nonzero(cover[low:int(round(expected)) + reach + 1] >= WHOLE_FRAME_MIN_SIDE)[0]
            if not len(strong):
                return None
            # the strong line nearest to where the side should be (the printed frame inside
            # and a card peeking out below are a few millimetres off)
            position = low + int(strong[np.argmin(np.abs(low + strong - expected))])
            found = side_positions(thin, magnitude, position, window=2, keep_rows=True)
            if found is None:
                return None
            t, x = found[0] + start, found[1]
            keep = np.abs(np.polyval(np.polyfit(t, x, 1), t) - x) <= 1.0
            if keep.sum() < 0.5 * thin.shape[0]:
                return None
            lines.append(np.polyfit(t[keep], x[keep], 1))
        corners = []
        for (a1, b1), (a2, b2) in ((lines[0], lines[2]), (lines[1], lines[2]), (lines[1], lines[3]), (lines[0], lines[3])):
            column = (a1 * b2 + b1) / (1 - a1 * a2)
            corners.append((column, a2 * column + b2))
        corners = np.array(corners)
        side_w, side_h = _outline_size(corners)
        if abs(side_w / side_h / (self.card_mm[0] / self.card_mm[1]) - 1) > 0.2:
            return None
        c, s = math.cos(theta), math.sin(theta)
        origin = np.array([cx, cy]) - np.array([c, s]) * (w / 2 + reach) - np.array([-s, c]) * (h / 2 + reach)
        return origin + corners[:, :1] * np.array([c, s]) + corners[:, 1:] * np.array([-s, c])


def _resized(image: np.ndarray, factor: float) -> np.ndarray:
    height, width = image.shape[:2]
    return cv2.resize(image, (max(1, round(width * factor)), max(1, round(height * factor))),
                      interpolation=cv2.INTER_AREA)


def _outline_size(corners: np.ndarray) -> tuple[float, float]:
    """Mean lengths of the (top, bottom) and of the (left, right) sides."""
    top, right, bottom, left = (np.linalg.norm(corners[(k + 1) % 4] - corners[k]) for k in range(4))
    return float((top + bottom) / 2), float((left + right) / 2)


def _moved(cx, cy, theta, du, dv) -> tuple[float, float]:
    c, s = math.cos(theta), math.sin(theta)
    return cx + c * du - s * dv, cy + s * du + c * dv


def _quality(evidence: Mapping) -> float:
    return sum(evidence["sides"]) + 2 * evidence["turned"]


def _verdict(evidence: Mapping, occlusion_only: bool = False) -> float | None:
    """A score (0–1) when the evidence shows a whole card, else None. ``occlusion_only``:
    only another card lying across this one rejects it (for a reader that checks every
    outline by its numeral, see ``CardFinder``)."""
    sides = sorted(evidence["sides"])
    crossing_u, crossing_v = evidence["crossing"]
    if crossing_u > VERDICT["crossing_u"] or crossing_v > VERDICT["crossing_v"]:
        return None
    if evidence["oblique"] > VERDICT["oblique"]:  # after the cheap check above: it runs a line search
        return None
    score = float(min(1.0, 0.25 * sum(sides) * (0.75 + 0.25 * max(0.0, evidence["turned"]))))
    if occlusion_only:
        return score
    if sides[1] < VERDICT["second_side"] or sides[2] < VERDICT["third_side"]:
        return None
    if evidence["mismatch"] > VERDICT["mismatch"] or evidence["turned"] < VERDICT["turned"]:
        return None
    if evidence["paper"] < VERDICT["paper"]:
        return None
    if sides[0] < VERDICT["weak_side"] and (evidence["turned"] < VERDICT["turned_three_sides"]
                                            or evidence["mismatch"] > VERDICT["mismatch_three_sides"]):
        return None  # a side not seen at all: the border must vouch for the card
    return score


def _pose(corners: np.ndarray) -> tuple[float, float, float]:
    """(x, y, turn) of an outline (4 × 2, clockwise, any corner first): its centre and the
    turn of its short side, within ±90° (upside down is the same outline)."""
    across, down = corners[1] - corners[0], corners[3] - corners[0]
    if math.hypot(*across) > math.hypot(*down):  # the long side first: turn to the short one
        across = -down
    theta = (math.atan2(across[1], across[0]) + math.pi / 2) % math.pi - math.pi / 2
    cx, cy = corners.mean(axis=0)
    return float(cx), float(cy), theta


def _corners(pose, card_mm) -> np.ndarray:
    """The corners (fine pixels) of a card at (x, y, angle), clockwise on screen."""
    cx, cy, theta = pose
    w, h = card_mm[0] * FINE_PX_PER_MM, card_mm[1] * FINE_PX_PER_MM
    ex, ey = np.array([math.cos(theta), math.sin(theta)]), np.array([-math.sin(theta), math.cos(theta)])
    centre = np.array([cx, cy])
    return np.array([centre - ex * w / 2 - ey * h / 2, centre + ex * w / 2 - ey * h / 2,
                     centre + ex * w / 2 + ey * h / 2, centre - ex * w / 2 + ey * h / 2])


def _select(results, card_mm):
    """Best first; a result overlapping an accepted one by more than 10 % is dropped."""
    area = card_mm[0] * card_mm[1] * FINE_PX_PER_MM ** 2
    accepted = []
    for pose, score, evidence in sorted(results, key=lambda r: -r[1]):
        polygon = _corners(pose, card_mm).astype(np.float32)
        if all(cv2.intersectConvexConvex(polygon, _corners(other[0], card_mm).astype(np.float32))[0] <= 0.1 * area
               for other in accepted):
            accepted.append((pose, score, evidence))
    return accepted


def _repeated(pose, poses, within_px: float = 1.5, within_deg: float = 1.0) -> bool:
    """Whether another candidate was refined to (nearly) the same pose already."""
    x, y, theta = pose
    return any(math.hypot(x - other[0], y - other[1]) <= within_px and abs(math.degrees(theta - other[2])) <= within_deg
               for other in poses)


_DEFAULT_FINDER = CardFinder()


def find_cards(view: AreaView) -> list[FoundCard]:
    """Every fully visible card in the view (see the module docstring)."""
    return _DEFAULT_FINDER.find(view)
