"""Numerals printed in one half of the face (for :mod:`companion.vision.calibration`).

Most decks print the numeral about the card's centre, and the reader matches one box
either way up (:func:`companion.vision.numerals.learn_box`). A Junior deck prints a small
numeral above an illustration: a box symmetric about the centre would hold the
illustration too, which differs from card to card and drowns the numeral. Here the
pictures are first laid the same way up by the whole face (:func:`orient_faces`), then
the box is learned where the numerals lie on the faces laid so (:func:`off_centre_box`).

Works on the calibration's pictures (``card``, ``glyph``, ``poor``, ``turned``,
``turn_evidence``), as :mod:`companion.vision.numerals` does.
"""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np

from .digits import font_likeness
from .numerals import _BOX_PAD_MM, _DIFFER_SHARE, _EDGE_BAND_MM, box_pictures, differ_maps, low_fence, numeral_extent
from .profile import CARD_MM, Layout

_FACE_BLUR_MM = 2.0
# the faces are compared by their full-strength ink only: an illustration is printed in a
# paler shade than the numerals, and one larger than a single digit would outweigh it
_STRONG_INK = 0.75  # faces compared this blurred: an outline a little off still lays them alike
# the numerals must end this far short of the card's middle line to count as printed in one half
_HALF_CLEARANCE_MM = 2.0
# an illustration differs between cards of one number about as much as between numbers;
# taken away twice over, it is gone, while numerals (alike within a number) stay
_WITHIN_WEIGHT = 2.0
_CLEARLY_MORE = 0.1  # font likeness (correlation) one way up over the other that decides a picture's


def orient_faces(pictures, px_per_mm: float) -> None:
    """Turns the pictures (``turned``) so their faces lie alike, as far as the whole face
    tells: what a face prints differently in its two halves (its map minus the map turned
    by 180°) points the same way on every card of a deck that prints a numeral above an
    illustration. The pictures are signed by the leading eigenvector of these parts'
    correlations; ``turn_evidence`` is how well each agrees with the rest. Which of the
    two ways is upright is left to :func:`off_centre_box`."""
    parts = []
    for p in pictures:
        strong = (p.glyph >= _STRONG_INK).astype(np.float32)
        face = cv2.GaussianBlur(strong, (0, 0), _FACE_BLUR_MM * px_per_mm)
        part = (face - face[::-1, ::-1]).ravel()
        parts.append(part / max(float(np.linalg.norm(part)), 1e-6))
    parts = np.stack(parts)
    _, vectors = np.linalg.eigh(parts @ parts.T)
    signs = np.where(vectors[:, -1] >= 0, 1.0, -1.0)
    consensus = signs @ parts
    for p, sign, part in zip(pictures, signs, parts):
        rest = consensus - sign * part
        p.turned = bool(sign < 0)
        p.turn_evidence = float(abs(part @ rest) / max(float(np.linalg.norm(rest)), 1e-6))


def off_centre_box(pictures, layout: Layout) -> tuple[float, float, float, float] | None:
    """The numeral box of a deck that prints its numerals wholly in one half of the face,
    upright where they read upright; None for a deck that prints them across the middle
    (or shows too few numbers to tell). Where it returns a box, each picture's ``turned``
    says which way up it lies.

    Where cards of different numbers differ, less where cards of one number differ (an
    illustration drawn for each card; the four 11s tell), is where numerals lie."""
    before = [(p.turned, p.turn_evidence) for p in pictures]
    box = _learn_box(pictures, layout)
    if box is None:  # the ways up stay for :func:`~.numerals.orient` to decide
        for p, (turned, evidence) in zip(pictures, before):
            p.turned, p.turn_evidence = turned, evidence
    return box


