"""The finder's compiled inner loops (``companion.vision.kernels``) give what the numpy
code they replaced gave: each is checked against that code, kept here as the reference,
on patches of noise, of edges and of the synthetic table's cards."""

from __future__ import annotations

import numpy as np
import pytest

from companion.vision import kernels


def reference_thin(g, threshold):
    a = np.abs(g)
    out = np.zeros_like(a)
    core = a[:, 1:-1]
    out[:, 1:-1] = core * ((core >= a[:, :-2]) & (core > a[:, 2:]) & (core > threshold))
    return out


def reference_coverage(thin_rows):
    hit = thin_rows > 0
    near = hit.copy()
    near[:, 1:] |= hit[:, :-1]
    near[:, :-1] |= hit[:, 1:]
    return np.count_nonzero(near, axis=0) / near.shape[0]


def reference_pair_search(cover, profile, span, reach, depth, rim):
    offsets = np.arange(-reach, reach + 1)
    starts = reach + offsets
    valid = (starts >= 1) & (starts + span <= len(cover) - 2)
    if not valid.any():
        return None
    offsets, starts = offsets[valid], starts[valid]
    ends = starts + span
    steps = np.arange(1, depth + 1)
    first = profile[starts[:, None] + steps].astype(np.float64)
    second = profile[ends[:, None] - steps].astype(np.float64)
    first -= first.mean(axis=1, keepdims=True)
    second -= second.mean(axis=1, keepdims=True)
    scale = np.maximum(8.0, np.abs(first).mean(axis=(1, 2)) + np.abs(second).mean(axis=(1, 2)))
    mismatch = np.abs(first - second).mean(axis=(1, 2)) / scale
    first_side, second_side = cover[starts], cover[ends]
    for inset in range(1, rim + 1):
        first_side = np.maximum(first_side, cover[starts + inset])
        second_side = np.maximum(second_side, cover[ends - inset])
    value = np.minimum(first_side, 0.9) + np.minimum(second_side, 0.9) - mismatch
    return int(offsets[int(np.argmax(value))])


def reference_sharpness(thin, positions, band, t_offset, sign, turns, most_points, cap):
    width = thin.shape[1]
    near = np.zeros(width, bool)
    for position in positions:
        near[max(0, position - band):position + band + 1] = True
    columns = np.flatnonzero(near)
    r, j = np.nonzero(thin[:, columns])
    if len(r) < 20:
        return np.zeros(len(turns))
    c = columns[j]
    weight = thin[r, c]
    if len(r) > most_points:
        strongest = np.argpartition(-weight, most_points)[:most_points]
        r, c, weight = r[strongest], c[strongest], weight[strongest]
    weight = np.minimum(weight, cap).astype(np.float64)
    moved = np.clip(np.multiply.outer(turns, sign * (r + t_offset)) + c, 0, width - 1.001)
    low = np.floor(moved)
    upper = moved - low
    sharpness = np.zeros(len(turns))
    for step in range(len(turns)):
        bins = np.bincount(low[step].astype(int), (1 - upper[step]) * weight, minlength=width + 1)
        bins += np.bincount(low[step].astype(int) + 1, upper[step] * weight, minlength=width + 1)
        sharpness[step] = np.dot(bins, bins)
    return sharpness


def reference_side_positions(thin_rows, magnitude, low, high):
    band = thin_rows[:, low:high]
    rows = np.nonzero(band.max(axis=1) > 0)[0]
    cols = band[rows].argmax(axis=1) + low
    before, at, after = magnitude[rows, cols - 1], magnitude[rows, cols], magnitude[rows, cols + 1]
    curvature = before - 2 * at + after
    offset = np.where(curvature < 0, 0.5 * (before - after) / np.where(curvature < 0, curvature, -1.0), 0.0)
    return rows.astype(np.float64), cols + np.clip(offset, -0.5, 0.5)


def gradients(seed):
    """Row gradients of a card-like patch: a bright card with a dark numeral on a
    textured cloth, with sensor noise (float32, as ``patch.Patch`` computes them)."""
    import cv2

    rng = np.random.default_rng(seed)
    grey = rng.normal(90, 12, (120, 88)).astype(np.float32)
    grey[14 + seed % 5:106, 14:73 + seed % 3] = 225
    grey[50:70, 35:52] = 40
    grey += rng.normal(0, 3, grey.shape).astype(np.float32)
    return cv2.Sobel(grey, cv2.CV_32F, 1, 0, scale=0.25), cv2.Sobel(grey, cv2.CV_32F, 0, 1, scale=0.25)


