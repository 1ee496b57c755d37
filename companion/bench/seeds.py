"""The card reader on several seeds' scenes at once (``elfer bench seeds``). Not a test.

``elfer bench vision`` measures one seed's scenes, and the reader's limits were set on
seed 2026's (and on seed 7's, the calibration pictures' seed): a figure that holds there
may not hold on scenes it was not tuned on. This reads each seed's scenes with every
deck calibrated from its 23 pictures, as ``elfer bench vision`` calibrates it, and
prints each seed's figures and all of them pooled, so the figure across seeds is one
command's output rather than a sum worked out by hand.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable
from pathlib import Path

from ..vision.profile import Profile
from .vision import Score, calibrated_readers, how_run, one_core, read_scenes, rendered_scenes

# the benchmark's own seed and scene count, then the seeds docs/benchmarks.md quotes beside it
DEFAULT_SEEDS = ((2026, 2000), (13, 1000), (11, 1000), (7, 1000))
DEFAULT_SCENES = 1000


def seed_and_scenes(text: str) -> tuple[int, int]:
    """``"13"`` or ``"13:1000"`` → (seed, scenes); ``DEFAULT_SCENES`` where not given."""
    seed, colon, scenes = text.partition(":")
    try:
        pair = int(seed), int(scenes) if colon else DEFAULT_SCENES
    except ValueError:
        pair = None
    if pair is None or pair[1] < 1:
        raise ValueError(f"expected SEED or SEED:SCENES (whole numbers, at least one scene), not {text!r}")
    return pair


def run_seeds_benchmark(seeds=DEFAULT_SEEDS, cache: Path = Path(".cache/vision-bench"), pin: bool = True,
                        mode: str = "detect", profile_of: Callable[[str], Profile] | None = None) -> dict:
    """Each seed's calibrated score (keyed by seed) and ``"pooled"``. ``profile_of(style)``,
    when given, stands in for calibrating each style from its 23 pictures."""
    one_core(pin)
    scenes_of = {seed: rendered_scenes(n, seed, cache) for seed, n in seeds}
    every_scene = [scene for scenes in scenes_of.values() for scene in scenes]
    readers = calibrated_readers(every_scene, cache, mode, profile_of)
    print(f"elfer bench seeds: {', '.join(f'{len(scenes)} scenes of seed {seed}' for seed, scenes in scenes_of.items())}"
          f"; {how_run(pin, profile_of)}")
    results: dict = {}
    pooled = Score()
    for seed, scenes in scenes_of.items():
        score, _ = read_scenes(scenes, readers.__getitem__)
        print(f"  {score.line(f'seed {seed}')}  {statistics.median(score.ms):.1f} ms a frame (median)")
        pooled.add(score)
        results[seed] = score
    print(f"  {pooled.line('all seeds pooled')}")
    results["pooled"] = pooled
    return results


__all__ = ["DEFAULT_SEEDS", "run_seeds_benchmark", "seed_and_scenes"]
