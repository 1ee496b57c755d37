"""What the card reader knows about one deck and camera: a calibration profile.

A profile is a small folder of plain files, written by :meth:`Profile.save` and read
back, fully validated, by :meth:`Profile.load`::

    profile.json       format and version, the deck's name, what it was learned from,
                       the layout, the inks, the thresholds, the calibration's warnings
    numeral_01.png     the centre numeral of each number that has a glyph, as a grey
    ...                image (ink 255, paper 0) in the layout's numeral box at the
    numeral_20.png     matching scale; numbers without a PNG cannot be read
    face_print.png     where the face carries print (255) besides paper (0), at matching
                       scale: corner indices, frames, the numeral box. Optional (profiles
                       calibrated before it existed lack it): ink elsewhere on a card
                       means the outline spans more than one card (a fanned row pieces
                       a numeral together from two) or something lies on it

The card's face is described upright in millimetres on the 59 × 91 mm card, x to the
right and y down from its top-left corner. The numeral box is symmetric about the
card's centre, so turning the card by 180° maps the box onto itself.

Inks are measured after dividing the card's pixels by the card's own paper colour (so a
warm lamp or a cream card stock cancels out). What an ink takes from the paper's light,
(1 − ink/paper) per R, G, B channel, is its absorption; each colour's ``chroma`` is the
absorption's chromaticity (x, y): opponent components over the grey part, so its angle
is the ink's hue and its length the saturation (see ``ink.chromaticity``). The reader
classifies by hue and log saturation. ``colour_covariance`` (2 × 2) is their spread
from picture to picture seen in calibration (hue in radians, log saturation), shared
by the colours; the reader adds the spreads in the thresholds. ``lab`` is the ink on white paper in CIE
L*a*b* (D65), for people.
"""

from __future__ import annotations

import json
import logging
import math
import os
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping

import cv2
import numpy as np

import companion
from ..cards import Colour, COLOURS, HIGHEST, LOWEST

FORMAT = "elfer-card-profile"
FORMAT_VERSION = 1
PROFILE_FILE = "profile.json"
CARD_MM = (59.0, 91.0)  # the same as companion.sim.deck.CARD_MM (vision does not import the simulator)
NUMBERS = tuple(range(LOWEST, HIGHEST + 1))

log = logging.getLogger(__package__)

# How the reader turns its scores into a confidence (see card_reader.py). Fitted on
# rendered scenes of every deck style (``python -m companion.bench.evaluate_read``), shared
# by every profile; a profile may override them. docs/reader.md tells what each trades.
DEFAULT_THRESHOLDS: Mapping[str, float] = {
    "min_confidence": 0.85,  # below: the card is reported unknown
    "number_scale": 120.0,  # logistic slope of the number's score margin over the runner-up (per unit of
    "number_offset": 0.03,  # the two templates' difference), and the margin at which the number is even odds
    "match_blur_px": 0.8,  # Gaussian blur (sigma, px at matching scale) of glyph maps and templates
    "min_score": 0.68,  # a best numeral correlation below this is not a numeral the profile knows …
    "score_scale": 60.0,  # … (logistic slope)
    "colour_scale": 1.0,  # sharpness of the colour posterior
    "colour_noise": 0.01,  # spread of the ink's chromaticity per unit of 1 / strength
    "colour_floor": 0.03,  # least spread of an ink's chromaticity
    "colour_saturation_spread": 0.25,  # spread of an ink's log saturation
    "colour_hue_spread": 0.08,  # spread of its hue (radians)
    "clip_spread": 0.12,  # how far (log) saturated paper is typically above the sensor's maximum
    "paper_spread": 0.04,  # how far (log) a card's saturated paper may lie from what the frame's other cards tell
    "paper_min_strength": 0.4,  # fainter ink on paper is read without the frame's paper level (see ink.py)
    # Mahalanobis distance to the nearest ink beyond which the colour is unknown (an ink the
    # profile does not know); a pale ink in a dim warm light lies far from every ink and is
    # still the deck's own
    "max_colour_distance": 6.5,
    "min_strength": 0.12,  # an ink absorbing less than this is no ink …
    "max_strength": 2.5,  # … and a "paper" this much brighter than the "ink" is no card
    # share of the face where the deck prints nothing that shows ink, above which the
    # outline is not one whole card (pieces of fanned rows, a hand on the card)
    "max_stray_ink": 0.05,
}


