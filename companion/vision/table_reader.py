"""The card reader as one step: a camera frame in, the cards on the table out.

``TableReader.read(frame)`` maps the play area (``area.py``; without markers the frame
stands for it, at the scale its cards show: ``frame_scale.py``), asks the card detector
(``detect.py``) where cards lie whole, and reads each proposal with the calibration
profile (``card_reader.py``). A card that cannot be read with confidence comes back with
``card`` None: an honest "I can't read this" beats a wrong guess. The thresholds named
here are fields of :data:`~companion.vision.thresholds.THRESHOLDS`.

Each of the detector's proposals, the surest first, is read on its outline moved onto
its numeral (a numeral found a few pixels off its place says where the card lies); then:

- a proposal read as no whole card though it shows a deck's ink is read on the outline
  the edges support around it (``CardFinder.outline_from``: the network's turn leans to
  a pile's edges where the top card lies turned on it), failing that turned in place,
  and failing that on the edges' outline from the proposal turned further; such a
  reading stands where its numeral fits better, or where it names the number the first
  outline found likeliest (``_fits_better``). A proposal read whole but matched below
  ``refine_recheck_match`` is read on the edges' outline as well;
- a proposal the network is unsure of (``unsure_score``) is more often a card partly
  covered than a whole one: read as a card, it counts only where its numeral matches
  very well and no other card's edge crosses its outline; read as none, showing no trace
  of a numeral (``no_card_match``) and no glare, it is an empty stretch of table (a glare
  spot on wood, a checked cloth) and is not reported at all, where a card washed out by
  a glare spot is reported as a card that cannot be read;
- a reading counts as a whole card (``_trusted``) only where its numeral matches at
  least ``trusted_match`` and its face shows no more ink where the deck prints nothing
  than the profile's ``max_stray_ink`` (a hand on the card, an outline spanning two
  cards), no other card's edge down its middle (``glyphs.seam_strength``) and no pair of
  corner indices in its middle (``glyphs.index_ink``); the rest is reported unknown;
- of overlapping outlines the one read best stands (``_one_per_card``);
- a card whose number was read but not its colour (or not beyond doubt) is read again
  with the paper's true level in this light, as the frame's cards read whole tell it:
  under a warm lamp white or cream paper (on an inverse deck, the white numerals)
  saturates the sensor in red and green, and how far decides whether an ink is green or
  yellow (``TableReader._read_again_in_this_light``).

The edge-and-numeral search that found the cards before the detector lives in
``companion.bench.search``, kept for comparison; ``docs/reader.md`` tells its steps.
"""

from __future__ import annotations

import dataclasses
import functools
import logging
from dataclasses import dataclass

import numpy as np

from ..cards import Card
from .area import AreaView, PlayArea, frame_as_view
from .detect import CardDetector
from .find import CardFinder, LookIn
from .frame_scale import guess_px_per_mm
from .glyphs import shows_glare
from .profile import Profile, default_profile
from .card_reader import CardReader, CardReading
from .outlines import inside, overlap, resized, rotated, stretched
from .thresholds import THRESHOLDS

log = logging.getLogger(__package__)


@dataclass(frozen=True)
class SeenCard:
    """One card on the table: what it says (None: unreadable), how sure, and its outline."""

    card: Card | None
    confidence: float
    polygon: np.ndarray  # 4 × 2 frame pixels, clockwise from the printed face's top-left when read

    def to_json(self) -> dict:
        return {
            "card": None if self.card is None else self.card.code,
            "confidence": round(float(self.confidence), 3),
            "polygon": [[round(float(x), 1), round(float(y), 1)] for x, y in self.polygon],
        }


@dataclass(frozen=True)
class TableReading:
    area: bool  # the play-area markers were found in this frame
    cards: tuple[SeenCard, ...]
    # frames in a row, up to this one, in which the table showed no change (a stream's
    # reading; 0 where this frame changed, or was read on its own)
    still_frames: int = 0
    # where this frame changed (a stream's reading): 4 × 2 frame-pixel boxes; None where the
    # whole frame counts as changed (read on its own, or a new mapping)
    changes: tuple[np.ndarray, ...] | None = None


