"""Where numerals are printed on paper, or faces filled with colour: places to look for
cards the edges missed.

The finder (``find.py``) starts from outlines the card's edges support. On a pile, white
card on white card shows hardly an edge, and blur or a busy cloth can hide the rest, so
a card can lie there plainly readable without a candidate. Every card has its numeral in
the middle, and a numeral is ink surrounded by paper: ``numeral_seeds`` finds such
patches of ink in the top-down view, and the pipeline refines a card outline around
each one the finder did not already explain. A deck whose faces are filled with colour
prints its numerals in paper: there ``fill_seeds`` finds the card-shaped regions of colour.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from ..vision.profile import CARD_MM

SEED_PX_PER_MM = 1.0  # the finder's fine view
PAPER_QUANTILE = 99.0  # the paper's brightness: a high quantile of the area (cards are its brightest part)…
PAPER_SHARE = 0.6  # … and paper is at least this share of it (shading, warm light)
CLOSE_MM = 15  # numerals and indices are holes in the paper at most this wide
RIM_MM = 6  # a card's border and a card below peeking out: no numeral this near a paper region's edge
NUMERAL_MM = 24  # box over which ink is summed: about one numeral
MIN_INK = 0.12  # share of that box that must be ink
SPACING_MM = 30  # seeds closer than this are one
CENTRE_MM = 40  # a seed moves to the centre of the ink this wide around it: the whole numeral
MAX_SEEDS = 36  # most lie on cards found already: the caller skips those
STROKE_MM = 12  # ink in pieces smaller than this (corner indices, specks) marks no numeral: digits are 20 mm or more
# … and in pieces larger than this neither: no deck's digit is (numeral boxes are at most
# 55 × 61 mm); the bands of a checked cloth seen through the gaps between cards are
LARGEST_STROKE_MM = 65
# the view's brightest part tinted at least this much (its strongest channel over its
# weakest): look again with the tint taken out (white board under a 3,000 K lamp with
# half its cast left: 1.6; cream board under the synthetic table's warmest lamps: 1.8) …
TINTED_PAPER = 1.15
# … but not beyond what a lamp makes of paper (2,700 K with no white balance at all: 2.9):
# a brightest part tinted more is no paper but the table (wood), and greyed it would be
LAMP_TINT_MAX = 3.0
INK_SATURATION = 80  # inside a paper region, what is darker than paper or this saturated (HSV, 0–255) is ink
# … and, for seeds looked at after all others, what is darker than this share of the
# brightest paper within this reach
FAINT_INK, FAINT_REACH_MM = 0.9, 9
# A deck whose faces are filled with colour: the fill is at least this saturated (HSV,
# 0–255; on 1,500 cards of the bench 95 % showed more over most of the face) …
FILL_SATURATION = 100
FILL_CUT_MM = 5  # … a region joined to others only by bridges thinner than this is cut off them …
FILL_SHRINKS_MM = (0, 3)  # … and a region that is no card so cut is looked at again shrunk by each of these
RIM_LINE_MM = 4  # paper in the fill thinner than this is a card's rim, not a numeral's stroke
FILL_PAPER_SATURATION = 60  # paper within the fill is at most this saturated: a pale wood's grain is more
MAX_FILL_NUMERAL_SEEDS = 12  # the pipeline looks at only a few: the strongest
FILL_SIZE = (0.85, 1.25)  # a region filled with colour this many times a card's size, either way, is a card …
FILL_SOLID = 0.85  # … if it fills this share of its smallest rectangle
# A region of fill no card's shape but at least this share of a card's area may hold a
# card's numeral: a card's fill joined to others, or split by its pale numeral
FILL_PART = 0.25


def numeral_seeds(view_bgr: np.ndarray, px_per_mm: float = SEED_PX_PER_MM,
                  avoid: np.ndarray | None = None, avoid_mm: float = 0.0) -> list[tuple[float, float, float]]:
    """Likely numeral centres (x, y in view pixels) with the angle (radians) of the paper
    region around each, strongest first; none within ``avoid_mm`` of the points ``avoid``
    (N × 2 view pixels: the play-area markers, black print on white too). Works on
    paper-faced decks; a deck whose face is filled with colour (inverse) shows its paper
    numerals as holes in no paper and gives no seeds here.

    Under a warm lamp white or cream paper looks orange, as saturated as a wood or a
    cloth, and gives no seeds: where the brightest part of the view (the paper) is tinted,
    the view is looked at again with that tint taken out, and its seeds follow the first
    look's (the first look keeps the colour inks, which the balance can make pale)."""
    return [seed for group in numeral_seed_groups(view_bgr, px_per_mm, avoid, avoid_mm) for seed in group]


