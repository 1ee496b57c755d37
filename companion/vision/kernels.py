"""The finder's inner loops: what :mod:`companion.vision.patch` does to every card-sized
patch it cuts, several hundred times a frame; and medians of small arrays.

Written as numpy these are a few dozen small array operations per patch, and on arrays
of about a hundred by a hundred pixels numpy's cost per call, not the arithmetic, is
most of the time. So each one is also written in C (``_kernels.c``, built with the
package where a C compiler is at hand, see ``setup.py``), one pass over the patch, and
used when it was built (``COMPILED``); the numpy versions below are what it gives (sums
are taken in float64 in both, so only their last bits may differ), and stand in where
it was not built. A JIT compiler (numba) would have spared the C, but loading LLVM
costs a reading process about 125 MB, most of the memory a Raspberry Pi can give it.
"""

from __future__ import annotations

import numpy as np

try:
    from . import _kernels
except ImportError:  # built without a C compiler: the numpy versions serve, slower
    _kernels = None

COMPILED = _kernels is not None


# Medians of small arrays, as np.median gives them: on the few dozen to few thousand values the
# reader and the finder take a median of, hundreds of times a frame, np.median's checks and
# dispatch cost more than the partition itself.


def median(values: np.ndarray) -> float:
    """``np.median`` of a flat array."""
    half = values.size // 2
    if values.size % 2:
        return float(np.partition(values, half)[half])
    part = np.partition(values, (half - 1, half))
    if values.dtype.kind in "biu":  # as np.median: integers are averaged in float64, not wrapped round
        return (float(part[half - 1]) + float(part[half])) / 2
    return float((part[half - 1] + part[half]) / 2)


def row_medians(values: np.ndarray) -> np.ndarray:
    """``np.median(values, axis=1, keepdims=True)`` of a 2-D array."""
    half = values.shape[1] // 2
    if values.dtype.kind in "biu":  # as np.median: integers are averaged in float64
        values = values.astype(np.float64)
    if values.shape[1] % 2:
        return np.partition(values, half, axis=1)[:, half:half + 1]
    part = np.partition(values, (half - 1, half), axis=1)
    return (part[:, half - 1:half] + part[:, half:half + 1]) / 2


def thin(g: np.ndarray, threshold: float) -> np.ndarray:
    """|g| (float32, rows × columns) where it peaks along each row (at least its left,
    more than its right neighbour) and exceeds ``threshold``, else 0; the first and
    last column are 0."""
    g = _float32(g)
    if _kernels is None:
        return _numpy_thin(g, threshold)
    out = np.empty(g.shape, np.float32)
    _kernels.thin(g, float(threshold), out, False)
    return out


def thin_transposed(g: np.ndarray, threshold: float) -> np.ndarray:
    """``thin(g.T, threshold)`` without the transposed copy: peaks down each column."""
    g = _float32(g)
    if _kernels is None:
        return _numpy_thin(np.ascontiguousarray(g.T), threshold)
    out = np.empty(g.shape[::-1], np.float32)
    _kernels.thin(g, float(threshold), out, True)
    return out


def coverage(thin_rows: np.ndarray) -> np.ndarray:
    """Per column: the share of rows with an edge within one pixel of it (float64)."""
    thin_rows = _float32(thin_rows)
    if _kernels is None:
        return _numpy_coverage(thin_rows)
    out = np.empty(thin_rows.shape[1])
    _kernels.coverage(thin_rows, out)
    return out


def pair_search(cover: np.ndarray, profile: np.ndarray, span: int, reach: int, depth: int, rim: int,
                mismatch_weight: float) -> int | None:
    """The offset (-``reach`` … ``reach``, from the expected place) of the best pair of
    opposite sides ``span`` apart: both on edges (``cover``, capped at 0.9), the borders
    ``depth`` deep inside them alike (``profile``: the mean colour per column, each
    border less its own mean), less ``mismatch_weight`` per unit of their normalised
    difference; a side may show up to ``rim`` pixels inside. None when no pair fits."""
    cover, profile = np.asarray(cover, np.float64), _float32(profile)
    if _kernels is None:
        return _numpy_pair_search(cover, profile, span, reach, depth, rim, mismatch_weight)
    offset = _kernels.pair_search(cover, profile, int(span), int(reach), int(depth), int(rim), float(mismatch_weight))
    return None if offset < -reach else offset


def turn_sharpness(thin_rows: np.ndarray, low: np.ndarray, high: np.ndarray, t_offset: float, sign: float,
                   turns: np.ndarray, most_points: int, weight_cap: float, sharpness: np.ndarray) -> None:
    """Adds to ``sharpness`` (float64, one per trial turn) how sharply the edge points of
    ``thin_rows`` in the column bands [low, high) pile up when projected across the rows
    at each turn (``turns``: its tangent): u = u0 + sign · t · tan, t the row less
    ``t_offset``; the sum of squares of the linearly binned projections. At most
    ``most_points`` of the strongest points count (of equal ones the first, row by row),
    each capped at ``weight_cap``; fewer than 20 points add nothing."""
    thin_rows = _float32(thin_rows)
    low, high = np.asarray(low, np.int64), np.asarray(high, np.int64)
    turns = np.asarray(turns, np.float64)
    if _kernels is None:
        sharpness += _numpy_turn_sharpness(thin_rows, low, high, t_offset, sign, turns, most_points, weight_cap)
        return
    _kernels.turn_sharpness(thin_rows, low, high, float(t_offset), float(sign), turns, int(most_points),
                            float(weight_cap), sharpness)


