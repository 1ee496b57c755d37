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
from PIL import Image, ImageColor, ImageDraw

from ..cards import Card, Colour
from ..fonts import FONT_DIR, bundled_font

CARD_MM = (59.0, 91.0)
"""A real card's (width, height) in millimetres."""

INDEX_CORNERS = ("two", "four", "none")

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
    inverse: bool = False  # face filled with the card's colour, numerals in paper colour
    fill_inset_mm: float = 0.0  # inverse only: a paper rim this wide around the colour
    font: str = "DejaVuSans-Bold.ttf"  # a file in companion/assets/fonts/
    centre_height_mm: float = 30.0  # 0: no centre numeral
    centre_max_width_mm: float = 40.0
    index_corners: str = "two"  # "two" (top left, bottom right), "four" or "none"
    index_height_mm: float = 6.0
    index_max_width_mm: float = 8.0
    index_centre_mm: tuple[float, float] = (8.5, 10.0)  # from the left and the top edge
    frame_mm: float = 1.2  # width of the frame line in the card's colour; 0: no frame
    frame_inset_mm: float = 2.5  # from the card's edge to the frame line's outer edge
    corner_radius_mm: float = 3.5
    underline_six_nine: bool = True  # tells 6 from an upside-down 9

    def __post_init__(self):
        if self.index_corners not in INDEX_CORNERS:
            raise ValueError(f"index_corners must be one of {', '.join(INDEX_CORNERS)}, not {self.index_corners!r}")
        if not (FONT_DIR / self.font).is_file():
            raise ValueError(f"style {self.name!r}: no font {self.font!r} in {FONT_DIR}")
        for colour in (self.paper, *(self.inks.of(c) for c in Colour)):
            ImageColor.getrgb(colour)  # fail when the style is made, not at the first render

    def ink(self, colour: Colour) -> tuple[int, int, int]:
        """The card colour's print colour as (r, g, b)."""
        return ImageColor.getrgb(self.inks.of(colour))[:3]

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
                inverse=True,
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
    """The deck style called ``name``; a ValueError lists the styles otherwise."""
    try:
        return STYLES[name]
    except (KeyError, TypeError):
        raise ValueError(f"unknown deck style {name!r}: choose one of {', '.join(STYLES)}") from None


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
    face, shape = _draw_face(card, style, width * factor, height * factor)
    # Lanczos keeps the numerals crisp, as print is; the outline's coverage is an exact
    # box average so the alpha edge has no ringing.
    face = face.resize((width, height), Image.Resampling.LANCZOS, reducing_gap=2.0)
    shape = shape.reduce(factor)
    rgb = np.asarray(face, dtype=np.uint8)
    bgra = np.empty((height, width, 4), dtype=np.uint8)
    bgra[..., :3] = rgb[..., ::-1]
    bgra[..., 3] = np.asarray(shape, dtype=np.uint8)
    bgra.setflags(write=False)
    return bgra


