"""The three buttons, NEXT, DRAW and BACK, on GPIO pins through gpiozero.

Each button connects its pin to ground when pressed (the pin pulled up). What a press
means is decided on release, so a long press is never also a short one:

- a short press of any button: ``"next"``, ``"draw"`` or ``"back"`` (the loop's buttons);
- NEXT held for ``menu_s``: ``"menu"``, once, as soon as the time is reached;
- DRAW held: ``"draw_repeat"`` every ``repeat_s`` after ``menu_s`` (counting up fast on a
  number screen), and no short press on release.

The pin factory is passed in (gpiozero's ``MockFactory`` in tests, the Pi's own on the
device); nothing is created at import time. Callbacks run on gpiozero's threads.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Callable, Mapping

NAMES = ("next", "draw", "back")


@dataclass(frozen=True)
class ButtonSettings:
    pins: Mapping[str, int]  # BCM pin number of each of NEXT, DRAW and BACK
    bounce_s: float | None = 0.03  # contacts settle within this after an edge (None: no debounce)
    menu_s: float = 1.5  # how long NEXT is held to open the menu (and DRAW before it repeats)
    repeat_s: float = 0.15  # how often a held DRAW repeats


class ButtonPanel:
    """NEXT, DRAW and BACK; ``on_press(name)`` is called for each press as described above."""

    def __init__(self, settings: ButtonSettings, on_press: Callable[[str], None], pin_factory=None):
        from gpiozero import Button

        missing = [name for name in NAMES if name not in settings.pins]
        if missing:
            raise ValueError(f"no pin for the button(s) {', '.join(missing)}")
        self.settings = settings
        self._on_press = on_press
        self._held: dict[str, bool] = {}
        self._lock = threading.Lock()
        self.buttons = {}
        try:
            for name in NAMES:
                button = Button(settings.pins[name], pull_up=True, bounce_time=settings.bounce_s,
                                hold_time=settings.menu_s, pin_factory=pin_factory)
                button.when_pressed = self._pressed(name)
                button.when_released = self._released(name)
                button.when_held = self._held_down(name)
                self.buttons[name] = button
        except Exception:
            self.close()
            raise

    def _pressed(self, name: str):
        def pressed() -> None:
            with self._lock:
                self._held[name] = False
            if name == "draw":
                self.buttons[name].hold_time = self.settings.menu_s
        return pressed

    def _held_down(self, name: str):
        def held() -> None:
            with self._lock:
                first = not self._held.get(name, False)
                self._held[name] = True
            if name == "next" and first:
                self._on_press("menu")
            elif name == "draw":
                self._on_press("draw_repeat")
                button = self.buttons[name]
                button.hold_repeat = True
                button.hold_time = self.settings.repeat_s
        return held

    def _released(self, name: str):
        def released() -> None:
            with self._lock:
                was_held = self._held.pop(name, False)
            if name == "draw":
                button = self.buttons[name]
                button.hold_repeat = False
                button.hold_time = self.settings.menu_s
            if not was_held:
                self._on_press(name)
        return released

    def close(self) -> None:
        for button in self.buttons.values():
            button.close()
        self.buttons = {}
