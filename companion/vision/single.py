"""Finding the one card in a calibration picture: ``locate(image, card) -> Located``.

Calibration learns a deck from pictures of one card each, so before anything is learned
the card must be found without knowing what the deck looks like. Three sources of
outlines are tried in turn, each a different kind of evidence:

1. the play-area finder (:mod:`companion.vision.find`), when the picture shows the
   markers: its outlines are what the reader will be given at the table, so they are
   kept as they are;
2. card-shaped regions (59:91, whole in the picture) of a few segmentations of the
   picture, their corners moved onto the card's edges (:func:`refine_corners`): this
   needs no markers, but a patterned tablecloth breaks the card's region up;
3. with the markers in view, a search for the card's exact size on the top-down view
   (:mod:`companion.vision.single_search`): each side of a 59 × 91 mm rectangle, at every
   position and turn, must run along a change of colour, the same change on all four
   sides, after median filters have wiped out printed dots and checks. This finds a
   cream card on a dotted or checked cloth where no segmentation can.

With the markers in view every outline must also have a card's size. Nothing about the
deck's print is assumed: of the outlines, the one whose edge stands out most clearly from
what lies around it, all the way round, is taken (:func:`edge_contrast`: a card is
brighter or darker than the table along its whole edge, a patch of tablecloth is not).
Whether the card shows the number its file name says is for the calibration to check,
once it has learned the deck's numerals.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial

import cv2
import numpy as np

from .area import PlayArea
from .calibration_notes import Note, note
from .find import find_cards
from .markers import MARKER_SIZE_MM
from .profile import CARD_MM, Layout
from .card_reader import card_for_matching, upright_corners
from .single_search import SEARCH_FILTERS, peak_shift, searched_outlines

# The colour difference (CIELAB) across an outline that most of its length must show
# for it to be a card's edge: a card on a table of nearly its own colour still shows this.
MIN_EDGE_CONTRAST = 3.5
CLEAR_EDGE_CONTRAST = 8.0  # an outline this clear is the card: no slower source looks for a better one
_EDGE_STEP = 0.025  # of the card's long side (about 2 mm): how far inside and outside the edge is sampled
_EDGE_SAMPLES = 16  # per side
_LOOK_MM = 5.0  # cards are compared at this many millimetres a pixel (:func:`look`)
_LOOK_NOISE = 0.01  # of a look's unit norm: differences below this are noise wherever the cards agree
_LARGER = 1.05  # an outline this much larger than another in its place reaches further out (a frame inside the card's edge)
_ALIKE_CONTRAST = 0.85  # outlines whose edges stand out this nearly as much as the best are alike: the largest is the card
_SIZE_TOLERANCE = 0.035  # with the markers in view, sides may differ this much from 59 and 91 mm …
_FRAME_INSET_MM = (1.0, 5.0)  # … or be a printed frame or colour fill this far in on every side
_MARKER_REACH_MM = 0.5 * MARKER_SIZE_MM + 6  # a card nearer a marker's centre than this lies on it


@dataclass(frozen=True)
class Located:
    """The card's corners in the picture (None: not found), what found them
    (``finder``, ``outline``, ``search`` or ``none``), why nothing was found, and how
    clearly the outline's edge stands out (:func:`edge_contrast`)."""

    corners: np.ndarray | None
    found_by: str
    problem: Note | None = None
    contrast: float = 0.0


def find_card(image: np.ndarray) -> tuple[np.ndarray | None, str]:
    """The corners of the card in a calibration picture (or None), and what found them."""
    located = locate(image)
    return located.corners, located.found_by


def locate(image: np.ndarray, play_area_mm: tuple[float, float] | None = None) -> Located:
    """The card in a picture of one card: of :func:`candidates`, the first."""
    return candidates(image, play_area_mm)[0]