class ProfileError(Exception):
    """A profile folder that cannot be used; the message names the file and the problem."""


FACE_PRINT_FILE = "face_print.png"
STAGING_FOLDER = ".saving"  # inside a profile folder, while it is saved


def template_name(number: int) -> str:
    return f"numeral_{number:02d}.png"


@dataclass(frozen=True)
class Layout:
    """Where things sit on the upright face, and the scales the reader works at."""

    px_per_mm: float = 2.0  # the rectified card (colour analysis is done on it reduced to match scale)
    match_px_per_mm: float = 1.0  # numeral matching scale
    numeral_box_mm: tuple[float, float, float, float] = (6.0, 22.0, 53.0, 69.0)  # x0, y0, x1, y1
    search_mm: float = 1.0  # the numeral is looked for this far around its place
    margin_mm: float = 2.0  # the card's outer band ignored when measuring paper and ink

    def __post_init__(self):
        object.__setattr__(self, "numeral_box_mm", tuple(float(v) for v in self.numeral_box_mm))
        for name in ("px_per_mm", "match_px_per_mm", "search_mm", "margin_mm"):
            object.__setattr__(self, name, float(getattr(self, name)))

    def problems(self) -> list[str]:
        issues = []
        if not (0.5 <= self.px_per_mm <= 8 and 0.5 <= self.match_px_per_mm <= self.px_per_mm):
            issues.append("scales must satisfy 0.5 <= match_px_per_mm <= px_per_mm <= 8")
        x0, y0, x1, y1 = self.numeral_box_mm
        if not (0 < x0 < x1 < CARD_MM[0] and 0 < y0 < y1 < CARD_MM[1]):
            issues.append(f"numeral_box_mm {list(self.numeral_box_mm)} is not inside the 59 x 91 mm card")
        elif abs(x0 + x1 - CARD_MM[0]) > 0.01:
            issues.append("numeral_box_mm must be centred across the card (x0 + x1 = 59)")
        if not 0 <= self.search_mm <= 5 or not 0 <= self.margin_mm <= 10:
            issues.append("search_mm must be 0-5 and margin_mm 0-10")
        return issues

    def card_px(self, scale: float) -> tuple[int, int]:
        """(width, height) in pixels of the whole card at ``scale`` px/mm."""
        return round(CARD_MM[0] * scale), round(CARD_MM[1] * scale)

    @property
    def off_centre(self) -> bool:
        """Whether the numeral lies in one half of the face (above an illustration, as on
        Junior cards), not about its centre: its box is then the turned box's mirror."""
        x0, y0, x1, y1 = self.numeral_box_mm
        return abs(y0 + y1 - CARD_MM[1]) > 0.01

    def box_px(self, turned: bool = False) -> tuple[int, int, int, int]:
        """The numeral box at matching scale, (x0, y0, x1, y1), on the face as it lies, or
        (``turned``) on a face upside down. Both ends are rounded from the nearer edge, so
        a box symmetric about the centre is so in pixels, and is the same either way up."""
        width, height = self.card_px(self.match_px_per_mm)
        x0, y0, x1, y1 = self.numeral_box_mm
        s = self.match_px_per_mm
        box = round(x0 * s), round(y0 * s), width - round((CARD_MM[0] - x1) * s), height - round((CARD_MM[1] - y1) * s)
        if turned:
            box = width - box[2], height - box[3], width - box[0], height - box[1]
        return box

    def boxes_px(self) -> tuple[tuple[int, int, int, int], ...]:
        """Where a numeral can lie on a face either way up: the box, and its mirror where
        the numeral is off the centre."""
        box, turned = self.box_px(), self.box_px(turned=True)
        return (box,) if turned == box else (box, turned)

    def template_shape(self) -> tuple[int, int]:
        x0, y0, x1, y1 = self.box_px()
        return y1 - y0, x1 - x0

    def search_px(self) -> int:
        """How far (px) around the box the numeral is looked for: the search_mm, but never
        beyond the card's edge."""
        width, height = self.card_px(self.match_px_per_mm)
        x0, y0, x1, y1 = self.box_px()
        return max(0, min(round(self.search_mm * self.match_px_per_mm), x0, y0, width - x1, height - y1))

    def to_json(self) -> dict:
        return {"px_per_mm": self.px_per_mm, "match_px_per_mm": self.match_px_per_mm,
                "numeral_box_mm": [round(v, 3) for v in self.numeral_box_mm],
                "search_mm": self.search_mm, "margin_mm": self.margin_mm}


