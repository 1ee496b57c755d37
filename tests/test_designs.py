"""Deck designs drawn from seeds: what they print, that they vary, and that the held-out
families and fonts cannot be trained on."""

from __future__ import annotations

import colorsys

import numpy as np
import pytest
from PIL import ImageFont

from companion.cards import DECK, Colour, card
from companion.fonts import FONT_DIR
from companion.sim.deck import CARD_MM, get_style, render_card
from companion.sim.designs import (FAMILIES, FONTS, HELD_OUT, TRAIN, HeldOutError, design, design_names, draw_inks,
                                   require_trainable, split_of)

PX_PER_MM = 3.0


def _face(code: str, name: str) -> np.ndarray:
    return render_card(card(code), name, PX_PER_MM)


def _centre_box(face: np.ndarray, half_mm=(8, 8)) -> np.ndarray:
    h, w = face.shape[:2]
    dy, dx = round(half_mm[1] * PX_PER_MM), round(half_mm[0] * PX_PER_MM)
    return face[h // 2 - dy:h // 2 + dy, w // 2 - dx:w // 2 + dx, :3].reshape(-1, 3).astype(float)


def test_a_design_is_the_same_deck_every_time_and_seeds_differ():
    assert design("banded:3") == design("banded:3") == get_style("banded:3")
    assert len({design(f"plain:{seed}") for seed in range(12)}) == 12
    assert np.array_equal(_face("R7", "plain:4"), _face("R7", "plain:4"))


def test_every_family_of_both_splits_renders_every_card():
    height, width = round(CARD_MM[1] * PX_PER_MM), round(CARD_MM[0] * PX_PER_MM)
    for name in design_names(TRAIN, len(FAMILIES)) + design_names(HELD_OUT, len(FAMILIES)):
        for each in DECK[::16]:
            face = render_card(each, name, PX_PER_MM)
            assert face.shape == (height, width, 4)
            assert face[..., :3].std() > 10, f"{name} {each.code} prints nothing"


def test_each_split_has_families_and_fonts_of_its_own():
    train, held = ({n for n, f in FAMILIES.items() if f.split == s} for s in (TRAIN, HELD_OUT))
    assert len(train) >= 6 and len(held) >= 3 and not train & held
    train_fonts = {f.file for f in FONTS if f.split == TRAIN}
    held_fonts = {f.file for f in FONTS if f.split == HELD_OUT}
    assert not train_fonts & held_fonts and len(held_fonts) >= 6
    # a font kind a held-out family prints with is a kind the training fonts also cover
    assert {f.kind for f in FONTS if f.split == HELD_OUT} <= {f.kind for f in FONTS if f.split == TRAIN}
    for name in design_names(TRAIN, 40):
        assert design(name).font in train_fonts
    for name in design_names(HELD_OUT, 40):
        assert design(name).font in held_fonts


def test_a_held_out_design_cannot_be_trained_on():
    assert require_trainable("reference") == "reference"
    assert require_trainable("junior:5") == "junior:5"
    for name in design_names(HELD_OUT, 8):
        assert split_of(name) == HELD_OUT
        with pytest.raises(HeldOutError, match="held out"):
            require_trainable(name)


def test_the_detectors_training_views_never_show_a_held_out_design():
    import importlib.util
    from pathlib import Path

    spec = importlib.util.spec_from_file_location("training_render", Path(__file__).parents[1] / "training" / "render.py")
    training = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(training)
    styles = {training.style_of(group, designs=True) for group in range(400)}
    assert any(":" in style for style in styles)
    assert all(split_of(style) == TRAIN for style in styles)


def test_every_bundled_font_prints_all_ten_digits():
    for font in FONTS:
        face = ImageFont.truetype(str(FONT_DIR / font.file), 80)
        boxes = {digit: face.getbbox(digit) for digit in "0123456789"}
        assert all(box[2] - box[0] > 5 and box[3] - box[1] > 30 for box in boxes.values()), font.file
        masks = {bytes(face.getmask(digit)) for digit in "0123456789"}
        assert len(masks) == 10, f"{font.file}: two digits print alike (a missing glyph)"


def test_a_disc_design_prints_its_numeral_in_ink_on_a_paper_disc():
    style = design("disc:2")
    face = _face("B5", "disc:2")
    paper, ink = np.array(style.paper_rgb[::-1], float), np.array(style.ink(Colour.BLUE)[::-1], float)
    centre = _centre_box(face, (14, 14))
    near = lambda target: (np.linalg.norm(centre - target, axis=1) < 40).mean()  # noqa: E731
    assert near(paper) > 0.4 and near(ink) > 0.05  # a numeral in ink on paper
    corner = face[round(20 * PX_PER_MM), round(4 * PX_PER_MM), :3].astype(float)
    assert np.linalg.norm(corner - ink) < 40  # the fill around the disc


def test_a_banded_design_prints_its_colour_inside_the_edge_and_paper_within():
    style = design("banded:1")
    face = _face("R14", "banded:1")
    ink = np.array(style.ink(Colour.RED)[::-1], float)
    x_band = round((style.fill_inset_mm + style.band_mm / 2) * PX_PER_MM)
    band = face[face.shape[0] // 2, x_band, :3].astype(float)
    assert np.linalg.norm(band - ink) < 40
    assert np.linalg.norm(face[round(20 * PX_PER_MM), face.shape[1] // 2, :3] - np.array(style.paper_rgb[::-1])) < 30


def test_yellow_is_sometimes_orange_and_dark_prints_stay_yellow():
    hues = []
    for seed in range(60):
        rng = np.random.default_rng(seed)
        inks = draw_inks(rng, "dark" if seed % 2 else "normal")
        r, g, b = (int(inks.yellow[i:i + 2], 16) / 255 for i in (1, 3, 5))
        h, s, v = colorsys.rgb_to_hsv(r, g, b)
        hues.append(h * 360)
        assert v >= 0.79 and s >= 0.69  # a mustard, never an olive
    assert min(hues) < 36 and max(hues) > 40


def test_worn_and_illustrated_cards_differ_card_by_card_from_plain_ones():
    worn = design("vintage:0")
    assert worn.wear > 0
    clean = get_style("reference")
    face = _face("G3", "vintage:0")
    # wear fades the print in blotches: the ink of one numeral is not one colour
    assert face[..., :3].std() > 0 and worn.double_frame
    junior = design("junior:0")
    assert junior.illustration == "animal"
    a, b = _face("R3", "junior:0"), _face("R4", "junior:0")
    bottom = slice(round(55 * PX_PER_MM), round(80 * PX_PER_MM))
    assert not np.array_equal(a[bottom], b[bottom])  # each card its own animal
    assert clean.wear == 0 and clean.illustration == "none"


def test_a_glossy_deck_catches_more_glare():
    from companion.sim.episode import random_scenery

    glossy = next(name for name in design_names(HELD_OUT, 8) if design(name).gloss > 0)
    for seed in range(5):
        matt = random_scenery(seed, style="reference").lighting.glares
        shiny = random_scenery(seed, style=glossy).lighting.glares
        assert len(shiny) == len(matt) + 1


def test_a_name_that_is_no_design_is_a_clear_error():
    for name in ("banded", "banded:x", "nosuch:3", "banded:-1"):
        with pytest.raises(ValueError, match="unknown deck"):
            get_style(name)
