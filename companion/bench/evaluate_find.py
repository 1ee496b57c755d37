"""How well the play-area mapping and the card finder do on the synthetic table.

``python -m companion.bench.evaluate_find --scenes 300 --seed 1`` renders that many
labelled scenes (deck styles and surfaces taken in turn, everything else random: piles
or side-by-side rows, hands, camera, light, blur, noise, JPEG), runs
:class:`~companion.vision.area.PlayArea` and :func:`~companion.vision.find.find_cards`
on each (a fresh mapping per scene, OpenCV on one thread) and prints:

- **recall**: fully visible cards (``visible_share`` ≥ 0.98) found with every corner
  within ``--tolerance`` (4) frame pixels of the labelled outline (as sets of corners);
- **false detections**: found outlines that are not within the tolerance of any card
  with ``visible_share`` ≥ 0.5, split into *imprecise* (within 12 px of such a card:
  the right card, the wrong outline) and *invented* (nothing there);
- the corner error of the matches (median, 99th percentile);
- milliseconds per frame: the first frame of a camera (marker detection included) and
  a following frame (the mapping is only checked), each ``update`` + ``find_cards``;
- the same recall and false counts per deck style and per surface, and how many scenes
  had no mapping (markers unreadable in that single frame: those scenes count in the
  recall with nothing found).
"""

from __future__ import annotations

import argparse
import time
from collections import defaultdict
from dataclasses import dataclass, field

import cv2
import numpy as np

from ..vision.area import PlayArea
from ..vision.find import find_cards

IMPRECISE_PX = 12.0


@dataclass
class Tally:
    cards: int = 0
    found: int = 0
    detections: int = 0
    imprecise: int = 0
    invented: int = 0

    @property
    def false(self) -> int:
        return self.imprecise + self.invented

    def line(self) -> str:
        recall = self.found / self.cards if self.cards else float("nan")
        share = self.false / self.detections if self.detections else 0.0
        return (f"recall {self.found}/{self.cards} = {recall:.2%}; false {self.false}/{self.detections} = {share:.2%} "
                f"(imprecise {self.imprecise}, invented {self.invented})")


@dataclass
class Report:
    total: Tally = field(default_factory=Tally)
    by_style: dict = field(default_factory=lambda: defaultdict(Tally))
    by_surface: dict = field(default_factory=lambda: defaultdict(Tally))
    errors: list = field(default_factory=list)
    first_ms: list = field(default_factory=list)
    next_ms: list = field(default_factory=list)
    unmapped: int = 0
    failures: list = field(default_factory=list)  # (seed, what, card, error px)


def corner_error(found: np.ndarray, polygon: np.ndarray) -> float:
    """The largest distance from a found corner to the nearest labelled corner."""
    return float(np.linalg.norm(found[:, None, :] - polygon[None], axis=2).min(axis=1).max())


def score_scene(found_corners: list[np.ndarray], cards: list[dict], tolerance: float) -> dict:
    """Matches found outlines to labelled cards: found/missed full cards, false ones."""
    polygons = [np.asarray(card["polygon"], float) for card in cards]
    matched, errors, imprecise, invented = set(), [], [], []
    for corners in found_corners:
        candidates = [(corner_error(corners, polygon), index) for index, polygon in enumerate(polygons)
                      if cards[index]["visible_share"] >= 0.5]
        close = [(error, index) for error, index in candidates if error <= tolerance]
        if close:  # the most visible of the cards it fits (a pile's top card, not one below)
            error, index = max(close, key=lambda item: cards[item[1]]["visible_share"])
            matched.add(index)
            errors.append(error)
        elif candidates and min(candidates)[0] <= IMPRECISE_PX:
            imprecise.append((min(candidates)[0], cards[min(candidates)[1]]["card"]))
        else:
            invented.append(min(candidates)[0] if candidates else float("inf"))
    full = [index for index, card in enumerate(cards) if card["visible_share"] >= 0.98]
    missed = [cards[index]["card"] for index in full if index not in matched]
    return {"full": len(full), "found": len(full) - len(missed), "missed": missed, "errors": errors,
            "imprecise": imprecise, "invented": invented}


