"""The card reader on deck designs it was or was not tuned on (``elfer bench designs``).
Not a test.

Each design (:mod:`companion.sim.designs`) is calibrated from its 23 pictures as a
family would (retaking what ``elfer calibrate`` names), then read on rendered scenes of
it, surfaces taken in turn. The ``train`` split may be looked into while the reader is
changed; the ``held-out`` split is the headline and nothing may be tuned on it: its
figures are read, never its scenes.
"""

from __future__ import annotations

import json
import statistics
from pathlib import Path

from ..sim.designs import HELD_OUT, TRAIN, design_names, parse_name, require_trainable
from .confidence import reliability_lines
from .vision import (READERS, REQUIRED_SHARE, Score, core_said, one_core, peak_memory_mb, read_scene,
                     with_rendering_bar)

# scene seeds far from every other benchmark's (seed × 100,000 + scene) and the tests'
SCENE_SEEDS = {TRAIN: 700_000_000, HELD_OUT: 800_000_000}
# the markers as the sheet's example lays them, and as on a small kitchen table: scenes alternate
AREAS_MM = ((600.0, 450.0), (460.0, 330.0))
CALIBRATION_SEED = 7


def design_scene_cache(names: list[str], per_design: int, split: str, cache: Path, progress=None):
    """``per_design`` rendered scenes of each design, surfaces and play-area sizes taken in turn."""
    from ..sim.datasets import render_scene
    from ..sim.surface import SURFACES

    folder = cache / f"design-scenes-{split}"
    folder.mkdir(parents=True, exist_ok=True)
    scenes = []
    for d, name in enumerate(names):
        for i in range(per_design):
            area = AREAS_MM[i % len(AREAS_MM)]
            stem = folder / f"{name.replace(':', '-')}-{i:03d}-{area[0]:g}x{area[1]:g}"
            image, label = stem.with_suffix(".jpg"), stem.with_suffix(".json")
            if not (image.exists() and label.exists()):
                _, entry = render_scene(SCENE_SEEDS[split] + d * 1000 + i, style=name,
                                        surface=SURFACES[(d + i) % len(SURFACES)], area_mm=area)
                image.write_bytes(entry.pop("jpeg"))
                label.write_text(json.dumps(entry))
            scenes.append((image, json.loads(label.read_text())))
            if progress:
                progress(len(scenes), len(names) * per_design)
    return scenes


def calibrate_design(name: str, cache: Path):
    """The design's profile from its 23 pictures (retaken as ``elfer calibrate`` asks),
    or the reason calibration failed."""
    from ..vision.calibration import CalibrationError
    from .evaluate_read import calibrated_profiles

    try:
        return calibrated_profiles([name], seed=CALIBRATION_SEED, folder=cache / "design-calibration")[name], None
    except CalibrationError as error:
        return None, str(error).splitlines()[0]


def run_designs_benchmark(split: str = HELD_OUT, designs: int = 24, per_design: int = 20,
                          cache: Path = Path(".cache/vision-bench"), pin: bool = True, mode: str = "detect") -> dict:
    one_core(pin)
    names = design_names(split, designs)
    if split == TRAIN:
        names = [require_trainable(name) for name in names]
    scenes = with_rendering_bar(lambda report: design_scene_cache(names, per_design, split, cache, report),
                                len(names) * per_design, "scene")
    print(f"elfer bench designs: {len(names)} {split} designs, {per_design} scenes each (1280x720), each deck "
          f"calibrated from its 23 pictures; {core_said(pin)}")
    readers, failed = {}, {}
    for name in names:
        profile, reason = calibrate_design(name, cache)
        if profile is None:
            failed[name] = reason
        else:
            readers[name] = READERS[mode](profile)
    by_family: dict[str, Score] = {}
    by_area: dict[str, Score] = {}
    total = Score()
    for image_path, labels in scenes:
        reader = readers.get(labels["style"])
        if reader is None:  # a deck that cannot be calibrated reads nothing
            score = Score(frames=1, required=sum(label["visible_share"] >= REQUIRED_SHARE for label in labels["cards"]))
            score.unknown = score.required
        else:
            score = read_scene(image_path, labels, reader)
        family = parse_name(labels["style"])[0].name
        by_family.setdefault(family, Score()).add(score)
        by_area.setdefault("area %g x %g mm" % tuple(labels["area_mm"]), Score()).add(score)
        total.add(score)
    for family, score in sorted(by_family.items()):
        print("  " + score.line(family))
    for area, score in sorted(by_area.items(), reverse=True):
        print("  " + score.line(area))
    print("  " + total.line(f"all {split} families"))
    print("\n".join(reliability_lines(total.named)))
    by_family_failed = {family: sum(parse_name(name)[0].name == family for name in failed) for family in by_family}
    print(f"calibration: {len(readers)} of {len(names)} designs; failed per family: "
          + ", ".join(f"{family} {count}" for family, count in sorted(by_family_failed.items())))
    if split == TRAIN:  # why, only where it may be looked into
        print("".join(f"  {name} failed: {reason}\n" for name, reason in sorted(failed.items())), end="")
    ms = statistics.median(total.ms) if total.ms else float("nan")
    memory = peak_memory_mb(scenes, None, mode)
    print(f"speed: {ms:.1f} ms per frame (median, {core_said(pin)}); peak memory of a reading process: {memory:.0f} MB")
    return {"total": total, "by_family": by_family, "by_area": by_area, "calibrated": len(readers), "designs": len(names),
            "failed": failed, "ms_per_frame": ms, "peak_mb": memory}


__all__ = ["run_designs_benchmark"]