def numeral_seed_groups(view_bgr: np.ndarray, px_per_mm: float = SEED_PX_PER_MM, avoid: np.ndarray | None = None,
                        avoid_mm: float = 0.0) -> tuple[list, list]:
    """:func:`numeral_seeds` in two groups: those of ink darker than paper or saturated,
    and then those of faint ink only (a pale ink blurred by motion or washed out by a
    glare spot), for a caller that gives each group its own budget: a busy cloth gives
    dozens of the first kind."""
    grey = cv2.cvtColor(view_bgr, cv2.COLOR_BGR2GRAY)
    # both looks take brightness from the view as it is: its faint ink is the same in both
    reach = np.ones((_odd(FAINT_REACH_MM * px_per_mm),) * 2, np.uint8)
    faint = grey < FAINT_INK * cv2.dilate(cv2.GaussianBlur(grey, (3, 3), 0), reach).astype(np.float32)
    return _looked_at_twice(view_bgr, grey, lambda view: _seeds_in(view, grey, faint, px_per_mm, avoid, avoid_mm),
                            SPACING_MM * px_per_mm, MAX_SEEDS)


def _looked_at_twice(view_bgr: np.ndarray, grey: np.ndarray, look, spacing: float, most: int) -> tuple[list, ...]:
    """The seeds ``look`` finds in the view, followed, where the view's paper is tinted
    (a warm lamp), by those it finds in the view with the tint taken out that lie at
    least ``spacing`` from every other; ``most`` in all. ``look`` gives its seeds in
    groups, and so does this: a later group's seeds, from both views, lie ``spacing``
    from every seed of an earlier one, ``most`` in each group."""
    plain = look(view_bgr)
    balanced = _white_balanced(view_bgr, grey)
    looks = [plain] if balanced is None else [plain, look(balanced)]
    groups: list[list] = []
    for group in range(len(plain)):
        seeds = list(plain[0][:most]) if group == 0 else []
        earlier = [seed for taken in groups for seed in taken]
        for found in looks[1 if group == 0 else 0:]:
            for x, y, angle in found[group]:
                if len(seeds) >= most:
                    break
                if all(math.hypot(x - sx, y - sy) >= spacing for sx, sy, _ in seeds + earlier):
                    seeds.append((x, y, angle))
        groups.append(seeds)
    return tuple(groups)


def _white_balanced(view_bgr: np.ndarray, grey: np.ndarray) -> np.ndarray | None:
    """The view with its brightest part (the cards' paper) made grey, or None where that
    part is grey enough already, tinted beyond any lamp, or too dark to tell."""
    step = 3
    sample = view_bgr[::step, ::step].reshape(-1, 3)
    coarse = grey[::step, ::step].ravel()
    bright = coarse >= np.percentile(coarse, PAPER_QUANTILE)
    paper = np.median(sample[bright], axis=0).astype(np.float64)
    if paper.min() < 1 or not TINTED_PAPER <= paper.max() / paper.min() <= LAMP_TINT_MAX:
        return None
    gains = (paper.max() / paper).astype(np.float32)
    return cv2.convertScaleAbs(view_bgr.astype(np.float32) * gains)


def _seeds_in(view_bgr: np.ndarray, grey: np.ndarray, faint: np.ndarray, px_per_mm: float,
              avoid: np.ndarray | None, avoid_mm: float) -> tuple[list, list]:
    """One look for numerals (see :func:`numeral_seeds`), paper told by ``view_bgr``'s
    saturation and ``grey``'s brightness: the seeds of ink darker than paper or
    saturated, and those of that ink and the ``faint`` ink together (a pale ink blurred
    by motion or washed out by a glare spot is neither, but still darker than the paper
    right around it)."""
    saturation = cv2.cvtColor(view_bgr, cv2.COLOR_BGR2HSV)[..., 1]
    pale = saturation < INK_SATURATION  # card stock, white or cream; wood and most cloths are more saturated
    sample = grey[::3, ::3][pale[::3, ::3]]
    if sample.size < 100:
        return [], []
    rank = int(PAPER_QUANTILE / 100 * (sample.size - 1))
    level = float(np.partition(sample, rank)[rank])
    if level < 40:
        return [], []
    paper = ((grey >= PAPER_SHARE * level) & pale).astype(np.uint8)
    inside, regions = _inside_faces(paper, px_per_mm)
    strokes = (STROKE_MM * px_per_mm, LARGEST_STROKE_MM * px_per_mm)
    seeds = _numeral_peaks(_strokes(inside & (paper == 0), *strokes), regions, px_per_mm, avoid, avoid_mm)
    faint_seeds = _numeral_peaks(_strokes(inside & ((paper == 0) | faint), *strokes), regions, px_per_mm, avoid,
                                 avoid_mm)
    return seeds, faint_seeds


