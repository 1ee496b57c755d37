"""Learning a deck from single-card pictures: ``calibrate(pictures, deck_name) -> (Profile, report)``.

What a family can lay out in two minutes is enough: the 20 cards of one colour and the
11 of each other colour (23 pictures). The numerals of every colour are learned from
the full colour's cards (the reader's glyph maps are colour-free), the inks from every
colour's pictures (the 11s). More pictures (other cards, second pictures of a card)
make the profile sturdier.

Pictures are named by card: ``R11.png``, ``r11-2.jpg``, ``Y3_b.png`` (case-insensitive;
anything after the code follows a ``-`` or ``_``). In each picture the card is found
(:mod:`companion.vision.single`) and rectified as it lies. Which way up each card lies
is decided by its numeral against digits drawn with the bundled fonts
(:mod:`companion.vision.digits`) and, for 6 and 9, by the underline; pictures of the
same number are then made to agree with each other.

A poor picture teaches no numeral where a good picture of the same number does: a
blurred one (shaken or out of focus: much less fine detail than the others) or a washed
out one (glare or too much light on the card: its numeral stands out far less than on
the others). Where it is the only one, the numeral is learned from it and the report
names it for a retake (``retake``).

A picture in which no card is found, or whose card shows no print, is left out with a
warning that names it and says why; what is left must still make a whole profile (one
colour with all 20 numbers). A folder that cannot raises :class:`CalibrationError`,
naming the pictures left out; nothing is written. ``strict=True`` fails on any unusable
picture instead.

``elfer calibrate --images FOLDER --out PROFILE_DIR`` calibrates a folder;
``python -m companion.bench.remake_profile`` remakes the shipped profile
(see calibration/README.md).
"""

from __future__ import annotations

import itertools
import logging
import math
import re
from dataclasses import dataclass, field, replace
from datetime import date
from pathlib import Path

import cv2
import numpy as np

from ..cards import COLOURS, Card, Colour
from . import numerals, straighten
from .off_centre import off_centre_box
from .calibration_notes import Note, note, report_text
from .profile import NUMBERS, Layout, Profile
from .ink import lab, looks_inverse, measure
from .glyphs import glyph_map, under_glare_evened
from .card_reader import CardReader, card_for_matching, upright_corners
from .single import Located, candidates, look, most_alike, table_size

log = logging.getLogger(__package__)

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp")
# pictures a camera or phone may save that OpenCV does not read: named, with what to do
UNREADABLE_SUFFIXES = (".heic", ".heif", ".dng", ".raw", ".cr2", ".cr3", ".nef", ".arw")
# A picture larger than this on its long side (a phone's photo, a camera module's full-size
# still) is scaled down to it as it loads: the camera above the table reads 1280 x 720 frames,
# and 23 pictures of 3840 x 2160 took five times as long and five times the memory.
MAX_PICTURE_SIDE = 1920
_NAME = re.compile(r"^([rygb])(\d{1,2})(?:[-_].*)?$", re.IGNORECASE)
_MIN_PICTURES_PER_COLOUR_FOR_SPREAD = 3
_MIN_CONTRAST = 0.15  # a card's numerals standing out less than this from it are no print
# A picture whose channels differ by less than this on average (0-255: |B - G| + |G - R|)
# has no colour: a black-and-white photo, or a camera set to monochrome; its inks would all
# be grey and its profile read none of its own pictures.
_MIN_CHANNEL_SPREAD = 0.75
# Two inks whose hues lie closer than this (degrees) are one colour learned twice: a
# picture named for another colour (Y11.png showing the green 11).
_MIN_INKS_APART_DEG = 15.0
# A picture whose print keeps less than this share of the fine detail the set's pictures
# typically keep is blurred (shaken or out of focus): a numeral learned from one matches
# other blurred numerals too well (a smeared 19 takes a 16 and a 10 for 19s).
_BLURRED = 0.5
# A picture whose numeral stands out from the card (``Measurement.contrast``) less than
# this share of the set's typical card is washed out (a glare spot on it): its template
# reads no card of its number.
_WASHED_OUT = 0.2
_FINE_MM, _COARSE_MM = 1.0, 3.0  # the scales (Gaussian sigma, mm) whose detail is compared
# A card further than this from the typical card (``single.most_alike``: typical
# differences a pixel) is poor: glare, blur, or a patch of a checked cloth in a picture
# without its card; judged only among at least _MIN_PICTURES_TO_COMPARE pictures.
_UNLIKE, _MIN_PICTURES_TO_COMPARE = 1.05, 5


