"""Remakes the shipped profile (calibration/reference) from the ``reference`` deck rendered
by the synthetic table: ``python -m companion.bench.remake_profile``."""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

from ..sim.datasets import write_cards
from ..vision.calibration import CalibrationError, CalibrationReport, calibrate
from ..vision.profile import Profile, _shipped_profile_dir


def remake_default(out: Path | None = None, variants: int = 2, seed: int = 0) -> tuple[Profile, CalibrationReport]:
    """Remake the shipped profile: all 80 cards of the ``reference`` deck style, ``variants``
    pictures each, rendered by the synthetic table (``elfer synth cards``), calibrated."""
    out = Path(out) if out else _shipped_profile_dir()
    with tempfile.TemporaryDirectory() as tmp:
        write_cards(Path(tmp), "reference", variants=variants, seed=seed)
        profile, report = calibrate(tmp, deck_name="reference")
    profile.learned_from["source"] = (f"elfer synth cards --style reference --variants {variants} --seed {seed} "
                                      f"(companion.sim.datasets.write_cards)")
    profile.save(out)
    return profile, report


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        description="Remake the shipped profile (calibration/reference) from the reference deck rendered by the "
        "synthetic table. To calibrate a deck from its pictures: elfer calibrate --images DIR --out PROFILE.")
    parser.add_argument("--out", type=Path, default=None, help="profile folder to write (default: the shipped one)")
    args = parser.parse_args(argv)
    try:
        _, report = remake_default(args.out)
    except CalibrationError as error:
        print(f"calibration failed: {error}", file=sys.stderr)
        return 2
    print(report.text())
    return 0


if __name__ == "__main__":
    sys.exit(main())
