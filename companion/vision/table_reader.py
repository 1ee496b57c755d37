"""The card reader as one step: a camera frame in, the cards on the table out.

``TableReader.read(frame)`` maps the play area (``area.py``; without markers the frame
stands for it, at the scale its cards show: ``frame_scale.py``), finds the outlines of
the cards that show whole (the card detector, ``detect.py``) and reads each one
(``read.py``) with the calibration profile. A card that cannot be read with
confidence comes back with ``card`` None: an honest "I can't read this" beats a
wrong guess.

Each of the detector's proposals, the surest first, is read on its outline moved onto
its numeral (the numeral found a few pixels off its place says where the card lies);
then:

- a proposal read as no whole card though it shows a deck's ink is read on the outline
  the edges support around it (``CardFinder.outline_from``: the network's turn leans to
  a pile's edges where the top card lies turned on it) and, failing that, turned in
  place; such a reading stands where its numeral fits better, or where it names the
  number the first outline found likeliest (``_fits_better``); a proposal read whole
  but matched below ``REFINE_RECHECK_MATCH`` is read on the edges' outline as well;
- a proposal the network is unsure of (``UNSURE_SCORE``) is more often a card partly
  covered than a whole one: read as a card, it counts only where its numeral matches
  very well and no other card's edge crosses its outline; read as none, showing no trace
  of a numeral (``NO_CARD_MATCH``) and no glare, it is an empty stretch of table (a glare
  spot on wood, a checked cloth) and is not reported at all, where a card washed out by
  a glare spot is reported as a card that cannot be read;
- the checks of step 3 below and the second look in this light of step 5 apply as they
  do to the search's outlines.

Before the detector (``mode="search"``, kept for comparison: ``elfer bench vision
--search``), the edge finder (``find.py``) handed over its outlines one candidate at a
time, those its checks reject too, and numeral seeds and a wider look (step 4) found
what the edges missed; on a pile the edges alone can fit the top card and a card below
it about equally well (white card on white card shows no edge), and the numeral
decides:

1. each outline is read; one whose numeral is found off its place (the outline is that
   far off the top card), and every rejected one read as a card, is moved onto the
   numeral, must pass the finder's check there (a card half covered by another fails
   it) and is read again; other rejected outlines are dropped; an accepted outline
   that does not read as a whole card though it shows a deck's ink has outlines
   refined around it read too (the edges of the card below or of a neighbour can win
   the refinement);
2. a card read with its numeral matching well settles its place: candidates inside it
   are not looked at; one matched only just (below ``RECHECK_TRUSTED_BELOW``) has the
   outlines refined around it read too, and a card read but matched too poorly to trust
   is read on its outline turned in place (a turned numeral can match another number's
   template, and the top card of a pile lies turned against the pile's edges);
3. of overlapping outlines the one read with the best numeral match wins (two read as
   different whole cards may overlap a little more: neighbouring piles); outlines
   read as nothing come after those read as a card; a numeral matched less than
   ``TRUSTED_MATCH``, or a face showing ink where the deck prints nothing (more than the
   profile's ``max_stray_ink``: the outline spans two cards of a fanned row, or a hand
   lies on the card), or another card's edge running down the face (``seams.py``) or a
   pair of corner indices in its middle (``glyphs.index_ink``), is reported unknown;
4. an outline read as no card though it shows a deck's ink, where no card settled its
   place, may lie a centimetre off its card (a numeral as wide as the card is cut off
   there): the numeral is looked for that far around, and where it is found the outline
   is moved onto it, checked and read again (``TableReader._look_further``);
5. a card whose number was read but not its colour (or not beyond doubt) is read
   again with the paper's true level in this light, as the frame's cards read whole
   tell it: under a warm lamp white or cream paper (on an inverse deck, the white
   numerals) saturates the sensor in red and green, and how far decides whether an ink
   is green or yellow (``TableReader._read_again_in_this_light``).
"""

from __future__ import annotations

import dataclasses
import functools
from dataclasses import dataclass

import numpy as np

from ..cards import Card
from .area import AreaView, PlayArea, frame_as_view
from .detect import CardDetector
from .find import CardFinder, LookIn
from .frame_scale import guess_px_per_mm
from .glyphs import GLARE_SHARE, shows_glare
from .profile import Profile, default_profile
from .card_reader import CardReader, CardReading
from .outlines import inside, overlap, resized, rotated, stretched

