"""Two-digit numerals composed from the sharp digits of other numbers (for :mod:`companion.vision.calibrate`).

Of the 23 pictures a family lays out, each of the numbers 12–20 has one. A two-digit
numeral learned from a soft picture (shaken a little, out of focus) matches the sharp
numerals of a game less well than a sharp numeral sharing a digit with it does: a cream
deck's soft 19 let every other 19 be read as a 10. Its digits are printed sharp
elsewhere, though: the 1 and the 9 alone (or the 1 of another teen). Where the deck prints its
two-digit numerals with the digits of its single ones (checked by composing its sharp
teens the same way), and the composed numeral, blurred, looks like the soft picture, the
composed numeral is the template.

Templates here are float32 glyph maps of the numeral box (0 paper, 1 ink), upright.
"""

from __future__ import annotations

import cv2
import numpy as np

from .digits import ncc

SOFT = 0.7  # a picture keeping less than this share of the set's typical fine detail is soft
_MODEL_MIN = 0.9  # the deck's sharp teens, composed from digits, look this much like themselves
_EXPLAINS_MIN = 0.9  # the composed numeral, blurred, looks this much like the soft picture
_PIECE_MIN = 0.7  # each digit is found in the soft picture at least this well
_MIN_AREA = 6  # pixels of ink: smaller parts are specks, not digits
# A deck squeezes a two-digit numeral wider than its print allows (an 18 more than a 13):
# the digits are tried narrowed to these shares of their width.
_SQUEEZES = (1.0, 0.95, 0.9, 0.85, 0.8)


def compose_soft(templates: dict[int, np.ndarray], soft: set[int]) -> dict[int, float]:
    """Replaces the templates (float32, upright) of the two-digit numbers in ``soft`` whose
    every picture is soft by numerals composed from the digits of sharp numbers, where
    the deck allows it and the composition looks like the soft picture. Returns the
    numbers replaced and how alike each composed numeral, blurred, is to its picture."""
    sharp = set(templates) - soft
    if _model_fit(templates, sharp) < _MODEL_MIN:
        return {}
    replaced = {}
    for number in sorted(n for n in soft if n >= 10 and n in templates):
        tried = [(_explains(composed, templates[number]), i, composed) for i, composed in
                 enumerate(_composed(number, templates, sharp - {number}, squeeze) for squeeze in _SQUEEZES)
                 if composed is not None]
        if tried:
            likeness, _, composed = max(tried, key=lambda t: (t[0], -t[1]))  # alike: the less squeezed
            if likeness >= _EXPLAINS_MIN:
                templates[number] = composed
                replaced[number] = likeness
    return replaced


def _explains(composed: np.ndarray, soft: np.ndarray) -> float:
    """How alike the composed numeral, blurred as the soft picture may be (out of focus,
    or smeared along a line), is to it."""
    return max(ncc(cv2.filter2D(composed, -1, kernel) if kernel is not None else composed, soft)
               for kernel in _BLURS)


def _blurs() -> list[np.ndarray | None]:
    kernels: list[np.ndarray | None] = [None]
    for sigma in (0.5, 1.0, 1.5, 2.0):  # out of focus
        line = cv2.getGaussianKernel(2 * round(3 * sigma) + 1, sigma)
        kernels.append(np.float32(line @ line.T))
    for length in (3, 5, 7, 9):  # a shaken camera: a smear along a line
        for angle in (0, 45, 90, 135):
            kernel = np.zeros((length, length), np.float32)
            c, reach = length // 2, (length - 1) / 2
            dx, dy = reach * np.cos(np.radians(angle)), reach * np.sin(np.radians(angle))
            cv2.line(kernel, (round(c - dx), round(c - dy)), (round(c + dx), round(c + dy)), 1.0, 1)
            kernels.append(kernel / kernel.sum())
    return kernels


_BLURS = _blurs()


def _model_fit(templates: dict[int, np.ndarray], sharp: set[int]) -> float:
    """How alike the sharp two-digit numerals are to themselves composed from other
    numbers' digits (median; 0 when none can be composed): a deck that prints its
    two-digit numerals in another font, or single digits underlined, composes badly."""
    fits = []
    for number in sorted(n for n in sharp if n >= 10):
        tried = [ncc(composed, templates[number]) for composed in
                 (_composed(number, templates, sharp - {number}, squeeze) for squeeze in _SQUEEZES)
                 if composed is not None]
        if tried:
            fits.append(max(tried))
    return float(np.median(fits)) if fits else 0.0


