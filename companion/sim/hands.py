"""Hands and arms reaching in over the table, drawn into a camera frame.

A hand is a shaded skin-coloured shape: a forearm from beyond the edge of the picture,
a palm, four fingers and a thumb, with a soft shadow on the table below it. It is drawn
in pixels, after the table has been seen by the camera, because a hand is above the
table plane and the camera model maps the table plane only.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

# BGR skin tones, light to dark
SKIN_TONES = ((172, 196, 236), (150, 180, 228), (125, 160, 210), (96, 132, 186), (70, 102, 150), (48, 70, 110))


@dataclass(frozen=True)
class HandLook:
    """How one player's hand looks: skin tone, size, and a sleeve."""

    skin: tuple[int, int, int]
    width_mm: float
    sleeve: tuple[int, int, int] | None

    @classmethod
    def random(cls, rng: np.random.Generator) -> "HandLook":
        base = np.array(SKIN_TONES[int(rng.integers(len(SKIN_TONES)))], float)
        skin = tuple(int(v) for v in np.clip(base + rng.normal(0, 6, 3), 0, 255))
        sleeve = None if rng.random() < 0.4 else tuple(int(v) for v in rng.integers(20, 200, 3))
        return cls(skin, float(rng.uniform(75, 95)), sleeve)


def _capsule(mask: np.ndarray, a: np.ndarray, b: np.ndarray, radius: float) -> None:
    cv2.line(mask, tuple(int(v) for v in a), tuple(int(v) for v in b), 255, max(1, int(2 * radius)), cv2.LINE_AA)


def _shapes(tip: np.ndarray, direction: np.ndarray, w: float, reach_px: float, sleeve: bool):
    """The hand's parts as (kind, points, size) in pixels; kind is capsule, polygon or disc."""
    d = direction / (np.linalg.norm(direction) + 1e-9)
    side = np.array([-d[1], d[0]])
    finger = 0.85 * w
    palm = tip + d * (finger + 0.45 * w)
    wrist = palm + d * 0.45 * w
    far = wrist + d * reach_px  # the forearm goes on beyond the picture's edge
    skin, cloth = [], []
    for offset, length in ((-0.33, 0.85), (-0.11, 1.0), (0.11, 0.95), (0.33, 0.78)):
        base = palm - d * 0.3 * w + side * offset * w
        skin.append(("capsule", (base, base - d * length * finger + side * offset * 0.15 * w), 0.1 * w))
    thumb = palm + side * 0.42 * w
    skin.append(("capsule", (thumb, thumb - d * 0.45 * w + side * 0.3 * w), 0.12 * w))
    skin.append(("disc", (palm,), 0.5 * w))
    skin.append(("polygon", (palm - d * 0.3 * w + side * 0.48 * w, palm - d * 0.3 * w - side * 0.48 * w,
                             wrist - side * 0.42 * w, wrist + side * 0.42 * w), 0))
    arm_end = wrist + d * 0.55 * w if sleeve else far
    skin.append(("polygon", (wrist + side * 0.42 * w, wrist - side * 0.42 * w,
                             arm_end - side * 0.46 * w, arm_end + side * 0.46 * w), 0))
    if sleeve:
        cloth.append(("polygon", (arm_end + side * 0.56 * w, arm_end - side * 0.56 * w,
                                  far - side * 0.62 * w, far + side * 0.62 * w), 0))
    return skin, cloth


def _draw(mask: np.ndarray, shapes, origin: np.ndarray) -> None:
    for kind, points, size in shapes:
        pts = [p - origin for p in points]
        if kind == "capsule":
            _capsule(mask, pts[0], pts[1], size)
        elif kind == "disc":
            cv2.circle(mask, tuple(int(v) for v in pts[0]), int(size), 255, -1, cv2.LINE_AA)
        else:
            cv2.fillConvexPoly(mask, np.array(pts).astype(np.int32), 255, cv2.LINE_AA)


def _scaled(shapes, scale: float):
    return [(kind, tuple(p * scale for p in points), size * scale) for kind, points, size in shapes]


