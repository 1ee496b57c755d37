"""Where cards lie on the synthetic table: colour rows as piles or side by side.

Coordinates are millimetres on the table plane, origin at the play area's top-left
marker, x to the right, y down. A card's pose is its centre, its rotation and whether
it lies upside down; its corners follow from the card size.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from ..cards import Card
from ..rules.presets import Preset
from .deck import CARD_MM

LAYOUTS = ("piles", "side_by_side")
MAX_TILT_DEG = 25.0  # the largest rotation a card is laid with


@dataclass(frozen=True)
class CardPose:
    """One card lying on the table."""

    card: Card
    centre: tuple[float, float]
    angle: float  # degrees, counter-clockwise as seen from above; 0 = upright
    upside_down: bool = False

    @property
    def rotation(self) -> float:
        """The rotation of the printed face: the angle, plus 180° when upside down."""
        return self.angle + (180.0 if self.upside_down else 0.0)

    def corners(self) -> np.ndarray:
        """The card's corners in mm: top-left, top-right, bottom-right, bottom-left of the face."""
        w, h = CARD_MM
        local = np.array([[-w / 2, -h / 2], [w / 2, -h / 2], [w / 2, h / 2], [-w / 2, h / 2]])
        theta = math.radians(self.rotation)
        # counter-clockwise on screen with y pointing down
        rot = np.array([[math.cos(theta), math.sin(theta)], [-math.sin(theta), math.cos(theta)]])
        return local @ rot.T + np.array(self.centre)

    def moved(self, dx: float, dy: float, turn: float = 0.0) -> "CardPose":
        return CardPose(self.card, (self.centre[0] + dx, self.centre[1] + dy), self.angle + turn, self.upside_down)


@dataclass
class Table:
    """The cards on the table, bottom to top."""

    poses: list[CardPose] = field(default_factory=list)

    def add(self, pose: CardPose) -> None:
        self.poses.append(pose)

    def remove(self, card: Card) -> CardPose:
        for i in range(len(self.poses) - 1, -1, -1):
            if self.poses[i].card is card:
                return self.poses.pop(i)
        raise KeyError(f"{card} is not on the table")

    def top_of(self, cards: set[Card]) -> CardPose | None:
        """The highest-lying pose among the given cards."""
        for pose in reversed(self.poses):
            if pose.card in cards:
                return pose
        return None


MIN_ROW_GAP_MM = 5.0


class TableLayout:
    """How one family lays the rows: where each pile is and how carefully cards land."""

    def __init__(self, preset: Preset, area_mm: tuple[float, float], rng: np.random.Generator,
                 layout: str = "piles", neatness: float | None = None):
        if layout not in LAYOUTS:
            raise ValueError(f"layout must be one of {', '.join(LAYOUTS)}, not {layout!r}")
        self.preset, self.layout, self.rng = preset, layout, rng
        self.area_w, self.area_h = area_mm
        # how sloppily this family lays cards: the spread of shifts (mm) and rotations (deg)
        self.neatness = float(rng.uniform(0.4, 1.0)) if neatness is None else neatness
        colours = list(preset.colours)
        rng.shuffle(colours)
        rows = len(colours)
        card_w, card_h = CARD_MM
        gap = (self.area_h - rows * card_h) / (rows + 1)
        if gap < MIN_ROW_GAP_MM:  # a small table: rows close together, overhanging the markers' rectangle
            gap = MIN_ROW_GAP_MM
        top = (self.area_h - rows * card_h - (rows - 1) * gap) / 2
        self.row_y = {c: top + card_h / 2 + i * (card_h + gap) for i, c in enumerate(colours)}
        self.row_x = {c: self.area_w / 2 + float(rng.normal(0, 8)) for c in colours}
        self.pile_step = card_w + float(rng.uniform(-2, 16))  # centre distance between piles: some touch
        self.fan_step = float(rng.uniform(19, 24))  # side by side: how far each card sticks out
        self.upside_down_rate = float(rng.uniform(0.05, 0.3))

    def anchor(self, card: Card, opener: int | None) -> tuple[float, float]:
        """Where the pile (or, side by side, the slot) for this card lies, before jitter."""
        colour, n = card.colour, card.number
        x, y = self.row_x[colour], self.row_y[colour]
        if self.layout == "side_by_side":
            return x + (n - (1 + self.preset.highest) / 2) * self.fan_step, y
        if self.preset.converging:
            middle = (self.preset.laid_out[0] + self.preset.laid_out[-1]) / 2
            return x + (-0.5 if n < middle else 0.5) * self.pile_step, y
        opener = 11 if opener is None else opener
        side = 0 if n == opener else (-1 if n < opener else 1)
        return x + side * self.pile_step, y

    def place(self, card: Card, table: Table, opener: int | None = None,
              on: CardPose | None = None) -> CardPose:
        """The pose of a card laid now: on its pile (or ``on`` another card), a little off."""
        rng = self.rng
        if on is not None:
            base = on.centre
        else:
            base = self.anchor(card, opener)
            below = table.top_of({p.card for p in table.poses if self._same_pile(p.card, card, opener)})
            if below is not None and self.layout == "piles":
                base = below.centre
        shift = rng.normal(0, 2.5 * self.neatness, size=2)
        if self.layout == "piles" and on is None:
            # a pile drifts back towards its place instead of walking off
            anchor = np.array(self.anchor(card, opener))
            shift += (anchor - np.array(base)) * 0.5
        if rng.random() < 0.06:
            angle = float(rng.uniform(-MAX_TILT_DEG, MAX_TILT_DEG))
        else:
            angle = float(np.clip(rng.normal(0, 5 * self.neatness), -MAX_TILT_DEG, MAX_TILT_DEG))
        upside_down = bool(rng.random() < self.upside_down_rate)
        return CardPose(card, (base[0] + float(shift[0]), base[1] + float(shift[1])), angle, upside_down)

    def _same_pile(self, a: Card, b: Card, opener: int | None) -> bool:
        if a.colour is not b.colour:
            return False
        if self.preset.converging:
            middle = (self.preset.laid_out[0] + self.preset.laid_out[-1]) / 2
            return (a.number < middle) == (b.number < middle)
        opener = 11 if opener is None else opener
        return (a.number > opener) - (a.number < opener) == (b.number > opener) - (b.number < opener)