def _composed(number: int, templates: dict[int, np.ndarray], sources: set[int],
              squeeze: float = 1.0) -> np.ndarray | None:
    """``number``'s numeral from digits of ``sources``' templates, narrowed to ``squeeze``
    of their width, each digit placed where it matches ``number``'s own template best (its
    half of the box); None when a digit has no sharp source or is not found."""
    tens, units = divmod(number, 10)
    left = _left_digit(tens, templates, sources)
    right = _right_digit(units, templates, sources)
    if left is None or right is None:
        return None
    if squeeze != 1.0:
        left, right = (cv2.resize(piece, (max(1, round(piece.shape[1] * squeeze)), piece.shape[0]),
                                  interpolation=cv2.INTER_AREA) for piece in (left, right))
    target = templates[number]
    half, overlap = target.shape[1] // 2, 3
    out = np.zeros_like(target)
    for piece, x0, x1 in ((left, 0, half + overlap), (right, half - overlap, target.shape[1])):
        region = np.ascontiguousarray(target[:, x0:x1])
        if piece.shape[0] > region.shape[0] or piece.shape[1] > region.shape[1]:
            return None
        _, found, _, (dx, dy) = cv2.minMaxLoc(cv2.matchTemplate(region, piece, cv2.TM_CCOEFF_NORMED))
        if found < _PIECE_MIN:
            return None
        place = out[dy:dy + piece.shape[0], x0 + dx:x0 + dx + piece.shape[1]]
        np.maximum(place, piece, out=place)
    return out


def _left_digit(tens: int, templates, sources) -> np.ndarray | None:
    """The single digit as printed alone (never squeezed), else the 1 of another teen."""
    if tens in sources:
        return _digit(templates[tens], "whole")
    return next((_digit(templates[n], "left") for n in sorted(sources) if tens == 1 and 11 <= n <= 19), None)


def _right_digit(units: int, templates, sources) -> np.ndarray | None:
    if units == 0:  # the 0 of the other round number
        return next((_digit(templates[n], "right") for n in (10, 20) if n in sources), None)
    if units in (6, 9):  # printed alone with an underline, which a two-digit numeral lacks
        return _without_underline(templates[units], templates, sources) if units in sources else None
    return _digit(templates[units], "whole") if units in sources else None


def _without_underline(template: np.ndarray, templates, sources) -> np.ndarray | None:
    """A 6 or 9 printed alone, cut to the height of the other single digits: an underline
    close below it joins the digit's ink."""
    digit = _digit(template, "whole")
    heights = [piece.shape[0] for piece in (_digit(templates[n], "whole") for n in sources if n <= 9 and n not in (6, 9))
               if piece is not None]
    if digit is None or not heights:
        return None
    return np.ascontiguousarray(digit[:int(np.median(heights))])


def _digit(template: np.ndarray, which: str) -> np.ndarray | None:
    """A digit cut from a template: its ink and a pixel around it (``whole``: a single
    digit's largest part, without the underline of 6 and 9; ``left``/``right``: of a
    two-digit numeral's two largest parts)."""
    count, labels, stats, _ = cv2.connectedComponentsWithStats((template > 0.5).astype(np.uint8), connectivity=8)
    parts = [i for i in range(1, count) if stats[i, cv2.CC_STAT_AREA] >= _MIN_AREA]
    if not parts or (which != "whole" and len(parts) < 2):
        return None
    parts.sort(key=lambda i: -stats[i, cv2.CC_STAT_AREA])
    if which == "whole":
        part = parts[0]
    else:
        pair = sorted(parts[:2], key=lambda i: stats[i, cv2.CC_STAT_LEFT])
        part = pair[0] if which == "left" else pair[1]
    grown = cv2.dilate((labels == part).astype(np.uint8), np.ones((3, 3), np.uint8)) > 0
    x, y, w, h = stats[part, :4]
    rows, cols = template.shape
    y0, y1, x0, x1 = max(0, y - 1), min(rows, y + h + 1), max(0, x - 1), min(cols, x + w + 1)
    return np.ascontiguousarray(np.where(grown, template, 0)[y0:y1, x0:x1], np.float32)
