"""A contact sheet of sample scenes: every deck style on every surface, under varied light."""

from __future__ import annotations

from pathlib import Path
from typing import Callable

import cv2
import numpy as np

from .datasets import render_scene
from .deck import STYLES
from .surface import SURFACES

THUMB = (480, 270)


def contact_sheet(out: Path, seed: int = 0, progress: Callable[[int, int], None] | None = None) -> Path:
    """One row per deck style, one column per surface; each tile names its style, surface and light."""
    styles = sorted(STYLES)
    rows = []
    total = len(styles) * len(SURFACES)
    for r, style in enumerate(styles):
        tiles = []
        for c, surface in enumerate(SURFACES):
            _, entry = render_scene(seed * 1000 + r * len(SURFACES) + c, style=style, surface=surface)
            picture = cv2.imdecode(np.frombuffer(entry["jpeg"], np.uint8), cv2.IMREAD_COLOR)
            tile = cv2.resize(picture, THUMB, interpolation=cv2.INTER_AREA)
            light = entry["lighting"]
            caption = (f"{style} / {surface} / {light['colour_temperature_k']:.0f} K"
                       f"{' / hand' if entry['hand'] else ''}")
            cv2.rectangle(tile, (0, THUMB[1] - 22), (THUMB[0], THUMB[1]), (30, 30, 30), -1)
            cv2.putText(tile, caption, (6, THUMB[1] - 7), cv2.FONT_HERSHEY_SIMPLEX, 0.45, (235, 235, 235), 1,
                        cv2.LINE_AA)
            tiles.append(tile)
            if progress:
                progress(len(tiles) + r * len(SURFACES), total)
        rows.append(np.hstack(tiles))
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    if not cv2.imwrite(str(out), np.vstack(rows), [cv2.IMWRITE_JPEG_QUALITY, 85]):
        raise ValueError(f"cannot write {out}: use a .jpg or .png file name")
    return out
