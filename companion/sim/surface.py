"""Procedural table surfaces: wood, plain cloth, patterned cloth and a dark play mat.

``make_surface(kind, (width, height), px_per_mm, rng)`` returns a BGR uint8 image meant
to pass for a photograph of that surface taken straight from above at about 2 px/mm.
Every length is chosen in millimetres and scaled by ``px_per_mm``, so a surface drawn at
4 px/mm shows the same planks, checks and folds, only sharper. All randomness (colours,
sizes, orientation, noise) comes from the ``rng``, so the same seed gives the same pixels.

Speed matters (the renderer builds a table for every episode): everything is built from
low-resolution random grids enlarged with ``cv2.resize`` and whole-array float32
arithmetic; a 2000 × 1500 surface takes a few tens of milliseconds.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

SURFACES = ("wood", "cloth", "pattern", "mat")


def as_generator(rng: np.random.Generator | int | None) -> np.random.Generator:
    """A ``numpy.random.Generator`` from a generator, a seed or None (seed 0)."""
    if isinstance(rng, np.random.Generator):
        return rng
    return np.random.default_rng(0 if rng is None else rng)


def make_surface(kind: str, size_px: tuple[int, int], px_per_mm: float,
                 rng: np.random.Generator | int | None = None) -> np.ndarray:
    """A BGR uint8 image of ``size_px`` = (width, height) pixels of the surface ``kind``."""
    width, height = int(size_px[0]), int(size_px[1])
    if width < 1 or height < 1:
        raise ValueError(f"surface size must be positive, got {size_px}")
    if px_per_mm <= 0:
        raise ValueError(f"px_per_mm must be positive, got {px_per_mm}")
    makers = {"wood": _wood, "cloth": _cloth, "pattern": _patterned_cloth, "mat": _play_mat}
    if kind not in makers:
        raise ValueError(f"unknown surface {kind!r}; choose one of {', '.join(SURFACES)}")
    image = makers[kind](width, height, float(px_per_mm), as_generator(rng))
    # A photograph is never pixel-sharp: a touch of blur removes the synthetic crispness.
    return cv2.GaussianBlur(image, (0, 0), 0.3 * px_per_mm)


# --- noise building blocks -------------------------------------------------------------

def smooth_noise(rng: np.random.Generator, width: int, height: int, cell_x_px: float,
                 cell_y_px: float | None = None, interpolation: int = cv2.INTER_CUBIC) -> np.ndarray:
    """Smooth float32 noise of roughly unit spread with features about one cell in size.

    A random grid with one value per cell, enlarged bicubically (or as told); unequal
    cells give streaks (wood fibres, threads)."""
    cell_y_px = cell_x_px if cell_y_px is None else cell_y_px
    grid_w = max(2, int(np.ceil(width / max(cell_x_px, 1.0))) + 1)
    grid_h = max(2, int(np.ceil(height / max(cell_y_px, 1.0))) + 1)
    grid = rng.standard_normal((grid_h, grid_w), dtype=np.float32)
    if grid_w >= width and grid_h >= height:
        return np.ascontiguousarray(grid[:height, :width])
    # Bicubic enlargement softens the spread to about 0.7; scale it back to about 1.
    if min(cell_x_px, cell_y_px) >= 16 and min(width, height) >= 64:
        # Smooth enough that bicubic to a quarter and bilinear from there look the
        # same as bicubic all the way, at a third of the cost.
        grid = cv2.resize(grid, (width // 4, height // 4), interpolation=cv2.INTER_CUBIC)
        noise = cv2.resize(grid, (width, height), interpolation=cv2.INTER_LINEAR)
    else:
        noise = cv2.resize(grid, (width, height), interpolation=interpolation)
    noise *= np.float32(1.4)
    return noise


def add_pixel_noise(image: np.ndarray, rng: np.random.Generator, spread: float) -> np.ndarray:
    """float32 image plus independent per-pixel noise of standard deviation ``spread``
    (uniform: random bytes are several times faster to draw than Gaussians and look
    the same at this scale)."""
    height, width = image.shape
    noise = np.frombuffer(rng.bytes(width * height), np.uint8).reshape(height, width)
    scale = spread * math.sqrt(12.0) / 256.0
    return cv2.addWeighted(noise, scale, image, 1.0, -127.5 * scale, dtype=cv2.CV_32F)


def fractal_noise(rng: np.random.Generator, width: int, height: int, cell_px: float,
                  octaves: int = 4, persistence: float = 0.5) -> np.ndarray:
    """Several octaves of :func:`smooth_noise`, each half the cell size of the previous."""
    total = np.zeros((height, width), np.float32)
    amplitude, norm = 1.0, 0.0
    for _ in range(octaves):
        total += np.float32(amplitude) * smooth_noise(rng, width, height, cell_px)
        norm += amplitude ** 2
        amplitude *= persistence
        cell_px = max(cell_px / 2.0, 1.0)
    total *= np.float32(1 / np.sqrt(norm))
    return total


def _fraction(values: np.ndarray) -> np.ndarray:
    """values mod 1 (``%`` on float arrays is several times slower than this)."""
    return values - np.floor(values)


def _rgb(r: float, g: float, b: float) -> np.ndarray:
    """A colour written in RGB (as one thinks of it), stored in BGR order."""
    return np.array([b, g, r], np.float32)


def _jitter(rng: np.random.Generator, colour: np.ndarray, brightness: float, tint: float) -> np.ndarray:
    return colour * np.float32(rng.uniform(1 - brightness, 1 + brightness)) * \
        rng.uniform(1 - tint, 1 + tint, 3).astype(np.float32)


def _compose(brightness: np.ndarray, colour: np.ndarray, mix: np.ndarray | None = None,
             second_colour: np.ndarray | None = None) -> np.ndarray:
    """BGR uint8 image: brightness × (colour blended towards second_colour by mix).

    One saturating ``cv2.addWeighted`` straight to uint8 per channel: three-channel
    float images would cost far more in memory traffic than the arithmetic."""
    mixed = brightness if mix is None else brightness * mix
    planes = []
    for channel in range(3):
        towards = 0.0 if mix is None else float(second_colour[channel] - colour[channel])
        planes.append(cv2.addWeighted(brightness, float(colour[channel]), mixed, towards, 0.0, dtype=cv2.CV_8U))
    return cv2.merge(planes)


# --- wood ------------------------------------------------------------------------------

_WOODS = (  # light oak, mid oak, pine, cherry, walnut, teak: (RGB base, latewood darkness)
    ((196, 152, 104), 0.62), ((166, 118, 74), 0.6), ((214, 174, 122), 0.7),
    ((160, 92, 58), 0.62), ((104, 70, 46), 0.55), ((150, 100, 58), 0.6),
)


def _wood(width: int, height: int, s: float, rng: np.random.Generator) -> np.ndarray:
    """Planks of one species, each board cut from a different log: annual rings (dark
    latewood bands with a sharp edge) that close into arches where the saw cut through
    the log's growth cones, fibres, pores, a tone per board and dark seams."""
    vertical = rng.random() < 0.5
    if vertical:  # the grain runs along image columns; build it along rows, then transpose
        width, height = height, width
    base_rgb, late = _WOODS[rng.integers(len(_WOODS))]
    base = _jitter(rng, _rgb(*base_rgb), 0.12, 0.05)
    latewood = base * np.float32(late * rng.uniform(0.9, 1.1)) * _rgb(1.0, 0.9, 0.8)
    plank_px = rng.uniform(80, 190) * s
    ring_px = rng.uniform(2.0, 6.0) * s
    image = np.empty((height, width, 3), np.uint8)
    row = -int(rng.uniform(0, plank_px))
    while row < height:
        top, bottom = max(row, 0), min(row + int(plank_px), height)
        col = -int(rng.uniform(0, 1500 * s))
        while col < width:
            board_px = int(rng.uniform(700, 2200) * s)
            left, right = max(col, 0), min(col + board_px, width)
            if right > left and bottom > top:
                image[top:bottom, left:right] = _board(
                    rng, right - left, bottom - top, s, ring_px, base, latewood,
                    first_row=row >= 0, last_row=row + int(plank_px) <= height, first_col=col >= 0)
            col += board_px
        row += int(plank_px)
    return cv2.transpose(image) if vertical else image