@dataclass
class Profile:
    """One deck as the reader knows it. See the module docstring for the folder format."""

    deck: str
    inverse: bool  # True: the face is filled with the card's colour and the numerals are paper
    layout: Layout
    inks: dict[Colour, np.ndarray]  # chromaticity (x, y) of each colour's ink absorption
    colour_covariance: np.ndarray  # 2 × 2 spread of (hue, log saturation) seen in calibration
    templates: dict[int, np.ndarray]  # number → uint8 image of template_shape()
    inks_lab: dict[Colour, np.ndarray] = field(default_factory=dict)  # for people: L*a*b* relative to paper
    thresholds: dict[str, float] = field(default_factory=lambda: dict(DEFAULT_THRESHOLDS))
    learned_from: dict[str, Any] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)
    format_version: int = FORMAT_VERSION
    face_print: np.ndarray | None = None  # uint8, the card at matching scale: 255 where the face carries print

    def __post_init__(self):
        self.inks = {colour: np.asarray(v, np.float64).reshape(2) for colour, v in self.inks.items()}
        self.inks_lab = {colour: np.asarray(v, np.float64).reshape(3) for colour, v in self.inks_lab.items()}
        self.colour_covariance = np.asarray(self.colour_covariance, np.float64)
        self.thresholds = {**DEFAULT_THRESHOLDS, **{k: float(v) for k, v in self.thresholds.items()}}
        problems = self.problems()
        if problems:
            raise ProfileError(f"invalid profile for deck {self.deck!r}: " + "; ".join(problems))

    @property
    def colours(self) -> tuple[Colour, ...]:
        return tuple(c for c in COLOURS if c in self.inks)

    @property
    def numbers(self) -> tuple[int, ...]:
        return tuple(sorted(self.templates))

    def problems(self) -> list[str]:
        """Everything wrong with this profile (empty when it is usable)."""
        issues = list(self.layout.problems())
        if not isinstance(self.deck, str) or not self.deck.strip():
            issues.append("the deck needs a name")
        if not self.inks:
            issues.append("no ink colours")
        for colour, vector in self.inks.items():
            if not isinstance(colour, Colour) or vector.shape != (2,) or not np.all(np.isfinite(vector)):
                issues.append(f"ink of {colour!r} must be two finite numbers")
        cov = self.colour_covariance
        if cov.shape != (2, 2) or not np.all(np.isfinite(cov)) or not np.allclose(cov, cov.T, atol=1e-6):
            issues.append("colour_covariance must be a symmetric 2 x 2 matrix")
        elif np.linalg.eigvalsh(cov).min() < 0:
            issues.append("colour_covariance must be positive semi-definite")
        if not self.templates:
            issues.append("no numeral templates")
        shape = self.layout.template_shape()
        for number, image in self.templates.items():
            if number not in NUMBERS:
                issues.append(f"template for {number!r}: numbers run from {LOWEST} to {HIGHEST}")
            elif not isinstance(image, np.ndarray) or image.dtype != np.uint8 or image.shape != shape:
                got = getattr(image, "shape", None)
                issues.append(f"{template_name(number)}: expected a {shape[1]} x {shape[0]} grey image "
                              f"(the layout's numeral box), got shape {got}")
            elif int(image.max()) - int(image.min()) < 32:
                issues.append(f"{template_name(number)}: the template is blank")
        if self.face_print is not None:
            width, height = self.layout.card_px(self.layout.match_px_per_mm)
            image = self.face_print
            if not isinstance(image, np.ndarray) or image.dtype != np.uint8 or image.shape != (height, width):
                issues.append(f"{FACE_PRINT_FILE}: expected a {width} x {height} grey image (the card at matching "
                              f"scale), got shape {getattr(image, 'shape', None)}")
        for key, value in self.thresholds.items():
            if not math.isfinite(value):
                issues.append(f"threshold {key} must be a finite number")
        if self.format_version != FORMAT_VERSION:
            issues.append(f"format_version {self.format_version!r}: this reader reads version {FORMAT_VERSION}")
        return issues

    # --- files ----------------------------------------------------------------------

    def to_json(self) -> dict:
        return {
            "format": FORMAT,
            "format_version": self.format_version,
            "deck": self.deck,
            "learned_from": self.learned_from,
            "inverse": bool(self.inverse),
            "layout": self.layout.to_json(),
            "inks": {c.letter: {"chroma": [round(float(v), 6) for v in self.inks[c]],
                                **({"lab": [round(float(v), 2) for v in self.inks_lab[c]]} if c in self.inks_lab else {})}
                     for c in self.colours},
            "colour_covariance": [[round(float(v), 7) for v in row] for row in self.colour_covariance],
            "numerals": {str(n): template_name(n) for n in self.numbers},
            **({"face_print": FACE_PRINT_FILE} if self.face_print is not None else {}),
            "thresholds": {k: round(float(v), 6) for k, v in self.thresholds.items()},
            "warnings": list(self.warnings),
        }

    def save(self, folder: str | Path) -> Path:
        """Write the profile folder (created if needed); returns the path of profile.json.

        Every file is written into a staging folder inside it first, and flushed to the
        disk, so a save that fails there (a full disk) leaves the profile the folder held
        as it was; then the staged profile is put in its place (:func:`_swap_in`). A save
        cut off in between (the power gone) leaves the old profile or the new one, never
        a mixture: :meth:`load` reads the staged one where profile.json is missing. Other
        files in the folder stay."""
        folder = Path(folder)
        folder.mkdir(parents=True, exist_ok=True)
        staging = folder / STAGING_FOLDER
        if (staging / PROFILE_FILE).is_file() and not (folder / PROFILE_FILE).is_file():
            _swap_in(staging, folder)  # a save cut off while swapping: its profile is the one in use
        shutil.rmtree(staging, ignore_errors=True)  # left by a save cut off while staging
        staging.mkdir()
        try:
            images = {template_name(number): image for number, image in self.templates.items()}
            if self.face_print is not None:
                images[FACE_PRINT_FILE] = self.face_print
            for name, image in images.items():
                if not cv2.imwrite(str(staging / name), image):
                    raise ProfileError(f"{folder / name}: could not write the image")
                _flush(staging / name)
            # written last: a staging folder with a profile.json holds a whole profile
            (staging / PROFILE_FILE).write_text(json.dumps(self.to_json(), indent=1, ensure_ascii=False) + "\n",
                                                encoding="utf-8")
            _flush(staging / PROFILE_FILE)
            _flush(staging)
        except BaseException:
            shutil.rmtree(staging, ignore_errors=True)
            raise
        _swap_in(staging, folder)
        return folder / PROFILE_FILE

    @classmethod
    def load(cls, folder: str | Path) -> "Profile":
        """Read and validate a profile folder; any problem raises :class:`ProfileError`."""
        folder = Path(folder)
        path = folder / PROFILE_FILE
        if not folder.is_dir():
            raise ProfileError(f"{folder}: no such profile folder")
        staged = folder / STAGING_FOLDER
        if not path.exists() and (staged / PROFILE_FILE).is_file():
            # a save cut off while its profile replaced the old one
            log.warning("%s: a save was cut off; the profile it was saving is loaded", folder)
            return cls.load(staged)
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            raise ProfileError(f"{path}: missing (not a calibration profile folder)") from None
        except (OSError, UnicodeDecodeError) as error:
            raise ProfileError(f"{path}: cannot be read ({error})") from None
        try:
            data = json.loads(text)
        except json.JSONDecodeError as error:
            raise ProfileError(f"{path}: not valid JSON ({error})") from None
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise ProfileError(f"{path}: not an {FORMAT} file (field 'format' must be {FORMAT!r})")
        version = data.get("format_version")
        if version != FORMAT_VERSION:
            raise ProfileError(f"{path}: format_version {version!r} is not supported (this reader reads "
                               f"version {FORMAT_VERSION}); recalibrate the deck")
        try:
            layout = Layout(**_fields(data["layout"], Layout.__dataclass_fields__, "layout"))
            inks, inks_lab = {}, {}
            for letter, ink in _mapping(data["inks"], "inks").items():
                colour = Colour.parse(letter)
                ink = _mapping(ink, f"inks.{letter}")
                inks[colour] = _numbers(ink["chroma"], 2, f"inks.{letter}.chroma")
                if "lab" in ink:
                    inks_lab[colour] = _numbers(ink["lab"], 3, f"inks.{letter}.lab")
            cov = np.array([_numbers(row, 2, "colour_covariance") for row in data["colour_covariance"]])
            numerals = _mapping(data["numerals"], "numerals")
            thresholds = {str(k): float(v) for k, v in _mapping(data.get("thresholds", {}), "thresholds").items()}
            deck, inverse = data["deck"], data["inverse"]
            if not isinstance(inverse, bool):
                raise ProfileError("field 'inverse' must be true or false")
            learned_from = _mapping(data.get("learned_from", {}), "learned_from")
            warnings = [str(w) for w in data.get("warnings", [])]
        except KeyError as error:
            raise ProfileError(f"{path}: missing field {error.args[0]!r}") from None
        except ProfileError as error:
            raise ProfileError(f"{path}: {error}") from None
        except (TypeError, ValueError) as error:
            raise ProfileError(f"{path}: {error}") from None
        problems = layout.problems()
        if problems:
            raise ProfileError(f"{path}: " + "; ".join(problems))
        templates = {}
        for key, name in numerals.items():
            try:
                number = int(key)
            except ValueError:
                raise ProfileError(f"{path}: numerals key {key!r} is not a number") from None
            if not isinstance(name, str) or Path(name).name != name:
                raise ProfileError(f"{path}: numerals.{key} must be a file name in the profile folder")
            templates[number] = _read_template(folder / name, layout)
        face_print = None
        if "face_print" in data:
            name = data["face_print"]
            if not isinstance(name, str) or Path(name).name != name:
                raise ProfileError(f"{path}: face_print must be a file name in the profile folder")
            width, height = layout.card_px(layout.match_px_per_mm)
            face_print = _read_grey(folder / name, (height, width), "the card at matching scale needs")
        try:
            profile = cls(deck=deck, inverse=inverse, layout=layout, inks=inks, colour_covariance=cov,
                          templates=templates, inks_lab=inks_lab, thresholds=thresholds,
                          learned_from=dict(learned_from), warnings=warnings, format_version=version,
                          face_print=face_print)
        except ProfileError as error:
            raise ProfileError(f"{path}: {error}") from None
        log.info("calibration profile %s loaded (deck %s%s)", folder, deck, ", inverse" if inverse else "")
        return profile


