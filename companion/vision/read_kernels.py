"""The reader's inner loops: what :mod:`companion.vision.ink` and
:mod:`companion.vision.glyphs` do to every card read, a dozen times a frame.

As for the finder (:mod:`companion.vision.kernels`): on a card of 59 × 91 pixels numpy's
cost per call, not the arithmetic, is most of the time (an operation broadcast over a
pixel's three channels runs its inner loop three elements at a time), so each is also
written in C (``_kernels.c``) and used where it was built; the numpy versions below give
the same results and stand in where it was not.
"""

from __future__ import annotations

import functools

import cv2
import numpy as np

from .kernels import COMPILED, _float32, _kernels, median, row_medians

_ONES = np.ones((1, 3), np.float32)


def normalised(card: np.ndarray, field: np.ndarray, typical: np.ndarray) -> np.ndarray:
    """The card (uint8 BGR) divided by its background ``field`` (float32 BGR), the excess
    over the card's ``typical`` background (float32, per channel) taken off first:
    (card - field + d) / d with d = min(field, typical), in float32."""
    typical = np.asarray(typical, np.float32)
    if _kernels is None:
        return _numpy_normalised(card, field, typical)
    out = np.empty(card.shape, np.float32)
    _kernels.normalise(card, field, typical, out)
    return out


def projected(image: np.ndarray, weights: np.ndarray, top: int, left: int, height: int, width: int) -> np.ndarray:
    """Of the ``height`` × ``width`` crop at (``top``, ``left``) of a normalised card
    (float32 BGR, background 1), each pixel's offset from the background times
    ``weights`` (float32, 3), summed over the channels (float32)."""
    weights = np.asarray(weights, np.float32)
    if _kernels is None:
        crop = image[top:top + height, left:left + width]
        return cv2.transform(crop - np.float32(1.0), weights.reshape(1, 3))
    out = np.empty((height, width), np.float32)
    _kernels.projected(image, weights, top, left, out)
    return out


def window_rows(region: np.ndarray, h: int, w: int, step: int) -> tuple[np.ndarray, np.ndarray]:
    """Every ``h`` × ``w`` window of ``region`` (float32; top-left corners every ``step``
    pixels, rows first) as a row of one matrix (windows × h·w, float32), and each window's
    spread: the root of its summed squared deviations from its mean (float32, at least
    about 3e-5)."""
    down, across = (region.shape[0] - h) // step + 1, (region.shape[1] - w) // step + 1
    if _kernels is None:
        return _numpy_window_rows(region, h, w, step, down, across)
    windows = np.empty((down * across, h * w), np.float32)
    norms = np.empty(down * across, np.float32)
    _kernels.window_rows(region, h, w, step, windows, norms)
    return windows, norms


def channel_ranks(pixels: np.ndarray, rank: int) -> np.ndarray:
    """Per channel of ``pixels`` (N × channels, float32) the ``rank``-th smallest value
    (``np.partition(pixels, rank, axis=0)[rank]``)."""
    if _kernels is None:
        return np.partition(pixels, rank, axis=0)[rank]
    out = np.empty(pixels.shape[1], np.float32)
    _kernels.channel_ranks(pixels, int(rank), out)
    return out


def strongest(pixels: np.ndarray, quantile: float, share_of: float = 0.0) -> tuple[np.ndarray, float, int]:
    """Of the pixels (N × 3, normalised: background 1), their squared distances from
    (1, 1, 1): the ``quantile``'s distance ``far``; the per-channel median (float32) of
    the pixels at least 0.6 ``far`` away, (1, 1, 1) where ``far`` is tiny; and how many
    lie at least ``share_of`` ``far`` away."""
    pixels = np.ascontiguousarray(pixels, np.float32).reshape(-1, 3)
    if _kernels is None:
        return _numpy_strongest(pixels, quantile, share_of)
    colour = np.empty(3, np.float32)
    far, count = _kernels.strongest(pixels, float(quantile), float(share_of), colour)
    return colour, far, count