def candidates(image: np.ndarray, play_area_mm: tuple[float, float] | None = None) -> list[Located]:
    """The outlines in a picture of one card that may be the card, each standing out from
    the table at least ``MIN_EDGE_CONTRAST``, the likeliest first; or, where there is none,
    one :class:`Located` without corners that says why. See the module docstring.
    ``play_area_mm``: how far apart the markers lie, where known (:func:`table_size`),
    else measured in this picture alone."""
    view = area_view(image, play_area_mm)
    sources = [("outline", partial(shaped_outlines, image))]
    if view is not None:
        sources = [("finder", partial(finder_outlines, view)), *sources,
                   *(("search", partial(searched_outlines, view, *search)) for search in SEARCH_FILTERS)]
    seen_any, found = False, []
    for found_by, source in sources:
        if found and found[0].contrast >= CLEAR_EDGE_CONTRAST:
            break  # the later sources are slower, and only needed where no outline stands out clearly
        outlines = source()
        if view is not None:
            outlines = [c for c in (as_card(view, corners) for corners in outlines) if c is not None]
        seen_any = seen_any or bool(outlines)
        for corners in outlines:
            score = edge_contrast(image, corners)
            if score >= MIN_EDGE_CONTRAST:
                add_outline(found, Located(corners, found_by, contrast=score))
        # the finder's outlines are what the reader is given at the table: another must stand out more
        found.sort(key=lambda c: -c.contrast * (1.0 if c.found_by == "finder" else _ALIKE_CONTRAST))
    # the print on a card can be card-shaped (the inside of a 0), another card cannot lie inside a card
    found = [c for c in found if not any(_inside(c, other) for other in found)]
    if found:
        return found
    return [Located(None, "none", note("no_card_edge" if seen_any else "nothing_card_shaped"))]


def add_outline(found: list[Located], new: Located) -> None:
    """Adds an outline, or where one was found in the same place, keeps the better: of
    outlines whose edges stand out alike (the card, and the inside of its printed frame
    where no markers tell its size), the larger; else the one that stands out more."""
    for i, old in enumerate(found):
        if same_place(new.corners, old.corners):
            if new.contrast >= _ALIKE_CONTRAST * old.contrast and _area(new.corners) > _LARGER * _area(old.corners) or \
                    new.contrast * _ALIKE_CONTRAST > old.contrast:
                found[i] = new
            return
    found.append(new)


def _inside(small: Located, large: Located) -> bool:
    """Whether an outline lies within a larger one that stands out more clearly."""
    return (large.contrast > small.contrast and _area(large.corners) > 2 * _area(small.corners) and
            cv2.pointPolygonTest(np.float32(large.corners), tuple(map(float, small.corners.mean(axis=0))), False) > 0)


def _area(corners: np.ndarray) -> float:
    return abs(cv2.contourArea(np.float32(corners)))


def same_place(corners: np.ndarray, other: np.ndarray) -> bool:
    """Whether two outlines are one card found twice (their centres within a tenth of its width)."""
    side = float(np.hypot(*(corners[1] - corners[0])))
    return float(np.hypot(*(corners.mean(axis=0) - other.mean(axis=0)))) < 0.1 * side


def look(image: np.ndarray, corners: np.ndarray) -> np.ndarray:
    """How a card looks at a glance: its brightness at ``_LOOK_MM`` a pixel, added to
    itself turned by 180°, less its least-squares plane (the light's fall-off), at unit norm. Every card of a deck shares its paper,
    fill and frame, and its numeral's place; a patch of table does not."""
    card = cv2.cvtColor(card_for_matching(image, upright_corners(corners), Layout()), cv2.COLOR_BGR2GRAY)
    size = (round(CARD_MM[0] / _LOOK_MM), round(CARD_MM[1] / _LOOK_MM))
    small = cv2.resize(card, size, interpolation=cv2.INTER_AREA).astype(np.float32)
    small = small + small[::-1, ::-1]
    small -= _plane_fit(small)  # the light falling off across the card is no part of its look
    return small / max(float(np.linalg.norm(small)), 1e-6)


def _plane_fit(values: np.ndarray) -> np.ndarray:
    """The least-squares plane a + b x + c y through a 2-D array, as an array."""
    rows, columns = np.mgrid[0:values.shape[0], 0:values.shape[1]]
    basis = np.stack([np.ones(values.size), columns.ravel(), rows.ravel()], axis=1)
    coefficients, *_ = np.linalg.lstsq(basis, values.ravel(), rcond=None)
    return (basis @ coefficients).reshape(values.shape).astype(np.float32)


def most_alike(looks: list[list[np.ndarray]], rounds: int = 2) -> tuple[list[int], list[float]]:
    """Of each picture's candidates (their :func:`look`), the one most like the cards the
    other pictures show, and how far it is from them: per pixel, its difference from the
    typical card over how much the cards typically differ there (the numerals' place
    differs from card to card, the paper and fill do not), the median over the card (a
    glare spot on part of a card does not make it another thing). The
    first candidates make the first typical card: most pictures show their card first."""
    chosen = [0] * len(looks)
    for _ in range(rounds):
        stack = np.stack([options[k] for options, k in zip(looks, chosen) if options])
        typical = np.median(stack, axis=0)
        spread = 1.4826 * np.median(np.abs(stack - typical), axis=0) + _LOOK_NOISE
        distances = [[float(np.median(np.abs(option - typical) / spread)) for option in options]
                     for options in looks]
        chosen = [int(np.argmin(d)) if d else 0 for d in distances]
    return chosen, [d[k] if d else float("inf") for d, k in zip(distances, chosen)]


