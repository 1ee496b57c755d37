"""Train the card detector (``companion/vision/models/cards.onnx``) on rendered views.

    python training/train.py --data DATA_DIR --epochs 12 --out companion/vision/models/cards.onnx

Reads every ``*.pkl`` of ``training/render.py`` in DATA_DIR. The targets, per cell of
``detect.STRIDE`` view pixels (CenterNet, Zhou et al. 2019):

- a centre score: a Gaussian around the centre of each card of which at least
  ``REQUIRED`` shows (the cards the reader must read: the top card of every pile), its
  peak the cell the centre lies in; around cards with a corner covered (``MOSTLY``) the
  score is not trained either way; cards more covered (the cards below a pile's top
  card, the cards of a fanned row under the next) are background;
- near each such centre, the centre's offset within its cell and the long side's
  direction as (cos 2θ, sin 2θ).

The views are flipped, shifted within the input, their colour channels swapped (a red
deck becomes a blue one: the network must not learn four inks) and their brightness,
contrast and gamma varied. ``training/README.md`` has the run that made the shipped
model.
"""

from __future__ import annotations

import argparse
import math
import pickle
import random
import sys
import time
from pathlib import Path

import cv2
import numpy as np
import torch

sys.path.insert(0, str(Path(__file__).resolve().parent))
import stem  # noqa: E402
from net import CardNet  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from companion.vision.detect import STRIDE, TRAINING_SIZE  # noqa: E402

WIDTH, HEIGHT = TRAINING_SIZE
CELLS_W, CELLS_H = WIDTH // STRIDE, HEIGHT // STRIDE
# A card of which this share shows is one the reader must read (as the benchmark counts
# it). So is one whose numeral no other card covers, if at least ``SHOWN`` of it shows
# (a row's 11 with its neighbours' piles on its edges: laid before them, it must not
# vanish when they come). One with a corner under another card, or its numeral all but
# whole (``MOSTLY``, ``NUMERAL_ALL_BUT``), may be proposed or not. A card whose numeral
# another card covers in part is background, like the cards below a pile, and so is a
# card a hand covers in part: proposed, the part that shows can pass for another number
# (a fanned row's 10 read as 16, an 8 under a finger as 3).
REQUIRED, MOSTLY, SHOWN = 0.98, 0.9, 0.5
NUMERAL_WHOLE, NUMERAL_ALL_BUT = 0.01, 0.05  # share of the numeral's place other cards cover
# Where each deck's numerals have ink (share of the face's width and height, each
# number's numeral, upright or turned; measured on the templates of profiles calibrated
# for the benchmark, with 0.02 to spare): a numeral is whole when nothing lies there.
NUMERAL_PLACE = {"reference": (0.13, 0.31, 0.87, 0.75), "inverse": (0.13, 0.30, 0.87, 0.76),
                 "cream": (0.22, 0.38, 0.78, 0.66), "condensed": (0.06, 0.24, 0.94, 0.82)}
_NUMERAL_SPARE_MM = 3.0  # around a design's numeral: an underline, a dot, a wide font


def numeral_place(style: str) -> tuple[float, float, float, float]:
    """Where a style's numerals may have ink (shares of the face, upright or turned): from
    the table above, or for a deck design from where it draws its centre numeral."""
    if style in NUMERAL_PLACE:
        return NUMERAL_PLACE[style]
    from companion.sim.deck import get_style
    from companion.sim.faces import CARD_MM

    (card_w_mm, card_h_mm), deck = CARD_MM, get_style(style)
    half_w = min(deck.centre_max_width_mm / 2 + _NUMERAL_SPARE_MM + abs(deck.centre_offset_mm[0]), card_w_mm / 2)
    half_h = min(deck.centre_height_mm / 2 + _NUMERAL_SPARE_MM + abs(deck.centre_offset_mm[1]), card_h_mm / 2)
    return (0.5 - half_w / card_w_mm, 0.5 - half_h / card_h_mm, 0.5 + half_w / card_w_mm, 0.5 + half_h / card_h_mm)


COVER_PX_PER_VIEW_PX = 2  # the cover is measured on a map this much finer than the view
SIGMA_CELLS = 1.2
REGRESS_CELLS = 2.0  # offsets and direction are trained this near a centre


def card_pose(polygon: np.ndarray) -> tuple[np.ndarray, float]:
    """Centre and long-side direction (radians) of an outline (face top-left first, clockwise)."""
    long_side = (polygon[3] - polygon[0] + polygon[2] - polygon[1]) / 2
    return polygon.mean(axis=0), math.atan2(long_side[1], long_side[0])


