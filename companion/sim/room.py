"""What happens in the room besides the game: the camera knocked, a lamp switched on, a
glare spot, a cup set down at the edge of the play area.

These are plain values that a script's frames carry (``FrameState.room``); the renderer
(``render.SceneCamera``) turns them into a moved camera, another light and things drawn
over the table. They load without OpenCV, like the script itself.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

DISTURBANCES = ("nudge", "bump", "lamp", "glare", "cup")


@dataclass(frozen=True)
class Bump:
    """Where a knocked camera points now, relative to where it was set up."""

    yaw_deg: float = 0.0  # added to the camera's yaw
    tilt_x_deg: float = 0.0  # added to the tilt, as a vector on the table (towards +x …
    tilt_y_deg: float = 0.0  # … and towards +y)
    dx_mm: float = 0.0  # the point the camera looks at moves by this much
    dy_mm: float = 0.0

    def __add__(self, other: "Bump") -> "Bump":
        return Bump(self.yaw_deg + other.yaw_deg, self.tilt_x_deg + other.tilt_x_deg,
                    self.tilt_y_deg + other.tilt_y_deg, self.dx_mm + other.dx_mm, self.dy_mm + other.dy_mm)

    def scaled(self, factor: float) -> "Bump":
        return Bump(self.yaw_deg * factor, self.tilt_x_deg * factor, self.tilt_y_deg * factor,
                    self.dx_mm * factor, self.dy_mm * factor)

    def describe(self) -> dict:
        return {name: round(getattr(self, name), 3) for name in self.__dataclass_fields__}


@dataclass(frozen=True)
class Lamp:
    """A lamp switched on: brighter, and a light of another colour temperature."""

    exposure: float  # the exposure is multiplied by this
    kelvin: float  # the colour temperature moves by this much: cooler if it was warm, warmer if not

    def describe(self) -> dict:
        return {"exposure": round(self.exposure, 3), "kelvin": round(self.kelvin, 1)}


class Glare(NamedTuple):
    """A specular highlight: centre (x, y) and radii (rx, ry) as fractions of the frame
    width, angle in degrees, strength 0–1 (how much of the surface colour it washes out).
    The room's light (``lighting.Lighting``) and a glare spot that comes and goes in an
    episode are both made of these."""

    x: float
    y: float
    rx: float
    ry: float
    angle_deg: float
    strength: float


@dataclass(frozen=True)
class Prop:
    """Something standing or lying at the edge of the play area that is not a card."""

    kind: str  # "cup" (seen from above: a disc with a rim) or "sleeve" (a forearm in a sleeve, lying)
    centre: tuple[float, float]  # mm on the table
    size_mm: float  # the cup's diameter, the sleeve's width
    angle_deg: float  # a sleeve: the direction (on the table) it comes from; a cup: where its handle is
    colour: tuple[int, int, int]  # BGR

    def describe(self) -> dict:
        return {"prop": self.kind, "centre_mm": [round(v, 1) for v in self.centre], "size_mm": round(self.size_mm, 1)}


@dataclass(frozen=True)
class Room:
    """How the room differs, in one frame, from how the episode began."""

    bump: Bump | None = None  # the camera's pose
    shake_px: float = 0.0  # motion blur (pixels at 1280 wide) while a knocked camera settles …
    shake_angle_deg: float = 0.0  # … and its direction
    lamp: Lamp | None = None
    glares: tuple[Glare, ...] = ()
    props: tuple[Prop, ...] = field(default=())


__all__ = ["DISTURBANCES", "Bump", "Glare", "Lamp", "Prop", "Room"]
