"""The light in the room and what the sensor and the JPEG encoder do to the picture.

Works in camera pixels (see ``camera.py`` for the conventions). ``LightingRenderer``
builds everything that stays the same over an episode once (gain, shadow and glare
maps, blur kernels, a bank of sensor noise) and then applies it to each frame with a
handful of 8-bit OpenCV operations.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, replace
from typing import NamedTuple

import cv2
import numpy as np

from .room import Glare

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
