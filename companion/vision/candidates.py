"""Where cards may lie: step 1 of :mod:`companion.vision.find`.

In a coarse top-down view (0.5 px/mm) thin edges (Canny) are split into near-vertical
and near-horizontal ones. For five card angles (−20° … 20°) the two edge maps are turned
so that such cards stand upright and box-filtered along a card's sides: every pixel then
knows how much of the outline of a card centred on it is there (chamfer matching with
the known size). Local maxima where all four sides are present, no straight edge runs
right across the inside and the inside is not as busy as a patterned tablecloth become
candidates, best first. Near a better candidate only one turned at least
``CANDIDATE_TURNED_DEG`` against it is kept too (after all the others): on a squared-up
pile the pile's edges outscore the top card turned far against it.
"""

from __future__ import annotations

import functools
import math

import cv2
import numpy as np

COARSE_PX_PER_MM = 0.5
CANDIDATE_ANGLES_DEG = (-20.0, -10.0, 0.0, 10.0, 20.0)
CANDIDATE_MIN_SIDE = 0.2  # share of every side of a candidate outline on an edge
CANDIDATE_MIN_SCORE = 0.55  # mean share of the four sides
CANDIDATE_SPACING_MM = 12.0  # candidates closer than this are one
CANDIDATE_INSET_PX = 5  # columns this close to a side may hold the border print
CANDIDATE_MAX_CROSSING = 0.8  # share of the inside's height one straight edge may cover
CANDIDATE_MAX_DENSITY = 0.6  # share of the inside on an edge: cards 0.2–0.5, patterned cloth 0.5–0.85
# Candidates a frame at most: a plaid cloth's squares outline card-sized rectangles, 100–160
# of them, and the cards lying on it can rank below many of those; each candidate more
# costs little time on other tables.
MAX_CANDIDATES = 90
# A candidate near a better one but turned at least this much against it: the top card of
# a squared-up pile turned far against it (at most this many a frame, after all the
# others).
CANDIDATE_TURNED_DEG, MAX_TURNED_CANDIDATES = 15.0, 10