def _inside_faces(faces: np.ndarray, px_per_mm: float) -> tuple[np.ndarray, tuple]:
    """Where a numeral may lie in ``faces`` (uint8 mask of the cards' paper, or of their
    fill): regions with their numerals' holes closed over, without a rim at their edges,
    and the outlines of those regions."""
    close = _odd(CLOSE_MM * px_per_mm)
    cards = cv2.morphologyEx(faces, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (close, close)))
    rim = _odd(2 * RIM_MM * px_per_mm)
    inside = cv2.erode(cards, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (rim, rim))) > 0
    regions, _ = cv2.findContours(cards, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    return inside, regions


def _numeral_peaks(ink: np.ndarray, regions, px_per_mm: float, avoid: np.ndarray | None,
                   avoid_mm: float, most: int = MAX_SEEDS) -> list[tuple[float, float, float]]:
    """Seeds where ``ink`` (bool) is densest over a numeral's size, strongest first, with
    the angle of the paper region (``regions``) each lies in."""
    box = _odd(NUMERAL_MM * px_per_mm)
    density = cv2.boxFilter(ink.astype(np.float32), -1, (box, box))
    spacing = _odd(SPACING_MM * px_per_mm)
    peaks = (density >= cv2.dilate(density, np.ones((spacing, spacing), np.uint8))) & (density >= MIN_INK)
    ys, xs = np.nonzero(peaks)
    order = np.argsort(-density[ys, xs], kind="stable")
    # a density plateau is hundreds of peaks: each seed strikes out the peaks near it at
    # once, rather than each peak being held against every seed
    px, py = xs[order].astype(np.float64), ys[order].astype(np.float64)
    open_ = np.ones(len(order), bool)
    if avoid is not None and len(avoid):
        avoid = np.asarray(avoid, np.float64).reshape(-1, 2)
        open_ &= np.hypot(px[:, None] - avoid[:, 0], py[:, None] - avoid[:, 1]).min(axis=1) >= avoid_mm * px_per_mm
    seeds: list[tuple[float, float, float]] = []
    start = 0
    while len(seeds) < most and start < len(open_):
        i = start + int(np.argmax(open_[start:]))  # the first open peak, without listing them all
        if not open_[i]:
            break
        x, y = _ink_centre(ink, px[i], py[i], CENTRE_MM * px_per_mm)
        seeds.append((x, y, _region_angle(regions, (x, y))))
        start = i + 1
        open_[start:] &= np.hypot(px[start:] - x, py[start:] - y) >= SPACING_MM * px_per_mm
    return seeds


def fill_seeds(view_bgr: np.ndarray, px_per_mm: float = SEED_PX_PER_MM, avoid: np.ndarray | None = None,
               avoid_mm: float = 0.0) -> list[tuple[float, float, float]]:
    """Centres (x, y in view pixels) and turns (radians) of cards of a deck whose faces
    are filled with colour (inverse), whose paper numerals give ``numeral_seeds`` nothing
    to find: the regions filled with colour the size and shape of a card, then the paper
    numerals in regions of fill that are not (see :func:`fill_seed_groups`)."""
    return [seed for group in fill_seed_groups(view_bgr, px_per_mm, avoid, avoid_mm) for seed in group]


def fill_seed_groups(view_bgr: np.ndarray, px_per_mm: float = SEED_PX_PER_MM, avoid: np.ndarray | None = None,
                     avoid_mm: float = 0.0) -> tuple[list, list]:
    """:func:`fill_seeds` in two groups. First the regions filled with colour the size and
    shape of a card, cut off others by bridges thinner than ``FILL_CUT_MM`` or shrunk by
    ``FILL_SHRINKS_MM`` (a neighbour's shadow, a blurred rim between two cards of a row):
    blur that wipes out a card's edges leaves its colour. A region of a cloth's colour
    (wood, a checked cloth) is larger or of another shape; a card lying on such colour
    joins it and is not seen there. Then, ``SPACING_MM`` from those, paper numerals in
    the fill: the last card of a fanned row is a region of fill with the rest of the row;
    none within ``avoid_mm`` of the points ``avoid`` (the play-area markers' paper shows
    as such on a saturated table). Under a warm lamp a pale cloth is as saturated as the
    fill: as :func:`numeral_seeds`, the view is looked at again with the paper's tint
    taken out."""
    grey = cv2.cvtColor(view_bgr, cv2.COLOR_BGR2GRAY)
    return _looked_at_twice(view_bgr, grey, lambda view: _filled_regions(view, px_per_mm, avoid, avoid_mm),
                            SPACING_MM * px_per_mm, MAX_SEEDS)


def _filled_regions(view_bgr: np.ndarray, px_per_mm: float, avoid: np.ndarray | None,
                    avoid_mm: float) -> tuple[list, list]:
    """One look for cards filled with colour (see :func:`fill_seed_groups`): card-shaped
    regions, and paper numerals within the fill."""
    hsv = cv2.cvtColor(view_bgr, cv2.COLOR_BGR2HSV)
    saturated = (hsv[..., 1] >= FILL_SATURATION).astype(np.uint8)
    cut = _odd(FILL_CUT_MM * px_per_mm)
    fill = cv2.morphologyEx(saturated, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (cut, cut)))
    cards: list[tuple[float, float, float]] = []
    unexplained: list[tuple[int, int, int, int]] = []
    for shrink_mm in FILL_SHRINKS_MM:
        size = _odd(2 * shrink_mm * px_per_mm)
        shrunk = cv2.erode(fill, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size, size))) if shrink_mm else fill
        shaped, no_card = _card_shaped(shrunk, px_per_mm, shrink_mm)
        if not shrink_mm:
            unexplained = no_card
        for x, y, angle in shaped:
            if all(math.hypot(x - sx, y - sy) >= SPACING_MM * px_per_mm for sx, sy, _ in cards):
                cards.append((x, y, angle))
    return cards, _numerals_in_fill(fill, hsv[..., 1], unexplained, px_per_mm, avoid, avoid_mm)