def calibration_set(full: Colour = Colour.RED) -> list[Card]:
    """The 23 cards a family lays out to calibrate: one full colour and the other colours' 11s."""
    return [Card(colour, number) for colour in COLOURS for number in range(1, 21)
            if colour is full or number == 11]


class CalibrationError(Exception):
    """Pictures from which no usable profile can be made; the note says why (the message
    is its English text), and ``left_out`` names the pictures that could not be used."""

    def __init__(self, why: Note, left_out=()):
        super().__init__(str(why))
        self.note = why
        self.left_out = list(left_out)

    def text(self, lang: str = "en") -> str:
        return self.note.text(lang)


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
    found_by: dict[str, int]  # how cards were found: "finder", "outline", "search" (single.py) or "given"
    straightened: list[str] = field(default_factory=list)  # pictures whose outline was moved onto the card
    self_test: tuple[int, int] = (0, 0)  # (read right, pictures)
    warnings: list[Note] = field(default_factory=list)
    left_out: list[str] = field(default_factory=list)  # pictures left out: no card found, or no print on it
    retake: list[str] = field(default_factory=list)  # poor pictures a numeral had to be learned from
    misread: list[str] = field(default_factory=list)  # pictures the profile does not read right (the self-test)
    scaled_down: list[str] = field(default_factory=list)  # pictures larger than MAX_PICTURE_SIDE, read scaled down

    def text(self, lang: str = "en") -> str:
        """What it learned, what it lacks and its warnings, for people (German or English)."""
        return report_text(self, lang, MAX_PICTURE_SIDE)


# --- pictures ---------------------------------------------------------------------------


def card_of_filename(name: str) -> Card | None:
    """The card a picture's file name starts with (``R11.png``, ``r11-2.jpg``), or None."""
    match = _NAME.match(Path(name).stem)
    if not match:
        return None
    number = int(match[2])
    return Card(Colour.parse(match[1]), number) if 1 <= number <= 20 else None


def load_pictures(folder: str | Path) -> tuple[dict[Card, list[tuple[str, np.ndarray]]], list[str], list[str]]:
    """The pictures of a folder by card, each scaled down to ``MAX_PICTURE_SIDE``; the names
    of those that were; and of pictures named by a card in a format it cannot read
    (``UNREADABLE_SUFFIXES``). Unusable folders raise :class:`CalibrationError`."""
    folder = Path(folder)
    if not folder.is_dir():
        raise CalibrationError(note("not_a_folder" if folder.exists() else "no_folder", folder=folder))
    files = sorted(p for p in folder.iterdir() if p.is_file() and p.suffix.lower() in IMAGE_SUFFIXES)
    if not files:
        unreadable = sorted({p.suffix.lower() for p in folder.iterdir() if p.suffix.lower() in UNREADABLE_SUFFIXES})
        if unreadable:
            raise CalibrationError(note("unreadable_format", folder=folder, formats=", ".join(unreadable)))
        raise CalibrationError(note("no_pictures", folder=folder))
    pictures: dict[Card, list[tuple[str, np.ndarray]]] = {}
    unnamed, scaled = [], []
    for path in files:
        card = card_of_filename(path.name)
        if card is None:
            unnamed.append(path.name)
            continue
        image, was_scaled = read_picture(path)
        if was_scaled:
            scaled.append(path.name)
        pictures.setdefault(card, []).append((path.name, image))
    if not pictures:
        raise CalibrationError(note("unnamed", folder=folder,
                                    found=", ".join(unnamed[:5]) + (" ..." if len(unnamed) > 5 else "")))
    unreadable = sorted(p.name for p in folder.iterdir()
                        if p.suffix.lower() in UNREADABLE_SUFFIXES and card_of_filename(p.name) is not None)
    return pictures, scaled, unreadable


