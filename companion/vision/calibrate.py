"""Learning a deck from single-card pictures: ``calibrate(pictures, deck_name) -> (Profile, report)``.

What a family can lay out in two minutes is enough: the 20 cards of one colour and the
11 of each other colour (23 pictures). The numerals of every colour are learned from
the full colour's cards (the reader's glyph maps are colour-free), the inks from every
colour's pictures (the 11s). More pictures (other cards, second pictures of a card)
make the profile sturdier.

Pictures are named by card: ``R11.png``, ``r11-2.jpg``, ``Y3_b.png`` (case-insensitive;
anything after the code follows a ``-`` or ``_``). In each picture the card is found
by the play-area finder (:mod:`companion.vision.find`, when the picture shows the
play-area markers) or else by :func:`_largest_card_contour_fallback`, and rectified
as it lies. Which way up each card lies is decided by its numeral against digits drawn
with the bundled fonts (sans, serif, condensed) and, for 6 and 9, by the underline;
pictures of the same number are then made to agree with each other. A folder that
cannot make a whole profile raises :class:`CalibrationError`; nothing is written.

``python -m companion.vision.calibrate FOLDER --deck NAME --out PROFILE_DIR`` calibrates a
folder; ``python -m companion.vision.calibrate --remake-default`` remakes the shipped
profile (see calibration/README.md).
"""

from __future__ import annotations

import argparse
import functools
import re
import sys
import tempfile
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

import cv2
import numpy as np

from ..cards import COLOURS, Card, Colour
from .profile import CARD_MM, NUMBERS, Layout, Profile
from .read import CardReader, card_for_matching, glyph_map, lab, looks_inverse, measure, upright_corners

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp")
_NAME = re.compile(r"^([rygb])(\d{1,2})(?:[-_].*)?$", re.IGNORECASE)
_FONTS = ("DejaVuSans-Bold.ttf", "DejaVuSerif-Bold.ttf", "DejaVuSansCondensed-Bold.ttf", "DejaVuSans.ttf")
_BOX_PAD_MM = 2.0  # around the numerals' extent, on every side
_MIN_PICTURES_PER_COLOUR_FOR_SPREAD = 3


class CalibrationError(Exception):
    """Pictures from which no usable profile can be made; the message says why."""


@dataclass
class CalibrationReport:
    """What a calibration learned, what it lacks, and how it reads its own pictures."""

    deck: str
    pictures: int
    cards: list[str]  # card codes, one per picture
    numbers: list[int]  # numbers with a numeral template
    colours: list[str]  # colours with an ink
    inverse: bool
    numeral_box_mm: tuple[float, ...]
    turned: list[str]  # pictures in which the card lay upside down
    found_by: dict[str, int]  # how cards were found: "finder" / "fallback" / "given"
    self_test: tuple[int, int] = (0, 0)  # (read right, pictures)
    warnings: list[str] = field(default_factory=list)
    left_out: list[str] = field(default_factory=list)  # pictures without a card found (strict=False)

    def text(self) -> str:
        lines = [f"deck {self.deck!r}: {self.pictures} pictures, {'inverse (colour fill)' if self.inverse else 'paper'} "
                 f"faces",
                 f"  numerals learned: {_ranges(self.numbers)} ({len(self.numbers)} of 20)",
                 f"  inks learned: {', '.join(self.colours) or 'none'}",
                 f"  numeral box: x {self.numeral_box_mm[0]:.1f}-{self.numeral_box_mm[2]:.1f} mm, "
                 f"y {self.numeral_box_mm[1]:.1f}-{self.numeral_box_mm[3]:.1f} mm",
                 f"  cards found by: {', '.join(f'{k} {v}' for k, v in sorted(self.found_by.items()))}; "
                 f"upside down: {len(self.turned)}",
                 f"  reading its own pictures: {self.self_test[0]} of {self.self_test[1]} right"]
        lines += [f"  warning: {w}" for w in self.warnings]
        return "\n".join(lines)


def _ranges(numbers) -> str:
    numbers, parts = sorted(numbers), []
    for n in numbers:
        if parts and n == parts[-1][1] + 1:
            parts[-1][1] = n
        else:
            parts.append([n, n])
    return ", ".join(f"{a}" if a == b else f"{a}-{b}" for a, b in parts) or "none"


# --- pictures ---------------------------------------------------------------------------


