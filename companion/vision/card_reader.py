"""Reading one card: its colour, its number and which way up it lies.

The finder gives the four corners of a fully visible card. The reader

1. orders them (long side vertical, the corner nearest the image's top-left first) and
   warps the card onto a 59 × 91 mm rectangle (:func:`warp_card`, 2 px/mm), so the face
   is upright or upside down, then reduces it to the matching scale (1 px/mm);
2. estimates the card's background everywhere — its paper, or on an inverse deck its
   colour fill — with a grey-scale dilation (erosion) wider than a stroke and a blur,
   and divides every pixel by it: a local white balance that cancels a warm lamp, a
   half-corrected camera white balance, a cream stock, shadows and vignetting. Where
   the background is brighter than the card's typical background (a glare spot) the
   excess is subtracted first, so numerals under glare keep their shape;
3. takes the numerals' colour (the pixels furthest from the background) and from it
   the ink's *absorption*, what it takes from the paper's light per channel
   (1 − ink/paper; on an inverse deck the fill is the ink, the numerals the paper).
   The absorption's chromaticity (opponent components over its grey part) has the
   ink's hue as its angle and its saturation as its length. A thin or blurred stroke,
   JPEG's coarse chroma or glare dilutes the ink: the saturation drops, the hue stays.
   The colour is told by hue and log saturation against the profile's inks, each a
   Gaussian narrow in hue and wide in saturation (wider still when the ink is pale or
   faint); where the paper saturates the sensor in a channel (a warm lamp on white
   card) the unknown overexposure is allowed for, or taken from what the frame's
   other cards tell (``paper``; steps 2, 3 and this one are :mod:`.ink`). Yellow
   (absorbs blue) and green (absorbs red and blue) stay apart even under 2700 K with
   the white balance only half corrected;
4. projects every pixel onto the background→numeral colour direction: a colour-free
   *glyph map* (0 background, 1 numeral), so one colour's numerals read every colour's
   cards, on paper and on inverse decks alike;
5. correlates the numeral box of the glyph map, as it lies and turned by 180°, with
   each number's template, a pixel either way (normalised cross-correlation: one
   matrix product). The best (number, turn) gives the number and the orientation; the
   underline of 6 and 9 is part of the templates, so an upside-down 9 is no 6.
   Correlation wants every stroke as strong as the template's: on a card with glare,
   and on one matched poorly, each stroke is also scaled by the strongest ink around
   it (:func:`~companion.vision.glyphs.evened_strokes`), and the better match stands;
   on an inverse card matched poorly under a glare spot, each stroke is also scaled by
   the share of its contrast the fill leaves it (``ink.numerals_room``), and that match
   stands for the number already likeliest;
6. takes the ink's colour again from the matched numeral's own strokes (step 3's
   strongest colour may be the table under an outline reaching over the card's edge,
   or a hand) and tells the colour from it. A card whose numeral leaves the colour in
   doubt has it measured on the deck's other print too (the corner indices and frame;
   on an inverse deck the fill against them), in the quarter of the card where that
   shows its ink strongest: a glare spot over the numeral washes out its ink (on an
   inverse deck saturates fill and numeral alike), while a corner lies in other light;
   where that names the same colour more surely, it stands;
7. turns the number's margin over the runner-up (per unit of how much their templates
   differ), its correlation, and the colour's posterior into one confidence; below the
   profile's ``min_confidence`` the card is unknown (``card`` None), never a guess;
8. of a card read, measures the *stray ink*: the share of the face where the deck
   prints nothing (the profile's face print) that shows ink. The table reader takes a
   reading with stray ink for an outline spanning two cards, or a card with something
   on it, and reports it unknown;
9. of a card read, measures two signs that the outline spans two cards of a fanned
   row: another card's edge running down its face (:func:`~.glyphs.seam_strength`),
   and a pair of corner indices in the middle of the face (:func:`~.glyphs.index_ink`).

The thresholds named here are fields of :data:`~companion.vision.thresholds.THRESHOLDS`;
``docs/reader.md`` tells what each trades and how long a card takes.
"""

from __future__ import annotations

import dataclasses
import functools
import math
from dataclasses import dataclass

import cv2
import numpy as np
from threadpoolctl import threadpool_limits

