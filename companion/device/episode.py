"""An episode folder as the companion's camera and buttons (replays and tests).

The folder is the synthetic table's contract (docs/synthetic-table.md): ``meta.json``
(players, rules, fps), ``frames/000000.jpg ...`` (frame i taken at i × 1000 / fps ms)
and ``buttons.jsonl`` (``{"t_ms": 5120, "button": "next"}`` a line). ``truth.jsonl``, if
present, is for scoring and is never read here.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

import cv2
import numpy as np

from ..loop.inputs import ButtonIn, FrameIn
from ..loop.loop import BUTTONS
from ..rules import Start


class EpisodeError(ValueError):
    """The folder is not an episode, or one of its files is malformed."""


@dataclass(frozen=True)
class Episode:
    folder: Path
    meta: dict
    frames: tuple[Path, ...]
    buttons: tuple[ButtonIn, ...]

    @classmethod
    def load(cls, folder: Path | str) -> "Episode":
        folder = Path(folder)
        if not folder.is_dir():
            raise EpisodeError(f"{folder}: no such episode folder")
        meta = _meta(folder / "meta.json")
        frames_dir = folder / "frames"
        frames = tuple(sorted(frames_dir.glob("*.jpg"))) if frames_dir.is_dir() else ()
        if not frames:
            raise EpisodeError(f"{frames_dir}: no frames (000000.jpg, ...)")
        return cls(folder, meta, frames, _buttons(folder / "buttons.jsonl"))

    @property
    def start(self) -> Start:
        return Start(tuple(self.meta["players"]), self.meta.get("rules", "classic"))

    @property
    def opener(self) -> str | None:
        """Who laid the first card, where the episode says so."""
        return self.meta.get("opener") if self.meta.get("opener") in self.meta["players"] else None

    @property
    def fps(self) -> float:
        return float(self.meta["fps"])

    def frame_time(self, index: int) -> int:
        return round(index * 1000 / self.fps)

    @property
    def duration_ms(self) -> int:
        return self.frame_time(len(self.frames))

    def picture(self, index: int) -> np.ndarray | None:
        """Frame ``index`` decoded (None where it cannot be)."""
        return _picture(self.frames[index])

    def inputs(self) -> Iterator[FrameIn | ButtonIn]:
        """Frames and presses in time order; a press at a frame's time comes first (the
        frame shows what followed the press)."""
        buttons = iter(self.buttons)
        pending = next(buttons, None)
        for index, path in enumerate(self.frames):
            t = self.frame_time(index)
            while pending is not None and pending.t_ms <= t:
                yield pending
                pending = next(buttons, None)
            yield FrameIn(t, lambda path=path: _picture(path), path.name)
        while pending is not None:
            yield pending
            pending = next(buttons, None)


def _picture(path: Path) -> np.ndarray | None:
    data = np.fromfile(path, np.uint8) if path.is_file() else np.zeros(0, np.uint8)
    return cv2.imdecode(data, cv2.IMREAD_COLOR) if data.size else None


def _meta(path: Path) -> dict:
    try:
        meta = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise EpisodeError(f"{path}: missing (every episode has a meta.json)") from None
    except (OSError, UnicodeDecodeError) as error:
        raise EpisodeError(f"{path}: cannot be read ({error})") from None
    except json.JSONDecodeError as error:
        raise EpisodeError(f"{path}: not JSON ({error.msg}, line {error.lineno})") from None
    if not isinstance(meta, dict):
        raise EpisodeError(f"{path}: must be a JSON object")
    players = meta.get("players")
    if not (isinstance(players, list) and 2 <= len(players) <= 6
            and all(isinstance(p, str) and p.strip() for p in players) and len(set(players)) == len(players)):
        raise EpisodeError(f"{path}: \"players\" must list 2 to 6 distinct names")
    if not isinstance(meta.get("rules", "classic"), str):
        raise EpisodeError(f"{path}: \"rules\" must be a preset's name")
    fps = meta.get("fps")
    if isinstance(fps, bool) or not isinstance(fps, (int, float)) or not 0.5 <= fps <= 120:
        raise EpisodeError(f"{path}: \"fps\" must be a number of frames a second from 0.5 to 120")
    return meta


def _buttons(path: Path) -> tuple[ButtonIn, ...]:
    if not path.exists():
        return ()
    presses = []
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as error:
        raise EpisodeError(f"{path}: cannot be read ({error})") from None
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as error:
            raise EpisodeError(f"{path}, line {number}: not JSON ({error.msg})") from None
        t, name = (obj.get("t_ms"), obj.get("button")) if isinstance(obj, dict) else (None, None)
        if isinstance(t, bool) or not isinstance(t, int) or t < 0:
            raise EpisodeError(f"{path}, line {number}: \"t_ms\" must be a whole number of milliseconds")
        if name not in BUTTONS:
            raise EpisodeError(f"{path}, line {number}: \"button\" must be one of {', '.join(BUTTONS)}")
        presses.append(ButtonIn(t, name))
    return tuple(sorted(presses, key=lambda press: press.t_ms))
