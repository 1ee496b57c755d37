"""Without markers: the scale of the frame, from the cards on it.

The markers tell the reader where the play area lies and how many pixels a millimetre
spans. Without them the frame is read as if the camera looked straight down
(``area.frame_as_view``), and the scale is what the cards show. The card detector sees
cards at one scale (``detect.VIEW_PX_PER_MM``) and tolerates about a sixth either way,
so it is run on the frame at scales a tenth apart and the one where its sure proposals
add up to most wins; its score peaks broadly and a little below the true scale. Then
the numerals of the surest cards decide: their outlines are read grown and shrunk in
steps of 5 %, and the size whose numerals match best on average sets the scale. How
close the guess comes to the markers' scale is measured in ``docs/reader.md``; the
limits named here are fields of :data:`~companion.vision.thresholds.THRESHOLDS`.
"""

from __future__ import annotations

import numpy as np

from .area import frame_as_view
from .detect import CardDetector
from .markers import PLAY_AREA_MM
from .outlines import resized
from .card_reader import CardReader
from .thresholds import THRESHOLDS


def guess_px_per_mm(frame: np.ndarray, detector: CardDetector, reader: CardReader) -> float | None:
    """Frame pixels per table millimetre, as the cards in ``frame`` show it; None where
    the detector is sure of no card at any scale."""
    height = frame.shape[0]
    best_support, best_scale, best_proposals = 0.0, None, []
    for share in THRESHOLDS.area_shares:
        scale = share * height / PLAY_AREA_MM[1]
        proposals = [p for p in detector.detect(frame_as_view(frame, scale)) if p.score >= THRESHOLDS.scale_sure_score]
        support = sum(p.score for p in proposals)
        if support > best_support:
            best_support, best_scale, best_proposals = support, scale, proposals
    if best_scale is None:
        return None
    surest = best_proposals[:THRESHOLDS.scale_cards_measured]
    sizes = THRESHOLDS.scale_sizes
    matches = [np.mean([reader.read_card(frame, resized(p.corners_frame, size)).match for p in surest])
               for size in sizes]
    return best_scale * sizes[int(np.argmax(matches))]


__all__ = ["guess_px_per_mm"]
