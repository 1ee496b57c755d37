"""Learning a deck's numerals from glyph maps of single cards (for :mod:`companion.vision.calibration`).

Each picture is a rectified card's glyph map (0 paper, 1 ink, see
:func:`companion.vision.glyphs.glyph_map`) and the card it shows; the functions here work
on objects with ``card``, ``name``, ``glyph``, ``corners``, ``poor``, ``turned`` and ``turn_evidence``. In
order: :func:`normalise` centres a centred numeral's digits (undoing small errors of
the outline found; a deck whose numeral is elsewhere is left alone), :func:`learn_box`
finds the numeral box all numbers fit in (where cards of
different numbers differ: nothing about the deck's print is assumed),
:func:`orient` decides which way up each card lies, and :func:`templates` makes each
number's template from its pictures; :func:`face_print` marks where else the deck prints
(corner indices, frames), so the reader can tell a whole card from an outline spanning
two.
"""

from __future__ import annotations

import cv2
import numpy as np

from .calibration_notes import Note, note
from .digits import font_likeness, ncc
from .profile import CARD_MM, DEFAULT_THRESHOLDS, Layout
from .ink import Strokes, ink_on
from .glyphs import glyph_map
from .straighten import moved_corners
from .thresholds import THRESHOLDS

_BOX_PAD_MM = 2.0  # around the numerals' extent, on every side
# Where the numbers' glyph maps differ from their median by at least this share of the
# most they differ anywhere (after a blur of _DIFFER_BLUR_MM), numerals lie; a deck whose
# cards nowhere differ by _MIN_DIFFER (share of full ink) shows no numerals.
_DIFFER_SHARE, _DIFFER_BLUR_MM, _MIN_DIFFER = 0.25, 1.0, 0.05
_EDGE_BAND_MM = 4.0  # numerals never reach this near the card's edge
_NUMERAL_MASS_SHARE = 0.4  # of the largest region's difference: a region this large is numeral too


def _inner_parts(glyph: np.ndarray, layout: Layout, band_mm: float = 4.0) -> tuple[list, tuple[float, float, float, float]]:
    """The ink's parts (connected-component stats) clear of the card's edges by
    ``band_mm``, where frames and corner indices are printed and numerals never reach,
    and the window around the card's centre that a centre numeral overlaps."""
    s = layout.match_px_per_mm
    h, w = glyph.shape
    count, _, stats, _ = cv2.connectedComponentsWithStats((glyph > 0.5).astype(np.uint8), connectivity=8)
    band = band_mm * s
    parts = [b for b in stats[1:] if b[cv2.CC_STAT_AREA] >= 3 and b[0] >= band and b[1] >= band
             and b[0] + b[2] <= w - band and b[1] + b[3] <= h - band]
    return parts, (w / 2 - 8 * s, h / 2 - 8 * s, w / 2 + 8 * s, h / 2 + 8 * s)


def _box_of(parts) -> tuple[int, int, int, int]:
    return (min(b[0] for b in parts), min(b[1] for b in parts), max(b[0] + b[2] for b in parts),
            max(b[1] + b[3] for b in parts))


def _digits_box(glyph: np.ndarray, layout: Layout) -> tuple[int, int, int, int] | None:
    """(x0, y0, x1, y1) of the centre numeral's digits (no underline) in a glyph map."""
    parts, window = _inner_parts(glyph, layout)
    digits = [b for b in parts if _overlaps(b, window) and b[2] < 2.5 * b[3]]
    if not digits:
        return None
    # the other digit of a wide numeral on an outline a few millimetres off lies clear of
    # the middle and may reach into the edge band: it stands on the same line
    top, bottom = min(b[1] for b in digits), max(b[1] + b[3] for b in digits)
    slack = 0.1 * (bottom - top)
    beside = [b for b in _inner_parts(glyph, layout, band_mm=0.5)[0]
              if abs(b[1] - top) <= slack and abs(b[1] + b[3] - bottom) <= slack and b[2] < 2.5 * b[3]
              and b[2] >= 0.1 * b[3]]  # a sliver along the card's edge is table, not a digit
    return _box_of(digits + beside)


