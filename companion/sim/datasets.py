"""Data sets from the synthetic table: single-card pictures and labelled whole-table scenes."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Callable

import cv2
import numpy as np

from ..cards import DECK
from ..rules.deal import Deal
from ..rules.events import Place
from ..rules.presets import get_preset
from ..vision.markers import PLAY_AREA_MM as AREA_MM
from .bots import BOTS
from .episode import DEFAULT_RESOLUTION, random_scenery
from .lighting import jpeg_roundtrip
from .layout import LAYOUTS, CardPose, Table, TableLayout
from .render import SceneCamera
from .script import Hand, play_script, seat_angles

SCENE_RULES = ("classic", "classic", "classic", "junior", "false-start", "three-starts")  # classic most often


def table_after(preset_name: str, players: int, moves: int, rng: np.random.Generator, layout: str,
                area_mm: tuple[float, float] = AREA_MM) -> Table:
    """The table after some moves of a bots' game, laid the way a family lays it."""
    preset = get_preset(preset_name)
    names = tuple(f"P{i + 1}" for i in range(players))
    seed = int(rng.integers(2**31))
    deal = Deal(preset, names, random.Random(seed), first=0)
    bot = BOTS["sensible"](random.Random(seed))
    table_layout = TableLayout(preset, area_mm, rng, layout=layout)
    table = Table([table_layout.place(c, Table(), None) for c in deal.game.table()])
    openers: dict = {}
    for _ in range(moves):
        if deal.game.over:
            break
        event = deal.push_unchecked(bot.choose(deal, deal.legal_moves()))
        if event.__class__ is Place:
            card = event.card
            if not any(p.card.colour is card.colour for p in table.poses):
                openers[card.colour] = card.number
            table.add(table_layout.place(card, table, openers.get(card.colour)))
    return table


