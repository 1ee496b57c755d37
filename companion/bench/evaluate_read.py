"""How well the card reader reads, on the synthetic table (not a test; tests use its helpers).

:func:`evaluate_reader` renders whole-table scenes (every deck style, surface, light and
camera angle of the synthetic table), crops every card of which at least 98 % shows by
its *true* outline (the finder is evaluated on its own), reads it and prints, per deck
style, the share read right, misread and left unknown, with the shipped profile and
with a profile calibrated for each style from its 23 calibration pictures, and the
median time per card on one core::

    python -m companion.bench.evaluate_read --scenes 200 --seed 5000

:func:`grid_picture` lays many cards on one table under a chosen light: a quick way to
read every card of a deck (the tests use it), or to make calibration pictures.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from ..cards import DECK, Card, Colour
from ..vision.calibration import calibration_set
from ..vision.card_reader import CardReader
from ..vision.profile import Profile, default_profile

FULL_SHARE = 0.98  # a card counts as fully visible from this share on
# the table each style's grid pictures are laid on (the reader's tests, the calibration's measurement)
GRID_SURFACES = {"reference": "wood", "inverse": "cloth", "cream": "mat", "condensed": "wood"}


# --- synthetic pictures ---------------------------------------------------------------------


@dataclass
class GridPicture:
    """A rendered picture of cards laid in a grid, and each card's true outline."""

    image: np.ndarray  # BGR, after a JPEG round trip
    cards: list[Card]
    polygons: list[np.ndarray]  # 4 × 2 frame pixels from the face's top-left, clockwise on the face
    upside_down: list[bool]
    style: str = ""
    lighting: dict = field(default_factory=dict)


NEUTRAL_LIGHT = dict(exposure=0.9, colour_temperature_k=5000.0, white_balance=0.7, vignette=0.1, noise_sigma=2.0,
                     jpeg_quality=85)
WARM_LIGHT = dict(exposure=0.9, colour_temperature_k=2700.0, white_balance=0.4, vignette=0.1, noise_sigma=2.0,
                  jpeg_quality=85)


