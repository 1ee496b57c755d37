"""A card's paper and ink: what the numerals' ink takes from the paper's light, and
which of a deck's inks that is.

:func:`measure` divides a rectified card by its local background (a local white
balance) and takes the numerals' colour; the ink's *absorption* (1 − ink/paper per
channel) and its chromaticity (:func:`chromaticity`) do not depend on the light's
colour or strength. :class:`InkModel` tells a deck's colours apart by the
chromaticity's hue and log saturation (``card_reader``'s docstring says how), allowing for paper
that saturates the sensor: a warm lamp on white or cream card clips red and green, and
the ink's ratio there is then off by how far the paper lies above the sensor's
maximum. One card cannot tell how far; the cards of known colour in the same frame can
(:meth:`InkModel.paper_level`), since shading dims every channel alike. On an inverse
deck the paper is the white of the numerals and the ink the colour fill
(``Measurement.paper``).

The ink of a numeral is what its strokes and the paper right around them lose in all
(:func:`ink_on`): blur and the JPEG's halved colour resolution spread a thin stroke's
colour, not its darkness, over the paper beside it. The limits named here are fields of
:data:`~companion.vision.thresholds.THRESHOLDS`.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import cv2
import numpy as np

from ..cards import Colour
from .read_kernels import (channel_ranks, ink_distances2, ring_paper_and_near_sum, stroke_ink, strongest,
                           taken_from_paper)
from .read_kernels import normalised as divided
from .thresholds import THRESHOLDS

_SATURATION = 255.0  # the sensor's (the JPEG's) maximum
_CLIP_FACTORS = np.array([1.0, 1.06, 1.13, 1.2, 1.3, 1.45])  # how far above the sensor's maximum saturated paper may be
_FIT_FACTORS = np.arange(1.0, 2.0, 0.02)  # saturated paper's level fitted to a known ink
_PAPER_STEPS = np.exp(np.linspace(-0.1, 0.1, 5))  # around the level the frame's other cards tell
_BETWEEN = np.linspace(0.0, 1.0, 6)  # powers of that level: from no correction to all of it

# sRGB (linear) → XYZ, D65
_RGB_TO_XYZ = np.array([[0.4124564, 0.3575761, 0.1804375],
                        [0.2126729, 0.7151522, 0.0721750],
                        [0.0193339, 0.1191920, 0.9503041]])
_D65 = np.array([0.95047, 1.0, 1.08883])


def lab(rgb) -> np.ndarray:
    """CIE L*a*b* (D65) of sRGB colours given in 0–1, shape (..., 3), RGB order."""
    rgb = np.clip(np.asarray(rgb, np.float64), 0.0, 1.0)
    linear = np.where(rgb <= 0.04045, rgb / 12.92, ((rgb + 0.055) / 1.055) ** 2.4)
    xyz = linear @ _RGB_TO_XYZ.T / _D65
    f = np.where(xyz > (6 / 29) ** 3, np.cbrt(xyz), xyz / (3 * (6 / 29) ** 2) + 4 / 29)
    return np.stack([116 * f[..., 1] - 16, 500 * (f[..., 0] - f[..., 1]), 200 * (f[..., 1] - f[..., 2])], axis=-1)


@dataclass(frozen=True)
class Measurement:
    """A card's paper and ink, measured on the rectified card."""

    normalised: np.ndarray  # float32 BGR, each pixel divided by the card's local background (background ≈ 1)
    foreground: np.ndarray  # BGR of the numerals' colour in ``normalised`` units
    ink: np.ndarray  # BGR of the card colour's ink relative to the paper (paper = 1)
    absorption: np.ndarray  # (R, G, B): what the ink takes from the paper's light, 1 − ink/paper
    chroma: np.ndarray  # (x, y): the absorption's chromaticity (angle: hue, length: saturation)
    strength: float  # length of the absorption (0: no ink, ~0.8–1.3: solid print ink)
    contrast: float  # distance of the foreground from the background, in normalised RGB
    foreground_share: float  # share of the card's inner pixels that are foreground
    clipped: np.ndarray  # (R, G, B) bools: the paper saturates the sensor there, so the ink's ratio is off
    background: np.ndarray | None = None  # BGR of the card's typical background in the picture (0–255)
    glare: float = 0.0  # share of the card's inner pixels that saturate the sensor in every channel
    # inverse decks: the share of its contrast a numeral can show at each pixel (see
    # :func:`numerals_room`); None where it can show all of it everywhere
    room: np.ndarray | None = None
    inverse: bool = False  # the deck's paper is its numerals, its ink the colour fill

    @property
    def paper(self) -> np.ndarray | None:
        """The paper's level (R, G, B; 0–255) as the picture shows it: the background, or
        on an inverse deck the numerals (the fill times their colour). None where unknown."""
        if self.background is None:
            return None
        level = self.background * self.foreground if self.inverse else self.background
        return level[::-1].astype(np.float64)

    @functools.cached_property
    def hidden_share(self) -> float:
        """Inverse decks: the share of the card where a numeral is ``hidden``; else 0."""
        hidden = self.hidden
        return 0.0 if hidden is None else float(np.count_nonzero(hidden)) / hidden.size

    @property
    def hidden(self) -> np.ndarray | None:
        """Inverse decks: True where the fill is so bright that a numeral there could not
        show ``hidden_share`` of its contrast (the sensor saturates first); None where
        nothing is."""
        if self.room is None:
            return None
        hidden = self.room < THRESHOLDS.hidden_share
        return hidden if hidden.any() else None


