"""The play area's ArUco markers: the layout both the simulator and the card reader use.

Four markers of ``DICT_4X4_50`` mark the corners of a rectangular play area, ids 0–3
at its top-left, top-right, bottom-right and bottom-left corners, each marker's
*centre* on its corner. "Top" is the far side of the table as the players read the
labels on the printed markers (all four read the same way up), so the top-down view
of the play area shows the table as those players see it.

Play-area coordinates are millimetres from the top-left marker's centre, x to the
right, y down. The default play area, 600 × 450 mm, holds the four colour rows of the
game one under another, each a pile of low cards, the 11 and a pile of high cards
(4 × 91 mm cards plus gaps is about 400 mm high, 3 × 59 mm piles leave room for
fanned, crooked and sliding cards), and it has the 4:3 shape of a camera sensor, so a
camera above the table spends its pixels on the play area.

:func:`marker_sheet` is the printable A4 page; ``elfer markers --out FILE`` writes it.
"""

from __future__ import annotations

import functools
from pathlib import Path
from types import MappingProxyType
from typing import Mapping

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

from ..fonts import bundled_font

MARKER_DICT = cv2.aruco.DICT_4X4_50
CORNER_IDS: Mapping[str, int] = MappingProxyType({"top_left": 0, "top_right": 1, "bottom_right": 2, "bottom_left": 3})
CORNER_NAMES: Mapping[int, str] = MappingProxyType({marker_id: name for name, marker_id in CORNER_IDS.items()})
CORNER_LABELS: Mapping[str, str] = MappingProxyType(
    {
        "top_left": "oben links / top left",
        "top_right": "oben rechts / top right",
        "bottom_right": "unten rechts / bottom right",
        "bottom_left": "unten links / bottom left",
    }
)

MARKER_SIZE_MM = 40.0
"""Printed side of a marker's black square: big enough for a camera 60–90 cm above the
table to see each module (6.7 mm) over several pixels, small enough to stay out of
the cards' way."""

MARKER_MODULES = 6  # 4 × 4 data bits inside a one-bit black border
PLAY_AREA_MM = (600.0, 450.0)
"""The suggested (width, height) of the play area between the marker centres, and the
one assumed until the markers have been measured (:mod:`.marker_layout`)."""
SMALLEST_AREA_MM = (350.0, 250.0)  # the range the sheet promises; measured in docs/benchmarks.md
LARGEST_AREA_MM = (1000.0, 700.0)

A4_MM = (210.0, 297.0)
MM_PER_INCH = 25.4

@functools.lru_cache(maxsize=1)
def marker_dictionary() -> cv2.aruco.Dictionary:
    return cv2.aruco.getPredefinedDictionary(MARKER_DICT)


def corner_positions_mm(play_area_mm: tuple[float, float] = PLAY_AREA_MM) -> dict[int, tuple[float, float]]:
    """Each marker id's centre in play-area millimetres (x right, y down)."""
    width, height = play_area_mm
    return {
        CORNER_IDS["top_left"]: (0.0, 0.0),
        CORNER_IDS["top_right"]: (width, 0.0),
        CORNER_IDS["bottom_right"]: (width, height),
        CORNER_IDS["bottom_left"]: (0.0, height),
    }


def quiet_zone_px(size_px: int) -> int:
    """The white margin :func:`marker_image` adds around a marker: one module."""
    return max(1, round(size_px / MARKER_MODULES))


def marker_image(marker_id: int, size_px: int) -> np.ndarray:
    """Marker ``marker_id`` as a grey uint8 image: black on white, upright.

    ``size_px`` is the side of the black square; a white quiet zone of one module
    (:func:`quiet_zone_px`) surrounds it, so the image is ``size_px + 2 * quiet`` wide.
    Its centre is the marker's centre.
    """
    marker_count = marker_dictionary().bytesList.shape[0]
    if not 0 <= int(marker_id) < marker_count:
        raise ValueError(f"marker id {marker_id} is not in DICT_4X4_50 (0–{marker_count - 1})")
    if int(size_px) < MARKER_MODULES:
        raise ValueError(f"a marker needs at least {MARKER_MODULES} px, not {size_px}")
    marker = cv2.aruco.generateImageMarker(marker_dictionary(), int(marker_id), int(size_px))
    quiet = quiet_zone_px(int(size_px))
    return cv2.copyMakeBorder(marker, quiet, quiet, quiet, quiet, cv2.BORDER_CONSTANT, value=255)


