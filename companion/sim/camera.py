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

Lighting (``Lighting``, ``LightingRenderer``, ``apply_lighting``) and the JPEG helpers
follow the camera: what the room's light and the sensor do to the camera's picture.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, replace
from functools import cached_property
from typing import NamedTuple

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


# --- lighting --------------------------------------------------------------------------

class Shadow(NamedTuple):
    """A soft dark blob (the shadow of a lamp arm, a head, a hand): centre (x, y),
    length and width as fractions of the frame width, angle in degrees, and depth (the
    fraction of light it takes away at its core)."""

    x: float
    y: float
    length: float
    width: float
    angle_deg: float
    depth: float


class Glare(NamedTuple):
    """A specular highlight: centre (x, y) and radii (rx, ry) as fractions of the frame
    width, angle in degrees, strength 0–1 (how much of the surface colour it washes out)."""

    x: float
    y: float
    rx: float
    ry: float
    angle_deg: float
    strength: float


@dataclass(frozen=True)
class Lighting:
    """The light in the room and what the camera makes of it. Positions are fractions of
    the frame (x of its width, y of its height), so one lighting suits any resolution."""

    exposure: float = 1.0  # overall brightness factor
    gradient: float = 0.0  # brightness runs from 1 - gradient to 1 + gradient across the frame …
    gradient_angle_deg: float = 0.0  # … towards this direction (0: brighter to the right, 90: downwards)
    vignette: float = 0.0  # fraction of light lost in the frame's corners (lens shading)
    colour_temperature_k: float = 6500.0  # 2700 (warm bulb) … 6500 (daylight)
    white_balance: float = 1.0  # fraction of the colour cast the auto white balance removes
    shadows: tuple[Shadow, ...] = ()
    glares: tuple[Glare, ...] = ()
    noise_sigma: float = 0.0  # sensor noise, 8-bit levels per channel at exposure 1; it grows as 1/exposure
    defocus_sigma_px: float = 0.0  # Gaussian blur
    motion_blur_px: float = 0.0  # length of a straight motion smear …
    motion_angle_deg: float = 0.0  # … and its direction
    jpeg_quality: int = 92

    def __post_init__(self):
        def parts(kind, items):  # from tuples, or from the dicts ``describe`` writes
            return tuple(kind(**{k: float(v) for k, v in item.items()}) if isinstance(item, dict)
                         else kind(*map(float, item)) for item in items)
        object.__setattr__(self, "shadows", parts(Shadow, self.shadows))
        object.__setattr__(self, "glares", parts(Glare, self.glares))
        object.__setattr__(self, "jpeg_quality", int(self.jpeg_quality))

    def describe(self) -> dict:
        """The fields as plain JSON values; ``Lighting(**lighting.describe()) == lighting``."""
        described = {name: getattr(self, name) for name in self.__dataclass_fields__}
        described["shadows"] = [shadow._asdict() for shadow in self.shadows]
        described["glares"] = [glare._asdict() for glare in self.glares]
        return described

    @classmethod
    def neutral(cls) -> "Lighting":
        """Even daylight, perfect white balance, no noise, blur, shadow or glare."""
        return cls(jpeg_quality=95)

    @classmethod
    def random(cls, rng: np.random.Generator, **fixed) -> "Lighting":
        """A plausible living-room mix; keyword arguments fix any field. Ranges: exposure
        0.65–1.2; gradient 0–0.3 in any direction; vignette 0.05–0.35; colour temperature
        2700–6500 K, half of the draws warm indoor light (2700–3500 K); white balance
        corrects 40–80 % of the cast; 0–3 shadows of depth 0.15–0.5; glare spots: none
        (40 %), one (40 %) or two, strength 0.3–0.85; noise sigma 1–5 levels; defocus
        none (half the draws) or 0.3–1.5 px; motion blur none (70 %) or 1–6 px; JPEG
        quality 60–95."""
        warm = rng.random() < 0.5
        shadows = tuple(Shadow(rng.uniform(0, 1), rng.uniform(0, 1), rng.uniform(0.2, 0.8), rng.uniform(0.05, 0.25),
                               rng.uniform(0, 180), rng.uniform(0.15, 0.5)) for _ in range(rng.integers(0, 4)))
        glares = []
        for _ in range(rng.choice(3, p=[0.4, 0.4, 0.2])):
            rx = rng.uniform(0.02, 0.1)
            glares.append(Glare(rng.uniform(0.1, 0.9), rng.uniform(0.1, 0.9), rx, rx * rng.uniform(0.3, 1.0),
                                rng.uniform(0, 180), rng.uniform(0.3, 0.85)))
        drawn = cls(
            exposure=rng.uniform(0.65, 1.2), gradient=rng.uniform(0, 0.3), gradient_angle_deg=rng.uniform(0, 360),
            vignette=rng.uniform(0.05, 0.35),
            colour_temperature_k=rng.uniform(2700, 3500) if warm else rng.uniform(3500, 6500),
            white_balance=rng.uniform(0.4, 0.8), shadows=shadows, glares=tuple(glares),
            noise_sigma=rng.uniform(1, 5),
            defocus_sigma_px=0.0 if rng.random() < 0.5 else rng.uniform(0.3, 1.5),
            motion_blur_px=0.0 if rng.random() < 0.7 else rng.uniform(1, 6), motion_angle_deg=rng.uniform(0, 180),
            jpeg_quality=int(rng.integers(60, 96)))
        return replace(drawn, **fixed)


