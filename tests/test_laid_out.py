"""Calibration from the whole set laid out in order (``elfer calibrate --laid-out``)."""

from __future__ import annotations

import cv2
import pytest

from companion.cards import Card
from companion.cli import main as elfer
from companion.sim.datasets import laid_out_picture
from companion.vision.calibration import CalibrationError, calibrate, calibration_set
from companion.vision.laid_out import laid_out_pictures
from companion.vision.profile import Profile

CARDS = calibration_set()


def _write(path, picture):
    cv2.imwrite(str(path), picture)
    return path


def test_one_picture_of_the_set_laid_out_in_order_calibrates_the_deck(tmp_path, capsys):
    """The 23 cards in rows of six, in the order asked, some upside down: each card is
    named by its place, and the profile reads every one of them as that card."""
    picture = _write(tmp_path / "laid-out.jpg", laid_out_picture("reference", CARDS, seed=10))
    assert elfer(["calibrate", "--laid-out", str(picture), "--out", str(tmp_path / "deck"), "--lang", "en"]) == 0
    assert "23 of 23 right" in capsys.readouterr().out
    profile = Profile.load(tmp_path / "deck")
    assert list(profile.numbers) == list(range(1, 21)) and len(profile.colours) == 4


@pytest.mark.parametrize("style", ["junior:0", "vintage:0"])
def test_a_deck_unlike_the_four_styles_laid_out_in_two_pictures_calibrates(style):
    """Where one picture does not hold the set, the rows go on in a second one (on a
    wooden table: on a checked cloth the cards are not all found, see the benchmark)."""
    pictures = [("first.jpg", laid_out_picture(style, CARDS[:12], seed=11, surface="wood")),
                ("second.jpg", laid_out_picture(style, CARDS[12:], seed=12, surface="wood"))]
    profile, report = calibrate(laid_out_pictures(pictures, CARDS), deck_name=style)
    assert report.self_test == (23, 23) and report.misread == []
    assert report.cards == [card.code for card in CARDS]
    assert profile.layout.off_centre is (style == "junior:0")


def test_a_card_missing_from_the_rows_is_an_error_that_counts_them(tmp_path, capsys):
    """22 cards laid out for 23: nothing is written, and the message says how many cards
    each picture showed (German by default)."""
    picture = _write(tmp_path / "laid-out.jpg", laid_out_picture("reference", CARDS[:-1], seed=10))
    assert elfer(["calibrate", "--laid-out", str(picture), "--out", str(tmp_path / "deck")]) == 2
    error = capsys.readouterr().err
    assert "22 Karten gefunden, 23 erwartet" in error and "laid-out.jpg: 22" in error
    assert not (tmp_path / "deck").exists()


def test_an_eleven_laid_in_another_eleven_s_place_is_named(tmp_path):
    """The red and the yellow 11 swapped: the yellow ink is learned from a red card, and
    the calibration names the picture it doubts rather than learn the deck wrong."""
    swapped = list(CARDS)
    red, yellow = CARDS.index(Card.parse("R11")), CARDS.index(Card.parse("Y11"))
    swapped[red], swapped[yellow] = swapped[yellow], swapped[red]
    pictures = [("laid-out.jpg", laid_out_picture("reference", swapped, seed=10))]
    with pytest.raises(CalibrationError, match="Y11"):
        calibrate(laid_out_pictures(pictures, CARDS), deck_name="x")


def test_a_missing_picture_is_named(tmp_path, capsys):
    assert elfer(["calibrate", "--laid-out", str(tmp_path / "nothing.jpg"), "--out", str(tmp_path / "deck")]) == 2
    assert "nothing.jpg: diese Datei gibt es nicht" in capsys.readouterr().err
