"""Things at the edge of the play area that are not cards: a cup seen from above, a forearm
in a sleeve lying across the edge. Drawn like the hands (``hands.py``), in camera pixels
after the table has been seen, shaded and with a soft shadow: they stand above the table
plane, which the camera model alone maps.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from .camera import Camera
from .room import Prop

DRINK = (28, 45, 70)  # BGR: coffee, seen from above
_SHIFT = 4  # OpenCV's sub-pixel bits for smooth outlines
_ONE = 1 << _SHIFT


def draw_prop(frame: np.ndarray, prop: Prop, camera: Camera, px_per_mm: float) -> np.ndarray:
    """Draw ``prop`` with its shadow into ``frame`` (in place); returns the full-frame mask (0–255)
    of what it covers."""
    height, width = frame.shape[:2]
    centre = camera.project(np.array([prop.centre], float))[0]
    size = prop.size_mm * px_per_mm
    towards = np.array([math.cos(math.radians(prop.angle_deg)), math.sin(math.radians(prop.angle_deg))])
    ahead = camera.project(np.array([np.array(prop.centre) + towards * 50.0]))[0] - centre
    direction = ahead / (np.linalg.norm(ahead) + 1e-9)
    if prop.kind == "cup":
        reach = 0.5 * size * 1.45
        points = np.array([centre - reach, centre + reach])
    else:  # a sleeve: from its rounded end out beyond the picture
        far = centre + direction * 2.0 * (width + height)
        points = np.array([centre - size, centre + size, far - size, far + size])
    shadow_shift = np.array([0.4, 0.6]) * 12 * px_per_mm
    pad = 0.6 * size + np.abs(shadow_shift).max() + 2
    x0, y0 = np.maximum(np.floor(points.min(axis=0) - pad), 0).astype(int)
    x1, y1 = np.minimum(np.ceil(points.max(axis=0) + pad), (width, height)).astype(int)
    cover = np.zeros((height, width), np.uint8)
    if x1 <= x0 or y1 <= y0:
        return cover
    origin = np.array([x0, y0], float)
    body = np.zeros((y1 - y0, x1 - x0), np.uint8)
    layers: list[tuple[np.ndarray, tuple[int, int, int]]] = []
    if prop.kind == "cup":
        radius = 0.5 * size
        _disc(body, centre - origin, radius)
        handle = centre - origin + direction * radius
        _capsule(body, handle, handle + direction * 0.35 * radius, 0.13 * radius)
        inside = np.zeros_like(body)
        _disc(inside, centre - origin, 0.8 * radius)
        layers = [(body, prop.colour), (inside, DRINK)]
    else:
        _capsule(body, centre - origin, far - origin, 0.5 * size)
        layers = [(body, prop.colour)]
    roi = frame[y0:y1, x0:x1].astype(np.float32)
    moved = cv2.warpAffine(body, np.float32([[1, 0, shadow_shift[0]], [0, 1, shadow_shift[1]]]),
                           (body.shape[1], body.shape[0]))
    shadow = cv2.GaussianBlur(moved, (0, 0), 5 * px_per_mm).astype(np.float32) * (0.45 / 255.0)
    roi *= (1.0 - shadow)[..., None]
    for mask, colour in layers:
        # a rounded body: brighter towards the middle, darker at its edge
        depth = cv2.distanceTransform((mask > 127).astype(np.uint8), cv2.DIST_L2, 3)
        roundness = np.sqrt(np.clip(depth / (0.2 * size), 0, 1))
        alpha = (mask.astype(np.float32) / 255.0)[..., None]
        paint = ((0.6 + 0.45 * roundness)[..., None] * np.float32(colour))
        roi = roi * (1 - alpha) + paint * alpha
    frame[y0:y1, x0:x1] = np.clip(roi, 0, 255).astype(np.uint8)
    cover[y0:y1, x0:x1] = body
    return cover


def _disc(mask: np.ndarray, centre: np.ndarray, radius: float) -> None:
    cv2.circle(mask, tuple(int(round(v * _ONE)) for v in centre), int(round(radius * _ONE)), 255, -1,
               cv2.LINE_AA, _SHIFT)


def _capsule(mask: np.ndarray, a: np.ndarray, b: np.ndarray, radius: float) -> None:
    cv2.line(mask, tuple(int(round(v * _ONE)) for v in a), tuple(int(round(v * _ONE)) for v in b), 255,
             max(1, int(round(2 * radius))), cv2.LINE_AA, _SHIFT)
