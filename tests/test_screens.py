"""Every screen as the OLED shows it, against golden PNGs (128×64, one bit).

A change to a screen's look shows here as a failing comparison; after checking the new
picture by eye, ``ELFER_UPDATE_GOLDEN=1 python -m pytest tests/test_screens.py`` writes it."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from companion.ui import screens

GOLDEN = Path(__file__).resolve().parent / "golden" / "screens"
SIX = {"Anna": 7, "Ben": 5, "Cem": 3, "Dana": 9, "Emil": 10, "Fritz": 11}

SCREENS = {
    "turn-de": lambda: screens.turn("Anna", {"Anna": 7, "Ben": 5, "Cem": 3}, 12, 2, 3, "de"),
    "turn-six-players-en": lambda: screens.turn("Fritz", SIX, 0, 0, 3, "en"),
    "turn-before-the-first-card-de": lambda: screens.turn(None, {"Anna": 20, "Ben": 20}, 39, 0, 3, "de"),
    "skipped-de": lambda: screens.alert("Rot 12 fehlt!", "Rot 13 liegt auf Rot 11", "Karte wegnehmen"),
    "wrong-colour-de": lambda: screens.alert("Falsche Farbe!", "Rot 12 liegt auf Gelb 11: falsche Farbe",
                                             "Karte wegnehmen"),
    "turn-over-en": lambda: screens.alert("Turn is over!", "After the drawn card the turn is over: press NEXT"),
    "question-de": lambda: screens.question("Rot 12", "de"),
    "question-en": lambda: screens.question("Red 12", "en"),
    "desync-de": lambda: screens.message("Tisch prüfen", ["Rot: 14 erwartet", "Blau: 9 und 12 erwartet"]),
    "no-view-de": lambda: screens.message("Keine Sicht", ["Tisch nicht zu sehen"]),
    "game-over-de": lambda: screens.game_over("Ben", {"Anna": 23, "Cem": 40}, "de"),
    "penalty-de": lambda: screens.penalty("Cem", 17, 3, 6, 57, lang="de"),
    "penalty-refused-de": lambda: screens.penalty("Cem", 99, 3, 6, 57, "Höchstens 57 Punkte", "de"),
    "penalty-counted-de": lambda: screens.penalty("Ben", 20, 3, 6, 30, lang="de", counted=("B5", "Y7", "G8")),
    "penalty-unread-de": lambda: screens.penalty("Ben", 12, 3, 6, 30, lang="de", counted=("B5", "Y7"), unread=1),
    "guide-de": lambda: screens.guide("Rot 7", 7, 23, lang="de"),
    "guide-en": lambda: screens.guide("Blue 11", 23, 23, lang="en"),
    "guide-laid-out-de": lambda: screens.guide_laid_out(12, 23, lang="de"),
    "menu-de": lambda: screens.menu("Runde", "3 Spiele", 4, 7, "de"),
    "menu-en": lambda: screens.menu("Sound", "quiet", 6, 7, "en"),
}


@pytest.mark.parametrize("name", sorted(SCREENS))
def test_each_screen_matches_its_golden_image(name):
    image = SCREENS[name]()
    assert image.size == (128, 64) and image.mode == "1"
    golden = GOLDEN / f"{name}.png"
    if os.environ.get("ELFER_UPDATE_GOLDEN"):
        image.save(golden)
    assert golden.exists(), f"no golden image {golden.name}: write it with ELFER_UPDATE_GOLDEN=1"
    expected = Image.open(golden).convert("L")
    assert ImageChops.difference(image.convert("L"), expected).getbbox() is None, f"{name} differs from {golden.name}"


def test_umlauts_are_drawn_not_dropped():
    with_umlaut = screens.message("Tisch prüfen", [])
    without = screens.message("Tisch prufen", [])
    assert with_umlaut.tobytes() != without.tobytes()


def test_a_long_name_is_shrunk_to_fit_the_screen():
    image = screens.turn("Maximiliane-Sophie", {"Maximiliane-Sophie": 7, "Ben": 5}, 10, 0, 3)
    top = image.crop((0, 0, 128, 18))
    assert top.getbbox() is not None
    left, _, right, _ = top.getbbox()
    assert left > 0 and right < 128  # the heading fits inside the screen, with a margin


def test_the_terminal_view_has_two_pixel_rows_per_line():
    image = screens.question("Rot 12")
    text = screens.to_text(image)
    lines = text.split("\n")
    assert len(lines) == 32 and all(len(line) == 128 for line in lines)
    assert set(text) <= set(" ▀▄█\n") and "█" in text
