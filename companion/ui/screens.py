"""Screens: pure functions from what the table should know to a 128×64 one-bit image.

Nothing here talks to hardware; the device shows the image (``companion.device``), a
test compares it with a golden PNG, the demo prints it in the terminal. Text is set in
the bundled DejaVu fonts (Pillow's own font has no umlauts), without anti-aliasing,
and shrunk until it fits the line.
"""

from __future__ import annotations

from typing import Iterable, Mapping, Sequence

from PIL import Image, ImageDraw, ImageFont

from ..fonts import bundled_font
from .texts import word

WIDTH, HEIGHT = 128, 64
_BOLD = "DejaVuSans-Bold.ttf"
_NARROW = "DejaVuSansCondensed-Bold.ttf"
_PLAIN = "DejaVuSans.ttf"
_MARGIN = 2


def blank() -> tuple[Image.Image, ImageDraw.ImageDraw]:
    image = Image.new("1", (WIDTH, HEIGHT), 0)
    draw = ImageDraw.Draw(image)
    draw.fontmode = "1"  # one-bit pixels: no grey edges to dither on the OLED
    return image, draw


def fitted(draw: ImageDraw.ImageDraw, text: str, file_name: str, size: int, width: int,
           smallest: int = 8) -> ImageFont.FreeTypeFont:
    """The font at ``size``, or smaller down to ``smallest``, in which ``text`` fits ``width``."""
    for px in range(size, smallest - 1, -1):
        font = bundled_font(file_name, px)
        if draw.textlength(text, font=font) <= width:
            return font
    return bundled_font(file_name, smallest)


def wrapped(draw: ImageDraw.ImageDraw, text: str, font: ImageFont.FreeTypeFont, width: int) -> list[str]:
    """``text`` broken into lines no wider than ``width`` (a word too long for a line stands alone)."""
    lines: list[str] = []
    for paragraph in text.split("\n"):
        line = ""
        for piece in paragraph.split():
            trial = f"{line} {piece}".strip()
            if line and draw.textlength(trial, font=font) > width:
                lines.append(line)
                line = piece
            else:
                line = trial
        lines.append(line)
    return lines


def _text(draw, xy, text: str, font, fill: int = 1, anchor: str = "la") -> None:
    draw.text(xy, text, font=font, fill=fill, anchor=anchor)