def covers(cards: list[dict], size: tuple[int, int], style: str) -> list[tuple[float, float]]:
    """Per card (in the order they were laid: later ones on top), the share of it that the
    cards laid later leave showing, and the share of its numeral's place they cover.
    Hands are not cards: a card's labelled share less the first is what a hand covers."""
    scale = COVER_PX_PER_VIEW_PX
    ids = np.zeros((size[1] * scale, size[0] * scale), np.int32)
    for number, card in enumerate(cards, start=1):
        cv2.fillConvexPoly(ids, np.round((card["poly"] + 0.5) * scale * 16 - 0.5).astype(np.int32), number,
                           shift=4)
    result = []
    for number, card in enumerate(cards, start=1):
        corners = card["poly"]
        left, top, right, bottom = numeral_place(style)
        place = np.array([corners[0] + u * (corners[1] - corners[0]) + v * (corners[3] - corners[0])
                          for u, v in ((left, top), (right, top), (right, bottom), (left, bottom))])
        shown = []
        for outline in (corners, place):
            mask = np.zeros_like(ids, np.uint8)
            cv2.fillConvexPoly(mask, np.round((outline + 0.5) * scale * 16 - 0.5).astype(np.int32), 1, shift=4)
            inside = mask.astype(bool)
            shown.append(np.count_nonzero(ids[inside] == number) / max(np.count_nonzero(inside), 1))
        result.append((shown[0], 1.0 - shown[1]))
    return result


def target_kind(card: dict, cards_leave: float, numeral_covered: float) -> str:
    """"card" (to propose), "either" (not trained) or "background"."""
    share = card["share"]
    hand = cards_leave - share > 0.01
    if share >= REQUIRED or (share >= SHOWN and not hand and numeral_covered <= NUMERAL_WHOLE):
        return "card"
    if not hand and (share >= MOSTLY or (share >= SHOWN and numeral_covered <= NUMERAL_ALL_BUT)):
        return "either"
    return "background"


def targets(cards: list[dict], kinds: list[str], transform) -> tuple[np.ndarray, ...]:
    """(centre score, not-trained mask, regression targets (4), regression weights) on the cell grid."""
    heat = np.zeros((CELLS_H, CELLS_W), np.float32)
    untrained = np.zeros_like(heat)
    regress = np.zeros((4, CELLS_H, CELLS_W), np.float32)
    weight = np.zeros_like(heat)
    rows, columns = np.mgrid[0:CELLS_H, 0:CELLS_W]
    for card, kind in zip(cards, kinds):
        centre, theta = card_pose(transform(card["poly"]))
        gx, gy = centre / STRIDE
        if not (0 <= gx < CELLS_W and 0 <= gy < CELLS_H):
            continue
        distance2 = (columns + 0.5 - gx) ** 2 + (rows + 0.5 - gy) ** 2
        if kind == "card":
            heat = np.maximum(heat, np.exp(-distance2 / (2 * SIGMA_CELLS ** 2)))
            heat[int(gy), int(gx)] = 1.0
            near = distance2 <= REGRESS_CELLS ** 2
            regress[0][near], regress[1][near] = (gx - columns)[near], (gy - rows)[near]
            regress[2][near], regress[3][near] = math.cos(2 * theta), math.sin(2 * theta)
            weight[near] = np.maximum(weight[near], np.exp(-distance2[near] / 2))
        elif kind == "either":
            untrained[distance2 <= 9.0] = 1.0
    untrained[heat > 0.5] = 0.0
    return heat, untrained, regress, weight


def example(record: dict, augment: bool) -> tuple[np.ndarray, ...]:
    # a view of markers measured a millimetre or two further apart than the sheet's
    # example is a pixel larger than the training size: its far edge is margin, cut off
    image = record["image"][:HEIGHT, :WIDTH]
    height, width = image.shape[:2]
    flip_x = flip_y = False
    dx = dy = 0
    if augment:
        flip_x, flip_y = random.random() < 0.5, random.random() < 0.5
        image = image[::-1 if flip_y else 1, ::-1 if flip_x else 1]
        dx, dy = random.randint(0, WIDTH - width), random.randint(0, HEIGHT - height)

    def transform(polygon):
        polygon = polygon.copy()
        if flip_x:
            polygon[:, 0] = width - 1 - polygon[:, 0]
        if flip_y:
            polygon[:, 1] = height - 1 - polygon[:, 1]
        return polygon + (dx, dy)

    canvas = np.pad(np.ascontiguousarray(image), ((dy, HEIGHT - height - dy), (dx, WIDTH - width - dx), (0, 0)),
                    mode="edge").astype(np.float32) / 255.0
    if augment:
        if random.random() < 0.5:
            canvas = canvas[:, :, np.random.permutation(3)]
        if random.random() < 0.15:
            canvas = np.repeat(canvas.mean(axis=2, keepdims=True), 3, axis=2)
        canvas = np.clip(canvas * random.uniform(0.7, 1.3) + random.uniform(-0.1, 0.1), 0, 1)
        canvas = canvas ** random.uniform(0.7, 1.4)
    return (canvas.transpose(2, 0, 1) - 0.5, *targets(record["cards"], record["kinds"], transform))


