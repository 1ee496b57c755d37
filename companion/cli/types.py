"""Argument types of the ``elfer`` command: each turns text into a value or a clear error."""

from __future__ import annotations

import argparse

from ..rules.presets import PresetError, get_preset
from ..sim.bots import BOTS


def preset_name(text: str) -> str:
    try:
        return get_preset(text).name
    except PresetError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def bot_list(text: str) -> list[str]:
    kinds = [k.strip() for k in text.split(",") if k.strip()]
    unknown = [k for k in kinds if k not in BOTS]
    if not kinds or unknown:
        raise argparse.ArgumentTypeError(f"bots are {', '.join(BOTS)} (comma-separated), not {text!r}")
    return kinds


def _number(kind: type, low: float, high: float, what: str):
    """An argparse type for a number within [low, high]."""

    def parse(text: str):
        try:
            value = kind(text)
        except ValueError:
            value = None
        if value is None or not low <= value <= high:
            raise argparse.ArgumentTypeError(f"expected {what}, not {text!r}")
        return value

    return parse


positive = _number(int, 1, float("inf"), "a whole number of at least 1")
rate = _number(float, 0.0, 1.0, "a rate from 0 to 1")
fps = _number(float, 0.5, 60.0, "frames per second from 0.5 to 60")
