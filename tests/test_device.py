"""The device's hardware on gpiozero's mock pins and luma's dummy display: what a family
would notice when they press, hold, hear and look."""

from __future__ import annotations

import threading

import pytest
from PIL import Image

from companion.device.buttons import ButtonPanel, ButtonSettings
from companion.device.buzzer import Sounder
from companion.device.display import Screen, open_display
from companion.ui import screens
from device_fakes import pins  # noqa: F401 (a fixture)

PINS = {"next": 5, "draw": 6, "back": 13}


class Presses:
    """The panel's presses, with an event to wait on for each count reached."""

    def __init__(self):
        self.names: list[str] = []
        self.changed = threading.Condition()

    def __call__(self, name: str) -> None:
        with self.changed:
            self.names.append(name)
            self.changed.notify_all()

    def wait_for(self, count: int, timeout: float = 5.0) -> bool:
        with self.changed:
            return self.changed.wait_for(lambda: len(self.names) >= count, timeout)


def panel(pins, menu_s=0.2, repeat_s=0.05):
    presses = Presses()
    buttons = ButtonPanel(ButtonSettings(PINS, bounce_s=None, menu_s=menu_s, repeat_s=repeat_s), presses,
                          pin_factory=pins)
    return buttons, presses


def test_a_short_press_of_each_button_is_its_event(pins):
    buttons, presses = panel(pins, menu_s=5.0)
    for name in ("next", "draw", "back"):
        pin = pins.pin(PINS[name])
        pin.drive_low()
        pin.drive_high()
    assert presses.wait_for(3)
    assert presses.names == ["next", "draw", "back"]
    buttons.close()


def test_holding_next_opens_the_menu_once_and_is_no_short_press(pins):
    buttons, presses = panel(pins)
    pin = pins.pin(PINS["next"])
    pin.drive_low()
    assert presses.wait_for(1)
    pin.drive_high()
    assert presses.names == ["menu"]
    pin.drive_low()  # and the next short press is a press again
    pin.drive_high()
    assert presses.wait_for(2) and presses.names == ["menu", "next"]
    buttons.close()


def test_holding_draw_counts_up_fast_and_stops_when_let_go(pins):
    buttons, presses = panel(pins)
    pin = pins.pin(PINS["draw"])
    pin.drive_low()
    assert presses.wait_for(4)  # the hold, then repeats
    pin.drive_high()
    count = len(presses.names)
    assert set(presses.names) == {"draw_repeat"}
    assert not presses.wait_for(count + 2, timeout=0.3)  # no more after release
    buttons.close()


def test_a_missing_pin_is_named():
    with pytest.raises(ValueError, match="back"):
        ButtonPanel(ButtonSettings({"next": 5, "draw": 6}), print)


def test_the_buzzer_plays_a_pattern_at_the_volume_asked_and_ends_silent(pins):
    sounder = Sounder(12, volume=0.4, pin_factory=pins)
    pin = pins.pin(12)
    pin.clear_states()
    sounder.play("rejected")
    assert sounder.wait(5)
    duties = [state.state for state in pin.states]
    assert pytest.approx(0.2) in duties  # half the period at full volume
    assert duties[-1] == 0 and pin.frequency is None
    sounder.close()


def test_a_new_pattern_cuts_the_one_playing_short(pins):
    sounder = Sounder(12, pin_factory=pins, sounds={"long": (("A5", 30.0),), "short": (("C6", 0.01),)})
    sounder.play("long")
    sounder.play("short")  # returns at once, though "long" had 30 s to go
    assert sounder.wait(2)
    sounder.close()


def test_a_muted_buzzer_stays_silent(pins):
    sounder = Sounder(12, muted=True, pin_factory=pins)
    pin = pins.pin(12)
    pin.clear_states()
    sounder.play("game_over")
    assert sounder.wait(1)
    assert [state.state for state in pin.states] == [0]
    sounder.close()


def test_an_active_buzzer_keeps_the_rhythm(pins):
    sounder = Sounder(16, kind="active", pin_factory=pins)
    pin = pins.pin(16)
    pin.clear_states()
    sounder.play("question")  # tone, pause, tone
    assert sounder.wait(5)
    assert [bool(state.state) for state in pin.states] == [False, True, False, True, False]
    sounder.close()


def test_bad_buzzer_settings_are_refused(pins):
    with pytest.raises(ValueError, match="kind"):
        Sounder(12, kind="piezo", pin_factory=pins)
    with pytest.raises(ValueError, match="volume"):
        Sounder(12, volume=2, pin_factory=pins)


def test_the_dummy_display_keeps_the_last_screen():
    screen = Screen(open_display("dummy"))
    image = screens.question("Rot 12")
    screen.show(image)
    assert screen.device.image.tobytes() == image.tobytes()


def test_a_display_that_stops_answering_is_left_alone_and_nothing_fails():
    class Loose:
        calls = 0

        def display(self, image):
            Loose.calls += 1
            raise OSError(121, "Remote I/O error")

    screen = Screen(Loose())
    screen.show(Image.new("1", (128, 64)))
    screen.show(Image.new("1", (128, 64), 1))
    assert screen.failed and Loose.calls == 1


def test_unknown_display_settings_are_refused():
    with pytest.raises(ValueError, match="ssd1306"):
        open_display("ili9341")
    with pytest.raises(ValueError, match="rotate"):
        open_display("dummy", rotate=90)
