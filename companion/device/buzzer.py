"""The buzzer: plays ``companion.ui.sounds`` patterns through gpiozero, never blocking the loop.

A passive piezo on a PWM pin (``TonalBuzzer``) plays the notes; its loudness is the PWM
duty cycle (half the period at full volume). An active buzzer (``Buzzer``) can only be
on or off: it keeps the rhythm. A new pattern cuts the one playing short. Muted, or
with no buzzer at all, nothing sounds and nothing fails.
"""

from __future__ import annotations

import threading
from typing import Mapping

from ..ui.sounds import SOUNDS, Pattern

KINDS = ("tonal", "active")


class Sounder:
    def __init__(self, pin: int, kind: str = "tonal", volume: float = 1.0, muted: bool = False,
                 pin_factory=None, sounds: Mapping[str, Pattern] = SOUNDS):
        from gpiozero import Buzzer, TonalBuzzer
        from gpiozero.tones import Tone

        if kind not in KINDS:
            raise ValueError(f"unknown buzzer kind {kind!r}: expected one of {', '.join(KINDS)}")
        if not 0.0 <= volume <= 1.0:
            raise ValueError(f"volume {volume} is not between 0 and 1")
        self.kind, self.volume, self.muted, self.sounds = kind, volume, muted, sounds
        self._tone = Tone
        if kind == "tonal":
            self.device = TonalBuzzer(pin, mid_tone=Tone("A5"), octaves=1, pin_factory=pin_factory)
        else:
            self.device = Buzzer(pin, pin_factory=pin_factory)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()

    def play(self, name: str) -> None:
        """Start the pattern ``name`` (a key of ``sounds``) in the background."""
        pattern = self.sounds[name]
        if self.muted or self.volume == 0.0:
            return
        with self._lock:
            self._halt()
            self._stop = threading.Event()
            self._thread = threading.Thread(target=self._run, args=(pattern, self._stop), daemon=True,
                                            name=f"buzzer-{name}")
            self._thread.start()

    def wait(self, timeout: float | None = None) -> bool:
        """Wait for the pattern playing to end; True if it did within ``timeout``."""
        thread = self._thread
        if thread is None:
            return True
        thread.join(timeout)
        return not thread.is_alive()

    def _run(self, pattern: Pattern, stop: threading.Event) -> None:
        for note, seconds in pattern:
            if stop.is_set():
                break
            self._sound(note)
            if stop.wait(seconds):
                break
        self._sound(None)

    def _sound(self, note: str | None) -> None:
        if self.kind == "active":
            self.device.value = 0 if note is None else 1
        elif note is None:
            self.device.stop()
        else:
            self.device.play(self._tone(note))
            self.device.pwm_device.value = 0.5 * self.volume  # the duty cycle is the loudness

    def _halt(self) -> None:
        if self._thread is not None:
            self._stop.set()
            self._thread.join()
            self._thread = None

    def close(self) -> None:
        with self._lock:
            self._halt()
        self.device.close()
