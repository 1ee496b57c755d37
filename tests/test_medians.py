"""The reader's small-array medians (companion.vision.kernels) give exactly what
``np.median`` gives: the reader's readings must not depend on which one ran."""

from __future__ import annotations

import numpy as np
import pytest

from companion.vision.kernels import median, row_medians


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.uint8])
@pytest.mark.parametrize("size", [1, 2, 5, 6, 59, 60])
def test_medians_are_numpys_to_the_last_bit(size, dtype):
    rng = np.random.default_rng(size)
    values = (rng.normal(size=(9, size)) * 50 + 100).astype(dtype)
    assert median(values[0]) == float(np.median(values[0]))
    rows, expected = row_medians(values), np.median(values, axis=1, keepdims=True)
    assert rows.dtype == expected.dtype and rows.shape == expected.shape and np.array_equal(rows, expected)


def test_a_median_leaves_its_values_in_place():
    values = np.array([3.0, 1.0, 2.0, 5.0])
    median(values)
    row_medians(values[None, :])
    assert values.tolist() == [3.0, 1.0, 2.0, 5.0]