def ring_paper_and_near_sum(normalised: np.ndarray, near: np.ndarray,
                            ring: np.ndarray) -> tuple[int, np.ndarray, int, np.ndarray]:
    """Of an image (rows × columns × 3, float32) and two masks (uint8, 0 or 1): how many
    pixels lie in ``ring`` but not in ``near`` and their per-channel median (float32;
    meaningless where there are none), how many lie in ``near`` and their sum per channel
    (float64)."""
    normalised = _float32(normalised)
    if _kernels is None:
        return _numpy_ring_paper_and_near_sum(normalised, near, ring)
    paper, near_sum = np.ones(3, np.float32), np.empty(3)
    ring_count, near_count = _kernels.ring_and_near(normalised, near, ring, paper, near_sum)
    return ring_count, paper, near_count, near_sum


def stroke_ink(normalised: np.ndarray, rows: np.ndarray, cols: np.ndarray, top: int, left: int,
               near: np.ndarray, ring: np.ndarray, origin: tuple[int, int], take: bool,
               darkest_channels: np.ndarray) -> np.ndarray:
    """The colour (float32 BGR) of a numeral's strokes on a normalised card (float32 BGR),
    the stroke pixels ``rows``, ``cols`` (int64) offset by ``top``, ``left`` and lying
    wholly on it. Where ``take``: what the strokes take from the paper around them in all,
    per stroke pixel (``near`` and ``ring``: uint8 masks with their top-left at ``origin``,
    (row, column), cut where they reach over the card's edge; the paper is the median of
    the ring outside near, and must count at least as many pixels as the strokes), and
    on ``darkest_channels`` (B, G, R bools) the median of the darkest stroke pixels
    (:func:`strongest` at 0.9). Without ``take``, or where the ring is too small, the
    darkest pixels' colour on every channel."""
    if _kernels is None:
        return _numpy_stroke_ink(_float32(normalised), rows, cols, top, left, near, ring, origin, take,
                                 darkest_channels)
    out = np.empty(3, np.float32)
    bits = int(darkest_channels[0]) | int(darkest_channels[1]) << 1 | int(darkest_channels[2]) << 2
    _kernels.stroke_ink(_float32(normalised), rows, cols, int(top), int(left), near, ring, int(origin[0]),
                        int(origin[1]), bool(take), bits, out)
    return out


def taken_from_paper(ring_count: int, paper: np.ndarray, near_count: int, near_sum: np.ndarray,
                     count: int) -> np.ndarray | None:
    """The colour (float32 BGR) of ``count`` stroke pixels fully inked, from what the
    ``near_count`` pixels around them (``near_sum``: their sum) take from the ``paper``
    (its level on a ring of ``ring_count`` pixels): float64 arithmetic, as the C
    ``stroke_ink`` does it. None where the ring has fewer pixels than the strokes."""
    if ring_count < count:
        return None
    paper = np.maximum(paper.astype(np.float64), 1e-3)
    taken = (paper * near_count - near_sum) / paper
    return (1.0 - taken / count).astype(np.float32)


def weakest_edge(across: np.ndarray, shears: np.ndarray, blocks: int, left: int, right: int) -> float:
    """Of a map of horizontal edges (rows × columns, float32) cut into ``blocks`` blocks
    of rows: each block's column means, shifted back by each of ``shears`` (columns per
    row) times the block's offset from the middle (linearly interpolated); per shear the
    weakest block in each column; the most that is, in columns [left, right), above its
    shear's median over every column."""
    across = _float32(across)
    shears = np.asarray(shears, np.float64)
    if _kernels is None:
        return _numpy_weakest_edge(across, shears, blocks, left, right)
    return _kernels.weakest_edge(across, shears, int(blocks), int(left), int(right))


def quantiles_u8(grey: np.ndarray, low: int, high: int) -> tuple[int, int]:
    """The ``low``-th and ``high``-th smallest values of a uint8 image (as np.partition
    gives them)."""
    if _kernels is None:
        ranked = np.partition(grey.ravel(), (low, high))
        return int(ranked[low]), int(ranked[high])
    return _kernels.quantiles_u8(grey, int(low), int(high))


