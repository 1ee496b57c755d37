"""Where the play-area markers lie on the table, measured from how they look.

Families lay the four markers wherever their table has room, so the play area is not a
fixed size: what is known for certain is each marker's printed side (40 mm). From the
corners of the markers in a frame, :func:`fit_layout` finds, at once, the table plane's
mapping to the frame and each marker's place and turn on the table, so that every
marker is a 40 mm square. Table millimetres then have marker 0 (top left) at the
origin and marker 1 (top right) on the x axis.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from .markers import MARKER_SIZE_MM, PLAY_AREA_MM, corner_positions_mm, marker_image, quiet_zone_px

_HALF = MARKER_SIZE_MM / 2
_SQUARE = np.array([[-_HALF, -_HALF], [_HALF, -_HALF], [_HALF, _HALF], [-_HALF, _HALF]])
_ITERATIONS = 30
_ALIGN_SIDE_PX = 36  # the marker's square in the picture it is aligned with: about its size in a frame
# an alignment that moves a corner further, or matches worse, has slipped (a hand, glare): not used
_ALIGN_REACH_PX, _ALIGN_MIN_MATCH = 4.0, 0.8


@dataclass(frozen=True)
class MarkerLayout:
    """The four markers' centres and turns on the table (mm, degrees), and which of
    them were measured (the others are where the default layout's shape puts them)."""

    centres_mm: dict[int, tuple[float, float]]
    turns_deg: dict[int, float]
    measured: tuple[int, ...]

    @classmethod
    def default(cls, area_mm: tuple[float, float] = PLAY_AREA_MM) -> "MarkerLayout":
        centres = corner_positions_mm(area_mm)
        return cls({k: (float(x), float(y)) for k, (x, y) in centres.items()}, {k: 0.0 for k in centres}, ())

    @property
    def size_mm(self) -> tuple[float, float]:
        """(width, height) of the rectangle from the origin to the farthest centres."""
        xs, ys = zip(*self.centres_mm.values())
        return max(xs), max(ys)

    def square_mm(self, marker_id: int) -> np.ndarray:
        """The marker's four corners (its own top-left first, clockwise) in table mm."""
        turn = np.radians(self.turns_deg[marker_id])
        rotation = np.array([[np.cos(turn), -np.sin(turn)], [np.sin(turn), np.cos(turn)]])
        return _SQUARE @ rotation.T + self.centres_mm[marker_id]


def fit_layout(corners: dict[int, np.ndarray], previous: MarkerLayout | None = None) -> MarkerLayout:
    """The layout the detected markers' corners (id → 4 × 2 frame px, clockwise from the
    marker's top-left) show. At least two markers; markers not seen keep their place
    from ``previous`` (or the default layout), moved with the ones seen."""
    found = sorted(corners)
    if len(found) < 2:
        raise ValueError("a layout needs at least two markers")
    previous = previous or MarkerLayout.default()
    observed = np.concatenate([np.asarray(corners[k], np.float64).reshape(4, 2) for k in found])[None]
    params = _initial(corners, found, previous)
    params = _levenberg_marquardt(params, observed, found)
    poses = _poses(params, len(found))  # (turn, x, y) of each found marker in the first one's frame
    centres = {k: poses[i, 1:] for i, k in enumerate(found)}
    turns = {k: float(poses[i, 0]) for i, k in enumerate(found)}
    return _in_canonical_frame(centres, turns, found, previous)


def aligned_corners(grey: np.ndarray, marker_id: int, corners: np.ndarray) -> np.ndarray:
    """The marker's corners (4 × 2 frame px) refined by aligning the whole printed marker
    with the frame (OpenCV's ECC on a homography): every module edge counts, not only
    the outer four, so its size is measured well enough to scale the table by."""
    corners = np.asarray(corners, np.float64).reshape(4, 2)
    template = marker_image(marker_id, _ALIGN_SIDE_PX).astype(np.float32)
    quiet = quiet_zone_px(_ALIGN_SIDE_PX)
    square = np.float32([[quiet, quiet], [quiet + _ALIGN_SIDE_PX, quiet], [quiet + _ALIGN_SIDE_PX, quiet + _ALIGN_SIDE_PX],
                         [quiet, quiet + _ALIGN_SIDE_PX]]) - 0.5
    (x0, y0), (x1, y1) = np.maximum(np.floor(corners.min(axis=0)) - 12, 0).astype(int), np.ceil(corners.max(axis=0) + 12).astype(int)
    crop = grey[y0:y1, x0:x1].astype(np.float32)
    warp = cv2.getPerspectiveTransform(square, np.float32(corners - (x0, y0)))
    try:
        match, warp = cv2.findTransformECC(template, crop, warp.astype(np.float32), cv2.MOTION_HOMOGRAPHY,
                                       (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_COUNT, 15, 1e-4), None, 1)
    except cv2.error:  # did not converge
        return corners
    aligned = cv2.perspectiveTransform(square[None].astype(np.float64), warp.astype(np.float64))[0] + (x0, y0)
    return aligned if match >= _ALIGN_MIN_MATCH and np.abs(aligned - corners).max() <= _ALIGN_REACH_PX else corners


def _initial(corners: dict[int, np.ndarray], found: list[int], previous: MarkerLayout) -> np.ndarray:
    """A start near the answer: the seen markers at their ``previous`` places, stretched
    along each side until the squares come out 40 mm wide and high."""
    guess = previous
    for _ in range(2):
        homography = layout_homography(corners, found, guess)
        inverse = np.linalg.inv(homography)
        across, down = [], []
        for k in found:
            mm = cv2.perspectiveTransform(np.asarray(corners[k], np.float64).reshape(1, 4, 2), inverse)[0]
            across.append((np.linalg.norm(mm[1] - mm[0]) + np.linalg.norm(mm[2] - mm[3])) / 2)
            down.append((np.linalg.norm(mm[3] - mm[0]) + np.linalg.norm(mm[2] - mm[1])) / 2)
        stretch = MARKER_SIZE_MM / np.array([np.mean(across), np.mean(down)])
        guess = MarkerLayout({k: tuple(np.multiply(c, stretch)) for k, c in guess.centres_mm.items()},
                             guess.turns_deg, guess.measured)
    first = np.asarray(guess.centres_mm[found[0]])
    homography = layout_homography(corners, found, guess) @ np.array([[1, 0, first[0]], [0, 1, first[1]], [0, 0, 1]])
    homography /= homography[2, 2]
    poses = [(0.0, *(np.asarray(guess.centres_mm[k]) - first)) for k in found[1:]]
    return np.concatenate([homography.ravel()[:8], np.ravel(poses)])


def layout_homography(corners: dict[int, np.ndarray], found: list[int], layout: MarkerLayout) -> np.ndarray:
    """Table mm → frame px from the markers' corners, taking them to lie as ``layout`` says."""
    source = np.concatenate([layout.square_mm(k) for k in found]).astype(np.float32)
    target = np.concatenate([np.asarray(corners[k], np.float64).reshape(4, 2) for k in found]).astype(np.float32)
    homography, _ = cv2.findHomography(source, target, 0)
    return homography.astype(np.float64)


def _poses(params: np.ndarray, count: int) -> np.ndarray:
    """(turn, x, y) of each marker found, the first at the origin: (count, 3), or
    (batch, count, 3) for a batch of parameter vectors."""
    batch = np.atleast_2d(params)
    poses = np.concatenate([np.zeros((len(batch), 1, 3)), batch[:, 8:].reshape(len(batch), count - 1, 3)], axis=1)
    return poses if params.ndim == 2 else poses[0]


def _residuals(params: np.ndarray, observed: np.ndarray, found: list[int]) -> np.ndarray:
    """Each corner's miss in pixels, and how far the markers lie from a rectangle, for a
    batch of parameter vectors (batch, parameters) → (batch, residuals).

    The squares' own shapes tell the plane's tilt only faintly (and a lens's distortion
    bends them), so the sheet's instruction, a rectangle, is a soft prior: a marker
    ``RECTANGLE_MM`` off it weighs as much as a corner ``CORNER_PX`` off.
    """
    batch = len(params)
    homography = np.concatenate([params[:, :8], np.ones((batch, 1))], axis=1).reshape(batch, 3, 3)
    poses = _poses(params, len(found))
    cos, sin = np.cos(poses[..., 0])[..., None], np.sin(poses[..., 0])[..., None]
    x = (cos * _SQUARE[:, 0] - sin * _SQUARE[:, 1] + poses[..., 1:2]).reshape(batch, -1)
    y = (sin * _SQUARE[:, 0] + cos * _SQUARE[:, 1] + poses[..., 2:3]).reshape(batch, -1)
    u, v, w = (homography[:, row, 0:1] * x + homography[:, row, 1:2] * y + homography[:, row, 2:3] for row in range(3))
    misses = np.stack([u / w, v / w], axis=-1) - observed
    index = {k: i for i, k in enumerate(found)}
    centre = {k: poses[:, i, 1:] for k, i in index.items()}
    off = []
    if len(centre) == 4:
        off.extend((centre[0] + centre[2] - centre[1] - centre[3]).T)
    for k in range(4):  # a right angle at each corner whose neighbours were seen
        before, after = (k - 1) % 4, (k + 1) % 4
        if k in centre and before in centre and after in centre:
            a, b = centre[after] - centre[k], centre[before] - centre[k]
            off.append((a * b).sum(axis=1) / np.maximum(np.linalg.norm(a, axis=1), 1e-9))
    prior = np.stack(off, axis=1) * (CORNER_PX / RECTANGLE_MM) if off else np.empty((batch, 0))
    return np.concatenate([misses.reshape(batch, -1), prior], axis=1)


CORNER_PX, RECTANGLE_MM = 0.3, 5.0


def _levenberg_marquardt(params: np.ndarray, observed: np.ndarray, found: list[int]) -> np.ndarray:
    """Least squares over every corner: a few dozen parameters, so a numeric Jacobian,
    every column from one batched evaluation."""
    damping = 1e-3
    residual = _residuals(params[None], observed, found)[0]
    for _ in range(_ITERATIONS):
        steps = np.maximum(np.abs(params) * 1e-6, 1e-9)
        moved = _residuals(params + np.diag(steps), observed, found)
        jacobian = ((moved - residual) / steps[:, None]).T
        normal = jacobian.T @ jacobian
        gradient = jacobian.T @ residual
        while True:
            try:
                delta = np.linalg.solve(normal + damping * np.diag(np.diag(normal) + 1e-12), -gradient)
            except np.linalg.LinAlgError:
                return params
            trial = params + delta
            trial_residual = _residuals(trial[None], observed, found)[0]
            if trial_residual @ trial_residual < residual @ residual:
                improvement = residual @ residual - trial_residual @ trial_residual
                params, residual, damping = trial, trial_residual, max(damping / 10, 1e-9)
                break
            damping *= 10
            if damping > 1e9:
                return params
        if improvement < 1e-10 * (1 + residual @ residual):
            break
    return params


def _rotation(angle: float) -> np.ndarray:
    return np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])