def write_scenes(out: Path, count: int, seed: int, resolution: tuple[int, int] = DEFAULT_RESOLUTION,
                 progress: Callable[[int, int], None] | None = None) -> dict:
    """``count`` whole-table pictures and ``labels.json`` with every card's outline and visibility."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    labels = {}
    for index in range(count):
        scene_seed = int(np.random.default_rng([seed, index]).integers(2**31))
        name, entry = render_scene(scene_seed, resolution)
        path = out / f"{index:05d}.jpg"
        path.write_bytes(entry.pop("jpeg"))
        labels[path.name] = entry
        if progress:
            progress(index + 1, count)
    (out / "labels.json").write_text(json.dumps(labels, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return labels


def random_table(rng: np.random.Generator,
                 area_mm: tuple[float, float] = AREA_MM) -> tuple[str, str, Table, Hand | None]:
    """(rules, layout, table, hand or None) of a random scene: a bots' game stopped after
    5–160 moves, classic most often, piles or (a quarter of the time) side-by-side rows,
    in a third of the scenes a hand reaching for a card."""
    rules = SCENE_RULES[int(rng.integers(len(SCENE_RULES)))]
    players = int(rng.integers(2, 7))
    layout = LAYOUTS[int(rng.random() < 0.25)]
    table = table_after(rules, players, int(rng.integers(5, 160)), rng, layout, area_mm)
    hand = None
    if table.poses and rng.random() < 0.35:
        target = table.poses[int(rng.integers(len(table.poses)))]
        seat = int(rng.integers(players))
        hand = Hand(seat, seat_angles(players)[seat], target.centre, float(rng.uniform(0.6, 1.0)))
    return rules, layout, table, hand


def render_scene(seed: int, resolution: tuple[int, int] = DEFAULT_RESOLUTION, style: str | None = None,
                 surface: str | None = None, area_mm: tuple[float, float] = AREA_MM) -> tuple[str, dict]:
    """One random table picture (JPEG bytes under ``"jpeg"``) with its labels; ``area_mm``:
    how far apart the markers lie."""
    rng = np.random.default_rng([seed, 0x5CE7E5])
    rules, layout, table, hand = random_table(rng, area_mm)
    scenery = random_scenery(seed, style=style, surface=surface, resolution=resolution, area_mm=area_mm)
    camera = SceneCamera(scenery)
    poses = tuple(table.poses)
    picture, cover = camera.picture(poses, hand)
    entry = {
        "rules": rules,
        "layout": layout,
        "hand": hand is not None,
        **scenery.describe(),
        "cards": camera.labels(poses, cover),
        "jpeg": camera.encode(picture),
    }
    return rules, entry


def write_cards(out: Path, style: str, variants: int = 1, seed: int = 0,
                resolution: tuple[int, int] = DEFAULT_RESOLUTION,
                progress: Callable[[int, int], None] | None = None, cards=DECK) -> list[Path]:
    """Single-card pictures for calibration: ``R11.png``, ``R11_2.png``, ... under varied light and angle.

    ``cards`` picks a subset (default all 80); a card's pictures are the same whichever
    subset it is drawn in.
    """
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    written = []
    total = len(cards) * variants
    for card in cards:
        number = DECK.index(card)
        for variant in range(1, variants + 1):
            rng = np.random.default_rng([seed, number, variant])
            scenery = random_scenery(int(rng.integers(2**31)), style=style, resolution=resolution)
            camera = SceneCamera(scenery)
            w, h = scenery.area_mm
            pose = CardPose(card, (w / 2 + float(rng.normal(0, w / 10)), h / 2 + float(rng.normal(0, h / 10))),
                            float(rng.uniform(-25, 25)), bool(rng.random() < 0.3))
            picture, _ = camera.picture((pose,))
            picture = jpeg_roundtrip(picture, scenery.lighting.jpeg_quality)  # as the camera delivers it
            name = card.code if variant == 1 else f"{card.code}_{variant}"
            path = out / f"{name}.png"
            cv2.imwrite(str(path), picture)
            written.append(path)
            if progress:
                progress(len(written), total)
    return written


def laid_out_picture(style: str, cards, seed: int = 0, columns: int = 6, gap_mm: float = 15.0,
                     surface: str | None = None, resolution: tuple[int, int] = DEFAULT_RESOLUTION) -> np.ndarray:
    """A picture of ``cards`` laid out in rows of ``columns``, in order, each row left to
    right, a little turned and some upside down, in the middle of the play area, as
    ``elfer calibrate --laid-out`` asks a family to lay them (JPEG-compressed as the
    camera delivers it)."""
    rng = np.random.default_rng([seed, 0x1A1D])
    scenery = random_scenery(int(rng.integers(2**31)), style=style, surface=surface, resolution=resolution)
    width, height = scenery.area_mm
    rows = -(-len(cards) // columns)
    pitch = (59.0 + gap_mm, 91.0 + gap_mm)
    first = (width / 2 - (columns - 1) * pitch[0] / 2, height / 2 - (rows - 1) * pitch[1] / 2)
    poses = tuple(CardPose(card, (first[0] + (i % columns) * pitch[0], first[1] + (i // columns) * pitch[1]),
                           float(rng.uniform(-4, 4)), bool(rng.random() < 0.3)) for i, card in enumerate(cards))
    picture, _ = SceneCamera(scenery).picture(poses)
    return jpeg_roundtrip(picture, scenery.lighting.jpeg_quality)


def render_stream(seed: int, frames: int, resolution: tuple[int, int] = DEFAULT_RESOLUTION,
                  style: str | None = None, surface: str | None = None, fps: float = 10.0) -> list[dict]:
    """``frames`` consecutive camera frames from the middle of a bots' game, as the
    camera sends them (hands coming and going, cards going down, each frame with its
    own sensor noise): per frame the JPEG bytes under ``"jpeg"`` and the labels."""
    rng = np.random.default_rng([seed, 0x57AEA])
    players = tuple(f"P{i + 1}" for i in range(int(rng.integers(2, 5))))
    layout = LAYOUTS[int(rng.random() < 0.25)]
    script, _ = play_script(get_preset("classic"), players, seed, fps, AREA_MM, layout=layout)
    # from a third of the way in: the table has rows to read by then
    first = int(rng.integers(len(script.frames) // 3, max(len(script.frames) // 3 + 1, len(script.frames) - frames)))
    scenery = random_scenery(seed, style=style, surface=surface, resolution=resolution)
    camera = SceneCamera(scenery)
    entries = []
    for state in script.frames[first:first + frames]:
        picture, cover = camera.picture(state.table, state.hand)
        entries.append({"layout": layout, "hand": state.hand is not None, **scenery.describe(),
                        "cards": camera.labels(state.table, cover), "jpeg": camera.encode(picture)})
    return entries