def index_pair(glyphs: np.ndarray, blank: np.ndarray, rows: np.ndarray, rank: int, left: int, right: int,
               reach: int) -> float:
    """Of a face's glyph map (float32) and where it shows bare paper (``blank``, uint8 0
    or 1): per column in [left, right) the ``rank``-th smallest of the map over the paper
    in ``rows``, and in the same rows counted from the bottom; each such profile less its
    median and widened by its maximum ``reach`` columns either way; the largest of the
    two profiles' smaller value (how strongly ink shows in the same columns both above
    and below)."""
    glyphs = _float32(glyphs)
    rows = np.asarray(rows, np.int64)
    if _kernels is None:
        return _numpy_index_pair(glyphs, blank, rows, rank, left, right, reach)
    return _kernels.index_pair(glyphs, blank, rows, int(rank), int(left), int(right), int(reach))


def ink_distances2(points: np.ndarray, ink_polar: np.ndarray, var_hue: np.ndarray, var_sat: np.ndarray,
                   cross: float, determinant: np.ndarray) -> np.ndarray:
    """Squared Mahalanobis distances (inks × points) of chromaticities ``points`` (x, y)
    from inks at (hue, log saturation) ``ink_polar``, each ink's spread given by the
    variances of hue and log saturation, their covariance ``cross`` and the spread's
    ``determinant``; a hue differs by at most half a turn either way."""
    points = np.asarray(points, np.float64)
    if _kernels is None:
        return _numpy_ink_distances2(points, ink_polar, var_hue, var_sat, cross, determinant)
    out = np.empty((len(ink_polar), len(points)))
    _kernels.ink_distances2(points, ink_polar, var_hue, var_sat, float(cross), determinant, out)
    return out


# --- the numpy versions --------------------------------------------------------------------

def _numpy_normalised(card, field, typical) -> np.ndarray:
    divisor = cv2.min(field, (*typical.tolist(), 0.0))
    return cv2.divide(cv2.add(cv2.subtract(card, field, dtype=cv2.CV_32F), divisor), divisor)


def _numpy_window_rows(region, h, w, step, down, across) -> tuple[np.ndarray, np.ndarray]:
    # each window's spread from summed-area tables: a pass over the region, not over every window
    sums, squares = (_window_sums(table, h, w, step) for table in cv2.integral2(region, sdepth=cv2.CV_64F,
                                                                                sqdepth=cv2.CV_64F))
    norms = np.sqrt(np.maximum(squares - sums * sums / (h * w), 1e-9)).astype(np.float32)
    # a strided view (what sliding_window_view gives, without its checks), copied once by the reshape
    row_stride, column_stride = region.strides
    windows = np.lib.stride_tricks.as_strided(
        region, (down, across, h, w), (step * row_stride, step * column_stride, row_stride, column_stride),
        writeable=False).reshape(-1, h * w)
    return windows, norms


def _window_sums(table: np.ndarray, h: int, w: int, step: int) -> np.ndarray:
    """The sums over every ``h`` × ``w`` window (top-left corners every ``step`` pixels,
    rows first) of the image whose summed-area table (``cv2.integral``) is ``table``."""
    return (table[h::step, w::step] - table[:-h:step, w::step] - table[h::step, :-w:step]
            + table[:-h:step, :-w:step]).ravel()


