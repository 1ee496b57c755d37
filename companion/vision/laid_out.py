"""Calibration from the whole set laid out in order, in one or two pictures
(``elfer calibrate --laid-out``).

Taking 23 pictures of one card each is slow; from the device it is slower still. Instead
the family lays the calibration set (:func:`~.calibration.calibration_set`: R1 to R20,
then Y11, G11, B11) face up in the play area in rows, in that order, a finger's width
apart: each row left to right, the rows from the markers' top edge down (as the marker
sheet is printed), continued in a second picture where one does not hold them all.
Each card is found as in a picture of one card (:func:`~.single.candidates`: outlines of
a card's size whose edge stands out from the table all the way round) and named by its
place in that order. Which card is which is then checked by the calibration itself: the
profile must read every picture as the card it was named (a card out of place whose
colour or number differs from its neighbours' is named for a retake), and the deck's
colours are learned from the pictures of each colour.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from ..cards import Card
from .calibration import CalibrationError, read_picture
from .calibration_notes import note
from .profile import CARD_MM
from .outlines import overlap
from .single import (MIN_EDGE_CONTRAST, Located, add_outline, area_view, as_card, edge_contrast, finder_outlines,
                     same_place, shaped_outlines)

_MAX_OVERLAP = 0.1  # of an outline's area over a card found already: cards laid apart barely touch
_NEIGHBOUR_REACH = 1.5  # card heights: cards laid a finger apart have a neighbour this near


def laid_out_outlines(image: np.ndarray) -> list[np.ndarray]:
    """The outlines of the cards laid out in a picture of the play area (frame pixels), in
    reading order: rows along the markers' top edge, from the top down, each left to
    right. Without the markers in view the picture's own rows and columns stand for it.
    An outline with no other within a card and a half is no card of the rows (a patch of
    the cloth), where there are others."""
    view = area_view(image)
    found: list[Located] = []
    outlines = shaped_outlines(image, keep=200)
    if view is not None:
        outlines = [c for c in (as_card(view, corners) for corners in finder_outlines(view) + outlines)
                    if c is not None]
    _add_apart(found, image, outlines)
    corners = [located.corners for located in found]
    if view is None:
        centres, height = [c.mean(axis=0) for c in corners], _card_height_px(corners)
    else:
        centres = [view.view_to_mm(view.frame_to_view(c)).mean(axis=0) for c in corners]
        height = CARD_MM[1]
    if len(corners) > 1:
        kept = [i for i, centre in enumerate(centres)
                if any(0 < np.hypot(*(centre - other)) < _NEIGHBOUR_REACH * height for other in centres)]
        corners, centres = [corners[i] for i in kept], [centres[i] for i in kept]
    return [corners[i] for i in _reading_order(centres, height)]


def _add_apart(found: list[Located], image: np.ndarray, outlines: list[np.ndarray]) -> None:
    """Adds the outlines that stand out from the table all the way round and lie clear of
    the cards found already (one found again in its place is kept the better way, as in
    a picture of one card)."""
    for corners in outlines:
        score = edge_contrast(image, corners)
        if score < MIN_EDGE_CONTRAST:
            continue
        if any(overlap(corners, other.corners) > _MAX_OVERLAP for other in found
               if not same_place(corners, other.corners)):
            continue  # across two cards laid apart: no card
        add_outline(found, Located(corners, "laid out", contrast=score))


def _card_height_px(corners: list[np.ndarray]) -> float:
    sides = [np.hypot(*(c - np.roll(c, -1, axis=0)).T) for c in corners]
    return float(np.median([s.max() for s in sides])) if sides else 1.0


def _reading_order(centres: list[np.ndarray], card_height: float) -> list[int]:
    """Indices of the centres in reading order: a new row starts where a centre lies more
    than half a card's height below the row's first; each row left to right."""
    order = sorted(range(len(centres)), key=lambda i: centres[i][1])
    rows: list[list[int]] = []
    for i in order:
        if rows and centres[i][1] - centres[rows[-1][0]][1] < 0.5 * card_height:
            rows[-1].append(i)
        else:
            rows.append([i])
    return [i for row in rows for i in sorted(row, key=lambda i: centres[i][0])]


def load_laid_out(paths) -> list[tuple[str, np.ndarray]]:
    """The laid-out pictures (name, picture), scaled down as calibration pictures are;
    a missing or unreadable one raises :class:`~.calibration.CalibrationError`."""
    return [(path.name, read_picture(path)[0]) for path in map(Path, paths)]


def laid_out_pictures(images: list[tuple[str, np.ndarray]], cards: list[Card]) -> dict[Card, list]:
    """The calibration's pictures from laid-out pictures (name, picture): each card, in
    the order of ``cards``, with its picture and outline, ``(picture, corners)``. Raises
    :class:`~.calibration.CalibrationError` where the pictures show another number of
    cards than ``cards``, saying how many each showed."""
    found = [laid_out_outlines(image) for _, image in images]
    total = sum(map(len, found))
    if total != len(cards):
        counts = ", ".join(f"{name}: {len(outlines)}" for (name, _), outlines in zip(images, found))
        raise CalibrationError(note("laid_out_count", found=total, expected=len(cards), counts=counts))
    pictures: dict[Card, list] = {}
    named = iter(cards)
    for (_, image), outlines in zip(images, found):
        for corners in outlines:
            pictures[next(named)] = [(image, corners)]
    return pictures


__all__ = ["laid_out_outlines", "laid_out_pictures", "load_laid_out"]
