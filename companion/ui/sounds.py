"""The buzzer's patterns, as data: (note or None for a pause, seconds) steps.

Notes lie between A4 and A6, the range of a ``TonalBuzzer`` built around A5 over one
octave; a plain (active) buzzer sounds every note alike and keeps only the rhythm.
"""

from __future__ import annotations

from typing import Mapping

Pattern = tuple[tuple[str | None, float], ...]

SOUNDS: Mapping[str, Pattern] = {
    # falling, long: something is wrong
    "rejected": (("E5", 0.15), (None, 0.05), ("A4", 0.4)),
    # rising, short: the table is asked something
    "question": (("E5", 0.1), (None, 0.05), ("A5", 0.15)),
    # a little fanfare: the game is over
    "game_over": (("C5", 0.12), ("E5", 0.12), ("G5", 0.12), ("C6", 0.35)),
    # a tick as the turn passes (off unless the config asks for it)
    "turn": (("A5", 0.03),),
    # a blip for a number entered or a menu step
    "key": (("C6", 0.02),),
}
