"""The calibration guide from the setup menu: the 23 cards laid one by one, NEXT takes
each picture, the deck is learned, saved and read with; BACK retakes, holding NEXT leaves."""

from __future__ import annotations

import cv2
import pytest

from companion.device.app import build
from companion.device.config import parse_config
from companion.device.guide import Guide
from companion.ui import screens
from companion.ui.menu import ITEMS
from companion.vision import Profile, TableReader
from companion.vision.calibration import calibration_set


@pytest.fixture
def app(tmp_path):
    config = parse_config({"display": {"kind": "none"}, "buzzer": {"kind": "none"}, "camera": {"backend": "usb"},
                           "vision": {"profile": "learned"}}, "test", tmp_path)
    return build(config, need_buttons=False)


def open_guide(app):
    for name in ["menu"] + ["next"] * (len(ITEMS) - 1) + ["draw", "next"]:  # Kalibrieren: ja
        assert app.menu_press(0, name)
    assert app.guide is not None and app.runner.paused


def test_the_guide_walks_the_23_cards_and_back_retakes_one():
    guide = Guide("de")
    picture = object()
    assert guide.image().tobytes() == screens.guide("Rot 1", 1, 23).tobytes()
    guide.press("next", picture)
    guide.press("next", picture)
    guide.press("back", picture)
    assert guide.card.code == "R2" and guide.image().tobytes() == screens.guide("Rot 2", 2, 23).tobytes()
    assert guide.press("next", None) is None and guide.card.code == "R2"  # no picture yet: nothing taken
    results = [guide.press("next", picture) for _ in range(22)]
    assert results[-1] == "learn" and set(guide.pictures) == set(calibration_set())


def test_holding_next_leaves_the_guide_and_play_goes_on(app):
    open_guide(app)
    app.menu_press(0, "menu")
    assert app.guide is None and not app.runner.paused
    assert app.feedback.image.tobytes() != screens.guide("Rot 1", 1, 23).tobytes()


def test_the_deck_learned_from_the_guide_is_saved_and_read_with(app, bench_profile, tmp_path):
    bench_profile("condensed")  # renders the condensed deck's 23 calibration pictures once a session
    pictures = {card: cv2.imread(str(bench_profile.folder / "condensed" / f"{card.code}.png"))
                for card in calibration_set()}
    open_guide(app)
    assert app.feedback.image.tobytes() == screens.guide("Rot 1", 1, 23).tobytes()
    for card in calibration_set():
        app.runner.last_picture = pictures[card]
        app.menu_press(0, "next")
    assert app.guide is None and not app.runner.paused
    learned = Profile.load(tmp_path / "learned")  # saved where the config says
    for reader in (TableReader(learned), app.runner.reader):  # and read with from now on
        read = reader.read(pictures[calibration_set()[6]])
        assert [seen.card.code for seen in read.cards if seen.card] == ["R7"]
    assert app.feedback.panel.table_notice.kind in ("calibrated", "calibrated_again")


def test_the_set_laid_out_is_learned_from_two_pictures_and_back_drops_the_last(app):
    """Kalibrieren: ausgelegt. The rows of the first picture hold 12 cards; the screen
    counts them, BACK drops that picture, and once the rest are laid out the second
    picture completes the set: the deck is learned from the cards in their places."""
    from companion.sim.datasets import laid_out_picture

    cards = calibration_set()
    first = laid_out_picture("condensed", cards[:12], seed=11, surface="wood")
    second = laid_out_picture("condensed", cards[12:], seed=12, surface="wood")
    for name in ["menu"] + ["next"] * (len(ITEMS) - 1) + ["draw", "draw", "next"]:  # Kalibrieren: ausgelegt
        assert app.menu_press(0, name)
    guide = app.guide
    assert guide is not None and guide.laid_out
    assert app.feedback.image.tobytes() == screens.guide_laid_out(0, 23).tobytes()
    app.runner.last_picture = first
    app.menu_press(0, "next")
    assert app.feedback.image.tobytes() == screens.guide_laid_out(12, 23).tobytes()
    app.menu_press(0, "back")
    assert guide.found == 0
    app.menu_press(0, "next")
    app.runner.last_picture = second
    app.menu_press(0, "next")
    assert app.guide is None and not app.runner.paused
    assert app.feedback.panel.table_notice.kind in ("calibrated", "calibrated_again")
    read = app.runner.reader.read(first)
    assert {seen.card.code for seen in read.cards if seen.card} <= {card.code for card in cards[:12]}
