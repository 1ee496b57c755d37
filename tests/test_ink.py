"""The ink model on cards drawn pixel by pixel: paper a warm lamp saturates in red and
green, and a numeral's ink as the camera's JPEG leaves it."""

import cv2
import numpy as np
import pytest

from companion.cards import Colour
from companion.vision.ink import InkModel, Strokes, ink_on, measure
from companion.vision.profile import default_profile

PAPER_SEEN = (200, 255, 255)  # BGR: red and green saturated, blue not
PAPER_LEVEL = np.array([1.5, 1.3, 1.0])  # the paper's true level (R, G, B over its blue), as the frame's cards tell it


def _card(ink_bgr) -> np.ndarray:
    """A card at 1 px/mm: the paper as seen, and a block of ink where the numeral lies."""
    card = np.empty((91, 59, 3), np.uint8)
    card[:] = PAPER_SEEN
    card[30:61, 12:47] = ink_bgr
    return card


@pytest.fixture(scope="module")
def model() -> InkModel:
    profile = default_profile()
    return InkModel(profile.colours, profile.inks, profile.colour_covariance, profile.thresholds)


def test_a_yellow_whose_saturated_red_the_jpeg_darkens_is_read_yellow_by_the_frames_paper_level(model):
    """Under that lamp a yellow's red lies far above the sensor's maximum, but a thin
    stroke shows it at 244 (the JPEG keeps colour at half the resolution). Taken for the
    ink's true red and corrected by the paper's level, it made the yellow a green."""
    measurement = measure(_card((112, 222, 244)), inverse=False, px_per_mm=1.0, margin_px=2)
    colour, confidence = model.colour(measurement, PAPER_LEVEL)
    assert colour is Colour.YELLOW and confidence >= default_profile().thresholds["min_confidence"]


def test_a_green_as_strong_is_still_read_green_by_the_frames_paper_level(model):
    measurement = measure(_card((108, 208, 185)), inverse=False, px_per_mm=1.0, margin_px=2)
    colour, confidence = model.colour(measurement, PAPER_LEVEL)
    assert colour is Colour.GREEN and confidence >= default_profile().thresholds["min_confidence"]


def test_a_numeral_reaching_past_the_cards_edge_has_its_ink_taken_as_a_whole_one_has():
    """Read again with the frame's paper level (``darkest_everywhere``), a numeral's ink
    comes from its darkest pixels in every channel where the paper saturates one. One
    stroke pixel past the card's edge (an outline a little off) must not change that: it
    did, the blue taken from the stroke's summed ink beside the others' darkest pixels."""
    card = np.empty((91, 59, 3), np.uint8)
    card[:] = PAPER_SEEN
    card[30:61, 27:30] = (90, 200, 150)  # a thin green stroke, blurred as a lens leaves it
    measurement = measure(cv2.GaussianBlur(card, (0, 0), 1.0), inverse=False, px_per_mm=1.0, margin_px=2)
    numeral = np.zeros((31, 31), bool)
    numeral[:, 28:31] = True
    reaching = numeral.copy()
    reaching[0, 0] = True  # lies one pixel left of the card
    whole, past_the_edge = (ink_on(measurement, Strokes(mask, 1.0), 30, -1, inverse=False, darkest_everywhere=True)
                            for mask in (numeral, reaching))
    assert np.allclose(past_the_edge.absorption, whole.absorption)
