"""The reader's inner loops in C (``companion/vision/_kernels.c``) give what their numpy
versions in ``companion.vision.read_kernels`` give, on card-like images with noise, and
the reader reads a table alike with either."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.vision import read_kernels
from companion.vision.ink import Strokes

pytestmark = pytest.mark.skipif(not read_kernels.COMPILED, reason="the C kernels were not built (no C compiler)")


def normalised_card(seed, height=91, width=59):
    """A card divided by its background (paper about 1, float32 BGR) with a coloured
    numeral's strokes and noise, and the strokes' mask (uint8)."""
    rng = np.random.default_rng(seed)
    card = rng.normal(1.0, 0.02, (height, width, 3)).astype(np.float32)
    strokes = np.zeros((height, width), np.uint8)
    strokes[30 + seed % 4:62, 20:25] = 1
    strokes[30:35, 25:40 - seed % 3] = 1
    card[strokes > 0] *= np.float32([0.3, 0.55, 0.9]) + rng.normal(0, 0.03, 3).astype(np.float32)
    return card, strokes


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("on_strokes, quantile, share_of", [(False, 0.985, 0.3), (True, 0.9, 0.0)])
def test_the_strongest_pixels_are_the_numpy_ones(seed, on_strokes, quantile, share_of):
    """As the reader takes them: over the card's inside, and over a numeral's strokes."""
    card, strokes = normalised_card(seed)
    pixels = card[strokes > 0] if on_strokes else card[2:-2, 2:-2]
    colour, far, count = read_kernels.strongest(pixels, quantile, share_of)
    expected_colour, expected_far, expected_count = read_kernels._numpy_strongest(
        np.ascontiguousarray(pixels).reshape(-1, 3), quantile, share_of)
    np.testing.assert_array_equal(colour, expected_colour)
    assert (far, count) == (expected_far, expected_count)
    assert colour[0] < 0.5 < colour[2]  # the numeral's ink: it takes blue, leaves red


@pytest.mark.parametrize("seed", range(4))
def test_a_card_divided_by_its_background_is_the_numpy_one(seed):
    rng = np.random.default_rng(seed)
    card = rng.integers(30, 256, (91, 59, 3), dtype=np.uint8)
    field = cv2.blur(card, (9, 9)).astype(np.float32) + np.float32(3.0)
    typical = np.float32([180, 200.5, 220])
    np.testing.assert_array_equal(read_kernels.normalised(card, field, typical),
                                  read_kernels._numpy_normalised(card, field, typical))
    sample = field[::3, ::3].reshape(-1, 3)
    for rank in (0, len(sample) // 2, len(sample) - 1):
        np.testing.assert_array_equal(read_kernels.channel_ranks(sample, rank),
                                      np.partition(sample, rank, axis=0)[rank])


def test_bare_paper_has_no_strongest_colour():
    colour, far, count = read_kernels.strongest(np.ones((40, 3), np.float32), 0.9, 0.3)
    np.testing.assert_array_equal(colour, [1, 1, 1])
    assert far == 0.0 and count == 40


@pytest.mark.parametrize("seed", range(6))
def test_the_paper_ring_and_the_strokes_sum_are_the_numpy_ones(seed):
    card, strokes = normalised_card(seed)
    near = cv2.dilate(strokes, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5)))
    ring = cv2.dilate(strokes, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (13, 13)))
    box = card[10:80, 5:55]  # a slice, as the reader passes it
    got = read_kernels.ring_paper_and_near_sum(box, near[10:80, 5:55], ring[10:80, 5:55])
    expected = read_kernels._numpy_ring_paper_and_near_sum(box, near[10:80, 5:55], ring[10:80, 5:55])
    assert got[0] == expected[0] and got[2] == expected[2]
    np.testing.assert_array_equal(got[1], expected[1])
    np.testing.assert_allclose(got[3], expected[3], rtol=1e-12)
    assert abs(float(got[1][0]) - 1.0) < 0.05  # the ring lies on paper


def test_an_empty_ring_is_counted_as_none():
    card, strokes = normalised_card(0)
    count, _, near_count, _ = read_kernels.ring_paper_and_near_sum(card, strokes, strokes)
    assert count == 0 and near_count == int(strokes.sum())


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("shift", [0, -19])  # -19: the masks reach over the card's left edge, the strokes do not
@pytest.mark.parametrize("take, darkest_channels", [(True, (False, False, False)), (True, (False, True, True)),
                                                    (False, (False, False, False))])
def test_a_numerals_ink_is_the_numpy_one(seed, shift, take, darkest_channels, monkeypatch):
    """As ``ink.ink_on`` takes it: what the strokes take from the paper around them, the
    darkest stroke pixels on the channels the paper saturates, or those alone."""
    card, strokes = normalised_card(seed)
    template = Strokes(strokes[25:70, 15:45], 1.0)  # the numeral's strokes from its box's top-left
    top, left = 25, 15 + shift
    assert template.on(top, left, *card.shape[:2])
    origin = (top + template.first_row - template.reach, left + template.first_col - template.reach)
    assert origin[1] < 0 or shift == 0
    arguments = (card, template.rows, template.cols, top, left, template.near, template.ring, origin, take,
                 np.array(darkest_channels))
    got = read_kernels.stroke_ink(*arguments)
    monkeypatch.setattr(read_kernels, "_kernels", None)
    np.testing.assert_array_equal(got, read_kernels.stroke_ink(*arguments))
    if shift == 0:
        assert got[0] < 0.5 < got[2]  # the numeral's ink: it takes blue, leaves red


def test_a_numeral_without_paper_around_it_takes_its_darkest_pixels():
    card, strokes = normalised_card(1)
    rows, cols = (a.astype(np.int64) for a in np.nonzero(strokes))
    no_ring = strokes.copy()  # the ring lies wholly under the strokes: nothing tells the paper's level
    got = read_kernels.stroke_ink(card, rows, cols, 0, 0, strokes, no_ring, (0, 0), True, np.zeros(3, bool))
    np.testing.assert_array_equal(got, read_kernels.strongest(card[rows, cols], 0.9)[0])


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("height, width", [(91, 59), (90, 60)])
def test_the_weakest_edge_is_the_numpy_one(seed, height, width):
    rng = np.random.default_rng(seed)
    across = np.abs(rng.normal(0, 5, (height, width))).astype(np.float32)
    across[:, width // 2 + seed] += 40  # an edge down the whole face
    shears = np.linspace(-0.08, 0.08, 9)
    left, right = round(0.25 * width), round(0.75 * width)
    got = read_kernels.weakest_edge(across, shears, 6, left, right)
    assert got == pytest.approx(read_kernels._numpy_weakest_edge(across, shears, 6, left, right), rel=1e-9)
    assert got > 20


@pytest.mark.parametrize("seed", range(4))
def test_uint8_quantiles_are_the_partitions(seed):
    grey = np.random.default_rng(seed).integers(0, 256, (91, 59), dtype=np.uint8)
    for low, high in ((0, grey.size - 1), (107, 4831), (50, 50)):
        ranked = np.partition(grey.ravel(), (low, high))
        assert read_kernels.quantiles_u8(grey, low, high) == (ranked[low], ranked[high])


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("columns", [(18, 41), (18, 42)])
def test_the_index_pair_is_the_numpy_one(seed, columns):
    """Glyph maps with an index above and below the numeral in the face's middle, slightly
    apart (a strip of a fanned row), and without."""
    rng = np.random.default_rng(seed)
    plain = np.abs(rng.normal(0, 0.05, (91, 59))).astype(np.float32)
    fanned = plain.copy()
    fanned[5:18, 28:31] += 0.8
    fanned[73:86, 30 + seed % 2:33 + seed % 2] += 0.8
    blank = np.ones((91, 59), np.uint8)
    blank[22:69, 6:53] = 0  # the numeral's box
    rows, (left, right) = np.arange(3, 21), columns
    without, with_pair = (read_kernels.index_pair(glyphs, blank, rows, 14, left, right, 2) for glyphs in (plain, fanned))
    assert without == read_kernels._numpy_index_pair(plain, blank, rows, 14, left, right, 2)
    assert with_pair == read_kernels._numpy_index_pair(fanned, blank, rows, 14, left, right, 2)
    assert without < 0.1 < 0.5 < with_pair


@pytest.mark.parametrize("seed", range(3))
def test_ink_distances_are_the_numpy_ones(seed):
    """Chromaticities all round the hue circle (a red's hue lies near half a turn, where
    the difference wraps round), against a deck's four inks."""
    rng = np.random.default_rng(seed)
    angles = np.linspace(-np.pi, np.pi, 40)
    points = np.stack([np.cos(angles), np.sin(angles)], axis=1) * rng.uniform(0.0005, 1.5, (40, 1))
    polar = np.array([[3.1, -0.6], [1.6, -0.4], [-2.0, -0.9], [-1.0, -0.3]])
    var_hue, var_sat, cross = rng.uniform(0.01, 0.05, 4), rng.uniform(0.01, 0.05, 4), 0.002
    determinant = var_hue * var_sat - cross * cross
    got = read_kernels.ink_distances2(points, polar, var_hue, var_sat, cross, determinant)
    np.testing.assert_allclose(got, read_kernels._numpy_ink_distances2(points, polar, var_hue, var_sat, cross,
                                                                       determinant), rtol=1e-12, atol=1e-12)
    nearest = got.argmin(axis=0)
    assert nearest[0] == nearest[-1] == 0  # half a turn either way is the red's hue


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("step", [1, 2])
def test_the_numeral_windows_and_their_spreads_are_the_numpy_ones(seed, step, monkeypatch):
    """Every window of a blurred glyph map with strokes as a row, and each window's spread
    (on bare paper, the floor)."""
    rng = np.random.default_rng(seed)
    region = rng.normal(0.0, 0.02, (49 + 2 * seed, 51)).astype(np.float32)
    region[10:40, 12 + seed:20 + seed] += 0.8
    region = cv2.GaussianBlur(region, (0, 0), 0.8)
    width = 4 if seed == 3 else 47
    compiled = read_kernels.window_rows(region, 47, width, step)
    compiled_bare = read_kernels.window_rows(np.zeros((49, 49), np.float32), 47, 47, step)
    monkeypatch.setattr(read_kernels, "_kernels", None)
    windows, norms = read_kernels.window_rows(region, 47, width, step)
    np.testing.assert_array_equal(compiled[0], windows)
    np.testing.assert_allclose(compiled[1], norms, rtol=1e-6)
    assert windows.shape == (((2 + 2 * seed) // step + 1) * ((51 - width) // step + 1), 47 * width)
    bare = np.zeros((49, 49), np.float32)
    assert read_kernels.window_rows(bare, 47, 47, step)[1].tolist() == compiled_bare[1].tolist() == [
        np.float32(np.sqrt(1e-9))] * (2 // step + 1) ** 2


@pytest.mark.parametrize("seed", range(4))
def test_a_cards_glyph_map_is_the_numpy_one(seed, monkeypatch):
    """The whole card and a crop of it projected onto the numeral's colour direction,
    alike to a float32 rounding (OpenCV's transform adds the channels in its own order)."""
    card, _ = normalised_card(seed)
    weights = np.float32([-0.5, -0.3, 0.1]) * (seed + 1)
    compiled = [read_kernels.projected(card, weights, 0, 0, 91, 59), read_kernels.projected(card, weights, 20, 5, 49, 49)]
    monkeypatch.setattr(read_kernels, "_kernels", None)
    for got, (top, left, height, width) in zip(compiled, [(0, 0, 91, 59), (20, 5, 49, 49)]):
        expected = read_kernels.projected(card, weights, top, left, height, width)
        assert got.shape == expected.shape == (height, width)
        np.testing.assert_allclose(got, expected, rtol=1e-6, atol=1e-6)
    assert compiled[0][32:60, 20:25].mean() > 0.2 > abs(float(compiled[0][:20].mean()))  # strokes, paper


def test_wrong_shapes_are_refused_with_a_clear_error():
    card, rows, mask = np.ones((9, 9, 3), np.float32), np.arange(4, dtype=np.int64), np.ones((5, 5), np.uint8)
    with pytest.raises(ValueError, match="wrong shape"):
        read_kernels.stroke_ink(card, rows, rows[:3], 0, 0, mask, mask, (0, 0), True, np.zeros(3, bool))
    with pytest.raises(ValueError, match="off the image"):
        read_kernels.stroke_ink(card, rows, rows, 6, 0, mask, mask, (0, 0), False, np.zeros(3, bool))
    with pytest.raises(ValueError, match="3 pixels"):
        read_kernels._kernels.strongest(np.ones((5, 2), np.float32), 0.9, 0.3, np.empty(3, np.float32))
    with pytest.raises(ValueError, match="wrong shape"):
        read_kernels.ring_paper_and_near_sum(np.ones((5, 5, 3), np.float32), np.ones((4, 5), np.uint8),
                                             np.ones((5, 5), np.uint8))
    with pytest.raises(ValueError, match="empty band"):
        read_kernels.weakest_edge(np.ones((12, 10), np.float32), np.zeros(1), 6, 5, 5)
    with pytest.raises(ValueError, match="do not fit"):
        read_kernels.index_pair(np.ones((9, 9), np.float32), np.ones((9, 9), np.uint8), np.array([3, 12]), 0, 2, 6, 1)
    with pytest.raises(ValueError, match="wrong shape"):
        read_kernels.normalised(np.ones((5, 5, 3), np.uint8), np.ones((5, 4, 3), np.float32), np.ones(3))
    with pytest.raises(ValueError, match="wrong shape"):
        read_kernels.ink_distances2(np.ones((3, 2)), np.ones((4, 2)), np.ones(4), np.ones(3), 0.0, np.ones(4))
    with pytest.raises(ValueError, match="rank outside"):
        read_kernels.channel_ranks(np.ones((5, 3), np.float32), 5)
    with pytest.raises(ValueError, match="wrong shape"):
        read_kernels._kernels.window_rows(np.ones((5, 5), np.float32), 3, 3, 1, np.empty((8, 9), np.float32),
                                          np.empty(8, np.float32))
    with pytest.raises(ValueError, match="does not lie on the image"):
        read_kernels.projected(np.ones((9, 9, 3), np.float32), np.ones(3, np.float32), 5, 0, 5, 9)
    with pytest.raises(ValueError, match="wrong shape"):  # a window larger than the region
        read_kernels._kernels.window_rows(np.ones((5, 5), np.float32), 6, 3, 1, np.empty((0, 18), np.float32),
                                          np.empty(0, np.float32))
    with pytest.raises(ValueError, match="rank outside"):
        read_kernels.quantiles_u8(np.ones((3, 3), np.uint8), 0, 9)


def test_the_reader_reads_a_table_alike_with_the_numpy_versions(monkeypatch):
    from companion.vision.table_reader import TableReader
    from test_find import _laid_out

    frame, _ = _laid_out("reference", "cloth")
    compiled = TableReader().read(frame)
    monkeypatch.setattr(read_kernels, "_kernels", None)
    with_numpy = TableReader().read(frame)
    assert sum(seen.card is not None for seen in compiled.cards) >= 5
    assert [(seen.card, round(seen.confidence, 9)) for seen in with_numpy.cards] == [
        (seen.card, round(seen.confidence, 9)) for seen in compiled.cards]
