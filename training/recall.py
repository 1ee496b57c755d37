"""How many of the cards a reader must read each detector proposes, on the training
designs' benchmark scenes (``elfer bench designs --split dev`` renders and caches them).
Never on held-out designs: their scenes are read only by the benchmark.

    python training/recall.py [MODEL.onnx ...]     (default: the shipped model)

A card counts as proposed where a proposal's centre lies within 15 % of the card's
short side of its true centre. Printed per family, per play-area size, and pooled.
"""

from __future__ import annotations

import json
import sys
from collections import defaultdict
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from companion.bench.vision import REQUIRED_SHARE  # noqa: E402
from companion.sim.designs import parse_name, require_trainable  # noqa: E402
from companion.vision.area import PlayArea  # noqa: E402
from companion.vision.detect import MODEL, CardDetector  # noqa: E402

SCENES = Path(".cache/vision-bench/design-scenes-train")


def recall(models: list[Path]) -> dict[str, dict[str, list[int]]]:
    detectors = {str(model): CardDetector(model) for model in models}
    found: dict[str, dict[str, list[int]]] = defaultdict(lambda: defaultdict(lambda: [0, 0]))
    for path in sorted(SCENES.glob("*.json")):
        labels = json.loads(path.read_text())
        family, _ = parse_name(require_trainable(labels["style"]))
        view = PlayArea().update(cv2.imread(str(path.with_suffix(".jpg"))))
        if not view.mapped:
            continue
        area = "x".join(f"{v:g}" for v in labels["area_mm"])
        for name, detector in detectors.items():
            centres = [p.corners_frame.mean(axis=0) for p in detector.detect(view)]
            for card in labels["cards"]:
                if card["visible_share"] < REQUIRED_SHARE:
                    continue
                polygon = np.array(card["polygon"])
                short = float(np.hypot(*(polygon[1] - polygon[0])))
                hit = any(np.hypot(*(c - polygon.mean(axis=0))) < 0.15 * short for c in centres)
                for key in (family.name, area, "all"):
                    found[name][key][0] += hit
                    found[name][key][1] += 1
    return found


def main() -> int:
    models = [Path(arg) for arg in sys.argv[1:]] or [MODEL]
    if not any(SCENES.glob("*.json")):
        print(f"no scenes in {SCENES}: run elfer bench designs --split dev first", file=sys.stderr)
        return 2
    for name, counts in recall(models).items():
        print(name)
        for key, (hit, total) in sorted(counts.items()):
            print(f"  {key:14s} {hit:5d} of {total:5d} proposed  {100 * hit / total:6.1f} %")
    return 0


if __name__ == "__main__":
    sys.exit(main())