class Table:
    """One synthetic table (deck style, surface, camera) on which cards are laid out in a
    grid and photographed: 16 cards a picture on a 5 × 4 grid (the corners are left to
    the markers), turned up to ``max_angle``°, some upside down. Needs the simulator."""

    def __init__(self, style: str, seed: int = 0, surface: str | None = None,
                 resolution: tuple[int, int] = (1280, 720)):
        from ..sim.episode import random_scenery
        from ..sim.render import SceneCamera

        self.rng = np.random.default_rng([seed, 0x6D1D])
        self.scenery = random_scenery(int(self.rng.integers(2**31)), style=style, surface=surface,
                                      resolution=resolution)
        self.camera = SceneCamera(self.scenery)
        self._lighting = self.scenery.lighting

    def _use(self, lighting) -> None:
        """Light the next picture so (each picture draws fresh sensor noise all the same)."""
        from ..sim.lighting import LightingRenderer

        if lighting != self._lighting:
            self.camera.light = LightingRenderer(lighting, self.scenery.camera.resolution, self.scenery.seed)
            self._lighting = lighting

    def pictures(self, cards, lighting=None, upside_down=None, max_angle: float = 20.0) -> list[GridPicture]:
        """Pictures of ``cards`` (16 a picture). ``lighting``: a Lighting, a dict of its
        fields, or None for the table's random light. ``upside_down``: None (30 % at
        random), a bool for all, or one bool per card."""
        from ..sim.layout import CardPose
        from ..sim.lighting import Lighting, jpeg_roundtrip

        if isinstance(lighting, dict):
            lighting = Lighting(**lighting)
        lighting = lighting or self.scenery.lighting
        w, h = self.scenery.area_mm
        columns, rows = 5, 4
        cells = [(c, r) for r in range(rows) for c in range(columns) if c % (columns - 1) or r % (rows - 1)]
        cards = list(cards)
        flips = ([bool(self.rng.random() < 0.3) for _ in cards] if upside_down is None
                 else [bool(upside_down)] * len(cards) if isinstance(upside_down, bool) else list(upside_down))
        pictures = []
        for start in range(0, len(cards), len(cells)):
            poses = []
            for (column, row), card, flip in zip(cells, cards[start:start + len(cells)], flips[start:]):
                centre = ((column + 0.5) * w / columns + float(self.rng.uniform(-4, 4)),
                          (row + 0.5) * h / rows + float(self.rng.uniform(-3, 3)))
                poses.append(CardPose(card, centre, float(self.rng.uniform(-max_angle, max_angle)), flip))
            poses = tuple(poses)
            self._use(lighting)
            picture, _ = self.camera.picture(poses)
            image = jpeg_roundtrip(picture, lighting.jpeg_quality)
            labels = self.camera.labels(poses)
            pictures.append(GridPicture(image, [p.card for p in poses],
                                        [np.array(label["polygon"], np.float64) for label in labels],
                                        [p.upside_down for p in poses], self.scenery.style, lighting.describe()))
        return pictures


    def single(self, cards, lighting=None) -> list[GridPicture]:
        """One picture per card, as a family photographs cards for calibration: the card
        near the middle of the play area, turned up to 25°, some upside down."""
        from ..sim.layout import CardPose
        from ..sim.lighting import Lighting, jpeg_roundtrip

        if isinstance(lighting, dict):
            lighting = Lighting(**lighting)
        lighting = lighting or self.scenery.lighting
        w, h = self.scenery.area_mm
        pictures = []
        for card in cards:
            pose = CardPose(card, (w / 2 + float(self.rng.normal(0, w / 10)), h / 2 + float(self.rng.normal(0, h / 10))),
                            float(self.rng.uniform(-25, 25)), bool(self.rng.random() < 0.3))
            self._use(lighting)
            picture, _ = self.camera.picture((pose,))
            label = self.camera.labels((pose,))[0]
            pictures.append(GridPicture(jpeg_roundtrip(picture, lighting.jpeg_quality), [card],
                                        [np.array(label["polygon"], np.float64)], [pose.upside_down],
                                        self.scenery.style, lighting.describe()))
        return pictures


def table(style: str, seed: int = 0, surface: str | None = None) -> Table:
    """A fresh :class:`Table` (a quarter of a second): one shared between callers would
    draw each one's layout and noise from where the last left its random numbers, so a
    test's pictures would depend on which tests ran before it."""
    return Table(style, seed, surface)


def calibration_crops(pictures: list[GridPicture], margin_px: int = 30) -> dict[Card, list[np.ndarray]]:
    """One picture per card: each card cut out of the grid pictures with some table around it."""
    crops: dict[Card, list[np.ndarray]] = {}
    for picture in pictures:
        for card, polygon in zip(picture.cards, picture.polygons):
            crops.setdefault(card, []).append(crop_around(picture.image, polygon, margin_px)[0])
    return crops


def crop_around(image: np.ndarray, polygon: np.ndarray, margin_px: int = 40) -> tuple[np.ndarray, np.ndarray]:
    """A picture of one card: the image cut ``margin_px`` around its outline, and the outline in the cut."""
    x0, y0 = np.floor(polygon.min(axis=0)).astype(int) - margin_px
    x1, y1 = np.ceil(polygon.max(axis=0)).astype(int) + margin_px
    x0, y0 = max(x0, 0), max(y0, 0)
    x1, y1 = min(x1, image.shape[1]), min(y1, image.shape[0])
    return image[y0:y1, x0:x1].copy(), polygon - [x0, y0]


# --- evaluation -------------------------------------------------------------------------------


@dataclass
class Tally:
    right: int = 0
    wrong: int = 0
    unknown: int = 0
    flipped: int = 0  # right card, wrong way up
    ms: list[float] = field(default_factory=list)
    failures: list[tuple] = field(default_factory=list)
    confidences: list[tuple[float, bool]] = field(default_factory=list)  # (confidence, best guess right)

    @property
    def total(self) -> int:
        return self.right + self.wrong + self.unknown

    def line(self, name: str) -> str:
        n = max(self.total, 1)
        return (f"{name:<12} {self.total:6d} cards  right {100 * self.right / n:7.2f} %  wrong {100 * self.wrong / n:6.2f} %"
                f"  unknown {100 * self.unknown / n:6.2f} %  upside-down wrong {self.flipped}")