def background_field(card: np.ndarray, inverse: bool, px_per_mm: float, opened: bool = True) -> np.ndarray:
    """The card's local background colour everywhere (float32 BGR): its paper, or on an
    inverse deck its colour fill, with numerals, frame and indices filtered out.

    Ink is darker than paper in every channel, and paper is lighter than a colour fill,
    so a grey-scale dilation (inverse: an opening) wider than a stroke removes the
    strokes; a box blur smooths what is left. On an inverse card an erosion alone takes
    the darkest fill within reach, so the halo of a glare spot, fading over a few
    millimetres of fill, stays brighter than the level and reads like the white
    numerals beside it; the opening's dilation gives the fill's own level back. On paper
    a closing in place of the dilation read fewer cards right. ``opened=False``: an
    inverse card's fill is its erosion alone (see :func:`measure`)."""
    size = max(3, int(round(9 * px_per_mm)) | 1)
    kernel = _square(size)
    smooth = cv2.GaussianBlur(card, (3, 3), 0)
    if inverse:
        field = cv2.erode(smooth, kernel)
        if opened:
            field = cv2.dilate(field, kernel)
    else:
        field = cv2.dilate(smooth, kernel)
    field = cv2.blur(field, (size, size))
    return cv2.max(field, (4.0, 4.0, 4.0, 4.0)).astype(np.float32)


@functools.lru_cache(maxsize=8)
def _square(size: int) -> np.ndarray:
    square = cv2.getStructuringElement(cv2.MORPH_RECT, (size, size))
    square.flags.writeable = False
    return square