def detect_markers(image: np.ndarray) -> dict[int, np.ndarray]:
    """The ``DICT_4X4_50`` markers in a grey or BGR(A) image: id → corners (4, 2) float32.

    Corners run clockwise from the marker's own top-left. OpenCV versions differ in
    the shape of ``ids`` ((N,) or (N, 1)), hence the flattening.
    """
    if image.ndim == 3:
        code = cv2.COLOR_BGRA2GRAY if image.shape[2] == 4 else cv2.COLOR_BGR2GRAY
        image = cv2.cvtColor(image, code)
    detector = cv2.aruco.ArucoDetector(marker_dictionary(), cv2.aruco.DetectorParameters())
    corners, ids, _rejected = detector.detectMarkers(image)
    if ids is None:
        return {}
    return {int(marker_id): np.asarray(box, np.float32).reshape(4, 2) for marker_id, box in zip(np.ravel(ids), corners)}


# ------------------------------------------------------------------ the printed sheet
_INSTRUCTIONS_DE = (
    "Mit 100 % drucken (tatsächliche Größe, nicht „an Seite anpassen“). Die Messlinie muss genau 100 mm lang sein.",
    "Die vier Marker an den gestrichelten Linien ausschneiden.",
    "Die Marker an die vier Ecken eines Rechtecks um die Spielfläche legen, jeden auf die genannte Ecke, die Pfeile "
    "zur Mitte. Jede Größe von etwa {small} bis {large} cm passt, z. B. {w} × {h} cm; messen ist nicht nötig, "
    "der Begleiter misst die Fläche an den Markern selbst. Die Kamera sollte alle vier sehen.",
    "Alle vier Beschriftungen lesbar von derselben Tischseite: „oben“ ist die von dir abgewandte Seite.",
    "Flach hinlegen (am besten festkleben), nicht knicken, nicht mit Karten oder Händen verdecken.",
)
_INSTRUCTIONS_EN = (
    "Print at 100 % (actual size, no “fit to page”). The measuring line must be exactly 100 mm long.",
    "Cut out the four markers along the dashed lines.",
    "Lay the markers at the four corners of a rectangle around the play area, each on its named corner, arrows "
    "pointing inwards. Any size from about {small} to {large} cm works, e.g. {w} × {h} cm; there is no need to "
    "measure: the companion measures the area by the markers themselves. The camera should see all four.",
    "All four labels read the same way up from one side of the table: “top” is the side away from you.",
    "Keep them flat (tape them down), unfolded, and not covered by cards or hands.",
)

_PIECE_MARGIN_MM = 12.0  # white around the marker on the cut-out piece: well over one module
_LABEL_STRIP_MM = 12.0
_PIECE_GAP_MM = (30.0, 14.0)


