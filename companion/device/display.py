"""The 128×64 OLED through luma: SSD1306 or SH1106 over I²C, or luma's ``dummy``.

The screens are drawn elsewhere (``companion.ui``); a display only shows an image.
"""

from __future__ import annotations

import logging

from PIL import Image

KINDS = ("ssd1306", "sh1106", "dummy")
log = logging.getLogger(__package__)


class DisplayError(RuntimeError):
    """The display cannot be reached (not wired, wrong address, no I²C)."""


def open_display(kind: str = "ssd1306", port: int = 1, address: int = 0x3C, rotate: int = 0):
    """A luma device of ``kind``; ``dummy`` keeps the last image in ``.image`` (tests, demo)."""
    if kind not in KINDS:
        raise ValueError(f"unknown display {kind!r}: expected one of {', '.join(KINDS)}")
    if rotate not in (0, 1, 2, 3):
        raise ValueError(f"rotate {rotate} is not 0, 1, 2 or 3 (quarter turns)")
    if kind == "dummy":
        from luma.core.device import dummy

        return dummy(width=128, height=64, rotate=rotate, mode="1")
    from luma.core.error import DeviceNotFoundError, DevicePermissionError
    from luma.core.interface.serial import i2c
    from luma.oled import device as oled

    try:
        return getattr(oled, kind)(i2c(port=port, address=address), width=128, height=64, rotate=rotate)
    except (DeviceNotFoundError, DevicePermissionError, OSError) as error:
        raise DisplayError(f"{kind} display at I²C {port}/0x{address:02x}: {error}") from error


class Screen:
    """A luma device that shows images; a failing display is logged once and then left
    alone (the companion goes on with the buzzer and the log)."""

    def __init__(self, device):
        self.device = device
        self.shown: Image.Image | None = None
        self.failed = False

    def show(self, image: Image.Image) -> None:
        if self.failed:
            return
        try:
            self.device.display(image)
        except OSError as error:  # an I²C write that fails: a loose wire
            self.failed = True
            log.error("the display stopped answering: %s", error)
            return
        self.shown = image

    def close(self) -> None:
        try:
            self.device.cleanup()
        except (OSError, AttributeError):
            pass