def measure(card: np.ndarray, inverse: bool, px_per_mm: float, margin_px: int,
            opened_fill: bool = True) -> Measurement:
    """Background, numerals and ink of a rectified card (uint8 BGR at ``px_per_mm``).

    Shading (vignette, a lamp's fall-off, shadows) multiplies the light; glare adds the
    lamp's light. Where the background is darker than the card's typical background the
    card is divided by it (a local white balance); where it is brighter, the excess is
    taken for glare and subtracted first, so the numerals under a glare spot keep their
    shape. ``opened_fill``: see :func:`background_field`; the single-card search of the
    calibration tries every card as inverse as well, and with an opened fill there it
    chooses other outlines for paper cards and takes good pictures for poor ones: it
    keeps the erosion it was tuned with."""
    h, w = card.shape[:2]
    field = background_field(card, inverse, px_per_mm, opened_fill)
    step = max(1, round(3 * px_per_mm))  # the field is smooth: a sparse sample gives its median
    sample = field[margin_px:h - margin_px:step, margin_px:w - margin_px:step].reshape(-1, 3)
    typical = channel_ranks(sample, len(sample) // 2)
    normalised = divided(card, field, typical)
    inner = normalised[margin_px:h - margin_px, margin_px:w - margin_px]
    foreground, _, strong = strongest(inner, THRESHOLDS.ink_quantile, share_of=0.3)
    share = strong / max(inner.shape[0] * inner.shape[1], 1)
    ink, absorption, chroma, strength, contrast, clipped = _ink_fields(foreground, typical, inverse)
    inner_card = card[margin_px:h - margin_px, margin_px:w - margin_px]
    # every channel saturated (inRange: OpenCV's one pass, where numpy's min over channels is slow)
    glare = float(cv2.countNonZero(cv2.inRange(inner_card, (THRESHOLDS.clipped_level,) * 3, (_SATURATION,) * 3)))
    glare /= max((h - 2 * margin_px) * (w - 2 * margin_px), 1)
    room = numerals_room(field, foreground, typical) if inverse else None
    return Measurement(normalised, foreground, ink, absorption, chroma, strength, contrast, share, clipped, typical,
                       glare, room, inverse)



def numerals_room(field: np.ndarray, foreground: np.ndarray, typical: np.ndarray) -> np.ndarray | None:
    """The share of its typical contrast an inverse card's white numeral can show at each
    pixel (float32; ``field``: the fill's level, BGR; ``foreground``: the numerals in
    ``normalised`` units; ``typical``: the fill's typical level): glare adds the lamp's
    light to fill and numeral alike, so their difference stays until the numeral
    saturates the sensor; in a glare spot's core fill and numeral are both white, and
    there a numeral shows as fill. None where the whole card can show all of it.

    A numeral's glyph-map value at a pixel whose fill is F is its contrast there, at
    most 255 − F per channel, over its typical contrast, weighed as the glyph map
    weighs the channels. Below ``hidden_share`` a numeral is taken as hidden there
    (:class:`Measurement`'s ``hidden``)."""
    contrast = (foreground - 1.0).astype(np.float32)
    norm2 = float(contrast @ contrast)
    if norm2 < 1e-6:
        return None
    room = np.float32(_SATURATION) - field
    if float(room.min()) >= float(np.max(contrast * typical)):
        return None  # even the brightest fill leaves every channel room for a whole numeral
    shown = np.minimum(room / typical.astype(np.float32), contrast) @ (contrast / np.float32(norm2))
    return shown if float(shown.min()) < 0.999 else None


class Strokes:
    """A numeral's stroke pixels (``rows``, ``cols`` from its template's top-left) and
    the masks :func:`ink_on` counts the ink on, made once per template: the strokes
    grown by ``stroke_reach_mm`` and by that and ``paper_ring_mm`` (at ``px_per_mm``),
    over the strokes' box grown by the ring's reach. Growing them for every card read
    cost more than the rest of the ink's measurement."""

    def __init__(self, mask: np.ndarray, px_per_mm: float):
        self.rows, self.cols = np.nonzero(mask)
        self.px_per_mm = float(px_per_mm)
        ring_disc = _disc((THRESHOLDS.stroke_reach_mm + THRESHOLDS.paper_ring_mm) * px_per_mm)
        self.reach = ring_disc.shape[0] // 2
        if not len(self.rows):  # a blank template: no ink to take (ink_on leaves the measurement as it is)
            self.first_row = self.first_col = self.last_row = self.last_col = 0
            self.near = self.ring = np.zeros((0, 0), np.uint8)
            return
        self.first_row, self.first_col = int(self.rows.min()), int(self.cols.min())
        self.last_row, self.last_col = int(self.rows.max()), int(self.cols.max())
        grown = np.zeros((self.last_row - self.first_row + 1 + 2 * self.reach,
                          self.last_col - self.first_col + 1 + 2 * self.reach), np.uint8)
        grown[self.rows - self.first_row + self.reach, self.cols - self.first_col + self.reach] = 1
        self.near = cv2.dilate(grown, _disc(THRESHOLDS.stroke_reach_mm * px_per_mm))
        self.ring = cv2.dilate(grown, ring_disc)

    def at(self, top: int, left: int) -> tuple[np.ndarray, np.ndarray]:
        """The stroke pixels with the template's top-left at (``top``, ``left``)."""
        return self.rows + top, self.cols + left

    def on(self, top: int, left: int, height: int, width: int) -> bool:
        """Whether every stroke pixel lies on an image of that size, the template's top-left at (``top``, ``left``)."""
        return (len(self.rows) > 0 and top + self.first_row >= 0 and left + self.first_col >= 0
                and top + self.last_row < height and left + self.last_col < width)


def ink_on(measurement: Measurement, strokes: Strokes, top: int, left: int, inverse: bool,
           on_strokes: bool = True, darkest_everywhere: bool = False) -> Measurement:
    """The measurement with its ink taken only from the pixels of ``strokes`` (the
    template's top-left at ``top``, ``left``): the numeral's own strokes, once the
    number is known. The card's strongest colour may be something else: the table
    beside an outline that reaches over the card's edge, a shadow, a hand. On paper,
    where ``on_strokes`` says the pixels lie on the strokes (the numeral matched well),
    the ink is what the strokes take from the paper around them in all
    (:func:`_ink_taken`); elsewhere, the median of the strongest pixels. Where the paper
    saturates, a stroke's edge pixels saturate too and their ink is lost to the sum (a
    green under a warm lamp reads yellow): on those channels the darkest pixels tell it
    better.

    ``darkest_everywhere``: where the paper saturates any channel, every channel's ink is
    taken from the darkest pixels, for a caller that corrects the saturated channels by
    the paper's true level. Blur dilutes the darkest pixels' ink, not the sum's, so with
    the saturated channels corrected fully, a thin green stroke shows less red beside its
    summed blue than a green absorbs, and reads yellow; diluted alike in every channel,
    the ink keeps its hue. Not for every card: read so without the paper's level (and so
    calibrated), pale blues and yellows are left unknown."""
    normalised = measurement.normalised
    if measurement.background is None:
        return measurement
    h, w = normalised.shape[:2]
    take = not inverse and on_strokes
    from_darkest = np.repeat(measurement.clipped.any(), 3) if darkest_everywhere else measurement.clipped[::-1]  # BGR
    if strokes.on(top, left, h, w):
        if len(strokes.rows) < 4:
            return measurement
        foreground = stroke_ink(normalised, strokes.rows, strokes.cols, top, left, strokes.near, strokes.ring,
                                (top + strokes.first_row - strokes.reach, left + strokes.first_col - strokes.reach),
                                take, from_darkest)
    else:
        rows, cols = strokes.at(top, left)
        inside = (rows >= 0) & (rows < h) & (cols >= 0) & (cols < w)
        rows, cols = rows[inside], cols[inside]
        if len(rows) < 4:
            return measurement
        foreground = _ink_taken(normalised, rows, cols, strokes.px_per_mm) if take else None
        if foreground is None or measurement.clipped.any():
            darkest = strongest(normalised[rows, cols], 0.9)[0]
            foreground = darkest if foreground is None else np.where(from_darkest, darkest,
                                                                     foreground).astype(np.float32)
    return _with_foreground(measurement, foreground, inverse)


def ink_against_print(measurement: Measurement, elsewhere: np.ndarray) -> Measurement:
    """The measurement with its ink taken from the deck's other print (``elsewhere``: bool,
    where it prints its corner indices and frame) instead of from its numeral: on paper
    the strongest ink there, on an inverse deck the fill against that print, white as the
    numeral is."""
    return _with_foreground(measurement, strongest(measurement.normalised[elsewhere], THRESHOLDS.ink_quantile)[0],
                            measurement.inverse)


def _with_foreground(measurement: Measurement, foreground: np.ndarray, inverse: bool) -> Measurement:
    """The measurement with its numerals' colour (and so its ink) taken as ``foreground``."""
    ink, absorption, chroma, strength, contrast, clipped = _ink_fields(foreground, measurement.background, inverse)
    return Measurement(measurement.normalised, foreground, ink, absorption, chroma, strength, contrast,
                       measurement.foreground_share, clipped, measurement.background, measurement.glare,
                       measurement.room, inverse)


def _ink_taken(normalised: np.ndarray, rows: np.ndarray, cols: np.ndarray, px_per_mm: float) -> np.ndarray | None:
    """The colour (normalised BGR) of a stroke fully inked, from what the strokes at
    ``rows``, ``cols`` and ``stroke_reach_mm`` around them take from the paper in all,
    per stroke pixel, the paper's level read on a ring just outside (``paper_ring_mm``).

    The darkest pixels alone read a thin stroke's ink too grey: blur and the JPEG's
    halved colour resolution spread its colour, not its darkness, over the paper beside
    it; and the background, the brightest paper near each pixel, lies a little above the
    paper's typical level (noise), which adds grey to every pixel. Blur and JPEG move
    the colour without losing it, so the sum over the stroke and its surroundings
    keeps it. None where the ring has fewer pixels than the strokes (the numeral lies
    at the card's edge)."""
    h, w = normalised.shape[:2]
    reach_mm, ring_mm = THRESHOLDS.stroke_reach_mm, THRESHOLDS.paper_ring_mm
    near_disc, ring_disc = _disc(reach_mm * px_per_mm), _disc((reach_mm + ring_mm) * px_per_mm)
    # only the strokes' box and the ring's reach around it can be near or on the ring
    reach = ring_disc.shape[0] // 2
    top, left = max(int(rows.min()) - reach, 0), max(int(cols.min()) - reach, 0)
    bottom, right = min(int(rows.max()) + reach + 1, h), min(int(cols.max()) + reach + 1, w)
    normalised = normalised[top:bottom, left:right]
    mask = np.zeros(normalised.shape[:2], np.uint8)
    mask[rows - top, cols - left] = 1
    return taken_from_paper(*ring_paper_and_near_sum(normalised, cv2.dilate(mask, near_disc),
                                                      cv2.dilate(mask, ring_disc)), len(rows))


@functools.lru_cache(maxsize=8)
def _disc(radius: float) -> np.ndarray:
    size = 2 * max(1, int(round(radius))) + 1
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size, size))
    disc.flags.writeable = False
    return disc