def _learn_box(pictures, layout: Layout) -> tuple[float, float, float, float] | None:
    chosen = box_pictures(pictures)
    if len({p.card.number for p in chosen}) < 3:
        return None
    s = layout.match_px_per_mm
    orient_faces(pictures, s)
    # what differs between cards of one number (the 11s' animals) is no numeral
    differ = differ_maps(chosen, lambda p: p.glyph[::-1, ::-1] if p.turned else p.glyph, layout, _WITHIN_WEIGHT)
    if differ is None:
        return None
    band = round(_EDGE_BAND_MM * s)
    extents = [e for e in (numeral_extent(d, _DIFFER_SHARE * float(differ.max()), band, s) for d in differ)
               if e is not None]
    if len(extents) < 3:
        return None
    h = differ.shape[1]
    digits = float(np.median([h - top - bottom for _, top, _, bottom in extents]))
    # one deck's numerals stand on one line and are one height: an illustration or a
    # picture laid the wrong way up moves a number's extent, not the line
    top = float(np.median([top for _, top, _, _ in extents]))
    bottom = float(np.median([bottom for _, _, _, bottom in extents]))
    clearance = _HALF_CLEARANCE_MM * s
    if h - bottom > h / 2 - clearance and top < h / 2 + clearance:
        return None  # the numerals reach across the middle: a box about the centre holds them
    if top >= h / 2 + clearance:  # laid with the numerals below: turn every picture over
        for p in pictures:
            p.turned = not p.turned
        top, bottom, differ = bottom, top, differ[:, ::-1, ::-1]
    # how wide: on the numerals' line only, where no illustration reaches
    threshold = _DIFFER_SHARE * float(differ.max())
    line = differ[:, int(top):h - int(bottom)] >= threshold
    sides = [min(int(columns.min()), line.shape[2] - 1 - int(columns.max()))
             for columns in (np.flatnonzero(rows.any(axis=0)) for rows in line) if len(columns)]
    side = low_fence(sides, 0.3 * digits)
    box = _box_mm(side, top, bottom, layout)
    if _reads_upside_down(chosen, layout, box):
        for p in pictures:
            p.turned = not p.turned
        box = (box[0], CARD_MM[1] - box[3], box[2], CARD_MM[1] - box[1])
    _by_numeral(pictures, replace(layout, numeral_box_mm=box))
    return box


def _box_mm(side: float, top: float, bottom: float, layout: Layout) -> tuple[float, float, float, float]:
    """The box (mm) around numerals this far from the card's sides, top and bottom (px),
    padded, and far enough inside the card for the reader's search around it."""
    s = layout.match_px_per_mm
    inside = layout.search_mm + 0.5
    x0 = max(side / s - _BOX_PAD_MM - layout.search_mm, inside)
    y0 = max(top / s - _BOX_PAD_MM - layout.search_mm, inside)
    y1 = min(CARD_MM[1] - bottom / s + _BOX_PAD_MM + layout.search_mm, CARD_MM[1] - inside)
    return round(float(x0), 2), round(float(y0), 2), round(CARD_MM[0] - float(x0), 2), round(float(y1), 2)


def _crops(p, layout: Layout) -> tuple[np.ndarray, np.ndarray]:
    """The picture's numeral box if the card lies upright, and if it lies upside down
    (turned upright), whichever way it was laid."""
    x0, y0, x1, y1 = layout.box_px()
    u0, v0, u1, v1 = layout.box_px(turned=True)
    return p.glyph[y0:y1, x0:x1], p.glyph[v0:v1, u0:u1][::-1, ::-1]


def _reads_upside_down(pictures, layout: Layout, box) -> bool:
    """Whether the numerals in the box, on the faces as laid, look more like their numbers
    in a common font turned by 180° than as they lie: then the illustration is above."""
    layout = replace(layout, numeral_box_mm=box)
    evidence = 0.0
    for p in pictures:
        upright, turned = _crops(p, layout)
        crop = turned if p.turned else upright
        evidence += font_likeness(crop[::-1, ::-1], p.card.number) - font_likeness(crop, p.card.number)
    return evidence > 0


def _by_numeral(pictures, layout: Layout) -> None:
    """Lays each picture the way its numeral box holds a numeral like its number in a
    common font, where one way does so clearly more: an illustration printed as strongly
    as the numerals can outweigh a small numeral in the whole face."""
    for p in pictures:
        upright, turned = (font_likeness(crop, p.card.number) for crop in _crops(p, layout))
        if abs(upright - turned) >= _CLEARLY_MORE:
            p.turned, p.turn_evidence = turned > upright, max(p.turn_evidence, abs(upright - turned))


__all__ = ["off_centre_box", "orient_faces"]
