"""The synthetic table, drawn: surface, markers and cards top-down, then seen by a camera.

:class:`TableRenderer` paints the table plane (what a perfectly flat, perfectly lit
photograph from straight above would show) and a mask of which card covers each point.
:class:`SceneCamera` looks at it through the camera model, adds a hand where one
reaches in, and the light, noise, blur and JPEG of a real picture. Every labelled card
outline comes from the same camera model that drew the pixels, so the truth is exact.
A frame's ``room`` (``room.py``) moves the camera, changes the light or stands a cup at
the edge; the camera and light for each are built once and kept.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Iterable

import cv2
import numpy as np

from ..vision.markers import CORNER_IDS, MARKER_SIZE_MM, marker_image
from .camera import Camera, TableRaster
from .lighting import Lighting, LightingRenderer, _motion_kernel, encode_jpeg
from .deck import CARD_MM, DeckStyle, get_style, render_card
from .hands import HandLook, draw_hand
from .layout import CardPose
from .props import draw_prop
from .room import Bump, Room
from .script import Hand
from .surface import make_surface

PX_PER_MM = 2.0  # the table raster: finer than the camera sees the table, to avoid aliasing
VISIBLE_SHARE = 0.5  # a card counts as visible when at least this share of it shows


@dataclass(frozen=True)
class Scenery:
    """Everything about a picture that is not the game: deck, table, camera, light."""

    style: str
    surface: str
    area_mm: tuple[float, float]
    camera: Camera
    lighting: Lighting
    seed: int
    markers: bool = True  # the play area's four markers lie on the table

    def describe(self) -> dict:
        return {"style": self.style, "surface": self.surface, "area_mm": list(self.area_mm),
                "camera": self.camera.describe(), "lighting": self.lighting.describe()}


class TableRenderer:
    """Paints cards onto the table plane, remembering the last painting to add to it cheaply.

    The table image covers what the scenery's camera sees, or ``rect_mm`` (x0, y0, x1, y1)
    when given (a knocked camera sees a little more).
    """

    def __init__(self, scenery: Scenery, rect_mm: tuple[float, float, float, float] | None = None):
        self.scenery = scenery
        self.style: DeckStyle = get_style(scenery.style)
        x0, y0, x1, y1 = rect_mm or scenery.camera.visible_rect_mm()
        self.raster = TableRaster((x0, y0), PX_PER_MM)
        self.size = (int(np.ceil((x1 - x0) * PX_PER_MM)), int(np.ceil((y1 - y0) * PX_PER_MM)))
        rng = np.random.default_rng(scenery.seed)
        self.base = make_surface(scenery.surface, self.size, PX_PER_MM, rng)
        if scenery.markers:
            self._draw_markers(self.base, scenery.area_mm)
        self._painted: tuple[CardPose, ...] = ()
        self._image = self.base

    def to_px(self, points_mm: np.ndarray) -> np.ndarray:
        """Table millimetres to raster pixel coordinates (pixel centres at integers)."""
        origin = np.array(self.raster.origin_mm)
        return (np.asarray(points_mm, float) - origin) * self.raster.px_per_mm - 0.5

    def _draw_markers(self, image: np.ndarray, area_mm: tuple[float, float]) -> None:
        w, h = area_mm
        corners = {"top_left": (0, 0), "top_right": (w, 0), "bottom_right": (w, h), "bottom_left": (0, h)}
        side = int(round(MARKER_SIZE_MM * PX_PER_MM))
        for corner, marker_id in CORNER_IDS.items():
            marker = marker_image(marker_id, side)
            paper = cv2.cvtColor(marker, cv2.COLOR_GRAY2BGR)
            paper = cv2.copyMakeBorder(paper, 4, 4, 4, 4, cv2.BORDER_CONSTANT, value=(245, 245, 242))
            cx, cy = self.to_px(np.array([corners[corner]]))[0]
            x, y = int(round(cx - paper.shape[1] / 2)), int(round(cy - paper.shape[0] / 2))
            _paste(image, paper, x, y)

    def paint(self, poses: tuple[CardPose, ...]) -> np.ndarray:
        """The table with these cards, bottom to top. Do not modify the result."""
        if poses[: len(self._painted)] == self._painted and self._painted:
            image = self._image.copy() if len(poses) > len(self._painted) else self._image
            extra = poses[len(self._painted):]
        else:
            image = self.base.copy()
            extra = poses
        for pose in extra:
            self._composite(image, pose)
        self._painted, self._image = poses, image
        return image

    def paint_with(self, poses: tuple[CardPose, ...], carried: CardPose | None) -> np.ndarray:
        """The table plus a card on its way in or out (drawn on top, not remembered)."""
        image = self.paint(poses)
        if carried is None:
            return image
        image = image.copy()
        self._composite(image, carried)
        return image

    def _composite(self, image: np.ndarray, pose: CardPose) -> None:
        face = render_card(pose.card, self.style, PX_PER_MM)
        h, w = face.shape[:2]
        # the face's corners map onto the pose's corners (pixel centres at integers)
        src = np.float32([[-0.5, -0.5], [w - 0.5, -0.5], [w - 0.5, h - 0.5]])
        dst = self.to_px(pose.corners())
        x0, y0 = np.floor(dst.min(axis=0)).astype(int) - 3
        x1, y1 = np.ceil(dst.max(axis=0)).astype(int) + 4
        x0c, y0c = max(x0, 0), max(y0, 0)
        x1c, y1c = min(x1, image.shape[1]), min(y1, image.shape[0])
        if x1c <= x0c or y1c <= y0c:
            return
        matrix = cv2.getAffineTransform(src, np.float32(dst[:3] - [x0c, y0c]))
        warped = cv2.warpAffine(face, matrix, (x1c - x0c, y1c - y0c), flags=cv2.INTER_LINEAR,
                                borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0, 0))
        alpha = warped[..., 3:].astype(np.float32) / 255.0
        roi = image[y0c:y1c, x0c:x1c]
        # a card lying on the table casts a hairline shadow along its lower right edge
        shadow = cv2.GaussianBlur(np.roll(alpha[..., 0], (1, 1), axis=(0, 1)), (0, 0), 1.2)[..., None] * 0.3
        under = roi.astype(np.float32) * (1 - shadow)
        roi[:] = (under * (1 - alpha) + warped[..., :3].astype(np.float32) * alpha).astype(np.uint8)

    def card_ids(self, poses: tuple[CardPose, ...]) -> np.ndarray:
        """Per raster pixel: 0 for no card, else 1 + the index of the top card there."""
        ids = np.zeros((self.size[1], self.size[0]), np.uint8)
        for index, pose in enumerate(poses):
            cv2.fillConvexPoly(ids, np.round(self.to_px(pose.corners()) * 16).astype(np.int32), index + 1,
                               lineType=cv2.LINE_8, shift=4)
        return ids


def knocked(camera: Camera, bump: Bump | None, area_mm: tuple[float, float]) -> Camera:
    """``camera`` turned and moved by ``bump``, halved (up to five times, then not at all) until
    the four markers are as much in the picture as before or at least 4 px inside it."""
    if bump is None:
        return camera
    needed = min(_marker_room(camera, area_mm), 4.0)
    for halving in range(6):
        b = bump.scaled(0.5 ** halving)
        direction = math.radians(camera.tilt_direction_deg)
        tilt_x = camera.tilt_deg * math.cos(direction) + b.tilt_x_deg
        tilt_y = camera.tilt_deg * math.sin(direction) + b.tilt_y_deg
        tilt = math.hypot(tilt_x, tilt_y)
        moved = replace(camera, yaw_deg=camera.yaw_deg + b.yaw_deg, tilt_deg=tilt,
                        tilt_direction_deg=math.degrees(math.atan2(tilt_y, tilt_x)) % 360 if tilt > 1e-9
                        else camera.tilt_direction_deg,
                        center_mm=(camera.center_mm[0] + b.dx_mm, camera.center_mm[1] + b.dy_mm))
        if _marker_room(moved, area_mm) >= needed:
            return moved
    return camera


def _marker_room(camera: Camera, area_mm: tuple[float, float]) -> float:
    """How far (px) the play area's markers, paper border included, lie inside the picture at
    the least (negative: cut off)."""
    w, h = area_mm
    half = MARKER_SIZE_MM / 2 + 2.0
    square = np.array([[-half, -half], [half, -half], [half, half], [-half, half]])
    points = np.concatenate([square + corner for corner in ((0, 0), (w, 0), (w, h), (0, h))])
    pixels = camera.project(points)
    width, height = camera.resolution
    return float(min((pixels[:, 0] + 0.5).min(), (width - 0.5 - pixels[:, 0]).min(),
                     (pixels[:, 1] + 0.5).min(), (height - 0.5 - pixels[:, 1]).min()))


def _paste(image: np.ndarray, patch: np.ndarray, x: int, y: int) -> None:
    h, w = patch.shape[:2]
    x0, y0, x1, y1 = max(x, 0), max(y, 0), min(x + w, image.shape[1]), min(y + h, image.shape[0])
    if x1 > x0 and y1 > y0:
        image[y0:y1, x0:x1] = patch[y0 - y:y1 - y, x0 - x:x1 - x]


class SceneCamera:
    """Takes pictures of a table: the camera's view, hands, light, noise and JPEG.

    ``bumps``: every pose (``room.Bump``) the camera will be knocked into, so the table
    image is made large enough for all of them from the start.
    """

    def __init__(self, scenery: Scenery, hand_looks: list[HandLook] | None = None, bumps: Iterable[Bump] = ()):
        self.scenery = scenery
        self._bumped: dict[Bump | None, Camera] = {None: scenery.camera}
        for bump in bumps:
            self.bumped(bump)
        rect = None
        if len(self._bumped) > 1:
            rects = np.array([camera.visible_rect_mm() for camera in self._bumped.values()])
            rect = (*rects[:, :2].min(axis=0), *rects[:, 2:].max(axis=0))
        self.table = TableRenderer(scenery, rect)
        self.camera = scenery.camera
        self.light = LightingRenderer(scenery.lighting, scenery.camera.resolution, scenery.seed)
        self._lights: dict[Lighting, LightingRenderer] = {scenery.lighting: self.light}
        self._room: Room | None = None
        self._shake: dict[tuple[float, float], np.ndarray] = {}
        self.rng = np.random.default_rng(scenery.seed + 1)
        self.hand_looks = hand_looks or [HandLook.random(self.rng) for _ in range(6)]
        self._last_view: tuple[object, np.ndarray] | None = None
        area_w, area_h = scenery.area_mm
        centre = np.array([[area_w / 2, area_h / 2], [area_w / 2 + 100, area_h / 2]])
        a, b = self.camera.project(centre)
        self.px_per_mm = float(np.linalg.norm(b - a) / 100)

    def bumped(self, bump: Bump | None) -> Camera:
        """The scenery's camera knocked into ``bump``; a bump that would push one of the play
        area's markers out of the picture is halved until it does not."""
        if bump not in self._bumped:
            self._bumped[bump] = knocked(self.scenery.camera, bump, self.scenery.area_mm)
        return self._bumped[bump]

    def lighting(self, room: Room | None) -> Lighting:
        """The light of the room: the scenery's, with a lamp switched on and extra glare spots."""
        lighting = self.scenery.lighting
        if room is None:
            return lighting
        if room.lamp is not None:
            kelvin = lighting.colour_temperature_k
            # a lamp of another kind than the room's light: cooler in a warm room, warmer in a cool one
            kelvin = min(kelvin + room.lamp.kelvin, 7500.0) if kelvin < 4500 else max(kelvin - room.lamp.kelvin, 2200.0)
            lighting = replace(lighting, exposure=min(lighting.exposure * room.lamp.exposure, 2.0),
                               colour_temperature_k=kelvin)
        if room.glares:
            lighting = replace(lighting, glares=lighting.glares + room.glares)
        return lighting

    def _enter(self, room: Room | None) -> None:
        """Switch camera and light to the room's (each built once, when first needed)."""
        if room is self._room:
            return
        camera = self.bumped(room.bump if room is not None else None)
        if camera != self.camera:
            self.camera, self._last_view = camera, None
        lighting = self.lighting(room)
        if lighting not in self._lights:
            self._lights[lighting] = LightingRenderer(lighting, self.camera.resolution, self.scenery.seed)
        self.light = self._lights[lighting]
        self._room = room

    def view(self, poses: tuple[CardPose, ...], carried: CardPose | None = None) -> np.ndarray:
        """The camera's clean view of the table (no hand, no light effects)."""
        key = (poses, carried)
        if self._last_view is not None and self._last_view[0] == key:
            return self._last_view[1]
        frame = self.camera.view(self.table.paint_with(poses, carried), self.table.raster)
        self._last_view = (key, frame)
        return frame

    def picture(self, poses: tuple[CardPose, ...], hand: Hand | None = None,
                room: Room | None = None) -> tuple[np.ndarray, np.ndarray | None]:
        """A finished picture (BGR, before JPEG) and the mask in frame pixels of what covers the
        table (the hand, and things standing in the room), if anything does."""
        self._enter(room)
        frame = self.view(poses, hand.holding if hand else None).copy()
        cover = None
        if room is not None:
            for prop in room.props:
                covered = draw_prop(frame, prop, self.camera, self.px_per_mm)
                cover = covered if cover is None else cv2.max(cover, covered)
        if hand is not None:
            covered = self._draw_hand(frame, hand)
            cover = covered if cover is None else cv2.max(cover, covered)
        if room is not None and room.shake_px > 0:
            frame = cv2.filter2D(frame, -1, self._shake_kernel(room.shake_px, room.shake_angle_deg))
        return self.light.apply(frame, self.rng), cover

    def _shake_kernel(self, length_px: float, angle_deg: float) -> np.ndarray:
        key = (length_px, angle_deg)
        if key not in self._shake:  # the length is given for 1280 pixels wide
            self._shake[key] = _motion_kernel(max(length_px * self.camera.resolution[0] / 1280, 0.5), angle_deg)
        return self._shake[key]

    def _draw_hand(self, frame: np.ndarray, hand: Hand) -> np.ndarray:
        area_w, area_h = self.scenery.area_mm
        direction_mm = np.array([np.cos(hand.seat_angle), np.sin(hand.seat_angle)])
        away = 1.3 * max(area_w, area_h)
        target = np.array(hand.target)
        start = np.array([area_w / 2, area_h / 2]) + direction_mm * away
        tip_mm = start + (target - start) * hand.reach
        tip, back = self.camera.project(np.array([tip_mm, tip_mm + direction_mm * 50]))
        cover, (x0, y0) = draw_hand(frame, tip, back - tip, self.px_per_mm, self.hand_looks[hand.seat % len(self.hand_looks)])
        full = np.zeros(frame.shape[:2], np.uint8)
        if cover.size:
            full[y0:y0 + cover.shape[0], x0:x0 + cover.shape[1]] = cover
        return full

    def encode(self, frame: np.ndarray) -> bytes:
        return encode_jpeg(frame, self.scenery.lighting.jpeg_quality)

    def labels(self, poses: tuple[CardPose, ...], hand_cover: np.ndarray | None = None) -> list[dict]:
        """Every card on the table with its outline in pixels and how much of it shows."""
        ids = cv2.remap(self.table.card_ids(poses), *self.camera.maps(self.table.raster), cv2.INTER_NEAREST,
                        borderMode=cv2.BORDER_CONSTANT, borderValue=0)
        if hand_cover is not None:
            ids[hand_cover > 127] = 0
        counts = np.bincount(ids.ravel(), minlength=len(poses) + 1)
        labels = []
        for index, pose in enumerate(poses):
            polygon = self.camera.project(pose.corners())
            area = abs(cv2.contourArea(polygon.astype(np.float32)))
            share = float(min(1.0, counts[index + 1] / area)) if area else 0.0
            labels.append({
                "card": pose.card.code,
                "polygon": [[round(float(x), 1), round(float(y), 1)] for x, y in polygon],
                "visible": share >= VISIBLE_SHARE,
                "visible_share": round(share, 3),
                "upside_down": pose.upside_down,
                "angle": round(pose.angle, 1),
            })
        return labels


__all__ = ["CARD_MM", "PX_PER_MM", "Scenery", "SceneCamera", "TableRenderer", "knocked"]