def read_picture(path: Path) -> tuple[np.ndarray, bool]:
    """A picture, scaled down to ``MAX_PICTURE_SIDE`` on its long side, and whether it was;
    :class:`CalibrationError` where it is missing or cannot be read."""
    image = cv2.imread(str(path), cv2.IMREAD_COLOR) if path.is_file() else None
    if image is None:
        raise CalibrationError(note("unreadable" if path.is_file() else "no_picture", path=path))
    if max(image.shape[:2]) > MAX_PICTURE_SIDE:
        return scaled_down(image, MAX_PICTURE_SIDE), True
    return image, False


def scaled_down(image: np.ndarray, max_side: int) -> np.ndarray:
    """The picture with its long side at most ``max_side`` pixels (averaged down)."""
    scale = max_side / max(image.shape[:2])
    if scale >= 1.0:
        return image
    size = (max(1, round(image.shape[1] * scale)), max(1, round(image.shape[0] * scale)))
    return cv2.resize(image, size, interpolation=cv2.INTER_AREA)


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
    poor: str = ""  # why its numeral is not learned from it where a good picture is (``calibration_notes.POOR``)
    unlike: bool = False  # unlike the other pictures' cards at a glance: poor, unless something else says why


def calibrate(images, deck_name: str, layout: Layout | None = None,
              strict: bool = False) -> tuple[Profile, CalibrationReport]:
    """Learn a deck from single-card pictures.

    ``images``: a folder of pictures named by card, or a mapping of cards (or card codes)
    to lists of pictures (BGR arrays, or ``(picture, corners)`` pairs when the card's
    outline is already known). Returns the profile and a report. A picture in which no
    card is found, or whose card shows no print, is left out with a warning (with
    ``strict``, it fails the calibration); :class:`CalibrationError` is raised when the
    pictures left cannot make a usable profile.
    """
    layout = layout or Layout()
    source, scaled, unreadable = "pictures", [], []
    if isinstance(images, (str, Path)):
        source = str(images)
        named, scaled, unreadable = load_pictures(images)
    else:
        named = {}
        for key, pictures in dict(images).items():
            card = key if isinstance(key, Card) else Card.parse(key)
            if isinstance(pictures, np.ndarray) or isinstance(pictures, tuple):
                pictures = [pictures]
            named.setdefault(card, []).extend((f"{card.code}#{i + 1}", p) for i, p in enumerate(pictures))
    if not named:
        raise CalibrationError(note("no_pictures_given"))
    pictures, lost = _locate(named, layout)
    lost = [(name, note("file_format")) for name in unreadable] + lost
    if not pictures and all(why.kind == "black_and_white" for _, why in lost):
        raise CalibrationError(note("all_black_and_white", count=len(lost)), [name for name, _ in lost])
    margin = round(layout.margin_mm * layout.match_px_per_mm)
    inverse = sum(looks_inverse(p.card_image, margin) for p in pictures) * 2 > len(pictures)
    for p in pictures:
        p.measurement = measure(p.card_image, inverse, layout.match_px_per_mm, margin)
    lost += [(p.name, note("no_print")) for p in pictures if p.measurement.contrast < _MIN_CONTRAST]
    pictures = [p for p in pictures if p.measurement.contrast >= _MIN_CONTRAST]
    if lost and (strict or not pictures):
        raise CalibrationError(note("cannot_use", lost=lost), [name for name, _ in lost])
    for p in pictures:
        p.glyph = glyph_map(p.measurement)
    warnings: list[Note] = [note("left_out", lost=[item]) for item in lost]
    _mark_poor(pictures, layout)
    for p in pictures:
        # as the reader sees it: a numeral half under a glare spot would teach half a numeral
        p.glyph = under_glare_evened(p.glyph, p.measurement, layout.match_px_per_mm)
    straightened = _straighten(pictures, layout, inverse, margin)
    retake = _name_poor(pictures, warnings)

    by_colour = {c: [p for p in pictures if p.card.colour is c] for c in COLOURS}
    full = [c for c in COLOURS if {p.card.number for p in by_colour[c]} >= set(NUMBERS)]
    if not full:
        best = max(COLOURS, key=lambda c: len({p.card.number for p in by_colour[c]}))
        missing = sorted(set(NUMBERS) - {p.card.number for p in by_colour[best]})
        why = (note("no_full_colour_lost", colour=best, missing=missing, lost=lost) if lost
               else note("no_full_colour", colour=best, missing=missing))
        raise CalibrationError(why, [name for name, _ in lost])
    box = off_centre_box(pictures, layout)
    if box is None:
        numerals.normalise(pictures, layout)
        box = numerals.learn_box(pictures, layout)
    if box is None:
        raise CalibrationError(note("no_numerals"))
    layout = replace(layout, numeral_box_mm=box)
    numerals.orient(pictures, layout)
    templates = numerals.templates(pictures, layout, warnings)
    numerals.measure_ink_on_strokes(pictures, templates, layout, inverse)
    inks, inks_lab, covariance = _inks(pictures, by_colour)
    _check_inks_apart(inks, by_colour, [name for name, _ in lost])
    for colour in COLOURS:
        if colour not in inks:
            warnings.append(note("no_colour", colour=colour))
        elif not any(p.card.number == 11 for p in by_colour[colour]):
            warnings.append(note("no_eleven", colour=colour))
    missing_numbers = sorted(set(NUMBERS) - set(templates))
    if missing_numbers:
        warnings.append(note("no_numeral", numbers=missing_numbers))
    bright = [p.name for p in pictures if _glare(p, layout)]
    if bright:
        warnings.append(note("glare", names=bright))

    learned_from = {"pictures": len(pictures), "source": source,
                    "cards": " ".join(c.code for c in sorted({p.card for p in pictures})),
                    "pictures_per_colour": {c.letter: len(by_colour[c]) for c in COLOURS},
                    "full_colours": [c.letter for c in full], "date": date.today().isoformat()}
    profile = Profile(deck=deck_name, inverse=inverse, layout=layout, inks=inks, colour_covariance=covariance,
                      templates=templates, inks_lab=inks_lab, learned_from=learned_from,
                      warnings=[str(w) for w in warnings],
                      face_print=numerals.face_print(pictures, layout))
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
        straightened=straightened,
        self_test=(right, len(pictures)), warnings=warnings, left_out=[name for name, _ in lost], retake=retake,
        misread=misread, scaled_down=scaled)
    # INFO, not WARNING: the report tells the user, in their language; the log is for whoever keeps the device
    for name, why in lost:
        log.info("calibration of %s: picture %s left out: %s", deck_name, name, why)
    if retake:
        log.info("calibration of %s: pictures to retake: %s", deck_name, ", ".join(retake))
    log.info("calibration of %s: %d pictures, %d of them read right by the new profile", deck_name, len(pictures),
             right)
    if right * 2 < len(pictures):  # a profile that cannot read most of its own pictures reads no table
        raise CalibrationError(note("reads_too_few", right=right, total=len(pictures), names=misread),
                               [name for name, _ in lost])
    if misread:
        report.warnings.append(note("misread", right=right, total=len(pictures), names=misread))
    return profile, report


