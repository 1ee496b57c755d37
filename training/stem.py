"""Rewrite the card detector's first layer for a cheaper input (run by ``train.py``).

    python training/stem.py MODEL.onnx OUT.onnx

The network's first layer (``net.py``) strides 2 over the view scaled to -0.5…0.5, so
it can take the view cut into 2 × 2 cells (each cell's 12 values: row in the cell,
column in the cell, then B, G, R) instead, the scaling folded into its weights and
bias:

- a 3 × 3 convolution with one pixel of zero padding computes exactly the same as a
  2 × 2 convolution with stride 1 over the cells with one cell of padding above and on
  the left;
- a 2 × 2 convolution without padding (``--stem 2``) computes exactly the same as a
  1 × 1 convolution over the cells; the model then drops the padding cells first (a
  Slice: every rewritten model takes the same cells, so the reader need not know which
  first layer it has).

On one core OpenCV's dnn spends about half a millisecond less a frame on that form (a
3-channel input costs it a layout conversion as dear as the layer itself), and the
cells cost less to make than the scaled blob did: ``detect.view_cells`` builds them,
the padding as mid-grey (127.5, which the old scaling made 0).

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
    """``model`` (its first node a stride-2 convolution over a scaled 3-channel view:
    3 × 3 with padding 1, or 2 × 2 without) rewritten to take the view in 2 × 2 cells
    (see the module's docstring)."""
    graph = model.graph
    stem = graph.node[0]
    attributes = {a.name: list(a.ints) for a in stem.attribute if a.ints}
    form = (attributes.get("kernel_shape"), attributes.get("strides"), attributes.get("pads"))
    if stem.op_type != "Conv" or form not in (([3, 3], [2, 2], [1, 1, 1, 1]), ([2, 2], [2, 2], [0, 0, 0, 0])):
        raise ValueError("the model's first layer is not a convolution with stride 2, 3 x 3 with padding 1 "
                         "or 2 x 2 without")
    size = form[0][0]
    initializers = {i.name: i for i in graph.initializer}
    weights = numpy_helper.to_array(initializers[stem.input[1]]).astype(np.float64)
    bias = numpy_helper.to_array(initializers[stem.input[2]]).astype(np.float64)
    if weights.shape[1:] != (3, size, size):
        raise ValueError(f"the first layer's weights are {weights.shape}, not (outputs, 3, {size}, {size})")
    taps = _TAP if size == 3 else {0: (0, 0), 1: (0, 1)}  # 2 x 2: every tap in the output's own cell
    cells = np.zeros((weights.shape[0], 12, size - 1, size - 1))
    for ky, (tap_y, row) in taps.items():
        for kx, (tap_x, column) in taps.items():
            cells[:, (row * 2 + column) * 3:(row * 2 + column) * 3 + 3, tap_y, tap_x] = weights[:, :, ky, kx]
    # the old input was (pixel - 127.5) / 255
    folded_bias = bias - MID_GREY / 255.0 * cells.sum(axis=(1, 2, 3))
    initializers[stem.input[1]].CopyFrom(numpy_helper.from_array((cells / 255.0).astype(np.float32), stem.input[1]))
    initializers[stem.input[2]].CopyFrom(numpy_helper.from_array(folded_bias.astype(np.float32), stem.input[2]))
    for attribute in stem.attribute:
        if attribute.name in ("kernel_shape", "strides", "pads"):
            attribute.ints[:] = {"kernel_shape": [size - 1] * 2, "strides": [1, 1], "pads": [0, 0, 0, 0]}[attribute.name]
    dims = graph.input[0].type.tensor_type.shape.dim
    dims[1].dim_value = 12
    dims[2].dim_value = dims[2].dim_value // 2 + 1
    dims[3].dim_value = dims[3].dim_value // 2 + 1
    if size == 2:  # the padding cells are for a 3 x 3 first layer: dropped before this one
        cells_input = stem.input[0]
        stem.input[0] = cells_input + "_unpadded"
        # rows and columns (axes 2 and 3) from the second on
        slicing = {"starts": [1, 1], "ends": [np.iinfo(np.int64).max] * 2, "axes": [2, 3]}
        for name, values in slicing.items():
            graph.initializer.append(numpy_helper.from_array(np.array(values, np.int64), f"{cells_input}_slice_{name}"))
        graph.node.insert(0, onnx.helper.make_node(
            "Slice", [cells_input] + [f"{cells_input}_slice_{name}" for name in slicing], [stem.input[0]]))
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