def _swap_in(staging: Path, folder: Path) -> None:
    """Put the whole profile staged in ``staging`` in place of ``folder``'s: its
    profile.json goes first and the new one comes last, so the folder never holds a
    profile.json beside another profile's images; each file is copied whole (a part file
    renamed), and ``staging`` stays whole until the end, for :meth:`Profile.load` to
    fall back on."""
    names = sorted(path.name for path in staging.iterdir() if path.name != PROFILE_FILE)
    (folder / PROFILE_FILE).unlink(missing_ok=True)
    _flush(folder)  # the old profile.json gone for good before its images are replaced
    ours = [*folder.glob("numeral_*.png"), folder / FACE_PRINT_FILE]
    for stale in [*ours, *(path.with_name(path.name + _PART) for path in [*ours, folder / PROFILE_FILE])]:
        if stale.name not in names:
            stale.unlink(missing_ok=True)
    for name in [*names, PROFILE_FILE]:
        part = folder / (name + _PART)
        shutil.copyfile(staging / name, part)
        _flush(part)
        part.replace(folder / name)
    _flush(folder)
    shutil.rmtree(staging)


_PART = ".part"  # a file being copied into a profile folder


def _flush(path: Path) -> None:
    """Flush a file's or a folder's (its entries') writes to the disk, where the system
    lets a folder be opened for it (not on Windows)."""
    try:
        descriptor = os.open(path, os.O_RDONLY)
    except OSError:
        if path.is_dir():
            return
        raise
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)