def normalise(pictures, layout: Layout) -> None:
    """Undo small errors of the outlines found: a deck prints its numerals in the middle of
    the card, so each picture's glyph map whose digits sit a pixel or more off the middle
    is shifted back (by up to 3 mm). Pictures whose digits are not of the deck's usual
    height (a 6 or 9 with its underline merged in, something else in the middle) are
    only centred sideways, or left alone."""
    s = layout.match_px_per_mm
    boxes = [_digits_box(p.glyph, layout) for p in pictures]
    heights = [b[3] - b[1] for b in boxes if b is not None]
    if len(heights) < 3:
        return
    typical = float(np.median(heights))
    for p, box in zip(pictures, boxes):
        if box is None:
            continue
        h, w = p.glyph.shape
        x0, y0, x1, y1 = box
        shift = np.array([(w - x0 - x1) / 2, (h - y0 - y1) / 2])
        if abs((y1 - y0) / typical - 1) > 0.08:
            if p.card.number not in (6, 9):
                continue  # not digits of this deck's size: leave the picture as it is
            shift[1] = 0.0  # a 6 or 9 whose underline merged: only centred sideways
        shift[np.abs(shift) < 1.0] = 0.0  # within the pixel grid's rounding
        if not shift.any():
            continue
        shift = np.clip(shift, -3 * s, 3 * s)
        matrix = np.float32([[1, 0, shift[0]], [0, 1, shift[1]]])
        p.glyph = cv2.warpAffine(p.glyph, matrix, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        p.corners = moved_corners(p.corners, matrix, layout)  # the outline put right, as the glyph map was


def learn_box(pictures, layout: Layout) -> tuple[float, float, float, float] | None:
    """The numeral box: where the cards of different numbers differ, made symmetric about
    the card's centre, plus a pad; None when fewer than three numbers have pictures.

    Nothing about the deck's print is assumed. Each number's glyph maps are laid over
    themselves turned by 180° (which way up each card lies is not known yet) and compared
    with the median over the numbers: what every card prints alike (a frame, a fill, an
    illustration) cancels, and what is left is where numerals lie, the large numeral apart
    from the small corner indices.
    Poor pictures count only for a number without a good one."""
    s = layout.match_px_per_mm
    differ = differ_maps(box_pictures(pictures), lambda p: np.maximum(p.glyph, p.glyph[::-1, ::-1]), layout)
    if differ is None:
        return None
    band = round(_EDGE_BAND_MM * s)
    extents = [(min(left, right), min(top, bottom)) for left, top, right, bottom in
               (e for e in (numeral_extent(d, _DIFFER_SHARE * float(differ.max()), band, s) for d in differ)
                if e is not None)]
    if not extents:  # the cards differ only in their corners: no numeral to learn
        return None
    # every number's numeral fits in the box, but one odd picture (an outline off its
    # card, a glare spot) does not stretch it for all
    h, w = differ.shape[1:]
    digits = h - 2 * float(np.median([top for _, top in extents]))
    left = low_fence([left for left, _ in extents], 0.3 * digits)
    top = low_fence([top for _, top in extents], 0.3 * digits)
    # the reader looks for the numeral search_mm around its place: the box stays that far inside the card
    x0 = max(left / s - _BOX_PAD_MM - layout.search_mm, layout.search_mm + 0.5)
    y0 = max(top / s - _BOX_PAD_MM - layout.search_mm, layout.search_mm + 0.5)
    x0, y0 = float(x0), float(y0)
    return (round(x0, 2), round(y0, 2), round(CARD_MM[0] - x0, 2), round(CARD_MM[1] - y0, 2))


def box_pictures(pictures) -> list:
    """The pictures a numeral box is learned from: poor ones only for a number without a
    good one (a glare spot beside a washed-out numeral would widen the box for all)."""
    good = {p.card.number for p in pictures if not p.poor}
    return [p for p in pictures if not (p.poor and p.card.number in good)]


def differ_maps(pictures, face, layout: Layout, within_weight: float = 0.0) -> np.ndarray | None:
    """Per number (of at least three), where its cards differ from the numbers' median
    (``face(p)``: a picture's glyph map as compared), less ``within_weight`` times what
    differs between cards of one number, nothing in the edge band (where outlines a
    little off show the table or the fill's rim), blurred; None where too few numbers
    have pictures or nothing differs by ``_MIN_DIFFER``."""
    by_number: dict[int, list[np.ndarray]] = {}
    for p in pictures:
        by_number.setdefault(p.card.number, []).append(face(p))
    if len(by_number) < 3:
        return None
    s = layout.match_px_per_mm
    medians = {number: np.median(np.stack(maps), axis=0) for number, maps in by_number.items()}
    numbers = np.stack(list(medians.values()))
    differ = np.abs(numbers - np.median(numbers, axis=0))
    within = [np.abs(m - medians[number]) for number, maps in by_number.items() if len(maps) > 1 for m in maps]
    if within_weight and within:
        differ = np.maximum(differ - np.mean(within, axis=0) * within_weight, 0.0)
    band = round(_EDGE_BAND_MM * s)
    differ[:, :band], differ[:, -band:], differ[:, :, :band], differ[:, :, -band:] = 0, 0, 0, 0
    differ = np.stack([cv2.GaussianBlur(d, (0, 0), _DIFFER_BLUR_MM * s) for d in differ])
    return None if differ.max() <= _MIN_DIFFER else differ


def numeral_extent(differ: np.ndarray, threshold: float, band: int,
                   px_per_mm: float) -> tuple[int, int, int, int] | None:
    """How near the card's left side, top, right side and bottom (px) a number's numeral
    reaches, from where it differs from the numbers' median: the regions that differ about
    as much as its largest (two for a numeral off the centre on maps laid over themselves
    turned), not the corner indices (they reach into the edge band at a side and an end),
    with the bar or dot of a 6 or 9 under or over it."""
    count, labels, stats, _ = cv2.connectedComponentsWithStats((differ >= threshold).astype(np.uint8))
    if count < 2:
        return None
    inner = (band, band, differ.shape[1] - band, differ.shape[0] - band)
    mass = np.bincount(labels.ravel(), weights=differ.ravel(), minlength=count)
    mass[[i for i in range(count) if i == 0 or _in_corner(stats[i], inner)]] = 0.0
    if not mass.any():
        return None
    numeral = np.flatnonzero(mass >= _NUMERAL_MASS_SHARE * mass.max())
    kept = {int(i) for i in numeral} | {i for i in range(1, count) if _clear_of(stats[i], inner) and
                                        any(_beneath(stats[i], stats[m], px_per_mm) for m in numeral)}
    rows, columns = np.nonzero(np.isin(labels, sorted(kept)))
    h, w = differ.shape
    return int(columns.min()), int(rows.min()), int(w - 1 - columns.max()), int(h - 1 - rows.max())


def _in_corner(part, inner) -> bool:
    """Whether a part (connected-component stats) reaches the edge of ``inner`` at a side and at an end."""
    x, y, w, h = part[:4]
    return (x <= inner[0] or x + w >= inner[2]) and (y <= inner[1] or y + h >= inner[3])


def _clear_of(part, inner) -> bool:
    """Whether a part (connected-component stats) lies inside ``inner`` (x0, y0, x1, y1), not touching its edge."""
    x, y, w, h = part[:4]
    return x > inner[0] and y > inner[1] and x + w < inner[2] and y + h < inner[3]


def _beneath(part, numeral, px_per_mm: float) -> bool:
    """Whether a part (connected-component stats) is a bar or dot under or over a
    numeral: flat beside it (under a third of its height) but more than a speck, within
    its width (a millimetre to spare) and less than 0.3 of its height from it."""
    x, y, w, h = part[:4]
    nx, ny, nw, nh = numeral[:4]
    gap = max(ny - (y + h), y - (ny + nh))
    return (h < nh / 3 and w * h >= (1.5 * px_per_mm) ** 2 and nx - px_per_mm <= x and x + w <= nx + nw + px_per_mm
            and gap <= 0.3 * nh)


def low_fence(values, slack: float) -> float:
    """The smallest value that is not an outlier (below the lower quartile by more than
    1.5 interquartile ranges plus ``slack``): a glare blob or a stray mark next to one
    card's numeral does not stretch the box for all."""
    values = np.asarray(values, np.float64)
    q1, q3 = np.percentile(values, [25, 75])
    return float(values[values >= q1 - 1.5 * (q3 - q1) - slack].min())


def _overlaps(b, window) -> bool:
    return b[0] < window[2] and b[0] + b[2] > window[0] and b[1] < window[3] and b[1] + b[3] > window[1]


def _crop(p, layout: Layout, pad: int = 0) -> np.ndarray:
    x0, y0, x1, y1 = layout.box_px(turned=p.turned)
    crop = p.glyph[y0 - pad:y1 + pad, x0 - pad:x1 + pad]
    return crop[::-1, ::-1] if p.turned else crop


def _aligned(padded: np.ndarray, anchor: np.ndarray) -> tuple[np.ndarray, float]:
    """The part of ``padded`` (a numeral crop with some pixels around it) of ``anchor``'s
    shape that matches ``anchor`` best, and how well (normalised correlation)."""
    scores = cv2.matchTemplate(np.ascontiguousarray(padded, np.float32), anchor.astype(np.float32),
                               cv2.TM_CCOEFF_NORMED)
    _, best, _, (dx, dy) = cv2.minMaxLoc(scores)
    return padded[dy:dy + anchor.shape[0], dx:dx + anchor.shape[1]], float(best)


def orient(pictures, layout: Layout) -> None:
    """Decide which way up each card lies: the underline of 6 and 9, else the digits of
    the bundled fonts; then pictures of one number agree with its most certain one, and a
    number with the same digit in another (:func:`_agree_on_shared_digits`)."""
    if layout.off_centre:
        return  # the whole faces laid them alike already (:func:`~.off_centre.off_centre_box`)
    for p in pictures:
        crop = _crop(p, layout)
        underline = _underline_side(crop)
        if underline is not None and p.card.number in (6, 9):
            p.turned, p.turn_evidence = underline == "above", 1.0
            continue
        upright = font_likeness(crop, p.card.number)
        turned = font_likeness(crop[::-1, ::-1], p.card.number)
        p.turned, p.turn_evidence = turned > upright, abs(turned - upright)
    groups = {}
    search = layout.search_px()
    for number in {p.card.number for p in pictures}:
        group = sorted((p for p in pictures if p.card.number == number), key=lambda p: -p.turn_evidence)
        anchor = _crop(group[0], layout)
        for p in group[1:]:
            # each way up moved to where it matches best: an 11 looks alike both ways, and
            # a numeral box a pixel or two off its place then decides which way matches
            padded = _crop(p, layout, search)
            (_, same), (_, other) = _aligned(padded, anchor), _aligned(padded[::-1, ::-1], anchor)
            if abs(same - other) > 0.05 and (other > same):
                p.turned = not p.turned
        groups[number] = group
    _agree_on_shared_digits(groups, layout)


# A single digit and the two-digit number that ends in it (the 4 in 14, the 2 in 12 and
# 20): the learned ways up agree when the digit's ink is found in the other numeral as it
# lies rather than turned, by at least this margin of correlation, and found at all.
_SHARED_DIGITS = [(d, 10 + d) for d in range(2, 10)] + [(2, 20)]
_SHARED_MARGIN, _SHARED_MIN_MATCH = 0.1, 0.6


def _agree_on_shared_digits(groups: dict, layout: Layout) -> None:
    """Font likeness may decide a number's way up on little evidence (its only picture,
    a 4 that looks alike both ways in a font unlike the bundled ones); the same digit in
    another number may know better. Where the two disagree clearly, the number with the
    weaker evidence is turned over, once at most; the strongest pairs speak first."""
    turned_over = set()
    pairs = [(a, b) for a, b in _SHARED_DIGITS if a in groups and b in groups]
    pairs.sort(key=lambda pair: -max(groups[n][0].turn_evidence for n in pair))
    for a, b in pairs:
        digit, numeral = _crop(groups[a][0], layout), _crop(groups[b][0], layout)
        box = _ink_bounds(digit)
        if box is None:
            continue
        x0, y0, x1, y1 = box
        piece = np.ascontiguousarray(digit[y0:y1, x0:x1], np.float32)
        if piece.shape[0] > numeral.shape[0] or piece.shape[1] > numeral.shape[1]:
            continue
        found = [float(cv2.matchTemplate(np.float32(numeral), np.ascontiguousarray(candidate),
                                         cv2.TM_CCOEFF_NORMED).max()) for candidate in (piece, piece[::-1, ::-1])]
        if max(found) < _SHARED_MIN_MATCH or found[1] - found[0] < _SHARED_MARGIN:
            continue  # they agree, or the digit is not found alike enough to say
        weaker = min((a, b), key=lambda n: groups[n][0].turn_evidence)
        stronger = b if weaker == a else a
        if weaker in turned_over:
            continue
        turned_over.add(weaker)
        for p in groups[weaker]:
            p.turned = not p.turned
            p.turn_evidence = min(groups[stronger][0].turn_evidence, found[1] - found[0])


def _ink_bounds(crop: np.ndarray, pad: int = 1) -> tuple[int, int, int, int] | None:
    """The box around the crop's largest part of ink (a single digit is one stroke; a
    bar at the crop's edge, a neighbour's frame, is not the digit)."""
    count, _, stats, _ = cv2.connectedComponentsWithStats((crop > 0.5).astype(np.uint8), connectivity=8)
    if count < 2:
        return None
    x, y, w, h, _ = stats[1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))]
    rows, cols = crop.shape
    return max(0, x - pad), max(0, y - pad), min(cols, x + w + pad), min(rows, y + h + pad)