@pytest.mark.parametrize("seed", range(6))
def test_thin_edges_and_their_coverage_are_the_numpy_ones(seed):
    gu, gv = gradients(seed)
    threshold = 5.0 + seed
    thin_u = kernels.thin(gu[7:-7], threshold)
    np.testing.assert_array_equal(thin_u, reference_thin(gu[7:-7], threshold))
    np.testing.assert_array_equal(kernels.thin_transposed(gv[:, 7:-7], threshold),
                                  reference_thin(np.ascontiguousarray(gv[:, 7:-7].T), threshold))
    np.testing.assert_array_equal(kernels.coverage(thin_u), reference_coverage(thin_u))
    assert kernels.coverage(thin_u).max() > 0.5  # the card's sides are there to be found
    # whole grey levels (a JPEG's flat paper): neighbours of equal strength, the left one wins
    flat = np.round(gu[7:-7])
    np.testing.assert_array_equal(kernels.thin(flat, threshold), reference_thin(flat, threshold))


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("rim", [0, 2])
def test_the_side_pair_search_finds_the_pair_numpy_found(seed, rim):
    rng = np.random.default_rng(seed)
    gu, _ = gradients(seed)
    cover = reference_coverage(reference_thin(gu[7:-7], 5.0))
    profile = (rng.normal(150, 40, (len(cover), 3))).astype(np.float32)
    for span, reach in ((59, 14), (59, 7), (88, 14)):
        expected = reference_pair_search(cover, profile, span, reach, 10, rim)
        found = kernels.pair_search(cover, profile, span, reach, 10, rim, 1.0)
        assert (None if found < -reach else found) == expected


def test_a_side_a_rim_inside_the_card_counts_only_within_the_rim():
    cover, profile = np.zeros(90), np.full((90, 3), 200, np.float32)
    cover[[14, 14 + 61 - 2]] = 1.0  # the left side where it should be, the right one 2 px inside
    cover[[20, 20 + 61]] = 0.6  # a fainter pair, a card's width apart
    for rim in (0, 1, 2):
        expected = reference_pair_search(cover, profile, 61, 14, 10, rim)
        assert kernels.pair_search(cover, profile, 61, 14, 10, rim, 1.0) == expected
    assert reference_pair_search(cover, profile, 61, 14, 10, 2) != reference_pair_search(cover, profile, 61, 14, 10, 0)


def test_no_side_pair_fits_a_patch_too_small():
    cover, profile = np.ones(40), np.ones((40, 3), np.float32)
    assert kernels.pair_search(cover, profile, 59, 4, 10, 0, 1.0) < -4


@pytest.mark.parametrize("seed", range(6))
def test_the_turn_sharpness_is_the_numpy_one(seed):
    gu, _ = gradients(seed)
    thin = reference_thin(gu[21:-21], 5.0)
    turns = np.tan(np.radians(np.linspace(-12, 12, 49)))
    for positions, most in (((14, 73), 500), ((14, 73), 40), ((40,), 500)):
        expected = reference_sharpness(thin, positions, 9, -38.5, 1.0, turns, most, 20.0)
        sharpness = np.zeros(len(turns))
        centres = np.array(positions)
        kernels.turn_sharpness(thin, centres - 9, centres + 10, -38.5, 1.0, turns, most, 20.0, sharpness)
        np.testing.assert_allclose(sharpness, expected, rtol=1e-9)
        assert sharpness.max() > 0


@pytest.mark.parametrize("seed", range(6))
def test_sub_pixel_side_positions_are_the_numpy_ones(seed):
    gu, _ = gradients(seed)
    thin, magnitude = reference_thin(gu[7:-7], 5.0), np.abs(gu[7:-7])
    for low, high in ((13, 16), (71, 76), (30, 33)):
        rows, positions = kernels.side_positions(thin, magnitude, low, high)
        expected_rows, expected = reference_side_positions(thin, magnitude, low, high)
        np.testing.assert_array_equal(rows, expected_rows)
        np.testing.assert_allclose(positions, expected, rtol=1e-6)