def side_positions(thin_rows: np.ndarray, magnitude: np.ndarray, low: int, high: int) -> tuple[np.ndarray, np.ndarray]:
    """Per row with an edge in columns [low, high) (1 <= low, high < columns - 1): the
    row and the sub-pixel position of its strongest edge there (the first of equal
    ones), by a parabola through the gradient ``magnitude`` around it."""
    thin_rows, magnitude = _float32(thin_rows), _float32(magnitude)
    if _kernels is None:
        return _numpy_side_positions(thin_rows, magnitude, low, high)
    rows, positions = np.empty(thin_rows.shape[0]), np.empty(thin_rows.shape[0])
    n = _kernels.side_positions(thin_rows, magnitude, int(low), int(high), rows, positions)
    return rows[:n], positions[:n]


def _float32(array: np.ndarray) -> np.ndarray:
    return array if array.dtype == np.float32 else array.astype(np.float32)


# --- the numpy versions --------------------------------------------------------------------

def _numpy_thin(g: np.ndarray, threshold: float) -> np.ndarray:
    a = np.abs(g)
    out = np.zeros_like(a)
    core = a[:, 1:-1]
    out[:, 1:-1] = core * ((core >= a[:, :-2]) & (core > a[:, 2:]) & (core > threshold))
    return out


def _numpy_coverage(thin_rows: np.ndarray) -> np.ndarray:
    hit = thin_rows > 0
    near = hit.copy()
    near[:, 1:] |= hit[:, :-1]
    near[:, :-1] |= hit[:, 1:]
    return np.count_nonzero(near, axis=0) / near.shape[0]


def _numpy_pair_search(cover, profile, span, reach, depth, rim, mismatch_weight) -> int | None:
    offsets = np.arange(-reach, reach + 1)
    starts = reach + offsets
    valid = (starts >= 1) & (starts + span <= len(cover) - 2)
    if not valid.any():
        return None
    offsets, starts = offsets[valid], starts[valid]
    ends = starts + span
    steps = np.arange(1, depth + 1)
    first = profile[starts[:, None] + steps].astype(np.float64)  # offsets × depth × channels
    second = profile[ends[:, None] - steps].astype(np.float64)
    first -= first.mean(axis=1, keepdims=True)
    second -= second.mean(axis=1, keepdims=True)
    scale = np.maximum(8.0, np.abs(first).mean(axis=(1, 2)) + np.abs(second).mean(axis=(1, 2)))
    mismatch = np.abs(first - second).mean(axis=(1, 2)) / scale
    first_side, second_side = cover[starts], cover[ends]
    for inset in range(1, rim + 1):  # a rim is far narrower than a card
        first_side = np.maximum(first_side, cover[starts + inset])
        second_side = np.maximum(second_side, cover[ends - inset])
    value = np.minimum(first_side, 0.9) + np.minimum(second_side, 0.9) - mismatch_weight * mismatch
    return int(offsets[int(np.argmax(value))])


def _numpy_turn_sharpness(thin_rows, low, high, t_offset, sign, turns, most_points, weight_cap) -> np.ndarray:
    width = thin_rows.shape[1]
    near = np.zeros(width, bool)
    for start, end in zip(low, high):
        near[max(0, start):max(0, end)] = True
    columns = np.flatnonzero(near)
    r, j = np.nonzero(thin_rows[:, columns])  # row by row
    if len(r) < 20:
        return np.zeros(len(turns))
    c = columns[j]
    weight = thin_rows[r, c]
    if len(r) > most_points:
        strongest = np.argsort(-weight, kind="stable")[:most_points]
        r, c, weight = r[strongest], c[strongest], weight[strongest]
    weight = np.minimum(weight.astype(np.float64), weight_cap)
    moved = np.clip(np.multiply.outer(turns, sign * (r + t_offset)) + c, 0, width - 1.001)  # turns × points
    low_bin = np.floor(moved)
    upper = moved - low_bin
    index = low_bin.astype(np.int64) + (np.arange(len(turns)) * (width + 1))[:, None]
    bins = np.bincount(index.ravel(), ((1 - upper) * weight).ravel(), minlength=len(turns) * (width + 1))
    bins += np.bincount((index + 1).ravel(), (upper * weight).ravel(), minlength=len(turns) * (width + 1))
    bins = bins.reshape(len(turns), width + 1)
    return np.einsum("ij,ij->i", bins, bins)


def _numpy_side_positions(thin_rows, magnitude, low, high) -> tuple[np.ndarray, np.ndarray]:
    band = thin_rows[:, low:high]
    rows = np.nonzero(band.max(axis=1) > 0)[0]
    cols = band[rows].argmax(axis=1) + low
    before, at, after = magnitude[rows, cols - 1], magnitude[rows, cols], magnitude[rows, cols + 1]
    curvature = (before - 2 * at + after).astype(np.float64)
    offset = np.where(curvature < 0, 0.5 * (before - after) / np.where(curvature < 0, curvature, -1.0), 0.0)
    return rows.astype(np.float64), cols + np.clip(offset, -0.5, 0.5)