def _numerals_in_fill(fill: np.ndarray, saturation: np.ndarray, regions: list[tuple[int, int, int, int]],
                      px_per_mm: float, avoid: np.ndarray | None, avoid_mm: float) -> list[tuple[float, float, float]]:
    """Seeds at numerals of paper (``saturation`` below ``FILL_PAPER_SATURATION``) in
    ``fill`` (uint8 mask) within the bounding boxes
    ``regions`` (x, y, width, height: the regions of fill of no card's shape, ``FILL_PART``
    of a card or more; the rest of the fill is a card's or too small to hold one's numeral)."""
    if not regions:
        return []
    pad = int(math.ceil(CLOSE_MM * px_per_mm))
    x0, y0 = (max(0, min(box[axis] for box in regions) - pad) for axis in (0, 1))
    x1 = min(fill.shape[1], max(x + w for x, _, w, _ in regions) + pad)
    y1 = min(fill.shape[0], max(y + h for _, y, _, h in regions) + pad)
    # looked for at half the scale: numerals are large, and the fill's edges need no detail here
    scale = 2.0
    paper = (saturation[y0:y1, x0:x1] < FILL_PAPER_SATURATION).astype(np.uint8)
    part, pale = ((cv2.resize(mask * 255, None, fx=1 / scale, fy=1 / scale, interpolation=cv2.INTER_AREA)
                   >= 128).astype(np.uint8) for mask in (fill[y0:y1, x0:x1], paper))
    px_per_mm = px_per_mm / scale
    inside, outlines = _inside_faces(part, px_per_mm)
    # paper in the fill: the numerals' strokes, and lines thinner than those (the rims of
    # cards side by side, which join the numerals into one piece; the corner indices)
    width = _odd(RIM_LINE_MM * px_per_mm)
    strokes = cv2.morphologyEx((inside & (pale > 0)).astype(np.uint8), cv2.MORPH_OPEN,
                               cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (width, width)))
    if avoid is not None:
        avoid = np.asarray(avoid, np.float64).reshape(-1, 2)
    avoid_here = None if avoid is None else (avoid - (x0, y0) + 0.5) / scale - 0.5
    seeds = _numeral_peaks(strokes > 0, outlines, px_per_mm, avoid_here, avoid_mm, MAX_FILL_NUMERAL_SEEDS)
    # a whole numeral first: the strips of a row's other cards each show part of theirs
    half = int(round(CENTRE_MM * px_per_mm / 2))
    ink = [int(np.count_nonzero(strokes[max(0, int(y) - half):int(y) + half + 1, max(0, int(x) - half):int(x) + half + 1]))
           for x, y, _ in seeds]
    order = sorted(range(len(seeds)), key=lambda i: -ink[i])
    seeds = [((seeds[i][0] + 0.5) * scale - 0.5 + x0, (seeds[i][1] + 0.5) * scale - 0.5 + y0, seeds[i][2]) for i in order]
    if avoid is None or not len(avoid):
        return seeds
    # moved onto its ink's centre, a seed may have come nearer a marker's paper than its peak lay
    reach = avoid_mm * px_per_mm * scale
    return [seed for seed in seeds if np.hypot(avoid[:, 0] - seed[0], avoid[:, 1] - seed[1]).min() >= reach]