def evaluate_find(n_scenes: int = 300, seed: int = 1, tolerance: float = 4.0, progress=None) -> Report:
    """Render ``n_scenes`` scenes and score the mapping and the finder on them."""
    from ..sim.datasets import render_scene  # the simulator is only needed here
    from ..sim.deck import STYLES
    from ..sim.surface import SURFACES

    cv2.setNumThreads(1)
    styles = sorted(STYLES)
    report = Report()
    for index in range(n_scenes):
        scene_seed = int(np.random.default_rng([seed, index]).integers(2**31))
        style, surface = styles[index % len(styles)], SURFACES[(index // len(styles)) % len(SURFACES)]
        _, entry = render_scene(scene_seed, style=style, surface=surface)
        frame = cv2.imdecode(np.frombuffer(entry["jpeg"], np.uint8), cv2.IMREAD_COLOR)
        area = PlayArea()
        start = time.perf_counter()
        view = area.update(frame)
        found = find_cards(view)
        report.first_ms.append((time.perf_counter() - start) * 1000)
        start = time.perf_counter()
        find_cards(area.update(frame))
        report.next_ms.append((time.perf_counter() - start) * 1000)
        report.unmapped += not view.mapped
        result = score_scene([card.corners_frame for card in found], entry["cards"], tolerance)
        for tally in (report.total, report.by_style[style], report.by_surface[surface]):
            tally.cards += result["full"]
            tally.found += result["found"]
            tally.detections += len(found)
            tally.imprecise += len(result["imprecise"])
            tally.invented += len(result["invented"])
        report.errors.extend(result["errors"])
        report.failures.extend((scene_seed, "missed", card, None) for card in result["missed"])
        report.failures.extend((scene_seed, "imprecise", card, round(error, 1)) for error, card in result["imprecise"])
        report.failures.extend((scene_seed, "invented", None, round(error, 1)) for error in result["invented"])
        if progress:
            progress(index + 1, n_scenes)
    return report


def print_report(report: Report, tolerance: float) -> None:
    errors = np.asarray(report.errors) if report.errors else np.zeros(1)
    print(f"fully visible cards (share ≥ 0.98), corners within {tolerance:g} px:")
    print(f"  {report.total.line()}")
    print(f"  corner error of matches: median {np.median(errors):.2f} px, 99th percentile {np.percentile(errors, 99):.2f} px")
    print(f"  ms per frame, update + find_cards, one thread: first frame median {np.median(report.first_ms):.1f} "
          f"(p90 {np.percentile(report.first_ms, 90):.1f}); following frame median {np.median(report.next_ms):.1f} "
          f"(p90 {np.percentile(report.next_ms, 90):.1f})")
    print(f"  scenes without a mapping (markers unreadable in the single frame): {report.unmapped}")
    for title, groups in (("style", report.by_style), ("surface", report.by_surface)):
        for name in sorted(groups):
            print(f"  {title} {name:<10} {groups[name].line()}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Score the play-area mapping and the card finder on rendered scenes.")
    parser.add_argument("--scenes", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--tolerance", type=float, default=4.0, help="frame pixels per corner")
    parser.add_argument("--failures", type=int, default=0, help="list this many failures (scene seed, kind, card)")
    args = parser.parse_args(argv)

    def progress(done, total):
        if done % 25 == 0 or done == total:
            print(f"  {done}/{total} scenes", flush=True)

    report = evaluate_find(args.scenes, args.seed, args.tolerance, progress)
    print_report(report, args.tolerance)
    for failure in report.failures[:args.failures]:
        print("  failure:", failure)


if __name__ == "__main__":
    main()