from ..cards import Card, Colour
from .ink import InkModel, Measurement, Strokes, ink_against_print, ink_on, measure, sigmoid
from .profile import CARD_MM, DEFAULT_THRESHOLDS, Profile
from .glyphs import (blank_face, evened_strokes, glyph_map, index_ink, seam_strength, shows_glare, soft_glyph_map,
                     stray_ink)
from .read_kernels import window_rows
from .thresholds import THRESHOLDS

DEFAULT_PX_PER_MM = 2.0


# --- geometry -------------------------------------------------------------------------


def _clockwise(corners) -> np.ndarray:
    points = np.asarray(corners, np.float64).reshape(-1, 2)
    if points.shape != (4, 2) or not np.isfinite(points).all():
        raise ValueError(f"a card needs 4 finite (x, y) corners, got {np.asarray(corners).shape}")
    # shoelace sign in image coordinates (y down): positive area = clockwise on screen
    (x0, y0), (x1, y1), (x2, y2), (x3, y3) = points.tolist()
    if x0 * y1 + x1 * y2 + x2 * y3 + x3 * y0 - (x1 * y0 + x2 * y1 + x3 * y2 + x0 * y3) < 0:
        points = points[[0, 3, 2, 1]]  # counter-clockwise given: same first corner, other way round
    return points


def _short_first(points: np.ndarray) -> bool:
    (x0, y0), (x1, y1), (x2, y2), (x3, y3) = points.tolist()
    return (math.hypot(x1 - x0, y1 - y0) + math.hypot(x3 - x2, y3 - y2)
            <= math.hypot(x2 - x1, y2 - y1) + math.hypot(x0 - x3, y0 - y3))


def upright_corners(corners) -> np.ndarray:
    """The corners clockwise, long side vertical, starting at the corner that makes the
    card as upright as it can be in the image: the face's top-left if the card lies
    upright, its bottom-right if it lies upside down."""
    points = _clockwise(corners)
    if not _short_first(points):
        points = points[[1, 2, 3, 0]]
    (_, y0), (_, y1), (_, y2), (_, y3) = points.tolist()
    if y0 + y1 > y2 + y3:  # the "top" edge is the lower one
        points = points[[2, 3, 0, 1]]
    return points


def face_corners(corners) -> np.ndarray:
    """The corners as a face's corners (top-left, top-right, bottom-right, bottom-left).

    Corners given that way (clockwise, first side a short one, as labels and readings
    give them) are kept; any other order is put into :func:`upright_corners` order."""
    points = _clockwise(corners)
    return points if _short_first(points) else upright_corners(points)


def warp_card(frame: np.ndarray, face: np.ndarray, px_per_mm: float,
              interpolation: int = cv2.INTER_LINEAR, pad_px: int = 0) -> np.ndarray:
    """The quadrilateral ``face`` (TL, TR, BR, BL) warped onto a 59 × 91 mm rectangle
    (with ``pad_px`` pixels of its surroundings on every side)."""
    width, height = round(CARD_MM[0] * px_per_mm), round(CARD_MM[1] * px_per_mm)
    # pixel centres at integers: the card's outer corners are the outer corners of the image
    low, right, bottom = pad_px - 0.5, width + pad_px - 0.5, height + pad_px - 0.5
    target = np.float32([[low, low], [right, low], [right, bottom], [low, bottom]])
    matrix = cv2.getPerspectiveTransform(np.float32(face), target)
    return cv2.warpPerspective(frame, matrix, (width + 2 * pad_px, height + 2 * pad_px), flags=interpolation,
                               borderMode=cv2.BORDER_REPLICATE)


def card_for_matching(frame: np.ndarray, face: np.ndarray, layout, pad_mm: int = 0) -> np.ndarray:
    """The card (corners ``face``, TL first) at the layout's matching scale, as the reader
    and the calibration see it: sampled at ``px_per_mm`` (nearest pixel), then averaged
    down. With ``px_per_mm`` at least twice the matching scale that is anti-aliased, and
    four times cheaper than interpolating every sample. ``pad_mm``: with this much of the
    card's surroundings on every side."""
    fine = layout.px_per_mm >= 2 * layout.match_px_per_mm
    card = warp_card(frame, face, layout.px_per_mm, cv2.INTER_NEAREST if fine else cv2.INTER_LINEAR,
                     round(pad_mm * layout.px_per_mm))
    width, height = layout.card_px(layout.match_px_per_mm)
    pad = round(pad_mm * layout.match_px_per_mm)
    size = (width + 2 * pad, height + 2 * pad)
    return card if card.shape[1::-1] == size else cv2.resize(card, size, interpolation=cv2.INTER_AREA)


