"""Procedural table surfaces: size, determinism, texture, and each kind looking like itself."""

import cv2
import numpy as np
import pytest

from companion.sim.surface import SURFACES, make_surface

SEEDS = range(6)


def _grey(image):
    return cv2.cvtColor(image, cv2.COLOR_BGR2GRAY).astype(np.float64)


def _fine_texture(image):
    """Spread of the detail finer than about 2 px (what a flat colour lacks)."""
    grey = _grey(image)
    return float((grey - cv2.GaussianBlur(grey, (0, 0), 2)).std())


@pytest.mark.parametrize("kind", SURFACES)
@pytest.mark.parametrize("size", [(333, 211), (64, 480), (1, 1)])
def test_every_kind_renders_the_requested_size(kind, size):
    image = make_surface(kind, size, 2.0, np.random.default_rng(1))
    assert image.shape == (size[1], size[0], 3)
    assert image.dtype == np.uint8


@pytest.mark.parametrize("kind", SURFACES)
def test_same_seed_same_pixels_other_seed_other_pixels(kind):
    first = make_surface(kind, (300, 200), 2.0, np.random.default_rng(5))
    again = make_surface(kind, (300, 200), 2.0, 5)  # a seed works as well as a generator
    other = make_surface(kind, (300, 200), 2.0, np.random.default_rng(6))
    assert np.array_equal(first, again)
    assert np.abs(first.astype(int) - other.astype(int)).mean() > 1.0


@pytest.mark.parametrize("kind", SURFACES)
def test_no_kind_is_flat(kind):
    for seed in SEEDS:
        image = make_surface(kind, (400, 300), 2.0, seed)
        assert _grey(image).std() > 1.5  # even a plain navy cloth has weave and folds
        assert _fine_texture(image) > 1.0


def test_wood_is_warm_and_grained():
    for seed in SEEDS:
        image = make_surface("wood", (400, 300), 2.0, seed)
        blue, green, red = image.reshape(-1, 3).mean(axis=0)
        assert red > green > blue and red - blue > 40
        assert _fine_texture(image) > 3.0


def test_mat_is_dark():
    for seed in SEEDS:
        image = make_surface("mat", (400, 300), 2.0, seed)
        assert _grey(image).mean() < 50
        assert image.reshape(-1, 3).mean(axis=0).max() < 90


def test_pattern_has_strong_contrast():
    for seed in SEEDS:
        image = make_surface("pattern", (400, 300), 2.0, seed)
        assert _grey(image).std() > 20
        assert _fine_texture(image) > 5.0


def test_plain_cloth_is_an_even_colour():
    for seed in SEEDS:
        image = make_surface("cloth", (400, 300), 2.0, seed)
        grey = _grey(image)
        assert grey.std() / grey.mean() < 0.2
        assert _fine_texture(image) < 4.5


def test_kinds_differ_from_each_other_for_the_same_seed():
    for seed in SEEDS:
        descriptors = []
        for kind in SURFACES:
            image = make_surface(kind, (400, 300), 2.0, seed)
            descriptors.append(np.concatenate([image.reshape(-1, 3).mean(axis=0),
                                               [_grey(image).std() * 3, _fine_texture(image) * 5]]))
        for i in range(len(SURFACES)):
            for j in range(i + 1, len(SURFACES)):
                assert np.linalg.norm(descriptors[i] - descriptors[j]) > 15, (SURFACES[i], SURFACES[j], seed)


def test_unknown_kind_and_bad_sizes_are_refused():
    with pytest.raises(ValueError):
        make_surface("marble", (10, 10), 2.0, 0)
    with pytest.raises(ValueError):
        make_surface("wood", (0, 10), 2.0, 0)
    with pytest.raises(ValueError):
        make_surface("wood", (10, 10), 0.0, 0)