def _draw_face(card: Card, style: DeckStyle, width: int, height: int) -> tuple[Image.Image, Image.Image]:
    """The face (RGB, painted to the very edge) and the card's shape (L) at drawing scale."""
    scale = width / CARD_MM[0]  # pixels per mm at drawing scale
    ink = style.ink(card.colour)
    paper = style.paper_rgb
    numeral_colour = paper if style.inverse else ink
    radius = style.corner_radius_mm * scale

    shape = Image.new("L", (width, height), 0)
    ImageDraw.Draw(shape).rounded_rectangle((0, 0, width - 1, height - 1), radius=radius, fill=255)

    face = Image.new("RGB", (width, height), paper)
    draw = ImageDraw.Draw(face)
    if style.inverse:
        inset = style.fill_inset_mm * scale
        draw.rounded_rectangle(
            (inset, inset, width - 1 - inset, height - 1 - inset), radius=max(0.0, radius - inset), fill=ink
        )
    if style.frame_mm > 0:
        inset = style.frame_inset_mm * scale
        draw.rounded_rectangle(
            (inset, inset, width - 1 - inset, height - 1 - inset),
            radius=max(scale * 0.5, radius - inset),
            outline=numeral_colour,
            width=max(1, round(style.frame_mm * scale)),
        )

    underline = style.underline_six_nine and card.number in (6, 9)
    text = str(card.number)
    if style.centre_height_mm > 0:
        mask, digits_centre_y = _numeral_mask(
            text, style.font, style.centre_height_mm * scale, style.centre_max_width_mm * scale, underline
        )
        _stamp(face, mask, numeral_colour, (width / 2, height / 2), digits_centre_y)
    if style.index_corners != "none":
        mask, digits_centre_y = _numeral_mask(
            text, style.font, style.index_height_mm * scale, style.index_max_width_mm * scale, underline
        )
        upside_down = mask.transpose(Image.Transpose.ROTATE_180)
        flipped_centre_y = mask.height - digits_centre_y
        x, y = (value * scale for value in style.index_centre_mm)
        _stamp(face, mask, numeral_colour, (x, y), digits_centre_y)
        _stamp(face, upside_down, numeral_colour, (width - x, height - y), flipped_centre_y)
        if style.index_corners == "four":
            _stamp(face, mask, numeral_colour, (width - x, y), digits_centre_y)
            _stamp(face, upside_down, numeral_colour, (x, height - y), flipped_centre_y)
    return face, shape


def _stamp(face: Image.Image, mask: Image.Image, colour, centre: tuple[float, float], digits_centre_y: float):
    """Print ``colour`` through ``mask`` with the digits' centre on ``centre``."""
    left = round(centre[0] - mask.width / 2)
    top = round(centre[1] - digits_centre_y)
    face.paste(colour, (left, top, left + mask.width, top + mask.height), mask)


def _numeral_mask(
    text: str, font_file: str, digit_height: float, max_width: float, underline: bool
) -> tuple[Image.Image, float]:
    """The numeral's ink as an L mask cropped to it, and the y of the digits' centre.

    The digits are ``digit_height`` pixels tall; the underline of a 6 or 9 hangs below
    them, so the digits sit at the same place on every card.
    """
    font = bundled_font(font_file, max(1, round(digit_height / _digit_height_per_em(font_file))))
    left, top, right, bottom = font.getbbox(text)
    pad = max(2, round(digit_height * 0.1))
    canvas = Image.new("L", (right - left + 2 * pad, bottom - top + 2 * pad), 0)
    ImageDraw.Draw(canvas).text((pad - left, pad - top), text, font=font, fill=255)
    mask = canvas.crop(canvas.getbbox())
    digits_height = mask.height
    if underline:
        gap, thickness = round(digit_height * 0.07), max(1, round(digit_height * 0.09))
        inset = round(mask.width * 0.06)  # a printed underline is a little shorter than the numeral
        lined = Image.new("L", (mask.width, digits_height + gap + thickness), 0)
        lined.paste(mask, (0, 0))
        ImageDraw.Draw(lined).rectangle(
            (inset, digits_height + gap, mask.width - 1 - inset, digits_height + gap + thickness - 1), fill=255
        )
        mask = lined
    if mask.width > max_width:
        # Narrow to at most 75 %, as a condensed cut would; beyond that shrink evenly.
        narrowed = max(max_width, mask.width * 0.75)
        shrink = max_width / narrowed
        new_size = (max(1, round(narrowed * shrink)), max(1, round(mask.height * shrink)))
        digits_height *= new_size[1] / mask.height
        mask = mask.resize(new_size, Image.Resampling.LANCZOS)
    return mask, digits_height / 2


@functools.lru_cache(maxsize=None)
def _digit_height_per_em(font_file: str) -> float:
    """How tall a digit's ink is, as a fraction of the font size."""
    reference_size = 200
    left, top, right, bottom = bundled_font(font_file, reference_size).getbbox("0", anchor="ls")
    return (bottom - top) / reference_size
