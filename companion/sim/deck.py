"""Card faces of Elfer raus! in several deck styles, rendered like printed cards.

A style is plain data (paper, inks, font, sizes, layout), so a new deck is a few lines
in :data:`STYLES`. :func:`render_card` draws a face with Pillow at a supersampled scale
and reduces it, so that even 2–4 px/mm renders have the soft, anti-aliased edges of a
photographed print rather than the hard steps of a diagram.

Images leave this module as numpy uint8 arrays in OpenCV's BGRA order, upright (the
card's long side vertical), with alpha 0 outside the rounded corners.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from types import MappingProxyType
from typing import Mapping

import numpy as np
from PIL import Image, ImageColor

from ..cards import Card, Colour
from ..fonts import FONT_DIR
from .faces import CARD_MM, draw_face, wear

INDEX_CORNERS = ("two", "four", "none", "rotated")
FILLS = ("paper", "full", "band", "disc")
SIX_NINE_MARKS = ("underline", "dot", "none")
ILLUSTRATIONS = ("none", "animal", "pattern")

# Supersampled drawing resolution: fine enough that rounded corners and underlines
# come out smooth after reduction, small enough that a card draws in milliseconds.
_SUPERSAMPLED_PX_PER_MM = 16.0
_MAX_SUPERSAMPLING = 8
_RENDER_CACHE_SIZE = 240  # three full decks at one scale: ~80 MB at 4 px/mm


@dataclass(frozen=True)
class Inks:
    """A deck's four print colours as ``#rrggbb`` (sRGB, as print specs quote them)."""

    red: str
    yellow: str
    green: str
    blue: str

    def of(self, colour: Colour) -> str:
        return getattr(self, colour.name.lower())


@dataclass(frozen=True)
class DeckStyle:
    """How one deck prints its faces. Lengths in millimetres on the 59 × 91 mm card.

    Numeral sizes are digit heights (the ink of a ``0``); numerals wider than their
    maximum width are narrowed, as printers set two-digit numbers condensed.
    """

    name: str
    inks: Inks
    paper: str = "#fbfbf7"  # card stock is never pure white
    # "paper"; "full": the face filled with the card's colour, numerals in paper colour;
    # "band": a broad band of colour inside the edge; "disc": filled, with a paper disc
    # carrying the centre numeral
    fill: str = "paper"
    fill_inset_mm: float = 0.0  # a paper rim this wide around the fill
    band_mm: float = 6.0  # "band": how broad the band is
    disc_mm: float = 40.0  # "disc": the paper disc's diameter
    font: str = "DejaVuSans-Bold.ttf"  # a file in companion/assets/fonts/
    centre_height_mm: float = 30.0  # 0: no centre numeral
    centre_max_width_mm: float = 40.0
    centre_offset_mm: tuple[float, float] = (0.0, 0.0)  # of the centre numeral from the card's centre
    # "two" (top left, bottom right), "four", "none", or "rotated" (four, read from the long sides)
    index_corners: str = "two"
    index_height_mm: float = 6.0
    index_max_width_mm: float = 8.0
    index_centre_mm: tuple[float, float] = (8.5, 10.0)  # from the left and the top edge
    frame_mm: float = 1.2  # width of the frame line in the card's colour; 0: no frame
    frame_inset_mm: float = 2.5  # from the card's edge to the frame line's outer edge
    double_frame: bool = False  # a second frame line inside the first
    corner_radius_mm: float = 3.5
    six_nine: str = "underline"  # what tells 6 from an upside-down 9: "underline", "dot" or "none"
    illustration: str = "none"  # "animal" (away from the centre numeral) or "pattern" (behind it)
    illustration_shade: float = 0.45  # how much ink a drawing on paper takes
    illustration_seed: int = 0
    wear: float = 0.0  # 0 (new) to 1 (faded in blotches, scuffed)
    gloss: float = 0.0  # 0 (matt) to 1: how much more glare the deck's cards catch

    def __post_init__(self):
        for field, value, allowed in (("index_corners", self.index_corners, INDEX_CORNERS), ("fill", self.fill, FILLS),
                                      ("six_nine", self.six_nine, SIX_NINE_MARKS),
                                      ("illustration", self.illustration, ILLUSTRATIONS)):
            if value not in allowed:
                raise ValueError(f"{field} must be one of {', '.join(allowed)}, not {value!r}")
        if not (FONT_DIR / self.font).is_file():
            raise ValueError(f"style {self.name!r}: no font {self.font!r} in {FONT_DIR}")
        for colour in (self.paper, *(self.inks.of(c) for c in Colour)):
            ImageColor.getrgb(colour)  # fail when the style is made, not at the first render

    def ink(self, colour: Colour) -> tuple[int, int, int]:
        """The card colour's print colour as (r, g, b)."""
        return ImageColor.getrgb(self.inks.of(colour))[:3]

    @property
    def inverse(self) -> bool:
        """The numerals print in paper colour on the card's colour."""
        return self.fill == "full"

    @property
    def paper_rgb(self) -> tuple[int, int, int]:
        return ImageColor.getrgb(self.paper)[:3]


