"""The numerals on a measured face (:func:`~companion.vision.ink.measure`) as a
colour-free *glyph map* (0 background, 1 numeral), and what it tells besides the
number: ink where the deck prints nothing (:func:`stray_ink`), a pair of corner indices
where a fanned row's strips meet (:func:`index_ink`), and strokes evened where glare
took part of their contrast (:func:`evened_strokes`), and another card's edge running down
the face (:func:`seam_strength`). The card reader and the calibration use them; their
limits are fields of :data:`~companion.vision.thresholds.THRESHOLDS`.
"""

from __future__ import annotations

import cv2
import numpy as np

from .ink import Measurement
from .read_kernels import index_pair, projected, quantiles_u8, weakest_edge
from .thresholds import THRESHOLDS


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
    ``stray_ink`` above the paper's own level (``stray_paper_share``): the local
    background is the brightest paper within reach, so where the ink shows faintly (a
    cream card in a glare spot's light) the paper itself, grain and all, sits well above
    0; a hand or another card on the face lifts that level only where it covers three
    quarters of it."""
    if not blank.any():
        return 0.0
    values = glyphs[blank]
    k = int(THRESHOLDS.stray_paper_share * (len(values) - 1))
    paper = max(0.0, float(np.partition(values, k)[k]))  # a tenth of np.percentile's time
    return float(np.count_nonzero((glyphs > THRESHOLDS.stray_ink + paper) & blank)) / float(np.count_nonzero(blank))


def index_ink(glyphs: np.ndarray, blank: np.ndarray, band_end: int) -> float:
    """How strongly the bands above and below the numeral (``band_end`` rows from either
    end) show ink in their middle, in the same columns in both.

    A card shows its corner indices at its corners only; each strip of a fanned row
    shows its indices at its own left corners, one above the other, so an outline
    across two strips shows a pair of them in the middle. A card turned in its outline
    (a pile, a hand) shows an index off its corner in one band, not a pair. Per column
    the 80th percentile of the glyph map over the band's blank rows above the band's
    median column (the grain of a pale paper, a blurred picture), allowed to lie a
    little apart (``index_pair_px``); of the columns the best pair's weaker index. The
    map is smoothed first (``index_smooth_px``): an index is a blob several pixels wide,
    the noise of a dark channel (the blue of an inverse yellow card) a grain of one or
    two."""
    width = blank.shape[1]
    middle = THRESHOLDS.index_band_middle
    left, right = round(middle[0] * width), round(middle[1] * width)
    rows = np.flatnonzero(blank[:band_end, left:right].any(axis=1))
    if not len(rows):
        return 0.0
    glyphs = cv2.GaussianBlur(glyphs, (0, 0), THRESHOLDS.index_smooth_px)
    return index_pair(glyphs, blank.view(np.uint8), rows, round(0.8 * (len(rows) - 1)), left, right,
                      THRESHOLDS.index_pair_px)


def under_glare_evened(glyphs: np.ndarray, measurement: Measurement, px_per_mm: float) -> np.ndarray:
    """The glyph map of a card with glare (``glare_share`` of it saturated) evened
    (:func:`evened_strokes`): where a glare spot saturates the paper, the strokes under it
    lose most of their contrast, those beside it none. Without glare, as it is."""
    return evened_strokes(glyphs, px_per_mm) if shows_glare(measurement) else glyphs


def shows_glare(measured) -> bool:
    """Whether ``glare_share`` of the card saturates in every channel (``measured``: its
    :class:`~.ink.Measurement`, or a reading that carries its ``glare`` share): its
    strokes are evened to be matched, and no trace of a numeral does not mean no card."""
    return measured.glare >= THRESHOLDS.glare_share


def evened_strokes(glyphs: np.ndarray, px_per_mm: float) -> np.ndarray:
    """The glyph map with each stroke scaled to about 1 by the strongest ink around it
    (``glare_window_mm``; at least ``glare_floor``, so the paper's grain stays small): a
    glare spot saturates the paper under it, and the ink there, darker, still shows, but
    with a fraction of its contrast, so a numeral half under the spot matches poorly."""
    size = max(3, round(THRESHOLDS.glare_window_mm * px_per_mm) | 1)
    level = cv2.blur(cv2.dilate(glyphs, np.ones((size, size), np.uint8)), (size, size))
    return glyphs / np.maximum(level, np.float32(THRESHOLDS.glare_floor))


# --- seams: the edge of one card showing inside what was taken for another.
# An outline across two cards of a fanned row can read as a whole card: the strips of
# two cards, each showing the first digit of its number, piece together an 11 (a 1 and
# a piece of the next card's 3, a 13). Nothing printed on a card runs straight down its
# whole height in the middle of its face, but the edge of the next card in the row
# does: where it lies on the card below there is a step in brightness (a shadow, the
# next card's printed frame). :func:`seam_strength` finds the strongest such edge.

# turns of the edge against the outline's long side tried (horizontal shift per row):
# cards of a fanned row lie a few degrees askew to each other
SEAM_SHEARS = np.linspace(-0.08, 0.08, 9)
_SEAM_SMOOTH_PX = 0.7


def seam_strength(card: np.ndarray) -> float:
    """How strongly a straight edge runs down the middle of the face's whole height:
    the edge's weakest stretch (of ``seam_blocks``), in units of the face's contrast
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
    middle = THRESHOLDS.seam_middle
    strength = weakest_edge(across, SEAM_SHEARS, THRESHOLDS.seam_blocks, round(middle[0] * width),
                            round(middle[1] * width))
    return strength / contrast


__all__ = ["blank_face", "evened_strokes", "glyph_map", "index_ink", "shows_glare",
           "soft_glyph_map", "stray_ink", "under_glare_evened", "seam_strength"]