def _board(rng: np.random.Generator, width: int, height: int, s: float, ring_px: float,
           base: np.ndarray, latewood: np.ndarray, first_row: bool, last_row: bool,
           first_col: bool) -> np.ndarray:
    """One board, grain along x (its columns), as BGR uint8."""
    across = np.arange(height, dtype=np.float32)[:, None]
    along = np.arange(width, dtype=np.float32)[None, :]
    # The board is a plane cutting a log of concentric growth rings: distance from the
    # log's axis (off to one side, the cut at a depth that drifts along the board) gives
    # straight lines far from the axis and cathedral arches near it.
    axis = np.float32(rng.uniform(-1.0, 2.0) * height)
    depth = np.float32(rng.uniform(0, 30) * s) + np.float32(rng.uniform(-0.04, 0.04)) * along
    radius = np.sqrt((across - axis) ** 2 + depth * depth)
    wander = smooth_noise(rng, width, height, rng.uniform(150, 400) * s, rng.uniform(30, 80) * s)
    wander += np.float32(0.25) * smooth_noise(rng, width, height, 50 * s, 10 * s)
    rings = radius * np.float32(1 / ring_px) + np.float32(rng.uniform(0.5, 2.5)) * wander
    dark = _fraction(rings)
    dark *= dark * dark  # slow darkening through the ring, sharp edge at its end
    dark += np.float32(0.12) * smooth_noise(rng, width, height, 5 * s, 0.6 * s)  # fibres
    dark *= np.float32(rng.uniform(0.6, 1.0))
    np.clip(dark, 0, 1, out=dark)
    brightness = smooth_noise(rng, width, height, 30 * s, 0.7 * s)  # streaks along the grain
    brightness *= np.float32(0.05)
    brightness += np.float32(0.05) * smooth_noise(rng, width, height, 120 * s)  # figure
    brightness -= np.float32(0.2) * (smooth_noise(rng, width, height, 2.0 * s, 0.5 * s) > 2.7)  # pores
    brightness += np.float32(rng.uniform(0.88, 1.1))  # every board has its own tone
    gap = max(1, int(round(0.6 * s)))  # the seams between boards
    if first_row:
        brightness[:gap] *= np.float32(0.45)
    if last_row:
        brightness[-gap:] *= np.float32(0.65)
    if first_col:
        brightness[:, :gap] *= np.float32(0.5)
    return _compose(brightness, base, dark, latewood)


