"""A space of deck designs drawn from seeds, split into training and held-out families.

Families own many editions of this deck, and the reader must read the ones nobody here
has seen. A *design* is a :class:`~.deck.DeckStyle` drawn from a family and a seed and
named ``"family:seed"`` (``"banded:12"``), so it travels through scenes, episodes and
benchmarks by name as the four hand-made styles do.

The split is by family and by font. A training family draws only training fonts, a
held-out family only held-out fonts, and the two sets of families differ in how they
combine fills, frames, indices and illustrations. Everything the reader is tuned on
(thresholds, the detector's training views, screening runs) must pass
:func:`require_trainable`, which refuses a held-out design; only the held-out benchmark
renders them (``elfer bench vision --designs held-out``).
"""

from __future__ import annotations

import colorsys
import functools
from collections.abc import Callable
from dataclasses import dataclass
from types import MappingProxyType
from typing import Mapping

import numpy as np

from .deck import STYLES, DeckStyle, Inks

TRAIN, HELD_OUT = "train", "held-out"


class HeldOutError(ValueError):
    """A held-out design was asked for where only training designs may be used."""


@dataclass(frozen=True)
class DesignFont:
    file: str  # in companion/assets/fonts/
    kind: str  # sans, serif, condensed, rounded, slab, hand-drawn, geometric
    split: str


FONTS: tuple[DesignFont, ...] = tuple(
    DesignFont(file, kind, split) for file, kind, split in (
        ("DejaVuSans-Bold.ttf", "sans", TRAIN),
        ("DejaVuSerif-Bold.ttf", "serif", TRAIN),
        ("DejaVuSansCondensed-Bold.ttf", "condensed", TRAIN),
        ("designs/texgyreheros-bold.otf", "sans", TRAIN),
        ("designs/Go-Bold.ttf", "sans", TRAIN),
        ("designs/texgyretermes-bold.otf", "serif", TRAIN),
        ("designs/texgyrebonum-bold.otf", "serif", TRAIN),
        ("designs/OpenSans-CondBold.ttf", "condensed", TRAIN),
        ("designs/Comfortaa-Bold.ttf", "rounded", TRAIN),
        ("designs/RobotoSlab-Bold.otf", "slab", TRAIN),
        ("designs/ComicNeue-Bold.otf", "hand-drawn", TRAIN),
        ("designs/LeagueSpartan-Bold.otf", "geometric", TRAIN),
        ("designs/Cantarell-Bold.otf", "sans", HELD_OUT),
        ("designs/texgyreschola-bold.otf", "serif", HELD_OUT),
        ("designs/EBGaramond12-Bold.otf", "serif", HELD_OUT),
        ("designs/texgyreheroscn-bold.otf", "condensed", HELD_OUT),
        ("designs/Quicksand-Bold.ttf", "rounded", HELD_OUT),
        ("designs/texgyrecursor-bold.otf", "slab", HELD_OUT),
        ("designs/FantasqueSansMono-Bold.ttf", "hand-drawn", HELD_OUT),
        ("designs/texgyreadventor-bold.otf", "geometric", HELD_OUT),
    )
)

_PAPERS = {"white": ("#fbfbf7", "#ffffff", "#f6f7f4", "#f8f6f0"), "cream": ("#f3ead3", "#efe4c8", "#f4ecd9", "#ede3cc")}


@dataclass(frozen=True)
class Family:
    """How one kind of deck varies: ``draw(rng)`` gives a style's fields but its font."""

    name: str
    split: str
    font_kinds: tuple[str, ...]  # the kinds of font it prints with, within its split
    draw: Callable[[np.random.Generator], dict]
    about: str


def _u(rng, low, high) -> float:
    return round(float(rng.uniform(low, high)), 2)


def _pick(rng, options):
    return options[int(rng.integers(len(options)))]


def _hex(h: float, s: float, v: float) -> str:
    r, g, b = colorsys.hsv_to_rgb((h % 360) / 360, min(1.0, s), min(1.0, v))
    return f"#{round(r * 255):02x}{round(g * 255):02x}{round(b * 255):02x}"


def draw_inks(rng: np.random.Generator, print_: str = "normal", orange: float = 0.3) -> Inks:
    """Four print colours: a red, a yellow (or the orange newer printings show), a green and
    a blue, each within the range real decks print; ``print_`` "pale" or "dark" shifts all."""
    value = {"normal": (0.72, 0.92), "pale": (0.85, 0.98), "dark": (0.5, 0.7)}[print_]
    saturation = {"normal": (0.7, 0.92), "pale": (0.45, 0.65), "dark": (0.65, 0.9)}[print_]
    yellow_hue = (27, 35) if rng.random() < orange else (40, 50)

    def ink(hue_range, lowest_value=0.0, lowest_saturation=0.0):
        return _hex(rng.uniform(*hue_range), max(lowest_saturation, rng.uniform(*saturation)),
                    max(lowest_value, rng.uniform(*value)))

    # a yellow printed dark is a mustard, not an olive; printed pale it still shows on paper
    return Inks(red=ink((-8, 8)), yellow=ink(yellow_hue, 0.8, 0.7), green=ink((95, 140)), blue=ink((205, 228)))