def card_of_filename(name: str) -> Card | None:
    """The card a picture's file name starts with (``R11.png``, ``r11-2.jpg``), or None."""
    match = _NAME.match(Path(name).stem)
    if not match:
        return None
    number = int(match[2])
    return Card(Colour.parse(match[1]), number) if 1 <= number <= 20 else None


def load_pictures(folder: str | Path) -> dict[Card, list[tuple[str, np.ndarray]]]:
    """The pictures of a folder by card; unusable folders raise :class:`CalibrationError`."""
    folder = Path(folder)
    if not folder.is_dir():
        raise CalibrationError(f"{folder}: no such folder")
    files = sorted(p for p in folder.iterdir() if p.is_file() and p.suffix.lower() in IMAGE_SUFFIXES)
    if not files:
        raise CalibrationError(f"{folder}: no pictures (.png or .jpg) in the folder")
    pictures: dict[Card, list[tuple[str, np.ndarray]]] = {}
    unnamed = []
    for path in files:
        card = card_of_filename(path.name)
        if card is None:
            unnamed.append(path.name)
            continue
        image = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if image is None:
            raise CalibrationError(f"{path}: not a readable picture")
        pictures.setdefault(card, []).append((path.name, image))
    if not pictures:
        raise CalibrationError(f"{folder}: no picture is named by its card (like R11.png or y3-2.jpg); "
                               f"found {', '.join(unnamed[:5])}{' ...' if len(unnamed) > 5 else ''}")
    return pictures


def find_card(image: np.ndarray, card: Card | None = None) -> tuple[np.ndarray | None, str]:
    """The corners of the card in a calibration picture, and what found them.

    Candidates come from the play-area finder (pictures that show the markers), else
    from :func:`_card_shaped_contours`. The finder's outlines are kept as they are (the reader will be given the finder's
    outlines); the others are moved onto the card's edges (:func:`refine_corners`).
    Knowing the card (from the file name), the candidate whose middle looks most like
    that number is taken; if none looks like a numeral at all, None."""
    if card is None:
        found = _finder_candidates(image)
        if found:
            return found[0], "finder"
        found = _card_shaped_contours(image)
        return (refine_corners(image, found[0], reach=5.0), "fallback") if found else (None, "none")
    for source, found_by in ((_finder_candidates, "finder"), (_card_shaped_contours, "fallback")):
        scored = []
        for corners in source(image):  # most card-shaped first
            if found_by != "finder":  # the finder's outlines are the ones the reader will get: kept as they are
                corners = refine_corners(image, corners, reach=5.0)
            scored.append((_cardness(image, corners, card.number), corners))
        top = max((score for score, _ in scored), default=0.0)
        if top >= _MIN_CARDNESS:
            # of the outlines that look about as much like the card (the card, the inside
            # of its printed frame), the most card-shaped, which is the larger
            return next(corners for score, corners in scored if score >= top - 0.05), found_by
    return None, "none"


_MIN_CARDNESS = 0.55  # likeness of a candidate's centre to the expected number, below which it is no card


def _cardness(image: np.ndarray, corners: np.ndarray, number: int) -> float:
    """How much the middle of the quadrilateral looks like ``number`` printed on a card."""
    layout = Layout()
    card_image = card_for_matching(image, upright_corners(corners), layout)
    margin = round(layout.margin_mm * layout.match_px_per_mm)
    m = measure(card_image, looks_inverse(card_image, margin), layout.match_px_per_mm, margin)
    if not 0.15 <= m.strength <= 2.5:
        return 0.0
    glyph = glyph_map(m)
    h, w = glyph.shape
    middle = glyph[int(0.2 * h):int(0.8 * h), int(0.08 * w):int(0.92 * w)]
    return max(_font_likeness(middle, number), _font_likeness(middle[::-1, ::-1], number))


def _finder_candidates(image: np.ndarray) -> list[np.ndarray]:
    """The play-area finder's cards, largest first, when the picture shows the markers."""
    try:
        from .area import PlayArea
        from .find import find_cards
    except ImportError:  # no finder: the contours do the job
        return []
    try:
        found = find_cards(PlayArea().update(image))
    except Exception:  # a finder that cannot cope with this picture: the contours do the job
        return []
    corners = [np.asarray(f.corners_frame, np.float64) for f in found]
    return sorted(corners, key=lambda c: -abs(cv2.contourArea(np.float32(c))))