def _check_inks_apart(inks: dict, by_colour: dict, left_out: list[str]) -> None:
    """Raises :class:`CalibrationError` where two colours' inks have (nearly) the same hue,
    naming the pictures of the one learned from fewer pictures: the likelier misnamed."""
    hues = {colour: math.degrees(math.atan2(chroma[1], chroma[0])) for colour, chroma in inks.items()}
    for first, second in itertools.combinations(hues, 2):
        apart = abs((hues[first] - hues[second] + 180.0) % 360.0 - 180.0)
        if apart < _MIN_INKS_APART_DEG:
            suspect = min((first, second), key=lambda colour: len(by_colour[colour]))
            raise CalibrationError(note("inks_alike", first=first, second=second, apart=round(apart),
                                        suspect=suspect, names=[p.name for p in by_colour[suspect]]), left_out)


def _colour_picture(image) -> bool:
    return image is not None and image.ndim == 3 and image.shape[2] == 3


def _black_and_white(image: np.ndarray) -> bool:
    """Whether the picture's three channels are (nearly) the same everywhere."""
    blue, green, red = cv2.split(image)
    spread = cv2.absdiff(blue, green).mean() + cv2.absdiff(green, red).mean()
    return float(spread) < _MIN_CHANNEL_SPREAD


def _locate(named, layout: Layout) -> tuple[list[_Picture], list[tuple[str, Note]]]:
    """The pictures whose card is found, and (name, why) of those whose card is not. Of
    the outlines that may be a picture's card, the one most like the cards of the other
    pictures is taken (:func:`companion.vision.single.most_alike`): on a checked cloth a
    patch of table can stand out as clearly as a white card."""
    found, lost = [], []
    area_mm = table_size(item for items in named.values() for _, item in items
                         if not isinstance(item, tuple) and _colour_picture(item))
    for card, items in named.items():
        for name, item in items:
            image, corners = item if isinstance(item, tuple) else (item, None)
            if not _colour_picture(image):
                raise CalibrationError(note("not_colour", name=name))
            if _black_and_white(image):
                lost.append((name, note("black_and_white")))
                continue
            if corners is not None:
                options = [Located(np.asarray(corners, np.float64), "given")]
            else:
                options = candidates(image, area_mm)
                if options[0].corners is None:
                    lost.append((name, note("no_card", problem=options[0].problem)))
                    continue
            found.append((card, name, image, options))
    if not found:
        return [], lost
    chosen, apart = most_alike([[look(image, option.corners) for option in options]
                                for _, _, image, options in found])
    pictures = []
    for (card, name, image, options), k, distance in zip(found, chosen, apart):
        ordered = upright_corners(options[k].corners)
        card_image = card_for_matching(image, ordered, layout)
        # keep only the card's neighbourhood of the picture (for the self-test), not the picture
        # (wide enough for an outline a few degrees off its card to be moved onto it)
        x0, y0 = np.maximum(np.floor(ordered.min(axis=0)).astype(int) - 24, 0)
        x1, y1 = np.ceil(ordered.max(axis=0)).astype(int) + 25
        unlike = len(found) >= _MIN_PICTURES_TO_COMPARE and distance > _UNLIKE and options[k].found_by != "given"
        pictures.append(_Picture(card, name, image[y0:y1, x0:x1].copy(), card_image, ordered - [x0, y0],
                                 options[k].found_by, unlike=unlike))
    return pictures, lost


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


