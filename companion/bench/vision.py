"""How good and how fast the card reader is (``elfer bench vision``). Not a test.

Renders table scenes across every deck style, surface, light and camera angle of the
synthetic table (cached on disk, so a second run only reads), reads them, and scores
every reading against the exact labels:

- a *required* card is fully visible (at least 98 % of it shows): it must be read;
- a partly covered card (50–98 % shows) may be read or left unknown, but never misread;
- anything else the reader names is a false reading.

Per-card accuracy = required cards read right / required cards. Wrong = required cards
misread, plus misread partly covered cards and false readings, over required cards.
Unknown = required cards not found or left unknown. A frame is right when every
required card in it is read right and nothing is misread.
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from ..vision.area import AreaView, PlayArea, unmapped_view
from ..vision.profile import default_profile
from ..vision.table_reader import TableReader
from .confidence import named_confidences
from .cores import pin_to_one_core
from .evaluate_read import CALIBRATION_CACHE, calibrated_profiles
from .search import SearchingReader

REQUIRED_SHARE, OPTIONAL_SHARE = 0.98, 0.5


class _MarkersIgnored(PlayArea):
    """A play area whose markers are never seen: every frame comes back unmapped."""

    def update(self, frame: np.ndarray) -> AreaView:
        return unmapped_view(frame, margin_mm=self.margin_mm)


class UnmarkedReader(TableReader):
    """The card detector's reader told there are no markers (the bench's scenes have them,
    and they do not matter to the detector): each frame is read at the scale its cards
    show (``frame_scale.py``)."""

    def __init__(self, profile=None):
        super().__init__(profile)
        self.area = _MarkersIgnored()


# how the reader finds the cards: the card detector, the search it replaced (``--search``),
# or the detector without markers (``--no-markers``)
READERS = {"detect": TableReader, "search": SearchingReader, "no-markers": UnmarkedReader}


@dataclass
class Score:
    required: int = 0
    right: int = 0
    wrong: int = 0
    unknown: int = 0
    false_readings: int = 0
    empty_outlines: int = 0  # outlines reported as a card that cannot be read where no card lies
    frames: int = 0
    frames_right: int = 0
    ms: list = field(default_factory=list)
    named: list = field(default_factory=list)  # (confidence, right) of every card named (``confidence.py``)

    def add(self, other: "Score") -> None:
        for name in ("required", "right", "wrong", "unknown", "false_readings", "empty_outlines", "frames",
                     "frames_right"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.ms += other.ms
        self.named += other.named

    def line(self, title: str) -> str:
        n = max(self.required, 1)
        return (f"{title:28} cards {self.required:6d}  right {100 * self.right / n:7.3f} %  "
                f"wrong {100 * self.wrong / n:6.3f} %  unknown {100 * self.unknown / n:6.3f} %  "
                f"frames right {100 * self.frames_right / max(self.frames, 1):7.3f} % of {self.frames}  "
                f"unreadable where no card lies {self.empty_outlines}")


def scene_cache(n: int, seed: int, cache: Path, progress=None) -> list[tuple[Path, dict]]:
    """``n`` rendered scenes, style and surface taken in turn so every pairing appears."""
    from ..sim.datasets import render_scene
    from ..sim.deck import STYLES
    from ..sim.surface import SURFACES

    folder = cache / f"scenes-{seed}"
    folder.mkdir(parents=True, exist_ok=True)
    styles = sorted(STYLES)
    scenes = []
    for i in range(n):
        image, label = folder / f"{i:05d}.jpg", folder / f"{i:05d}.json"
        if not (image.exists() and label.exists()):
            style = styles[i % len(styles)]
            surface = SURFACES[(i // len(styles)) % len(SURFACES)]
            _, entry = render_scene(seed * 100_000 + i, style=style, surface=surface)
            image.write_bytes(entry.pop("jpeg"))
            label.write_text(json.dumps(entry))
        scenes.append((image, json.loads(label.read_text())))
        if progress:
            progress(i + 1, n)
    return scenes


def one_core(pin: bool = True) -> None:
    """This process on one core (the lowest it may use; ``pin`` False: left as it is) and
    OpenCV on one thread, as the benchmarks measure."""
    pin_to_one_core(pin)
    cv2.setNumThreads(1)


def core_said(pin: bool) -> str:
    """How a benchmark ran, for its printout (see :func:`one_core`)."""
    return "one core" if pin else "OpenCV on one thread, not pinned to a core"


def how_run(pin: bool, profile_of=None) -> str:
    """What a benchmark's header says of how it ran: its profiles and its core."""
    profiles = "each deck calibrated from its 23 pictures" if profile_of is None else "each deck's profile as given"
    return f"{profiles}; {core_said(pin)}"


def rendered_scenes(n: int, seed: int, cache: Path) -> list[tuple[Path, dict]]:
    """``scene_cache`` with a progress bar on stderr while scenes are rendered."""
    return with_rendering_bar(lambda report: scene_cache(n, seed, cache, report), n, "scene")


