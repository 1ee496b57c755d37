"""Episodes: whole games as the camera would see them, written as a folder.

```
meta.json      players, opener, rules, fps, resolution, style, seed (and the scenery), what was
               injected: mistakes, two_in_one_reach, early_next, answers, disturbances
frames/        000000.jpg, 000001.jpg, ...   frame i was taken at i * 1000 / fps ms
buttons.jsonl  {"t_ms": 5120, "button": "next"}; an answer to the companion's question
               carries "answer": true (NEXT) or false (BACK)
truth.jsonl    the game record with "t_ms" on every event; injected mistakes carry
               "mistake": true and the error code they should draw
```
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Callable

import numpy as np

from ..rules.presets import Preset
from ..vision.markers import PLAY_AREA_MM as AREA_MM
from .camera import Camera
from .deck import STYLES, get_style
from .lighting import Lighting
from .room import Glare
from .render import SceneCamera, Scenery
from .script import FAMILY, Behaviours, Script, play_script
from .surface import SURFACES

DEFAULT_RESOLUTION = (1280, 720)


def random_scenery(seed: int, style: str | None = None, surface: str | None = None,
                   resolution: tuple[int, int] = DEFAULT_RESOLUTION, area_mm: tuple[float, float] = AREA_MM,
                   neutral_light: bool = False) -> Scenery:
    """A table, a camera and a light drawn at random from the seed (style and surface may be fixed)."""
    rng = np.random.default_rng([seed, 0x5CE7E])
    style = style or sorted(STYLES)[int(rng.integers(len(STYLES)))]
    surface = surface or SURFACES[int(rng.integers(len(SURFACES)))]
    camera = Camera.framing(area_mm, rng=rng, resolution=resolution)
    lighting = Lighting.neutral() if neutral_light else Lighting.random(rng)
    gloss = get_style(style).gloss
    if gloss > 0 and not neutral_light:
        lighting = _glossier(lighting, gloss, np.random.default_rng([seed, 0x6105]))
    return Scenery(style, surface, tuple(area_mm), camera, lighting, seed)


def _glossier(lighting: Lighting, gloss: float, rng: np.random.Generator) -> Lighting:
    """A glossy deck catches the lamp: one more glare spot, and every spot stronger."""
    rx = rng.uniform(0.03, 0.1)
    extra = Glare(rng.uniform(0.2, 0.8), rng.uniform(0.2, 0.8), rx, rx * rng.uniform(0.4, 1.0), rng.uniform(0, 180),
                  rng.uniform(0.5, 0.9) * gloss)
    stronger = tuple(glare._replace(strength=min(0.95, glare.strength * (1 + 0.3 * gloss))) for glare in lighting.glares)
    return dataclasses.replace(lighting, glares=(*stronger, extra))


def write_episode(out: Path, preset: Preset, players: tuple[str, ...], seed: int, fps: float = 10.0,
                  mistakes: float = 0.0, style: str | None = None, resolution: tuple[int, int] = DEFAULT_RESOLUTION,
                  layout: str = "piles", progress: Callable[[int, int], None] | None = None,
                  behaviours: Behaviours = FAMILY) -> dict:
    """Play a game with the bots, render it frame by frame into ``out``, and return meta.json.

    ``behaviours`` (default: ``FAMILY``, all of them; ``PLAIN``: none) are what the family
    does besides the moves: two cards in one reach, answers, early NEXT, disturbances.
    """
    script, _ = play_script(preset, players, seed, fps, AREA_MM, mistake_rate=mistakes, layout=layout,
                            behaviours=behaviours)
    return write_script(out, script, seed, style=style, resolution=resolution, layout=layout, progress=progress)


def write_script(out: Path, script: Script, seed: int, style: str | None = None,
                 resolution: tuple[int, int] = DEFAULT_RESOLUTION, layout: str = "piles",
                 progress: Callable[[int, int], None] | None = None) -> dict:
    """Render a script (a bots' game, or a scene written by hand) into the episode folder
    ``out`` on a table, camera and light drawn from ``seed``; returns meta.json."""
    out = Path(out)
    frames_dir = out / "frames"
    frames_dir.mkdir(parents=True, exist_ok=True)
    for stale in frames_dir.glob("*.jpg"):  # frames of an earlier episode written here
        stale.unlink()
    players, preset, fps = script.players, script.preset, script.fps
    scenery = random_scenery(seed, style=style, resolution=resolution)
    rooms = {state.room for state in script.frames}
    camera = SceneCamera(scenery, bumps={room.bump for room in rooms if room is not None and room.bump})
    total = len(script.frames)
    for index, state in enumerate(script.frames):
        picture, _ = camera.picture(state.table, state.hand, state.room)
        (frames_dir / f"{index:06d}.jpg").write_bytes(camera.encode(picture))
        if progress:
            progress(index + 1, total)
    meta = {
        "players": list(players),
        "opener": script.opener,
        "rules": preset.name,
        "fps": fps,
        "resolution": list(resolution),
        "style": scenery.style,
        "seed": seed,
        "frames": total,
        "mistakes": script.mistakes,
        "layout": layout,
        "two_in_one_reach": script.two_in_one,
        "early_next": script.early_next,
        "answers": sum(1 for press in script.buttons if "answer" in press),
        "disturbances": _described(script, camera),
        "scenery": scenery.describe(),
    }
    (out / "meta.json").write_text(json.dumps(meta, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    _write_lines(out / "buttons.jsonl", script.buttons)
    _write_lines(out / "truth.jsonl", script.truth)
    return meta


def _described(script, camera: SceneCamera) -> list[dict]:
    """The script's disturbances, a bump with the camera it left (as ``scenery.camera``)."""
    described = []
    bumps = iter(script.bumps)
    for entry in script.disturbances:
        if entry["kind"] == "bump":
            entry = {**entry, "camera": camera.bumped(next(bumps)).describe()}
        described.append(entry)
    return described


def _write_lines(path: Path, items: list[dict]) -> None:
    path.write_text("".join(json.dumps(item, ensure_ascii=False) + "\n" for item in items), encoding="utf-8")