def _underline_side(crop: np.ndarray) -> str | None:
    """Where a wide thin bar (the underline of 6 and 9) lies relative to the digits."""
    ink = (crop > 0.5).astype(np.uint8)
    count, _, stats, _ = cv2.connectedComponentsWithStats(ink, connectivity=8)
    parts = [stats[i] for i in range(1, count) if stats[i, cv2.CC_STAT_AREA] >= 3]
    if len(parts) < 2:
        return None
    digits = max(parts, key=lambda b: b[cv2.CC_STAT_AREA])
    for b in parts:
        wide = b[2] >= 2.5 * b[3] and b[2] >= 0.5 * digits[2]
        beside = b[0] < digits[0] + digits[2] and b[0] + b[2] > digits[0]
        if wide and beside and b is not digits:
            return "below" if b[1] > digits[1] + digits[3] / 2 else "above"
    return None


def templates(pictures, layout: Layout, warnings: list[Note]) -> dict[int, np.ndarray]:
    """Each number's template: its pictures' numeral crops, each aligned to the most
    certain one, and their median (mean of two). A picture whose numeral does not look
    like the others' (an outline that missed, a glare spot) is left out when there are
    three or more; so is a poor one (blurred or washed out, ``poor``, see ``calibration``)
    when there is a good one: a blurred numeral matches other blurred numerals too well,
    a washed-out one matches nothing well."""
    search = layout.search_px()
    templates = {}
    for number in sorted({p.card.number for p in pictures}):
        group = [p for p in pictures if p.card.number == number]
        good = [p for p in group if not p.poor]
        group = sorted(good or group, key=lambda p: -p.turn_evidence)
        anchor = _crop(group[0], layout)
        stack = [anchor]
        for p in group[1:]:
            stack.append(_aligned(_crop(p, layout, search), anchor)[0])
        if len(stack) >= 3:
            median = np.median(np.stack(stack), axis=0)
            likeness = np.array([ncc(crop, median) for crop in stack])
            keep = likeness >= min(0.8, float(np.median(likeness)) - 0.1)
            odd = [p.name for p, kept in zip(group, keep) if not kept]
            if odd:
                warnings.append(note("odd_numeral", number=number, names=odd))
            stack = [crop for crop, kept in zip(stack, keep) if kept]
        mean = np.median(np.stack(stack), axis=0) if len(stack) >= 3 else np.mean(np.stack(stack), axis=0)
        templates[number] = np.round(np.clip(mean, 0.0, 1.0) * 255).astype(np.uint8)
    return templates