def _largest_card_contour_fallback(image: np.ndarray) -> np.ndarray | None:
    """Fallback finder for calibration pictures (no play-area markers, or no finder): the
    most card-shaped large outline (see :func:`_card_shaped_contours`)."""
    found = _card_shaped_contours(image)
    return found[0] if found else None


def _card_shaped_contours(image: np.ndarray, keep: int = 12) -> list[np.ndarray]:
    """Card-shaped outlines (59:91 rectangles, whole in the picture) among the regions of a
    few segmentations (Otsu on brightness and saturation, edges, top-hats that keep
    compact bright or dark patches and drop a tablecloth's pattern), most card-like
    first; corners are the crossings of lines fitted to the four sides."""
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
    return [_quad_corners(contour.reshape(-1, 2).astype(np.float64)) for _, contour in scored[:keep]]


def _quad_corners(points: np.ndarray) -> np.ndarray:
    """Four corners of a (rounded) quadrilateral outline: lines fitted to the middle of each side."""
    hull = cv2.convexHull(points.astype(np.float32)).reshape(-1, 2)
    box = cv2.boxPoints(cv2.minAreaRect(hull))
    approx = cv2.approxPolyDP(hull, 0.02 * cv2.arcLength(hull, True), True).reshape(-1, 2)
    rough = approx.astype(np.float64) if len(approx) == 4 else box.astype(np.float64)
    rough = upright_corners(rough)
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
    """Corners moved onto the card's outline (see :func:`_fit_edges`); without a clear
    edge on every side they stay where they were."""
    rough = upright_corners(corners)
    refined, _ = _fit_edges(_gradients(image), rough, reach, samples)
    return rough if refined is None else refined


