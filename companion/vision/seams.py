"""Seams: the edge of one card showing inside what was taken for another.

An outline across two cards of a fanned row can read as a whole card: the strips of
two cards, each showing the first digit of its number, piece together an 11 (a 1 and
a piece of the next card's 3, a 13). Nothing printed on a card runs straight down its
whole height in the middle of its face, but the edge of the next card in the row
does: where it lies on the card below there is a step in brightness (a shadow, the
next card's printed frame). :func:`seam_strength` finds the strongest such edge.
"""

from __future__ import annotations

import cv2
import numpy as np

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
    # a slanted edge lies in each block's column profile shifted by the slant times the
    # block's height from the middle: shift the profiles back (linearly interpolated)
    centres = (np.arange(BLOCKS) + 0.5) * block - height / 2
    source = np.arange(width)[None, None, :] - SHEARS[:, None, None] * centres[None, :, None]
    source = np.clip(source, 0, width - 1)
    below = np.minimum(source.astype(np.intp), width - 2)
    frac = source - below
    rows = np.arange(BLOCKS)[None, :, None]
    straightened = means[rows, below] * (1 - frac) + means[rows, below + 1] * frac  # (shears, blocks, columns)
    weakest = straightened.min(axis=1)  # (shears, columns)
    left, right = round(MIDDLE[0] * width), round(MIDDLE[1] * width)
    strength = (weakest[:, left:right] - np.median(weakest, axis=1, keepdims=True)).max()
    return float(strength) / contrast


__all__ = ["seam_strength"]