OFF_PLACE_PX = 2.0  # a numeral found this far (frame pixels) off its place: the outline is moved onto it
OVERLAP = 0.1  # outlines overlapping by more than this share of a card are one card…
NEIGHBOUR_OVERLAP = 0.25  # … unless both are read whole as different cards: piles in a row overlap
# On a table an outline may span two cards of a fanned row, the numeral pieced together
# from both (a 1 beside the next card's 1 reads as 11). Such a reading matches its
# template less well than a card read whole: below this it is reported unknown (on 200
# rendered scenes of every style a quarter of the misreadings, and one right reading in
# a hundred), and at or above it the card settles its place. A card half under another
# or blurred past recognition matches only just: of the trusted readings matching
# 0.80–0.81 on the 2,000 bench scenes and 1,000 of seed 7, 17 were right and 5 wrong (a
# 10 half covered read as 16, an upside-down 7 as 4); at 0.81 two right cards fewer were
# reported and four wrong ones fewer.
TRUSTED_MATCH = 0.81
# On an inverse card a glare spot can hide much of the numeral (where the fill leaves it
# less than half its contrast, ``ink.numerals_room``): matched where it can show, its
# strokes scaled by the contrast they have, it matches less the more is hidden. With at
# least this share of the face hidden, a card counts as read whole from this match.
# Surveyed on 5,000 scenes (seeds 2026, 7, 11 and 13; every outline read on an inverse
# deck): the 12 readings naming a card with a third of the face or more hidden, 9 cards,
# matched 0.76–0.97 and were all right; the one below ``TRUSTED_MATCH``, a blue 20 with
# three fifths of its face in a spot's core (seed 2026, scene 130), is now read.
HIDDEN_TRUSTED_SHARE, HIDDEN_TRUSTED_MATCH = 0.3, 0.75
# Two strips of a fanned row, each showing the 1 of its card, piece together an 11 with
# little stray ink: an 11 must show less than this share of the profile's stray-ink limit
# (on 2,000 bench scenes 14 of 20 wrong readings were such 11s; with this 13 wrong in
# all, and as many cards read right: a real 11 left unknown is found on another outline).
ELEVEN_STRAY_SHARE = 0.7
# A straight edge running down the middle of the face's whole height is another card's
# edge: the outline spans two cards of a fanned row (``seams.py``). Surveyed on the 2,000
# bench scenes: every 11 read right showed a seam below about 0.12, all but three other
# cards read right one below 0.2. With these limits 9 of the 13 wrong readings went, and
# one more card was read right. An 11 has the stricter limit, as for stray ink: two
# strips of a row piece one together most easily; so has a 1, one strip's stroke (every
# 1 read right on the bench showed less than 0.14; an outline in the middle of a fanned
# row of seed 7, 0.19).
MAX_SEAM, ONES_MAX_SEAM = 0.2, 0.14
# A pair of corner indices in the middle of the face, one above the numeral and one
# below, belong to a strip of a fanned row (``glyphs.index_ink``): above this a reading is
# not trusted. Cards read right showed at most 0.09 (16,000 readings: the first 1,000
# scenes of seeds 2026 and 7); on 1,000 scenes of seed 7 this took 5 of 14 wrong
# readings and none of the right ones.
MAX_INDEX_INK = 0.12
# Strips of a fanned row that show a 1 (one strip) or pass for an 11 (two) showed 0.06–0.11
# on seed 7, whereas 1s and 11s read right showed less than 0.03 in 99 of 100 readings
# (6,265 readings: 2,000 bench scenes and 1,000 of seed 7; 3 above 0.05). With this limit
# seed 7 showed three wrong readings fewer (5 to 2), the bench two right ones fewer. (These
# figures are from before the bands were smoothed, ``glyphs.INDEX_SMOOTH_PX``.)
ONES_MAX_INDEX_INK = 0.05
# An outline turned far from the one first read (the card on top of a pile turned against
# it) counts only when read whole with at least this match: so far turned, an outline
# across a fanned row can piece a numeral together.
FAR_TURN_TRUSTED_MATCH = 0.85
AROUND_MIN_COLOUR, AROUND_MIN_MATCH = 0.99, 0.2  # an outline showing a deck's ink and a trace of a numeral
# A card read whole but matched below this is read on the outline the edges support
# around its proposal too, and the better-matched reading stands: the network turned a
# cream green 2's outline 10° off, where the 2's diagonal fitted a 7 (0.82, the 2 0.74;
# on the card's own outline the 2 matches 0.89; scene 409 of seed 13).
REFINE_RECHECK_MATCH = 0.9
# A card read but matched too poorly to trust (below ``TRUSTED_MATCH``, the top card of a
# pile turned 12° against the outline the pile's edges gave) is read again on the outline
# turned about its centre by these: where the same card is read whole there, matched at
# least ``FAR_TURN_TRUSTED_MATCH``, it counts. Never a 1: a 3 turned so that a 1 fitted
# its stroke read as one (2,000 bench scenes: 1 more card right, a condensed R19).
IN_PLACE_TURNS_DEG = (-16.0, -12.0, -8.0, -4.0, 4.0, 8.0, 12.0, 16.0)
# The last card of a fanned row turned 23° against the row lay on a proposal that
# followed the row, its centre 13 px off: neither turned in place nor refined from the
# proposal (whose edges led to the card below) did an outline read it. Refined by the
# edges from the proposal turned by these, it is found and read whole (seed 2026, scene
# 688: 1 more card right; seeds 13, 11 and 7 the same, none wrong).
EDGE_START_TURNS_DEG = (-20.0, 20.0)
# Without markers one scale serves the whole frame, but a tilted camera makes the cards
# at its far edge smaller than those at its near edge: a proposal not read whole is read
# grown and shrunk by these factors too (200 bench scenes, every tenth, read without their
# markers: 83.1 % of the cards right without, 94.4 % with; 2 of 1,499 wrong either way).
RESIZES = (0.94, 1.06, 0.89, 1.12)
# … and so is one read whole but matched below this (the same scenes: a condensed 11 read
# as 13 on an outline a tenth too small is read right; 2 wrong before, 1 after).
RESIZE_RECHECK_MATCH = 0.9
# … and a tilted camera foreshortens them along one side, where no size fits: a proposal
# not read whole, or read whole but matched below ``STRETCH_RECHECK_MATCH``, is read
# narrowed along either side by these factors too, and the best-matched reading stands.
# A cream 14 at the far edge of a tilted frame, its numeral squeezed a sixth across, read
# as 11 (the 4's stem for the second 1) at 0.93 on the detector's card-shaped outline. On
# the 2,000 bench scenes read without their markers (dev runs at 85283aa): 3 wrong
# instead of 9, 96.08 % right instead of 95.45 %.
STRETCHES = ((0.88, 1.0), (0.94, 1.0), (1.0, 0.88), (1.0, 0.94))
STRETCH_RECHECK_MATCH = 0.95
# Without markers a card counts only when its numeral matches at least this: a tilted
# camera foreshortens the cards near an edge of the frame, where no size fits, and a
# condensed 11 squeezed so matched a 13 at 0.83 (the same scenes: 0 wrong instead of 1,
# 94.3 % right instead of 94.6 %).
GUESSED_TRUSTED_MATCH = 0.85
# Cards read whole that tell the paper's level in a warm lamp's light (at most, and at
# least for each channel; their median is taken per channel). A yellow's ink saturates
# red as its paper does and tells only green's level; it still counts for green. Two
# suffice: with three, two greens under doubt stayed unknown beside two blues and two
# yellows (2,000 bench scenes: 2 more cards right, none lost or wrong). A card whose
# paper saturates no channel (in a dimmer part of the lamp's light) shows the level
# itself: a cream yellow 3 under the bright end of a lamp's fall-off, its three
# neighbours' paper not saturated, was unknown before they counted (2,000 bench scenes
# on an Intel machine: 1 more card right; 1,000 of seed 11: no change).
PAPER_CARDS, MIN_PAPER_CARDS = 8, 2
# A card read on saturated paper with its colour less sure than this is read again with
# that level too: a green read as yellow at 0.94 under a warm lamp (seed 13, scene 13).
# On the 2,000 bench scenes and 1,000 each of seeds 7, 3 and 13: two wrong readings fewer
# (both green and yellow told apart), one yellow 20 left unknown (its paper not as the
# frame's median level says), no other change. So is a card left unknown whose number
# was sure but whose colour was below this (its confidence the product of both): a green
# 6 at 0.97 × 0.87 (2,000 bench scenes: 1 more card right, none lost or wrong).
PAPER_RECHECK = 0.99
# A card in the middle of a row, its neighbours' piles lying on both its sides: their
# edges cross its outline, which the finder rejects (another card lies on it), though
# its numeral shows whole. Such an outline counts when it is read whole with at least
# this match and cards read already cover at least this share of it.
COVERED_TRUSTED_MATCH, COVERED_MIN_SHARE = 0.88, 0.03
# A deck filled with colour within a paper rim (inverse): on a table as pale as the rim,
# the rim's edge hardly shows and the fill's, 1.8 mm inside, is the card's edge. An
# outline refined from a seed (``fill_seeds``) may take a side that far inside: on the
# 500 inverse scenes of the bench, 5 more cards right, none lost (for the candidates'
# outlines too: 7 more, one lost, a fanned row's last card taken 13 mm off).
INVERSE_RIM_MM = 2.0
# A card the detector is unsure of (its centre score below this) is a card partly covered
# (a finger over it, the next card of a fanned row on it) more often than a whole one; the
# part that shows can pass for another number (an 8 under a finger read as a 3, a fanned
# row's 10 as a 16). Read as a card, it counts only where its numeral matches at least
# ``COVERED_TRUSTED_MATCH`` and no other card's edge crosses its outline. On 400 bench
# scenes (every fifth, the shipped model), of the trusted readings of proposals scored
# below 0.5 (20), one was wrong (a covered B10 as B16, matched 0.88); of the proposals on
# cards that must be read (3,003), 5 scored below 0.5 (0.38–0.47) and 13 below 0.6.
# The finder's check alone is not enough: trusting it whatever the match read one more
# card right on the 2,000 bench scenes (a Y13 on a pile under glare, 0.83), but with the
# shipped profile on a condensed deck it passed a B2 of which 57 % showed, read as B7
# (0.85).
UNSURE_SCORE = 0.5
# A proposal the network is unsure of, read as no card, whose best numeral matches less
# than this and whose face shows no glare (``glyphs.GLARE_SHARE``) is no card: an empty
# stretch of table. Of the outlines reported unknown on the 2,000 bench scenes (341), 118
# lay where no card lies (a glare spot on wood, a dark or checked cloth; their numerals
# matched 0.08-0.48, a few up to 0.76); with this limit 87 of them go, and the outlines
# of three cards of which at most a third shows, none of a card that must be read (the
# lowest such outline left matched 0.41). On 1,000 scenes of seed 11: 52 of 67 go, and
# five of cards of which at most 34 % shows. A card a glare spot washes out (seed 11,
# scene 994: an inverse G11 under a spot, matched 0.06) shows glare and stays reported.
NO_CARD_MATCH = 0.35


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