def scene_cards(n_scenes: int, seed: int, styles=None):
    """(style, surface, lighting, frame, label) of every fully visible card of ``n_scenes`` scenes."""
    from ..sim.datasets import render_scene

    for index in range(n_scenes):
        style = styles[index % len(styles)] if styles else None
        _, entry = render_scene(seed + index, style=style)
        frame = cv2.imdecode(np.frombuffer(entry["jpeg"], np.uint8), cv2.IMREAD_COLOR)
        for label in entry["cards"]:
            if label["visible_share"] >= FULL_SHARE:
                yield entry["style"], entry["surface"], entry["lighting"], frame, label


def read_labelled(reader: CardReader, frame: np.ndarray, label: dict, tally: Tally, rng: np.random.Generator,
                  context=None) -> None:
    polygon = np.array(label["polygon"], np.float64)
    corners = np.roll(polygon, int(rng.integers(4)), axis=0)  # the finder starts at any corner
    start = time.perf_counter()
    reading = reader.read_card(frame, corners)
    tally.ms.append((time.perf_counter() - start) * 1000)
    truth = Card.parse(label["card"])
    tally.confidences.append((reading.confidence, reading.colour is truth.colour and reading.number == truth.number))
    if reading.card is None:
        tally.unknown += 1
        tally.failures.append(("unknown", truth, reading, frame, polygon, context))
    elif reading.card is truth:
        tally.right += 1
        if reading.upside_down != label["upside_down"]:
            tally.flipped += 1
    else:
        tally.wrong += 1
        tally.failures.append(("wrong", truth, reading, frame, polygon, context))


# where a benchmark cache keeps the calibration pictures as first taken (before 34th-session
# caches also held the retakes of whichever reader made them, in "calibration")
CALIBRATION_CACHE = "calibration-first-takes"


def calibrated_profiles(styles, seed: int = 0, folder: Path | None = None,
                        retaken: dict[str, list[str]] | None = None) -> dict[str, Profile]:
    """A profile per style, calibrated from its 23 calibration pictures (R1–R20, Y11, G11,
    B11) as ``elfer synth cards`` renders them (written to ``folder``/style once and kept
    there, or to a temporary folder). A picture the calibration names, because the card
    is not found in it, it is blurred or washed out and the only picture of its number,
    or the profile misreads it, is retaken, as a family would: the next variant of that
    card replaces it (``retaken``, when given, collects the cards per style). Retakes go
    to a working copy, never into ``folder``: a cache holding the retakes of one version
    of the reader would spare the next version the retakes it needs, so every run
    calibrates as a fresh checkout does."""
    import shutil
    import tempfile

    from ..sim.datasets import write_cards
    from ..vision.calibration import CalibrationError, calibrate, card_of_filename

    profiles = {}
    with tempfile.TemporaryDirectory() as tmp:
        for style in styles:
            kept = Path(folder) / style if folder is not None else Path(tmp) / "first-takes" / style
            if not any(kept.glob("*.png")):
                write_cards(kept, style, variants=1, seed=seed, cards=calibration_set())
            out = Path(tmp) / "retakes" / style
            shutil.copytree(kept, out)
            for retake in range(2, 7):
                try:
                    profiles[style], report = calibrate(out, deck_name=style)
                    lost = report.left_out + report.retake + report.misread
                except CalibrationError as error:  # a picture the profile needs was left out
                    if not error.left_out or retake == 6:
                        raise
                    lost = error.left_out
                if not lost or retake == 6:
                    break
                for name in lost:
                    card = card_of_filename(name)
                    if retaken is not None:
                        retaken.setdefault(style, []).append(card.code)
                    with tempfile.TemporaryDirectory() as again:
                        write_cards(Path(again), style, variants=retake, seed=seed, cards=[card])
                        (Path(again) / f"{card.code}_{retake}.png").replace(out / name)
    return profiles


