"""Seams: the edge of one card showing inside what was taken for another.

An outline across two cards of a fanned row can read as a whole card: the strips of
two cards, each showing the first digit of its number, piece together an 11 (a 1 and
a piece of the next card's 3, a 13). Nothing printed on a card runs straight down its
whole height in the middle of its face, but the edge of the next card in the row
does: where it lies on the card below there is a step in brightness (a shadow, the
next card's printed frame). :func:`seam_strength` finds the strongest such edge.
"""

from __future__ import annotations

import functools

import cv2
import numpy as np

from .arrays import row_medians

MIDDLE = (0.25, 0.75)  # share of the face's width searched: a deck's printed frame lies outside it
# turns of the edge against the outline's long side tried (horizontal shift per row):
# cards of a fanned row lie a few degrees askew to each other
SHEARS = np.linspace(-0.08, 0.08, 9)
BLOCKS = 6  # the face's height cut into this many blocks: a seam shows in every one
_SMOOTH_PX = 0.7


def seam_strength(card: np.ndarray) -> float:
    """How strongly a straight edge runs down the middle of the face's whole height:
    the edge's weakest stretch (of ``BLOCKS``), in units of the face's contrast
    between paper and darkest print. ``card`` is the face upright, BGR, any scale.
    Numerals' strokes run down part of the height only, so their weakest stretch is
    paper."""
    blue, green, red = cv2.split(card)
    grey = cv2.min(cv2.min(blue, green), red).astype(np.float32)  # ink and shadow darken the channel the paper fills least
    flat = grey.ravel()
    low, high = round(0.02 * (flat.size - 1)), round(0.9 * (flat.size - 1))
    ranked = np.partition(flat, (low, high))
    contrast = float(ranked[high] - ranked[low])
    if contrast < 1.0:
        return 0.0
    across = np.abs(cv2.Sobel(cv2.GaussianBlur(grey, (0, 0), _SMOOTH_PX), cv2.CV_32F, 1, 0, ksize=3))
    height, width = across.shape
    block = height // BLOCKS
    means = across[:block * BLOCKS].reshape(BLOCKS, block, width).mean(axis=1)  # (blocks, columns)
    below, frac, rest = _shear_grid(height, width)
    straightened = means.take(below) * rest + means.take(below + 1) * frac  # (shears, blocks, columns)
    weakest = straightened.min(axis=1)  # (shears, columns)
    left, right = round(MIDDLE[0] * width), round(MIDDLE[1] * width)
    strength = (weakest[:, left:right] - row_medians(weakest)).max()
    return float(strength) / contrast


@functools.lru_cache(maxsize=16)
def _shear_grid(height: int, width: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Where each sheared column profile takes its values: a slanted edge lies in each
    block's column profile shifted by the slant times the block's height from the
    middle, so the profiles are shifted back, linearly interpolated between the column
    ``below`` (an index into the flat (blocks, columns) profiles) and the next, weighted
    ``rest`` and ``frac``. Each (shears, blocks, columns); read only, shared by every
    card of this size."""
    block = height // BLOCKS
    centres = (np.arange(BLOCKS) + 0.5) * block - height / 2
    source = np.arange(width)[None, None, :] - SHEARS[:, None, None] * centres[None, :, None]
    source = np.clip(source, 0, width - 1)
    column = np.minimum(source.astype(np.intp), width - 2)
    frac = source - column
    below = column + width * np.arange(BLOCKS)[None, :, None]
    grid = below, frac, 1 - frac
    for array in grid:
        array.flags.writeable = False
    return grid


__all__ = ["seam_strength"]