def _read_template(path: Path, layout: Layout) -> np.ndarray:
    return _read_grey(path, layout.template_shape(), "the layout's numeral box needs", "template")


def _read_grey(path: Path, shape: tuple[int, int], needs: str, what: str = "image") -> np.ndarray:
    if not path.is_file():
        raise ProfileError(f"{path}: missing {what}")
    image = cv2.imread(str(path), cv2.IMREAD_UNCHANGED)
    if image is None:
        raise ProfileError(f"{path}: not a readable PNG")
    if image.ndim != 2 or image.dtype != np.uint8:
        raise ProfileError(f"{path}: must be an 8-bit grey image")
    if image.shape != shape:
        raise ProfileError(f"{path}: wrong {what} size {image.shape[1]} x {image.shape[0]}, {needs} "
                           f"{shape[1]} x {shape[0]}")
    return image


def _mapping(value, name: str) -> dict:
    if not isinstance(value, dict):
        raise ProfileError(f"field {name!r} must be an object")
    return value


def _fields(value, allowed, name: str) -> dict:
    value = _mapping(value, name)
    unknown = set(value) - set(allowed)
    if unknown:
        raise ProfileError(f"unknown {name} field(s): {', '.join(sorted(unknown))}")
    return value


def _numbers(value, count: int, name: str) -> list[float]:
    if not isinstance(value, list) or len(value) != count or not all(
            isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) for v in value):
        raise ProfileError(f"field {name!r} must be a list of {count} finite numbers")
    return [float(v) for v in value]


# --- the shipped profile -------------------------------------------------------------


def _shipped_profile_dir() -> Path:
    """Where the default (``reference`` deck) profile lives: the repository's top-level
    calibration/reference/ in a source checkout, else the installed package data."""
    package = Path(companion.__file__).resolve().parent
    candidates = (package.parent / "calibration" / "reference",
                  package / "calibration" / "reference",
                  package / "calibration_data" / "reference")
    for candidate in candidates:
        if (candidate / PROFILE_FILE).is_file():
            return candidate
    return candidates[0]


def default_profile() -> Profile:
    """The shipped profile of the ``reference`` deck style."""
    return Profile.load(_shipped_profile_dir())


__all__ = ["CARD_MM", "DEFAULT_THRESHOLDS", "FORMAT_VERSION", "Layout", "Profile", "ProfileError",
           "default_profile", "template_name"]
