"""Where the cards lie: a small convolutional network proposes every fully visible card.

An edge-based search (``companion.bench.search``, with ``find.py``) refines dozens of
outlines a frame and lets the reader reject most of them, a tenth of a second and more
on one core. A network that has seen tens of thousands of rendered tables answers the
same question in one pass over a coarse top-down view (0.5 px/mm): for each fully
visible card, the top card of every pile included, where its centre lies and how its
long side is turned. The reader then reads each proposal as it reads any outline, and
decides whether a card is read whole.

The network (``models/cards.onnx``, trained by ``training/train.py`` on scenes of the
synthetic table with the four styles and the training deck designs, see
``training/README.md``) runs on OpenCV's ``dnn`` module, which
every OpenCV 4.8–5.x wheel has: no other runtime. It sees the BGR view padded by its own
border to a multiple of 16 pixels (it was trained on the whole view padded to
``TRAINING_SIZE``; being fully convolutional it takes any size, so a reader that wants
cards only around some places gives it just those), cut into 2 × 2 cells of 12 values
each with one cell of mid-grey above and on the left (``training/stem.py`` rewrote its
first layer for that form, half a millisecond cheaper than the scaled view it was
trained on); its output, every ``STRIDE`` pixels, is a centre score (a logit), the
centre's offset within the cell (in cells) and the long side's direction as (cos 2θ,
sin 2θ): a card turned by 180° is the same outline, which way up it lies is the
reader's to tell.
"""

from __future__ import annotations

import logging
import math
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from .area import AreaView
from .find import CARD_MM, LookIn
from .thresholds import THRESHOLDS

log = logging.getLogger(__package__)

MODEL = Path(__file__).with_name("models") / "cards.onnx"
VIEW_PX_PER_MM = 0.5
TRAINING_SIZE = (352, 272)  # (width, height): the default view (680 × 530 mm at 0.5 px/mm) padded
STRIDE = 4
MULTIPLE = 16  # the network halves its input four times
MID_GREY = 127.5  # the view's level the network's padding stands for


class DetectorError(RuntimeError):
    """The card detector's model is missing or unusable."""


@dataclass(frozen=True)
class Proposal:
    """One card the network sees: its outline (corners clockwise on screen, starting at
    any corner) in the view's and in the frame's pixels, and the centre's score (0–1)."""

    corners_view: np.ndarray
    corners_frame: np.ndarray
    score: float


