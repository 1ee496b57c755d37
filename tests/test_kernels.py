"""The card finder's inner loops in C (``companion/vision/_kernels.c``) give what their
numpy versions in ``companion.vision.kernels`` give, on card-like patches with noise,
and the reader finds the same cards with either."""

from __future__ import annotations

import numpy as np
import pytest

from companion.vision import kernels

pytestmark = pytest.mark.skipif(not kernels.COMPILED, reason="the C kernels were not built (no C compiler)")
reference_thin = kernels._numpy_thin
reference_coverage = kernels._numpy_coverage


def reference_pair_search(cover, profile, span, reach, depth, rim):
    return kernels._numpy_pair_search(cover, profile, span, reach, depth, rim, 1.0)


def reference_sharpness(thin, positions, band, t_offset, sign, turns, most_points, cap):
    centres = np.array(positions)
    return kernels._numpy_turn_sharpness(thin, centres - band, centres + band + 1, t_offset, sign, turns,
                                         most_points, cap)


reference_side_positions = kernels._numpy_side_positions


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
        assert kernels.pair_search(cover, profile, span, reach, 10, rim, 1.0) == expected


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
    assert kernels.pair_search(cover, profile, 59, 4, 10, 0, 1.0) is None
    assert kernels._numpy_pair_search(cover, profile, 59, 4, 10, 0, 1.0) is None


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


def test_the_search_reads_a_table_alike_with_the_numpy_versions(monkeypatch):
    from companion.bench.search import SearchingReader
    from test_find import _laid_out

    frame, _ = _laid_out("reference", "cloth")
    compiled = SearchingReader().read(frame)
    monkeypatch.setattr(kernels, "_kernels", None)
    with_numpy = SearchingReader().read(frame)
    assert [seen.card for seen in with_numpy.cards] == [seen.card for seen in compiled.cards]
    assert sum(seen.card is not None for seen in compiled.cards) >= 5
    for a, b in zip(compiled.cards, with_numpy.cards):
        np.testing.assert_allclose(a.polygon, b.polygon, atol=0.05)
