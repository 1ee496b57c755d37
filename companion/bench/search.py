"""The search that found the cards before the card detector (``detect.py``) did.

:class:`SearchingReader` reads a frame as :class:`~companion.vision.table_reader.TableReader`
does, but finds the cards by their edges (``find.py``), by numerals printed on paper and
by colour fills (``search_seeds.py``), in the steps told in ``docs/reader.md``. It is
slower and misses more than the detector (``elfer bench vision --search`` measures it
beside), and stays for comparison: a new model of the detector must beat it.
"""

from __future__ import annotations

import math

import numpy as np

from ..vision.card_reader import CardReading
from ..vision.find import LookIn
from ..vision.markers import MARKER_SIZE_MM, corner_positions_mm
from ..vision.outlines import apart_mm, folded, inside, near, rotated, same_place, turn_between, turn_deg
from ..vision.table_reader import TableReader, _covered, _shows_ink
from ..vision.thresholds import THRESHOLDS
from .search_seeds import SEED_PX_PER_MM, fill_seed_groups, numeral_seed_groups

# An outline not read as a whole card but showing a deck's ink and a trace of a numeral:
# outlines refined from starts this far to each side and this much turned are read too;
# where its numeral was read (ink where the deck prints none, or a poor match: a top card
# turned against the one below), turned further too. Turning unread outlines further
# finds more cards, but more outlines across fanned rows too.
AROUND_SHIFT_MM, AROUND_TURNS_DEG, AROUND_READ_TURNS_DEG = 8.0, (-5.0, 5.0), (-10.0, 10.0, -18.0, 18.0)

# An outline that settled this much turned against the one it was looked for around (the
# card on top of a pile turned against it) counts only when read whole with at least this
# match: so far turned, an outline across a fanned row can piece a numeral together.
FAR_TURN_DEG = 13.0

# A card read whole but matched this poorly may lie turned in its outline (a pile's edges
# won it): a numeral so turned matches another number's template as well as its own. The
# outlines refined around it are read too, and one that matches better by this much wins.
RECHECK_TRUSTED_BELOW, RECHECK_BETTER_BY = 0.9, 0.05

SAME_PLACE_MM, SAME_TURN_DEG = 9.0, 6.0  # a numeral seed this near an outline read already adds nothing
# An outline read as no card may lie this far off its card (mm; the edges of the card
# below won it), the numeral cut off: the reader looks for the numeral this far around.
# An outline moved that far on the numeral's word alone must match better than
# ``THRESHOLDS.trusted_match``: so far off, one 1 of an 11 or the 9 of a 19 can pass for a card.
FURTHER_MM, FURTHER_TRUSTED_MATCH = 12, 0.88
# Outlines looked for around seeds per frame at most (strongest seeds first; seeds on
# cards read already cost nothing): a busy cloth gives many, and the cards it hides from
# the edges often come after a dozen of its seeds. More looks cost time on every busy frame.
MAX_SEED_LOOKS = 30
# Seeds of faint ink only (``search_seeds.numeral_seed_groups``) come after all others,
# with a budget of their own: on a patterned cloth the others use up theirs.
MAX_FAINT_SEED_LOOKS = 6
# On a deck filled with colour the later seeds are paper numerals in fill that no
# card-shaped region explains (``search_seeds.fill_seed_groups``: the last card of a fanned
# row, a card on a table as saturated as the fill), most of them the strips of a row's
# other cards, so they get a few looks and no outlines around. A numeral's centre lies half
# a card's width inside its card: paper in the fill this near a card read already is where
# its rim meets its neighbours'.
MAX_FILL_NUMERAL_LOOKS, FILL_NUMERAL_CLEARANCE_MM = 4, 15
# A numeral seed where an outline centred there and turned alike was read as unknown
# already: the card on top may lie turned against the pile whose edges won that outline.
# Outlines are looked for from the seed turned this far either way (at most this many
# seeds a frame), and one counts only when turned at least this much against every
# outline read there: one turned alike reads the same numeral again, by chance a little
# better, and so a fanned row's strips can pass for a card. A seed whose own outline reads
# as no card but shows a deck's ink gets these looks too (a card turned 10–15° on its
# pile). An outline turned alike counts where it lies elsewhere (``SAME_PLACE_MM`` from
# every outline read there).
SEED_TURNS_DEG, MAX_TURNED_LOOKS, TURNED_AGAINST_DEG = (-10.0, 10.0, -18.0, 18.0, -26.0, 26.0), 12, 10.0