def rectify(frame: np.ndarray, corners, px_per_mm: float = DEFAULT_PX_PER_MM) -> np.ndarray:
    """The card warped to a canonical ``round(91 s) × round(59 s)`` image (s = ``px_per_mm``).

    With corners that start at the face's top-left and run clockwise (as scene labels
    and :class:`CardReading` give them) the face comes out upright. With corners in any
    other order (the finder's), the long side is made vertical and the card comes out
    as upright as it lies in the frame: upright, or upside down if it lies that way.
    """
    return warp_card(frame, face_corners(corners), px_per_mm)


# --- reading ------------------------------------------------------------------------------


@dataclass(frozen=True)
class CardReading:
    """What the reader makes of one card.

    ``card`` is None when the reader is not sure enough (``confidence`` below the
    profile's threshold): unknown, never a guess. ``upside_down``: the face's top points
    down the image the corners were given in. ``corners``: the four corners starting at
    the face's top-left, clockwise on the face.
    """

    card: Card | None
    confidence: float
    upside_down: bool
    corners: np.ndarray | None = None
    colour: Colour | None = None  # the best colour and number, even when ``card`` is None
    number: int | None = None
    colour_confidence: float = 0.0
    number_confidence: float = 0.0
    match: float = 0.0  # the numeral's correlation with its template: highest where the outline is right
    shift: np.ndarray | None = None  # (x, y) frame pixels: where the numeral lies off its place on this outline
    # read cards only: share of the face where the deck prints nothing that shows ink (``stray_ink``)
    stray_ink: float = 0.0
    index_ink: float = 0.0  # a pair of corner indices in the middle of the face (see ``index_ink``; read cards only)
    seam: float = 0.0  # how strongly another card's edge runs down the face (``seam_strength``; read cards only)
    saturated: bool = False  # the paper saturates the sensor in some channel: its true level would tell the colour better
    glare: float = 0.0  # share of the face saturated in every channel (a glare spot; see ``ink.Measurement``)
    # inverse decks: share of the face where the fill leaves a numeral less than half its
    # contrast (``ink.Measurement.hidden``): a glare spot on a blue fill saturates only red
    # and green, and its white numeral fades all the same
    hidden: float = 0.0


