"""How often calibration from the set laid out in one picture works
(``python -m companion.bench.laid_out [TABLES]``). Not a test.

For each surface and deck, ``TABLES`` rendered tables (camera, light and the cards'
turns drawn from the table's seed) show the 23 cards of the calibration set laid out in
rows in the middle of the play area. A table counts as calibrated when the profile is
made and reads all 23 of its pictures as the cards laid there. The decks are the four
styles and four training designs: held-out designs are for ``elfer bench designs`` only.
"""

from __future__ import annotations

import sys
from collections import Counter

from ..sim.datasets import laid_out_picture
from ..sim.surface import SURFACES
from ..vision.calibration import CalibrationError, calibrate, calibration_set
from ..vision.laid_out import laid_out_pictures

DECKS = ("reference", "cream", "condensed", "inverse", "junior:0", "vintage:0", "banded:0", "disc:0")
FIRST_SEED = 5000  # tables of this benchmark: far from the tests' (10 to 12)


def run(tables: int = 3) -> Counter:
    cards = calibration_set()
    outcomes: Counter = Counter()
    for surface in SURFACES:
        for deck in DECKS:
            for seed in range(FIRST_SEED, FIRST_SEED + tables):
                picture = laid_out_picture(deck, cards, seed=seed, surface=surface)
                try:
                    _, report = calibrate(laid_out_pictures([("laid-out", picture)], cards), deck_name=deck)
                    outcome = "calibrated" if report.self_test == (23, 23) else "misread"
                except CalibrationError as error:
                    outcome = "not found" if error.note.kind == "laid_out_count" else "failed"
                outcomes[surface, outcome] += 1
                outcomes["all", outcome] += 1
        print(f"  {surface:8s} " + "  ".join(f"{kind} {outcomes[surface, kind]}" for kind in
                                            ("calibrated", "misread", "not found", "failed")), flush=True)
    total = sum(v for (where, _), v in outcomes.items() if where == "all")
    print(f"  all      {outcomes['all', 'calibrated']} of {total} tables calibrated, every card read as laid; "
          f"{outcomes['all', 'not found']} with cards not all found, {outcomes['all', 'misread']} misread, "
          f"{outcomes['all', 'failed']} failed otherwise")
    return outcomes


if __name__ == "__main__":
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    print(f"laid-out calibration: {len(DECKS)} decks x {len(SURFACES)} surfaces x {count} tables, one picture each")
    run(count)
