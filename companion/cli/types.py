"""Argument types of the ``elfer`` command: each turns text into a value or a clear error."""

from __future__ import annotations

import argparse
import sys

from ..rules.presets import Preset, PresetError, get_preset
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
count = _number(int, 0, float("inf"), "a whole number, 0 or more")
rate = _number(float, 0.0, 1.0, "a rate from 0 to 1")
fps = _number(float, 0.5, 60.0, "frames per second from 0.5 to 60")


def add_lang(parser: argparse.ArgumentParser, what: str) -> None:
    parser.add_argument("--lang", choices=("de", "en"), default="de", help=f"language of {what} (default de)")


def playable_preset(name: str, players: int, command: str) -> Preset | None:
    """The preset, or None after saying on stderr why that many players cannot play it."""
    preset = get_preset(name)
    try:
        preset.check_players(players)
    except PresetError as error:
        print(f"elfer {command}: {error}", file=sys.stderr)
        return None
    return preset