def sharpness(glyph: np.ndarray, layout: Layout) -> float:
    """How much fine detail a card's print keeps: what its glyph map loses to a blur of
    ``_FINE_MM`` over what it loses to one of ``_COARSE_MM``. Shaking or defocus has
    taken the finest detail already. The count of strokes cancels out (a 1 and an 18 of
    one picture score alike), so pictures of one deck and camera compare."""
    margin = round(layout.margin_mm * layout.match_px_per_mm)
    inner = glyph[margin:glyph.shape[0] - margin, margin:glyph.shape[1] - margin]
    fine = inner - cv2.GaussianBlur(inner, (0, 0), _FINE_MM * layout.match_px_per_mm)
    coarse = inner - cv2.GaussianBlur(inner, (0, 0), _COARSE_MM * layout.match_px_per_mm)
    return float(np.sum(fine * fine) / max(float(np.sum(coarse * coarse)), 1e-9))


def _mark_poor(pictures: list[_Picture], layout: Layout) -> None:
    """Marks the pictures much blurrier (``_BLURRED``) or much more washed out
    (``_WASHED_OUT``) than the set's typical one, or unlike the other cards at a glance
    (``unlike``): their numerals are learned from the other pictures of the same number
    where there are any (their ink still counts)."""
    if len(pictures) < 3:
        return
    detail = np.array([sharpness(p.glyph, layout) for p in pictures])
    contrast = np.array([p.measurement.contrast for p in pictures])
    blurred, washed_out = _BLURRED * float(np.median(detail)), _WASHED_OUT * float(np.median(contrast))
    for p, kept, stands_out in zip(pictures, detail, contrast):
        p.poor = ("blurred" if kept < blurred else "washed out" if stands_out < washed_out else
                  "unlike" if p.unlike else "")