def _title_bar(draw, text: str, size: int = 13) -> int:
    """A white bar with ``text`` in black across the top; returns the y below it."""
    font = fitted(draw, text, _BOLD, size, WIDTH - 2 * _MARGIN)
    height = size + 4
    draw.rectangle((0, 0, WIDTH - 1, height - 1), fill=1)
    _text(draw, (WIDTH // 2, height // 2), text, font, fill=0, anchor="mm")
    return height + 2


def _lines(draw, lines: Sequence[str], top: int, size: int = 10, bottom: int = HEIGHT,
           file_name: str = _PLAIN) -> None:
    """Lines of small print from ``top``, each shrunk to fit, as many as there is room for."""
    step = size + 2
    for line in lines:
        if top + size > bottom:
            break
        font = fitted(draw, line, file_name, size, WIDTH - 2 * _MARGIN, smallest=size - 2)
        _text(draw, (_MARGIN, top), line, font)
        top += step


def turn(current: str | None, hands: Mapping[str, int], stock: int, drawn: int, draw_limit: int,
         lang: str = "de") -> Image.Image:
    """Whose turn: the player in large print, every hand count (the current player's
    inverted), the stock and, once a card was drawn this turn, the draw counter."""
    image, draw = blank()
    heading = word("turn", lang, player=current) if current else word("waiting", lang)
    _text(draw, (WIDTH // 2, 0), heading, fitted(draw, heading, _BOLD, 15, WIDTH - 2 * _MARGIN), anchor="ma")
    names = list(hands)
    columns = 3 if len(names) > 4 else 2
    cell = WIDTH // columns
    for index, name in enumerate(names):
        x, y = (index % columns) * cell, 20 + (index // columns) * 14
        label = f"{name} {hands[name]}"
        font = fitted(draw, label, _NARROW, 11, cell - 4)
        if name == current:
            draw.rectangle((x, y, x + cell - 2, y + 12), fill=1)
        _text(draw, (x + 2, y + 1), label, font, fill=0 if name == current else 1)
    font = bundled_font(_PLAIN, 10)
    _text(draw, (_MARGIN, HEIGHT - 1), word("stock", lang, stock=stock), font, anchor="ld")
    if drawn:
        _text(draw, (WIDTH - _MARGIN, HEIGHT - 1), word("drawn", lang, drawn=drawn, limit=draw_limit), font,
              anchor="rd")
    return image


def alert(headline: str, detail: str, hint: str | None = None, lang: str = "de") -> Image.Image:
    """A rejected move: the headline inverted across the top, the referee's message
    below, and what to do (``hint``) on the last line."""
    image, draw = blank()
    top = _title_bar(draw, headline)
    bottom = HEIGHT - 12 if hint else HEIGHT
    font = bundled_font(_PLAIN, 10)
    _lines(draw, wrapped(draw, detail, font, WIDTH - 2 * _MARGIN), top, bottom=bottom)
    if hint:
        _text(draw, (WIDTH // 2, HEIGHT - 1), hint, fitted(draw, hint, _BOLD, 10, WIDTH), anchor="md")
    return image


def question(cards: str, lang: str = "de") -> Image.Image:
    """"Rot 12 darunter?": the card asked about in large print, and how to answer."""
    image, draw = blank()
    _text(draw, (WIDTH // 2, 2), cards, fitted(draw, cards, _BOLD, 20, WIDTH - 2 * _MARGIN), anchor="ma")
    below = "darunter?" if lang == "de" else "underneath?"
    _text(draw, (WIDTH // 2, 26), below, bundled_font(_BOLD, 14), anchor="ma")
    hint = word("question_hint", lang)
    _text(draw, (WIDTH // 2, HEIGHT - 1), hint, fitted(draw, hint, _PLAIN, 10, WIDTH), anchor="md")
    return image


def message(title: str, lines: Iterable[str]) -> Image.Image:
    """A title bar and lines of small print: the table unclear, a desync, a start-up error."""
    image, draw = blank()
    top = _title_bar(draw, title)
    font = bundled_font(_PLAIN, 10)
    text = [part for line in lines for part in wrapped(draw, line, font, WIDTH - 2 * _MARGIN)]
    _lines(draw, text, top)
    return image


def game_over(winner: str | None, penalties: Mapping[str, int] | None = None, lang: str = "de") -> Image.Image:
    """The end of a game: the winner, and the penalty points entered so far."""
    image, draw = blank()
    top = _title_bar(draw, word("game_over", lang))
    if winner:
        text = word("winner", lang, player=winner)
        _text(draw, (WIDTH // 2, top), text, fitted(draw, text, _BOLD, 14, WIDTH - 2 * _MARGIN), anchor="ma")
        top += 18
    if penalties:
        _lines(draw, ["  ".join(f"{name} {points}" for name, points in penalties.items())], top,
               file_name=_NARROW)
    return image


def penalty(player: str, points: int, cards: int, low: int, high: int, problem: str | None = None,
            lang: str = "de", counted: Sequence[str] = (), unread: int = 0) -> Image.Image:
    """Penalty entry for one player: the number being entered in large print, the range
    their hand allows, and why a number was refused (``problem``); with cards the camera
    counted (``counted``: their names), those and how many of the hand they are; with
    cards it cannot read (``unread``), how many to turn or move."""
    image, draw = blank()
    top = _title_bar(draw, word("penalty", lang, player=player), size=11)
    _text(draw, (WIDTH // 2, top), str(points), bundled_font(_BOLD, 20), anchor="ma")
    hint = problem or word("penalty_cards", lang, count=cards, low=low, high=high)
    if unread and not problem:
        hint = word("penalty_unread", lang, count=unread)
    elif counted and not problem:
        hint = word("penalty_counted", lang, cards=" ".join(counted), count=len(counted), of=cards)
    _text(draw, (WIDTH // 2, HEIGHT - 12), hint, fitted(draw, hint, _PLAIN, 10, WIDTH), anchor="md")
    help_line = word("penalty_hint", lang)
    _text(draw, (WIDTH // 2, HEIGHT - 1), help_line, fitted(draw, help_line, _PLAIN, 9, WIDTH), anchor="md")
    return image


def menu(label: str, value: str, number: int, count: int, lang: str = "de") -> Image.Image:
    """One item of the setup menu: what it sets, its value in large print, how to change it."""
    image, draw = blank()
    top = _title_bar(draw, f"{label} ({number}/{count})", size=11)
    _text(draw, (WIDTH // 2, top + 2), value, fitted(draw, value, _BOLD, 18, WIDTH - 2 * _MARGIN), anchor="ma")
    hint = word("menu_hint", lang)
    _text(draw, (WIDTH // 2, HEIGHT - 1), hint, fitted(draw, hint, _PLAIN, 10, WIDTH), anchor="md")
    return image


def guide(card: str, number: int, count: int, problem: str | None = None, lang: str = "de") -> Image.Image:
    """The calibration guide: which card to lay alone in the play area, and how far along."""
    image, draw = blank()
    top = _title_bar(draw, word("guide_title", lang, number=number, count=count), size=11)
    _text(draw, (WIDTH // 2, top), card, fitted(draw, card, _BOLD, 18, WIDTH - 2 * _MARGIN), anchor="ma")
    hint = problem or word("guide_hint", lang)
    _text(draw, (WIDTH // 2, HEIGHT - 12), hint, fitted(draw, hint, _PLAIN, 10, WIDTH), anchor="md")
    help_line = word("guide_keys", lang)
    _text(draw, (WIDTH // 2, HEIGHT - 1), help_line, fitted(draw, help_line, _PLAIN, 9, WIDTH), anchor="md")
    return image


def guide_laid_out(found: int, count: int, problem: str | None = None, lang: str = "de") -> Image.Image:
    """The calibration guide for the set laid out in rows: the order, and how many cards
    the pictures taken so far show."""
    image, draw = blank()
    top = _title_bar(draw, word("laid_title", lang, found=found, count=count), size=11)
    order = word("laid_order", lang)
    _text(draw, (WIDTH // 2, top + 2), order, fitted(draw, order, _BOLD, 12, WIDTH - 2 * _MARGIN), anchor="ma")
    hint = problem or word("laid_hint", lang)
    _text(draw, (WIDTH // 2, HEIGHT - 12), hint, fitted(draw, hint, _PLAIN, 10, WIDTH), anchor="md")
    help_line = word("guide_keys", lang)
    _text(draw, (WIDTH // 2, HEIGHT - 1), help_line, fitted(draw, help_line, _PLAIN, 9, WIDTH), anchor="md")
    return image


def to_text(image: Image.Image) -> str:
    """The image as Unicode half blocks, two pixel rows per character cell (the demo's terminal view)."""
    pixels = image.convert("1").load()
    width, height = image.size
    cells = {(False, False): " ", (True, False): "▀", (False, True): "▄", (True, True): "█"}
    rows = []
    for y in range(0, height, 2):
        rows.append("".join(cells[(bool(pixels[x, y]), y + 1 < height and bool(pixels[x, y + 1]))]
                            for x in range(width)))
    return "\n".join(rows)