def card_candidates(grey: np.ndarray, card_mm: tuple[float, float]) -> list[tuple[float, float, float, float]]:
    """Places where a card of ``card_mm`` may lie in a grey view at ``COARSE_PX_PER_MM``:
    (x, y, angle in radians, score) in coarse pixels, best first."""
    s = COARSE_PX_PER_MM
    dx, dy = cv2.Sobel(grey, cv2.CV_16S, 1, 0), cv2.Sobel(grey, cv2.CV_16S, 0, 1)
    edges = cv2.Canny(dx, dy, 20, 40, L2gradient=True)
    ax, ay = cv2.convertScaleAbs(dx, alpha=0.25), cv2.convertScaleAbs(dy, alpha=0.25)
    steep = math.tan(math.radians(35))
    vertical = cv2.bitwise_and(edges, cv2.compare(ay, cv2.multiply(ax, steep, dtype=cv2.CV_8U), cv2.CMP_LE))
    horizontal = cv2.bitwise_and(edges, cv2.compare(ax, cv2.multiply(ay, steep, dtype=cv2.CV_8U), cv2.CMP_LE))
    height, width = grey.shape
    half_w, half_h = int(round(card_mm[0] * s / 2)), int(round(card_mm[1] * s / 2))
    along_v, along_h = int(0.7 * card_mm[1] * s), int(0.7 * card_mm[0] * s)
    spacing = max(3, int(CANDIDATE_SPACING_MM * s) | 1)
    inner = (2 * (half_w - CANDIDATE_INSET_PX) + 1, 2 * (half_h - CANDIDATE_INSET_PX) + 1)
    found = []
    for angle_deg in CANDIDATE_ANGLES_DEG:
        theta = math.radians(angle_deg)
        turn, size = _upright_turn(theta, width, height)
        upright_v = cv2.dilate(cv2.warpAffine(vertical, turn, size), np.ones((1, 3), np.uint8))
        upright_h = cv2.dilate(cv2.warpAffine(horizontal, turn, size), np.ones((3, 1), np.uint8))
        sides_v = cv2.boxFilter(upright_v, cv2.CV_32F, (1, along_v), normalize=True)
        sides_h = cv2.boxFilter(upright_h, cv2.CV_32F, (along_h, 1), normalize=True)
        rows, cols = size[1], size[0]
        centre = (slice(half_h, rows - half_h), slice(half_w, cols - half_w))  # possible card centres
        left, right = sides_v[centre[0], 0:cols - 2 * half_w], sides_v[centre[0], 2 * half_w:cols]
        top, bottom = sides_h[0:rows - 2 * half_h, centre[1]], sides_h[2 * half_h:rows, centre[1]]
        score = cv2.add(cv2.add(left, right), cv2.add(top, bottom)) * (0.25 / 255)
        score[cv2.min(cv2.min(left, right), cv2.min(top, bottom)) < CANDIDATE_MIN_SIDE * 255] = 0
        # a straight edge right across the inside: another card lies on this one, or the
        # "card" is a square of a checked tablecloth
        crossing = cv2.dilate(sides_v, np.ones((1, inner[0]), np.uint8))[centre]
        score[crossing > CANDIDATE_MAX_CROSSING * 255] = 0
        # edges all over the inside: a patterned cloth (numerals are sparse)
        density = cv2.boxFilter(cv2.add(upright_v, upright_h), cv2.CV_32F, inner, normalize=True)[centre]
        score[density > CANDIDATE_MAX_DENSITY * 255] = 0
        peaks = (score >= cv2.dilate(score, np.ones((spacing, spacing), np.uint8))) & (score >= CANDIDATE_MIN_SCORE)
        ys, xs = np.nonzero(peaks)
        back = cv2.invertAffineTransform(turn)
        px, py = xs + half_w, ys + half_h
        found.append(np.column_stack([back[0, 0] * px + back[0, 1] * py + back[0, 2],
                                      back[1, 0] * px + back[1, 1] * py + back[1, 2],
                                      np.full(len(xs), theta), score[ys, xs]]))
    found = np.concatenate(found)
    found = found[np.argsort(-found[:, 3], kind="stable")]
    kept: list[np.ndarray] = []
    turned: list[np.ndarray] = []  # where a card lies turned on a pile, the pile's edges make the better candidate
    for item in found:
        near = _near(kept, item, CANDIDATE_SPACING_MM * s)
        if not near.any():
            if len(kept) < MAX_CANDIDATES:
                kept.append(item)
        elif len(turned) < MAX_TURNED_CANDIDATES and not np.any(
                np.abs(np.array(kept)[near, 2] - item[2]) < math.radians(CANDIDATE_TURNED_DEG)) and not np.any(
                _near(turned, item, CANDIDATE_SPACING_MM * s)):
            turned.append(item)
        if len(kept) == MAX_CANDIDATES and len(turned) == MAX_TURNED_CANDIDATES:
            break
    return [tuple(float(v) for v in item) for item in kept + turned]


def _near(items: list[np.ndarray], item: np.ndarray, distance: float) -> np.ndarray:
    if not items:
        return np.zeros(0, bool)
    return np.sum((np.array(items)[:, :2] - item[:2]) ** 2, axis=1) < distance ** 2


@functools.lru_cache(maxsize=16)
def _upright_turn(theta: float, width: int, height: int) -> tuple[np.ndarray, tuple[int, int]]:
    """The affine map that turns a width × height picture by -theta (cards lying at theta
    stand upright) onto a canvas holding all of it, and the canvas size."""
    c, s = math.cos(theta), math.sin(theta)
    turn = np.array([[c, s, 0.0], [-s, c, 0.0]])
    box = np.array([[0, 0], [width, 0], [width, height], [0, height]], np.float64) @ turn[:, :2].T
    low = box.min(axis=0)
    turn[:, 2] = -low
    return turn, tuple(int(v) for v in np.ceil(box.max(axis=0) - low) + 1)
