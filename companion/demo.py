"""``elfer demo``: a short game on the synthetic table, through the loop and screens the device runs.

The bots play a game with a few of a family's mistakes; the synthetic table renders it
as the camera would see it (``companion.sim``); the frames and the button presses go
through the card reader, the tracker and the referee loop (``companion.loop.run``), and
the loop's outputs through the device's own :class:`~companion.device.feedback.Feedback`
onto luma's ``dummy`` display. The terminal shows that display and a line per event;
a GIF shows the camera's view beside the screen.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import cv2
import numpy as np
from PIL import Image

from .ui import HEIGHT, WIDTH

NAMES = ("Anna", "Ben", "Cem", "Dana", "Emil", "Fritz")
_THUMB = (192, 108)  # the camera's view in the GIF
_ZOOM = 2  # the screen's pixels in the GIF
_OLED_COLOUR = (120, 200, 255)  # a blue-white OLED's lit pixel


@dataclass(frozen=True)
class DemoSettings:
    players: int = 3
    rules: str = "classic"
    seed: int = 1
    lang: str = "de"
    mistakes: float = 0.1  # the share of turns in which a bot makes a family's mistake
    layout: str = "piles"
    gif_every_ms: int = 1000  # a GIF frame per second of play, and at a new screen half a second after the last
    gif_speed: float = 4.0  # the GIF plays this many times faster than the game


def render_game(folder: Path, settings: DemoSettings, progress: Callable[[int, int], None] | None = None) -> Path:
    """The bots' game rendered into the episode ``folder`` (the shipped reference deck,
    which the shipped profile reads)."""
    from .rules import get_preset
    from .sim.episode import write_episode

    preset = get_preset(settings.rules)
    preset.check_players(settings.players)
    write_episode(folder, preset, NAMES[:settings.players], settings.seed, mistakes=settings.mistakes,
                  style="reference", layout=settings.layout, progress=progress)
    return folder


class Film:
    """The camera's view beside the screen: a frame every ``every_ms``, and one at a new screen
    (at most one per half of that)."""

    def __init__(self, every_ms: int):
        self.every_ms = every_ms
        self.frames: list[tuple[int, Image.Image]] = []
        self.now = 0
        self._picture: np.ndarray | None = None
        self._screen: Image.Image | None = None
        self._taken_at: int | None = None

    def table(self, t_ms: int, picture: np.ndarray) -> None:
        self.now, self._picture = t_ms, picture
        if self._taken_at is None or t_ms - self._taken_at >= self.every_ms:
            self._take()

    def screen(self, image: Image.Image) -> None:
        self._screen = image
        if self._picture is not None and (self._taken_at is None or self.now - self._taken_at >= self.every_ms // 2):
            self._take()

    def _take(self) -> None:
        self._taken_at = self.now
        self.frames.append((self.now, composite(self._picture, self._screen)))

    def save(self, path: Path, speed: float) -> None:
        if not self.frames:
            raise ValueError("nothing was filmed")
        times = [t for t, _ in self.frames] + [self.frames[-1][0] + self.every_ms]
        durations = [max(20, int((later - t) / speed)) for t, later in zip(times, times[1:])]
        images = [frame.quantize(colors=64, method=Image.Quantize.MEDIANCUT) for _, frame in self.frames]
        images[0].save(path, save_all=True, append_images=images[1:], duration=durations, loop=0, optimize=True)


def composite(picture: np.ndarray | None, screen: Image.Image | None,
              thumb: tuple[int, int] = _THUMB) -> Image.Image:
    """The camera's view (BGR) scaled to ``thumb`` beside the screen, lit pixels in an OLED's colour."""
    canvas = Image.new("RGB", (thumb[0] + WIDTH * _ZOOM + 24, max(thumb[1], HEIGHT * _ZOOM) + 16), (24, 24, 24))
    if picture is not None:
        small = cv2.resize(picture, thumb, interpolation=cv2.INTER_AREA)
        canvas.paste(Image.fromarray(cv2.cvtColor(small, cv2.COLOR_BGR2RGB)), (8, 8))
    if screen is not None:
        lit = screen.convert("L").resize((WIDTH * _ZOOM, HEIGHT * _ZOOM), Image.NEAREST)
        oled = Image.new("RGB", lit.size, (0, 0, 0))
        oled.paste(Image.new("RGB", lit.size, _OLED_COLOUR), mask=lit)
        canvas.paste(oled, (thumb[0] + 16, 8 + (max(thumb[1], HEIGHT * _ZOOM) - HEIGHT * _ZOOM) // 2))
    return canvas


class Pace:
    """Holds the replay back to ``speed`` times the game's pace (None: as fast as it goes)."""

    def __init__(self, speed: float | None):
        self.speed = speed
        self.started = time.monotonic()

    def __call__(self, t_ms: int) -> None:
        if self.speed:
            ahead = t_ms / 1000 / self.speed - (time.monotonic() - self.started)
            if ahead > 0:
                time.sleep(ahead)