# --- cloth -----------------------------------------------------------------------------

_CLOTHS = ((236, 232, 222), (240, 228, 200), (200, 200, 196), (214, 196, 164), (176, 38, 42),
           (120, 30, 40), (36, 52, 104), (46, 96, 64), (206, 160, 56), (150, 180, 210))


def _weave(rng: np.random.Generator, width: int, height: int, s: float) -> np.ndarray:
    """Brightness factor of a fine weave: uneven warp and weft threads plus fuzz."""
    weave = smooth_noise(rng, width, height, 12 * s, 0.5, cv2.INTER_LINEAR)
    weave += smooth_noise(rng, width, height, 0.5, 12 * s, cv2.INTER_LINEAR)
    weave *= np.float32(0.015)
    weave += np.float32(1)
    return add_pixel_noise(weave, rng, 0.05)


def _folds(rng: np.random.Generator, width: int, height: int, s: float) -> np.ndarray:
    """Brightness factor of a laid-out tablecloth lit from one side: gentle undulations,
    patches of fine wrinkles running one way, and the straight creases left by folding
    it, each shaded by its slope (a millimetre of height is a lot for a tablecloth)."""
    scale = 8.0  # the height field is smooth, so build it at 1/8 size and enlarge it
    small_w, small_h = max(4, int(width / scale)), max(4, int(height / scale))
    mm = scale / s  # millimetres per small pixel
    height_mm = fractal_noise(rng, small_w, small_h, rng.uniform(150, 350) / mm, octaves=3)
    height_mm *= np.float32(rng.uniform(0.5, 2.0))
    # Wrinkles: ridged streaks built horizontally on a larger square, turned to any angle.
    side = int(math.hypot(small_w, small_h)) + 2
    wrinkles = np.abs(smooth_noise(rng, side, side, rng.uniform(60, 160) / mm, rng.uniform(12, 30) / mm))
    wrinkles *= np.clip(smooth_noise(rng, side, side, 250 / mm), 0, 1)  # only in patches
    turn = cv2.getRotationMatrix2D((side / 2, side / 2), rng.uniform(0, 180), 1.0)
    turn[:, 2] -= ((side - small_w) / 2, (side - small_h) / 2)
    wrinkles = cv2.warpAffine(wrinkles, turn, (small_w, small_h), flags=cv2.INTER_LINEAR)
    height_mm += np.float32(rng.uniform(0.0, 0.5)) * wrinkles
    xs = np.arange(small_w, dtype=np.float32)[None, :]
    ys = np.arange(small_h, dtype=np.float32)[:, None]
    crease_px = rng.uniform(250, 500) / mm
    for coords, size in ((xs, small_w), (ys, small_h)):
        for position in np.arange(rng.uniform(0, crease_px), size, crease_px):
            height_mm = height_mm + np.float32(rng.uniform(0.1, 0.4)) * \
                np.exp(-((coords - np.float32(position)) * np.float32(mm / 3)) ** 2)
    height_mm = height_mm.astype(np.float32)
    angle = rng.uniform(0, 2 * np.pi)
    # Sobel is 8 × the difference per small pixel; divide by mm for a slope in mm/mm.
    slope = np.cos(angle) * cv2.Sobel(height_mm, cv2.CV_32F, 1, 0) + \
        np.sin(angle) * cv2.Sobel(height_mm, cv2.CV_32F, 0, 1)
    shading = (1 + slope * (1.5 / (8 * mm)) - 0.01 * height_mm).astype(np.float32)
    return cv2.resize(shading, (width, height), interpolation=cv2.INTER_CUBIC)