def _base(rng, paper="white", print_=None) -> dict:
    print_ = print_ or _pick(rng, ("normal", "normal", "normal", "pale", "dark"))
    return {
        "inks": draw_inks(rng, print_),
        "paper": _pick(rng, _PAPERS[paper]),
        "corner_radius_mm": _u(rng, 2.5, 4.5),
        "centre_height_mm": _u(rng, 24, 40),
        "centre_max_width_mm": _u(rng, 36, 46),
        "index_corners": _pick(rng, ("two", "four")),
        "index_height_mm": _u(rng, 4.5, 7),
        "index_max_width_mm": _u(rng, 7, 9),
        "index_centre_mm": (_u(rng, 6, 9), _u(rng, 7.5, 10.5)),
        "frame_mm": 0.0,
        "six_nine": _pick(rng, ("underline", "underline", "dot", "none")),
        "illustration_seed": int(rng.integers(2**31)),
    }


def _plain(rng):
    fields = _base(rng)
    if rng.random() < 0.5:
        fields.update(frame_mm=_u(rng, 0.4, 1.2), frame_inset_mm=_u(rng, 2, 3.5))
    return fields


def _full_colour(rng):
    return {**_base(rng, print_=_pick(rng, ("normal", "dark"))), "fill": "full", "fill_inset_mm": _u(rng, 0, 3)}


def _banded(rng):
    fields = _base(rng)
    band = _u(rng, 4, 9)
    fields.update(fill="band", band_mm=band, fill_inset_mm=_u(rng, 0, 2.5),
                  index_centre_mm=(band * 0.5 + 1.5, band * 0.5 + 3), index_height_mm=min(band * 0.7, 6.0),
                  index_max_width_mm=band * 0.9, centre_max_width_mm=min(42.0, 59 - 2 * band - 8),
                  index_corners=_pick(rng, ("two", "four", "none")))
    return fields


def _disc(rng):
    fields = _base(rng, print_="normal")
    disc = _u(rng, 36, 50)
    fields.update(fill="disc", disc_mm=disc, centre_height_mm=_u(rng, 0.45, 0.6) * disc,
                  centre_max_width_mm=disc * 0.75, fill_inset_mm=_u(rng, 0, 2))
    return fields


def _junior(rng):
    fields = _base(rng)
    fields.update(illustration="animal", centre_height_mm=_u(rng, 14, 22), centre_offset_mm=(0.0, -_u(rng, 14, 22)),
                  index_corners="four", illustration_shade=_u(rng, 0.35, 0.7))
    return fields


def _vintage(rng):
    fields = _base(rng, paper="cream", print_=_pick(rng, ("normal", "pale", "dark")))
    fields.update(frame_mm=_u(rng, 0.4, 0.8), frame_inset_mm=_u(rng, 2, 3.5), double_frame=True,
                  wear=_u(rng, 0.2, 0.8), index_corners="four", corner_radius_mm=_u(rng, 3.5, 5))
    return fields


def _patterned(rng):
    fields = _base(rng)
    fields.update(illustration="pattern", illustration_shade=_u(rng, 0.12, 0.25), index_corners="rotated",
                  centre_height_mm=_u(rng, 30, 42))
    return fields


def _home_printed(rng):
    fields = _base(rng, print_="pale")
    fields.update(corner_radius_mm=_u(rng, 0, 1.5), index_corners=_pick(rng, ("none", "two")),
                  centre_offset_mm=(_u(rng, -2, 2), _u(rng, -3, 3)), six_nine=_pick(rng, ("underline", "none")))
    return fields


# Held-out families: combinations and ranges no training family draws.
def _anniversary(rng):
    fields = _base(rng)
    band = _u(rng, 2.5, 4)
    fields.update(fill="band", band_mm=band, fill_inset_mm=_u(rng, 1, 2), frame_mm=_u(rng, 0.3, 0.6),
                  frame_inset_mm=band + 3, double_frame=True, index_corners="rotated",
                  index_centre_mm=(band + 7.5, band + 9), six_nine="dot", gloss=_u(rng, 0.5, 1))
    return fields


def _hausser(rng):
    fields = _base(rng, paper="cream", print_=_pick(rng, ("dark", "normal")))
    fields.update(centre_height_mm=_u(rng, 32, 44), frame_mm=_u(rng, 0.8, 1.5), frame_inset_mm=_u(rng, 1.5, 3),
                  double_frame=True, index_corners="four", wear=_u(rng, 0.4, 1.0), corner_radius_mm=_u(rng, 1.5, 3))
    return fields