def face_print(pictures, layout: Layout) -> np.ndarray:
    """Where the deck prints on its faces (uint8 at matching scale, 255: print): every place
    any picture shows ink, either way up, widened by a millimetre (outlines a little
    off), and the numeral box (whatever the number)."""
    s = layout.match_px_per_mm
    blur = DEFAULT_THRESHOLDS["match_blur_px"]
    seen = np.zeros(pictures[0].glyph.shape, bool)
    for p in pictures:
        seen |= cv2.GaussianBlur(p.glyph, (0, 0), blur) > THRESHOLDS.stray_ink
    seen |= seen[::-1, ::-1]
    reach = max(1, round(s))
    printed = cv2.dilate(seen.astype(np.uint8) * 255, np.ones((2 * reach + 1, 2 * reach + 1), np.uint8))
    for x0, y0, x1, y1 in layout.boxes_px():
        printed[y0:y1, x0:x1] = 255
    return printed


def measure_ink_on_strokes(pictures, templates: dict[int, np.ndarray], layout: Layout, inverse: bool) -> None:
    """Each picture's ink measured again on its numeral's strokes, as the reader measures
    it (``ink.ink_on``): where its number's template matches best near the numeral box,
    the template's ink pixels. The card's strongest colour, measured first, can be the
    table beside an outline a little off or a shadow; inks learned from it would sit
    apart from the inks the reader measures."""
    reach = layout.search_px() + round(3 * layout.match_px_per_mm)  # normalise() moves glyphs up to 3 mm
    for p in pictures:
        template = templates.get(p.card.number)
        if template is None or p.measurement is None:
            continue
        x0, y0, x1, y1 = layout.box_px(turned=p.turned)
        if p.turned:
            template = template[::-1, ::-1]
        glyphs = glyph_map(p.measurement)
        h, w = glyphs.shape
        left, top = max(0, x0 - reach), max(0, y0 - reach)
        region = glyphs[top:min(h, y1 + reach), left:min(w, x1 + reach)]
        if region.shape[0] < template.shape[0] or region.shape[1] < template.shape[1]:
            continue
        scores = cv2.matchTemplate(region, template.astype(np.float32), cv2.TM_CCOEFF_NORMED)
        _, _, _, (dx, dy) = cv2.minMaxLoc(scores)
        p.measurement = ink_on(p.measurement, Strokes(template >= 128, layout.match_px_per_mm), top + dy, left + dx,
                               inverse)