def _cloth(width: int, height: int, s: float, rng: np.random.Generator) -> np.ndarray:
    colour = _jitter(rng, _rgb(*_CLOTHS[rng.integers(len(_CLOTHS))]), 0.08, 0.04)
    brightness = _weave(rng, width, height, s)
    brightness *= _folds(rng, width, height, s)
    return _compose(brightness, colour)


def _stripes(coord: np.ndarray, period_px: float, duty: float) -> np.ndarray:
    """Coverage (0..1, one pixel of anti-aliased edge) of stripes of width duty*period."""
    distance = coord * np.float32(1 / period_px)
    distance -= np.floor(distance)
    distance -= np.float32(0.5)
    np.abs(distance, out=distance)
    # coverage = duty*period/2 + 0.5 - distance*period, clipped to 0..1
    distance *= np.float32(-period_px)
    distance += np.float32(duty * period_px / 2 + 0.5)
    return np.clip(distance, 0, 1, out=distance)


def _patterned_cloth(width: int, height: int, s: float, rng: np.random.Generator) -> np.ndarray:
    """A printed or woven pattern on a white ground: gingham, plaid or polka dots, laid a
    little askew, pulled out of true by the folds, with the same weave and fold shading."""
    ground = _jitter(rng, _rgb(238, 234, 226), 0.05, 0.03)
    ink = _jitter(rng, _rgb(*_CLOTHS[4 + rng.integers(len(_CLOTHS) - 4)]), 0.1, 0.05)
    # Pattern coordinates (u along the weft, v along the warp): turned a few degrees and
    # pulled by the folds. They are smooth, so compute them at quarter size and enlarge.
    angle = np.deg2rad(rng.uniform(-4, 4))
    small_w, small_h = max(2, width // 4), max(2, height // 4)
    xs = (np.arange(small_w, dtype=np.float32)[None, :] + 0.5) * np.float32(width / small_w) - 0.5
    ys = (np.arange(small_h, dtype=np.float32)[:, None] + 0.5) * np.float32(height / small_h) - 0.5
    u = np.float32(np.cos(angle)) * xs + np.float32(np.sin(angle)) * ys + \
        np.float32(2 * s) * smooth_noise(rng, small_w, small_h, 75 * s)
    v = np.float32(np.cos(angle)) * ys - np.float32(np.sin(angle)) * xs + \
        np.float32(2 * s) * smooth_noise(rng, small_w, small_h, 75 * s)
    u = cv2.resize(u.astype(np.float32), (width, height), interpolation=cv2.INTER_LINEAR)
    v = cv2.resize(v.astype(np.float32), (width, height), interpolation=cv2.INTER_LINEAR)
    style = ("gingham", "plaid", "dots")[rng.choice(3, p=[0.5, 0.25, 0.25])]
    period = rng.uniform(8, 26) * s
    if style == "gingham":  # coloured threads: half tone where one stripe runs, full where two cross
        coverage = 0.5 * (_stripes(u, period, 0.5) + _stripes(v, period, 0.5))
    elif style == "plaid":  # broad pale bands with narrow dark lines
        coverage = 0.3 * (_stripes(u, 3 * period, 0.45) + _stripes(v, 3 * period, 0.45)) + \
            0.4 * np.maximum(_stripes(u + period, 3 * period, 0.08), _stripes(v + period, 3 * period, 0.08))
    else:  # printed dots, every second row shifted by half a period
        row = np.floor(v * np.float32(1 / period))
        du = _fraction((u + np.float32(period / 2) * row) * np.float32(1 / period)) - np.float32(0.5)
        dv = _fraction(v * np.float32(1 / period)) - np.float32(0.5)
        radius = rng.uniform(0.15, 0.3) * period
        coverage = np.clip(np.float32(radius + 0.5) - np.sqrt(du * du + dv * dv) * np.float32(period), 0, 1)
    brightness = _weave(rng, width, height, s)
    brightness *= _folds(rng, width, height, s)
    return _compose(brightness, ground, coverage.astype(np.float32, copy=False), ink)


# --- play mat --------------------------------------------------------------------------

_MATS = ((22, 22, 24), (24, 46, 32), (22, 30, 58), (38, 38, 42), (46, 24, 26), (16, 38, 44))


def _play_mat(width: int, height: int, s: float, rng: np.random.Generator) -> np.ndarray:
    """Dark felt or rubber-backed cloth: fine fibre noise, faint mottling and a few
    specks of lint."""
    colour = _jitter(rng, _rgb(*_MATS[rng.integers(len(_MATS))]), 0.2, 0.08)
    brightness = smooth_noise(rng, width, height, 1.5 * s)  # felt clumps
    brightness *= np.float32(0.08)
    brightness += np.float32(rng.uniform(0.04, 0.08)) * fractal_noise(rng, width, height, 60 * s, octaves=3)
    brightness += np.float32(1)
    brightness = add_pixel_noise(brightness, rng, rng.uniform(0.08, 0.14))  # fibres
    image = _compose(brightness, colour)
    lint_colour = tuple(float(c) for c in np.clip(colour * 2.5 + 25, 0, 255))
    for _ in range(int(rng.poisson(width * height / (s * s) * 2e-5))):
        x, y = rng.uniform(0, width), rng.uniform(0, height)
        length, direction = rng.uniform(0.5, 3) * s, rng.uniform(0, 2 * np.pi)
        end = (int(x + length * np.cos(direction)), int(y + length * np.sin(direction)))
        cv2.line(image, (int(x), int(y)), end, lint_colour, 1, cv2.LINE_AA)
    return image
