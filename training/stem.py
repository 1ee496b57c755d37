"""Rewrite the card detector's first layer for a cheaper input (run by ``train.py``).

    python training/stem.py MODEL.onnx OUT.onnx

The network's first layer, a 3 × 3 convolution with stride 2 and one pixel of zero
padding over the view scaled to -0.5…0.5 (``net.py``), computes exactly the same as a
2 × 2 convolution with stride 1 over the view cut into 2 × 2 cells (each cell's 12
values: row in the cell, column in the cell, then B, G, R) with one cell of padding
above and on the left, the scaling folded into its weights and bias. On one core
OpenCV's dnn spends about half a millisecond less a frame on that form (a 3-channel
input costs it a layout conversion as dear as the layer itself), and the cells cost
less to make than the scaled blob did: ``detect.CardDetector.maps`` builds them, the
padding as mid-grey (127.5, which the old scaling made 0).

The rewrite is exact up to float rounding: before it writes, the script runs both
models on random views with OpenCV's dnn and refuses where their outputs differ by more
than ``TOLERANCE``.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

import cv2
import numpy as np
import onnx
from onnx import numpy_helper

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from companion.vision.detect import MID_GREY, TRAINING_SIZE, view_cells  # noqa: E402

TOLERANCE = 1e-3  # the outputs are logits and offsets of order 1–10; rounding moves them by about 1e-5
# a tap of the 3 × 3 kernel (0, 1, 2: one pixel before, at, after the output's pixel
# 2i) → (the 2 × 2 kernel's tap: 0 the cell before, 1 the cell i; the row or column in that cell)
_TAP = {0: (0, 1), 1: (1, 0), 2: (1, 1)}


def cells_stem(model: onnx.ModelProto) -> onnx.ModelProto:
    """``model`` (its first node the stride-2 3 × 3 convolution over a scaled 3-channel
    view) rewritten to take the view in 2 × 2 cells (see the module's docstring)."""
    graph = model.graph
    stem = graph.node[0]
    attributes = {a.name: list(a.ints) for a in stem.attribute if a.ints}
    if (stem.op_type != "Conv" or attributes.get("kernel_shape") != [3, 3] or attributes.get("strides") != [2, 2]
            or attributes.get("pads") != [1, 1, 1, 1]):
        raise ValueError("the model's first layer is not a 3 x 3 convolution with stride 2 and padding 1")
    initializers = {i.name: i for i in graph.initializer}
    weights = numpy_helper.to_array(initializers[stem.input[1]]).astype(np.float64)
    bias = numpy_helper.to_array(initializers[stem.input[2]]).astype(np.float64)
    if weights.shape[1:] != (3, 3, 3):
        raise ValueError(f"the first layer's weights are {weights.shape}, not (outputs, 3, 3, 3)")
    cells = np.zeros((weights.shape[0], 12, 2, 2))
    for ky, (tap_y, row) in _TAP.items():
        for kx, (tap_x, column) in _TAP.items():
            cells[:, (row * 2 + column) * 3:(row * 2 + column) * 3 + 3, tap_y, tap_x] = weights[:, :, ky, kx]
    # the old input was (pixel - 127.5) / 255
    folded_bias = bias - MID_GREY / 255.0 * cells.sum(axis=(1, 2, 3))
    initializers[stem.input[1]].CopyFrom(numpy_helper.from_array((cells / 255.0).astype(np.float32), stem.input[1]))
    initializers[stem.input[2]].CopyFrom(numpy_helper.from_array(folded_bias.astype(np.float32), stem.input[2]))
    for attribute in stem.attribute:
        if attribute.name in ("kernel_shape", "strides", "pads"):
            attribute.ints[:] = {"kernel_shape": [2, 2], "strides": [1, 1], "pads": [0, 0, 0, 0]}[attribute.name]
    dims = graph.input[0].type.tensor_type.shape.dim
    dims[1].dim_value = 12
    dims[2].dim_value = dims[2].dim_value // 2 + 1
    dims[3].dim_value = dims[3].dim_value // 2 + 1
    onnx.checker.check_model(model)
    return model


def largest_difference(original: onnx.ModelProto, rewritten: onnx.ModelProto, views: int = 3) -> float:
    """The largest difference between the two models' outputs on random views of the
    training size, the original fed the scaled view and the rewritten one its cells."""
    with tempfile.TemporaryDirectory() as folder:
        nets = []
        for name, model in (("original", original), ("rewritten", rewritten)):
            path = Path(folder) / f"{name}.onnx"
            onnx.save(model, str(path))
            nets.append(cv2.dnn.readNetFromONNX(str(path)))
    width, height = TRAINING_SIZE
    largest = 0.0
    for seed in range(views):
        view = np.random.default_rng(seed).integers(0, 256, (height, width, 3), np.uint8)
        nets[0].setInput(cv2.dnn.blobFromImage(view, 1 / 255.0, mean=(MID_GREY,) * 3))
        nets[1].setInput(view_cells(view))
        largest = max(largest, float(np.abs(nets[0].forward() - nets[1].forward()).max()))
    return largest


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print(__doc__.split("\n\n")[1].strip(), file=sys.stderr)
        return 2
    source, target = argv
    original = onnx.load(source)
    try:
        rewritten = cells_stem(onnx.load(source))
    except ValueError as error:  # rewritten already, or another network
        print(f"{source}: {error}", file=sys.stderr)
        return 2
    difference = largest_difference(original, rewritten)
    if not difference <= TOLERANCE:
        print(f"the rewritten model's outputs differ from the original's by {difference:.2g}: not written",
              file=sys.stderr)
        return 1
    onnx.save(rewritten, target)
    print(f"written {target} (outputs as the original's to {difference:.1g})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
