"""The companion's hardware and its stand-ins, each behind a small interface passed in.

- ``buttons``: NEXT, DRAW and BACK on GPIO pins (gpiozero ``Button``): short presses,
  NEXT held for the menu, DRAW held to count up fast.
- ``buzzer``: the sound patterns of ``companion.ui.sounds`` (gpiozero ``TonalBuzzer`` or
  ``Buzzer``), muted or at a volume.
- ``display``: the 128×64 OLED (luma.oled SSD1306 or SH1106 over I²C, luma's ``dummy``).
- ``feedback``: the referee loop's outputs as the screen and the sounds.
- ``episode``: an episode folder as camera and buttons (replays, tests, the demo).

Pin factories are passed in (gpiozero's ``MockFactory`` in the tests), nothing is opened
at import time, and gpiozero and luma are imported only where a device is made.
"""

from .episode import Episode, EpisodeError

__all__ = ["Episode", "EpisodeError"]
