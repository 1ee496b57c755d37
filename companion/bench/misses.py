"""Which cards the reader misses on the benchmark's scenes, and what it saw there
(``elfer bench misses``). Not a test: a developer's list to look at.

Reads the vision benchmark's scenes as ``elfer bench vision`` does (each deck
calibrated from its 23 pictures) and prints one JSON line per card that must be read
(at least 98 % of it showing) but was not read right, a partly covered card that was
misread, a card named where no card lies (the benchmark counts it wrong) and an outline
reported as a card that cannot be read there: the scene, the card, what the reading
names there, and every outline the reader read around it with its own figures (the
number and colour it took, their confidences, the numeral's match, stray ink, seam,
index ink), which say why it was not trusted. Look at a scene with ``elfer read IMAGE
--show seen.png``.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from unittest import mock

import cv2
import numpy as np

from ..vision.card_reader import CardReading
from ..vision.table_reader import TableReader
from .vision import (LabelPlace, calibrated_readers, label_places, labels_near, lies_apart, names_by_label, one_core,
                     outcome, rendered_scenes)


@contextmanager
def recorded_readings():
    """While inside, every outline the table readers read on a numeral is recorded:
    yields the list (reading, corners), which the caller clears between frames."""
    recorded: list[tuple[CardReading, np.ndarray]] = []
    original = TableReader._read_on_numeral

    def recording(self, frame, corners):
        reading, moved = original(self, frame, corners)
        recorded.append((reading, moved))
        return reading, moved

    with mock.patch.object(TableReader, "_read_on_numeral", recording):
        yield recorded


def frame_misses(reading, labels: list[dict], recorded: list[tuple[CardReading, np.ndarray]]) -> list[dict]:
    """The missed cards of one frame's reading, each with the outlines read around it, and
    the cards named or outlines reported as a card that cannot be read where no card lies
    (at least half of one showing; ``card`` None)."""
    places = label_places(labels)
    named_for, _, _ = names_by_label(reading, labels, places)
    misses = []
    for index, (label, place) in enumerate(zip(labels, places)):
        names = named_for.get(index, [])
        result = outcome(label, names)
        if result in ("right", "optional"):
            continue
        misses.append({"card": label["card"], "visible_share": round(float(label["visible_share"]), 3),
                       "outcome": result, "named": names, "read_around": _read_around(place, recorded)})
    for seen in reading.cards:
        centre = np.mean(seen.polygon, axis=0)
        if seen.card is None and lies_apart(centre, places):
            result = "unreadable where no card lies"
        elif seen.card is not None and not labels_near(centre, labels, places):
            result = "named where no card lies"  # the benchmark counts it wrong
        else:
            continue
        outline = LabelPlace(centre, float(np.linalg.norm(seen.polygon[1] - seen.polygon[0])))
        misses.append({"card": None, "outcome": result, "named": [None if seen.card is None else seen.card.code],
                       "centre": [round(float(value), 1) for value in centre],
                       "read_around": _read_around(outline, recorded)})
    return misses


def _read_around(place: LabelPlace, recorded: list[tuple[CardReading, np.ndarray]]) -> list[dict]:
    return [_described(card_reading) for card_reading, corners in recorded if place.near(np.mean(corners, axis=0))]


def _described(reading: CardReading) -> dict:
    colour = None if reading.colour is None else reading.colour.value
    return {"card": None if reading.card is None else reading.card.code,
            "took": f"{colour or '?'}{reading.number}", "colour_confidence": round(reading.colour_confidence, 3),
            "number_confidence": round(reading.number_confidence, 3), "match": round(reading.match, 3),
            "stray_ink": round(reading.stray_ink, 3), "seam": round(reading.seam, 3),
            "index_ink": round(reading.index_ink, 3)}


def scene_misses(scenes, readers: dict) -> Iterator[dict]:
    """One record per missed card of ``scenes`` ((image path, labels) pairs) read by
    ``readers`` (style → ``TableReader``)."""
    with recorded_readings() as recorded:
        for index, (path, labels) in enumerate(scenes):
            reader = readers[labels["style"]]
            reader.reset()
            recorded.clear()
            reading = reader.read(cv2.imread(str(path), cv2.IMREAD_COLOR))
            for miss in frame_misses(reading, labels["cards"], recorded):
                yield {"scene": index, "image": str(path), "style": labels["style"], **miss}


def run_misses(n_scenes: int = 2000, seed: int = 2026, cache: Path = Path(".cache/vision-bench"),
               mode: str = "detect") -> int:
    one_core()
    scenes = rendered_scenes(n_scenes, seed, cache)
    readers = calibrated_readers(scenes, cache, mode)
    count = empty = false = 0
    for miss in scene_misses(scenes, readers):
        print(json.dumps(miss, ensure_ascii=False))
        count += miss["card"] is not None
        empty += miss["outcome"] == "unreadable where no card lies"
        false += miss["outcome"] == "named where no card lies"
    print(f"{count} cards missed in {len(scenes)} scenes (seed {seed}); {false} cards named and {empty} outlines "
          f"reported unreadable where no card lies", file=sys.stderr)
    return count


__all__ = ["frame_misses", "recorded_readings", "run_misses", "scene_misses"]