def loss(out: torch.Tensor, heat, untrained, regress, weight) -> tuple[torch.Tensor, float, float]:
    """CenterNet's focal loss on the centre score, L1 on offsets and direction."""
    p = torch.sigmoid(out[:, 0]).clamp(1e-4, 1 - 1e-4)
    peak = (heat >= 1.0).float()
    trained = 1.0 - untrained
    positive = -((1 - p) ** 2 * torch.log(p) * peak).sum()
    negative = -((1 - heat) ** 4 * p ** 2 * torch.log(1 - p) * (1 - peak) * trained).sum()
    centre_loss = (positive + negative) / peak.sum().clamp(min=1)
    regress_loss = ((out[:, 1:5] - regress).abs().sum(1) * weight).sum() / weight.sum().clamp(min=1)
    return centre_loss + regress_loss, centre_loss.item(), regress_loss.item()


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, required=True)
    parser.add_argument("--epochs", type=int, default=12)
    parser.add_argument("--batch", type=int, default=16)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--widths", type=int, nargs=4, default=(16, 32, 48, 64),
                        help="channels at a half, a quarter, an eighth and a sixteenth of the view's resolution")
    parser.add_argument("--stem", type=int, choices=(2, 3), default=3,
                        help="the first layer's kernel (stride 2): 3, or 2 (each output pixel sees its own 2 x 2 cell)")
    parser.add_argument("--quarter-convs", type=int, choices=(1, 2), default=2,
                        help="convolutions at a quarter of the view's resolution")
    parser.add_argument("--fuse4", action=argparse.BooleanOptionalAction, default=True,
                        help="a 3 x 3 convolution where the top-down path joins the quarter map")
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    random.seed(args.seed)
    np.random.seed(args.seed)
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    records = []
    for chunk in sorted(args.data.glob("*.pkl")):
        records += pickle.loads(chunk.read_bytes())
    for record in records:
        height, width = record["image"].shape[:2]
        shown = covers(record["cards"], (width, height), record["style"])
        record["kinds"] = [target_kind(card, *cover) for card, cover in zip(record["cards"], shown)]
    kinds = [kind for record in records for kind in record["kinds"]]
    print(f"{len(records)} views from {args.data}: " + ", ".join(
        f"{kinds.count(kind)} {kind}" for kind in ("card", "either", "background")), flush=True)
    model = CardNet(tuple(args.widths), args.stem, args.quarter_convs, args.fuse4)
    steps = args.epochs * (len(records) // args.batch)
    optimiser = torch.optim.AdamW(model.parameters(), 2e-3, weight_decay=1e-4)
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimiser, 3e-3, total_steps=steps, pct_start=0.1)
    started = time.time()
    for epoch in range(args.epochs):
        random.shuffle(records)
        model.train()
        centre_sum = regress_sum = 0.0
        batches = len(records) // args.batch
        for b in range(batches):
            batch = [example(r, augment=True) for r in records[b * args.batch:(b + 1) * args.batch]]
            tensors = [torch.from_numpy(np.stack(column).astype(np.float32)) for column in zip(*batch)]
            total, centre_loss, regress_loss = loss(model(tensors[0]), *tensors[1:])
            optimiser.zero_grad()
            total.backward()
            optimiser.step()
            schedule.step()
            centre_sum += centre_loss
            regress_sum += regress_loss
        print(f"epoch {epoch + 1}/{args.epochs}: centre {centre_sum / batches:.4f}, "
              f"offset and direction {regress_sum / batches:.4f} ({time.time() - started:.0f} s)", flush=True)
        torch.save(model.state_dict(), args.out.with_suffix(".pt"))
    model.eval()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    trained = args.out.with_suffix(".trained.onnx")
    torch.onnx.export(model, torch.zeros(1, 3, HEIGHT, WIDTH), str(trained), opset_version=13, dynamo=False,
                      input_names=["view"], output_names=["maps"])
    return stem.main([str(trained), str(args.out)])  # the first layer rewritten for the product's input


if __name__ == "__main__":
    sys.exit(main())
