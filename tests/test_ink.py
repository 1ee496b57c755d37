"""The ink model on cards drawn pixel by pixel: paper a warm lamp saturates in red and
green, and a numeral's ink as the camera's JPEG leaves it."""

import numpy as np
import pytest

from companion.cards import Colour
from companion.vision.ink import InkModel, measure
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
