"""Where a frame's time goes (``elfer bench stages``). Not a test.

Reads the vision benchmark's scenes (each deck calibrated from its 23 pictures, as
``elfer bench vision`` reads them) twice on one core: once as they are, for the frame's
median and mean, and once with a timer around each stage of the reader, for each
stage's share of the mean. A timer costs about a microsecond a call, so the timed pass
runs a little slower; the stages are nested (a card's numeral is matched within its
reading), and "the rest" is what no stage covers (the pipeline's own decisions).
"""

from __future__ import annotations

import statistics
import time
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path
from unittest import mock

import cv2

from ..vision import card_reader as read
from ..vision.area import AreaView, PlayArea
from ..vision.card_reader import CardReader
from ..vision.detect import CardDetector


@dataclass(frozen=True)
class Stage:
    label: str
    owner: object  # the class or module whose attribute is timed
    names: tuple[str, ...]  # attributes timed together as one stage
    depth: int = 0  # 1: within the stage above


STAGES = (
    Stage("markers found, area mapped", PlayArea, ("update",)),
    Stage("cards proposed", CardDetector, ("detect",)),
    Stage("the network", CardDetector, ("maps",), 1),
    Stage("the view it sees", AreaView, ("resampled",), 1),
    Stage("cards read", CardReader, ("read_card",)),
    Stage("card warped and measured", CardReader, ("_measured",), 1),
    Stage("numeral matched", CardReader, ("number_scores",), 1),
    Stage("ink and colour", CardReader, ("_read",), 1),
    Stage("another card's edge (seam)", read, ("seam_strength",), 1),
    Stage("stray and index ink", read, ("soft_glyph_map", "stray_ink", "index_ink"), 1),
)


@dataclass
class Timing:
    seconds: float = 0.0
    calls: int = 0


@contextmanager
def timed(stages=STAGES):
    """While inside, every stage's attributes are wrapped by a timer; yields the
    timings (label → :class:`Timing`). The attributes are restored on leaving."""
    timings = {stage.label: Timing() for stage in stages}
    with ExitStack() as patches:
        for stage in stages:
            for name in stage.names:
                timer = _timer(getattr(stage.owner, name), timings[stage.label])
                patches.enter_context(mock.patch.object(stage.owner, name, timer))
        yield timings


def _timer(function, timing: Timing):
    def timed_call(*args, **kwargs):
        start = time.perf_counter()
        try:
            return function(*args, **kwargs)
        finally:
            timing.seconds += time.perf_counter() - start
            timing.calls += 1
    return timed_call


def stage_report(frames: list, readers: dict, stages=STAGES) -> list[str]:
    """The report's lines for ``frames`` ((image, style) pairs) read by ``readers``
    (style → ``TableReader``), each frame from scratch."""
    untimed = _read_all(frames, readers)
    with timed(stages) as timings:
        timed_ms = _read_all(frames, readers)
    n = len(frames)
    lines = [f"frame, read as it is: {statistics.median(untimed):.1f} ms median, {statistics.mean(untimed):.1f} ms mean; "
             f"with the stages timed: {statistics.mean(timed_ms):.1f} ms mean",
             f"{'stage (mean per frame)':40} {'ms':>6} {'calls':>6} {'ms a call':>9}"]
    covered = 0.0
    for stage in stages:
        timing = timings[stage.label]
        if stage.depth == 0:
            covered += timing.seconds
        label = "  " * stage.depth + stage.label
        per_call = 1000 * timing.seconds / timing.calls if timing.calls else 0.0
        lines.append(f"{label:40} {1000 * timing.seconds / n:6.2f} {timing.calls / n:6.2f} {per_call:9.3f}")
    lines.append(f"{'the rest':40} {statistics.mean(timed_ms) - 1000 * covered / n:6.2f}")
    return lines


def _read_all(frames: list, readers: dict) -> list[float]:
    ms = []
    for frame, style in frames:
        reader = readers[style]
        reader.reset()
        start = time.perf_counter()
        reader.read(frame)
        ms.append((time.perf_counter() - start) * 1000)
    return ms


def run_stage_benchmark(n_scenes: int = 300, seed: int = 2026, cache: Path = Path(".cache/vision-bench"),
                        mode: str = "detect", pin: bool = True) -> list[str]:
    from .vision import calibrated_readers, one_core, rendered_scenes

    one_core(pin)
    scenes = rendered_scenes(n_scenes, seed, cache)
    readers = calibrated_readers(scenes, cache, mode)
    frames = [(cv2.imread(str(path), cv2.IMREAD_COLOR), labels["style"]) for path, labels in scenes]
    print(f"elfer bench stages: {len(frames)} scenes of 1280x720 (seed {seed}), each deck calibrated; one core; "
          f"cards found by {'the card detector' if mode == 'detect' else mode}")
    lines = stage_report(frames, readers)
    for line in lines:
        print("  " + line)
    return lines


__all__ = ["STAGES", "Stage", "run_stage_benchmark", "stage_report", "timed"]