class TableReader:
    """Reads frames of one camera; keeps the play-area mapping from frame to frame."""

    def __init__(self, profile: Profile | None = None):
        self.profile = profile or default_profile()
        self.area = PlayArea()
        self.finder = CardFinder(occlusion_only=True)
        self.detector = self._detector()
        self.reader = CardReader(self.profile)
        self.max_stray_ink = self.profile.thresholds["max_stray_ink"]
        self.rim_mm = THRESHOLDS.inverse_rim_mm if self.profile.inverse else 0.0
        self.frame_px_per_mm: float | None = None  # without markers: the scale the cards showed

    def read(self, frame: np.ndarray) -> TableReading:
        return self.read_view(frame, self.area.update(frame))

    def reset(self) -> None:
        """Forget the camera: the markers' mapping, and the scale the cards showed without them."""
        self.area.reset()
        self.frame_px_per_mm = None

    def read_view(self, frame: np.ndarray, view: AreaView, look_in: LookIn | None = None,
                  known: tuple[SeenCard, ...] = ()) -> TableReading:
        """The cards in one frame mapped to ``view`` (``self.area.update(frame)``).

        For a caller that knows what lies where already (``stream.StreamReader``): new
        outlines are looked for only around view pixels (x, y) where ``look_in(x, y)``
        holds, and ``known`` cards come back as they are; nothing is looked for inside
        those read as a card, and what is found overlapping one of them is dropped.

        Without a mapping the frame is read as a top-down view at the scale its cards
        show (``frame_scale.py``), kept for the frames that follow while they show cards
        read whole."""
        if not view.mapped:
            view = self.view_without_markers(frame, view)
        readings: list[tuple[CardReading, np.ndarray, float | None]] = []
        # outlines of cards read with a trusted match: nothing else to find inside
        settled: list[np.ndarray] = [seen.polygon for seen in known if seen.card is not None]
        self._find_cards(frame, view, readings, settled, look_in)
        self._read_again_in_this_light(frame, readings)
        seen = _one_per_card(readings, self._trusted)
        if known:  # the same rule as between the outlines of one read (``_one_per_card``)
            seen = [card for card in seen if not any(
                overlap(card.polygon, other.polygon) > _overlap_limit(card.card, other.card) for other in known)]
        if view.guessed and not any(card.card is not None for card in (*known, *seen)):
            self.frame_px_per_mm = None  # the camera may have moved: the next frame guesses again
            log.debug("without markers: no card read whole, so the scale is guessed again")
        return TableReading(view.found, tuple(known) + tuple(seen))

    def view_without_markers(self, frame, view: AreaView) -> AreaView:
        """The frame as a top-down view at the scale its cards show (``frame_px_per_mm``,
        guessed now where none is kept); ``view`` (no mapping: no cards) where the
        detector sees none at any scale."""
        if self.frame_px_per_mm is None and self.detector is not None:
            self.frame_px_per_mm = guess_px_per_mm(frame, self.detector, self.reader)
            if self.frame_px_per_mm is None:
                log.debug("without markers: the detector sees no card at any scale")
            else:
                log.debug("without markers: the cards show %.2f frame px per mm", self.frame_px_per_mm)
        return view if self.frame_px_per_mm is None else frame_as_view(frame, self.frame_px_per_mm)

    def _detector(self) -> CardDetector | None:
        return CardDetector()

    def _find_cards(self, frame, view, readings: list, settled: list, look_in: LookIn | None) -> None:
        """Every card the detector proposes, surest first, read on its outline moved onto
        its numeral (see the module's docstring): one not read whole though it shows a
        deck's ink is read on the outline the edges support around it, or turned in
        place, or on the edges' outline from it turned far (``edge_start_turns_deg``),
        where that fits better, and so is one read whole but matched below
        ``refine_recheck_match``; one the network is unsure of counts only when whole
        enough (``_whole_enough``) on its outline, or on the edges' outline read as the
        same card (the last card of a fanned row, its outline from the network a little
        off)."""
        for proposal in self.detector.detect(view, look_in):
            if look_in is not None and not look_in(*proposal.corners_view.mean(axis=0)):
                continue
            if inside(proposal.corners_frame.mean(axis=0), settled):
                continue
            reading, corners = self._read_on_numeral(frame, proposal.corners_frame)
            read_whole = self._trusted(reading)
            # the edges' outline is asked for by up to two of the checks below: found once
            edges = functools.cache(lambda proposal=proposal: self._edges_reading(frame, view, proposal))
            if not read_whole and _shows_ink(reading):
                better = (self._refined(edges(), agreeing_with=reading)
                          or (self._resized_proposal(frame, corners) if view.guessed else None)
                          or (self._stretched_proposal(frame, corners) if view.guessed else None)
                          or self._turned_proposal(frame, corners)
                          or self._turned_edges(frame, view, proposal))
                if better is not None and self._fits_better(better[0], reading):
                    reading, corners = better
            elif read_whole and reading.match < THRESHOLDS.refine_recheck_match and not view.guessed:
                better = self._refined(edges())
                if better is not None and better[0].match > reading.match:
                    reading, corners = better
            if view.guessed:
                reading, corners = self._rechecked_at_guessed_scale(frame, reading, corners, resize=read_whole)
            if (proposal.score < THRESHOLDS.unsure_score and self._trusted(reading)
                    and not self._whole_enough(view, reading, corners, settled)):
                better = None if view.guessed else self._refined(edges())
                if (better is not None and better[0].card == reading.card
                        and self._whole_enough(view, better[0], better[1], settled)):
                    reading, corners = better
                else:
                    reading = dataclasses.replace(reading, card=None)
            if self._trusted(reading):
                settled.append(corners)
            elif proposal.score < THRESHOLDS.unsure_score and _shows_no_card(reading):
                continue
            readings.append((reading, corners, proposal.score))

    def _edges_reading(self, frame, view, proposal) -> tuple[CardReading, np.ndarray] | None:
        """The reading of the outline the edges support best around a proposal (the
        network's centre and turn as the start; ``CardFinder.outline_near``), moved onto
        its numeral; None where the edges support none."""
        found = self.finder.outline_from(view, proposal.corners_view, self.rim_mm)
        return None if found is None else self._read_on_numeral(frame, found.corners_frame)

    def _refined(self, edges: tuple[CardReading, np.ndarray] | None, agreeing_with: CardReading | None = None
                 ) -> tuple[CardReading, np.ndarray] | None:
        """The edges' outline and its reading (``_edges_reading``) where it is trusted and
        matched at least ``far_turn_trusted_match``, or at least ``trusted_match`` where
        it names the colour and number the proposal's own outline found likeliest
        (``agreeing_with``): two outlines that read the same card agree, though each
        matches only just (the last card of a row, its edges partly hidden). A 1 counts
        there only where the proposal's outline found a 1 too: the edges of an 11 half
        under the cards fanned over it give an outline on which its second digit reads
        as a 1. Else None."""
        if edges is None or not self._trusted(edges[0]):
            return None
        reading = edges[0]
        agrees = (agreeing_with is not None and reading.colour == agreeing_with.colour
                  and reading.number == agreeing_with.number)
        if agreeing_with is not None and reading.number == 1 and not agrees:
            return None
        return edges if reading.match >= THRESHOLDS.far_turn_trusted_match or agrees else None

    def _whole_enough(self, view, reading: CardReading, corners: np.ndarray, settled: list) -> bool:
        """Whether a card read on a proposal the network is unsure of counts: its numeral
        matches at least ``covered_trusted_match``, and no other card's edge crosses its
        outline, or the cards crossing it are cards read whole (a row's 11 under its
        neighbours' piles; then never a 1, the first digit of a number half under the
        next card). A card with a glare spot on it (``glyphs.shows_glare``, or on an
        inverse card ``glare_share`` of its face where the fill leaves a numeral less than
        half its contrast: a spot on a blue fill saturates only red and green) whose
        outline no other card's edge crosses needs only ``trusted_match``: the spot takes
        the network's certainty and the numeral's match alike."""
        under_glare = shows_glare(reading) or reading.hidden >= THRESHOLDS.glare_share
        if reading.match < (THRESHOLDS.trusted_match if under_glare else THRESHOLDS.covered_trusted_match):
            return False
        if self.finder.verify(view, corners) is not None:
            return True
        return (reading.match >= THRESHOLDS.covered_trusted_match and _covered(corners, settled)
                and reading.card.number != 1)

    def _fits_better(self, moved: CardReading, first: CardReading) -> bool:
        """Whether a reading on a moved or turned outline may stand for the first one: its
        numeral matches better there, or it names the number the first outline found
        likeliest (sure there, and the move only cleared the outline's checks; or in
        doubt there, a cream 18 matched hardly better than a 10 on an outline 3 px off,
        and sure on the outline the edges give). Between two numbers the numeral leaves
        in doubt (a 6 blurred into a 5), another outline that fits no better and names
        the other one only picks one."""
        return moved.match > first.match or moved.number == first.number

    def _resized_proposal(self, frame, corners: np.ndarray) -> tuple[CardReading, np.ndarray] | None:
        """The best-matched trusted reading of ``corners`` grown or shrunk by ``resizes``
        (moved onto its numeral), matched at least ``far_turn_trusted_match``; else None."""
        return self._best_trusted(frame, [resized(corners, factor) for factor in THRESHOLDS.resizes])

    def _rechecked_at_guessed_scale(self, frame, reading: CardReading, corners: np.ndarray,
                                    resize: bool) -> tuple[CardReading, np.ndarray]:
        """Without markers: a card read whole but matched below ``resize_recheck_match``
        (where ``resize``: read whole on the proposal itself) is read grown and shrunk, and
        one matched below ``stretch_recheck_match`` narrowed along either side; where it
        matches better so, that reading stands. One matched below
        ``guessed_trusted_match`` after all is reported unknown."""
        rechecks = ((THRESHOLDS.resize_recheck_match if resize else 0.0, self._resized_proposal),
                    (THRESHOLDS.stretch_recheck_match, self._stretched_proposal))
        for below, reshaped in rechecks:
            if self._trusted(reading) and reading.match < below:
                better = reshaped(frame, corners)
                if better is not None and better[0].match > reading.match:
                    reading, corners = better
        if self._trusted(reading) and reading.match < THRESHOLDS.guessed_trusted_match:
            reading = dataclasses.replace(reading, card=None)
        return reading, corners

    def _stretched_proposal(self, frame, corners: np.ndarray) -> tuple[CardReading, np.ndarray] | None:
        """The best-matched trusted reading of ``corners`` narrowed along one side by
        ``stretches`` (moved onto its numeral), matched at least ``far_turn_trusted_match``;
        else None."""
        return self._best_trusted(frame, [stretched(corners, *factors) for factors in THRESHOLDS.stretches])

    def _turned_proposal(self, frame, corners: np.ndarray) -> tuple[CardReading, np.ndarray] | None:
        """The best-matched trusted reading of ``corners`` turned about its centre by
        ``in_place_turns_deg`` (moved onto its numeral), matched at least
        ``far_turn_trusted_match``, never a 1 (its stroke fits a turned 3's); else None."""
        return self._best_trusted(frame, [rotated(corners, turn) for turn in THRESHOLDS.in_place_turns_deg],
                                  _not_a_one)

    def _turned_edges(self, frame, view, proposal) -> tuple[CardReading, np.ndarray] | None:
        """The best-matched trusted reading of the outlines the edges support around a
        proposal turned by ``edge_start_turns_deg`` (moved onto its numeral), matched at
        least ``far_turn_trusted_match``, never a 1; else None."""
        starts = [rotated(proposal.corners_view, turn) for turn in THRESHOLDS.edge_start_turns_deg]
        found = [self.finder.outline_from(view, start, self.rim_mm) for start in starts]
        return self._best_trusted(frame, [f.corners_frame for f in found if f is not None],
                                  _not_a_one)

    def _best_trusted(self, frame, outlines: list[np.ndarray], accept=lambda reading: True
                      ) -> tuple[CardReading, np.ndarray] | None:
        """The best-matched trusted reading of the outlines (each moved onto its numeral)
        matched at least ``far_turn_trusted_match`` that ``accept`` takes; else None, and
        None too where another card is read, untrusted, matched better on one of them: the
        outline that fits the numeral best names another card, so the card is in doubt (a
        6 on a pile, read well on the outlines that fit it but with stray ink just over
        the limit, can read as a trusted upside-down 9 on an outline turned off it)."""
        best, rival = None, None
        for outline in outlines:
            again, moved = self._read_on_numeral(frame, outline)
            if (self._trusted(again) and again.match >= THRESHOLDS.far_turn_trusted_match and accept(again)
                    and (best is None or again.match > best[0].match)):
                best = (again, moved)
            elif again.card is not None and (rival is None or again.match > rival.match):
                rival = again
        if best is not None and rival is not None and rival.match > best[0].match and rival.card != best[0].card:
            return None
        return best

    def _read_again_in_this_light(self, frame, readings: list) -> None:
        """Cards whose number was read but whose colour was not, or not beyond doubt
        (``paper_recheck``), read again with the paper's level in this light as the
        frame's cards read whole tell it (``CardReader.paper_level``): under a warm lamp
        white or cream paper saturates red and green, and the ink's colour there depends
        on how far; one card cannot tell, the cards of known colour beside it can. So on
        an inverse deck, whose paper is its white numerals: there too a yellow fill
        washed out by a glare spot's light shows only its blue. A card read again in
        another colour, or in none, is taken as read again."""
        sure = self.profile.thresholds["min_confidence"]
        doubtful = [i for i, (reading, _, _) in enumerate(readings) if reading.saturated
                    and reading.number_confidence >= sure
                    and reading.colour_confidence < THRESHOLDS.paper_recheck]
        if not doubtful:
            return
        levels, seen = [], set()
        for reading, corners, _ in readings:
            if len(levels) == THRESHOLDS.paper_cards:
                break
            if not self._trusted(reading) or reading.card in seen:
                continue
            seen.add(reading.card)
            level = self.reader.paper_level(frame, corners, reading.card.colour)
            if level is not None and np.isfinite(level).any():  # NaN where its ink cannot tell a channel
                levels.append(level)
        told = np.isfinite(levels).sum(axis=0) if levels else np.zeros(3)  # cards that tell each channel's level
        if told.min() < THRESHOLDS.min_paper_cards:
            return
        paper = np.nanmedian(levels, axis=0)
        for i in doubtful:
            first, corners, score = readings[i]
            again = self.reader.read_card(frame, corners, paper)
            read_now = first.card is None and again.card is not None
            other_colour = first.card is not None and again.colour != first.colour
            if read_now or other_colour:
                readings[i] = (again, corners, score)

    def _read_on_numeral(self, frame, corners: np.ndarray) -> tuple[CardReading, np.ndarray]:
        """The reading of ``corners``, and where it names a card whose numeral lies off its
        place, that of the outline moved onto it."""
        reading = self.reader.read_card(frame, corners)
        if reading.card is not None and np.hypot(*reading.shift) > THRESHOLDS.off_place_px:
            corners = corners + reading.shift
            reading = self.reader.read_card(frame, corners)
        return reading, corners

    def _trusted(self, reading: CardReading) -> bool:
        """Read as a whole card: a numeral that matches well on a face clean where the deck prints nothing."""
        hidden = reading.hidden >= THRESHOLDS.hidden_trusted_share
        least = THRESHOLDS.hidden_trusted_match if hidden else THRESHOLDS.trusted_match
        if reading.card is None or reading.match < least:
            return False
        eleven, ones = reading.card.number == 11, reading.card.number in (1, 11)
        return (reading.stray_ink <= self.max_stray_ink * (THRESHOLDS.eleven_stray_share if eleven else 1.0)
                and reading.seam <= (THRESHOLDS.ones_max_seam if ones else THRESHOLDS.max_seam)
                and reading.index_ink <= (THRESHOLDS.ones_max_index_ink if ones else THRESHOLDS.max_index_ink))