def _ink_fields(foreground: np.ndarray, typical: np.ndarray, inverse: bool) -> tuple:
    """(ink, absorption, chroma, strength, contrast, clipped) of a foreground colour.

    In plain floats: on three values numpy's cost per call is the whole cost, and this
    runs twice for every card read."""
    b, g, r = (float(v) for v in foreground)
    if inverse:
        ink = 1.0 / np.maximum(foreground, 1e-3)
        ink_b, ink_g, ink_r = (float(v) for v in ink)
    else:
        ink, ink_b, ink_g, ink_r = foreground, b, g, r
    absorption = (1.0 - ink_r, 1.0 - ink_g, 1.0 - ink_b)
    paper_b, paper_g, paper_r = (float(v) for v in typical)
    clipped = THRESHOLDS.clipped_level
    if inverse:
        paper_b, paper_g, paper_r = paper_b * b, paper_g * g, paper_r * r
    return (ink, np.array(absorption), _chromaticity(*absorption),
            math.sqrt(absorption[0] * absorption[0] + absorption[1] * absorption[1] + absorption[2] * absorption[2]),
            math.sqrt((b - 1.0) ** 2 + (g - 1.0) ** 2 + (r - 1.0) ** 2),
            np.array((paper_r >= clipped, paper_g >= clipped, paper_b >= clipped)))