def marker_sheet(dpi: int = 300) -> Image.Image:
    """The printable A4 page (grey, ``dpi`` dots per inch): four markers at true size,
    labelled with their corner, cut lines, a 100 mm measuring line and instructions
    in German and English."""
    page = _Page(dpi)
    y = page.text((15, 12), "Elfer raus! – Marker für die Spielfläche / play-area markers", 5.5, bold=True)
    width, height = (f"{value / 10:g}" for value in PLAY_AREA_MM)
    small, large = (" × ".join(f"{value / 10:g}" for value in area) for area in (SMALLEST_AREA_MM, LARGEST_AREA_MM))
    for lines in (_INSTRUCTIONS_DE, _INSTRUCTIONS_EN):
        y += 2.5
        for number, line in enumerate(lines, 1):
            y = page.paragraph((15, y), f"{number}.", line.format(w=width, h=height, small=small, large=large), 3.2)
    y = page.ruler((15, y + 5), 100.0)

    piece_width = MARKER_SIZE_MM + 2 * _PIECE_MARGIN_MM
    piece_height = piece_width + _LABEL_STRIP_MM
    left = (A4_MM[0] - 2 * piece_width - _PIECE_GAP_MM[0]) / 2
    pieces_height = 2 * piece_height + _PIECE_GAP_MM[1]
    top = max(y + 8, (y + A4_MM[1] - 10 - pieces_height) / 2)  # centred in the room left
    for name, marker_id in CORNER_IDS.items():
        column = 1 if name.endswith("right") else 0
        row = 1 if name.startswith("bottom") else 0
        origin = (left + column * (piece_width + _PIECE_GAP_MM[0]), top + row * (piece_height + _PIECE_GAP_MM[1]))
        page.piece(origin, marker_id, name)
    return page.image