def print_quarters(face_print: np.ndarray, boxes, margin_px: int) -> tuple[np.ndarray, ...]:
    """Where a deck prints outside its numeral's ``boxes`` (corner indices, frame), either way
    up, without the outer ``margin_px``, one bool mask a quarter of the card (those with
    any print): a glare spot lies over one part of a card, so the quarter whose ink shows
    strongest is the one it washes out least. A paper card's strongest ink at its edge may
    be the table beside an outline a pixel off, hence the margin; an inverse card's
    white rim there is print like its numeral."""
    other = ~blank_face(face_print, 0)
    for x0, y0, x1, y1 in boxes:
        other[y0:y1, x0:x1] = False
    h, w = other.shape
    inner = np.zeros_like(other)
    inner[margin_px:h - margin_px, margin_px:w - margin_px] = True
    other &= inner
    quarters = []
    for rows in (slice(0, h // 2), slice(h // 2, h)):
        for cols in (slice(0, w // 2), slice(w // 2, w)):
            quarter = np.zeros_like(other)
            quarter[rows, cols] = other[rows, cols]
            if quarter.any():
                quarters.append(quarter)
    return tuple(quarters)


def _shifted(ordered: np.ndarray, offset_mm: np.ndarray) -> np.ndarray:
    """An offset along the card's width and height (mm, on the outline ``ordered``, TL
    first) in frame pixels."""
    # in plain floats (the same operations as numpy's on each axis): on two values numpy's
    # cost per call is the whole cost
    (x0, y0), (x1, y1), (x2, y2), (x3, y3) = ordered.tolist()
    dx, dy = (float(v) for v in offset_mm)
    width, height = 2 * CARD_MM[0], 2 * CARD_MM[1]
    across = ((x1 - x0 + x2 - x3) / width, (y1 - y0 + y2 - y3) / width)
    down = ((x3 - x0 + x2 - x1) / height, (y3 - y0 + y2 - y1) / height)
    return np.array((dx * across[0] + dy * down[0], dx * across[1] + dy * down[1]))


def _stands_for(again: CardReading, first: CardReading) -> bool:
    """Whether a second look's reading stands for the first one: a card where the first was
    none, or the same kind of reading with its numeral matched better."""
    return (again.card is not None, again.match) > (first.card is not None, first.match)


@functools.cache
def _single_threaded_blas() -> None:
    """Numpy's BLAS on one thread for this process. The reader's products are small
    (a few million multiplications); a threaded BLAS wakes a thread per core for each,
    and on a busy machine (the camera, the display, the referee on a Pi) those threads
    wait for each other: measured here, 40 times slower."""
    threadpool_limits(1, user_api="blas")


class CardReader:
    """Reads cards with one deck's :class:`~companion.vision.profile.Profile`."""

    def __init__(self, profile: Profile):
        _single_threaded_blas()
        self.profile = profile
        layout = profile.layout
        self.px_per_mm = layout.px_per_mm
        self.match_scale = layout.match_px_per_mm
        self.match_size = layout.card_px(layout.match_px_per_mm)
        self.margin_px = round(layout.margin_mm * layout.match_px_per_mm)
        self.box, self.turned_box = layout.box_px(), layout.box_px(turned=True)
        self.search = layout.search_px()
        self.wide_search = round(THRESHOLDS.wide_search_mm * layout.match_px_per_mm)
        self.numbers = profile.numbers
        self._t = {**DEFAULT_THRESHOLDS, **profile.thresholds}
        self.blur = float(self._t["match_blur_px"])
        # zero-mean, unit-norm templates, upright and turned by 180°, as matrix columns; and
        # as they are (blurred) and squared, for matching only where numerals can show
        # (``_scores_where_shown``)
        rows, plain = [], []
        for turned in (False, True):
            for number in self.numbers:
                t = profile.templates[number].astype(np.float32)
                if self.blur > 0:
                    t = cv2.GaussianBlur(t, (0, 0), self.blur)
                if turned:
                    t = t[::-1, ::-1]
                plain.append(t.ravel())
                t = t - t.mean()
                rows.append((t / max(float(np.linalg.norm(t)), 1e-6)).ravel())
        self._templates = np.ascontiguousarray(np.stack(rows).T)  # (pixels, 2 * numbers)
        self._plain_templates = np.ascontiguousarray(np.stack(plain).T)
        self._plain_templates2 = self._plain_templates * self._plain_templates
        # how far apart two (number, turn) templates are: their difference's length
        gram = self._templates.T @ self._templates
        self._apart = np.sqrt(np.maximum(2.0 - 2.0 * gram, 1e-6))
        self.inks = InkModel(profile.colours, profile.inks, profile.colour_covariance, self._t)
        # each numeral's strokes (in the numeral box) and the masks its ink is taken on, upright and turned
        self._strokes = [Strokes(profile.templates[number][::step, ::step] >= 128, self.match_scale)
                         for step in (1, -1) for number in self.numbers]
        self._blank = None if profile.face_print is None else blank_face(profile.face_print, round(
            THRESHOLDS.stray_margin_mm * layout.match_px_per_mm))
        self._other_print = () if profile.face_print is None else print_quarters(
            profile.face_print, layout.boxes_px(), 0 if profile.inverse else self.margin_px)

    def number_scores(self, measurement: Measurement, search: int | None = None,
                      step: int = 1, pad: int = 0, evened: bool | None = None,
                      by_room: bool = False) -> tuple[np.ndarray, np.ndarray]:
        """Best correlation of each (turn, number) within ``search`` pixels of the numeral's
        place (default: the profile's), tried every ``step`` pixels, shape (2,
        len(numbers)), and where it was found: (x, y) pixels from the numeral's place,
        shape (2, len(numbers), 2). ``pad``: the measured card has this many pixels of its
        surroundings on every side. ``evened``: the strokes evened first
        (:func:`~.glyphs.evened_strokes`); by default where the card shows glare.
        ``by_room``: an inverse card's strokes scaled instead by the share of their contrast
        the fill leaves them (``Measurement.room``, at least ``room_floor``), and matched
        whole."""
        count = len(self.numbers)
        if self.turned_box == self.box:  # the numeral about the face's centre: one box either way up
            scores, offsets = self._scores_in(measurement, self.box, slice(None), search, step, pad, evened, by_room)
        else:  # off the centre: the upright templates where it lies upright, the turned ones where turned
            parts = [self._scores_in(measurement, box, columns, search, step, pad, evened, by_room)
                     for box, columns in ((self.box, slice(0, count)), (self.turned_box, slice(count, None)))]
            scores, offsets = (np.concatenate(part) for part in zip(*parts))
        return scores.reshape(2, count), offsets.reshape(2, count, 2)

    def _scores_in(self, measurement: Measurement, box: tuple[int, int, int, int], columns: slice,
                   search: int | None, step: int, pad: int, evened: bool | None,
                   by_room: bool) -> tuple[np.ndarray, np.ndarray]:
        """:meth:`number_scores` of the templates ``columns`` in the numeral ``box``: each
        template's best correlation, and where (x, y pixels from the box's place)."""
        x0, y0, x1, y1 = (v + pad for v in box)
        height, width = measurement.normalised.shape[:2]
        s = min(self.search if search is None else search, x0, y0, width - x1, height - y1)
        region = glyph_map(measurement, (x0 - s, y0 - s, x1 + s, y1 + s))
        if evened is None:
            evened = shows_glare(measurement)
        if by_room:
            room = measurement.room[y0 - s:y1 + s, x0 - s:x1 + s]
            region = region / np.maximum(np.minimum(room, np.float32(1.0)), np.float32(THRESHOLDS.room_floor))
        elif evened:
            region = evened_strokes(region, self.match_scale)
        if self.blur > 0:  # a slightly soft comparison forgives outlines a little off, here and in calibration
            region = cv2.GaussianBlur(region, (0, 0), self.blur)
        h, w = y1 - y0, x1 - x0
        windows, norms = window_rows(region, h, w, step)
        across = (region.shape[1] - w) // step + 1
        templates = self._templates[:, columns]
        scores = (windows @ templates) / norms[:, None]
        hidden = None
        if measurement.room is not None and not by_room:
            hidden = measurement.room[y0 - s:y1 + s, x0 - s:x1 + s] < THRESHOLDS.hidden_share
        if hidden is not None and hidden.any():
            hidden = window_rows(hidden.astype(np.float32), h, w, step)[0]
            where_shown = self._scores_where_shown(windows, hidden, columns)
            first = int(where_shown.max(axis=0).argmax())
            if first == int(scores.max(axis=0).argmax()):
                scores = where_shown
                window = int(scores[:, first].argmax())
                self._margins_where_told(scores[window], hidden[window], templates)
        best = scores.argmax(axis=0)
        offsets = np.empty((len(best), 2))
        offsets[:, 1], offsets[:, 0] = np.divmod(best, across)
        return scores.max(axis=0), offsets * step - s

    def _margins_where_told(self, scores: np.ndarray, hidden: np.ndarray, templates: np.ndarray) -> None:
        """Shrink (in place) every template's margin below the best one's score by the
        root of the share of their difference that can show (``hidden``: the best
        window's): a margin measured on a small part of what tells two numbers apart is
        mostly that part's noise. A window hidden for more than half, compared whole, has
        its margins shrunk all the same: a numeral mostly hidden is in doubt."""
        first = int(scores.argmax())
        difference = (templates[:, [first]] - templates) ** 2
        told = ((np.float32(1.0) - hidden) @ difference) / np.maximum(difference.sum(axis=0), 1e-6)
        scores += (scores[first] - scores) * (np.float32(1.0) - np.sqrt(np.clip(told, 0.0, 1.0)))

    def _scores_where_shown(self, windows: np.ndarray, hidden: np.ndarray, columns: slice) -> np.ndarray:
        """Each window's correlation with each template (windows × templates) over the
        pixels where a numeral can show (``hidden``: per window, 1 where it cannot; see
        ``ink.numerals_room``): in a glare spot's core on an inverse card the white
        numeral shows as fill, and compared there too a numeral matches too little for a
        whole card. Only where it names the number the whole window names best does it
        stand (:meth:`number_scores`): a 20 with its 2 in the core matches a 10 as well as
        a 20 on what shows. A window hidden for more than half is compared whole."""
        shown = np.float32(1.0) - hidden
        count = shown.sum(axis=1)
        shown[count < 0.5 * shown.shape[1]] = 1.0
        count = np.maximum(shown.sum(axis=1), 1.0)[:, None]
        seen = windows * shown
        seen_sum = seen.sum(axis=1)[:, None]
        seen_spread = (seen * windows).sum(axis=1)[:, None] - seen_sum * seen_sum / count
        plain = self._plain_templates[:, columns]
        template_sum = shown @ plain
        template_spread = shown @ self._plain_templates2[:, columns] - template_sum * template_sum / count
        covariance = seen @ plain - seen_sum * template_sum / count
        return covariance / np.sqrt(np.maximum(seen_spread * template_spread, 1e-12))

    def paper_level(self, frame: np.ndarray, corners, colour: Colour) -> np.ndarray | None:
        """The paper's true level in this light (R, G, B relative to its blue), told by a
        card whose colour is known (corners: frame pixels, any order): where its paper
        saturates a channel, by its ink (:meth:`InkModel.paper_level`); where it saturates
        none, as its paper shows it (a card in a dimmer part of the light: shading dims
        every channel alike, so it tells the level of the cards in the brighter part).
        On an inverse deck the paper is its numerals, white as the lamp's light."""
        _, measurement = self._measured(frame, upright_corners(corners))
        if not measurement.clipped.any():
            paper = measurement.paper
            return paper / paper[2]
        scores, offsets = self.number_scores(measurement)
        first, turned, _, _ = self._number(scores)
        return self.inks.paper_level(self._ink_of_numeral(measurement, first, turned, offsets), colour)

    def read_card(self, frame: np.ndarray, corners, paper: np.ndarray | None = None,
                  card_only: bool = False) -> CardReading:
        """Read the card whose four corners (frame pixels, any order) are ``corners``
        (``paper``: the paper's level in this light, see :meth:`paper_level`).
        ``card_only``: the caller wants only a card read (its place and checks), not what
        an unreadable outline shows: where the number is too unsure for a card, its colour
        is not measured (``colour`` None, ``colour_confidence`` 0).

        An outline a few millimetres off (on a pile the finder may take an edge of the
        card below for the top card's) moves the numeral out of its place: when the
        first reading is unsure (or sure but poorly matched: ``recheck_match``; a narrow
        numeral, a 1, fits a stroke of a wider one lying a few millimetres off its place,
        and is sure of it) and there is ink on the card, its strokes are evened (unless
        glare had them evened already) and, where that reads better, it stands; then the
        numeral is looked for again, ``wide_search_mm`` around its place in steps of two
        pixels (enough to tell where it lies: a caller that moves the outline there reads
        it again)."""
        ordered = upright_corners(corners)
        card, m = self._measured(frame, ordered)
        evened = shows_glare(m)
        scores, offsets = self.number_scores(m, evened=evened)
        reading = self._read(m, ordered, scores, offsets, paper=paper, card_only=card_only)
        # unsure or poorly matched, and not evened for glare: the strokes may show unevenly
        # (a sheen of glare over part of the numeral, short of ``glare_share``; a light
        # gradient across an inverse card, whose brighter part the background's excess
        # over its typical level is taken off as glare; a smeared thin stroke). Evened
        # they match as they should; every card evened loses faint ink to the paper's
        # grain it lifts (a cream G5 0.71 -> 0.30), hence only here, and the better reading stands
        if not evened and self._worth_another_look(reading, m):
            again = self._look_again(m, ordered, self.number_scores(m, evened=True), reading, paper, card_only)
            if again is not None and _stands_for(again, reading):
                reading, evened = again, True
        # an inverse card under glare, unsure or poorly matched: where its fill is bright the
        # white numeral shows only part of its contrast (the sensor saturates), so its
        # strokes fade across the spot's light; scaled by the share the fill leaves them
        # they match as they should. It stands only for the number already likeliest.
        if m.room is not None and self._worth_another_look(reading, m):
            again = self._look_again(m, ordered, self.number_scores(m, by_room=True), reading, paper, card_only)
            if again is not None and again.number == reading.number and _stands_for(again, reading):
                reading = again
        # unsure or poorly matched: the numeral may lie further off. A numeral matched well
        # at the edge of the narrow look is not looked for further: that look named no other
        # card and moved no outline closer to its card, but cost a tenth of a frame's time
        if self.wide_search > self.search and self._worth_another_look(reading, m):
            wider = self._look_again(m, ordered, self.number_scores(m, self.wide_search, step=2, evened=evened),
                                     reading, paper, card_only)
            if wider is not None and wider.number != reading.number and wider.match < reading.match:
                # another number, matched worse than the first one at its place: the
                # coarse steps missed a peak; which number wins needs every step
                wider = self._read(m, ordered, *self.number_scores(m, self.wide_search, evened=evened),
                                   paper=paper, card_only=card_only)
            if wider is not None and _stands_for(wider, reading):
                reading = wider
        if reading.card is None:
            return reading  # the checks below tell a card read whole from pieces of two: no card, nothing to tell
        seam = seam_strength(card)
        if self._blank is None:
            return dataclasses.replace(reading, seam=seam)
        glyphs = soft_glyph_map(m, self.blur)
        return dataclasses.replace(reading, seam=seam, stray_ink=stray_ink(glyphs, self._blank),
                                   index_ink=index_ink(glyphs, self._blank, min(self.box[1], self.turned_box[1]) - 1))

    def look_further(self, frame: np.ndarray, corners, reach_mm: int) -> CardReading:
        """Where on an outline (frame pixels) the numeral lies when it lies up to
        ``reach_mm`` off its place (the reading's ``shift``), looked for every two pixels
        on the card warped with that much of its surroundings: an outline that far off
        (the edges of a card below won the outline) cuts off a numeral as wide as the
        card, out of reach of :meth:`read_card`'s own look. A caller moves the outline
        there and reads it again; this reading has none of the checks of a card read
        whole."""
        ordered = upright_corners(corners)
        pad = round(reach_mm * self.match_scale)
        _, m = self._measured(frame, ordered, reach_mm)
        scores, offsets = self.number_scores(m, pad, step=2, pad=pad)
        return self._read(m, ordered, scores, offsets, pad)

    def _measured(self, frame: np.ndarray, ordered: np.ndarray, pad_mm: int = 0) -> tuple[np.ndarray, Measurement]:
        """The card at matching scale (with ``pad_mm`` of its surroundings) and its
        measurement, taken from the card alone."""
        card = card_for_matching(frame, ordered, self.profile.layout, pad_mm)
        margin = self.margin_px + round(pad_mm * self.match_scale)
        return card, measure(card, self.profile.inverse, self.match_scale, margin)

    def _number(self, scores: np.ndarray) -> tuple[int, bool, float, float]:
        """(index of the best number, turned, its correlation, the number's confidence)."""
        t = self._t
        best = scores.max(axis=0)  # per number, either way up
        order = np.argsort(best)[::-1]
        first = int(order[0])
        runner_up = float(best[order[1]]) if len(order) > 1 else -1.0
        turned = bool(scores[1, first] > scores[0, first])
        # the margin over the runner-up, per unit of how different their templates are:
        # a 6 and an upside-down 9 differ only by the underline, so a small margin between
        # them says as much as a large one between a 3 and a 17
        margin = float(best[first]) - runner_up
        if len(order) > 1:
            second = int(order[1])
            a = int(turned) * len(self.numbers) + first
            b = int(scores[1, second] > scores[0, second]) * len(self.numbers) + second
            margin /= float(self._apart[a, b])
        number_conf = sigmoid(t["number_scale"] * (margin - t["number_offset"]))
        number_conf *= sigmoid(t["score_scale"] * (float(best[first]) - t["min_score"]))
        return first, turned, float(best[first]), number_conf

    def _worth_another_look(self, reading: CardReading, m: Measurement) -> bool:
        """Unsure or poorly matched (``recheck_match``), on a card that shows ink."""
        t = self._t
        return ((reading.card is None or reading.match < THRESHOLDS.recheck_match)
                and t["min_strength"] <= m.strength <= t["max_strength"])

    def _look_again(self, m: Measurement, ordered: np.ndarray, looked: tuple[np.ndarray, np.ndarray],
                    reading: CardReading, paper: np.ndarray | None, card_only: bool) -> CardReading | None:
        """The reading of another look's number scores and offsets (``looked``), or None
        where it could not stand for ``reading`` (:func:`_stands_for`), as told before its
        colour (most of a reading's cost) is measured: a card needs its number's
        confidence at least (the colour's is at most 1)."""
        scores, offsets = looked
        ranked = self._number(scores)
        could_be_card = ranked[3] >= self._t["min_confidence"]
        matches_better = float(scores.max()) > reading.match
        if reading.card is not None:
            could_stand = could_be_card and matches_better
        else:
            could_stand = could_be_card if card_only else (could_be_card or matches_better)
        if not could_stand:
            return None
        return self._read(m, ordered, scores, offsets, paper=paper, card_only=card_only, ranked=ranked)

    def _ink_of_numeral(self, m: Measurement, first: int, turned: bool, offsets: np.ndarray,
                        pad: int = 0, on_strokes: bool = True, darkest_everywhere: bool = False) -> Measurement:
        """The measurement with its ink taken from the strokes of the numeral matched (the
        ``first`` number, ``turned`` or not, found at ``offsets``; ``on_strokes`` and
        ``darkest_everywhere``: see :func:`~.ink.ink_on`)."""
        dx, dy = offsets[int(turned), first].astype(int) + pad
        box = self.turned_box if turned else self.box
        return ink_on(m, self._strokes[int(turned) * len(self.numbers) + first], box[1] + dy, box[0] + dx,
                      self.profile.inverse, on_strokes, darkest_everywhere)

    def _read(self, m: Measurement, ordered: np.ndarray, scores: np.ndarray, offsets: np.ndarray,
              pad: int = 0, paper: np.ndarray | None = None, card_only: bool = False,
              ranked: tuple[int, bool, float, float] | None = None) -> CardReading:
        """The reading of number scores and offsets (``ranked``: their :meth:`_number`, where known)."""
        t = self._t
        first, turned, match, number_conf = self._number(scores) if ranked is None else ranked
        number = self.numbers[first]
        shift = _shifted(ordered, offsets[int(turned), first] / self.match_scale)
        face = np.roll(ordered, 2, axis=0) if turned else ordered
        if card_only and number_conf < t["min_confidence"]:  # no colour can make it a card (its confidence is at most 1)
            return CardReading(None, 0.0, turned, face.astype(np.float32), None, number, 0.0, number_conf, match, shift,
                               saturated=bool(m.clipped.any()), glare=m.glare,
                               hidden=m.hidden_share)
        colour, colour_conf = self.inks.colour(
            self._ink_of_numeral(m, first, turned, offsets, pad, match >= THRESHOLDS.ink_taken_min_match,
                                 darkest_everywhere=paper is not None), paper)
        if self._other_print and pad == 0 and colour_conf < t["min_confidence"]:
            # a colour in doubt is measured on the deck's other print too, where its ink shows strongest
            inked = max((ink_against_print(m, where) for where in self._other_print), key=lambda ink: ink.strength)
            elsewhere, elsewhere_conf = self.inks.colour(inked, paper)
            if elsewhere == colour and elsewhere_conf > colour_conf:
                colour_conf = elsewhere_conf
        confidence = number_conf * colour_conf
        card = Card(colour, number) if confidence >= t["min_confidence"] else None
        return CardReading(card, confidence, turned, face.astype(np.float32), colour, number, colour_conf, number_conf,
                           match, shift, saturated=bool(m.clipped.any()), glare=m.glare,
                           hidden=m.hidden_share)

    def read_cards(self, frame: np.ndarray, cards) -> list[CardReading]:
        return [self.read_card(frame, corners) for corners in cards]


__all__ = ["CardReader", "CardReading", "card_for_matching", "face_corners", "rectify", "upright_corners", "warp_card"]