def draw_hand(frame: np.ndarray, tip: np.ndarray, direction: np.ndarray, px_per_mm: float, look: HandLook,
              light_direction: np.ndarray | None = None) -> tuple[np.ndarray, tuple[int, int]]:
    """Draw a hand with its shadow into ``frame`` (in place).

    ``tip`` is where the fingertips are (pixels); ``direction`` points from the fingertips
    back towards the player. Returns the mask (0–255) of what the hand covers, and the
    (x, y) of that mask's top-left corner in the frame.
    """
    height, width = frame.shape[:2]
    w = look.width_mm * px_per_mm
    tip = np.asarray(tip, float)
    skin, cloth = _shapes(tip, np.asarray(direction, float), w, 2.0 * (width + height), look.sleeve is not None)
    points = np.array([p for _, pts, _ in skin + cloth for p in pts])
    light = np.array([0.4, 0.6]) if light_direction is None else np.asarray(light_direction, float)
    shift = light * 18 * px_per_mm
    pad = w * 0.7 + np.abs(shift).max() + 30 * px_per_mm
    x0, y0 = np.maximum(np.floor(points.min(axis=0) - pad), 0).astype(int)
    x1, y1 = np.minimum(np.ceil(points.max(axis=0) + pad), (width, height)).astype(int)
    if x1 <= x0 or y1 <= y0:
        return np.zeros((0, 0), np.uint8), (0, 0)
    # Shapes, shadow and shading are soft, so they are worked out at half resolution
    # and only the final blend runs at full size: a hand costs a few milliseconds.
    size = (x1 - x0, y1 - y0)
    small = (max(1, size[0] // 2), max(1, size[1] // 2))
    scale = small[0] / size[0]
    origin = np.array([x0, y0], float)
    skin_mask = np.zeros((small[1], small[0]), np.uint8)
    cloth_mask = np.zeros_like(skin_mask)
    _draw(skin_mask, _scaled(skin, scale), origin * scale)
    _draw(cloth_mask, _scaled(cloth, scale), origin * scale)
    cover_small = cv2.max(skin_mask, cloth_mask)
    # the shadow falls away from the light, blurred because the hand is above the table
    moved = cv2.warpAffine(cover_small, np.float32([[1, 0, shift[0] * scale], [0, 1, shift[1] * scale]]), small)
    shadow = cv2.GaussianBlur(moved, (0, 0), 9 * px_per_mm * scale).astype(np.float32) * (0.45 / 255.0)
    keep = 1.0 - shadow  # how much of the table shows through
    paint = np.zeros((small[1], small[0], 3), np.float32)
    # a rounded body: brighter along the middle of each part, darker at its edges
    for mask, colour in ((skin_mask, look.skin), (cloth_mask, look.sleeve)):
        if colour is None or not mask.any():
            continue
        depth = cv2.distanceTransform((mask > 127).astype(np.uint8), cv2.DIST_L2, 3)
        roundness = np.sqrt(np.clip(depth / (0.25 * w * scale), 0, 1))
        alpha = mask.astype(np.float32) / 255.0
        paint = paint * (1 - alpha[..., None]) + ((0.55 + 0.5 * roundness) * alpha)[..., None] * np.float32(colour)
        keep = keep * (1 - alpha)
    # the full-size blend runs on 8-bit images, which OpenCV handles several times faster
    keep = cv2.resize((keep * 255).astype(np.uint8), size, interpolation=cv2.INTER_LINEAR)
    paint = cv2.resize(np.clip(paint, 0, 255).astype(np.uint8), size, interpolation=cv2.INTER_LINEAR)
    roi = frame[y0:y1, x0:x1]
    roi[:] = cv2.add(cv2.multiply(roi, cv2.merge([keep, keep, keep]), scale=1 / 255), paint)
    cover = cv2.resize(cover_small, size, interpolation=cv2.INTER_LINEAR)
    return cover, (int(x0), int(y0))
