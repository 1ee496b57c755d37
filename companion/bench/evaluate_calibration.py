"""Whether the calibration learns every deck from 23 pictures (not a test; a measurement).

For each deck style of the synthetic table and each seed, the 23 calibration pictures
(one colour's 20 cards and the other colours' 11s) are rendered as ``elfer synth
cards`` renders them, each on its own random table, light and camera; a picture the
calibration names (no card found in it, or blurred or washed out where it is the only
picture of its number) is retaken, as a family would, as the bench does
(:func:`~companion.bench.evaluate_read.calibrated_profiles`). Then all 80 cards of the
deck, 16 a picture on a table under neutral light, are read by their true outlines::

    python -m companion.bench.evaluate_calibration --seeds 0 1 2 3

One line per picture set (style, seed): cards right, wrong and unknown of 80, the
pictures retaken (and how often); last, how many sets read all 80 right.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

from ..cards import DECK
from ..vision.card_reader import CardReader
from .evaluate_read import GRID_SURFACES, NEUTRAL_LIGHT, calibrated_profiles, table


def read_all_cards(reader: CardReader, style: str, seed: int) -> tuple[int, int, list[str]]:
    """(right, wrong, codes of the cards misread or unknown) for all 80 cards of a style,
    each read by its true outline."""
    right, wrong, missed = 0, 0, []
    for picture in table(style, seed, GRID_SURFACES[style]).pictures(DECK, NEUTRAL_LIGHT):
        for card, polygon in zip(picture.cards, picture.polygons):
            reading = reader.read_card(picture.image, np.asarray(polygon, float))
            if reading.card is card:
                right += 1
                continue
            wrong += reading.card is not None
            missed.append(card.code if reading.card is None else f"{card.code} as {reading.card.code}")
    return right, wrong, missed


def evaluate_calibration(seeds, styles=tuple(GRID_SURFACES), out=sys.stdout) -> int:
    """Prints a line per picture set; returns how many sets read all 80 cards right."""
    cv2.setNumThreads(1)
    whole = 0
    with tempfile.TemporaryDirectory() as tmp:
        for seed in seeds:
            for style in styles:
                retaken: dict[str, list[str]] = {}
                profile = calibrated_profiles([style], seed=seed, folder=Path(tmp) / f"seed-{seed}",
                                              retaken=retaken)[style]
                right, wrong, missed = read_all_cards(CardReader(profile), style, seed)
                whole += right == len(DECK)
                again = ", ".join(f"{code} ×{n}" if n > 1 else code
                                  for code, n in Counter(retaken.get(style, [])).items()) or "none"
                print(f"{style:9} seed {seed}: {right}/80 right, {wrong} wrong, {len(DECK) - right - wrong} unknown"
                      f"{' (' + ', '.join(missed) + ')' if missed else ''}; retaken: {again}", file=out)
    print(f"{whole} of {len(seeds) * len(styles)} picture sets read all 80 cards right", file=out)
    return whole


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2, 3])
    args = parser.parse_args(argv)
    evaluate_calibration(args.seeds)
    return 0


if __name__ == "__main__":
    sys.exit(main())
