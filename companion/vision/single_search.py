"""Finding a card on the top-down view by its size alone: ``searched_outlines(view)``.

The last resort of :mod:`companion.vision.single`, for a card the play-area finder and
the segmentations miss: a cream card on a cream cloth with printed dots, a white card
on a red check. With the play-area markers in view a card is exactly 59 × 91 mm, so
every position and turn of a rectangle of that size is tried on a coarse view whose
tablecloth pattern has been wiped out by a median filter (:func:`_search_poses`); the
best few are fitted on the full view (:func:`_fit_pose`). Each outline found is only a
candidate: the caller keeps the one whose middle shows the card's number.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from .profile import CARD_MM

_SEARCH_STEP_DEG = 4.0  # turns tried by the search (the side sums tolerate half of it)
# (median filter in mm, weight of the texture it took away), tried in turn: a wide median
# leaves a plain colour where dots and checks were; a narrower one, with the texture it
# took away, tells a plain card from a cloth of the same colour
SEARCH_FILTERS = ((25, 0.0), (13, 1.0))
_SEARCH_KEEP = 5  # poses kept per search
_TEXTURE_MM = 4.0  # the texture is averaged over about this much (Gaussian sigma)
_SIDE_SHARE = 0.7  # of each side summed: the rounded corners and the corner indices left out
_FIT_REACH_PX = 16  # the fit looks this far (view px, 0.5 mm) around the search's pose …
_FIT_TURN_DEG = 4.0  # … and turns it this much either way from each turn it is given
_FIT_SIZE_PX = 3  # … and lets each pair of sides be this much nearer or further apart


def searched_outlines(view, median_mm: int, texture_weight: float) -> list[np.ndarray]:
    """Card outlines (frame pixels) found on the top-down view by their size alone, the
    strongest first: :func:`_search_poses` on a coarse view filtered so (one of
    :data:`SEARCH_FILTERS`), then :func:`_fit_pose` from the search's turn and from the
    turns of the straight edges around (:func:`_edge_turns`), as a faint card's turn is
    vague in the search."""
    outlines = []
    for centre, turn, contrast in _search_poses(view, median_mm, texture_weight):
        turns = [turn, *(t + k for t in _edge_turns(view.image, centre, view.px_per_mm) for k in (0.0, 90.0))]
        outlines += _fit_pose(view.image, view.px_per_mm, centre, turns, contrast)
    return [view.view_to_frame(corners) for _, corners in sorted(outlines, key=lambda fit: -fit[0])]


def _edge_turns(image: np.ndarray, centre: np.ndarray, px_per_mm: float, count: int = 3) -> list[float]:
    """The turns (degrees, 0-90) at which most edges run around ``centre``: a card's
    sides are long straight edges, a cloth's dots have edges every way."""
    reach = round(0.5 * math.hypot(*CARD_MM) * px_per_mm) + 10
    x, y = np.round(centre).astype(int)
    patch = image[max(y - reach, 0):y + reach, max(x - reach, 0):x + reach].astype(np.float32).mean(axis=2)
    gx, gy = cv2.Sobel(patch, cv2.CV_32F, 1, 0), cv2.Sobel(patch, cv2.CV_32F, 0, 1)
    bins = cv2.phase(gx, gy, angleInDegrees=True).astype(int).ravel() % 90
    histogram = np.bincount(bins, weights=cv2.magnitude(gx, gy).ravel(), minlength=90)
    kernel = np.exp(-0.5 * (np.arange(-4, 5) / 1.5) ** 2)
    smooth = np.convolve(np.concatenate([histogram[-4:], histogram, histogram[:4]]), kernel, mode="valid")
    peaks = [i for i in range(90) if smooth[i] >= smooth[i - 1] and smooth[i] >= smooth[(i + 1) % 90]]
    return [float(i) for i in sorted(peaks, key=lambda i: -smooth[i])[:count]]


