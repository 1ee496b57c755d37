"""Drawing one card face at supersampled scale, from a deck style's plain data.

Kept apart from :mod:`.deck` (the styles and the cached, reduced renders) so that each
feature of a printed deck (fills, frames, corner indices, marks on 6 and 9,
illustrations, wear) is one small function here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from PIL import Image, ImageDraw

from ..cards import Card
from ..fonts import bundled_font

if TYPE_CHECKING:
    from .deck import DeckStyle

CARD_MM = (59.0, 91.0)
"""A real card's (width, height) in millimetres."""


def draw_face(card: Card, style: "DeckStyle", width: int, height: int) -> tuple[Image.Image, Image.Image]:
    """The face (RGB, painted to the very edge) and the card's shape (L) at drawing scale."""
    scale = width / CARD_MM[0]  # pixels per mm at drawing scale
    ink = style.ink(card.colour)
    paper = style.paper_rgb
    radius = style.corner_radius_mm * scale

    shape = Image.new("L", (width, height), 0)
    ImageDraw.Draw(shape).rounded_rectangle((0, 0, width - 1, height - 1), radius=radius, fill=255)

    face = Image.new("RGB", (width, height), paper)
    fill = _fill_mask(style, width, height, scale)
    if fill is not None:
        face.paste(ink, (0, 0, width, height), fill)
    if style.illustration != "none":
        _illustrate(face, fill, card, style, scale)
    if style.frame_mm > 0:
        _frames(face, style, scale, ink, paper, fill)

    def colour_at(x: float, y: float):
        """Numerals print in paper colour where they lie on the colour fill."""
        on_fill = fill is not None and fill.getpixel((min(width - 1, max(0, round(x))), min(height - 1, max(0, round(y))))) > 127
        return paper if on_fill else ink

    text = str(card.number)
    mark = style.six_nine if card.number in (6, 9) else "none"
    if style.centre_height_mm > 0:
        mask, digits_centre_y = numeral_mask(
            text, style.font, style.centre_height_mm * scale, style.centre_max_width_mm * scale, mark
        )
        x = width / 2 + style.centre_offset_mm[0] * scale
        y = height / 2 + style.centre_offset_mm[1] * scale
        _stamp(face, mask, colour_at(x, y), (x, y), digits_centre_y)
    if style.index_corners != "none":
        _indices(face, text, mark, style, scale, colour_at)
    return face, shape


def _fill_mask(style: "DeckStyle", width: int, height: int, scale: float) -> Image.Image | None:
    """Where the card's colour is printed as a fill (L, 255 = colour), or None for none."""
    if style.fill == "paper":
        return None
    mask = Image.new("L", (width, height), 0)
    draw = ImageDraw.Draw(mask)
    inset = style.fill_inset_mm * scale
    radius = style.corner_radius_mm * scale
    outer = (inset, inset, width - 1 - inset, height - 1 - inset)
    draw.rounded_rectangle(outer, radius=max(0.0, radius - inset), fill=255)
    if style.fill == "band":
        inner = inset + style.band_mm * scale
        draw.rounded_rectangle((inner, inner, width - 1 - inner, height - 1 - inner),
                               radius=max(scale, radius - inner), fill=0)
    elif style.fill == "disc":
        r = style.disc_mm * scale / 2
        cx = width / 2 + style.centre_offset_mm[0] * scale
        cy = height / 2 + style.centre_offset_mm[1] * scale
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=0)
    return mask


def _frames(face: Image.Image, style: "DeckStyle", scale: float, ink, paper, fill: Image.Image | None):
    """One or two frame lines, in ink on paper and in paper colour on a full fill."""
    draw = ImageDraw.Draw(face)
    colour = paper if style.fill == "full" else ink
    width, height = face.size
    line = max(1, round(style.frame_mm * scale))
    insets = [style.frame_inset_mm]
    if style.double_frame:
        insets.append(style.frame_inset_mm + style.frame_mm + max(0.8, 1.5 * style.frame_mm))
    for inset_mm in insets:
        inset = inset_mm * scale
        draw.rounded_rectangle(
            (inset, inset, width - 1 - inset, height - 1 - inset),
            radius=max(scale * 0.5, style.corner_radius_mm * scale - inset), outline=colour, width=line,
        )