def evaluate_reader(n_scenes: int = 200, seed: int = 5000, profile_per_style: dict[str, Profile] | None = None,
                    failures_to: Path | None = None, out=sys.stdout) -> dict[str, dict[str, Tally]]:
    """Read every fully visible card of ``n_scenes`` rendered scenes by its true outline.

    Prints and returns tallies per style: with the shipped (reference) profile, and with
    ``profile_per_style`` (default: each style calibrated from its 23 pictures).
    """
    from ..sim.deck import STYLES

    cv2.setNumThreads(1)
    styles = sorted(STYLES)
    if profile_per_style is None:
        profile_per_style = calibrated_profiles(styles)
    default_reader = CardReader(default_profile())
    readers = {style: CardReader(p) for style, p in profile_per_style.items()}
    results: dict[str, dict[str, Tally]] = {"default": {}, "calibrated": {}}
    rng = np.random.default_rng(seed)
    for style, surface, lighting, frame, label in scene_cards(n_scenes, seed, styles):
        context = (style, surface, round(lighting["colour_temperature_k"]))
        read_labelled(default_reader, frame, label, results["default"].setdefault(style, Tally()), rng, context)
        if style in readers:
            read_labelled(readers[style], frame, label, results["calibrated"].setdefault(style, Tally()), rng, context)
    for name, title in (("default", "shipped profile (reference deck)"), ("calibrated", "profile calibrated per style")):
        print(f"{title}:", file=out)
        total = Tally()
        for style, tally in sorted(results[name].items()):
            print("  " + tally.line(style), file=out)
            for key in ("right", "wrong", "unknown", "flipped"):
                setattr(total, key, getattr(total, key) + getattr(tally, key))
            total.ms += tally.ms
            total.failures += tally.failures
            total.confidences += tally.confidences
        print("  " + total.line("all styles"), file=out)
        if total.ms:
            print(f"  median {statistics.median(total.ms):.3f} ms per card (one thread)", file=out)
            print("  " + reliability(total.confidences), file=out)
        results[name]["all"] = total
    if failures_to is not None:
        save_failures(results["calibrated"]["all"].failures, Path(failures_to), out)
    return results


def reliability(confidences, edges=(0.0, 0.25, 0.5, 0.75, 0.9, 0.99, 1.01)) -> str:
    """How often the reader's best guess is right, per band of its confidence."""
    parts = []
    for low, high in zip(edges, edges[1:]):
        band = [right for confidence, right in confidences if low <= confidence < high]
        if band:
            parts.append(f"[{low:.2f}, {min(high, 1.0):.2f}): {len(band)} cards, {100 * sum(band) / len(band):.1f} % right")
    return "confidence vs best guess right: " + "; ".join(parts)


def save_failures(failures, folder: Path, out=sys.stdout, limit: int = 40) -> None:
    from ..vision.card_reader import rectify

    folder.mkdir(parents=True, exist_ok=True)
    for i, (kind, truth, reading, frame, polygon, context) in enumerate(failures[:limit]):
        face = rectify(frame, polygon, 3.0)
        name = f"{i:03d}_{kind}_{truth.code}_as_{reading.colour.letter if reading.colour else '-'}{reading.number}.png"
        cv2.imwrite(str(folder / name), face)
        print(f"  {kind}: {truth.code} read {reading.colour and reading.colour.letter}{reading.number} "
              f"conf {reading.confidence:.3f} (colour {reading.colour_confidence:.3f}, number "
              f"{reading.number_confidence:.3f}) {context} -> {folder / name}", file=out)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scenes", type=int, default=200)
    parser.add_argument("--seed", type=int, default=5000)
    parser.add_argument("--failures", type=Path, default=None, help="folder for crops of misread and unknown cards")
    args = parser.parse_args(argv)
    evaluate_reader(args.scenes, args.seed, failures_to=args.failures)
    return 0


if __name__ == "__main__":
    sys.exit(main())