def _numpy_strongest(pixels: np.ndarray, quantile: float, share_of: float) -> tuple[np.ndarray, float, int]:
    offset = cv2.subtract(pixels.reshape(-1, 1, 3), (1.0, 1.0, 1.0, 0.0))
    distance = cv2.transform(cv2.multiply(offset, offset), _ONES).ravel()
    k = int(quantile * (distance.size - 1))
    far = float(np.partition(distance, k)[k])
    count = int(np.count_nonzero(distance >= share_of * far))
    chosen = distance >= 0.6 * far
    if far <= 1e-6 or not chosen.any():
        return np.ones(3, np.float32), far, count
    chosen = pixels[chosen]
    return np.partition(chosen, len(chosen) // 2, axis=0)[len(chosen) // 2].astype(np.float32), far, count


def _numpy_stroke_ink(normalised, rows, cols, top, left, near, ring, origin, take, darkest_channels) -> np.ndarray:
    h, w = normalised.shape[:2]
    y0, x0 = origin
    # the masks' box may reach over the card's edge where the strokes do not: cut it there
    cut_top, cut_left = max(0, -y0), max(0, -x0)
    cut_bottom = near.shape[0] - max(0, y0 + near.shape[0] - h)
    cut_right = near.shape[1] - max(0, x0 + near.shape[1] - w)
    colour = None
    if take:
        ring_count, paper, near_count, near_sum = _numpy_ring_paper_and_near_sum(
            normalised[y0 + cut_top:y0 + cut_bottom, x0 + cut_left:x0 + cut_right],
            near[cut_top:cut_bottom, cut_left:cut_right], ring[cut_top:cut_bottom, cut_left:cut_right])
        colour = taken_from_paper(ring_count, paper, near_count, near_sum, len(rows))
    if colour is None or np.any(darkest_channels):
        darkest = _numpy_strongest(np.ascontiguousarray(normalised[rows + top, cols + left]), 0.9, 0.0)[0]
        colour = darkest if colour is None else np.where(darkest_channels, darkest, colour).astype(np.float32)
    return colour


def _numpy_ring_paper_and_near_sum(normalised, near, ring) -> tuple[int, np.ndarray, int, np.ndarray]:
    near, ring = near > 0, ring > 0
    ring = ring & ~near
    ring_pixels = normalised[ring]
    paper = np.ones(3, np.float32)
    if len(ring_pixels):
        paper = np.partition(ring_pixels, len(ring_pixels) // 2, axis=0)[len(ring_pixels) // 2]
    return len(ring_pixels), paper, int(np.count_nonzero(near)), normalised[near].sum(axis=0, dtype=np.float64)


def _numpy_weakest_edge(across, shears, blocks, left, right) -> float:
    height, width = across.shape
    block = height // blocks
    means = across[:block * blocks].reshape(blocks, block, width).mean(axis=1)  # (blocks, columns)
    below, frac, rest = _shear_grid(height, width, tuple(shears), blocks)
    straightened = means.take(below) * rest + means.take(below + 1) * frac  # (shears, blocks, columns)
    weakest = straightened.min(axis=1)  # (shears, columns)
    return float((weakest[:, left:right] - row_medians(weakest)).max())


@functools.lru_cache(maxsize=16)
def _shear_grid(height: int, width: int, shears: tuple[float, ...], blocks: int) -> tuple[np.ndarray, ...]:
    """Where each sheared column profile takes its values: linearly between the column
    ``below`` (an index into the flat (blocks, columns) means) and the next, weighted
    ``rest`` and ``frac``; each (shears, blocks, columns), read only, shared by every card
    of this size (a card read costs a dozen small arrays less)."""
    block = height // blocks
    centres = (np.arange(blocks) + 0.5) * block - height / 2
    source = np.arange(width)[None, None, :] - np.asarray(shears)[:, None, None] * centres[None, :, None]
    source = np.clip(source, 0, width - 1)
    column = np.minimum(source.astype(np.intp), width - 2)
    frac = source - column
    grid = column + width * np.arange(blocks)[None, :, None], frac, 1 - frac
    for array in grid:
        array.flags.writeable = False
    return grid


def _numpy_index_pair(glyphs, blank, rows, rank, left, right, reach) -> float:
    height = glyphs.shape[0]
    blank_ink = glyphs[:, left:right] * blank[:, left:right]
    spread = np.ones((1, 2 * reach + 1), np.uint8)
    profiles = []
    for band in (rows, height - 1 - rows):
        profile = np.partition(blank_ink[band], rank, axis=0)[rank]
        profiles.append(cv2.dilate((profile - median(profile))[None, :], spread))
    return float(np.minimum(*profiles).max())


def _numpy_ink_distances2(points, ink_polar, var_hue, var_sat, cross, determinant) -> np.ndarray:
    hue = np.arctan2(points[:, 1], points[:, 0])
    log_saturation = np.log(np.maximum(np.hypot(points[:, 0], points[:, 1]), 1e-3))
    d_hue = (hue[None, :] - ink_polar[:, :1] + np.pi) % (2 * np.pi) - np.pi  # (inks, points)
    d_sat = log_saturation[None, :] - ink_polar[:, 1:]
    d2 = (var_sat[:, None] * d_hue ** 2 - 2 * cross * d_hue * d_sat + var_hue[:, None] * d_sat ** 2)
    return d2 / determinant[:, None]


__all__ = ["COMPILED", "channel_ranks", "index_pair", "ink_distances2", "normalised", "projected", "quantiles_u8",
           "ring_paper_and_near_sum", "stroke_ink", "strongest", "taken_from_paper", "weakest_edge", "window_rows"]