def _indices(face: Image.Image, text: str, mark: str, style: "DeckStyle", scale: float, colour_at):
    width, height = face.size
    mask, digits_centre_y = numeral_mask(text, style.font, style.index_height_mm * scale,
                                         style.index_max_width_mm * scale, mark)
    upside_down = mask.transpose(Image.Transpose.ROTATE_180)
    flipped_centre_y = mask.height - digits_centre_y
    x, y = (value * scale for value in style.index_centre_mm)
    if style.index_corners == "rotated":
        # read from the long side, as on decks meant to be fanned sideways
        left = mask.transpose(Image.Transpose.ROTATE_90)
        right = mask.transpose(Image.Transpose.ROTATE_270)
        for (cx, cy), turned in (((x, y), left), ((x, height - y), left),
                                 ((width - x, y), right), ((width - x, height - y), right)):
            _stamp(face, turned, colour_at(cx, cy), (cx, cy), turned.height / 2)
        return
    _stamp(face, mask, colour_at(x, y), (x, y), digits_centre_y)
    _stamp(face, upside_down, colour_at(width - x, height - y), (width - x, height - y), flipped_centre_y)
    if style.index_corners == "four":
        _stamp(face, mask, colour_at(width - x, y), (width - x, y), digits_centre_y)
        _stamp(face, upside_down, colour_at(x, height - y), (x, height - y), flipped_centre_y)


def _stamp(face: Image.Image, mask: Image.Image, colour, centre: tuple[float, float], digits_centre_y: float):
    """Print ``colour`` through ``mask`` with the digits' centre on ``centre``."""
    left = round(centre[0] - mask.width / 2)
    top = round(centre[1] - digits_centre_y)
    face.paste(colour, (left, top, left + mask.width, top + mask.height), mask)


def numeral_mask(text: str, font_file: str, digit_height: float, max_width: float,
                 mark: str = "none") -> tuple[Image.Image, float]:
    """The numeral's ink as an L mask cropped to it, and the y of the digits' centre.

    The digits are ``digit_height`` pixels tall; the underline of a 6 or 9 hangs below
    them and a dot sits at their lower right, so the digits sit at the same place on
    every card.
    """
    font = bundled_font(font_file, max(1, round(digit_height / digit_height_per_em(font_file))))
    left, top, right, bottom = font.getbbox(text)
    pad = max(2, round(digit_height * 0.1))
    canvas = Image.new("L", (right - left + 2 * pad, bottom - top + 2 * pad), 0)
    ImageDraw.Draw(canvas).text((pad - left, pad - top), text, font=font, fill=255)
    mask = canvas.crop(canvas.getbbox())
    digits_height = mask.height
    if mark == "underline":
        gap, thickness = round(digit_height * 0.07), max(1, round(digit_height * 0.09))
        inset = round(mask.width * 0.06)  # a printed underline is a little shorter than the numeral
        lined = Image.new("L", (mask.width, digits_height + gap + thickness), 0)
        lined.paste(mask, (0, 0))
        ImageDraw.Draw(lined).rectangle(
            (inset, digits_height + gap, mask.width - 1 - inset, digits_height + gap + thickness - 1), fill=255
        )
        mask = lined
    elif mark == "dot":
        size, gap = max(2, round(digit_height * 0.13)), max(1, round(digit_height * 0.06))
        dotted = Image.new("L", (mask.width + gap + size, digits_height), 0)
        dotted.paste(mask, (0, 0))
        ImageDraw.Draw(dotted).ellipse(
            (mask.width + gap, digits_height - size, mask.width + gap + size - 1, digits_height - 1), fill=255)
        mask = dotted
    if mask.width > max_width:
        # Narrow to at most 75 %, as a condensed cut would; beyond that shrink evenly.
        narrowed = max(max_width, mask.width * 0.75)
        shrink = max_width / narrowed
        new_size = (max(1, round(narrowed * shrink)), max(1, round(mask.height * shrink)))
        digits_height *= new_size[1] / mask.height
        mask = mask.resize(new_size, Image.Resampling.LANCZOS)
    return mask, digits_height / 2


_DIGIT_HEIGHTS: dict[str, float] = {}


def digit_height_per_em(font_file: str) -> float:
    """How tall a digit's ink is, as a fraction of the font size."""
    if font_file not in _DIGIT_HEIGHTS:
        reference_size = 200
        left, top, right, bottom = bundled_font(font_file, reference_size).getbbox("0", anchor="ls")
        _DIGIT_HEIGHTS[font_file] = (bottom - top) / reference_size
    return _DIGIT_HEIGHTS[font_file]