def area_view(image: np.ndarray, play_area_mm: tuple[float, float] | None = None):
    """The picture mapped onto the play area by its markers, or None without them."""
    try:
        view = PlayArea(play_area_mm=play_area_mm).update(image)
    except (cv2.error, ValueError):
        return None
    return view if view.mapped else None


def table_size(images) -> tuple[float, float] | None:
    """How far apart the markers lie, from every picture that shows three or more of
    them (the median: calibration pictures are of one table, and one picture measures
    it only to a few millimetres), or None where fewer than three pictures do."""
    sizes = []
    for image in images:
        view = area_view(image)
        if view is not None and len(view.layout.measured) >= 3:
            sizes.append(view.layout.size_mm)
    if len(sizes) < 3:
        return None
    width, height = np.median(np.array(sizes), axis=0)
    return float(width), float(height)


def as_card(view, corners: np.ndarray) -> np.ndarray | None:
    """With the markers in view: the outline if it has a card's size; the card around it
    if it is the card's printed frame or colour fill (the same shape, a few millimetres
    in on every side: on a white table the card's own edge may not show at all); else
    None."""
    mm = view.view_to_mm(view.frame_to_view(upright_corners(corners)))
    if any(cv2.pointPolygonTest(np.float32(mm), centre, True) > -_MARKER_REACH_MM
           for centre in view.layout.centres_mm.values()):
        return None  # on a marker: the markers' black squares can pass for a numeral
    sides = np.hypot(*(mm - np.roll(mm, -1, axis=0)).T)
    if np.all(np.abs(sides / np.tile(CARD_MM, 2) - 1) <= _SIZE_TOLERANCE):
        return corners
    inset = (np.array(CARD_MM) - (sides[:2] + sides[2:]) / 2) / 2
    if not (_FRAME_INSET_MM[0] <= inset.min() and inset.max() <= _FRAME_INSET_MM[1] and np.ptp(inset) <= 1.0):
        return None
    across = (mm[1] - mm[0] + mm[2] - mm[3]) / 2
    down = (mm[3] - mm[0] + mm[2] - mm[1]) / 2
    across, down = across / np.linalg.norm(across), down / np.linalg.norm(down)
    half = [np.array(CARD_MM) / 2 * signs for signs in ((-1, -1), (1, -1), (1, 1), (-1, 1))]
    card = mm.mean(axis=0) + np.array([x * across + y * down for x, y in half])
    return view.view_to_frame(view.mm_to_view(card))


def edge_contrast(image: np.ndarray, corners: np.ndarray) -> float:
    """How clearly a quadrilateral's edge stands out from what lies around it, all the way
    round: the colour difference (CIELAB) between points just inside and just outside it,
    at places along every side; the lower quartile, so a quarter of the edge lying on
    a table of the card's own colour is allowed, but not a side that is not there."""
    corners = upright_corners(np.asarray(corners, np.float64))
    sides = np.roll(corners, -1, axis=0) - corners
    step = _EDGE_STEP * float(np.hypot(*sides.T).max())
    sigma = max(0.5, step / 2)
    # only the outline's neighbourhood is blurred and converted, not the whole picture for every outline
    reach = step + 4 * sigma + 2
    (x0, y0) = np.maximum(np.floor(corners.min(axis=0) - reach), 0).astype(int)
    (x1, y1) = np.ceil(corners.max(axis=0) + reach).astype(int) + 1
    blurred = cv2.GaussianBlur(image[y0:y1, x0:x1], (0, 0), sigma)
    lab_image = cv2.cvtColor(blurred.astype(np.float32) / 255.0, cv2.COLOR_BGR2LAB)
    corners = corners - (x0, y0)
    centre = corners.mean(axis=0)
    along = np.linspace(0.1, 0.9, _EDGE_SAMPLES)
    inside, outside = [], []
    for corner, side in zip(corners, sides):
        normal = np.array([-side[1], side[0]]) / max(float(np.hypot(*side)), 1e-9)
        if (centre - corner) @ normal > 0:
            normal = -normal  # out of the card
        points = corner + along[:, None] * side
        inside.append(points - step * normal)
        outside.append(points + step * normal)
    samples = np.float32(np.concatenate(inside + outside))[None]  # (1, 2N, 2)
    values = cv2.remap(lab_image, samples[..., 0], samples[..., 1], cv2.INTER_LINEAR,
                       borderMode=cv2.BORDER_REPLICATE)[0]
    half = len(values) // 2
    return float(np.percentile(np.linalg.norm(values[:half] - values[half:], axis=1), 25))


