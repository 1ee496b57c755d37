"""The card reader's thresholds, in one place.

Each value trades cards read right against cards read wrong, left unknown, or time. The
measurements behind them, and the command that measures each, are in ``docs/reader.md``.
A deck's own limits (how sure a reading must be, how much stray ink a face may show) are
not here: they belong to its calibration profile (``profile.DEFAULT_THRESHOLDS``).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ReaderThresholds:
    # --- which outline stands for a card (table_reader.TableReader) ---
    # a numeral found this far (frame px) off its place means the outline is off: it is moved onto the numeral
    off_place_px: float = 2.0
    # outlines overlapping by more than this share of a card are one card …
    overlap: float = 0.1
    # … unless both are read whole as different cards: piles in a row overlap a little
    neighbour_overlap: float = 0.25
    # a numeral matched below this is not trusted: an outline across two cards pieces a numeral together
    trusted_match: float = 0.81
    # on an inverse card with this share of its face hidden by glare, a numeral matched on what shows …
    hidden_trusted_share: float = 0.3
    # … is trusted from this match: the more is hidden, the less the whole numeral can match
    hidden_trusted_match: float = 0.75
    # an 11 may show only this share of the profile's stray-ink limit: two strips of a row piece one together
    eleven_stray_share: float = 0.7
    # another card's edge down the face stronger than this: the outline spans two cards of a fanned row …
    max_seam: float = 0.2
    # … stricter for a 1 or an 11, which one or two strips of a row show most easily
    ones_max_seam: float = 0.14
    # a pair of corner indices in the face's middle stronger than this: a strip of a fanned row …
    max_index_ink: float = 0.12
    # … stricter for a 1 or an 11, as for seams
    ones_max_index_ink: float = 0.05
    # an outline moved, turned or reshaped away from the proposal counts only from this match
    far_turn_trusted_match: float = 0.85
    # a proposal not read whole but this sure of a deck's ink …
    around_min_colour: float = 0.99
    # … and showing this much of a numeral is worth other outlines around it
    around_min_match: float = 0.2
    # a card read whole but matched below this is read on the edges' outline too; the better match stands
    refine_recheck_match: float = 0.9
    # turns (deg) tried in place for a card matched too poorly to trust: the top card of a pile lies turned
    in_place_turns_deg: tuple[float, ...] = (-16.0, -12.0, -8.0, -4.0, 4.0, 8.0, 12.0, 16.0)
    # turns (deg) of the proposal from which the edges are followed again: a card turned against its row
    edge_start_turns_deg: tuple[float, ...] = (-20.0, 20.0)
    # the paper's level in this light is told by at most this many cards read whole …
    paper_cards: int = 8
    # … and by at least this many for each channel; fewer tell nothing
    min_paper_cards: int = 2
    # a card on saturated paper whose colour is less sure than this is read again with the frame's paper level
    paper_recheck: float = 0.99
    # a card whose outline other cards cross, or one the detector doubts, counts only from this match …
    covered_trusted_match: float = 0.88
    # … and "cards read already cover it" means they cover at least this share of it
    covered_min_share: float = 0.03
    # on an inverse deck the edges may give the colour fill's edge, this far (mm) inside the paper rim
    inverse_rim_mm: float = 2.0
    # a proposal scored below this is more often a card partly covered than a whole one
    unsure_score: float = 0.5
    # such a proposal matching no numeral better than this, and showing no glare, is bare table: not reported
    no_card_match: float = 0.35

    # --- without markers (table_reader, frame_scale) ---
    # a proposal not read whole is read grown and shrunk by these too: a tilted camera shows far cards smaller
    resizes: tuple[float, ...] = (0.94, 1.06, 0.89, 1.12)
    # … and so is one read whole but matched below this
    resize_recheck_match: float = 0.9
    # narrowed along either side by these (width, height) factors: a tilted camera foreshortens cards …
    stretches: tuple[tuple[float, float], ...] = ((0.88, 1.0), (0.94, 1.0), (1.0, 0.88), (1.0, 0.94))
    # … also for a card read whole but matched below this
    stretch_recheck_match: float = 0.95
    # without markers a card counts only from this match: no one size fits every card of a tilted frame
    guessed_trusted_match: float = 0.85
    # guesses of the share of the frame's height the play area's height fills (0.45 … 1.28), a tenth apart
    area_shares: tuple[float, ...] = tuple(0.45 * 1.1 ** k for k in range(12))
    # the detector's proposals that count towards a scale: the sure ones
    scale_sure_score: float = 0.5
    # sizes the surest cards are read at to fix the scale: the detector's guess leans low, so one step down, six up
    scale_sizes: tuple[float, ...] = tuple(1.05 ** k for k in range(-1, 7))
    # how many of the surest cards fix the scale
    scale_cards_measured: int = 3

    # --- one card (card_reader.CardReader) ---
    # how far (mm) the second look for a numeral reaches, where the outline seems off
    wide_search_mm: float = 4.0
    # a card matched below this gets the second looks (evened strokes, room, wider search)
    recheck_match: float = 0.9
    # an inverse card's strokes are scaled by their room at most 1 / this: with less, the numeral is noise
    room_floor: float = 0.2
    # a card below a pile peeks out this far (mm) under an outline a little off: no stray ink there
    stray_margin_mm: float = 3.0
    # a numeral matched this well lies on its strokes: its ink is what they take from the paper around them
    ink_taken_min_match: float = 0.8

    # --- the glyph map (glyphs) ---
    # a glyph-map value this far above the paper's own counts as ink where the deck prints nothing
    stray_ink: float = 0.3
    # the paper's own glyph-map level: the value this share of the blank face lies below
    stray_paper_share: float = 0.25
    # the share of the face's width where no deck prints a corner index
    index_band_middle: tuple[float, float] = (0.3, 0.7)
    # two indices may lie this far apart (px at matching scale) and still be a pair: a strip turned a little
    index_pair_px: int = 2
    # the glyph map is smoothed this much (px, sigma) before indices are looked for: grain is no index
    index_smooth_px: float = 1.5
    # a card with this share of its face saturated in every channel shows glare: its strokes are evened
    glare_share: float = 0.05
    # strokes are evened by the strongest ink within this window (mm) …
    glare_window_mm: float = 9.0
    # … but at least this level, so the paper's grain stays small
    glare_floor: float = 0.3
    # the share of the face's width searched for a seam: a deck's printed frame lies outside it
    seam_middle: tuple[float, float] = (0.25, 0.75)
    # the face's height is cut into this many blocks, and a seam must show in every one
    seam_blocks: int = 6

    # --- paper and ink (ink) ---
    # a paper channel this bright (of 255) is taken as saturated: the ink's ratio there is off
    clipped_level: float = 250.0
    # a numeral's ink this bright on saturated paper may be saturated too: JPEG halves a thin stroke's colour
    ink_may_clip: float = 236.0
    # blur and the JPEG's halved colour resolution spread a stroke's colour this far (mm) …
    stroke_reach_mm: float = 2.0
    # … and the paper's own level is read on a ring this wide (mm) around that
    paper_ring_mm: float = 4.0
    # a card's ink is its colour furthest from the paper at this quantile of its pixels
    ink_quantile: float = 0.985
    # where a numeral could show less than this share of its contrast (an inverse fill in glare) it is hidden
    hidden_share: float = 0.5

    # --- the detector (detect) ---
    # a centre score above this is a proposal: a low bar costs a read and finds the cards the network doubts
    proposal_min_score: float = 0.1
    # the view the network sees reaches this far (mm) around the places a caller looks at
    detector_context_mm: float = 80.0

    # --- the play area (area) ---
    # markers needed to map the play area at all …
    min_markers: int = 2
    # … and for a mapping that is not provisional: two leave the far side to their own perspective
    sure_markers: int = 3
    # window (px) a half-size frame is evened over when markers are still missing: a glare streak hides one
    marker_even_px: int = 11
    # a marker matching its reference picture this well (normalised cross-correlation) is seen
    marker_match_score: float = 0.75
    # how far (frame px) the per-frame check looks for a marker around its place
    marker_search_px: int = 12

    # --- streams (stream.StreamReader) ---
    # the scale (px/mm) of the picture in which changes are looked for (a card is 30 × 46 px)
    change_px_per_mm: float = 0.5
    # a pixel differing by more than this in a channel has changed: noise and JPEG stay well below
    change_level: int = 24
    # a change smaller than this (pixels of the picture, 2 mm each) is noise
    change_min_px: int = 2
    # a change this near (mm) a card's centre may change its outline: half a card's diagonal
    change_reach_mm: float = 55.0
    # a card this near (mm) a change is read again
    change_touch_mm: float = 3.0
    # the mapping moved a view corner less than this (frame px): the same view
    same_mapping_px: float = 0.05
    # still frames after which what is not read whole is looked at again: the hands have gone …
    second_look_after: int = 3
    # … and every this many still frames after that: a second look costs about a whole read
    second_look_every: int = 20
    # without markers or a scale, changes are looked for in the frame shrunk by this
    frame_divisor: int = 8


THRESHOLDS = ReaderThresholds()

__all__ = ["THRESHOLDS", "ReaderThresholds"]