def _not_a_one(reading: CardReading) -> bool:
    return reading.card.number != 1


def _shows_ink(reading: CardReading) -> bool:
    """Read as no whole card, but showing a deck's ink and something of a numeral."""
    return reading.colour_confidence >= THRESHOLDS.around_min_colour and reading.match >= THRESHOLDS.around_min_match


def _shows_no_card(reading: CardReading) -> bool:
    """Read as no whole card, with no trace of a numeral and no glare spot that could hide one."""
    return reading.match < THRESHOLDS.no_card_match and not shows_glare(reading)


def _covered(corners: np.ndarray, settled: list[np.ndarray]) -> bool:
    """Whether cards read already lie on part of an outline: their edges cross it."""
    return any(overlap(corners, other) >= THRESHOLDS.covered_min_share for other in settled)


def _overlap_limit(card: Card | None, other: Card | None) -> float:
    """How much two outlines may overlap and still be two cards: more where both are read
    whole as different cards (a pile lies partly on its neighbour in the row). ``None``
    stands for an outline not read whole."""
    return THRESHOLDS.neighbour_overlap if card is not None and other not in (None, card) else THRESHOLDS.overlap


def _one_per_card(readings: list[tuple[CardReading, np.ndarray, float | None]], trusted) -> list[SeenCard]:
    """Of overlapping outlines the best read one: read as a whole card first, then read as
    a card, then one no card lies on (support None: a card read already covers part of
    it, see ``_covered``), then by how well the numeral matched, then by the outline's
    support. Two cards read whole as different cards may overlap more: a pile lies
    partly on its neighbour in the row."""
    ranked = sorted(readings, reverse=True, key=lambda r: (trusted(r[0]), r[0].card is not None, r[2] is not None,
                                                           r[0].match, r[2] or 0.0))
    kept: list[tuple[np.ndarray, Card | None]] = []
    seen = []
    for reading, corners, _ in ranked:
        polygon = np.asarray(corners, np.float32)
        whole = trusted(reading)
        if any(overlap(polygon, other) > _overlap_limit(reading.card if whole else None, card) for other, card in kept):
            continue
        kept.append((polygon, reading.card if whole else None))
        outline = corners if reading.corners is None else reading.corners
        if whole:
            seen.append(SeenCard(reading.card, reading.confidence, np.asarray(outline, float)))
        else:  # unknown, and as unsure as its numeral's match says
            seen.append(SeenCard(None, max(0.0, min(reading.confidence, reading.match)), np.asarray(outline, float)))
    return seen
