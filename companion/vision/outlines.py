"""The geometry of card outlines: four corners (4 × 2, clockwise on screen), in frame
or top-down view pixels, compared by place and turn."""

from __future__ import annotations

import math

import cv2
import numpy as np

from .profile import CARD_MM


def same_place(pose: tuple[float, float, float], corners: np.ndarray, px_per_mm: float, within_mm: float,
               within_deg: float) -> bool:
    """Whether an outline (4 × 2, top-down view pixels at ``px_per_mm``) lies where a card
    at ``pose`` (x, y, turn) would: its centre within ``within_mm``, its turn within
    ``within_deg`` (either way up, either side first)."""
    x, y, theta = pose
    centre = corners.mean(axis=0)
    if np.hypot(centre[0] - x, centre[1] - y) > within_mm * px_per_mm:
        return False
    return folded(turn_deg(corners) - math.degrees(theta)) <= within_deg


def apart_mm(corners: np.ndarray, other: np.ndarray) -> float:
    """How far apart two card outlines' centres lie (frame pixels in, millimetres out,
    by the size of the first outline)."""
    px_per_mm = cv2.arcLength(np.asarray(corners, np.float32), True) / (2 * sum(CARD_MM))
    return float(np.linalg.norm(np.mean(corners, axis=0) - np.mean(other, axis=0))) / max(px_per_mm, 1e-6)


def turn_between(corners: np.ndarray, other: np.ndarray) -> float:
    """Degrees between two outlines' sides (either way up, either side first: 0–45)."""
    return folded(turn_deg(other) - turn_deg(corners))


def turn_deg(corners: np.ndarray) -> float:
    """The direction of an outline's first side, in degrees."""
    dx, dy = corners[1] - corners[0]
    return math.degrees(math.atan2(dy, dx))


def folded(turn_deg: float) -> float:
    """A turn between card outlines, 0–45°: a quarter turn more or less is the same outline."""
    return abs((turn_deg + 45.0) % 90.0 - 45.0)


def overlap(polygon: np.ndarray, other: np.ndarray) -> float:
    """The share of ``polygon``'s area that ``other`` covers."""
    first, second = np.asarray(polygon, np.float32), np.asarray(other, np.float32)
    return cv2.intersectConvexConvex(first, second)[0] / max(cv2.contourArea(first), 1e-6)


def rotated(corners: np.ndarray, turn_deg: float) -> np.ndarray:
    """An outline (frame or view pixels) turned about its centre."""
    cos, sin = math.cos(math.radians(turn_deg)), math.sin(math.radians(turn_deg))
    centre = np.mean(corners, axis=0)
    return (np.asarray(corners) - centre) @ np.array([[cos, sin], [-sin, cos]]) + centre


def resized(corners: np.ndarray, factor: float) -> np.ndarray:
    """An outline (frame pixels) grown (or shrunk) about its centre."""
    centre = np.mean(corners, axis=0)
    return (np.asarray(corners) - centre) * factor + centre


def stretched(corners: np.ndarray, first: float, second: float) -> np.ndarray:
    """A rectangular outline (frame pixels, corners in order) grown (or shrunk) about its
    centre by ``first`` along its first side (corner 0 to 1) and ``second`` along the other."""
    corners = np.asarray(corners, np.float64)
    centre = corners.mean(axis=0)
    axes = [side / max(float(np.linalg.norm(side)), 1e-9) for side in (corners[1] - corners[0], corners[3] - corners[0])]
    offsets = corners - centre
    return centre + sum(np.outer(offsets @ axis, axis) * factor for axis, factor in zip(axes, (first, second)))


def near(point, polygons: list[np.ndarray], reach: float) -> bool:
    """Whether a point lies inside one of the polygons or within ``reach`` of one."""
    return any(cv2.pointPolygonTest(np.asarray(polygon, np.float32), (float(point[0]), float(point[1])), True) >= -reach
               for polygon in polygons)


def inside(point, polygons: list[np.ndarray]) -> bool:
    return any(cv2.pointPolygonTest(np.asarray(polygon, np.float32), (float(point[0]), float(point[1])), False) >= 0
               for polygon in polygons)


__all__ = ["apart_mm", "folded", "inside", "near", "overlap", "resized", "rotated", "same_place", "turn_between",
           "turn_deg"]