class CardDetector:
    """Proposes card outlines in mapped views; one instance serves any number of frames."""

    def __init__(self, model: str | Path = MODEL, min_score: float = THRESHOLDS.proposal_min_score):
        model = Path(model)
        if not model.is_file():
            raise DetectorError(f"card detector model not found: {model}")
        try:
            self.net = cv2.dnn.readNetFromONNX(str(model))
        except cv2.error as error:
            raise DetectorError(f"card detector model {model} cannot be loaded: {error}") from error
        self.min_score = float(min_score)
        # a model whose first layer was not rewritten (training/stem.py) fails here, or
        # (OpenCV 5 takes 12 channels for 3) answers in the wrong shape
        side = 2 * MULTIPLE
        try:
            shape = self.maps(np.zeros((side, side, 3), np.uint8)).shape
        except cv2.error as error:
            shape = error
        if shape != (5, side // STRIDE, side // STRIDE):
            raise DetectorError(f"card detector model {model} does not take the view in 2 x 2 cells "
                                f"(a model rewritten by training/stem.py does): {shape}")
        log.info("card detector model %s loaded", model)

    def maps(self, coarse: np.ndarray) -> np.ndarray:
        """The network's raw output for a coarse view (BGR at ``VIEW_PX_PER_MM``):
        (5, ⌈height / 16⌉ * 16 / STRIDE, ⌈width / 16⌉ * 16 / STRIDE)."""
        height, width = coarse.shape[:2]
        padded = cv2.copyMakeBorder(coarse, 0, -height % MULTIPLE, 0, -width % MULTIPLE, cv2.BORDER_REPLICATE)
        self.net.setInput(view_cells(padded))
        return self.net.forward()[0]

    def detect(self, view: AreaView, look_in: LookIn | None = None) -> list[Proposal]:
        """Every card proposed in a mapped view, most sure first (none without a
        mapping); with ``look_in``, only around the places it marks (and then some)."""
        if not view.mapped:
            return []
        coarse, scale = view.resampled(VIEW_PX_PER_MM)
        left = top = 0
        if look_in is not None:
            # a card centred at the edge of a place looked at lies whole in the view, with its surroundings
            left, top, right, bottom = look_in.box(scale, THRESHOLDS.detector_context_mm * VIEW_PX_PER_MM)
            # on the whole view's grid of 16 pixels: the network then sees every card as it does there
            left, top = max(left, 0) // MULTIPLE * MULTIPLE, max(top, 0) // MULTIPLE * MULTIPLE
            coarse = coarse[top:bottom, left:right]
            if not coarse.size:
                return []
        poses = decode(self.maps(coarse), self.min_score)
        proposals = []
        for x, y, theta, score in poses:
            corners_coarse = card_corners(x + left, y + top, theta, VIEW_PX_PER_MM)
            corners_view = (corners_coarse + 0.5) * scale - 0.5
            proposals.append(Proposal(corners_view, view.view_to_frame(corners_view), score))
        return proposals


def decode(maps: np.ndarray, min_score: float) -> list[tuple[float, float, float, float]]:
    """(x, y, θ of the long side, score) in input pixels for every local maximum of the
    centre score above ``min_score``, highest first."""
    logits = maps[0]
    peaks = (logits >= cv2.dilate(logits, np.ones((3, 3), np.uint8))) & (logits > _logit(min_score))
    rows, columns = np.nonzero(peaks)
    poses = []
    for row, column in zip(rows, columns):
        x = (column + float(maps[1, row, column])) * STRIDE
        y = (row + float(maps[2, row, column])) * STRIDE
        theta = 0.5 * math.atan2(float(maps[4, row, column]), float(maps[3, row, column]))
        poses.append((x, y, theta, _sigmoid(float(logits[row, column]))))
    poses.sort(key=lambda pose: -pose[3])
    return poses


def card_corners(x: float, y: float, theta: float, px_per_mm: float) -> np.ndarray:
    """The corners (4 × 2, clockwise on screen) of a card centred on (x, y) whose long side
    runs at ``theta`` (radians from the x axis)."""
    half_w, half_h = CARD_MM[0] * px_per_mm / 2, CARD_MM[1] * px_per_mm / 2
    along = np.array([math.cos(theta), math.sin(theta)])  # long side
    across = np.array([-along[1], along[0]])
    centre = np.array([x, y])
    return np.array([centre - half_h * along + half_w * across, centre - half_h * along - half_w * across,
                     centre + half_h * along - half_w * across, centre + half_h * along + half_w * across])


def view_cells(view: np.ndarray) -> np.ndarray:
    """The network's input for a BGR view of even sides: its 2 × 2 cells as 12 channels
    (row in the cell, column in the cell, B, G, R), one cell of mid-grey above and on the
    left (the zero padding of the layer ``training/stem.py`` rewrote)."""
    height, width = view.shape[0] // 2, view.shape[1] // 2
    cells = np.ascontiguousarray(view.reshape(height, 2, width, 2, 3).transpose(1, 3, 4, 0, 2))
    blob = np.full((1, 12, height + 1, width + 1), MID_GREY, np.float32)
    blob[0, :, 1:, 1:] = cells.reshape(12, height, width)
    return blob


def _sigmoid(value: float) -> float:
    return 1.0 / (1.0 + math.exp(-value))


def _logit(p: float) -> float:
    return math.log(p / (1.0 - p))


__all__ = ["CardDetector", "DetectorError", "Proposal", "card_corners", "decode", "view_cells"]