def with_rendering_bar(render, total: int, unit: str):
    """``render(report)`` (a cache filler that calls ``report(done, total)`` as it goes)
    with a progress bar on stderr while it renders."""
    from tqdm import tqdm

    with tqdm(total=total, unit=unit, disable=None, file=sys.stderr, leave=False, desc="rendering") as bar:
        return render(lambda done, _total: bar.update(done - bar.n))


def calibrated_profile_of(styles, cache: Path, profile_of=None):
    """``profile_of`` (style -> profile) when given (a caller that holds the profiles
    already), else each of ``styles`` calibrated from its 23 pictures as ``elfer bench
    vision`` calibrates it."""
    if profile_of is not None:
        return profile_of
    return calibrated_profiles(styles, seed=7, folder=cache / CALIBRATION_CACHE, retaken={}).__getitem__


def calibrated_readers(scenes, cache: Path, mode: str = "detect", profile_of=None) -> dict:
    """A reader (``READERS[mode]``) per deck style of ``scenes``, each with its profile from
    :func:`calibrated_profile_of`."""
    styles = sorted({labels["style"] for _, labels in scenes})
    profile_of = calibrated_profile_of(styles, cache, profile_of)
    return {style: READERS[mode](profile_of(style)) for style in styles}


NEAR_SHARE = 0.3  # of a labelled card's width: a reading this near its centre is a reading of it


@dataclass(frozen=True)
class LabelPlace:
    """Where a labelled card lies (image pixels): what lies within ``NEAR_SHARE`` of its
    width from its centre belongs to it."""

    centre: np.ndarray
    width: float

    def distance(self, point) -> float:
        return float(np.linalg.norm(np.asarray(point) - self.centre))

    def near(self, point) -> bool:
        return self.distance(point) < NEAR_SHARE * self.width


def label_places(labels: list[dict]) -> list[LabelPlace]:
    return [LabelPlace(np.mean(np.array(label["polygon"]), axis=0),
                       float(np.linalg.norm(np.subtract(label["polygon"][1], label["polygon"][0])))) for label in labels]


def names_by_label(reading, labels: list[dict],
                   places: list[LabelPlace] | None = None) -> tuple[dict[int, list], int, int]:
    """What the reading names at each labelled card (label index → the seen cards'
    codes, None for one seen but not read), how many cards it names where no card lies,
    and how many it reports there as cards that cannot be read (:func:`lies_apart`). A
    seen card belongs to the most visible labelled card (at least half of it showing)
    whose centre lies within ``NEAR_SHARE`` card widths of its own: on a pile the cards
    below lie almost exactly under the top card, and a reading of the pile is a reading
    of its top card. ``places``: the labels' :func:`label_places`, where the caller has them."""
    places = label_places(labels) if places is None else places
    named_for: dict[int, list] = {}
    false_readings = empty_outlines = 0
    for seen in reading.cards:
        centre = np.mean(seen.polygon, axis=0)
        best = label_of(centre, labels, places)
        named = None if seen.card is None else seen.card.code
        if best is not None:
            named_for.setdefault(best, []).append(named)
        elif named is not None:
            false_readings += 1
        elif lies_apart(centre, places):
            empty_outlines += 1
    return named_for, false_readings, empty_outlines


def label_of(centre, labels: list[dict], places: list[LabelPlace]) -> int | None:
    """The labelled card (index) a card seen at ``centre`` belongs to: of those near it
    (:func:`labels_near`), the most visible, then the nearest; None where none is near."""
    near = labels_near(centre, labels, places)
    if not near:
        return None
    return max(near, key=lambda index: (labels[index]["visible_share"], -places[index].distance(centre)))


def labels_near(centre, labels: list[dict], places: list[LabelPlace]) -> list[int]:
    """The labelled cards (indices) at least half of which shows whose centre lies within
    ``NEAR_SHARE`` card widths of ``centre``: those a card seen there may be."""
    return [index for index, (label, place) in enumerate(zip(labels, places))
            if label["visible_share"] >= OPTIONAL_SHARE and place.near(centre)]


def lies_apart(centre, places: list[LabelPlace]) -> bool:
    """Whether a seen card centred here lies near no labelled card, not even one mostly covered."""
    return not any(place.near(centre) for place in places)


def outcome(label: dict, names: list) -> str:
    """"right", "wrong", "unknown" or "optional" (a partly covered card left unread or read
    right) for a labelled card and what the reading names there (``names_by_label``)."""
    named = [name for name in names if name is not None]
    misread = any(name != label["card"] for name in named)
    if label["visible_share"] >= REQUIRED_SHARE:
        return "wrong" if misread else "right" if named else "unknown"
    return "wrong" if misread else "optional"


def score_frame(reading, labels: list[dict]) -> Score:
    """Scores one frame's reading (see ``names_by_label`` for which seen card belongs to
    which labelled one)."""
    places = label_places(labels)
    named_for, false_readings, empty_outlines = names_by_label(reading, labels, places)
    score = Score(frames=1, false_readings=false_readings, empty_outlines=empty_outlines,
                  named=named_confidences(reading, labels, places))
    for index, label in enumerate(labels):
        result = outcome(label, named_for.get(index, []))
        score.required += label["visible_share"] >= REQUIRED_SHARE
        score.right += result == "right"
        score.wrong += result == "wrong"
        score.unknown += result == "unknown"
    score.wrong += score.false_readings
    score.frames_right = int(score.right == score.required and score.wrong == 0)
    return score


