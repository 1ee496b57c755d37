"""Card faces: every style renders every card, styles differ, colours are print-like."""

from __future__ import annotations

import dataclasses
import itertools

import cv2
import numpy as np
import pytest

from companion.cards import COLOURS, DECK, Colour, card
from companion.sim.deck import CARD_MM, STYLES, DeckStyle, get_style, render_card

PX_PER_MM = 2.5  # small, as a card seen by the table camera; keeps the full-deck test quick


def _interior(image: np.ndarray) -> np.ndarray:
    """The fully opaque pixels' BGR values, (N, 3)."""
    return image[image[..., 3] == 255][:, :3].astype(np.float64)


def _lab(bgr) -> np.ndarray:
    pixel = np.asarray(bgr, np.float32).reshape(1, 1, 3) / 255
    return cv2.cvtColor(pixel, cv2.COLOR_BGR2Lab).reshape(3)


def _ink_bgr(style: DeckStyle, colour: Colour) -> np.ndarray:
    return np.array(style.ink(colour)[::-1], np.float64)


# ------------------------------------------------------------------ shape and alpha
def test_there_are_at_least_three_styles_with_the_named_ones():
    assert len(STYLES) >= 3
    assert {"reference", "inverse"} <= set(STYLES)


@pytest.mark.parametrize("style", list(STYLES))
def test_every_style_renders_all_80_cards_with_shape_and_rounded_alpha(style):
    height, width = round(CARD_MM[1] * PX_PER_MM), round(CARD_MM[0] * PX_PER_MM)
    for each in DECK:
        face = render_card(each, style, PX_PER_MM)
        assert face.shape == (height, width, 4) and face.dtype == np.uint8
        alpha = face[..., 3]
        for y, x in ((0, 0), (0, -1), (-1, 0), (-1, -1)):  # outside the rounded corners
            assert alpha[y, x] == 0
        assert alpha[height // 2, :].min() == 255 and alpha[:, width // 2].min() == 255  # edges are on the card
        assert ((alpha > 0) & (alpha < 255)).any()  # anti-aliased corners, not a stair-stepped cut


@pytest.mark.parametrize("px_per_mm", [1.0, 3.3, 4, 7.5])
def test_size_follows_the_scale(px_per_mm):
    face = render_card(card("G20"), "reference", px_per_mm)
    assert face.shape == (round(91 * px_per_mm), round(59 * px_per_mm), 4)


@pytest.mark.parametrize("px_per_mm", [0, -2, float("nan"), float("inf")])
def test_a_bad_scale_is_a_value_error(px_per_mm):
    with pytest.raises(ValueError, match="px_per_mm"):
        render_card(card("R1"), "reference", px_per_mm)


# ------------------------------------------------------------------ styles
@pytest.mark.parametrize("first, second", list(itertools.combinations(STYLES, 2)))
def test_styles_look_different(first, second):
    for code in ("R11", "Y6", "B20"):
        a = render_card(card(code), first, 3).astype(np.int16)
        b = render_card(card(code), second, 3).astype(np.int16)
        assert np.abs(a - b)[..., :3].mean() > 8, (first, second, code)


@pytest.mark.parametrize("colour", COLOURS)
def test_reference_prints_the_centre_numeral_in_the_cards_colour(colour):
    style = get_style("reference")
    face = render_card(card(f"{colour.letter}8"), style, 4)
    height, width = face.shape[:2]
    centre = face[height // 2 - 15 : height // 2 + 15, width // 2 - 30 : width // 2 + 30, :3].reshape(-1, 3)
    ink = _ink_bgr(style, colour)
    distance = np.linalg.norm(centre - ink, axis=1)
    assert (distance < 20).mean() > 0.3  # the numeral's strokes are solid ink
    paper = np.array(style.paper_rgb[::-1], np.float64)
    assert np.median(np.linalg.norm(_interior(face) - paper, axis=1)) < 10  # on a light card


@pytest.mark.parametrize("colour", COLOURS)
def test_inverse_fills_the_face_with_the_cards_colour(colour):
    style = get_style("inverse")
    face = render_card(card(f"{colour.letter}3"), style, 4)
    median = np.median(_interior(face), axis=0)
    assert np.abs(median - _ink_bgr(style, colour)).max() < 6
    white = (_interior(face).min(axis=1) > 235).mean()
    assert 0.03 < white < 0.4  # white numerals (and rim) on the colour


@pytest.mark.parametrize("style", list(STYLES))
def test_six_is_not_an_upside_down_nine(style):
    """The underline tells them apart: rotated by 180°, a 9 differs from the 6 far more
    than it would without the underline (DejaVu's 6 and 9 are near rotations)."""

    def mismatch(deck: DeckStyle, colour: str) -> float:
        six = render_card(card(f"{colour}6"), deck, 3).astype(np.int16)
        nine = np.rot90(render_card(card(f"{colour}9"), deck, 3), 2).astype(np.int16)
        return float((np.abs(six - nine)[..., :3].max(axis=2) > 60).mean())

    underlined = get_style(style)
    plain = dataclasses.replace(underlined, name=f"{style}-plain", six_nine="none")
    for colour in "RB":
        assert mismatch(underlined, colour) > 0.01
        assert mismatch(underlined, colour) > 2 * mismatch(plain, colour)


@pytest.mark.parametrize("style", list(STYLES))
def test_yellow_and_green_are_close_as_in_print_but_distinct(style):
    """Printed Elfer raus! cards use a golden yellow and a yellowish grass green: both
    light, warm and saturated, they differ mainly in hue. Pure RGB primaries would make
    the colour reader's job look easier than it is on a real deck. So, measured in
    CIELAB on the rendered faces: yellow and green are clearly apart (ΔE > 25) but
    closer than red and blue, and every ink is a print colour, not a primary."""
    deck = get_style(style)
    inks = {colour: _lab(_ink_bgr(deck, colour)) for colour in COLOURS}
    if deck.inverse:  # measure the printed faces themselves
        inks = {c: _lab(np.median(_interior(render_card(card(f"{c.letter}1"), deck, 3)), axis=0)) for c in COLOURS}
    delta = lambda a, b: float(np.linalg.norm(inks[a] - inks[b]))  # noqa: E731
    assert delta(Colour.YELLOW, Colour.GREEN) > 25
    assert delta(Colour.YELLOW, Colour.GREEN) < delta(Colour.RED, Colour.BLUE)
    for colour in COLOURS:
        rgb = deck.ink(colour)
        assert not set(rgb) <= {0, 255}, f"{colour} is an RGB primary"


# ------------------------------------------------------------------ cache and errors
def test_renders_are_memoised_and_read_only():
    first = render_card(card("B7"), "cream", 3)
    assert render_card(card("B7"), "cream", 3) is first
    assert render_card(card("B7"), get_style("cream"), 3.0) is first
    assert not first.flags.writeable
    with pytest.raises(ValueError):
        first[0, 0, 0] = 1


def test_an_edited_style_is_not_served_from_the_original_cache():
    reference = get_style("reference")
    grey = dataclasses.replace(reference, paper="#d8d8d8")  # same name, other data
    assert not np.array_equal(render_card(card("R5"), grey, 2), render_card(card("R5"), reference, 2))


def test_a_new_style_is_a_few_lines_of_data():
    corners = dataclasses.replace(get_style("reference"), name="corners-only", centre_height_mm=0, index_corners="four")
    face = render_card(card("G12"), corners, 3)
    height, width = face.shape[:2]
    centre = face[height // 3 : 2 * height // 3, width // 4 : 3 * width // 4, :3]
    assert centre.min() > 200  # no centre numeral
    assert face[: height // 6, -width // 3 :, :3].min() < 150  # an index in the top right corner


def test_unknown_style_names_the_styles():
    with pytest.raises(ValueError, match="reference") as raised:
        get_style("rainbow")
    assert "rainbow" in str(raised.value)
    with pytest.raises(ValueError, match="inverse"):
        render_card(card("R1"), "rainbow", 3)


def test_a_style_with_bad_values_fails_when_it_is_made():
    reference = get_style("reference")
    with pytest.raises(ValueError, match="index_corners"):
        dataclasses.replace(reference, index_corners="three")
    with pytest.raises(ValueError, match="font"):
        dataclasses.replace(reference, font="ComicSans.ttf")
    with pytest.raises(ValueError):
        dataclasses.replace(reference, paper="not a colour")
