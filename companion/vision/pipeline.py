"""The card reader as one step: a camera frame in, the cards on the table out.

``TableReader.read(frame)`` maps the play area (``area.py``), finds the outlines of
fully visible cards (``find.py``) and reads each one (``read.py``) with the
calibration profile. A card that cannot be read with confidence comes back with
``card`` None: an honest "I can't read this" beats a wrong guess.

On a pile the edges alone can fit the top card and a card below it about equally well
(white card on white card shows no edge), so the finder hands over its outlines one
candidate at a time, those its checks reject too, and the numeral decides:

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
   pair of corner indices in its middle (``read.index_ink``), is reported unknown;
4. an outline read as no card though it shows a deck's ink, where no card settled its
   place, may lie a centimetre off its card (a numeral as wide as the card is cut off
   there): the numeral is looked for that far around, and where it is found the outline
   is moved onto it, checked and read again (``TableReader._look_further``);
5. a card whose number was read but not its colour (or not beyond doubt) is read
   again with the paper's true level in this light, as the frame's cards read whole
   tell it: under a warm lamp white or cream paper saturates the sensor in red and
   green, and how far decides whether an ink is green or yellow
   (``TableReader._read_again_in_this_light``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..cards import Card
from .area import AreaView, PlayArea
from .find import CardFinder, LookIn
from .profile import Profile, default_profile
from .read import CardReader, CardReading
from .markers import MARKER_SIZE_MM, corner_positions_mm
from .outlines import apart_mm, folded, inside, near, overlap, rotated, same_place, turn_between, turn_deg
from .seeds import SEED_PX_PER_MM, fill_seed_groups, numeral_seed_groups

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
# below, belong to a strip of a fanned row (``read.index_ink``): above this a reading is
# not trusted. Cards read right showed at most 0.09 (16,000 readings: the first 1,000
# scenes of seeds 2026 and 7); on 1,000 scenes of seed 7 this took 5 of 14 wrong
# readings and none of the right ones.
MAX_INDEX_INK = 0.12
# Strips of a fanned row that show a 1 (one strip) or pass for an 11 (two) showed 0.06–0.11
# on seed 7, whereas 1s and 11s read right showed less than 0.03 in 99 of 100 readings
# (6,265 readings: 2,000 bench scenes and 1,000 of seed 7; 3 above 0.05). With this limit
# seed 7 showed three wrong readings fewer (5 to 2), the bench two right ones fewer.
ONES_MAX_INDEX_INK = 0.05
# An outline not read as a whole card but showing a deck's ink and a trace of a numeral:
# outlines refined from starts this far to each side and this much turned are read too;
# where its numeral was read (the face shows ink where the deck prints none, or the
# numeral matches poorly: a top card turned against the one below), turned further too.
# On the first 800 bench scenes +0.9 % of cards right and no more wrong, for about a tenth
# more time; on all 2,000, three more wrong (two pieces of fanned rows read as 11, a
# cream 10 read as 19). Turning unread outlines further finds more cards still, but
# more outlines across fanned rows too. Most unread outlines (the cloth, a pile's
# edges) show no deck ink.
AROUND_SHIFT_MM, AROUND_TURNS_DEG, AROUND_READ_TURNS_DEG = 8.0, (-5.0, 5.0), (-10.0, 10.0, -18.0, 18.0)
# An outline that settled this much turned against the one it was looked for around (the
# card on top of a pile turned against it) counts only when read whole with at least this
# match: so far turned, an outline across a fanned row can piece a numeral together.
# Turned ±18° with this guard, on the 2,000 bench scenes and 600 of seed 13: 10 more cards
# right and one lost (net 9), none more wrong (without it, one more wrong: a fanned row read as B3).
FAR_TURN_DEG, FAR_TURN_TRUSTED_MATCH = 13.0, 0.85
AROUND_MIN_COLOUR, AROUND_MIN_MATCH = 0.99, 0.2
# A card read whole but matched this poorly may lie turned in its outline (a pile's
# edges won it, the top card turned 20° against them): a numeral so turned matches
# another number's template as well as its own (a cream 8 read as 9 at 0.81, a 2 as
# 3 at 0.82, a 5 as 3 at 0.89). The outlines refined around it are read too, and one
# that matches better by this much is taken instead. On the 2,000 bench scenes: those
# three wrong readings gone, nothing else changed; 22 rechecks in 200 frames, under 1 %
# of the time.
RECHECK_TRUSTED_BELOW, RECHECK_BETTER_BY = 0.9, 0.05
# A card read but matched too poorly to trust (below ``TRUSTED_MATCH``, the top card of a
# pile turned 12° against the outline the pile's edges gave) is read again on the outline
# turned about its centre by these: where the same card is read whole there, matched at
# least ``FAR_TURN_TRUSTED_MATCH``, it counts. Never a 1: a 3 turned so that a 1 fitted
# its stroke read as one (2,000 bench scenes: 1 more card right, a condensed R19).
IN_PLACE_TURNS_DEG = (-16.0, -12.0, -8.0, -4.0, 4.0, 8.0, 12.0, 16.0)
SAME_PLACE_MM, SAME_TURN_DEG = 9.0, 6.0  # a numeral seed this near an outline read already adds nothing
# An outline read as no card may lie this far off its card (mm; the edges of the card
# below won it), the numeral cut off: the reader looks for the numeral this far around.
# An outline moved that far on the numeral's word alone must match it better than
# ``TRUSTED_MATCH``: so far off, one 1 of an 11 or the 9 of a 19 can pass for a card.
# Of the outlines moved so on the 2,000 bench scenes, 22 were read whole, all right (two
# below this limit); of 1,000 scenes of seed 7, 16, four wrong, all below it.
FURTHER_MM, FURTHER_TRUSTED_MATCH = 12, 0.88
# Outlines looked for around seeds per frame at most (strongest seeds first; seeds on
# cards read already cost nothing): a busy cloth gives many, and the cards it hides from
# the edges often come after a dozen of its seeds. From 12 to 24: 10 more cards right on
# the 2,000 bench scenes, 4 on seed 7, 10 on seed 3, none more wrong; 1 % more time on
# average, 5 % more for the slowest tenth of frames, the median unchanged. From 24 to 30
# (with the warm-light seeds): 3 more on the bench scenes, 3 on seed 13, none lost or wrong.
MAX_SEED_LOOKS = 30
# Seeds of faint ink only (``seeds.numeral_seed_groups``) come after all others, with a
# budget of their own: on a patterned cloth the others use up theirs.
MAX_FAINT_SEED_LOOKS = 6
# On a deck filled with colour the later seeds are paper numerals in fill that no
# card-shaped region explains (``seeds.fill_seed_groups``: the last card of a fanned row,
# a card on a table as saturated as the fill), most of them the strips of a row's other
# cards, so they get a few looks and no outlines around. A numeral's centre lies half a
# card's width inside its card: paper in the fill this near a card read already is where
# its rim meets its neighbours'. On the 500 inverse scenes of the bench (with the fill
# shrunk, seeds.FILL_SHRINKS_MM): 4 more cards right, none lost, none wrong; the
# numerals' stage took 15.8 instead of 7.8 ms per inverse frame (mean of 125, in-process).
MAX_FILL_NUMERAL_LOOKS, FILL_NUMERAL_CLEARANCE_MM = 4, 15
# A numeral seed where an outline centred there and turned alike was read as unknown
# already: the card on top may lie turned against the pile whose edges won that outline.
# Outlines are looked for from the seed turned this far either way (at most this many
# seeds a frame), and one counts only when turned at least this much against every
# outline read there: one turned alike reads the same numeral again, by chance a little
# better, and so a fanned row's strips passed for a G11 and a B6 for a B5 (seed 2026).
# ±18°: 29 more cards right on the 2,000 bench scenes, 9 on 600 of seed 13, none lost or
# wrong; ±26° as well: 3 and 2 more. A seed whose own outline (no outline read there
# before) reads as no card but shows a deck's ink gets these looks too, with ±10° added
# (a condensed 20 turned 10–15° on its pile): 10 more cards right on the 2,000 bench
# scenes, 4 on 1,200 of seed 13, none lost or wrong, about 2 % more time per frame.
# An outline turned alike counts where it lies elsewhere (``SAME_PLACE_MM`` from every
# outline read there): the outline read at the seed lay a third of a card off it, and the
# turned one on the card (2,000 bench scenes: 2 more cards right, none lost or wrong).
SEED_TURNS_DEG, MAX_TURNED_LOOKS, TURNED_AGAINST_DEG = (-10.0, 10.0, -18.0, 18.0, -26.0, 26.0), 12, 10.0
# Cards read whole that tell the paper's level in a warm lamp's light (at most, and at
# least for each channel; their median is taken per channel). A yellow's ink saturates
# red as its paper does and tells only green's level; it still counts for green. Two
# suffice: with three, two greens under doubt stayed unknown beside two blues and two
# yellows (2,000 bench scenes: 2 more cards right, none lost or wrong).
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
# its numeral shows whole. Moved onto its numeral, such an outline counts when it is
# read whole with at least this match and cards read already cover at least this share
# of it.
COVERED_TRUSTED_MATCH, COVERED_MIN_SHARE = 0.88, 0.03
# Those edges pull the outline's turn too (4–5° on rendered rows): it is turned about its
# centre by each of these and kept where the numeral matches best.
COVERED_TURNS_DEG = (-6.0, -4.0, -2.0, 2.0, 4.0, 6.0)
# A deck filled with colour within a paper rim (inverse): on a table as pale as the rim,
# the rim's edge hardly shows and the fill's, 1.8 mm inside, is the card's edge. An
# outline refined from a seed (``fill_seeds``) may take a side that far inside: on the
# 500 inverse scenes of the bench, 5 more cards right, none lost (for the candidates'
# outlines too: 7 more, one lost, a fanned row's last card taken 13 mm off).
INVERSE_RIM_MM = 2.0
MARKER_REACH_MM = 0.5 * MARKER_SIZE_MM + 10  # a numeral seen this near a play-area marker's centre is the marker


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
        self.reader = CardReader(self.profile)
        self.max_stray_ink = self.profile.thresholds["max_stray_ink"]
        self.rim_mm = INVERSE_RIM_MM if self.profile.inverse else 0.0

    def read(self, frame: np.ndarray) -> TableReading:
        return self.read_view(frame, self.area.update(frame))

    def read_view(self, frame: np.ndarray, view: AreaView, look_in: LookIn | None = None,
                  known: tuple[SeenCard, ...] = ()) -> TableReading:
        """The cards in one frame mapped to ``view`` (``self.area.update(frame)``).

        For a caller that knows what lies where already (``stream.StreamReader``): new
        outlines are looked for only around view pixels (x, y) where ``look_in(x, y)``
        holds, and ``known`` cards come back as they are; nothing is looked for inside
        those read as a card, and what is found overlapping one of them is dropped."""
        readings: list[tuple[CardReading, np.ndarray, float | None]] = []
        # outlines of cards read with a trusted match: nothing else to find inside
        settled: list[np.ndarray] = [seen.polygon for seen in known if seen.card is not None]
        for found in self.finder.outlines(view, settled, look_in):
            self._consider(frame, view, found, readings, settled)
        if view.mapped:
            self._look_at_numerals(frame, view, readings, settled, look_in)
            self._look_further(frame, view, readings, settled)
        self._read_again_in_this_light(frame, readings)
        seen = _one_per_card(readings, self._trusted)
        if known:
            seen = [card for card in seen if not any(overlap(card.polygon, other.polygon) > OVERLAP for other in known)]
        return TableReading(view.found, tuple(known) + tuple(seen))

    def _look_at_numerals(self, frame, view, readings: list, settled: list, look_in: LookIn | None) -> None:
        """Cards the edges gave no outline for, found by their numerals on paper or by their
        colour fill on a deck filled with colour (``seeds.py``)."""
        fine, fine_scale = view.resampled(SEED_PX_PER_MM)
        markers_mm = np.array(list(corner_positions_mm(self.area.play_area_mm).values()))
        markers = (view.mm_to_view(markers_mm) + 0.5) / fine_scale - 0.5

        def in_fine_view(corners_frame):
            return (view.frame_to_view(np.asarray(corners_frame, np.float64)) + 0.5) / fine_scale - 0.5

        groups = (fill_seed_groups(fine, SEED_PX_PER_MM, markers, MARKER_REACH_MM) if self.profile.inverse
                  else numeral_seed_groups(fine, SEED_PX_PER_MM, markers, MARKER_REACH_MM))
        turned_looks = own_turned_looks = 0
        later_looks = MAX_FILL_NUMERAL_LOOKS if self.profile.inverse else MAX_FAINT_SEED_LOOKS
        for group, most_looks, turned in zip(groups, (MAX_SEED_LOOKS, later_looks), (True, False)):
            looks, fill_numerals = 0, self.profile.inverse and not turned
            for x, y, theta in group:
                if look_in is not None and not look_in((x + 0.5) * fine_scale - 0.5, (y + 0.5) * fine_scale - 0.5):
                    continue  # nothing changed around it
                settled_here = [in_fine_view(corners) for corners in settled]
                if inside((x, y), settled_here):
                    continue  # a card read already
                if fill_numerals and near((x, y), settled_here, FILL_NUMERAL_CLEARANCE_MM * SEED_PX_PER_MM):
                    continue  # paper between cards read already: their rims
                read_there = [corners for _, corners, _ in readings
                              if same_place((x, y, theta), in_fine_view(corners), SEED_PX_PER_MM,
                                            SAME_PLACE_MM, SAME_TURN_DEG)]
                if read_there:
                    if turned and turned_looks < MAX_TURNED_LOOKS:
                        turned_looks += 1
                        self._look_turned(frame, view, (x, y, theta), read_there, readings, settled)
                    continue
                if looks == most_looks:
                    break
                looks += 1
                found = self.finder.outline_near(view, x, y, theta, self.rim_mm)
                known, read = len(settled), len(readings)
                if found is not None:
                    self._consider(frame, view, found, readings, settled, look_around=not fill_numerals)
                if len(settled) == known and (found is None or found.score is None):
                    # the edges pulled the outline off the card (a patterned cloth): the numeral tells its
                    # place (2,000 bench scenes: 3 more cards right, none lost; about 6 such looks a frame)
                    at_seed = self.finder.outline_at(view, x, y, theta)
                    if at_seed.score is not None:
                        self._consider(frame, view, at_seed, readings, settled, look_around=False)
                if found is None:
                    continue
                if (turned and len(settled) == known and len(readings) > read and own_turned_looks < MAX_TURNED_LOOKS
                        and _shows_ink(readings[-1][0])):
                    own_turned_looks += 1  # the card on top may lie turned against the pile whose edges won
                    self._look_turned(frame, view, (x, y, theta), [found.corners_frame], readings, settled)

    def _look_turned(self, frame, view, seed: tuple[float, float, float], read_there: list[np.ndarray],
                     readings: list, settled: list) -> None:
        """Outlines refined from a numeral seed (fine view) turned ``SEED_TURNS_DEG``, where
        the outlines ``read_there`` (frame pixels) were read as unknown: read when turned
        against all of them (``TURNED_AGAINST_DEG``)."""
        x, y, theta = seed
        for turn in SEED_TURNS_DEG:
            found = self.finder.outline_near(view, x, y, theta + math.radians(turn), self.rim_mm)
            if found is None or any(turn_between(found.corners_frame, corners) < TURNED_AGAINST_DEG
                                    and apart_mm(found.corners_frame, corners) < SAME_PLACE_MM
                                    for corners in read_there):
                continue
            far = folded(turn_deg(found.corners_view) - math.degrees(theta)) > FAR_TURN_DEG
            self._consider(frame, view, found, readings, settled, look_around=False,
                           least_match=FAR_TURN_TRUSTED_MATCH if far else None)

    def _look_further(self, frame, view, readings: list, settled: list) -> None:
        """Outlines read as no card but showing a deck's ink, where no card was read: the
        numeral is looked for further around (``CardReader.look_further``), and where it is
        read as a card the outline is moved onto it, checked there and read again; kept
        only when read whole and well matched there."""
        looked: list[np.ndarray] = []
        for reading, corners, _ in list(readings):
            centre = np.mean(corners, axis=0)
            if (reading.card is not None or reading.colour_confidence < AROUND_MIN_COLOUR
                    or inside(centre, settled) or inside(centre, looked)):
                continue
            looked.append(corners)
            further = self.reader.look_further(frame, corners, FURTHER_MM)
            if further.card is None or np.hypot(*further.shift) <= OFF_PLACE_PX:
                continue
            moved = corners + further.shift
            if inside(np.mean(moved, axis=0), settled):
                continue
            moved_score = self.finder.verify(view, moved)
            if moved_score is None and not _covered(moved, settled):
                continue
            moved_reading = self.reader.read_card(frame, moved)
            if not (self._trusted(moved_reading) and moved_reading.match >= FURTHER_TRUSTED_MATCH):
                continue
            if moved_score is None:
                covered = self._read_as_covered(frame, moved_reading, moved)
                if covered is None:
                    continue
                moved_reading, moved = covered
            readings.append((moved_reading, moved, moved_score))
            settled.append(moved)

    def _read_again_in_this_light(self, frame, readings: list) -> None:
        """Cards whose number was read but whose colour was not, or not beyond doubt
        (``PAPER_RECHECK``), read again with the paper's level in this light as the
        frame's cards read whole tell it (``CardReader.paper_level``): under a warm lamp
        white or cream paper saturates red and green, and the ink's colour there depends
        on how far; one card cannot tell, the cards of known colour beside it can. A card
        read again in another colour, or in none, is taken as read again."""
        sure = self.profile.thresholds["min_confidence"]
        doubtful = [i for i, (reading, _, _) in enumerate(readings) if reading.saturated
                    and reading.number_confidence >= sure
                    and reading.colour_confidence < PAPER_RECHECK]
        if not doubtful or self.profile.inverse:
            return
        levels, seen = [], set()
        for reading, corners, _ in readings:
            if len(levels) == PAPER_CARDS:
                break
            if not self._trusted(reading) or reading.card in seen:
                continue
            seen.add(reading.card)
            level = self.reader.paper_level(frame, corners, reading.card.colour)
            if level is not None and np.isfinite(level).any():  # None: this card's paper does not saturate (a shadow)
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

    def _consider(self, frame, view, found, readings: list, settled: list, look_around: bool = True,
                  least_match: float | None = None) -> None:
        """Read one outline (moved onto its numeral when that lies off its place, checked
        again there); a trusted reading settles its place. An outline the finder accepts
        but that does not read as a whole card, with ink of a deck colour and something of
        a numeral on it, may be the card below or a neighbour's edge: outlines refined
        around it are read too."""
        corners = found.corners_frame
        # a rejected outline counts only when read as a card: what else it shows is not asked
        reading = self.reader.read_card(frame, corners, card_only=found.score is None)
        crossed = False  # another card's edge crosses the outline: a card read already lies on it
        if reading.card is not None and (found.score is None or np.hypot(*reading.shift) > OFF_PLACE_PX):
            corners = corners + reading.shift
            crossed = self.finder.verify(view, corners) is None
            if crossed and not _covered(corners, settled):
                return
            reading = self.reader.read_card(frame, corners)
            if crossed:
                covered = self._read_as_covered(frame, reading, corners)
                if covered is None:
                    return
                reading, corners = covered
        elif found.score is None:
            return
        trusted = self._trusted(reading)
        if reading.card is not None and not trusted and reading.match < TRUSTED_MATCH and reading.card.number != 1:
            turned = self._turned_in_place(frame, view, reading, corners, settled)
            if turned is not None:
                (reading, corners), trusted = turned, True
        if least_match is not None and not (trusted and reading.match >= least_match):
            return
        if look_around and not trusted and _shows_ink(reading):
            turns = AROUND_TURNS_DEG + (AROUND_READ_TURNS_DEG if reading.card is not None else ())
            known = len(settled)
            for other in self.finder.outlines_around(view, found, AROUND_SHIFT_MM, turns):
                far = turn_between(found.corners_view, other.corners_view) > FAR_TURN_DEG
                self._consider(frame, view, other, readings, settled, look_around=False,
                               least_match=FAR_TURN_TRUSTED_MATCH if far else None)
                if len(settled) > known:
                    break
        if trusted and reading.match < RECHECK_TRUSTED_BELOW:
            reading, corners = self._better_around(frame, view, found, reading, corners)
        if trusted:
            settled.append(corners)
        readings.append((reading, corners, None if crossed else found.score or 0.0))

    def _read_on_numeral(self, frame, corners: np.ndarray) -> tuple[CardReading, np.ndarray]:
        """The reading of ``corners``, and where it names a card whose numeral lies off its
        place, that of the outline moved onto it."""
        reading = self.reader.read_card(frame, corners)
        if reading.card is not None and np.hypot(*reading.shift) > OFF_PLACE_PX:
            corners = corners + reading.shift
            reading = self.reader.read_card(frame, corners)
        return reading, corners

    def _turned_in_place(self, frame, view, reading: CardReading, corners: np.ndarray,
                         settled: list) -> tuple[CardReading, np.ndarray] | None:
        """A card read on ``corners`` but matched too poorly to trust, read again on the
        outline turned about its centre by ``IN_PLACE_TURNS_DEG`` (moved onto its
        numeral): the best-matched reading of the same card, trusted, matched at least
        ``FAR_TURN_TRUSTED_MATCH`` and on an outline that shows a whole card there (or
        lies under cards read already); else None."""
        best = None
        for turn in IN_PLACE_TURNS_DEG:
            again, turned = self._read_on_numeral(frame, rotated(corners, turn))
            if (again.card == reading.card and self._trusted(again) and again.match >= FAR_TURN_TRUSTED_MATCH
                    and (best is None or again.match > best[0].match)):
                best = (again, turned)
        if best is None or (self.finder.verify(view, best[1]) is None and not _covered(best[1], settled)):
            return None
        return best

    def _better_around(self, frame, view, found, reading: CardReading,
                       corners: np.ndarray) -> tuple[CardReading, np.ndarray]:
        """The best-matched trusted reading of the outlines refined around ``found``
        (moved onto their numerals), where one matches better than ``reading`` by
        ``RECHECK_BETTER_BY``; else ``reading`` on ``corners``."""
        best = (reading, corners)
        turns = AROUND_TURNS_DEG + AROUND_READ_TURNS_DEG
        for other in self.finder.outlines_around(view, found, AROUND_SHIFT_MM, turns):
            again, moved = self._read_on_numeral(frame, other.corners_frame)
            if self._trusted(again) and again.match >= best[0].match + RECHECK_BETTER_BY:
                best = (again, moved)
        return best

    def _read_as_covered(self, frame, reading: CardReading,
                         corners: np.ndarray) -> tuple[CardReading, np.ndarray] | None:
        """A card partly under cards read already (see ``_covered``): None unless read
        whole with at least ``COVERED_TRUSTED_MATCH``; else its reading and outline turned
        about its centre to where its numeral matches best, and moved onto it (the edges
        of the cards on it pull the finder's turn). Never a 1: the first digit of a 1x
        whose second digit lies under the next card reads as one (seed 11, scene 885: a
        Y17 half under its neighbour read as Y1)."""
        if not (self._trusted(reading) and reading.match >= COVERED_TRUSTED_MATCH) or reading.card.number == 1:
            return None
        best = (reading, corners)
        for turn in COVERED_TURNS_DEG:
            turned = rotated(corners, turn)
            again = self.reader.read_card(frame, turned)
            if again.card == reading.card and again.match > best[0].match and self._trusted(again):
                best = (again, turned)
        reading, corners = best
        if np.hypot(*reading.shift) > OFF_PLACE_PX:
            moved = corners + reading.shift
            again = self.reader.read_card(frame, moved)
            if again.card == reading.card and again.match >= reading.match and self._trusted(again):
                return again, moved
        return best

    def _trusted(self, reading: CardReading) -> bool:
        """Read as a whole card: a numeral that matches well on a face clean where the deck prints nothing."""
        if reading.card is None or reading.match < TRUSTED_MATCH:
            return False
        eleven, ones = reading.card.number == 11, reading.card.number in (1, 11)
        return (reading.stray_ink <= self.max_stray_ink * (ELEVEN_STRAY_SHARE if eleven else 1.0)
                and reading.seam <= (ONES_MAX_SEAM if ones else MAX_SEAM)
                and reading.index_ink <= (ONES_MAX_INDEX_INK if ones else MAX_INDEX_INK))


def _shows_ink(reading: CardReading) -> bool:
    """Read as no whole card, but showing a deck's ink and something of a numeral."""
    return reading.colour_confidence >= AROUND_MIN_COLOUR and reading.match >= AROUND_MIN_MATCH


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