_SQRT2, _SQRT3, _SQRT6 = math.sqrt(2.0), math.sqrt(3.0), math.sqrt(6.0)
# the opponent components of :func:`_chromaticity` as a matrix, for many points at once
_OPPONENT = np.array([[1.0, -1.0, 0.0], [1.0, 1.0, -2.0]]) / np.array([[_SQRT2], [_SQRT6]])


def chromaticity(absorption: np.ndarray) -> np.ndarray:
    """(x, y) of an absorption vector (R, G, B): its opponent components (red–green,
    yellow–blue) over its grey part. Mixing the ink with paper scales the whole vector,
    so the point does not move; only a change of hue or saturation moves it."""
    return _chromaticity(*(float(v) for v in absorption))


def _chromaticity(r: float, g: float, b: float) -> np.ndarray:
    grey = max((r + g + b) / _SQRT3, 1e-3)
    return np.array(((r - g) / _SQRT2 / grey, (r + g - 2.0 * b) / _SQRT6 / grey))


def looks_inverse(card: np.ndarray, margin_px: int) -> bool:
    """Whether most of the card is a colour fill rather than paper (for calibration)."""
    h, w = card.shape[:2]
    inner = card[margin_px:h - margin_px, margin_px:w - margin_px]
    whiteness = np.minimum(np.minimum(inner[..., 0], inner[..., 1]), inner[..., 2]).ravel()
    k = int(0.99 * (whiteness.size - 1))
    top = float(np.partition(whiteness, k)[k])
    return float(np.median(whiteness)) < 0.5 * top


