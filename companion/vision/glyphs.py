"""The numerals on a measured face (:func:`~companion.vision.ink.measure`) as a
colour-free *glyph map* (0 background, 1 numeral), and what it tells besides the
number: ink where the deck prints nothing (:func:`stray_ink`), a pair of corner indices
where a fanned row's strips meet (:func:`index_ink`), and strokes evened where glare
took part of their contrast (:func:`evened_strokes`), and another card's edge running down
the face (:func:`seam_strength`). The card reader and the calibration use them.
"""

from __future__ import annotations

import cv2
import numpy as np

from .ink import Measurement
from .read_kernels import index_pair, projected, quantiles_u8, weakest_edge

STRAY_INK = 0.3  # a glyph-map value (0 paper, 1 ink) above the paper's own that counts as ink where the deck prints nothing
# The paper's own glyph-map value: the one this share of the blank face lies below. The
# local background is the brightest paper within reach, so on a card whose ink shows
# faintly (a cream card in a glare spot's light, its numeral 10 % darker than its paper)
# the paper itself, grain and all, sits well above 0 (a blue 16: 0.16, a fifth of its
# blank face above ``STRAY_INK``). Counted above that level, seed 2026 reads that B16,
# seed 11 a cream B9, seed 7 a cream Y9; seed 13 the same, none wrong (README). A hand or
# another card on the face lifts the level only where it covers three quarters of it.
STRAY_PAPER_SHARE = 0.25
INDEX_BAND_MIDDLE = (0.3, 0.7)  # share of the face's width where no deck prints a corner index
INDEX_PAIR_PX = 2  # at matching scale: two indices one above the other, a strip turned a little
# The glyph map is smoothed this much more (pixels, a Gaussian's sigma) before the bands are
# looked at: an index is a blob several pixels wide, the noise of a dark channel (the blue
# of an inverse yellow card) a grain of one or two. Unsmoothed, two yellow 11s whose fill's
# blue was dark showed 0.05–0.08, beyond ``pipeline.ONES_MAX_INDEX_INK``; smoothed, seed
# 2026 reads those two more, seed 13 a condensed G1, seed 7 an inverse R1; seed 11 the
# same, none wrong (README).
INDEX_SMOOTH_PX = 1.5
# A glare spot saturates the paper under it: the ink there, darker, still shows, but with
# a fraction of its contrast, so a numeral half under the spot matched its template
# poorly (a 16 whose 6 lay in the glare, 0.66, beside a 15 at 0.65). On a card with at
# least this share of its face saturated in every channel, each stroke is scaled by the
# strongest ink within this window (at least the floor: paper's grain stays small).
GLARE_SHARE, GLARE_WINDOW_MM, GLARE_FLOOR = 0.05, 9.0, 0.3


def glyph_map(measurement: Measurement, box: tuple[int, int, int, int] | None = None) -> np.ndarray:
    """float32 map of the numerals: 0 on the background, 1 on the numerals (``box``: a crop)."""
    height, width = measurement.normalised.shape[:2]
    x0, y0, x1, y1 = (0, 0, width, height) if box is None else box
    direction = (measurement.foreground - 1.0).astype(np.float32)
    norm2 = float(direction @ direction)
    if norm2 < 1e-6:
        return np.zeros((y1 - y0, x1 - x0), np.float32)
    return projected(measurement.normalised, direction / np.float32(norm2), y0, x0, y1 - y0, x1 - x0)


def blank_face(face_print: np.ndarray, margin_px: int) -> np.ndarray:
    """Where a card of this deck shows bare paper either way up (bool, matching scale),
    leaving out the outer ``margin_px``."""
    blank = (face_print < 128) & (face_print[::-1, ::-1] < 128)
    edge = np.zeros_like(blank)
    edge[margin_px:blank.shape[0] - margin_px, margin_px:blank.shape[1] - margin_px] = True
    return blank & edge


def soft_glyph_map(measurement: Measurement, blur: float) -> np.ndarray:
    """The whole card's glyph map, blurred as the numerals are for matching."""
    glyphs = glyph_map(measurement)
    return cv2.GaussianBlur(glyphs, (0, 0), blur) if blur > 0 else glyphs


def stray_ink(glyphs: np.ndarray, blank: np.ndarray) -> float:
    """The share of ``blank`` (see :func:`blank_face`) that shows ink on this card
    (``glyphs``: its :func:`soft_glyph_map`). A whole card of the deck shows none there;
    an outline across a fanned row shows the next card's corner index or a piece of its
    numeral, and a hand or another card lying on the card shows up too. Ink counts
    ``STRAY_INK`` above the paper's own level (``STRAY_PAPER_SHARE``)."""
    if not blank.any():
        return 0.0
    values = glyphs[blank]
    k = int(STRAY_PAPER_SHARE * (len(values) - 1))
    paper = max(0.0, float(np.partition(values, k)[k]))  # a tenth of np.percentile's time
    return float(np.count_nonzero((glyphs > STRAY_INK + paper) & blank)) / float(np.count_nonzero(blank))