def _search_poses(view, median_mm: int, texture_weight: float) -> list[tuple[np.ndarray, float, np.ndarray]]:
    """(centre in view pixels, turn in degrees, colour contrast of the card over the table)
    of the rectangles of a card's size whose sides best follow one change of colour.

    The view at 1 px/mm is median filtered (printed dots and checks smaller than about
    half the filter vanish, a card's straight edges stay), reduced to 0.5 px/mm and
    turned in steps; on each turn the colour's change across each side of an upright
    (and of a lying) card, summed along the side, is compared at every position. A card
    changes the colour the same way on all four sides: the score is the weakest side's
    change in the direction of the four sides' sum, so a single line of a check, a
    shadow's edge or the pattern of the cloth scores low."""
    raw, scale = view.resampled(1.0)
    raw = raw[:raw.shape[0] // 2 * 2, :raw.shape[1] // 2 * 2]
    smooth = cv2.medianBlur(raw, median_mm | 1)
    # what the median filter took away, averaged: the pattern of a cloth, none on a card
    texture = cv2.GaussianBlur(cv2.absdiff(raw, smooth).astype(np.float32).sum(axis=2), (0, 0), _TEXTURE_MM)
    image = cv2.merge([*cv2.split(smooth.astype(np.float32)), texture * texture_weight])
    image = cv2.resize(image, (raw.shape[1] // 2, raw.shape[0] // 2), interpolation=cv2.INTER_AREA)
    image = cv2.GaussianBlur(image, (0, 0), 1.0)
    height, width = image.shape[:2]
    size = int(math.ceil(math.hypot(width, height))) + 4
    card_w, card_h = CARD_MM[0] * 0.5, CARD_MM[1] * 0.5
    ones = np.ones((1, 4), np.float32)
    found = []
    for turn in np.arange(-45.0, 45.0, _SEARCH_STEP_DEG):
        matrix = _turning(turn, (width / 2, height / 2), (size / 2, size / 2))
        turned = cv2.warpAffine(image, matrix, (size, size), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        gx = cv2.Sobel(turned, cv2.CV_32F, 1, 0, ksize=3, scale=0.125)
        gy = cv2.Sobel(turned, cv2.CV_32F, 0, 1, ksize=3, scale=0.125)
        back = cv2.invertAffineTransform(matrix)
        cos, sin = abs(math.cos(math.radians(turn))), abs(math.sin(math.radians(turn)))
        extent = (0.5 * (width * cos + height * sin), 0.5 * (width * sin + height * cos))  # of the turned picture
        for w, h, lying in ((card_w, card_h, False), (card_h, card_w, True)):
            hw, hh = round(w / 2), round(h / 2)
            # centres of cards that may lie whole in the picture (checked exactly below)
            x0, y0 = (max(half + 1, math.floor(size / 2 - e + half)) for e, half in zip(extent, (hw, hh)))
            x1, y1 = (min(size - half - 1, math.ceil(size / 2 + e - half)) for e, half in zip(extent, (hw, hh)))
            if x1 <= x0 or y1 <= y0:
                continue
            columns = cv2.boxFilter(gx, -1, (1, max(3, round(_SIDE_SHARE * h))), borderType=cv2.BORDER_CONSTANT)
            rows = cv2.boxFilter(gy, -1, (max(3, round(_SIDE_SHARE * w)), 1), borderType=cv2.BORDER_CONSTANT)
            # each side's change towards the card's inside, for a card centred on each pixel
            sides = (columns[y0:y1, x0 - hw:x1 - hw], -columns[y0:y1, x0 + hw:x1 + hw],
                     rows[y0 - hh:y1 - hh, x0:x1], -rows[y0 + hh:y1 + hh, x0:x1])
            total = sides[0] + sides[1] + sides[2] + sides[3]
            norm = cv2.sqrt(cv2.transform(total * total, ones)) + 1e-6
            score = None
            for side in sides:
                along = cv2.transform(side * total, ones)
                score = along if score is None else np.minimum(score, along)
            score /= norm
            peaks = np.flatnonzero(((score >= cv2.dilate(score, np.ones((5, 5), np.uint8))) & (score > 0)).ravel())
            peaks = peaks[np.argsort(score.ravel()[peaks])[-10:]]
            reach = 0.5 * math.hypot(w, h)
            for y, x in zip(*np.divmod(peaks, x1 - x0)):
                cx, cy = back @ (x + x0, y + y0, 1.0)
                if reach <= cx <= width - 1 - reach and reach <= cy <= height - 1 - reach:  # the whole card in view
                    centre = (np.array([cx, cy]) + 0.5) * 2 * scale - 0.5  # 0.5 px/mm → view px
                    found.append((float(score[y, x]), centre, turn + (90.0 if lying else 0.0), total[y, x, :3]))
    found.sort(key=lambda f: -f[0])
    chosen: list = []
    for _, centre, turn, contrast in found:
        if all(np.hypot(*(centre - c)) > 0.4 * CARD_MM[0] * view.px_per_mm for c, _, _ in chosen):
            chosen.append((centre, turn, contrast))
        if len(chosen) == _SEARCH_KEEP:
            break
    return chosen


def _turning(degrees: float, centre, to) -> np.ndarray:
    """The affine map that turns the image by ``degrees`` about ``centre`` and puts it at ``to``."""
    matrix = cv2.getRotationMatrix2D((float(centre[0]), float(centre[1])), float(degrees), 1.0)
    matrix[:, 2] += np.asarray(to, np.float64) - np.asarray(centre, np.float64)
    return matrix


def _fit_pose(image: np.ndarray, px_per_mm: float, centre: np.ndarray, turns: list[float],
              contrast: np.ndarray) -> list[tuple[float, np.ndarray]]:
    """(score, the card's corners in view pixels) near a pose of the search, one for each
    of ``turns`` (a cloth's lines can fit better than the card, so every turn's best is
    kept): turned up to ``_FIT_TURN_DEG`` either way and, per pair of opposite sides,
    the two positions, a card's size apart within ``_FIT_SIZE_PX``, where the colour
    changes most the way it does from table to card."""
    w, h = CARD_MM[0] * px_per_mm, CARD_MM[1] * px_per_mm
    reach = round(0.5 * math.hypot(w, h)) + _FIT_REACH_PX + 2
    x, y = np.round(centre).astype(int)
    x0, y0 = max(x - reach, 0), max(y - reach, 0)
    # the picture seen along the table-to-card colour change: one channel to turn and compare
    direction = np.float32(contrast / max(float(np.linalg.norm(contrast)), 1e-6))
    near = image[y0:y + reach, x0:x + reach].astype(np.float32) @ direction
    near = cv2.GaussianBlur(near, (0, 0), 0.8)
    local = centre - (x0, y0)
    outlines, kept = [], []
    for turn in turns:
        if any(abs((turn - other + 90) % 180 - 90) < 2 for other in kept):
            continue  # the same turn (mod 180) as one fitted already
        kept.append(turn)
        best = (-np.inf, turn)
        for extras in (np.arange(-_FIT_TURN_DEG, _FIT_TURN_DEG + 0.01, 1.0), np.arange(-0.75, 0.76, 0.25)):
            best = max((_fit_turned(near, local, best[1] + extra, w, h) for extra in extras), key=lambda fit: fit[0])
        score, _, matrix, corners = best
        back = cv2.invertAffineTransform(matrix)
        outlines.append((score, corners @ back[:, :2].T + back[:, 2] + (x0, y0)))
    return outlines


def _fit_turned(near: np.ndarray, centre: np.ndarray, turn: float, w: float, h: float):
    """(score, turn, matrix, corners in the turned patch) of the best card-sized
    rectangle, the patch turned by ``turn`` about ``centre``."""
    reach = _FIT_REACH_PX
    width, height = round(w) + 2 * reach, round(h) + 2 * reach
    matrix = _turning(turn, centre, (width / 2 - 0.5, height / 2 - 0.5))
    patch = cv2.warpAffine(near, matrix, (width, height), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    gx = cv2.Sobel(patch, cv2.CV_32F, 1, 0, ksize=3, scale=0.125)
    gy = cv2.Sobel(patch, cv2.CV_32F, 0, 1, ksize=3, scale=0.125)
    inset_x, inset_y = round(reach + 0.15 * w), round(reach + 0.15 * h)
    # the median along the side (every second pixel suffices): a card's edge runs along
    # all of it, a row of dots or the crossing line of a check along less than half
    (x0, x1, sx) = _edge_pair(np.median(gx[inset_y:height - inset_y:2], axis=0), w)
    (y0, y1, sy) = _edge_pair(np.median(gy[:, inset_x:width - inset_x:2], axis=1), h)
    return sx + sy, turn, matrix, np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]])


def _edge_pair(profile: np.ndarray, length: float) -> tuple[float, float, float]:
    """Positions (sub-pixel) of the rise and the fall, about ``length`` apart, that are
    both strongest, and the weaker one's strength."""
    n = len(profile)
    starts = np.arange(n)[:, None]
    ends = starts + round(length) + np.arange(-_FIT_SIZE_PX, _FIT_SIZE_PX + 1)[None, :]
    valid = ends < n
    strength = np.where(valid, np.minimum(profile[:, None], -profile[np.minimum(ends, n - 1)]), -np.inf)
    a, k = np.unravel_index(int(np.argmax(strength)), strength.shape)
    b = int(ends[a, k])
    return a + peak_shift(profile, int(a)), b + peak_shift(-profile, b), float(strength[a, k])


def peak_shift(values: np.ndarray, k: int) -> float:
    """Sub-sample position of the peak at ``k`` (a parabola through it and its neighbours)."""
    if not 0 < k < len(values) - 1:
        return 0.0
    denominator = values[k - 1] - 2 * values[k] + values[k + 1]
    if denominator >= 0:
        return 0.0
    # beyond half a sample the peak would be the neighbour's (k need not be a local maximum)
    return float(np.clip(0.5 * (values[k - 1] - values[k + 1]) / denominator, -0.5, 0.5))