def _rigid(source: np.ndarray, target: np.ndarray):
    """The turn (radians) and the shift that best carry ``source`` points onto ``target``
    (no scaling): target ≈ R(turn) @ source + shift."""
    s, t = source - source.mean(axis=0), target - target.mean(axis=0)
    turn = float(np.arctan2((s[:, 0] * t[:, 1] - s[:, 1] * t[:, 0]).sum(), (s * t).sum()))
    return turn, target.mean(axis=0) - _rotation(turn) @ source.mean(axis=0)


def _in_canonical_frame(centres, turns, found, previous: MarkerLayout) -> MarkerLayout:
    """The fitted places moved (turned and shifted, never scaled) so that marker 0 lies
    at the origin and marker 1 on the x axis, or, without both, so that the markers seen
    lie where ``previous`` had them; the markers not seen follow. Of three markers the
    fourth completes the rectangle they begin, before the frame is chosen: moved onto the
    sheet's example instead, a small table's markers would lie partly left of the origin,
    and the view would cut that part of the table off."""
    ids = sorted(previous.centres_mm)
    centres, turns = dict(centres), dict(turns)
    if len(found) == 3:
        (missing,) = set(ids) - set(found)
        opposite, sides = (missing + 2) % 4, [(missing + 1) % 4, (missing + 3) % 4]
        centres[missing] = np.add(centres[sides[0]], centres[sides[1]]) - np.asarray(centres[opposite])
        turns[missing] = float(np.mean([turns[k] for k in found]))
    if 0 in centres and 1 in centres:
        along = np.subtract(centres[1], centres[0])
        angle = -float(np.arctan2(along[1], along[0]))
        shift = -_rotation(angle) @ np.asarray(centres[0])
    else:
        angle, shift = _rigid(np.array([centres[k] for k in found]), np.array([previous.centres_mm[k] for k in found]))
    placed = {k: tuple(float(v) for v in _rotation(angle) @ np.asarray(c) + shift) for k, c in centres.items()}
    turned = {k: float(np.degrees(t + angle)) for k, t in turns.items()}
    if len(placed) < len(ids):  # the previous layout carried along with the markers seen
        turn, carry = _rigid(np.array([previous.centres_mm[k] for k in found]), np.array([placed[k] for k in found]))
        for k in set(ids) - set(found):
            placed[k] = tuple(float(v) for v in _rotation(turn) @ np.asarray(previous.centres_mm[k]) + carry)
            turned[k] = previous.turns_deg[k] + float(np.degrees(turn))
    return MarkerLayout(placed, turned, tuple(found))


__all__ = ["MarkerLayout", "aligned_corners", "fit_layout", "layout_homography"]
