"""A card-aligned cut of the top-down view, and what its edges and its inside show
(for the card finder, :mod:`companion.vision.find`).

:class:`Patch` holds a card-sized rectangle of the fine view (``FINE_PX_PER_MM``) turned
upright, with ``reach`` pixels of surroundings on every side: where its left/right and
top/bottom sides are best supported (:meth:`Patch.locate`), the turn that lines up the
edge points along them (:meth:`Patch.straightest_turn`), and the evidence a verdict is
made of (:meth:`Patch.evidence`: how much of each side is seen, straight edges across
the inside, the border alike all round and turned by 180°, the share of card stock),
each measured only when asked for.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping

import cv2
import numpy as np

from . import kernels
from .kernels import coverage, median

FINE_PX_PER_MM = 1.0
SIDE_END_MM = 7  # left out at both ends of a side: rounded corners
RIM_MM = 10  # depth of the border compared between opposite sides
EDGE_T = 5.0  # grey levels per pixel that count as an edge at least …
NOISE_FACTOR = 3.0  # … and at least this many times the patch's median gradient
SYM_SCALE = 0.25  # border mismatch (normalised) that costs as much as a quarter of a side
TURN_POINTS = 500  # strongest edge points used to find a patch's straightest turn
BORDER_MM = (5, 16)  # depth of the border bands (left/right, top/bottom) compared turned by 180°
PAPER_DISTANCE = 45  # summed |B|+|G|+|R| difference from the inside's median colour that is still paper

OBLIQUE_INSET_MM = 8  # the printed frame (blurred, too) and a card below peeking out lie nearer the sides
OBLIQUE_GAP_PX = 4  # a line's edge may break off this often (blur, JPEG), not more: noise is no line
OBLIQUE_MAX_TURN = math.radians(50)  # lines this far from the long axis at most
OBLIQUE_MIN_LENGTH_MM = 45  # an unbroken straight edge this long is no numeral's stroke


class Patch:
    """A card-aligned cut of the fine view: columns run along the card's width, rows
    along its height, and the expected card spans [reach, reach + w] × [reach, reach + h]."""

    def __init__(self, colour: np.ndarray, reach: int, w: float, h: float):
        self.colour, self.reach, self.w, self.h = colour, reach, w, h
        grey = cv2.cvtColor(colour, cv2.COLOR_BGR2GRAY)
        self.gu = cv2.Sobel(grey, cv2.CV_32F, 1, 0, scale=0.25)
        self.gv = cv2.Sobel(grey, cv2.CV_32F, 0, 1, scale=0.25)
        # an edge must stand out of the noise and texture of this patch, not only exceed
        # a few grey levels (else a noisy cloth is edges everywhere)
        self.edge_t = max(EDGE_T, NOISE_FACTOR * median(np.abs(self.gu[::3, ::3]).ravel()))
        rows, cols = grey.shape
        end = int(SIDE_END_MM * FINE_PX_PER_MM)
        self.along_v = slice(reach + end, rows - reach - end)  # rows used for the left and right sides
        self.along_h = slice(reach + end, cols - reach - end)  # columns used for the top and bottom
        self.thin_u = kernels.thin(self.gu[self.along_v], self.edge_t)  # rows × columns
        self.thin_v = kernels.thin_transposed(self.gv[:, self.along_h], self.edge_t)  # columns × rows

    # the mean colour across the card, per column and per row (the border's look): only the
    # side search and the border check need them, not every patch
    @functools.cached_property
    def profile_u(self) -> np.ndarray:
        return cv2.reduce(self.colour[self.along_v], 0, cv2.REDUCE_AVG, dtype=cv2.CV_32F)[0]  # columns × 3

    @functools.cached_property
    def profile_v(self) -> np.ndarray:
        return cv2.reduce(self.colour[:, self.along_h], 1, cv2.REDUCE_AVG, dtype=cv2.CV_32F)[:, 0]  # rows × 3

    @classmethod
    def cut(cls, image, cx, cy, theta, w, h, reach) -> "Patch":
        c, s = math.cos(theta), math.sin(theta)
        half_w, half_h = w / 2 + reach, h / 2 + reach
        size = (int(round(2 * half_w)) + 1, int(round(2 * half_h)) + 1)
        matrix = np.array([[c, -s, cx - c * half_w + s * half_h], [s, c, cy - s * half_w - c * half_h]])
        patch = cv2.warpAffine(image, matrix, size, flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                               borderMode=cv2.BORDER_REPLICATE)
        return cls(patch, reach, w, h)

    def sides(self, positions):
        """(thin edges, |gradient|, offset of the first row, expected position) of the
        left, right, top and bottom side."""
        magnitude_u, magnitude_v = np.abs(self.gu[self.along_v]), np.abs(self.gv[:, self.along_h].T)
        return [(self.thin_u, magnitude_u, self.along_v.start, positions[0][0]),
                (self.thin_u, magnitude_u, self.along_v.start, positions[0][1]),
                (self.thin_v, magnitude_v, self.along_h.start, positions[1][0]),
                (self.thin_v, magnitude_v, self.along_h.start, positions[1][1])]

    def locate(self, rim: int = 0):
        """Offsets (du, dv) from the expected place of the best pair of opposite sides.
        ``rim``: a side may show this many pixels inside the card instead (the edge of
        an inverse deck's colour fill within its paper rim, on a pale table where the
        rim's own edge hardly shows)."""
        du = _pair_search(coverage(self.thin_u), self.profile_u, self.w, self.reach, rim)
        dv = _pair_search(coverage(self.thin_v), self.profile_v, self.h, self.reach, rim)
        return None if du is None or dv is None else (float(du), float(dv))

    def straightest_turn(self, span_deg: float, steps: int, sides, band: int) -> float:
        """The small turn (radians) that lines up the edge points within ``band`` pixels of
        the given sides ((left, right), (top, bottom) positions) best with the patch axes:
        the points are projected across the sides at trial turns and the turn whose
        projections pile up most sharply wins (the deskewing of scanned documents). Edges
        of a neighbour or of the card below, away from the sides, do not count."""
        rows, cols = self.gu.shape
        turns = _trial_turns(span_deg, steps)
        sharpness = np.zeros(steps)
        # a card turned by d from the patch axes has u = u0 - t tan(d) along its left and
        # right sides and v = v0 + t tan(d) along its top and bottom
        for thin, positions, t_offset, sign in ((self.thin_u, sides[0], self.along_v.start - (rows - 1) / 2, 1.0),
                                                (self.thin_v, sides[1], self.along_h.start - (cols - 1) / 2, -1.0)):
            centres = np.array([int(round(position)) for position in positions])
            kernels.turn_sharpness(thin, centres - band, centres + band + 1, float(t_offset), sign, turns,
                                   TURN_POINTS, 4 * EDGE_T, sharpness)
        best = int(np.argmax(sharpness))
        fraction = 0.0
        if 0 < best < steps - 1:
            curvature = sharpness[best - 1] - 2 * sharpness[best] + sharpness[best + 1]
            if curvature < 0:
                fraction = 0.5 * (sharpness[best - 1] - sharpness[best + 1]) / curvature
        return math.radians(-span_deg + (best + fraction) * 2 * span_deg / (steps - 1))

    def fine_offsets(self) -> tuple[float, float]:
        """Sub-pixel offsets from the median edge position along each side (sides with few
        edge points, or more than 1.5 px off, are left out)."""
        r = self.reach
        sides = self.sides(((r, r + self.w), (r, r + self.h)))
        out = []
        for left, right in (sides[:2], sides[2:]):
            shifts = []
            for thin, magnitude, _, position in (left, right):
                found = side_positions(thin, magnitude, position)
                if found is not None and len(found) >= 0.4 * thin.shape[0]:
                    shifts.append(median(found) - position)
            shifts = [x for x in shifts if abs(x) <= 1.5]
            out.append(float(np.mean(shifts)) if shifts else 0.0)
        return out[0], out[1]

    def evidence(self) -> "Evidence":
        """What the outline and the inside of the card at the patch centre show (each item
        measured when first asked for)."""
        return Evidence(self)

    @functools.cached_property
    def _cover_u(self) -> np.ndarray:
        return coverage(self.thin_u)

    def sides_seen(self) -> tuple[float, float, float, float]:
        """The share of the left, right, top and bottom side on an edge."""
        r, wi, hi = self.reach, int(round(self.w)), int(round(self.h))
        cover_u, cover_v = self._cover_u, coverage(self.thin_v)
        return float(cover_u[r]), float(cover_u[r + wi]), float(cover_v[r]), float(cover_v[r + hi])

    def crossing(self) -> tuple[float, float]:
        """The largest share of the inside's height (and width) one straight edge parallel
        to the sides covers."""
        r, wi, hi = self.reach, int(round(self.w)), int(round(self.h))
        inner = int(8 * FINE_PX_PER_MM)
        # across the short way numerals are wide: count edges along the whole width
        cover_across = coverage(kernels.thin_transposed(self.gv[:, r:r + wi + 1], self.edge_t))
        return float(self._cover_u[r + inner:r + wi - inner].max()), float(cover_across[r + inner:r + hi - inner].max())

    def border_mismatch(self) -> float:
        """How much the border just inside the sides differs along the width and the height."""
        r, wi, hi = self.reach, int(round(self.w)), int(round(self.h))
        depth = int(RIM_MM * FINE_PX_PER_MM)
        along_width, _ = _inward(self.profile_u, r, r + wi, depth)
        along_height, _ = _inward(self.profile_v, r, r + hi, depth)
        return float(np.abs(along_width - along_height).mean() / _scale(along_width, along_height))

    def oblique_crossing(self) -> float:
        """The largest share of a straight line across the inside, at any angle, that lies
        on one unbroken edge of at least ``OBLIQUE_MIN_LENGTH_MM``. A card lying across
        this one shows its edge as such a line, turned by however much the two cards
        differ (the column coverage in ``crossing`` sees only lines parallel to the
        sides); numerals' strokes are shorter, and lines across the width, where a
        two-digit numeral's base line can reach, are left to ``crossing``."""
        r, inset = self.reach, int(round(OBLIQUE_INSET_MM * FINE_PX_PER_MM))
        x0, y0 = r + inset, r + inset
        x1, y1 = r + int(round(self.w)) - inset, r + int(round(self.h)) - inset
        # Canny's thin, linked edges from the patch's own gradients (kept at a quarter scale)
        # (taken 2 px wider, as Canny marks the border of what it is given)
        du = np.ascontiguousarray(self.gu[y0 - 2:y1 + 2, x0 - 2:x1 + 2] * 4).astype(np.int16)
        dv = np.ascontiguousarray(self.gv[y0 - 2:y1 + 2, x0 - 2:x1 + 2] * 4).astype(np.int16)
        edges = np.ascontiguousarray(cv2.Canny(du, dv, 2 * self.edge_t, 4 * self.edge_t, L2gradient=True)[2:-2, 2:-2])
        length = OBLIQUE_MIN_LENGTH_MM * FINE_PX_PER_MM
        segments = cv2.HoughLinesP(edges, 1, math.radians(1), int(length / 2), minLineLength=length,
                                   maxLineGap=OBLIQUE_GAP_PX)
        if segments is None:
            return 0.0
        best = 0.0
        for xa, ya, xb, yb in np.asarray(segments, np.float64).reshape(-1, 4):
            if abs(xb - xa) > math.tan(OBLIQUE_MAX_TURN) * abs(yb - ya):
                continue  # across the width: a numeral's base line can span it (``crossing`` covers these)
            theta = math.atan2(xb - xa, ya - yb)  # the normal's angle, as in the Hough transform
            rho = xa * math.cos(theta) + ya * math.sin(theta)
            best = max(best, min(1.0, math.hypot(xb - xa, yb - ya) / max(_chord(rho, theta, x1 - x0, y1 - y0), 1.0)))
        return best

    def paper_share(self) -> float:
        """The share of the inside within a small colour distance of its median colour:
        card stock (or an inverse card's ink) covers most of a face, a piece of patterned
        tablecloth mixes colours in similar shares."""
        r, inset = self.reach, 3
        inside = self.colour[r + inset:r + int(round(self.h)) - inset:2, r + inset:r + int(round(self.w)) - inset:2]
        pixels = inside.reshape(-1, 3).astype(np.int16)
        return float((np.abs(pixels - np.median(pixels, axis=0)).sum(axis=1) <= PAPER_DISTANCE).mean())

    def turned_likeness(self) -> float:
        """Normalised correlation of the card's border band with itself turned by 180°:
        rim, frame and corner indices look the same either way up; a card half hidden
        under another, or a piece of table, do not."""
        grey = cv2.cvtColor(self.colour, cv2.COLOR_BGR2GRAY).astype(np.float32)
        grey -= cv2.GaussianBlur(grey, (0, 0), 4.0)  # light falling off across the card is no content
        rows, cols = grey.shape
        r = self.reach
        band_v, band_u = int(BORDER_MM[1] * FINE_PX_PER_MM), int(BORDER_MM[0] * FINE_PX_PER_MM)
        mask = np.zeros((rows, cols), bool)
        mask[r + 1:rows - r - 1, r + 1:cols - r - 1] = True
        mask[r + band_v:rows - r - band_v, r + band_u:cols - r - band_u] = False
        a, b = grey[mask], grey[::-1, ::-1][mask]
        a, b = a - a.mean(), b - b.mean()
        denominator = math.sqrt(float(np.dot(a, a)) * float(np.dot(b, b)))
        return float(np.dot(a, b) / denominator) if denominator > 1e-6 else 0.0


class Evidence(Mapping):
    """A patch's evidence (``sides``, ``crossing``, ``mismatch``, ``turned``, ``paper``,
    ``oblique``), each measured on first access and kept: choosing between two starts
    needs only the sides and the turned likeness, a crossing edge rejects an outline
    before the line search runs, and an ``occlusion_only`` verdict never looks at the
    border mismatch or the paper."""

    def __init__(self, patch: Patch):
        self._measures = {"sides": patch.sides_seen, "crossing": patch.crossing, "mismatch": patch.border_mismatch,
                          "turned": patch.turned_likeness, "paper": patch.paper_share,
                          "oblique": patch.oblique_crossing}
        self._values: dict = {}

    def __getitem__(self, key: str):
        if key not in self._values:
            self._values[key] = self._measures[key]()
        return self._values[key]

    def __iter__(self):
        return iter(self._measures)

    def __len__(self) -> int:
        return len(self._measures)

    def __repr__(self) -> str:
        return repr(dict(self))


# --- helpers ---------------------------------------------------------------------------------

@functools.lru_cache(maxsize=8)
def _trial_turns(span_deg: float, steps: int) -> np.ndarray:
    """tan of ``steps`` turns evenly from -``span_deg`` to ``span_deg`` (read only: shared)."""
    turns = np.tan(np.radians(np.linspace(-span_deg, span_deg, steps)))
    turns.flags.writeable = False
    return turns


def _inward(profile: np.ndarray, start: int, end: int, depth: int) -> tuple[np.ndarray, np.ndarray]:
    """The border just inside two opposite sides, both read from the side inwards, each
    less its own mean (light falling off across the card cancels)."""
    first, second = profile[start + 1:start + 1 + depth], profile[end - 1:end - 1 - depth:-1]
    return first - first.mean(axis=0), second - second.mean(axis=0)


def _scale(a: np.ndarray, b: np.ndarray) -> float:
    return float(max(8.0, np.abs(a).mean() + np.abs(b).mean()))


def _pair_search(cover: np.ndarray, profile: np.ndarray, length: float, reach: int, rim: int = 0) -> int | None:
    """The offset (from the expected place) of the best pair of opposite sides: both
    present, and the borders inside them alike (``kernels.pair_search``)."""
    return kernels.pair_search(cover, profile, int(round(length)), reach, int(RIM_MM * FINE_PX_PER_MM), rim,
                               0.25 / SYM_SCALE)


def side_positions(thin_rows, magnitude, position, window=1, keep_rows=False):
    """Per row, the sub-pixel position of the edge nearest to ``position`` (within
    ``window`` pixels); None when no row has one."""
    low, high = int(round(position)) - window, int(round(position)) + window + 1
    if low < 1 or high > thin_rows.shape[1] - 1:
        return None
    rows, positions = kernels.side_positions(thin_rows, magnitude, low, high)
    if not len(rows):
        return None
    return (rows, positions) if keep_rows else positions


def _chord(rho: float, theta: float, width: int, height: int) -> float:
    """Length of the line x cos(theta) + y sin(theta) = rho inside [0, width] × [0, height]."""
    c, s = math.cos(theta), math.sin(theta)
    points = []
    if abs(s) > 1e-9:
        points += [(x, (rho - x * c) / s) for x in (0.0, float(width))]
    if abs(c) > 1e-9:
        points += [((rho - y * s) / c, y) for y in (0.0, float(height))]
    inside = [(x, y) for x, y in points if -1e-6 <= x <= width + 1e-6 and -1e-6 <= y <= height + 1e-6]
    if len(inside) < 2:
        return 0.0
    return max(math.hypot(a[0] - b[0], a[1] - b[1]) for a in inside for b in inside)


__all__ = ["FINE_PX_PER_MM", "Evidence", "Patch", "coverage", "side_positions"]
