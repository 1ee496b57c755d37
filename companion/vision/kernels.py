"""The finder's inner loops, compiled (numba): what :mod:`companion.vision.patch` does
to every card-sized patch it cuts, several hundred times a frame.

Written as numpy these are a few dozen small array operations per patch, and on arrays
of about a hundred by a hundred pixels numpy's cost per call, not the arithmetic, is
most of the time: the refinement of one outline took about a millisecond. Each function
here does one of them in a single pass and gives what its numpy original gave (sums
are taken in float64, so the last bits may differ)."""

from __future__ import annotations

import numba
import numpy as np

_jit = numba.njit(cache=True, nogil=True)


@_jit
def thin(g: np.ndarray, threshold: float) -> np.ndarray:
    """|g| where it peaks along each row (at least its left, more than its right
    neighbour) and exceeds ``threshold``, else 0; the first and last column are 0."""
    rows, cols = g.shape
    out = np.zeros((rows, cols), np.float32)
    for i in range(rows):
        for j in range(1, cols - 1):
            a = abs(g[i, j])
            if a > threshold and a >= abs(g[i, j - 1]) and a > abs(g[i, j + 1]):
                out[i, j] = a
    return out


@_jit
def thin_transposed(g: np.ndarray, threshold: float) -> np.ndarray:
    """``thin(g.T, threshold)`` without the transposed copy: peaks down each column."""
    rows, cols = g.shape
    out = np.zeros((cols, rows), np.float32)
    for j in range(cols):
        for i in range(1, rows - 1):
            a = abs(g[i, j])
            if a > threshold and a >= abs(g[i - 1, j]) and a > abs(g[i + 1, j]):
                out[j, i] = a
    return out


@_jit
def coverage(thin_rows: np.ndarray) -> np.ndarray:
    """Per column: the share of rows with an edge within one pixel of it."""
    rows, cols = thin_rows.shape
    counts = np.zeros(cols, np.int64)
    for i in range(rows):
        for j in range(cols):
            if (thin_rows[i, j] > 0 or (j > 0 and thin_rows[i, j - 1] > 0)
                    or (j + 1 < cols and thin_rows[i, j + 1] > 0)):
                counts[j] += 1
    return counts / rows


@_jit
def pair_search(cover: np.ndarray, profile: np.ndarray, span: int, reach: int, depth: int, rim: int,
                mismatch_weight: float) -> int:
    """The offset (from the expected place) of the best pair of opposite sides ``span``
    apart: both on edges (``cover``, capped at 0.9), the borders ``depth`` deep inside
    them alike (``profile``: mean colour per column, each border less its own mean),
    less ``mismatch_weight`` per unit of their normalised difference; a side may show up
    to ``rim`` pixels inside. -1 - reach when no pair fits."""
    n, channels = profile.shape
    count = depth * channels
    best, best_offset = -np.inf, -1 - reach
    first = np.empty((depth, channels))
    second = np.empty((depth, channels))
    for offset in range(-reach, reach + 1):
        start = reach + offset
        end = start + span
        if start < 1 or end > len(cover) - 2:
            continue
        for c in range(channels):
            sum_first = 0.0
            sum_second = 0.0
            for k in range(depth):
                first[k, c] = profile[start + 1 + k, c]
                second[k, c] = profile[end - 1 - k, c]
                sum_first += first[k, c]
                sum_second += second[k, c]
            for k in range(depth):
                first[k, c] -= sum_first / depth
                second[k, c] -= sum_second / depth
        spread_first = 0.0
        spread_second = 0.0
        apart = 0.0
        for k in range(depth):
            for c in range(channels):
                spread_first += abs(first[k, c])
                spread_second += abs(second[k, c])
                apart += abs(first[k, c] - second[k, c])
        scale = max(8.0, spread_first / count + spread_second / count)
        first_side, second_side = cover[start], cover[end]
        for inset in range(1, rim + 1):  # a rim is far narrower than a card
            first_side = max(first_side, cover[start + inset])
            second_side = max(second_side, cover[end - inset])
        value = min(first_side, 0.9) + min(second_side, 0.9) - apart / count / scale * mismatch_weight
        if value > best:
            best, best_offset = value, offset
    return best_offset


@_jit
def turn_sharpness(thin_rows: np.ndarray, low: np.ndarray, high: np.ndarray, t_offset: float, sign: float,
                   turns: np.ndarray, most_points: int, weight_cap: float, sharpness: np.ndarray) -> None:
    """Adds to ``sharpness`` (one per trial turn) how sharply the edge points of
    ``thin_rows`` in the column bands [low, high) pile up when projected across the
    rows at each turn (``tan`` of it in ``turns``): u = u0 + sign · t · tan, t the row
    less ``t_offset``; the sum of squares of the linearly binned projections. At most
    ``most_points`` of the strongest points count, each capped at ``weight_cap``;
    fewer than 20 add nothing."""
    rows, width = thin_rows.shape
    near = np.zeros(width, np.bool_)
    for band in range(len(low)):
        for j in range(max(0, low[band]), min(width, high[band])):
            near[j] = True
    total = 0
    for i in range(rows):
        for j in range(width):
            if near[j] and thin_rows[i, j] > 0:
                total += 1
    if total < 20:
        return
    r = np.empty(total)
    c = np.empty(total)
    weight = np.empty(total)
    k = 0
    for i in range(rows):
        for j in range(width):
            if near[j] and thin_rows[i, j] > 0:
                r[k], c[k], weight[k] = i, j, thin_rows[i, j]
                k += 1
    if total > most_points:
        strongest = np.argsort(-weight, kind="mergesort")[:most_points]
        r, c, weight = r[strongest], c[strongest], weight[strongest]
    weight = np.minimum(weight, weight_cap)
    bins = np.zeros(width)
    for step in range(len(turns)):
        bins[:] = 0.0
        for p in range(len(r)):
            moved = min(max(c[p] + turns[step] * sign * (r[p] + t_offset), 0.0), width - 1.001)
            at = int(np.floor(moved))
            upper = moved - at
            bins[at] += (1.0 - upper) * weight[p]
            bins[at + 1] += upper * weight[p]
        total_sq = 0.0
        for j in range(width):
            total_sq += bins[j] * bins[j]
        sharpness[step] += total_sq


@_jit
def side_positions(thin_rows: np.ndarray, magnitude: np.ndarray, low: int, high: int):
    """Per row with an edge in columns [low, high): the row and the sub-pixel position of
    its strongest edge there (a parabola through the gradient magnitude around it)."""
    rows = thin_rows.shape[0]
    found_rows = np.empty(rows)
    positions = np.empty(rows)
    n = 0
    for i in range(rows):
        best_col, best = -1, 0.0
        for j in range(low, high):
            if thin_rows[i, j] > best:
                best, best_col = thin_rows[i, j], j
        if best_col < 0:
            continue
        before, at, after = magnitude[i, best_col - 1], magnitude[i, best_col], magnitude[i, best_col + 1]
        curvature = before - 2 * at + after
        offset = 0.5 * (before - after) / curvature if curvature < 0 else 0.0
        found_rows[n] = i
        positions[n] = best_col + min(max(offset, -0.5), 0.5)
        n += 1
    return found_rows[:n], positions[:n]
