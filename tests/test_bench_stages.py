"""``elfer bench stages`` times each stage of the reader (not the benchmark itself):
every stage is counted where it runs, nested stages within their parent, and the
reader is left as it was."""

from __future__ import annotations

import pytest

from companion.vision import card_reader as read
from companion.bench.stages import STAGES, stage_report, timed
from companion.vision.table_reader import TableReader
from companion.vision.card_reader import CardReader
from test_find import _laid_out


def _row(lines: list[str], label: str) -> tuple[float, float]:
    """(ms per frame, calls per frame) of a stage's line."""
    line = next(line for line in lines if line.strip().startswith(label))
    ms, calls = line[40:].split()[:2]
    return float(ms), float(calls)


def test_each_stage_is_timed_where_it_runs_and_nested_ones_within_their_parent():
    frame, labels = _laid_out("reference", "cloth")
    lines = stage_report([(frame, "reference")], {"reference": TableReader()})
    whole_cards = sum(label["visible_share"] >= 0.98 for label in labels)
    reads, read_calls = _row(lines, "cards read")
    assert read_calls >= whole_cards >= 5  # every card on the table is read at least once
    assert _row(lines, "markers found, area mapped")[1] == 1 and _row(lines, "the network")[1] == 1
    parts = ["card warped and measured", "numeral matched", "ink and colour", "another card's edge (seam)",
             "stray and index ink"]
    assert all(_row(lines, part)[0] > 0 for part in parts)
    assert sum(_row(lines, part)[0] for part in parts) <= reads
    assert _row(lines, "the network")[0] <= _row(lines, "cards proposed")[0]


def test_the_reader_is_left_as_it_was_even_when_a_stage_fails():
    before = (CardReader.read_card, read.seam_strength, read.index_ink)
    with pytest.raises(RuntimeError):
        with timed(STAGES) as timings:
            assert CardReader.read_card is not before[0]
            raise RuntimeError("a frame of noise")
    assert (CardReader.read_card, read.seam_strength, read.index_ink) == before
    assert all(timing.calls == 0 for timing in timings.values())