class TableReader:
    """Reads frames of one camera; keeps the play-area mapping from frame to frame."""

    def __init__(self, profile: Profile | None = None):
        self.profile = profile or default_profile()
        self.area = PlayArea()
        self.finder = CardFinder(occlusion_only=True)
        self.detector = self._detector()
        self.reader = CardReader(self.profile)
        self.max_stray_ink = self.profile.thresholds["max_stray_ink"]
        self.rim_mm = INVERSE_RIM_MM if self.profile.inverse else 0.0
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
        if known:
            seen = [card for card in seen if not any(overlap(card.polygon, other.polygon) > OVERLAP for other in known)]
        if view.guessed and not any(card.card is not None for card in (*known, *seen)):
            self.frame_px_per_mm = None  # the camera may have moved: the next frame guesses again
        return TableReading(view.found, tuple(known) + tuple(seen))

    def view_without_markers(self, frame, view: AreaView) -> AreaView:
        """The frame as a top-down view at the scale its cards show (``frame_px_per_mm``,
        guessed now where none is kept); ``view`` (no mapping: no cards) where the
        detector sees none at any scale."""
        if self.frame_px_per_mm is None and self.detector is not None:
            self.frame_px_per_mm = guess_px_per_mm(frame, self.detector, self.reader)
        return view if self.frame_px_per_mm is None else frame_as_view(frame, self.frame_px_per_mm)

    def _detector(self) -> CardDetector | None:
        return CardDetector()

    def _find_cards(self, frame, view, readings: list, settled: list, look_in: LookIn | None) -> None:
        """Every card the detector proposes, surest first, read on its outline moved onto
        its numeral (see the module's docstring): one not read whole though it shows a
        deck's ink is read on the outline the edges support around it, or turned in
        place, or on the edges' outline from it turned far (``EDGE_START_TURNS_DEG``),
        where that fits better, and so is one read whole but matched below
        ``REFINE_RECHECK_MATCH``; one the network is unsure of counts only when whole
        enough (``_whole_enough``) on its outline, or on the edges' outline read as the
        same card (the last card of a fanned row, its outline from the network a little
        off: a condensed Y17 of scene 664, seed 2026)."""
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
            elif read_whole and reading.match < REFINE_RECHECK_MATCH and not view.guessed:
                better = self._refined(edges())
                if better is not None and better[0].match > reading.match:
                    reading, corners = better
            if view.guessed:
                reading, corners = self._rechecked_at_guessed_scale(frame, reading, corners, resize=read_whole)
            if proposal.score < UNSURE_SCORE and self._trusted(reading) and not self._whole_enough(view, reading,
                                                                                                    corners, settled):
                better = None if view.guessed else self._refined(edges())
                if (better is not None and better[0].card == reading.card
                        and self._whole_enough(view, better[0], better[1], settled)):
                    reading, corners = better
                else:
                    reading = dataclasses.replace(reading, card=None)
            if self._trusted(reading):
                settled.append(corners)
            elif proposal.score < UNSURE_SCORE and _shows_no_card(reading):
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
        matched at least ``FAR_TURN_TRUSTED_MATCH``, or at least ``TRUSTED_MATCH`` where
        it names the colour and number the proposal's own outline found likeliest
        (``agreeing_with``): two outlines that read the same card. The last card of a
        condensed row, a yellow 17, matched 0.80 on the proposal's outline and 0.82 on
        the edges' (scene 316 of seed 13: 1 more card right; seeds 2026 and 11 the same,
        none wrong). A 1 counts there only where the proposal's outline found a 1 too:
        the edges of a yellow 11 half under the cards fanned over it gave an outline on
        which its second digit read as a 1 (0.96; scene 925 of seed 13: that wrong
        reading goes, seeds 2026 and 11 the same). Else None."""
        if edges is None or not self._trusted(edges[0]):
            return None
        reading = edges[0]
        agrees = (agreeing_with is not None and reading.colour == agreeing_with.colour
                  and reading.number == agreeing_with.number)
        if agreeing_with is not None and reading.number == 1 and not agrees:
            return None
        return edges if reading.match >= FAR_TURN_TRUSTED_MATCH or agrees else None

    def _whole_enough(self, view, reading: CardReading, corners: np.ndarray, settled: list) -> bool:
        """Whether a card read on a proposal the network is unsure of counts: its numeral
        matches at least ``COVERED_TRUSTED_MATCH``, and no other card's edge crosses its
        outline, or the cards crossing it are cards read whole (a row's 11 under its
        neighbours' piles; then never a 1, the first digit of a number half under the
        next card). A card with a glare spot on it (``glyphs.shows_glare``, or on an
        inverse card ``GLARE_SHARE`` of its face where the fill leaves a numeral less than
        half its contrast: a spot on a blue fill saturates only red and green) whose
        outline no other card's edge crosses needs only ``TRUSTED_MATCH``: the spot takes
        the network's certainty and the numeral's match alike (an inverse Y14, proposed
        at 0.31 and matched 0.84; seed 2026: 1 more card right, seed 7: 1 more, seeds
        11 and 13 the same, none wrong; an inverse B9 under a spot that saturates 1 % of
        its face, matched 0.84: seed 2026 1 more, the others the same)."""
        under_glare = shows_glare(reading) or reading.hidden >= GLARE_SHARE
        if reading.match < (TRUSTED_MATCH if under_glare else COVERED_TRUSTED_MATCH):
            return False
        if self.finder.verify(view, corners) is not None:
            return True
        return reading.match >= COVERED_TRUSTED_MATCH and _covered(corners, settled) and reading.card.number != 1

    def _fits_better(self, moved: CardReading, first: CardReading) -> bool:
        """Whether a reading on a moved or turned outline may stand for the first one: its
        numeral matches better there, or it names the number the first outline found
        likeliest (sure there, and the move only cleared the outline's checks; or in
        doubt there, a cream 18 matched hardly better than a 10 on an outline 3 px off,
        and sure on the outline the edges give). Between two numbers the numeral leaves
        in doubt (a 6 blurred into a 5), another outline that fits no better and names
        the other one only picks one. On the bench scenes as the Intel machine renders
        them (README): seed 2026, 4 cream cards more right; seed 13, 1 more; seed 11 the
        same; none wrong."""
        return moved.match > first.match or moved.number == first.number

    def _resized_proposal(self, frame, corners: np.ndarray) -> tuple[CardReading, np.ndarray] | None:
        """The best-matched trusted reading of ``corners`` grown or shrunk by ``RESIZES``
        (moved onto its numeral), matched at least ``FAR_TURN_TRUSTED_MATCH``; else None."""
        return self._best_trusted(frame, [resized(corners, factor) for factor in RESIZES])

    def _rechecked_at_guessed_scale(self, frame, reading: CardReading, corners: np.ndarray,
                                    resize: bool) -> tuple[CardReading, np.ndarray]:
        """Without markers: a card read whole but matched below ``RESIZE_RECHECK_MATCH``
        (where ``resize``: read whole on the proposal itself) is read grown and shrunk, and
        one matched below ``STRETCH_RECHECK_MATCH`` narrowed along either side; where it
        matches better so, that reading stands. One matched below
        ``GUESSED_TRUSTED_MATCH`` after all is reported unknown."""
        rechecks = ((RESIZE_RECHECK_MATCH if resize else 0.0, self._resized_proposal),
                    (STRETCH_RECHECK_MATCH, self._stretched_proposal))
        for below, reshaped in rechecks:
            if self._trusted(reading) and reading.match < below:
                better = reshaped(frame, corners)
                if better is not None and better[0].match > reading.match:
                    reading, corners = better
        if self._trusted(reading) and reading.match < GUESSED_TRUSTED_MATCH:
            reading = dataclasses.replace(reading, card=None)
        return reading, corners

    def _stretched_proposal(self, frame, corners: np.ndarray) -> tuple[CardReading, np.ndarray] | None:
        """The best-matched trusted reading of ``corners`` narrowed along one side by
        ``STRETCHES`` (moved onto its numeral), matched at least ``FAR_TURN_TRUSTED_MATCH``;
        else None."""
        return self._best_trusted(frame, [stretched(corners, *factors) for factors in STRETCHES])

    def _turned_proposal(self, frame, corners: np.ndarray) -> tuple[CardReading, np.ndarray] | None:
        """The best-matched trusted reading of ``corners`` turned about its centre by
        ``IN_PLACE_TURNS_DEG`` (moved onto its numeral), matched at least
        ``FAR_TURN_TRUSTED_MATCH``, never a 1 (its stroke fits a turned 3's); else None."""
        return self._best_trusted(frame, [rotated(corners, turn) for turn in IN_PLACE_TURNS_DEG],
                                  _not_a_one)

    def _turned_edges(self, frame, view, proposal) -> tuple[CardReading, np.ndarray] | None:
        """The best-matched trusted reading of the outlines the edges support around a
        proposal turned by ``EDGE_START_TURNS_DEG`` (moved onto its numeral), matched at
        least ``FAR_TURN_TRUSTED_MATCH``, never a 1; else None."""
        starts = [rotated(proposal.corners_view, turn) for turn in EDGE_START_TURNS_DEG]
        found = [self.finder.outline_from(view, start, self.rim_mm) for start in starts]
        return self._best_trusted(frame, [f.corners_frame for f in found if f is not None],
                                  _not_a_one)

    def _best_trusted(self, frame, outlines: list[np.ndarray], accept=lambda reading: True
                      ) -> tuple[CardReading, np.ndarray] | None:
        """The best-matched trusted reading of the outlines (each moved onto its numeral)
        matched at least ``FAR_TURN_TRUSTED_MATCH`` that ``accept`` takes; else None, and
        None too where another card is read, untrusted, matched better on one of them: the
        outline that fits the numeral best names another card, so the card is in doubt (a
        cream 6 on a pile, read 0.96 on the outlines that fit it but with stray ink just
        over the limit, and as an upside-down 9, trusted, at 0.89 on one turned off it;
        seed 3, scene 601: that wrong reading gone, every other card of seeds 2026, 13,
        11, 7, 3 and 5 the same)."""
        best, rival = None, None
        for outline in outlines:
            again, moved = self._read_on_numeral(frame, outline)
            if (self._trusted(again) and again.match >= FAR_TURN_TRUSTED_MATCH and accept(again)
                    and (best is None or again.match > best[0].match)):
                best = (again, moved)
            elif again.card is not None and (rival is None or again.match > rival.match):
                rival = again
        if best is not None and rival is not None and rival.match > best[0].match and rival.card != best[0].card:
            return None
        return best

    def _read_again_in_this_light(self, frame, readings: list) -> None:
        """Cards whose number was read but whose colour was not, or not beyond doubt
        (``PAPER_RECHECK``), read again with the paper's level in this light as the
        frame's cards read whole tell it (``CardReader.paper_level``): under a warm lamp
        white or cream paper saturates red and green, and the ink's colour there depends
        on how far; one card cannot tell, the cards of known colour beside it can. So on
        an inverse deck, whose paper is its white numerals: there too a yellow fill
        washed out by a glare spot's light showed only its blue (seed 2026: 1 more card
        right, seeds 13, 11 and 7 the same, none wrong). A card read again in another
        colour, or in none, is taken as read again."""
        sure = self.profile.thresholds["min_confidence"]
        doubtful = [i for i, (reading, _, _) in enumerate(readings) if reading.saturated
                    and reading.number_confidence >= sure
                    and reading.colour_confidence < PAPER_RECHECK]
        if not doubtful:
            return
        levels, seen = [], set()
        for reading, corners, _ in readings:
            if len(levels) == PAPER_CARDS:
                break
            if not self._trusted(reading) or reading.card in seen:
                continue
            seen.add(reading.card)
            level = self.reader.paper_level(frame, corners, reading.card.colour)
            if level is not None and np.isfinite(level).any():  # NaN where its ink cannot tell a channel
                levels.append(level)
        told = np.isfinite(levels).sum(axis=0) if levels else np.zeros(3)  # cards that tell each channel's level
        if told.min() < MIN_PAPER_CARDS:
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
        if reading.card is not None and np.hypot(*reading.shift) > OFF_PLACE_PX:
            corners = corners + reading.shift
            reading = self.reader.read_card(frame, corners)
        return reading, corners

    def _trusted(self, reading: CardReading) -> bool:
        """Read as a whole card: a numeral that matches well on a face clean where the deck prints nothing."""
        least = HIDDEN_TRUSTED_MATCH if reading.hidden >= HIDDEN_TRUSTED_SHARE else TRUSTED_MATCH
        if reading.card is None or reading.match < least:
            return False
        eleven, ones = reading.card.number == 11, reading.card.number in (1, 11)
        return (reading.stray_ink <= self.max_stray_ink * (ELEVEN_STRAY_SHARE if eleven else 1.0)
                and reading.seam <= (ONES_MAX_SEAM if ones else MAX_SEAM)
                and reading.index_ink <= (ONES_MAX_INDEX_INK if ones else MAX_INDEX_INK))


def _not_a_one(reading: CardReading) -> bool:
    return reading.card.number != 1


def _shows_ink(reading: CardReading) -> bool:
    """Read as no whole card, but showing a deck's ink and something of a numeral."""
    return reading.colour_confidence >= AROUND_MIN_COLOUR and reading.match >= AROUND_MIN_MATCH


def _shows_no_card(reading: CardReading) -> bool:
    """Read as no whole card, with no trace of a numeral and no glare spot that could hide one."""
    return reading.match < NO_CARD_MATCH and not shows_glare(reading)


def _covered(corners: np.ndarray, settled: list[np.ndarray]) -> bool:
    """Whether cards read already lie on part of an outline: their edges cross it."""
    return any(overlap(corners, other) >= COVERED_MIN_SHARE for other in settled)


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
        if any(overlap(polygon, other) > (NEIGHBOUR_OVERLAP if whole and card not in (None, reading.card) else OVERLAP)
               for other, card in kept):
            continue
        kept.append((polygon, reading.card if whole else None))
        outline = corners if reading.corners is None else reading.corners
        if whole:
            seen.append(SeenCard(reading.card, reading.confidence, np.asarray(outline, float)))
        else:  # unknown, and as unsure as its numeral's match says
            seen.append(SeenCard(None, max(0.0, min(reading.confidence, reading.match)), np.asarray(outline, float)))
    return seen
