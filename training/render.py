"""Training data for the card detector: rendered tables seen as the reader sees them.

Each scene is drawn by the synthetic table as ``elfer synth scenes`` draws it (a bots'
game, piles or side-by-side rows, sometimes a hand, every deck style, surface, light
and camera), mapped by the play-area markers exactly as the reader maps a frame, and
kept as the reader's coarse top-down view (``detect.VIEW_PX_PER_MM``) with every
card's outline in that view and how much of it shows. Four tables share one camera
and light (the camera's pixel maps are most of a scene's cost); camera and light seeds
start at 60,000,000, far from the benchmark's (``elfer bench vision`` uses seed
* 100,000 + scene for seeds up to 2026).

    python training/render.py --first 0 --count 200 --out data/chunk000.pkl

writes a pickle: a list of {"i", "style", "surface", "hand", "image" (BGR uint8),
"cards": [{"card", "poly" (4 × 2 float32, face top-left first, clockwise), "share",
"up"}]}. ``training/README.md`` says how many were rendered for the shipped model.
"""

from __future__ import annotations

import argparse
import pickle
import sys
from pathlib import Path

import cv2
import numpy as np

from companion.sim.datasets import random_table
from companion.sim.deck import STYLES
from companion.sim.designs import TRAIN, design_name, require_trainable
from companion.sim.episode import random_scenery
from companion.sim.render import SceneCamera
from companion.sim.surface import SURFACES
from companion.vision.area import PlayArea
from companion.vision.detect import VIEW_PX_PER_MM

TABLES_PER_CAMERA = 4
FIRST_SEED = 60_000_000
FIRST_DESIGN_SEED = 10_000  # training designs far from the seeds the benchmarks' designs count up from


def style_of(group: int, designs: bool) -> str:
    """The deck of a camera group: the hand-made styles in turn, or with ``designs`` every
    other group a training design (never a held-out one: ``require_trainable``)."""
    styles = sorted(STYLES)
    if not designs or group % 2 == 0:
        return styles[(group // (2 if designs else 1)) % len(styles)]
    return require_trainable(design_name(TRAIN, group // 2, FIRST_DESIGN_SEED))


def render(first: int, count: int, progress=None, designs: bool = False) -> list[dict]:
    """Scenes ``first`` … ``first + count - 1`` (multiples of ``TABLES_PER_CAMERA``)."""
    area = PlayArea()
    records = []
    for group in range(first // TABLES_PER_CAMERA, (first + count) // TABLES_PER_CAMERA):
        style = style_of(group, designs)
        surface = SURFACES[(group // len(STYLES)) % len(SURFACES)]
        seed = FIRST_SEED + group
        camera = SceneCamera(random_scenery(seed, style=style, surface=surface))
        for k in range(TABLES_PER_CAMERA):
            _, _, table, hand = random_table(np.random.default_rng([seed, k, 0x5CE7E5]))
            poses = tuple(table.poses)
            picture, cover = camera.picture(poses, hand)
            labels = camera.labels(poses, cover)
            frame = cv2.imdecode(np.frombuffer(camera.encode(picture), np.uint8), cv2.IMREAD_COLOR)
            area.reset()
            view = area.update(frame)
            if not view.mapped:
                continue  # the reader has no top-down view of such a frame either
            image, scale = view.resampled(VIEW_PX_PER_MM)
            cards = []
            for label in labels:
                polygon = (view.frame_to_view(np.array(label["polygon"], np.float64)) + 0.5) / scale - 0.5
                cards.append({"card": label["card"], "poly": polygon.astype(np.float32),
                              "share": label["visible_share"], "up": label["upside_down"]})
            records.append({"i": group * TABLES_PER_CAMERA + k, "style": style, "surface": surface,
                            "hand": hand is not None, "image": image, "cards": cards})
        if progress:
            progress(group)
    return records


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--first", type=int, required=True)
    parser.add_argument("--count", type=int, required=True)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--designs", action="store_true",
                        help="every other camera group a training deck design (companion.sim.designs)")
    args = parser.parse_args(argv)
    cv2.setNumThreads(1)
    records = render(args.first, args.count, designs=args.designs)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    partial = args.out.with_suffix(".tmp")
    partial.write_bytes(pickle.dumps(records))
    partial.replace(args.out)
    print(f"{len(records)} scenes written to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