def index_ink(glyphs: np.ndarray, blank: np.ndarray, band_end: int) -> float:
    """How strongly the bands above and below the numeral (``band_end`` rows from either
    end) show ink in their middle, in the same columns in both.

    A card shows its corner indices at its corners only; each strip of a fanned row
    shows its indices at its own left corners, one above the other, so an outline
    across two strips shows a pair of them in the middle. A card turned in its outline
    (a pile, a hand) shows an index off its corner in one band, not a pair. Per column
    the 80th percentile of the glyph map over the band's blank rows above the band's
    median column (the grain of a pale paper, a blurred picture), allowed to lie a
    little apart (``INDEX_PAIR_PX``); of the columns the best pair's weaker index. The
    map is smoothed first (``INDEX_SMOOTH_PX``)."""
    width = blank.shape[1]
    left, right = round(INDEX_BAND_MIDDLE[0] * width), round(INDEX_BAND_MIDDLE[1] * width)
    rows = np.flatnonzero(blank[:band_end, left:right].any(axis=1))
    if not len(rows):
        return 0.0
    glyphs = cv2.GaussianBlur(glyphs, (0, 0), INDEX_SMOOTH_PX)
    return index_pair(glyphs, blank.view(np.uint8), rows, round(0.8 * (len(rows) - 1)), left, right, INDEX_PAIR_PX)


def under_glare_evened(glyphs: np.ndarray, measurement: Measurement, px_per_mm: float) -> np.ndarray:
    """The glyph map of a card with glare (``GLARE_SHARE`` of it saturated) evened
    (:func:`evened_strokes`): where a glare spot saturates the paper, the strokes under it
    lose most of their contrast, those beside it none. Without glare, as it is."""
    return evened_strokes(glyphs, px_per_mm) if shows_glare(measurement) else glyphs


def shows_glare(measured) -> bool:
    """Whether ``GLARE_SHARE`` of the card saturates in every channel (``measured``: its
    :class:`~.ink.Measurement`, or a reading that carries its ``glare`` share): its
    strokes are evened to be matched, and no trace of a numeral does not mean no card."""
    return measured.glare >= GLARE_SHARE


def evened_strokes(glyphs: np.ndarray, px_per_mm: float) -> np.ndarray:
    """The glyph map with each stroke scaled to about 1 by the strongest ink around it
    (``GLARE_WINDOW_MM``; at least ``GLARE_FLOOR``)."""
    size = max(3, round(GLARE_WINDOW_MM * px_per_mm) | 1)
    level = cv2.blur(cv2.dilate(glyphs, np.ones((size, size), np.uint8)), (size, size))
    return glyphs / np.maximum(level, np.float32(GLARE_FLOOR))


# --- seams: the edge of one card showing inside what was taken for another.
# An outline across two cards of a fanned row can read as a whole card: the strips of
# two cards, each showing the first digit of its number, piece together an 11 (a 1 and
# a piece of the next card's 3, a 13). Nothing printed on a card runs straight down its
# whole height in the middle of its face, but the edge of the next card in the row
# does: where it lies on the card below there is a step in brightness (a shadow, the
# next card's printed frame). :func:`seam_strength` finds the strongest such edge.

SEAM_MIDDLE = (0.25, 0.75)  # share of the face's width searched: a deck's printed frame lies outside it
# turns of the edge against the outline's long side tried (horizontal shift per row):
# cards of a fanned row lie a few degrees askew to each other
SEAM_SHEARS = np.linspace(-0.08, 0.08, 9)
SEAM_BLOCKS = 6  # the face's height cut into this many blocks: a seam shows in every one
_SEAM_SMOOTH_PX = 0.7


def seam_strength(card: np.ndarray) -> float:
    """How strongly a straight edge runs down the middle of the face's whole height:
    the edge's weakest stretch (of ``SEAM_BLOCKS``), in units of the face's contrast
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
    across = np.abs(cv2.Sobel(cv2.GaussianBlur(grey, (0, 0), _SEAM_SMOOTH_PX), cv2.CV_32F, 1, 0, ksize=3))
    width = across.shape[1]
    strength = weakest_edge(across, SEAM_SHEARS, SEAM_BLOCKS, round(SEAM_MIDDLE[0] * width), round(SEAM_MIDDLE[1] * width))
    return strength / contrast


__all__ = ["GLARE_SHARE", "STRAY_INK", "blank_face", "evened_strokes", "glyph_map", "index_ink", "shows_glare",
           "soft_glyph_map", "stray_ink", "under_glare_evened", "seam_strength"]