def _card_shaped(fill: np.ndarray, px_per_mm: float,
                 shrunk_mm: float = 0.0) -> tuple[list[tuple[float, float, float]], list[tuple[int, int, int, int]]]:
    """Centres and turns of the regions of ``fill`` the size and shape of a card, once
    ``shrunk_mm`` is put back on each side, and the bounding boxes of the others of at least
    ``FILL_PART`` of a card's area (cards joined to others or to the table, or split by
    their numerals)."""
    # the numerals are holes in the fill (filled in, not closed over: that would join the
    # cards of a row, a few millimetres apart). On a cloth as saturated as the fill, a
    # card's paper rim rings it in a hole of the cloth's region: every region's outer
    # boundary counts, nested or not
    regions, hierarchy = cv2.findContours(fill, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    outer = [region for region, (_, _, _, parent) in zip(regions, hierarchy[0] if len(regions) else ()) if parent < 0]
    short, long = sorted(CARD_MM)
    seeds, others = [], []
    for region in outer:
        (x, y), (w, h), angle = cv2.minAreaRect(region)
        sides = sorted((w / px_per_mm + 2 * shrunk_mm, h / px_per_mm + 2 * shrunk_mm))
        card_sized = FILL_SIZE[0] <= sides[0] / short <= FILL_SIZE[1] and FILL_SIZE[0] <= sides[1] / long <= FILL_SIZE[1]
        area = cv2.contourArea(region)
        if not card_sized or area < FILL_SOLID * w * h:
            if area >= FILL_PART * short * long * px_per_mm ** 2:
                others.append(cv2.boundingRect(region))
            continue
        seeds.append((float(x), float(y), math.radians((angle + 45.0) % 90.0 - 45.0)))
    return seeds, others


def _strokes(ink: np.ndarray, least: float, most: float) -> np.ndarray:
    """The ink in pieces at least ``least`` and at most ``most`` wide or high: a numeral's
    digits, without the corner indices and specks that would pull a seed off the
    numeral's centre, and without a cloth's pattern."""
    count, labels, stats, _ = cv2.connectedComponentsWithStats(ink.astype(np.uint8), connectivity=8)
    extent = np.maximum(stats[:, cv2.CC_STAT_WIDTH], stats[:, cv2.CC_STAT_HEIGHT])
    digit = (extent >= least) & (extent <= most)
    digit[0] = False
    return np.take(digit, labels)  # a plain take: about twice as fast as indexing with the label image


def _ink_centre(ink: np.ndarray, x: float, y: float, window: float, steps: int = 2) -> tuple[float, float]:
    """The centre of the ink within ``window`` around (x, y), found again from there
    (``steps`` times): a wide numeral's densest part is one of its digits."""
    half = int(round(window / 2))
    for _ in range(steps):
        x0, y0 = max(0, int(round(x)) - half), max(0, int(round(y)) - half)
        moments = cv2.moments(ink[y0:y0 + 2 * half + 1, x0:x0 + 2 * half + 1].astype(np.uint8), binaryImage=True)
        if moments["m00"] == 0:
            break
        x, y = x0 + moments["m10"] / moments["m00"], y0 + moments["m01"] / moments["m00"]
    return float(x), float(y)


def _region_angle(regions, point: tuple[float, float]) -> float:
    """The turn (radians, within ±45°) of the smallest rectangle around the paper region
    at ``point``: a card's, or near enough on a pile."""
    for region in regions:
        if cv2.pointPolygonTest(region, point, False) >= 0:
            _, _, angle = cv2.minAreaRect(region)
            return math.radians((angle + 45.0) % 90.0 - 45.0)
    return 0.0


def _odd(size: float) -> int:
    return max(3, int(round(size)) | 1)


__all__ = ["fill_seed_groups", "fill_seeds", "numeral_seed_groups", "numeral_seeds"]
