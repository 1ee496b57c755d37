"""How much a patch of ink looks like a given number, judged against that number drawn
with the bundled fonts (sans, serif, condensed).

A deck's own numerals are not known before it is calibrated, but every deck prints
plain digits: drawn with the fonts in ``companion/assets/fonts/`` and compared by
normalised cross-correlation after both are cropped to their ink, they tell whether a
picture's middle shows the expected number at all (finding the card in a calibration
picture) and which way up it lies (learning the deck).
"""

from __future__ import annotations

import functools

import cv2
import numpy as np

from ..fonts import FONT_DIR, bundled_font

_FONTS = ("DejaVuSans-Bold.ttf", "DejaVuSerif-Bold.ttf", "DejaVuSansCondensed-Bold.ttf", "DejaVuSans.ttf")
_PATCH = 24  # digits are compared at this size (px), their ink's box stretched to it
_SOFTEN_PX = 1.0
_WIGGLE = (-1, 0, 1)  # px, see font_likeness
_MIN_HEIGHT_PX = 8  # digits at least this high: a card's numeral is over 10 mm high
_OFF_CENTRE = 0.4  # the digits' centre at most this share of the patch (both ways together) off its centre
_ASPECT = 1.4  # the digits' width over height at most this factor from the font's


def ncc(a: np.ndarray, b: np.ndarray) -> float:
    """Normalised cross-correlation of two arrays of the same shape (-1 to 1)."""
    a = a - a.mean()
    b = b - b.mean()
    return float((a * b).sum() / max(np.sqrt((a * a).sum() * (b * b).sum()), 1e-9))


def font_likeness(glyph: np.ndarray, number: int) -> float:
    """How much the ink in ``glyph`` (a glyph map: 0 paper, 1 ink) looks like ``number``
    printed upright in a common font; 0 when there is no ink."""
    box = _ink_box(glyph)
    if box is None or box[3] - box[1] < _MIN_HEIGHT_PX:
        return 0.0  # a speck stretched to the patch looks like anything stretched as much
    x0, y0, x1, y1 = box
    h, w = glyph.shape
    if abs(x0 + x1 - w) > _OFF_CENTRE * w or abs(y0 + y1 - h) > _OFF_CENTRE * h:
        return 0.0  # a deck prints its numerals in the middle
    likeness = 0.0
    # the box's sides a pixel either way: a thin stroke's edge may fall either side of the
    # ink threshold, and a box a pixel off moves it by a twentieth of the patch
    for left, right in ((x0 + a, x1 + b) for a in _WIGGLE for b in _WIGGLE):
        if not (0 <= left < right <= w):
            continue
        digits = _unit(_soft(np.clip(glyph[y0:y1, left:right], 0, 1).astype(np.float32)))
        for font_aspect, reference in _references(number, right - left, y1 - y0):
            # stretched to a square, a 1 and a 7 differ little: the shapes must agree too
            if 1 / _ASPECT <= (right - left) / (y1 - y0) / font_aspect <= _ASPECT:
                likeness = max(likeness, float(digits @ reference))
    return likeness


@functools.lru_cache(maxsize=1024)
def _references(number: int, width: int, height: int) -> tuple[tuple[float, np.ndarray], ...]:
    """(width over height, patch) of ``number`` in each font, the patch drawn at the
    picture's size first (so that both are as blurred), then stretched and softened
    like the picture's digits, ready for a dot product."""
    return tuple((reference.shape[1] / reference.shape[0],
                  _unit(_soft(cv2.resize(reference, (width, height), interpolation=cv2.INTER_AREA))))
                 for reference in _font_digits(number))


def _unit(patch: np.ndarray) -> np.ndarray:
    """The patch as a vector of zero mean and unit length: its dot product with another is their correlation."""
    vector = patch.ravel() - patch.mean()
    return vector / max(float(np.linalg.norm(vector)), 1e-9)


def _ink_box(glyph: np.ndarray) -> tuple[int, int, int, int] | None:
    """(x0, y0, x1, y1) around the digits: the ink's parts, leaving out specks and the
    underline of 6 and 9 (a wide thin bar beyond the digits' height; the foot of a serif
    1 broken off its stem is a wide thin bar too, but beside the digits)."""
    ink = (glyph > 0.5).astype(np.uint8)
    count, _, stats, _ = cv2.connectedComponentsWithStats(ink, connectivity=8)
    parts = [stats[i] for i in range(1, count) if stats[i, cv2.CC_STAT_AREA] >= 3]
    digits = [b for b in parts if b[2] < 2.5 * b[3]]
    if not digits:
        return None
    top, bottom = min(b[1] for b in digits), max(b[1] + b[3] for b in digits)
    parts = [b for b in parts if b[2] < 2.5 * b[3] or (b[1] < bottom and b[1] + b[3] > top)]
    return (min(b[0] for b in parts), min(b[1] for b in parts), max(b[0] + b[2] for b in parts),
            max(b[1] + b[3] for b in parts))


def _soft(patch: np.ndarray) -> np.ndarray:
    """The patch stretched to the comparison size and softened: a digits' box found a
    pixel wider or narrower moves thin strokes by a pixel, which must not matter."""
    patch = cv2.resize(patch, (_PATCH, _PATCH), interpolation=cv2.INTER_LINEAR)
    return cv2.GaussianBlur(patch, (0, 0), _SOFTEN_PX)


@functools.lru_cache(maxsize=None)
def _font_digits(number: int) -> tuple[np.ndarray, ...]:
    """``number`` drawn upright with each bundled font, cropped to its ink (96 px high)."""
    from PIL import Image, ImageDraw

    patches = []
    for name in _FONTS:
        if not (FONT_DIR / name).is_file():
            continue
        font = bundled_font(name, 96)
        canvas = Image.new("L", (260, 160), 0)
        ImageDraw.Draw(canvas).text((20, 10), str(number), font=font, fill=255)
        array = np.asarray(canvas, np.float32) / 255
        ys, xs = np.nonzero(array > 0.5)
        patches.append(array[ys.min():ys.max() + 1, xs.min():xs.max() + 1])
    return tuple(patches)