def _gradients(image: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Gradients of the whiteness (the smallest channel): card stock stands out from a
    wooden or coloured table in it even where its brightness is the table's."""
    grey = cv2.GaussianBlur(image.min(axis=2).astype(np.float32), (3, 3), 0)
    return cv2.Sobel(grey, cv2.CV_32F, 1, 0, ksize=3), cv2.Sobel(grey, cv2.CV_32F, 0, 1, ksize=3)


def _fit_edges(gradients, rough: np.ndarray, reach: float, samples: int) -> tuple[np.ndarray | None, float]:
    """Along each side, the brightness change across it at a few places within ``reach``
    pixels: the card's edge is the strong change, of the way most places agree on (card
    lighter or darker than the table), that runs along the whole side (the outermost
    such, as a printed frame runs along the edge further in). A line through
    those points per side, neighbouring lines crossed, give the corners; also returned,
    the weakest side's mean edge strength. None when a side has no clear edge."""
    gx, gy = gradients
    centre = rough.mean(axis=0)
    offsets = np.arange(-reach, reach + 0.01, 0.5)
    lines, strengths = [], []
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
        # the card's edge runs along the whole side: for each way the brightness may change
        # (card lighter or darker than the table), the offsets most places have a strong
        # change near; the outermost of them all is the edge (a printed frame or a colour
        # fill's rim runs along it further in)
        best = None
        reach_steps = 2  # ±1 px in 0.5 px steps
        for sign in (1.0, -1.0):
            response = sign * signed
            left = np.pad(response[:, :-1], ((0, 0), (1, 0)), constant_values=np.inf)
            right = np.pad(response[:, 1:], ((0, 0), (0, 1)), constant_values=np.inf)
            is_peak = (response >= np.maximum(0.3 * response.max(axis=1, keepdims=True), 8.0)) & \
                (response >= left) & (response >= right)
            is_peak[:, [0, -1]] = False
            near = is_peak.copy()
            for step in range(1, reach_steps + 1):
                near[:, step:] |= is_peak[:, :-step]
                near[:, :-step] |= is_peak[:, step:]
            consistent = np.flatnonzero(near.sum(axis=0) >= samples * 3 // 4)
            if len(consistent) and (best is None or offsets[consistent.max()] > best[0]):
                best = (offsets[consistent.max()], response, [np.flatnonzero(row) for row in is_peak])
        if best is None:
            return None, 0.0
        mode, response, peaks = best
        found, heights = [], []
        for row, base, candidates in zip(response, bases, peaks):
            if not len(candidates):
                continue
            k = int(candidates[np.abs(offsets[candidates] - mode).argmin()])
            if abs(offsets[k] - mode) > 1.5:
                continue
            denominator = row[k - 1] - 2 * row[k] + row[k + 1]
            shift = 0.5 * (row[k - 1] - row[k + 1]) / denominator if denominator < 0 else 0.0
            found.append(base + (offsets[k] + 0.5 * shift) * normal)
            heights.append(row[k])
        if len(found) < samples * 3 // 4:
            return None, 0.0
        vx, vy, x0, y0 = cv2.fitLine(np.float32(found), cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
        lines.append((np.array([x0, y0], np.float64), np.array([vx, vy], np.float64)))
        strengths.append(float(np.mean(heights)))
    refined = _crossings(lines)
    if refined is None or np.abs(refined - rough).max() > 2 * reach:
        return None, 0.0
    return refined, min(strengths)


# --- learning -----------------------------------------------------------------------------


@dataclass
class _Picture:
    card: Card
    name: str
    image: np.ndarray  # the card's neighbourhood in the picture
    card_image: np.ndarray  # the rectified card at matching scale, as it lies (uint8 BGR)
    corners: np.ndarray  # in ``image``
    found_by: str
    glyph: np.ndarray | None = None  # full-card glyph map
    measurement: object = None
    turned: bool = False
    turn_evidence: float = 0.0


def calibrate(images, deck_name: str, layout: Layout | None = None,
              strict: bool = True) -> tuple[Profile, CalibrationReport]:
    """Learn a deck from single-card pictures.

    ``images``: a folder of pictures named by card, or a mapping of cards (or card codes)
    to lists of pictures (BGR arrays, or ``(picture, corners)`` pairs when the card's
    outline is already known). Returns the profile and a report; raises
    :class:`CalibrationError` when the pictures cannot make a usable profile. With
    ``strict`` False, a picture whose card is not found is left out with a warning
    instead of failing the calibration (useful with many pictures).
    """
    layout = layout or Layout()
    source = "pictures"
    if isinstance(images, (str, Path)):
        source = str(images)
        named = load_pictures(images)
    else:
        named = {}
        for key, pictures in dict(images).items():
            card = key if isinstance(key, Card) else Card.parse(key)
            if isinstance(pictures, np.ndarray) or isinstance(pictures, tuple):
                pictures = [pictures]
            named.setdefault(card, []).extend((f"{card.code}#{i + 1}", p) for i, p in enumerate(pictures))
    if not named:
        raise CalibrationError("no pictures given")
    pictures, lost = _locate(named, layout)
    if lost and (strict or not pictures):
        raise CalibrationError(f"no card found in {', '.join(lost[:8])}{' ...' if len(lost) > 8 else ''}: each "
                               f"picture must show one whole card, flat, on a plainer background than a checked "
                               f"tablecloth, best with the play-area markers in view")

    margin = round(layout.margin_mm * layout.match_px_per_mm)
    inverse = sum(looks_inverse(p.card_image, margin) for p in pictures) * 2 > len(pictures)
    for p in pictures:
        p.measurement = measure(p.card_image, inverse, layout.match_px_per_mm, margin)
        p.glyph = glyph_map(p.measurement)
    warnings: list[str] = [f"no card found in {name}: left out" for name in lost]
    weak = [p.name for p in pictures if p.measurement.contrast < 0.15]
    if weak:
        raise CalibrationError(f"no printed card visible in {', '.join(weak[:5])}: the numerals do not stand out "
                               f"from the card (too dark, washed out, or not a card)")

    _normalise(pictures, layout)
    box = _learn_box(pictures, layout)
    layout = Layout(layout.px_per_mm, layout.match_px_per_mm, box, layout.search_mm, layout.margin_mm)
    _orient(pictures, layout)
    templates = _templates(pictures, layout, warnings)
    by_colour = {c: [p for p in pictures if p.card.colour is c] for c in COLOURS}
    full = [c for c in COLOURS if {p.card.number for p in by_colour[c]} >= set(NUMBERS)]
    if not full:
        best = max(COLOURS, key=lambda c: len({p.card.number for p in by_colour[c]}))
        missing = sorted(set(NUMBERS) - {p.card.number for p in by_colour[best]})
        raise CalibrationError(f"no colour has all 20 cards: lay out all 20 cards of one colour (the most complete, "
                               f"{best.name.lower()}, lacks {_ranges(missing)})")
    inks, inks_lab, covariance = _inks(pictures, by_colour)
    for colour in COLOURS:
        if colour not in inks:
            warnings.append(f"no picture of a {colour.name.lower()} card: {colour.name.lower()} cards will be read "
                            f"as unknown (add its 11)")
        elif not any(p.card.number == 11 for p in by_colour[colour]):
            warnings.append(f"{colour.name.lower()} has no picture of its 11 (its ink was learned from other cards)")
    missing_numbers = sorted(set(NUMBERS) - set(templates))
    if missing_numbers:
        warnings.append(f"no numeral for {_ranges(missing_numbers)}: these numbers will be read as unknown")
    bright = [p.name for p in pictures if _glare(p, layout)]
    if bright:
        warnings.append(f"glare or uneven light on {', '.join(bright)}: retake these pictures if cards misread")

    learned_from = {"pictures": len(pictures), "source": source,
                    "cards": " ".join(c.code for c in sorted({p.card for p in pictures})),
                    "pictures_per_colour": {c.letter: len(by_colour[c]) for c in COLOURS},
                    "full_colours": [c.letter for c in full], "date": date.today().isoformat()}
    profile = Profile(deck=deck_name, inverse=inverse, layout=layout, inks=inks, colour_covariance=covariance,
                      templates=templates, inks_lab=inks_lab, learned_from=learned_from, warnings=list(warnings))
    reader = CardReader(profile)
    misread = []
    for p in pictures:
        reading = reader.read_card(p.image, p.corners)
        if reading.card is not p.card or reading.upside_down != p.turned:
            misread.append(p.name)
    right = len(pictures) - len(misread)
    report = CalibrationReport(
        deck=deck_name, pictures=len(pictures), cards=[p.card.code for p in pictures], numbers=sorted(templates),
        colours=[c.letter for c in inks], inverse=inverse, numeral_box_mm=box,
        turned=[p.name for p in pictures if p.turned],
        found_by={k: sum(p.found_by == k for p in pictures) for k in {p.found_by for p in pictures}},
        self_test=(right, len(pictures)), warnings=warnings, left_out=list(lost))
    if misread:
        report.warnings.append(f"reads only {right} of its own {len(pictures)} pictures right (not "
                               f"{', '.join(misread[:8])}{' ...' if len(misread) > 8 else ''}): retake those")
    return profile, report


def _locate(named, layout: Layout) -> tuple[list[_Picture], list[str]]:
    pictures, lost = [], []
    for card, items in named.items():
        for name, item in items:
            if isinstance(item, tuple):
                image, corners = item
                corners, found_by = np.asarray(corners, np.float64), "given"
            else:
                image = item
                corners, found_by = find_card(image, card)
            if image is None or image.ndim != 3 or image.shape[2] != 3:
                raise CalibrationError(f"{name}: not a colour picture")
            if corners is None:
                lost.append(name)
                continue
            ordered = upright_corners(corners)
            card_image = card_for_matching(image, ordered, layout)
            # keep only the card's neighbourhood of the picture (for the self-test), not the picture
            x0, y0 = np.maximum(np.floor(ordered.min(axis=0)).astype(int) - 8, 0)
            x1, y1 = np.ceil(ordered.max(axis=0)).astype(int) + 9
            pictures.append(_Picture(card, name, image[y0:y1, x0:x1].copy(), card_image, ordered - [x0, y0],
                                     found_by))
    return pictures, lost


def _digits_box(glyph: np.ndarray, layout: Layout) -> tuple[float, float, float, float] | None:
    """(x0, y0, x1, y1) of the centre numeral's digits (no underline) in a glyph map."""
    s = layout.match_px_per_mm
    h, w = glyph.shape
    count, _, stats, _ = cv2.connectedComponentsWithStats((glyph > 0.5).astype(np.uint8), connectivity=8)
    window = (w / 2 - 8 * s, h / 2 - 8 * s, w / 2 + 8 * s, h / 2 + 8 * s)
    band = 4 * s  # a printed frame runs within this of the edges; digits do not reach it
    parts = [b for b in stats[1:] if b[4] >= 3 and _overlaps(b, window) and b[2] < 2.5 * b[3]
             and b[0] >= band and b[1] >= band and b[0] + b[2] <= w - band and b[1] + b[3] <= h - band]
    if not parts:
        return None
    return (min(b[0] for b in parts), min(b[1] for b in parts), max(b[0] + b[2] for b in parts),
            max(b[1] + b[3] for b in parts))


def _normalise(pictures: list[_Picture], layout: Layout) -> None:
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


def _learn_box(pictures: list[_Picture], layout: Layout) -> tuple[float, float, float, float]:
    """The numeral box: where the centre numerals (with the underlines of 6 and 9) of all
    numbers lie, made symmetric about the card's centre, plus a pad."""
    s = layout.match_px_per_mm
    w, h = layout.card_px(s)
    lefts, tops = {}, {}
    for p in pictures:
        ink = (p.glyph > 0.5).astype(np.uint8)
        count, _, stats, _ = cv2.connectedComponentsWithStats(ink, connectivity=8)
        band = 4 * s  # frames and corner indices live near the edges; numerals do not reach them
        parts = [b for b in stats[1:] if b[cv2.CC_STAT_AREA] >= 3 and b[2] < 0.8 * w and b[3] < 0.8 * h
                 and b[0] >= band and b[1] >= band and b[0] + b[2] <= w - band and b[1] + b[3] <= h - band]
        window = (w / 2 - 8 * s, h / 2 - 8 * s, w / 2 + 8 * s, h / 2 + 8 * s)
        centre = [b for b in parts if _overlaps(b, window)]
        if not centre:
            continue
        x0 = min(b[0] for b in centre)
        y0 = min(b[1] for b in centre)
        x1 = max(b[0] + b[2] for b in centre)
        y1 = max(b[1] + b[3] for b in centre)
        reach = 0.3 * (y1 - y0)  # an underline hangs a little below (or above) the digits
        for b in parts:
            if b[0] >= x0 - 2 and b[0] + b[2] <= x1 + 2 and _overlaps(b, (x0, y0 - reach, x1, y1 + reach)):
                y0, y1 = min(y0, b[1]), max(y1, b[1] + b[3])
        lefts.setdefault(p.card.number, []).append(min(x0, w - x1))
        tops.setdefault(p.card.number, []).append(min(y0, h - y1))
    if not lefts:
        raise CalibrationError("no centre numeral found on any card")
    # per number the widest of its pictures but one (an odd picture does not count), then
    # the widest of the numbers
    tops_per_number = [sorted(v)[1 if len(v) >= 3 else 0] for v in tops.values()]
    digits = h - 2 * float(np.median(tops_per_number))  # about the digits' height
    # the underline of a 6 or 9 reaches about a fifth of that beyond the digits: not an outlier
    left = _low_fence([sorted(v)[1 if len(v) >= 3 else 0] for v in lefts.values()], 0.3 * digits)
    top = _low_fence(tops_per_number, 0.3 * digits)
    x0 = max(1.0, left / s - _BOX_PAD_MM - layout.search_mm)
    y0 = max(1.0, top / s - _BOX_PAD_MM - layout.search_mm)
    x0, y0 = max(x0, layout.search_mm + 0.5), max(y0, layout.search_mm + 0.5)
    return (round(x0, 2), round(y0, 2), round(CARD_MM[0] - x0, 2), round(CARD_MM[1] - y0, 2))


def _low_fence(values, slack: float) -> float:
    """The smallest value that is not an outlier (below the lower quartile by more than
    1.5 interquartile ranges plus ``slack``): a glare blob or a stray mark next to one
    card's numeral does not stretch the box for all."""
    values = np.asarray(values, np.float64)
    q1, q3 = np.percentile(values, [25, 75])
    return float(values[values >= q1 - 1.5 * (q3 - q1) - slack].min())


def _overlaps(b, window) -> bool:
    return b[0] < window[2] and b[0] + b[2] > window[0] and b[1] < window[3] and b[1] + b[3] > window[1]


def _crop(p: _Picture, layout: Layout, pad: int = 0) -> np.ndarray:
    x0, y0, x1, y1 = layout.box_px()
    crop = p.glyph[y0 - pad:y1 + pad, x0 - pad:x1 + pad]
    return crop[::-1, ::-1] if p.turned else crop


def _ncc(a: np.ndarray, b: np.ndarray) -> float:
    a = a - a.mean()
    b = b - b.mean()
    return float((a * b).sum() / max(np.sqrt((a * a).sum() * (b * b).sum()), 1e-9))


def _orient(pictures: list[_Picture], layout: Layout) -> None:
    """Decide which way up each card lies: the underline of 6 and 9, else the digits of
    the bundled fonts; then pictures of one number agree with its most certain one."""
    for p in pictures:
        crop = _crop(p, layout)
        underline = _underline_side(crop)
        if underline is not None and p.card.number in (6, 9):
            p.turned, p.turn_evidence = underline == "above", 1.0
            continue
        upright = _font_likeness(crop, p.card.number)
        turned = _font_likeness(crop[::-1, ::-1], p.card.number)
        p.turned, p.turn_evidence = turned > upright, abs(turned - upright)
    for number in {p.card.number for p in pictures}:
        group = sorted((p for p in pictures if p.card.number == number), key=lambda p: -p.turn_evidence)
        anchor = _crop(group[0], layout)
        for p in group[1:]:
            same, other = _ncc(_crop(p, layout), anchor), _ncc(_crop(p, layout)[::-1, ::-1], anchor)
            if abs(same - other) > 0.05 and (other > same):
                p.turned = not p.turned


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


def _font_likeness(crop: np.ndarray, number: int) -> float:
    """How much the digits in ``crop`` look like ``number`` printed upright in a common font."""
    digits = _digit_patch(crop)
    if digits is None:
        return 0.0
    return max(_ncc(digits, reference) for reference in _font_digits(number))


def _digit_patch(crop: np.ndarray, size: int = 24) -> np.ndarray | None:
    ink = (crop > 0.5).astype(np.uint8)
    count, _, stats, _ = cv2.connectedComponentsWithStats(ink, connectivity=8)
    parts = [stats[i] for i in range(1, count) if stats[i, cv2.CC_STAT_AREA] >= 3
             and not (stats[i, 2] >= 2.5 * stats[i, 3])]  # leave out an underline
    if not parts:
        return None
    x0 = min(b[0] for b in parts)
    y0 = min(b[1] for b in parts)
    x1 = max(b[0] + b[2] for b in parts)
    y1 = max(b[1] + b[3] for b in parts)
    patch = np.clip(crop[y0:y1, x0:x1], 0, 1).astype(np.float32)
    return cv2.resize(patch, (size, size), interpolation=cv2.INTER_AREA)


@functools.lru_cache(maxsize=None)
def _font_digits(number: int, size: int = 24) -> tuple[np.ndarray, ...]:
    """``number`` drawn upright with each bundled font, cropped to its ink, as size × size patches."""
    from PIL import Image, ImageDraw, ImageFont

    font_dir = Path(__file__).resolve().parent.parent / "assets" / "fonts"
    patches = []
    for name in _FONTS:
        if not (font_dir / name).is_file():
            continue
        font = ImageFont.truetype(str(font_dir / name), 96)
        canvas = Image.new("L", (260, 160), 0)
        ImageDraw.Draw(canvas).text((20, 10), str(number), font=font, fill=255)
        array = np.asarray(canvas, np.float32) / 255
        ys, xs = np.nonzero(array > 0.5)
        array = array[ys.min():ys.max() + 1, xs.min():xs.max() + 1]
        patches.append(cv2.resize(array, (size, size), interpolation=cv2.INTER_AREA))
    return tuple(patches)


def _templates(pictures: list[_Picture], layout: Layout, warnings: list[str]) -> dict[int, np.ndarray]:
    """Each number's template: its pictures' numeral crops, each aligned to the most
    certain one, and their median (mean of two). A picture whose numeral does not look
    like the others' (an outline that missed, a glare spot) is left out when there are
    three or more."""
    search = layout.search_px()
    shape = layout.template_shape()
    templates = {}
    for number in sorted({p.card.number for p in pictures}):
        group = sorted((p for p in pictures if p.card.number == number), key=lambda p: -p.turn_evidence)
        anchor = _crop(group[0], layout)
        stack = [anchor]
        for p in group[1:]:
            padded = _crop(p, layout, search)
            if search:
                scores = cv2.matchTemplate(padded.astype(np.float32), anchor.astype(np.float32), cv2.TM_CCOEFF_NORMED)
                _, _, _, (dx, dy) = cv2.minMaxLoc(scores)
                stack.append(padded[dy:dy + shape[0], dx:dx + shape[1]])
            else:
                stack.append(padded)
        if len(stack) >= 3:
            median = np.median(np.stack(stack), axis=0)
            likeness = np.array([_ncc(crop, median) for crop in stack])
            keep = likeness >= min(0.8, float(np.median(likeness)) - 0.1)
            odd = [p.name for p, kept in zip(group, keep) if not kept]
            if odd:
                warnings.append(f"the {number} in {', '.join(odd)} does not look like the other {number}s: left out")
            stack = [crop for crop, kept in zip(stack, keep) if kept]
        mean = np.median(np.stack(stack), axis=0) if len(stack) >= 3 else np.mean(np.stack(stack), axis=0)
        templates[number] = np.round(np.clip(mean, 0.0, 1.0) * 255).astype(np.uint8)
    return templates


def _inks(pictures: list[_Picture], by_colour) -> tuple[dict, dict, np.ndarray]:
    """Each colour's ink (median chromaticity, and L*a*b* for people) and the spread of
    its hue and log saturation among a colour's pictures, pooled over the colours that
    have enough pictures."""
    inks, inks_lab, deviations = {}, {}, []
    for colour, group in by_colour.items():
        if not group:
            continue
        points = np.array([p.measurement.chroma for p in group])
        inks[colour] = np.median(points, axis=0)
        inks_lab[colour] = np.median([lab(p.measurement.ink[::-1]) for p in group], axis=0)
        if len(points) >= _MIN_PICTURES_PER_COLOUR_FOR_SPREAD:
            hue = np.arctan2(points[:, 1], points[:, 0]) - np.arctan2(inks[colour][1], inks[colour][0])
            log_saturation = np.log(np.maximum(np.hypot(points[:, 0], points[:, 1]), 1e-3) /
                                    max(float(np.hypot(*inks[colour])), 1e-3))
            deviations.append(np.stack([(hue + np.pi) % (2 * np.pi) - np.pi, log_saturation], axis=1))
    covariance = np.zeros((2, 2))
    if deviations:
        spread = np.concatenate(deviations)
        covariance = spread.T @ spread / max(len(spread) - 1, 1)
    return inks, inks_lab, covariance


def _glare(p: _Picture, layout: Layout) -> bool:
    """A washed-out patch: the card's background much brighter in places than typical."""
    grey = cv2.cvtColor(p.card_image, cv2.COLOR_BGR2GRAY).astype(np.float32)
    m = round(layout.margin_mm * layout.match_px_per_mm)
    inner = cv2.blur(grey[m:-m, m:-m], (5, 5))
    return float(np.percentile(inner, 99)) > 1.35 * float(np.median(inner)) and not looks_inverse(p.card_image, m)


# --- command line -------------------------------------------------------------------------


def remake_default(out: Path | None = None, variants: int = 2, seed: int = 0) -> tuple[Profile, CalibrationReport]:
    """Remake the shipped profile: all 80 cards of the ``reference`` deck style, ``variants``
    pictures each, rendered by the synthetic table (``elfer synth cards``), calibrated."""
    from ..sim.datasets import write_cards
    from .profile import _shipped_profile_dir

    out = Path(out) if out else _shipped_profile_dir()
    with tempfile.TemporaryDirectory() as tmp:
        write_cards(Path(tmp), "reference", variants=variants, seed=seed)
        profile, report = calibrate(tmp, deck_name="reference", strict=False)
    profile.learned_from["source"] = (f"elfer synth cards --style reference --variants {variants} --seed {seed} "
                                      f"(companion.sim.datasets.write_cards)")
    profile.save(out)
    return profile, report


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description="Learn a deck from single-card pictures named by card.")
    parser.add_argument("folder", nargs="?", type=Path, help="pictures named R11.png, r11-2.jpg, ...")
    parser.add_argument("--deck", default=None, help="the deck's name (default: the folder's name)")
    parser.add_argument("--out", type=Path, default=None, help="profile folder to write")
    parser.add_argument("--remake-default", action="store_true",
                        help="re-render the reference deck and rewrite the shipped profile (calibration/reference)")
    args = parser.parse_args(argv)
    try:
        if args.remake_default:
            _, report = remake_default(args.out)
        else:
            if args.folder is None or args.out is None:
                parser.error("give a FOLDER of pictures and --out PROFILE_DIR (or --remake-default)")
            profile, report = calibrate(args.folder, deck_name=args.deck or args.folder.name)
            profile.save(args.out)
    except CalibrationError as error:
        print(f"calibration failed: {error}", file=sys.stderr)
        return 2
    print(report.text())
    return 0


if __name__ == "__main__":
    sys.exit(main())