def save_marker_sheet(path: str | Path, dpi: int = 300) -> Path:
    """Write :func:`marker_sheet` at true size: ``.png`` or ``.pdf``, by the suffix."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in (".png", ".pdf"):
        raise ValueError(f"cannot write a marker sheet as {path.name!r}: use a .png or .pdf file name")
    sheet = marker_sheet(dpi)
    if suffix == ".png":
        sheet.save(path, format="PNG", dpi=(dpi, dpi))
    else:
        sheet.save(path, format="PDF", resolution=float(dpi))
    return path


class _Page:
    """An A4 canvas drawn in millimetres."""

    def __init__(self, dpi: int):
        if dpi < 72:
            raise ValueError(f"a printable sheet needs at least 72 dpi, not {dpi}")
        self.px_per_mm = dpi / MM_PER_INCH
        self.image = Image.new("L", (self.px(A4_MM[0]), self.px(A4_MM[1])), 255)
        self.draw = ImageDraw.Draw(self.image)

    def px(self, mm: float) -> int:
        return round(mm * self.px_per_mm)

    def font(self, size_mm: float, bold: bool = False) -> ImageFont.FreeTypeFont:
        return bundled_font("DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf", self.px(size_mm))

    def text(self, at_mm, text: str, size_mm: float, bold: bool = False, anchor: str = "la") -> float:
        """Draw one line; returns the y (mm) below it."""
        self.draw.text((self.px(at_mm[0]), self.px(at_mm[1])), text, font=self.font(size_mm, bold), fill=0, anchor=anchor)
        return at_mm[1] + size_mm * 1.3

    def paragraph(self, at_mm, bullet: str, text: str, size_mm: float) -> float:
        """A numbered paragraph wrapped to the page width; returns the y (mm) below it."""
        x, y = at_mm
        indent = 6.0
        font = self.font(size_mm)
        max_px = self.px(A4_MM[0] - x - indent - 15)
        self.text((x, y), bullet, size_mm)
        for line in _wrap(text, font, max_px):
            y = self.text((x + indent, y), line, size_mm)
        return y + 0.8

    def ruler(self, at_mm, length_mm: float) -> float:
        """A measuring line with centimetre ticks; returns the y (mm) below it."""
        x, y = at_mm
        self.draw.line((self.px(x), self.px(y), self.px(x + length_mm), self.px(y)), fill=0, width=self.px(0.3))
        for cm in range(int(length_mm // 10) + 1):
            tick = 3.0 if cm in (0, length_mm // 10) else 1.5
            tx = self.px(x + cm * 10)
            self.draw.line((tx, self.px(y - tick), tx, self.px(y)), fill=0, width=self.px(0.3))
        self.text((x + length_mm + 4, y), "100 mm – nachmessen / measure it", 3.2, anchor="ls")
        return y + 3

    def piece(self, origin_mm, marker_id: int, corner: str):
        """One cut-out piece: the marker, its label strip on the side away from the play
        area, ticks on the marker's centre lines and an arrow into the play area."""
        x, y = origin_mm
        side = MARKER_SIZE_MM + 2 * _PIECE_MARGIN_MM
        on_top = corner.startswith("top")  # the label strip goes outside the play area
        strip_y = y if on_top else y + side
        square_y = y + _LABEL_STRIP_MM if on_top else y
        self._dashed_rectangle(x, y, side, side + _LABEL_STRIP_MM)

        size_px = self.px(MARKER_SIZE_MM)
        marker = marker_image(marker_id, size_px)
        quiet = quiet_zone_px(size_px)
        centre = (x + side / 2, square_y + side / 2)
        self.image.paste(
            Image.fromarray(marker), (self.px(centre[0]) - size_px // 2 - quiet, self.px(centre[1]) - size_px // 2 - quiet)
        )
        tick = 4.0
        for x0, y0, x1, y1 in (
            (centre[0], square_y, centre[0], square_y + tick),
            (centre[0], square_y + side, centre[0], square_y + side - tick),
            (x, centre[1], x + tick, centre[1]),
            (x + side, centre[1], x + side - tick, centre[1]),
        ):
            self.draw.line((self.px(x0), self.px(y0), self.px(x1), self.px(y1)), fill=0, width=self.px(0.4))

        label_y = strip_y + _LABEL_STRIP_MM / 2 + (1.5 if on_top else -1.5)
        self.text((x + 3, label_y), f"{marker_id}", 5.0, bold=True, anchor="lm")
        self.text((x + 9, label_y), CORNER_LABELS[corner], 3.0, anchor="lm")
        inward = (-1.0 if corner.endswith("right") else 1.0, 1.0 if on_top else -1.0)
        self._arrow((x + side - 6, label_y), inward, 7.0)

    def _arrow(self, centre_mm, direction, length_mm: float):
        """A diagonal arrow through ``centre_mm``, pointing along ``direction`` (±1, ±1)."""
        unit = np.array(direction, float) / np.hypot(*direction)
        normal = np.array((-unit[1], unit[0]))
        centre = np.array(centre_mm, float)
        tip, tail = centre + unit * length_mm / 2, centre - unit * length_mm / 2
        head_base = tip - unit * 2.8
        self.draw.line((*self._pt(tail), *self._pt(head_base)), fill=0, width=self.px(0.8))
        head = [tip, head_base + normal * 1.7, head_base - normal * 1.7]
        self.draw.polygon([self._pt(point) for point in head], fill=0)

    def _pt(self, point_mm) -> tuple[int, int]:
        return self.px(point_mm[0]), self.px(point_mm[1])

    def _dashed_rectangle(self, x, y, width, height, dash=3.0, gap=2.0):
        grey, line = 110, self.px(0.25)
        for x0, y0, x1, y1 in ((x, y, x + width, y), (x, y + height, x + width, y + height), (x, y, x, y + height),
                               (x + width, y, x + width, y + height)):
            length = max(abs(x1 - x0), abs(y1 - y0))
            step = np.array((x1 - x0, y1 - y0)) / length
            position = 0.0
            while position < length:
                end = min(position + dash, length)
                start_pt, end_pt = np.array((x0, y0)) + step * position, np.array((x0, y0)) + step * end
                self.draw.line((*self._pt(start_pt), *self._pt(end_pt)), fill=grey, width=line)
                position = end + gap
        self.text((x + width - 1, y - 0.8), "✂", 3.5, anchor="rs")


def _wrap(text: str, font: ImageFont.FreeTypeFont, max_px: int) -> list[str]:
    lines: list[str] = []
    for word in text.split():
        if lines and font.getlength(f"{lines[-1]} {word}") <= max_px:
            lines[-1] = f"{lines[-1]} {word}"
        else:
            lines.append(word)
    return lines


