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

from .read_kernels import quantiles_u8, weakest_edge

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
    darkest = cv2.min(cv2.min(blue, green), red)  # ink and shadow darken the channel the paper fills least
    size = darkest.size
    low, high = quantiles_u8(darkest, round(0.02 * (size - 1)), round(0.9 * (size - 1)))
    contrast = float(high - low)
    if contrast < 1.0:
        return 0.0
    grey = darkest.astype(np.float32)
    across = np.abs(cv2.Sobel(cv2.GaussianBlur(grey, (0, 0), _SMOOTH_PX), cv2.CV_32F, 1, 0, ksize=3))
    width = across.shape[1]
    strength = weakest_edge(across, SHEARS, BLOCKS, round(MIDDLE[0] * width), round(MIDDLE[1] * width))
    return strength / contrast


__all__ = ["seam_strength"]
