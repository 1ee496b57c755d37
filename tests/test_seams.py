"""companion.vision.glyphs.seam_strength: another card's edge running down a face, told from a numeral's strokes."""

from __future__ import annotations

import cv2
import numpy as np

from companion.vision.glyphs import seam_strength

WIDTH, HEIGHT = 59, 91  # a card at one pixel per millimetre


def _face() -> np.ndarray:
    card = np.full((HEIGHT, WIDTH, 3), 235, np.uint8)
    cv2.putText(card, "11", (8, 58), cv2.FONT_HERSHEY_SIMPLEX, 1.1, (30, 30, 200), 4)
    return card


def _with_edge(card: np.ndarray, x_top: float, x_bottom: float) -> np.ndarray:
    """The face with the next card lying over it right of a line: a step of shadow."""
    card = card.copy()
    rows, cols = np.mgrid[0:HEIGHT, 0:WIDTH]
    covered = cols > x_top + (x_bottom - x_top) * rows / (HEIGHT - 1)
    card[covered] = (card[covered] * 0.8).astype(np.uint8)
    return card


def test_a_whole_card_shows_no_seam_though_its_strokes_run_down_half_its_height():
    assert seam_strength(_face()) < 0.05


def test_the_edge_of_the_next_card_down_the_middle_is_a_seam():
    assert seam_strength(_with_edge(_face(), 30, 30)) > 0.2


def test_an_edge_a_few_degrees_askew_is_a_seam_too():
    assert seam_strength(_with_edge(_face(), 26, 33)) > 0.2


def test_an_edge_along_the_card_s_side_is_no_seam():
    """An outline slightly off shows the card below along its sides, and decks print frames there."""
    assert seam_strength(_with_edge(_face(), 6, 6)) < 0.05


def test_an_empty_face_shows_no_seam():
    assert seam_strength(np.full((HEIGHT, WIDTH, 3), 200, np.uint8)) == 0.0