class InkModel:
    """A deck's inks (from its profile) and how sure a measured ink is one of them."""

    def __init__(self, colours: tuple[Colour, ...], inks: dict, covariance: np.ndarray, thresholds: dict):
        self.colours = tuple(colours)
        self._t = thresholds
        chroma = np.stack([inks[c] for c in self.colours])
        self._ink_saturation = np.maximum(np.hypot(chroma[:, 0], chroma[:, 1]), 1e-3)
        self._ink_polar = np.stack([np.arctan2(chroma[:, 1], chroma[:, 0]), np.log(self._ink_saturation)], axis=1)
        self._covariance = covariance
        # the parts of each ink's spread that do not depend on the card read
        self._ink_saturation2 = self._ink_saturation ** 2
        self._hue_spread2 = thresholds["colour_hue_spread"] ** 2 + covariance[0, 0]
        self._saturation_spread2 = thresholds["colour_saturation_spread"] ** 2 + covariance[1, 1]
        # per number of saturated channels: the factors and their costs where nothing tells the paper's level
        costs = (np.log(_CLIP_FACTORS) / thresholds["clip_spread"]) ** 2
        self._unknown_paper = {count: _combinations([(_CLIP_FACTORS, costs)] * count) for count in (1, 2, 3)}
        for arrays in self._unknown_paper.values():
            for array in arrays:
                array.flags.writeable = False  # shared by every card read

    def colour(self, measurement: Measurement, paper: np.ndarray | None = None) -> tuple[Colour, float]:
        """The likeliest colour and its confidence: its posterior among the deck's inks,
        lowered where the ink lies far from every ink or is too faint or too strong for
        print."""
        t = self._t
        distances, logdets = self.distances(measurement, paper)
        scale = t["colour_scale"]
        # plain floats: four inks, where numpy's cost per call is the whole cost
        logits = [-0.5 * (scale * d * d + logdet) for d, logdet in zip(distances.tolist(), logdets.tolist())]
        c = max(range(len(logits)), key=logits.__getitem__)
        posterior = [math.exp(logit - logits[c]) for logit in logits]
        confidence = posterior[c] / sum(posterior)
        confidence *= sigmoid(3.0 * (t["max_colour_distance"] - float(distances[c])))
        strength = measurement.strength
        confidence *= sigmoid(60.0 * (strength - t["min_strength"])) * sigmoid(10.0 * (t["max_strength"] - strength))
        return self.colours[c], confidence

    def distances(self, measurement: Measurement, paper: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
        """Mahalanobis distance of the card's ink from each of the profile's inks, in hue
        (angle) and log saturation, and the log-determinants of their spreads (for the
        posterior). The hue is less certain for a pale ink and a faint stroke.

        Where the paper saturates a channel (a warm lamp on white card), the paper's true
        level there is unknown, somewhat above the sensor's maximum, so the ink's measured
        ratio there is too high by an unknown factor k >= 1: each ink is compared with the
        measurement corrected by the factor that suits it best, paying for unlikely
        factors (log k is taken to spread by ``clip_spread``). An ink that absorbs less in
        that channel than was measured cannot be made to fit. ``paper``: the paper's true
        level (R, G, B) relative to its blue, where the other cards in the same light tell
        it (:meth:`paper_level`): the factors are then taken near what it implies.
        """
        points, penalty, _ = self._corrected_chroma(measurement, paper)
        d2, logdets = self._distances2(points, measurement.strength)
        return np.sqrt((d2 + penalty).min(axis=1)), logdets

    def paper_level(self, measurement: Measurement, colour: Colour) -> np.ndarray | None:
        """The paper's true level (R, G, B) relative to its blue, from a card whose ink is
        known to be ``colour`` (``measurement``: its ink taken from its numeral): on the
        saturated channels, the factors that bring the ink nearest the deck's ink of that
        colour. Shading dims every channel alike, so every card of a deck in one frame
        has its paper at the same ratios. None where no channel saturates, or blue does
        too (nothing left to measure against); NaN on the saturated channels where the
        ink saturates one of them too (a pale or faint ink)."""
        if not measurement.clipped.any() or not _knows_paper(measurement):
            return None
        clipped = np.flatnonzero(measurement.clipped)
        points, _, factors = self._corrected_chroma(measurement, None, fit=True)
        d2, _ = self._distances2(points, measurement.strength)
        level = measurement.paper
        level[clipped] *= factors[int(np.argmin(d2[self.colours.index(colour)]))]
        if _ink_saturated(measurement)[clipped].any():
            level[clipped] = np.nan  # the ink's own ratio is lost there: no fit tells the paper's
        return level / level[2]

    def _distances2(self, points: np.ndarray, strength: float) -> tuple[np.ndarray, np.ndarray]:
        """Squared Mahalanobis distances (inks, points) of chromaticities from each ink, and
        the log-determinants of the inks' spreads."""
        t = self._t
        noise2 = t["colour_floor"] ** 2 + (t["colour_noise"] / max(strength, 1e-3)) ** 2
        # per ink: the 2 × 2 spread of (hue, log saturation), inverted in closed form
        noise = noise2 / self._ink_saturation2
        var_hue, var_sat = noise + self._hue_spread2, noise + self._saturation_spread2
        cross = self._covariance[0, 1]
        determinant = var_hue * var_sat - cross * cross
        return ink_distances2(points, self._ink_polar, var_hue, var_sat, cross, determinant), np.log(determinant)

    def _corrected_chroma(self, measurement: Measurement, paper: np.ndarray | None,
                          fit: bool = False) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The ink's chromaticity corrected for each combination of factors on the
        saturated channels (a single point where none is), what each combination costs,
        and the factors (combinations × saturated channels).

        ``fit``: factors over a wide range, at no cost (the paper's level is sought).
        ``paper`` known: factors near what it implies (:meth:`_near_paper`). A faint ink
        (diluted by blur, glare or a thin stroke) is partly saturated in ways the median
        does not show (noise pulls its strongest pixels below the sensor's maximum): it
        is read as without ``paper``, unless blue saturates too; not so an inverse
        deck's fill, measured over the whole face rather than on thin strokes (a yellow
        washed out by a glare spot's light, only its blue left, is told from green by
        the white of the frame's numerals). Blue saturated too: ``paper``
        (relative to blue) tells the level only up to a factor common to all three
        channels, which costs what one channel's factor costs where nothing is known:
        without it, a faint ink under a glare spot or at the bright end of a lamp's
        light, measured against a paper that saturates everywhere, lies between two inks."""
        clipped = np.flatnonzero(measurement.clipped)
        if not len(clipped):
            return measurement.chroma[None, :], np.zeros(1), np.ones((1, 0))
        faint = self._faint(measurement)
        if fit:
            factors, penalty = _combinations([(_FIT_FACTORS, np.zeros(len(_FIT_FACTORS)))] * len(clipped))
        elif paper is not None and _knows_paper(measurement) and not faint:
            seen = measurement.paper
            factors, penalty = self._near_paper(measurement, clipped, paper * seen[2] / seen)
        elif paper is not None and measurement.background is not None and len(clipped) == 3:
            # every channel saturated: the paper's level is known up to one factor, the
            # same for every channel (shading dims them alike); the least one that takes
            # every channel to at least the sensor's maximum, times a factor k >= 1 that
            # costs as much as one saturated channel's factor where nothing is known
            seen = measurement.paper
            least = paper / seen / float(np.min(paper / seen))
            parts = [self._near_paper(measurement, clipped, k * least) for k in _CLIP_FACTORS]
            factors = np.concatenate([f for f, _ in parts])
            penalty = np.concatenate([p + (math.log(k) / self._t["clip_spread"]) ** 2
                                      for k, (_, p) in zip(_CLIP_FACTORS, parts)])
        else:
            factors, penalty = self._unknown_paper[len(clipped)]
        ratios = np.repeat((1.0 - measurement.absorption)[None, :], len(factors), axis=0)
        ratios[:, clipped] = ratios[:, clipped] / factors
        absorption = 1.0 - ratios
        grey = np.maximum(absorption.sum(axis=1) / _SQRT3, 1e-3)
        return (absorption @ _OPPONENT.T) / grey[:, None], penalty, factors

    def _near_paper(self, measurement: Measurement, clipped: np.ndarray,
                    centres: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Factors on the ``clipped`` channels near ``centres`` (R, G, B: how far the
        paper lies above what was measured, as the frame's paper level implies) and what
        each combination costs. Where the ink saturates a channel as well (a pale ink)
        its ratio is only known to lie between the measured one and the corrected one,
        so any factor in between is free.

        A numeral's saturated channel can show darker than the sensor's maximum: the
        JPEG keeps colour at half the resolution, so at a thin stroke it is half the
        paper's: a saturated yellow's red can read below ``clipped_level``, while a green
        on the same paper reads its red far lower. So where the ink reads
        ``ink_may_clip`` or more in a channel, the factors in between are allowed too, at
        no cost (they only ever favour an ink that absorbs little there). Not for a faint
        ink (``paper_min_strength``): diluted by a glare spot or a thin stroke, any ink
        comes near the maximum."""
        ink_saturated = _ink_saturated(measurement, THRESHOLDS.clipped_level if self._faint(measurement)
                                       else THRESHOLDS.ink_may_clip)
        spread = self._t["paper_spread"]
        options = []
        for channel in clipped:
            centre = max(1.0, float(centres[channel]))
            if ink_saturated[channel]:
                options.append((centre ** _BETWEEN, np.zeros(len(_BETWEEN))))
            else:
                factors = np.maximum(1.0, centre * _PAPER_STEPS)
                options.append((factors, (np.log(factors / centre) / spread) ** 2))
        return _combinations(options)

    def _faint(self, measurement: Measurement) -> bool:
        """A paper deck's ink fainter than ``paper_min_strength`` (see :meth:`_corrected_chroma`)."""
        return not measurement.inverse and measurement.strength < self._t["paper_min_strength"]


def _combinations(options: list[tuple[np.ndarray, np.ndarray]]) -> tuple[np.ndarray, np.ndarray]:
    """Every combination of one factor per channel (combinations × channels) and what
    each costs in all, of ``options`` (per channel: its factors and their costs)."""
    factors = np.stack([g.ravel() for g in np.meshgrid(*[f for f, _ in options], indexing="ij")], axis=1)
    penalty = sum(g.ravel() for g in np.meshgrid(*[c for _, c in options], indexing="ij"))
    return factors, penalty


def _ink_saturated(measurement: Measurement, numerals_at: float = THRESHOLDS.clipped_level) -> np.ndarray:
    """(R, G, B) bools: the ink itself is as bright as the sensor records there (a pale
    ink, or a faint stroke, on saturated paper; an inverse deck's pale fill), a numeral's
    ink from ``numerals_at`` (see :meth:`InkModel._near_paper`)."""
    if measurement.inverse:
        return measurement.background[::-1] >= THRESHOLDS.clipped_level
    return (measurement.foreground * measurement.background)[::-1] >= numerals_at


def _knows_paper(measurement: Measurement) -> bool:
    """Whether the paper's blue is below saturation, the channel the others are measured against."""
    return measurement.background is not None and not measurement.clipped[2]


def sigmoid(x: float) -> float:
    """The logistic function, safe from overflow."""
    return 1.0 / (1.0 + math.exp(-max(-60.0, min(60.0, x))))


__all__ = ["InkModel", "Measurement", "Strokes", "chromaticity", "ink_against_print", "ink_on", "lab", "looks_inverse",
           "measure", "sigmoid"]