def _tint(ink, paper, share: float) -> tuple[int, int, int]:
    """``share`` of the ink over the paper, as a pale print of it."""
    return tuple(round(p + (i - p) * share) for i, p in zip(ink, paper))


def _illustrate(face: Image.Image, fill: Image.Image | None, card: Card, style: "DeckStyle", scale: float):
    """A pattern behind everything, or a simple animal away from the centre numeral."""
    ink, paper = style.ink(card.colour), style.paper_rgb
    on_fill = fill is not None and style.fill == "full"
    # on a full fill the drawing is a lighter shade of the fill; on paper, a pale ink
    colour = _tint(paper, ink, 0.35) if on_fill else _tint(ink, paper, style.illustration_shade)
    rng = np.random.default_rng([style.illustration_seed, ord(card.colour.letter), card.number])
    draw = ImageDraw.Draw(face)
    width, height = face.size
    if style.illustration == "pattern":
        step = rng.uniform(6.0, 10.0) * scale
        r = step * rng.uniform(0.12, 0.22)
        offset = rng.uniform(0, step)
        for row, y in enumerate(np.arange(-step, height + step, step)):
            for x in np.arange(-step + offset + (step / 2 if row % 2 else 0), width + step, step):
                draw.ellipse((x - r, y - r, x + r, y + r), fill=colour)
        return
    # an animal: body, head, ears, legs and tail, in the half of the card the numeral leaves free
    below = style.centre_offset_mm[1] <= 0
    cx = width * rng.uniform(0.38, 0.62)
    cy = height * (rng.uniform(0.68, 0.76) if below else rng.uniform(0.24, 0.32))
    body_w, body_h = width * rng.uniform(0.26, 0.36), height * rng.uniform(0.09, 0.13)
    head_r = body_h * rng.uniform(0.55, 0.8)
    facing = 1 if rng.random() < 0.5 else -1
    for leg in (-0.6, -0.25, 0.25, 0.6):
        lx = cx + leg * body_w / 2
        draw.rectangle((lx - body_w * 0.05, cy, lx + body_w * 0.05, cy + body_h * 1.1), fill=colour)
    draw.ellipse((cx - body_w / 2, cy - body_h / 2, cx + body_w / 2, cy + body_h / 2), fill=colour)
    hx, hy = cx + facing * body_w * 0.55, cy - body_h * 0.6
    for side in (-1, 1):
        ex, ey = hx + side * head_r * 0.55, hy - head_r * 0.85
        draw.ellipse((ex - head_r * 0.35, ey - head_r * 0.5, ex + head_r * 0.35, ey + head_r * 0.5), fill=colour)
    draw.ellipse((hx - head_r, hy - head_r, hx + head_r, hy + head_r), fill=colour)
    eye = max(1.0, head_r * 0.14)
    ex = hx + facing * head_r * 0.35
    draw.ellipse((ex - eye, hy - head_r * 0.2 - eye, ex + eye, hy - head_r * 0.2 + eye), fill=paper if not on_fill else ink)
    tx = cx - facing * body_w / 2
    draw.line((tx, cy, tx - facing * body_w * 0.25, cy - body_h * 0.8), fill=colour, width=max(1, round(body_h * 0.12)))


def wear(rgb: np.ndarray, paper: tuple[int, int, int], amount: float, seed) -> np.ndarray:
    """A worn card: its print faded in blotches and scuffed to paper in small specks."""
    if amount <= 0:
        return rgb
    height, width = rgb.shape[:2]
    rng = np.random.default_rng(seed)
    coarse = Image.fromarray((rng.random((6, 4)) * 255).astype(np.uint8)).resize((width, height), Image.Resampling.BICUBIC)
    fade = np.asarray(coarse, np.float32)[..., None] / 255.0 * (0.35 * amount)
    specks = (rng.random((height, width)) < 0.01 * amount)[..., None]
    paper_rgb = np.array(paper, np.float32)
    out = rgb.astype(np.float32) * (1 - fade) + paper_rgb * fade
    out = np.where(specks, paper_rgb, out)
    return np.clip(out + 0.5, 0, 255).astype(np.uint8)