def _blackbody_rgb(kelvin: float) -> np.ndarray:
    """sRGB colour (0–255, RGB order) of a black body (Tanner Helland's fit, 1000–40000 K)."""
    t = min(max(kelvin, 1000.0), 40000.0) / 100.0
    red = 255.0 if t <= 66 else 329.698727446 * (t - 60) ** -0.1332047592
    green = 99.4708025861 * math.log(t) - 161.1195681661 if t <= 66 else 288.1221695283 * (t - 60) ** -0.0755148492
    blue = 255.0 if t >= 66 else (0.0 if t <= 19 else 138.5177312231 * math.log(t - 10) - 305.0447927307)
    return np.clip([red, green, blue], 1.0, 255.0)


def white_balance_gains(kelvin: float, correction: float) -> np.ndarray:
    """(B, G, R) channel gains, green fixed at 1, for a light of ``kelvin`` seen by a camera
    whose auto white balance removes the fraction ``correction`` of the cast (in log
    space): real AWB under a warm lamp leaves whites orange-ish and yellows orange."""
    cast = _blackbody_rgb(kelvin) / _blackbody_rgb(6500.0)
    gains = cast ** (1.0 - min(max(correction, 0.0), 1.0))
    return (gains / gains[1])[::-1].astype(np.float32)


def _motion_kernel(length_px: float, angle_deg: float) -> np.ndarray:
    """A normalised line kernel (drawn 4× supersampled, then box-shrunk, for sub-pixel lengths)."""
    size = int(math.ceil(length_px)) // 2 * 2 + 3
    big = np.zeros((size * 4, size * 4), np.float32)
    direction = np.array([math.cos(math.radians(angle_deg)), math.sin(math.radians(angle_deg))])
    centre = np.array([size * 2.0, size * 2.0])
    start, end = centre - direction * length_px * 2, centre + direction * length_px * 2
    cv2.line(big, tuple(int(round(c * 16)) for c in start), tuple(int(round(c * 16)) for c in end),
             1.0, 4, cv2.LINE_AA, shift=4)
    kernel = cv2.resize(big, (size, size), interpolation=cv2.INTER_AREA)
    return kernel / kernel.sum()


