"""Outlines of calibration pictures put right by the deck's own print (for :mod:`companion.vision.calibration`).

An outline a few degrees or millimetres off its card (a search on a checked cloth that
followed the cloth's lines, an edge of the table taken for the card's) rectifies a
turned or shifted numeral, and the template learned from it is turned or shifted as
much: a cream 13 learned 8° off read the deck's 13s as 15s. Every card of a deck prints
the same things outside its numeral (a frame, corner indices, the edge of a colour
fill), at the same places either way up. So each picture's print outside the numeral
box, blurred and folded onto itself turned by 180°, is compared with the median of all
the pictures' (:func:`offsets`). Where turning and shifting the card matches it clearly
better, the caller moves the outline so (:func:`moved_corners`); a picture that matches
poorly either way has no card's outline, and is retaken.
"""

from __future__ import annotations

import cv2
import numpy as np

from .profile import Layout

_TURNS_DEG = np.arange(-12.0, 12.01, 0.5)  # tried either way
_SHIFT_MM = 3.0  # tried either way, on both axes
_BLUR_MM = 1.5  # corner indices differ by number; blurred, they lie alike
# a picture is moved where that matches the others' print at least this much better …
MOVE_GAIN = 0.015
# … and is no card's outline where its print matches theirs less than this, moved or not:
# an outline across something card-like (two table boards) shares little of a deck's print
MIN_LIKENESS = 0.75


def _print_outside(glyph: np.ndarray, layout: Layout) -> np.ndarray:
    """The glyph map's print outside the numeral box, blurred, the same either way up."""
    outside = np.clip(glyph, 0.0, 1.0).astype(np.float32)
    for x0, y0, x1, y1 in layout.boxes_px():
        outside[y0:y1, x0:x1] = 0.0
    outside = cv2.GaussianBlur(outside, (0, 0), _BLUR_MM * layout.match_px_per_mm)
    return (outside + outside[::-1, ::-1]) / 2


def offsets(glyphs: list[np.ndarray], layout: Layout) -> list[tuple[float, float, np.ndarray]]:
    """Per glyph map (whole card, matching scale): how much its print outside the
    numeral box looks like the median of all of them as it lies and at best, and the
    affine map (2 × 3, card pixels) that turns and shifts it there."""
    prints = [_print_outside(g, layout) for g in glyphs]
    median = np.median(np.stack(prints), axis=0).astype(np.float32)
    reach = round(_SHIFT_MM * layout.match_px_per_mm)
    h, w = median.shape
    inner = np.ascontiguousarray(median[reach:h - reach, reach:w - reach])
    centre = ((w - 1) / 2, (h - 1) / 2)
    results = []
    for printed in prints:
        as_it_lies, best, best_map = None, -1.0, None
        for turn in _TURNS_DEG:
            turning = cv2.getRotationMatrix2D(centre, float(turn), 1.0)
            turned = cv2.warpAffine(printed, turning, (w, h), flags=cv2.INTER_LINEAR)
            # the median's middle looked for in the turned print: where it lies tells the shift
            scores = cv2.matchTemplate(turned, inner, cv2.TM_CCOEFF_NORMED)
            if turn == 0.0:
                as_it_lies = float(scores[reach, reach])
            _, score, _, (dx, dy) = cv2.minMaxLoc(scores)
            if score > best:
                best, best_map = float(score), turning.copy()
                best_map[:, 2] -= (dx - reach, dy - reach)
        results.append((as_it_lies, best, best_map))
    return results


def moved_corners(corners: np.ndarray, move: np.ndarray, layout: Layout) -> np.ndarray:
    """The corners (picture pixels, top-left first as :func:`~companion.vision.card_reader.card_for_matching`
    takes them) of the outline whose rectified card is the card of ``corners`` moved by
    ``move`` (card pixels at matching scale, from :func:`offsets`)."""
    w, h = layout.card_px(layout.match_px_per_mm)
    card = np.float32([[-0.5, -0.5], [w - 0.5, -0.5], [w - 0.5, h - 0.5], [-0.5, h - 0.5]])
    to_picture = cv2.getPerspectiveTransform(card, np.float32(corners))
    back = cv2.invertAffineTransform(move)
    on_card = card @ back[:, :2].T + back[:, 2]  # where the moved card's corners lie on the card as it was
    return cv2.perspectiveTransform(on_card.reshape(-1, 1, 2).astype(np.float32), to_picture).reshape(4, 2)


__all__ = ["MIN_LIKENESS", "MOVE_GAIN", "moved_corners", "offsets"]