# A card in the middle of a row (``THRESHOLDS.covered_trusted_match``): its neighbours'
# edges pull the outline's turn too, so it is turned about its centre by each of these and
# kept where the numeral matches best.
COVERED_TURNS_DEG = (-6.0, -4.0, -2.0, 2.0, 4.0, 6.0)

MARKER_REACH_MM = 0.5 * MARKER_SIZE_MM + 10  # a numeral seen this near a play-area marker's centre is the marker


class SearchingReader(TableReader):
    """A :class:`~companion.vision.table_reader.TableReader` that finds the cards by the search."""

    def _detector(self):
        return None


    def _find_cards(self, frame, view, readings: list, settled: list, look_in: LookIn | None) -> None:
        """Cards found by the edges, the numerals and the colour fills."""
        for found in self.finder.outlines(view, settled, look_in):
            self._consider(frame, view, found, readings, settled)
        if view.mapped:
            self._look_at_numerals(frame, view, readings, settled, look_in)
            self._look_further(frame, view, readings, settled)

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
                    # the edges pulled the outline off the card (a patterned cloth): the numeral tells its place
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
                           least_match=THRESHOLDS.far_turn_trusted_match if far else None)

    def _look_further(self, frame, view, readings: list, settled: list) -> None:
        """Outlines read as no card but showing a deck's ink, where no card was read: the
        numeral is looked for further around (``CardReader.look_further``), and where it is
        read as a card the outline is moved onto it, checked there and read again; kept
        only when read whole and well matched there."""
        looked: list[np.ndarray] = []
        for reading, corners, _ in list(readings):
            centre = np.mean(corners, axis=0)
            if (reading.card is not None or reading.colour_confidence < THRESHOLDS.around_min_colour
                    or inside(centre, settled) or inside(centre, looked)):
                continue
            looked.append(corners)
            further = self.reader.look_further(frame, corners, FURTHER_MM)
            if further.card is None or np.hypot(*further.shift) <= THRESHOLDS.off_place_px:
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
        if reading.card is not None and (found.score is None or np.hypot(*reading.shift) > THRESHOLDS.off_place_px):
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
        if (reading.card is not None and not trusted and reading.match < THRESHOLDS.trusted_match
                and reading.card.number != 1):
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
                               least_match=THRESHOLDS.far_turn_trusted_match if far else None)
                if len(settled) > known:
                    break
        if trusted and reading.match < RECHECK_TRUSTED_BELOW:
            reading, corners = self._better_around(frame, view, found, reading, corners)
        if trusted:
            settled.append(corners)
        readings.append((reading, corners, None if crossed else found.score or 0.0))

    def _turned_in_place(self, frame, view, reading: CardReading, corners: np.ndarray,
                         settled: list) -> tuple[CardReading, np.ndarray] | None:
        """A card read on ``corners`` but matched too poorly to trust, read again on the
        outline turned about its centre by ``THRESHOLDS.in_place_turns_deg`` (moved onto its
        numeral): the best-matched reading of the same card, trusted, matched at least
        ``THRESHOLDS.far_turn_trusted_match`` and on an outline that shows a whole card there (or
        lies under cards read already); else None."""
        best = self._best_trusted(frame, [rotated(corners, turn) for turn in THRESHOLDS.in_place_turns_deg],
                                  lambda again: again.card == reading.card)
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
        whole with at least ``THRESHOLDS.covered_trusted_match``; else its reading and
        outline turned about its centre to where its numeral matches best, and moved onto
        it (the edges of the cards on it pull the finder's turn). Never a 1: the first
        digit of a 17 half under its neighbour reads as a 1."""
        trusted = self._trusted(reading) and reading.match >= THRESHOLDS.covered_trusted_match
        if not trusted or reading.card.number == 1:
            return None
        best = (reading, corners)
        for turn in COVERED_TURNS_DEG:
            turned = rotated(corners, turn)
            again = self.reader.read_card(frame, turned)
            if again.card == reading.card and again.match > best[0].match and self._trusted(again):
                best = (again, turned)
        reading, corners = best
        if np.hypot(*reading.shift) > THRESHOLDS.off_place_px:
            moved = corners + reading.shift
            again = self.reader.read_card(frame, moved)
            if again.card == reading.card and again.match >= reading.match and self._trusted(again):
                return again, moved
        return best