class LightingRenderer:
    """Applies one lighting to many frames of one resolution.

    Built once: per-pixel multiplicative gains (exposure × gradient × vignette ×
    shadows × white balance × (1 − glare)), the additive glare light, blur kernels and a
    bank of sensor noise somewhat larger than the frame. Per frame, ``apply`` does:
    defocus blur (Gaussian) and motion blur (``filter2D``) if set, on the uint8 frame;
    one ``cv2.multiply`` by the gains into float32; one ``cv2.add`` of the glare if any;
    and one saturating ``cv2.add`` of a window of the noise bank at an offset drawn
    from the rng, straight to uint8. The blur comes first because it is cheaper on
    uint8 and the light maps are smooth, so the order makes no visible difference.
    """

    _NOISE_PAD = 64

    def __init__(self, lighting: Lighting, resolution: tuple[int, int], seed: int = 0):
        self.lighting, self.resolution = lighting, (int(resolution[0]), int(resolution[1]))
        width, height = self.resolution
        wb = white_balance_gains(lighting.colour_temperature_k, lighting.white_balance)
        gain = _light_field(lighting, width, height)
        alpha = _glare_field(lighting.glares, width, height)
        planes = [gain * wb[c] for c in range(3)]
        self.additive = None
        if alpha is not None:
            # Glare is the lamp's own colour, bright enough to clip most of the way.
            glare_colour = wb / wb.max() * (280.0 * lighting.exposure)
            self.additive = cv2.merge([alpha * np.float32(glare_colour[c]) for c in range(3)])
            planes = [p * (1 - alpha) for p in planes]
        self.gain = cv2.merge(planes)
        self.noise_bank = None
        sigma = lighting.noise_sigma / max(lighting.exposure, 0.05)
        if sigma > 0:
            self.noise_bank = _noise_bank(np.random.default_rng(seed), width + self._NOISE_PAD,
                                          height + self._NOISE_PAD, sigma)
        self.motion_kernel = None
        if lighting.motion_blur_px >= 0.5:
            self.motion_kernel = _motion_kernel(lighting.motion_blur_px, lighting.motion_angle_deg)

    def apply(self, frame: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """The frame as the camera records it (everything but JPEG); uint8 BGR."""
        width, height = self.resolution
        if frame.shape != (height, width, 3) or frame.dtype != np.uint8:
            raise ValueError(f"expected a {width}×{height} BGR uint8 frame, got {frame.shape} {frame.dtype}")
        if self.lighting.defocus_sigma_px > 0.05:
            frame = cv2.GaussianBlur(frame, (0, 0), self.lighting.defocus_sigma_px)
        if self.motion_kernel is not None:
            frame = cv2.filter2D(frame, -1, self.motion_kernel)
        lit = cv2.multiply(frame, self.gain, dtype=cv2.CV_32F)
        if self.additive is not None:
            cv2.add(lit, self.additive, dst=lit)
        if self.noise_bank is None:
            return cv2.convertScaleAbs(lit)  # lit is never negative, so |·| only saturates
        dx, dy = (int(v) for v in rng.integers(0, self._NOISE_PAD, 2))
        return cv2.add(lit, self.noise_bank[dy:dy + height, dx:dx + width], dtype=cv2.CV_8U)


def _light_field(lighting: Lighting, width: int, height: int) -> np.ndarray:
    """float32 (height, width) brightness: exposure, gradient, vignette and shadows; built
    at 1/8 size (it is smooth) and enlarged."""
    small_w, small_h = max(2, width // 8), max(2, height // 8)
    xs = (np.arange(small_w, dtype=np.float32) + 0.5) * np.float32(width / small_w) - width / 2
    ys = (np.arange(small_h, dtype=np.float32)[:, None] + 0.5) * np.float32(height / small_h) - height / 2
    half_diagonal = math.hypot(width, height) / 2
    angle = math.radians(lighting.gradient_angle_deg)
    along = (xs * math.cos(angle) + ys * math.sin(angle)) / half_diagonal
    field_ = lighting.exposure * (1 + lighting.gradient * along)
    field_ = field_ * (1 - lighting.vignette * (xs * xs + ys * ys) / half_diagonal ** 2)
    for shadow in lighting.shadows:
        mask = np.zeros((small_h, small_w), np.float32)
        centre = (shadow.x * small_w, shadow.y * small_h)
        axes = (max(shadow.length * small_w / 2, 1), max(shadow.width * small_w / 2, 1))
        cv2.ellipse(mask, (centre, (2 * axes[0], 2 * axes[1]), shadow.angle_deg), 1.0, -1, cv2.LINE_AA)
        mask = cv2.GaussianBlur(mask, (0, 0), max(axes[1] * 0.6, 1.0))  # soft: a lamp is not a point
        field_ = field_ * (1 - shadow.depth * mask)
    return cv2.resize(field_.astype(np.float32), (width, height), interpolation=cv2.INTER_LINEAR)


def _glare_field(glares: tuple[Glare, ...], width: int, height: int) -> np.ndarray | None:
    """float32 alpha (0–1) of the glare spots: a washed-out core fading smoothly outwards
    (a Gaussian lobe, flattened to a plateau over the inner half of its radii)."""
    if not glares:
        return None
    xs = np.arange(width, dtype=np.float32)[None, :]
    ys = np.arange(height, dtype=np.float32)[:, None]
    alpha = np.zeros((height, width), np.float32)
    for glare in glares:
        angle = math.radians(glare.angle_deg)
        dx, dy = xs - np.float32(glare.x * width), ys - np.float32(glare.y * height)
        along = (dx * math.cos(angle) + dy * math.sin(angle)) / max(glare.rx * width, 1.0)
        across = (dy * math.cos(angle) - dx * math.sin(angle)) / max(glare.ry * width, 1.0)
        spot = np.minimum(np.float32(1.5) * np.exp(-(along * along + across * across) * np.float32(1.5)), 1)
        alpha = np.maximum(alpha, np.float32(glare.strength) * spot)
    return alpha


def _noise_bank(rng: np.random.Generator, width: int, height: int, sigma: float) -> np.ndarray:
    """float32 (height, width, 3) noise of spread ``sigma`` per channel: partly shared by
    the channels (luminance), partly not (chroma), slightly smeared as demosaicing does."""
    shared = rng.standard_normal((height, width, 1), dtype=np.float32)
    noise = rng.standard_normal((height, width, 3), dtype=np.float32) * np.float32(0.8) + np.float32(0.6) * shared
    noise = cv2.GaussianBlur(noise, (0, 0), 0.5)
    noise *= np.float32(sigma / max(float(noise.std()), 1e-6))
    return noise


@functools.lru_cache(maxsize=2)
def _cached_renderer(lighting: Lighting, resolution: tuple[int, int]) -> LightingRenderer:
    return LightingRenderer(lighting, resolution, seed=0)


def apply_lighting(frame: np.ndarray, lighting: Lighting, rng: np.random.Generator) -> np.ndarray:
    """``lighting`` applied to one frame (see ``LightingRenderer`` for what happens per
    frame; the renderer for a lighting and resolution is built once and reused)."""
    return _cached_renderer(lighting, (frame.shape[1], frame.shape[0])).apply(frame, rng)


def encode_jpeg(frame: np.ndarray, quality: int) -> bytes:
    """The frame as JPEG bytes (OpenCV's encoder, 4:2:0 chroma subsampling like a camera)."""
    ok, data = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, int(quality)])
    if not ok:
        raise RuntimeError("JPEG encoding failed")
    return data.tobytes()


def jpeg_roundtrip(frame: np.ndarray, quality: int) -> np.ndarray:
    """The frame after JPEG compression at ``quality`` and decoding (same shape, uint8)."""
    return cv2.imdecode(np.frombuffer(encode_jpeg(frame, quality), np.uint8), cv2.IMREAD_COLOR)