def finder_outlines(view) -> list[np.ndarray]:
    """The play-area finder's cards, largest first."""
    try:
        found = find_cards(view)
    except cv2.error:  # a picture OpenCV cannot work on here: the other sources still may
        return []
    corners = [np.asarray(f.corners_frame, np.float64) for f in found]
    return sorted(corners, key=lambda c: -abs(cv2.contourArea(np.float32(c))))


# --- card-shaped regions ------------------------------------------------------------------


def shaped_outlines(image: np.ndarray, keep: int = 12) -> list[np.ndarray]:
    """Card-shaped outlines (59:91 rectangles, whole in the picture) among the regions of a
    few segmentations (Otsu on brightness and saturation, edges, top-hats that keep
    compact bright or dark patches and drop a tablecloth's pattern), most card-like
    first, each moved onto the card's edges."""
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    blurred = cv2.GaussianBlur(grey, (5, 5), 0)
    saturation = cv2.GaussianBlur(cv2.cvtColor(image, cv2.COLOR_BGR2HSV)[..., 1], (5, 5), 0)
    masks = []
    for channel in (blurred, saturation):
        _, otsu = cv2.threshold(channel, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
        masks += [otsu, 255 - otsu]
    edges = cv2.dilate(cv2.Canny(blurred, 30, 90), np.ones((3, 3), np.uint8))
    masks.append(255 - edges)
    wide = cv2.getStructuringElement(cv2.MORPH_RECT, (max(31, int(0.12 * min(grey.shape)) | 1),) * 2)
    for operation in (cv2.MORPH_TOPHAT, cv2.MORPH_BLACKHAT):
        hat = cv2.morphologyEx(blurred, operation, wide)
        _, mask = cv2.threshold(hat, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
        masks.append(cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((9, 9), np.uint8)))
    height, width = grey.shape
    target = CARD_MM[0] / CARD_MM[1]
    scored = []
    for mask in masks:
        mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
        contours, _ = cv2.findContours(mask, cv2.RETR_LIST, cv2.CHAIN_APPROX_NONE)
        for contour in contours:
            area = cv2.contourArea(contour)
            if area < 0.002 * height * width or area > 0.5 * height * width:
                continue
            x, y, w_box, h_box = cv2.boundingRect(contour)
            if x <= 1 or y <= 1 or x + w_box >= width - 1 or y + h_box >= height - 1:
                continue  # a whole card lies inside the picture
            (_, _), (w, h), _ = cv2.minAreaRect(contour)
            if min(w, h) <= 0:
                continue
            aspect, fill = min(w, h) / max(w, h), area / (w * h)
            if abs(aspect - target) > 0.15 or fill < 0.8:
                continue
            scored.append((area * fill * (1 - 3 * abs(aspect - target)), contour))
    scored.sort(key=lambda item: -item[0])
    return [refine_corners(image, _quad_corners(contour.reshape(-1, 2).astype(np.float64)), reach=5.0)
            for _, contour in scored[:keep]]


def _quad_corners(points: np.ndarray) -> np.ndarray:
    """Four corners of a (rounded) quadrilateral outline: lines fitted to the middle of each side."""
    hull = cv2.convexHull(points.astype(np.float32)).reshape(-1, 2)
    box = cv2.boxPoints(cv2.minAreaRect(hull))
    approx = cv2.approxPolyDP(hull, 0.02 * cv2.arcLength(hull, True), True).reshape(-1, 2)
    rough = upright_corners(approx.astype(np.float64) if len(approx) == 4 else box.astype(np.float64))
    lines = []
    for i in range(4):
        a, b = rough[i], rough[(i + 1) % 4]
        side = b - a
        length = np.linalg.norm(side)
        t = ((points - a) @ side) / max(length ** 2, 1e-9)
        normal = np.array([-side[1], side[0]]) / max(length, 1e-9)
        near = (t > 0.2) & (t < 0.8) & (np.abs((points - a) @ normal) < 0.08 * length + 2)
        chosen = points[near] if np.count_nonzero(near) >= 5 else np.array([a, b])
        vx, vy, x0, y0 = cv2.fitLine(chosen.astype(np.float32), cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
        lines.append((np.array([x0, y0], np.float64), np.array([vx, vy], np.float64)))
    corners = _crossings(lines)
    return rough if corners is None else corners


def _crossings(lines) -> np.ndarray | None:
    """Corner i where side i - 1 meets side i; lines are (point, direction) pairs."""
    corners = []
    for i in range(4):
        (p, d), (q, e) = lines[i - 1], lines[i]
        matrix = np.array([d, -e]).T
        if abs(np.linalg.det(matrix)) < 1e-6:
            return None
        along, _ = np.linalg.solve(matrix, q - p)
        corners.append(p + along * d)
    return np.array(corners)


def refine_corners(image: np.ndarray, corners, reach: float = 3.0, samples: int = 14) -> np.ndarray:
    """Corners moved onto the card's outline; without a clear edge on every side they
    stay where they were.

    Along each side the change of whiteness (the smallest channel: card stock stands
    out from a wooden or coloured table in it even where its brightness is the table's)
    across it is measured at a few places within ``reach`` pixels. The card's edge is
    the strong change, of the way most places agree on (card lighter or darker than the
    table), that runs along the whole side: the outermost such, as a printed frame or a
    colour fill's rim runs along the edge further in. A line through those points per
    side, neighbouring lines crossed, give the corners."""
    rough = upright_corners(corners)
    grey = cv2.GaussianBlur(image.min(axis=2).astype(np.float32), (3, 3), 0)
    gx, gy = cv2.Sobel(grey, cv2.CV_32F, 1, 0, ksize=3), cv2.Sobel(grey, cv2.CV_32F, 0, 1, ksize=3)
    centre = rough.mean(axis=0)
    offsets = np.arange(-reach, reach + 0.01, 0.5)
    lines = []
    for i in range(4):
        a, b = rough[i], rough[(i + 1) % 4]
        along = (b - a) / max(float(np.linalg.norm(b - a)), 1e-9)
        normal = np.array([-along[1], along[0]])
        if (centre - a) @ normal > 0:
            normal = -normal  # pointing out of the card
        bases = a + np.linspace(0.15, 0.85, samples)[:, None] * (b - a)
        points = bases[:, None, :] + offsets[None, :, None] * normal  # (samples, offsets, 2)
        map_x, map_y = points[..., 0].astype(np.float32), points[..., 1].astype(np.float32)
        dx = cv2.remap(gx, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        dy = cv2.remap(gy, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        signed = dx * normal[0] + dy * normal[1]
        best = None
        for sign in (1.0, -1.0):
            response = sign * signed
            left = np.pad(response[:, :-1], ((0, 0), (1, 0)), constant_values=np.inf)
            right = np.pad(response[:, 1:], ((0, 0), (0, 1)), constant_values=np.inf)
            is_peak = (response >= np.maximum(0.3 * response.max(axis=1, keepdims=True), 8.0)) & \
                (response >= left) & (response >= right)
            is_peak[:, [0, -1]] = False
            near = is_peak.copy()
            for step in (1, 2):  # a peak within 1 px counts as the same edge
                near[:, step:] |= is_peak[:, :-step]
                near[:, :-step] |= is_peak[:, step:]
            consistent = np.flatnonzero(near.sum(axis=0) >= samples * 3 // 4)
            if len(consistent) and (best is None or offsets[consistent.max()] > best[0]):
                best = (offsets[consistent.max()], response, [np.flatnonzero(row) for row in is_peak])
        if best is None:
            return rough
        mode, response, peaks = best
        found = []
        for row, base, candidates in zip(response, bases, peaks):
            if not len(candidates):
                continue
            k = int(candidates[np.abs(offsets[candidates] - mode).argmin()])
            if abs(offsets[k] - mode) > 1.5:
                continue
            found.append(base + (offsets[k] + 0.5 * peak_shift(row, k)) * normal)
        if len(found) < samples * 3 // 4:
            return rough
        vx, vy, x0, y0 = cv2.fitLine(np.float32(found), cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
        lines.append((np.array([x0, y0], np.float64), np.array([vx, vy], np.float64)))
    refined = _crossings(lines)
    if refined is None or np.abs(refined - rough).max() > 2 * reach:
        return rough
    return refined