def read_scene(image_path: Path, labels: dict, reader) -> Score:
    """One rendered scene read afresh, scored, and timed."""
    frame = cv2.imread(str(image_path), cv2.IMREAD_COLOR)
    reader.reset()
    start = time.perf_counter()
    reading = reader.read(frame)
    elapsed = (time.perf_counter() - start) * 1000
    score = score_frame(reading, labels["cards"])
    score.ms.append(elapsed)
    return score


def read_scenes(scenes, reader_for) -> tuple[Score, dict[str, Score]]:
    total, by_style = Score(), {}
    for image_path, labels in scenes:
        score = read_scene(image_path, labels, reader_for(labels["style"]))
        total.add(score)
        by_style.setdefault(labels["style"], Score()).add(score)
    return total, by_style


def peak_memory_mb(scenes, profile_dir: Path | None, mode: str = "detect") -> float:
    """Peak resident memory of a fresh process that loads the reader and reads the frames.

    Measured as the process's own high-water mark (``VmHWM``): ``ru_maxrss`` would carry
    over the benchmark's own size, which a child started by fork has until it execs."""
    paths = [str(p) for p, _ in scenes[:200]]
    code = ("import sys, cv2; from companion.bench.vision import READERS; "
            "from companion.vision.profile import Profile; "
            "reader = READERS[sys.argv[2]](Profile.load(sys.argv[1]) if sys.argv[1] != '-' else None)\n"
            "for p in sys.argv[3:]: reader.read(cv2.imread(p))\n"
            "status = open('/proc/self/status').read()\n"
            "print(int(status.split('VmHWM:')[1].split()[0]) / 1024)")
    out = subprocess.run([sys.executable, "-c", code, str(profile_dir) if profile_dir else "-", mode, *paths],
                         capture_output=True, text=True, check=True)
    return float(out.stdout.strip().splitlines()[-1])


def run_vision_benchmark(n_scenes: int = 2000, seed: int = 2026, cache: Path = Path(".cache/vision-bench"),
                         tesseract_cards: int = 500, pin: bool = True, mode: str = "detect",
                         held_out_designs: int = 0, per_design: int = 20) -> dict:
    """``mode``: how the reader finds the cards (``READERS``); ``held_out_designs``: that
    many held-out deck designs read after the four styles (``bench/designs.py``)."""
    one_core(pin)
    scenes = rendered_scenes(n_scenes, seed, cache)
    finder = {"detect": "the card detector", "search": "the edge and numeral search",
              "no-markers": "the card detector, the markers ignored"}[mode]
    print(f"elfer bench vision: {len(scenes)} scenes of 1280x720 (seed {seed}), every style, surface, light "
          f"and camera angle; {core_said(pin)}; cards found by {finder}")
    results: dict = {}
    default = default_profile()
    reader = READERS[mode](default)
    total, by_style = read_scenes(scenes, lambda style: reader)
    print("with the shipped profile (made for the reference style):")
    for style, score in sorted(by_style.items()):
        print("  " + score.line(style))
    print("  " + total.line("all styles"))
    results["default"] = total

    retaken: dict[str, list[str]] = {}
    profiles = calibrated_profiles(sorted(by_style), seed=7, folder=cache / CALIBRATION_CACHE, retaken=retaken)
    for style, cards in sorted(retaken.items()):
        pictures = "picture" if len(cards) == 1 else "pictures"
        print(f"calibrating {style}: {len(cards)} {pictures} retaken ({', '.join(cards)}: no card found, blurred, "
              f"washed out or poorly outlined, or misread by the profile), as a family would when elfer calibrate "
              f"names them")
    readers = {style: READERS[mode](profile) for style, profile in profiles.items()}
    total, by_style = read_scenes(scenes, lambda style: readers[style])
    print("after calibrating each style from its 23 pictures (R1–R20, Y11, G11, B11):")
    for style, score in sorted(by_style.items()):
        print("  " + score.line(style))
    print("  " + total.line("all styles"))
    results["calibrated"] = total
    ms = statistics.median(total.ms)
    memory = peak_memory_mb(scenes, None, mode)
    print(f"speed: {ms:.1f} ms per frame (median, {core_said(pin)}); peak memory of a reading process: {memory:.0f} MB")
    results["ms_per_frame"], results["peak_mb"] = ms, memory
    if tesseract_cards:
        from .tesseract import compare_with_tesseract

        results["tesseract"] = compare_with_tesseract(scenes, lambda style: readers[style].reader, tesseract_cards,
                                                      seed)
    if held_out_designs:
        from .designs import run_designs_benchmark

        print("decks it was never tuned on:")
        results["held_out"] = run_designs_benchmark("held-out", held_out_designs, per_design, cache, pin, mode)
    return results
