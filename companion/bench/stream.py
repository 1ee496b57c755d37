"""How fast the card reader keeps up with a camera (``elfer bench stream``). Not a test.

``elfer bench vision`` reads every frame from scratch: frames of unrelated tables. A
camera over a game sends frame after frame of one table, most of it unchanged from
one frame to the next. This benchmark renders such streams (``sim.datasets.render_stream``:
stretches of bots' games in the middle, hands coming and going, cards going down, every
frame with its own sensor noise; every deck style, surface, light and camera angle of
the synthetic table), reads each stream in order with :class:`StreamReader` (only what
changed is read again; a still table is looked at again now and then where no card was
read whole) and every frame from scratch with :class:`TableReader`, and prints both
side by side: per-card and per-frame accuracy against the labels (scored as in
``companion.bench.vision``) and milliseconds per frame on one core, for all frames, for frames in
which nothing changed, for frames read again in part and for second looks.
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np

from ..vision.profile import Profile
from ..vision.stream import StreamReader
from .vision import READERS, Score, calibrated_profile_of, how_run, one_core, score_frame, with_rendering_bar


def stream_cache(streams: int, frames: int, seed: int, cache: Path, progress=None) -> list[list[tuple[Path, dict]]]:
    """``streams`` rendered streams of ``frames`` frames, style and surface taken in turn."""
    from ..sim.datasets import render_stream
    from ..sim.deck import STYLES
    from ..sim.surface import SURFACES

    styles = sorted(STYLES)
    out = []
    for i in range(streams):
        folder = cache / f"streams-{seed}-{frames}" / f"{i:03d}"
        labels_path = folder / "labels.json"
        if not labels_path.exists():
            folder.mkdir(parents=True, exist_ok=True)
            style, surface = styles[i % len(styles)], SURFACES[(i // len(styles)) % len(SURFACES)]
            entries = render_stream(seed * 1000 + i, frames, style=style, surface=surface)
            for j, entry in enumerate(entries):
                (folder / f"{j:04d}.jpg").write_bytes(entry.pop("jpeg"))
            labels_path.write_text(json.dumps(entries))
        entries = json.loads(labels_path.read_text())
        out.append([(folder / f"{j:04d}.jpg", entry) for j, entry in enumerate(entries)])
        if progress:
            progress(i + 1, streams)
    return out


def run_stream_benchmark(streams: int = 24, frames: int = 100, seed: int = 2026,
                         cache: Path = Path(".cache/vision-bench"), pin: bool = True,
                         profile_of: Callable[[str], Profile] | None = None, mode: str = "detect") -> dict:
    """``profile_of(style)``, when given, stands in for calibrating each style from its 23
    pictures (a caller that holds those profiles already)."""
    from tqdm import tqdm

    one_core(pin)
    rendered = with_rendering_bar(lambda report: stream_cache(streams, frames, seed, cache, report), streams, "stream")
    styles = sorted({entries[0][1]["style"] for entries in rendered})
    print(f"elfer bench stream: {streams} streams of {frames} frames of 1280x720 at 10 frames a second "
          f"(seed {seed}), from the middle of bots' games, every style, surface, light and camera angle; "
          f"{how_run(pin, profile_of)}")
    profile_of = calibrated_profile_of(styles, cache, profile_of)
    results = {(name, part): Score() for name in ("stream", "whole") for part in ("all", "no hand")}
    still_ms, changed_ms, second_look_ms = [], [], []
    for entries in tqdm(rendered, unit="stream", disable=None, file=sys.stderr, leave=False, desc="reading"):
        profile = profile_of(entries[0][1]["style"])
        stream, whole = StreamReader(reader=READERS[mode](profile)), READERS[mode](profile)
        for path, labels in entries:
            frame = cv2.imread(str(path), cv2.IMREAD_COLOR)
            reads_before, second_looks_before = stream.partial_reads + stream.reads, stream.second_looks
            for name, reader in (("stream", stream), ("whole", whole)):
                if name == "whole":
                    whole.reset()  # from scratch: nothing carried over from the frame before
                start = time.perf_counter()
                reading = reader.read(frame)
                elapsed = (time.perf_counter() - start) * 1000
                score = score_frame(reading, labels["cards"])
                score.ms.append(elapsed)
                results[name, "all"].add(score)
                if not labels["hand"]:
                    results[name, "no hand"].add(score)
                if name == "stream":
                    (changed_ms if stream.partial_reads + stream.reads > reads_before
                     else second_look_ms if stream.second_looks > second_looks_before else still_ms).append(elapsed)
    for name, title in (("whole", "every frame read whole"), ("stream", "read as a stream")):
        score = results[name, "all"]
        print(f"  {score.line(title)}")
        print(f"  {results[name, 'no hand'].line('  frames without a hand')}")
        print(f"  {'':28} {statistics.median(score.ms):.1f} ms per frame (median), "
              f"90th percentile {np.percentile(score.ms, 90):.1f} ms")
    print("  (a hand over the table hides parts of cards, which may then be misread; the referee waits "
          "for the hands to go)")
    print(f"  as a stream: {len(still_ms)} frames unchanged, {statistics.median(still_ms):.1f} ms (median); "
          f"{len(changed_ms)} read again where they changed (or whole), {statistics.median(changed_ms):.1f} ms (median); "
          f"{len(second_look_ms)} still frames looked at again where no card was read whole, "
          f"{statistics.median(second_look_ms) if second_look_ms else 0:.1f} ms (median)")
    return {"results": results, "still_ms": still_ms, "changed_ms": changed_ms, "second_look_ms": second_look_ms}
