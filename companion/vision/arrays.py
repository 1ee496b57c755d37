"""Medians of small arrays, as ``np.median`` gives them, without its generic machinery.

The reader and the finder take medians of a few dozen to a few thousand values, several
hundred times a frame; on arrays that small ``np.median``'s checks and dispatch cost
more than the partition itself."""

from __future__ import annotations

import numpy as np


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


__all__ = ["median", "row_medians"]
