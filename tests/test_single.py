"""Finding the one card in a calibration picture, and telling its numeral from noise."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from PIL import Image, ImageDraw, ImageFont

from companion.cards import Card
from companion.vision.digits import font_likeness
from companion.bench.evaluate_read import Table
from companion.vision.card_reader import upright_corners
from companion.vision.single import locate, most_alike

FONTS = "companion/assets/fonts/"


@pytest.fixture(scope="module")
def dotted():
    """A white card on a dotted tablecloth: a segmentation of the picture does not find it
    (the dots next to its edges merge with it); the play-area finder must look at enough
    candidates to reach it among the dots."""
    return Table("condensed", 1, "pattern").single([Card.parse("R14")])[0]


def _corner_error(found: np.ndarray, truth: np.ndarray) -> float:
    found, truth = upright_corners(found), upright_corners(truth)
    return min(float(np.abs(np.roll(found, k, axis=0) - truth).max()) for k in range(4))


def test_a_card_on_a_dotted_cloth_is_found_by_its_size(dotted):
    located = locate(dotted.image)
    assert located.found_by in ("finder", "search")
    assert _corner_error(located.corners, dotted.polygons[0]) < 3.0


def test_of_outlines_that_stand_out_alike_the_one_like_the_other_cards_is_taken():
    """A patch of a checked cloth can stand out from the table as clearly as a white card;
    the calibration takes the outline that looks like the cards of its other pictures."""
    rng = np.random.default_rng(3)
    card = np.zeros((30, 20), np.float32)
    card[8:22, 5:15] = 1.0  # a numeral's place
    looks = []
    for _ in range(6):
        noisy = card + 0.1 * rng.standard_normal(card.shape).astype(np.float32)
        looks.append([_normed(noisy)])
    patch = _normed(rng.standard_normal(card.shape).astype(np.float32))
    looks.append([patch, _normed(card + 0.1 * rng.standard_normal(card.shape).astype(np.float32))])
    chosen, apart = most_alike(looks)
    assert chosen == [0] * 6 + [1]
    assert max(apart) < 1.35


def _normed(look: np.ndarray) -> np.ndarray:
    look = look + look[::-1, ::-1]
    look -= look.mean()
    return look / np.linalg.norm(look)


def _drawn(text: str, font: str, height_px: int, at=(0.5, 0.5), size=(49, 55)) -> np.ndarray:
    """``text`` drawn as a glyph map (ink 1) about ``height_px`` high, centred at ``at``."""
    canvas = Image.new("L", (400, 300), 0)
    ImageDraw.Draw(canvas).text((20, 20), text, font=ImageFont.truetype(FONTS + font, 160), fill=255)
    ink = np.asarray(canvas, np.float32) / 255
    ys, xs = np.nonzero(ink > 0.5)
    ink = ink[ys.min():ys.max() + 1, xs.min():xs.max() + 1]
    scale = height_px / ink.shape[0]
    small = Image.fromarray((ink * 255).astype(np.uint8)).resize(
        (max(1, round(ink.shape[1] * scale)), height_px), Image.LANCZOS)
    glyph = np.zeros(size[::-1], np.float32)
    x = round(at[0] * size[0] - small.width / 2)
    y = round(at[1] * size[1] - small.height / 2)
    glyph[y:y + small.height, x:x + small.width] = np.asarray(small, np.float32) / 255
    return glyph


def test_a_small_blurred_numeral_a_pixel_thinner_still_looks_like_its_number():
    # a 14 mm serif numeral at 1 px/mm, as blurred as a camera's: whether its thinnest
    # column is above the ink threshold must not decide whether it is a 19
    glyph = cv2.GaussianBlur(_drawn("19", "DejaVuSerif-Bold.ttf", 14), (0, 0), 0.9)
    assert font_likeness(glyph, 19) > 0.85
    thinner = glyph.copy()
    left = int(np.nonzero((glyph > 0.5).any(axis=0))[0][0])
    thinner[:, left] = np.minimum(thinner[:, left], 0.45)
    assert font_likeness(thinner, 19) > 0.85


def test_specks_and_marks_off_the_middle_are_no_number():
    speck = np.zeros((55, 49), np.float32)
    speck[26:29, 23:26] = 1.0
    assert font_likeness(speck, 7) == 0.0
    assert font_likeness(_drawn("7", "DejaVuSans-Bold.ttf", 20, at=(0.5, 0.5)), 7) > 0.8
    assert font_likeness(_drawn("7", "DejaVuSans-Bold.ttf", 20, at=(0.8, 0.25)), 7) == 0.0