def _straighten(pictures: list[_Picture], layout: Layout, inverse: bool, margin: int) -> list[str]:
    """Moves each outline that is off its card onto it, by the print the deck has outside
    its numerals (:mod:`companion.vision.straighten`), and measures the card again there;
    marks as poorly outlined a picture whose print is not where the others' is either way.
    ``margin``: the band (px) the pictures were first measured without. Returns the names
    of the pictures moved."""
    box = (off_centre_box(pictures, layout) or numerals.learn_box(pictures, layout)) if len(pictures) >= 3 else None
    if box is None:
        return []
    moved = []
    offsets = straighten.offsets([p.glyph for p in pictures], replace(layout, numeral_box_mm=box))
    for p, (as_it_lies, best, move) in zip(pictures, offsets):
        if best >= max(as_it_lies + straighten.MOVE_GAIN, straighten.MIN_LIKENESS):
            p.corners = straighten.moved_corners(p.corners, move, layout)
            p.card_image = card_for_matching(p.image, p.corners, layout)
            p.measurement = measure(p.card_image, inverse, layout.match_px_per_mm, margin)
            p.glyph = under_glare_evened(glyph_map(p.measurement), p.measurement, layout.match_px_per_mm)
            moved.append(p.name)
        if not p.poor and max(best, as_it_lies) < straighten.MIN_LIKENESS:  # blur or glare explains it
            p.poor = "poorly outlined"
    return moved


def _name_poor(pictures: list[_Picture], warnings: list[Note]) -> list[str]:
    """Warns of the poor pictures; returns the names of those a numeral must be learned
    from all the same (the only pictures of their numbers), to be retaken."""
    only: dict[str, list[str]] = {}
    for p in (p for p in pictures if p.poor):
        if any(q.card.number == p.card.number and not q.poor for q in pictures):
            warnings.append(note("poor_beside_good", name=p.name, poor=p.poor))
        else:
            only.setdefault(p.poor, []).append(p.name)
    for poor, names in only.items():
        warnings.append(note("poor_only", poor=poor, names=names))
    return [name for names in only.values() for name in names]


def _glare(p: _Picture, layout: Layout) -> bool:
    """A washed-out patch: the card's background much brighter in places than typical."""
    grey = cv2.cvtColor(p.card_image, cv2.COLOR_BGR2GRAY).astype(np.float32)
    m = round(layout.margin_mm * layout.match_px_per_mm)
    inner = cv2.blur(grey[m:-m, m:-m], (5, 5))
    return float(np.percentile(inner, 99)) > 1.35 * float(np.median(inner)) and not looks_inverse(p.card_image, m)