# Print colours, not RGB primaries: a warm signal red, a golden yellow, a yellowish
# grass green and a medium process blue. Yellow and green are as close as on real
# cards (both light, warm and saturated), which is what the card reader must cope with.
PRINT_INKS = Inks(red="#d6281f", yellow="#f2b21c", green="#5aa83a", blue="#1f5fae")
# Older, sun-faded decks on cream board: browner red, ochre, olive-grass green, navy.
VINTAGE_INKS = Inks(red="#b9382e", yellow="#d9a42a", green="#6e9a3a", blue="#2d4d86")

STYLES: Mapping[str, DeckStyle] = MappingProxyType(
    {
        style.name: style
        for style in (
            # Our best approximation of the current Ravensburger edition.
            DeckStyle(name="reference", inks=PRINT_INKS),
            DeckStyle(
                name="inverse",
                inks=PRINT_INKS,
                paper="#ffffff",
                fill="full",
                fill_inset_mm=1.8,
                centre_height_mm=32.0,
                frame_mm=0.6,
                frame_inset_mm=3.5,
            ),
            DeckStyle(
                name="cream",
                inks=VINTAGE_INKS,
                paper="#f3ead3",
                font="DejaVuSerif-Bold.ttf",
                centre_height_mm=18.0,
                centre_max_width_mm=34.0,
                index_corners="four",
                index_height_mm=5.5,
                index_max_width_mm=7.5,
                index_centre_mm=(8.5, 10.0),
                frame_mm=0.5,
                frame_inset_mm=3.0,
                corner_radius_mm=4.0,
            ),
            DeckStyle(
                name="condensed",
                inks=PRINT_INKS,
                paper="#f7f8f8",
                font="DejaVuSansCondensed-Bold.ttf",
                centre_height_mm=42.0,
                centre_max_width_mm=48.0,
                index_corners="four",
                index_height_mm=5.5,
                index_centre_mm=(6.0, 7.5),
                frame_mm=0.0,
                corner_radius_mm=3.0,
            ),
        )
    }
)


def get_style(name: str) -> DeckStyle:
    """The deck style called ``name``: a hand-made style, or a design (``"banded:12"``,
    see :mod:`.designs`); a ValueError lists the styles otherwise."""
    try:
        return STYLES[name]
    except (KeyError, TypeError):
        pass
    from .designs import design, parse_name  # designs are built on the styles

    if parse_name(name) is not None:
        return design(name)
    raise ValueError(f"unknown deck style {name!r}: choose one of {', '.join(STYLES)}, or a design FAMILY:SEED")


def render_card(card: Card, style: DeckStyle | str, px_per_mm: float) -> np.ndarray:
    """The upright face of ``card`` as a read-only BGRA uint8 array.

    Its shape is ``(round(91 * px_per_mm), round(59 * px_per_mm), 4)``; alpha is 0
    outside the rounded corners, with an anti-aliased edge. Renders are memoised, so
    the same arguments return the same array object.
    """
    if isinstance(style, str):
        style = get_style(style)
    if not isinstance(card, Card):
        card = Card.parse(card)
    px_per_mm = float(px_per_mm)
    if not math.isfinite(px_per_mm) or px_per_mm <= 0:
        raise ValueError(f"px_per_mm must be a positive number, not {px_per_mm!r}")
    return _render_cached(card, style, px_per_mm)


@functools.lru_cache(maxsize=_RENDER_CACHE_SIZE)
def _render_cached(card: Card, style: DeckStyle, px_per_mm: float) -> np.ndarray:
    # Keyed on the style's value, not its name, so an edited copy of a style never
    # returns the original's cached faces.
    width, height = round(CARD_MM[0] * px_per_mm), round(CARD_MM[1] * px_per_mm)
    if width < 1 or height < 1:
        raise ValueError(f"px_per_mm={px_per_mm} gives an empty card")
    factor = min(_MAX_SUPERSAMPLING, max(2, math.ceil(_SUPERSAMPLED_PX_PER_MM / px_per_mm)))
    face, shape = draw_face(card, style, width * factor, height * factor)
    # Lanczos keeps the numerals crisp, as print is; the outline's coverage is an exact
    # box average so the alpha edge has no ringing.
    face = face.resize((width, height), Image.Resampling.LANCZOS, reducing_gap=2.0)
    shape = shape.reduce(factor)
    rgb = wear(np.asarray(face, dtype=np.uint8), style.paper_rgb, style.wear,
               [style.illustration_seed, ord(card.colour.letter), card.number])
    bgra = np.empty((height, width, 4), dtype=np.uint8)
    bgra[..., :3] = rgb[..., ::-1]
    bgra[..., 3] = np.asarray(shape, dtype=np.uint8)
    bgra.setflags(write=False)
    return bgra
