"""A camera above the table and the light in the room, for synthetic frames with exact
ground truth.

Conventions
-----------
Table plane: millimetres, origin at the play area's top-left corner, x to the right, y
down (towards the bottom of the picture for an unrotated camera).

Table image: a top-down raster of a rectangle of the table described by
``TableRaster(origin_mm=(x0, y0), px_per_mm=s)``. Pixel (u, v) *covers* the square from
(x0 + u/s, y0 + v/s) to (x0 + (u+1)/s, y0 + (v+1)/s) mm, so its centre is at
(x0 + (u + 0.5)/s, y0 + (v + 0.5)/s) mm; the image's top-left corner is exactly at
``origin_mm``. ``to_px`` / ``to_mm`` convert between the two with that half pixel.

Camera pixels: x right, y down, pixel centres at integer coordinates (the centre of the
top-left pixel is (0, 0), the frame spans -0.5 … width-0.5), as ``cv2.remap`` and
``cv2.circle`` expect. ``Camera.project`` gives sub-pixel positions in that convention,
lens distortion included.

Camera geometry: the optical axis passes through ``center_mm`` on the table (the frame's
centre pixel ((w-1)/2, (h-1)/2)); the camera sits ``height_mm`` above the table. It
leans ``tilt_deg`` from vertical towards ``tilt_direction_deg`` (an angle on the table
from +x towards +y: 270 means the camera stands beyond the bottom edge and looks up the
table, so the far side appears smaller), then turns ``yaw_deg`` about its optical axis
(positive: the table appears rotated counter-clockwise in the picture). Distortion is
the radial model x_d = x_n (1 + k1 r² + k2 r⁴) on normalised image coordinates.

The room's light, the sensor and the JPEG encoder live in ``lighting.py``.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, replace
from functools import cached_property

import cv2
import numpy as np

DEFAULT_RESOLUTION = (1280, 720)
# Raspberry Pi Camera Module 2: 62.2° horizontal field of view, i.e. f ≈ 1060 px at 1280 px.
DEFAULT_FOCAL_PX = 1060.0
_UNDISTORT_ITERATIONS = 12


@dataclass(frozen=True)
class TableRaster:
    """How a table image maps onto the table: pixel (u, v) is centred on table point
    (x0 + (u + 0.5)/s, y0 + (v + 0.5)/s) mm, with s = ``px_per_mm``."""

    origin_mm: tuple[float, float] = (0.0, 0.0)
    px_per_mm: float = 2.0

    def __post_init__(self):
        object.__setattr__(self, "origin_mm", (float(self.origin_mm[0]), float(self.origin_mm[1])))
        object.__setattr__(self, "px_per_mm", float(self.px_per_mm))
        if self.px_per_mm <= 0:
            raise ValueError("px_per_mm must be positive")

    @classmethod
    def covering(cls, rect_mm: tuple[float, float, float, float], px_per_mm: float
                 ) -> tuple["TableRaster", tuple[int, int]]:
        """The raster whose image starts at rect (x0, y0, x1, y1)'s top-left corner, and
        the (width, height) in pixels an image needs to cover the whole rectangle."""
        x0, y0, x1, y1 = rect_mm
        size = (int(math.ceil((x1 - x0) * px_per_mm)), int(math.ceil((y1 - y0) * px_per_mm)))
        return cls((x0, y0), px_per_mm), size

    def to_px(self, points_mm: np.ndarray) -> np.ndarray:
        """Table points (…, 2) in mm to table-image pixel coordinates (centres at integers)."""
        return (np.asarray(points_mm, np.float64) - self.origin_mm) * self.px_per_mm - 0.5

    def to_mm(self, points_px: np.ndarray) -> np.ndarray:
        """Table-image pixel coordinates (…, 2) to table points in mm."""
        return (np.asarray(points_px, np.float64) + 0.5) / self.px_per_mm + self.origin_mm


@dataclass(frozen=True)
class Camera:
    """A pinhole camera with radial distortion looking down on the table (see the module
    docstring for every convention). Frozen and hashable, so maps can be memoised."""

    resolution: tuple[int, int] = DEFAULT_RESOLUTION
    focal_px: float = DEFAULT_FOCAL_PX
    height_mm: float = 900.0
    tilt_deg: float = 0.0
    tilt_direction_deg: float = 270.0
    yaw_deg: float = 0.0
    center_mm: tuple[float, float] = (0.0, 0.0)
    k1: float = 0.0
    k2: float = 0.0

    def __post_init__(self):
        object.__setattr__(self, "resolution", (int(self.resolution[0]), int(self.resolution[1])))
        object.__setattr__(self, "center_mm", (float(self.center_mm[0]), float(self.center_mm[1])))
        for name in ("focal_px", "height_mm", "tilt_deg", "tilt_direction_deg", "yaw_deg", "k1", "k2"):
            object.__setattr__(self, name, float(getattr(self, name)))
        if not 0 <= self.tilt_deg < 60:
            raise ValueError("tilt_deg must be in [0, 60)")
        if self.height_mm <= 0 or self.focal_px <= 0:
            raise ValueError("height_mm and focal_px must be positive")

    def describe(self) -> dict:
        """The fields as plain JSON values; ``Camera(**camera.describe()) == camera``."""
        return {name: list(value) if isinstance(value, tuple) else value
                for name, value in ((name, getattr(self, name)) for name in self.__dataclass_fields__)}

    # --- geometry ----------------------------------------------------------------------

    @cached_property
    def _table_to_camera(self) -> np.ndarray:
        """3×3 matrix: (x, y, 1) on the table → camera coordinates (X, Y, Z), Z forward."""
        tilt, direction, yaw = (math.radians(a) for a in (self.tilt_deg, self.tilt_direction_deg, self.yaw_deg))
        axis = np.array([-math.sin(direction), math.cos(direction), 0.0]) * tilt  # tilt Z towards the direction
        tilt_rotation, _ = cv2.Rodrigues(axis)
        yaw_rotation = np.array([[math.cos(yaw), -math.sin(yaw), 0], [math.sin(yaw), math.cos(yaw), 0], [0, 0, 1]])
        world_from_camera = tilt_rotation @ yaw_rotation  # columns: camera axes in table coordinates (z down)
        forward = world_from_camera[:, 2]
        position = np.array([*self.center_mm, 0.0]) - forward * (self.height_mm / forward[2])
        camera_from_world = world_from_camera.T
        return np.column_stack([camera_from_world[:, 0], camera_from_world[:, 1], -camera_from_world @ position])

    @cached_property
    def _camera_to_table(self) -> np.ndarray:
        return np.linalg.inv(self._table_to_camera)

    @property
    def principal_point(self) -> tuple[float, float]:
        return ((self.resolution[0] - 1) / 2.0, (self.resolution[1] - 1) / 2.0)

    def homography(self) -> np.ndarray:
        """3×3 table (mm) → pixel homography of the undistorted pinhole (no lens distortion)."""
        cx, cy = self.principal_point
        intrinsics = np.array([[self.focal_px, 0, cx], [0, self.focal_px, cy], [0, 0, 1]])
        return intrinsics @ self._table_to_camera

    def _distortion_factor(self, r2: np.ndarray) -> np.ndarray:
        return 1.0 + self.k1 * r2 + self.k2 * r2 * r2

    def project(self, points_mm: np.ndarray) -> np.ndarray:
        """Table points (N, 2) mm → float pixel coordinates (N, 2), distortion included."""
        points = np.asarray(points_mm, np.float64)
        flat = points.reshape(-1, 2)
        cam = flat @ self._table_to_camera[:, :2].T + self._table_to_camera[:, 2]
        if np.any(cam[:, 2] <= 0):
            raise ValueError("a point lies behind the camera")
        normalised = cam[:, :2] / cam[:, 2:3]
        distorted = normalised * self._distortion_factor((normalised ** 2).sum(axis=1))[:, None]
        return (distorted * self.focal_px + self.principal_point).reshape(points.shape)

    def _undistort(self, xd: np.ndarray, yd: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Normalised distorted → undistorted coordinates (fixed-point iteration; the mild
        distortion of a Pi camera converges to far below a thousandth of a pixel)."""
        xn, yn = xd, yd
        if self.k1 or self.k2:
            for _ in range(_UNDISTORT_ITERATIONS):
                factor = self._distortion_factor(xn * xn + yn * yn)
                xn, yn = xd / factor, yd / factor
        return xn, yn

    def unproject(self, points_px: np.ndarray) -> np.ndarray:
        """Pixel coordinates (N, 2) → the table points (N, 2) mm seen there; NaN where a
        pixel's ray misses the table."""
        pixels = np.asarray(points_px, np.float64)
        flat = pixels.reshape(-1, 2)
        cx, cy = self.principal_point
        xn, yn = self._undistort((flat[:, 0] - cx) / self.focal_px, (flat[:, 1] - cy) / self.focal_px)
        table = np.stack([xn, yn, np.ones_like(xn)], axis=1) @ self._camera_to_table.T
        with np.errstate(divide="ignore", invalid="ignore"):
            result = table[:, :2] / table[:, 2:3]
        result[table[:, 2] <= 0] = np.nan
        return result.reshape(pixels.shape)

    def _border_pixels(self, per_side: int = 64) -> np.ndarray:
        w, h = self.resolution
        xs, ys = np.linspace(-0.5, w - 0.5, per_side), np.linspace(-0.5, h - 0.5, per_side)
        return np.concatenate([np.column_stack([xs, np.full_like(xs, -0.5)]),
                               np.column_stack([xs, np.full_like(xs, h - 0.5)]),
                               np.column_stack([np.full_like(ys, -0.5), ys]),
                               np.column_stack([np.full_like(ys, w - 0.5), ys])])

    def visible_rect_mm(self) -> tuple[float, float, float, float]:
        """(x0, y0, x1, y1): the smallest axis-aligned table rectangle containing all the
        camera sees (size a table image with ``TableRaster.covering`` of it)."""
        table = self.unproject(self._border_pixels())
        if np.isnan(table).any():
            raise ValueError("the camera sees beyond the table plane's horizon")
        return (float(table[:, 0].min()), float(table[:, 1].min()),
                float(table[:, 0].max()), float(table[:, 1].max()))

    def max_px_per_mm(self) -> float:
        """The most camera pixels per table millimetre anywhere in the frame: a table
        image at least this fine is never enlarged by ``view``."""
        pixels = self._border_pixels(16)
        steps = [np.linalg.norm(self.unproject(pixels + offset) - self.unproject(pixels), axis=1)
                 for offset in ([1.0, 0.0], [0.0, 1.0])]
        return float(1.0 / np.nanmin(steps))

    # --- rendering ---------------------------------------------------------------------

    def maps(self, raster: TableRaster) -> tuple[np.ndarray, np.ndarray]:
        """float32 (map_x, map_y) for ``cv2.remap``: for each output pixel, the table-image
        pixel it sees (memoised per camera and raster; do not modify the arrays)."""
        return _maps(self, raster)

    def view(self, table_image: np.ndarray, raster: TableRaster,
             border_value: tuple[int, int, int] = (0, 0, 0)) -> np.ndarray:
        """The camera's picture of a table image (bilinear; ``border_value`` outside it).

        Anti-aliasing: when the table image is at least twice as fine as the camera
        everywhere in the frame, it is first shrunk by an integer factor with box
        averaging (``cv2.INTER_AREA``), so fine texture does not alias into moiré; the
        factor keeps at least one table pixel per camera pixel where the view is finest.
        That costs a resize per frame; render the table near ``max_px_per_mm()`` to avoid it.
        """
        level, map1, map2 = _view_plan(self, raster)
        if level > 1:
            h, w = table_image.shape[:2]
            table_image = cv2.resize(table_image[: h - h % level, : w - w % level], (w // level, h // level),
                                     interpolation=cv2.INTER_AREA)
        return cv2.remap(table_image, map1, map2, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT,
                         borderValue=tuple(int(c) for c in border_value))

    # --- placing a camera over a play area ---------------------------------------------

    @classmethod
    def framing(cls, area_mm: tuple[float, float], rng: np.random.Generator | None = None, *,
                tilt_deg: float | None = None, tilt_direction_deg: float | None = None,
                yaw_deg: float | None = None, margin: float | None = None,
                focal_px: float | None = None, k1: float | None = None, k2: float | None = None,
                resolution: tuple[int, int] = DEFAULT_RESOLUTION) -> "Camera":
        """A camera whose frame holds the whole play area (0, 0)–area_mm with ``margin``
        (a fraction of the frame's width and height) between the area and every frame edge,
        the area centred in the frame; the height above the table is solved for.

        Without an rng: straight down, no yaw, no distortion, margin 0.1, the Pi camera's
        focal length. With an rng, anything not given is drawn: tilt 0–30°, any tilt
        direction, yaw ±5°, margin 0.05–0.15, horizontal field of view 55–70°,
        k1 ±0.01 and k2 ±0.002 (at most about 5 px of distortion in the corners).
        """
        def pick(value, draw, default):
            return value if value is not None else (draw() if rng is not None else default)
        u = (lambda lo, hi: lambda: float(rng.uniform(lo, hi))) if rng is not None else None
        camera = cls(
            resolution=resolution,
            focal_px=pick(focal_px, lambda: resolution[0] / 2 / math.tan(math.radians(rng.uniform(55, 70)) / 2),
                          DEFAULT_FOCAL_PX * resolution[0] / DEFAULT_RESOLUTION[0]),
            tilt_deg=pick(tilt_deg, u and u(0, 30), 0.0),
            tilt_direction_deg=pick(tilt_direction_deg, u and u(0, 360), 270.0),
            yaw_deg=pick(yaw_deg, u and u(-5, 5), 0.0),
            k1=pick(k1, u and u(-0.01, 0.01), 0.0), k2=pick(k2, u and u(-0.002, 0.002), 0.0),
            center_mm=(area_mm[0] / 2, area_mm[1] / 2))
        return _fit_to_area(camera, area_mm, pick(margin, u and u(0.05, 0.15), 0.1))


def _area_outline(area_mm: tuple[float, float], per_side: int = 17) -> np.ndarray:
    w, h = area_mm
    t = np.linspace(0.0, 1.0, per_side)
    return np.concatenate([np.column_stack([t * w, np.zeros_like(t)]), np.column_stack([t * w, np.full_like(t, h)]),
                           np.column_stack([np.zeros_like(t), t * h]), np.column_stack([np.full_like(t, w), t * h])])


def _fit_to_area(camera: Camera, area_mm: tuple[float, float], margin: float) -> Camera:
    """Solve height and aim so the area's image is centred and just fits inside the frame
    less the margin. The image shrinks about in proportion to the height, so a few
    proportional steps converge; a final check nudges the height up until it fits."""
    if not 0 <= margin < 0.4:
        raise ValueError("margin must be in [0, 0.4)")
    outline = _area_outline(area_mm)
    w, h = camera.resolution
    allowed_w, allowed_h = (1 - 2 * margin) * w, (1 - 2 * margin) * h
    camera = replace(camera, height_mm=max(area_mm) * camera.focal_px / max(w, h))
    for _ in range(8):
        pixels = camera.project(outline)
        low, high = pixels.min(axis=0), pixels.max(axis=0)
        scale = max((high[0] - low[0]) / allowed_w, (high[1] - low[1]) / allowed_h)
        aim = camera.unproject((low + high) / 2)
        camera = replace(camera, height_mm=camera.height_mm * scale, center_mm=tuple(aim))
    lo_x, lo_y, hi_x, hi_y = margin * w - 0.5, margin * h - 0.5, (1 - margin) * w - 0.5, (1 - margin) * h - 0.5
    for _ in range(1000):
        pixels = camera.project(outline)
        if pixels[:, 0].min() >= lo_x and pixels[:, 1].min() >= lo_y and \
                pixels[:, 0].max() <= hi_x and pixels[:, 1].max() <= hi_y:
            return camera
        camera = replace(camera, height_mm=camera.height_mm * 1.002)
    raise ValueError(f"cannot frame a {area_mm} mm area with margin {margin}")


@functools.lru_cache(maxsize=4)
def _maps(camera: Camera, raster: TableRaster) -> tuple[np.ndarray, np.ndarray]:
    w, h = camera.resolution
    pixels = np.stack(np.meshgrid(np.arange(w, dtype=np.float64), np.arange(h, dtype=np.float64)), axis=-1)
    table_px = raster.to_px(camera.unproject(pixels.reshape(-1, 2)))
    table_px = np.nan_to_num(table_px, nan=-1e6)  # rays missing the table see the border
    map_x = table_px[:, 0].reshape(h, w).astype(np.float32)
    map_y = table_px[:, 1].reshape(h, w).astype(np.float32)
    map_x.flags.writeable = map_y.flags.writeable = False
    return map_x, map_y


@functools.lru_cache(maxsize=4)
def _view_plan(camera: Camera, raster: TableRaster) -> tuple[int, np.ndarray, np.ndarray]:
    """(shrink factor, fixed-point remap maps for the shrunk table image)."""
    map_x, map_y = _maps(camera, raster)
    # Table pixels per camera pixel: the smaller singular value of the map's Jacobian.
    sx, sy = map_x[::8, ::8].astype(np.float64), map_y[::8, ::8].astype(np.float64)
    a, b = (sx[:-1, 1:] - sx[:-1, :-1]) / 8, (sx[1:, :-1] - sx[:-1, :-1]) / 8
    c, d = (sy[:-1, 1:] - sy[:-1, :-1]) / 8, (sy[1:, :-1] - sy[:-1, :-1]) / 8
    frobenius, determinant = a * a + b * b + c * c + d * d, np.abs(a * d - b * c)
    smaller = np.sqrt(np.maximum(frobenius / 2 - np.sqrt(np.maximum(frobenius ** 2 / 4 - determinant ** 2, 0)), 0))
    finest = np.percentile(smaller[smaller < 1e3], 2) if np.any(smaller < 1e3) else 1.0
    level = max(1, int(finest))
    if level > 1:  # pixel centres of a k-fold box-shrunk image: (m + 0.5) / k - 0.5
        map_x, map_y = (map_x + 0.5) / level - 0.5, (map_y + 0.5) / level - 0.5
    map_x = np.clip(map_x, -16, 30000).astype(np.float32)  # fixed-point maps are int16
    map_y = np.clip(map_y, -16, 30000).astype(np.float32)
    map1, map2 = cv2.convertMaps(map_x, map_y, cv2.CV_16SC2)  # 1/32 px steps: twice as fast
    return level, map1, map2