def _animal_colour(rng):
    fields = _base(rng, print_="normal")
    fields.update(fill="full", fill_inset_mm=_u(rng, 1, 3), illustration="animal",
                  centre_height_mm=_u(rng, 16, 24), centre_offset_mm=(0.0, _u(rng, 12, 20)), index_corners="four")
    return fields


def _modern(rng):
    fields = _base(rng)
    fields["inks"] = draw_inks(rng, "normal", orange=1.0)
    fields.update(centre_height_mm=_u(rng, 44, 54), centre_max_width_mm=_u(rng, 46, 52),
                  centre_offset_mm=(_u(rng, -4, 4), _u(rng, -6, 6)), index_corners="none", gloss=_u(rng, 0.5, 1))
    return fields


FAMILIES: Mapping[str, Family] = MappingProxyType({family.name: family for family in (
    Family("plain", TRAIN, ("sans", "serif", "condensed", "geometric"), _plain, "paper, a numeral in ink, thin frame or none"),
    Family("full-colour", TRAIN, ("sans", "condensed", "geometric", "slab"), _full_colour, "filled with the colour, numerals in paper"),
    Family("banded", TRAIN, ("sans", "serif", "slab"), _banded, "a broad band of colour inside the edge"),
    Family("disc", TRAIN, ("sans", "serif", "rounded"), _disc, "filled with colour around a paper disc"),
    Family("junior", TRAIN, ("rounded", "hand-drawn", "sans"), _junior, "a small numeral above an animal"),
    Family("vintage", TRAIN, ("serif", "slab"), _vintage, "cream, double frame, worn"),
    Family("patterned", TRAIN, ("sans", "geometric", "rounded"), _patterned, "a pale pattern behind, indices read from the side"),
    Family("home-printed", TRAIN, ("hand-drawn", "rounded", "sans"), _home_printed, "pale inkjet inks, cut square"),
    Family("anniversary", HELD_OUT, ("serif", "slab", "sans"), _anniversary, "a thin band, double frame, dots on 6 and 9, glossy"),
    Family("hausser", HELD_OUT, ("serif",), _hausser, "cream, heavy double frame, worn, large serif numeral"),
    Family("animal-colour", HELD_OUT, ("rounded", "hand-drawn", "sans"), _animal_colour, "filled with colour, an animal above the numeral"),
    Family("modern", HELD_OUT, ("condensed", "geometric", "sans"), _modern, "a huge numeral, no indices, orange, glossy"),
)})


def family_names(split: str) -> list[str]:
    if split not in (TRAIN, HELD_OUT):
        raise ValueError(f"split must be {TRAIN!r} or {HELD_OUT!r}, not {split!r}")
    return [name for name, family in FAMILIES.items() if family.split == split]


def parse_name(name: str) -> tuple[Family, int] | None:
    """``"banded:12"`` → (the family, 12); None for a name that is not a design's."""
    family, colon, seed = str(name).rpartition(":")
    if not colon or family not in FAMILIES or not seed.isdigit():
        return None
    return FAMILIES[family], int(seed)


@functools.lru_cache(maxsize=256)
def design(name: str) -> DeckStyle:
    """The deck style a design name stands for: the same name, the same deck."""
    parsed = parse_name(name)
    if parsed is None:
        raise ValueError(f"unknown deck design {name!r}: expected FAMILY:SEED with FAMILY one of {', '.join(FAMILIES)}")
    family, seed = parsed
    rng = np.random.default_rng([seed, sorted(FAMILIES).index(family.name)])
    fields = family.draw(rng)
    fonts = [f.file for f in FONTS if f.split == family.split and f.kind in family.font_kinds]
    return DeckStyle(name=name, font=_pick(rng, fonts), **fields)


def split_of(name: str) -> str:
    """TRAIN for the hand-made styles and training families' designs, HELD_OUT otherwise."""
    if name in STYLES:
        return TRAIN
    parsed = parse_name(name)
    if parsed is None:
        raise ValueError(f"unknown deck style or design {name!r}")
    return parsed[0].split


def require_trainable(name: str) -> str:
    """``name`` when it may be tuned or trained on; a HeldOutError when it is held out."""
    if split_of(name) != TRAIN:
        raise HeldOutError(f"deck design {name!r} is held out: nothing may be tuned or trained on it")
    return name


def design_name(split: str, i: int, first_seed: int = 0) -> str:
    """The ``i``-th design of ``split``: the families taken in turn, each's seeds counted up."""
    families = family_names(split)
    return f"{families[i % len(families)]}:{first_seed + i // len(families)}"


def design_names(split: str, count: int, first_seed: int = 0) -> list[str]:
    """The first ``count`` designs of ``split`` (:func:`design_name`)."""
    return [design_name(split, i, first_seed) for i in range(count)]


__all__ = ["FAMILIES", "FONTS", "HELD_OUT", "TRAIN", "HeldOutError", "design", "design_name", "design_names", "draw_inks",
           "family_names", "parse_name", "require_trainable", "split_of"]
