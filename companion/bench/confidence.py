"""Whether the reader's confidence means what it says: of the cards it names with a
confidence in a band, the share named right (a reliability table), and the expected
calibration error (the shares' distance from the confidence, weighted by how many cards
fall in each band). Printed by ``elfer bench designs``."""

from __future__ import annotations

import numpy as np

# the bands' lower edges: the reader names a card from its min_confidence up
BANDS = (0.0, 0.9, 0.99, 0.999)


def named_confidences(reading, labels: list[dict], places) -> list[tuple[float, bool]]:
    """(confidence, named right) for every card the reading names: right where the
    labelled card it belongs to (as ``names_by_label`` assigns it) is that card; a card
    named where none lies is named wrong."""
    from .vision import label_of

    pairs = []
    for seen in reading.cards:
        if seen.card is not None:
            best = label_of(np.mean(seen.polygon, axis=0), labels, places)
            pairs.append((float(seen.confidence), best is not None and labels[best]["card"] == seen.card.code))
    return pairs


def reliability_lines(pairs: list[tuple[float, bool]]) -> list[str]:
    """The reliability table of the pairs, one line a band, and the expected calibration error."""
    if not pairs:
        return ["  confidence: no card named"]
    confidence = np.array([c for c, _ in pairs])
    right = np.array([r for _, r in pairs], dtype=float)
    lines, error = [], 0.0
    for low, high in zip(BANDS, BANDS[1:] + (1.0 + 1e-9,)):
        inside = (confidence >= low) & (confidence < high)
        count = int(inside.sum())
        if not count:
            continue
        share, mean = float(right[inside].mean()), float(confidence[inside].mean())
        error += count / len(pairs) * abs(share - mean)
        lines.append(f"  confidence {low:.3f}-{min(high, 1.0):.3f}: {count:6d} cards named, {100 * share:7.3f} % right "
                     f"(mean confidence {100 * mean:7.3f} %)")
    lines.append(f"  expected calibration error {100 * error:.3f} % (of {len(pairs)} cards named)")
    return lines


__all__ = ["BANDS", "named_confidences", "reliability_lines"]
