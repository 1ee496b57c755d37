"""The card detector's network: a small fully convolutional net (about 170,000 weights).

Four stages halve the view's resolution each (to a sixteenth: a card is then about
two cells by three, and the deepest cells see a whole card with its neighbours); the
last two are brought back up to a quarter (a feature pyramid's top-down path) where
five maps are read out: the centre score and the centre's offset and the long side's
direction (see ``train.py``). Plain 3 × 3 convolutions, batch norm and ReLU: what
OpenCV's dnn runs fast on one core and imports from ONNX in every version since 4.8.
"""

import torch.nn as nn
import torch.nn.functional as F


def conv(inputs: int, outputs: int, stride: int = 1, size: int = 3, padding: int | None = None) -> nn.Sequential:
    """A convolution (padded by half its size unless told), batch norm and ReLU."""
    padding = size // 2 if padding is None else padding
    return nn.Sequential(nn.Conv2d(inputs, outputs, size, stride, padding, bias=False), nn.BatchNorm2d(outputs),
                         nn.ReLU(inplace=True))


class CardNet(nn.Module):
    """``stem``: the first layer's kernel, 3 (stride 2, padding 1) or 2 (stride 2, no
    padding: each output pixel sees its own 2 × 2 cell only, which ``stem.py`` makes a
    1 × 1 convolution over the cells, cheaper in OpenCV's dnn); ``quarter_convs``:
    convolutions at a quarter of the resolution (the first one halves it);
    ``fuse4``: a 3 × 3 convolution after the top-down path joins the quarter map."""

    def __init__(self, widths=(16, 32, 48, 64), stem: int = 3, quarter_convs: int = 2, fuse4: bool = True):
        super().__init__()
        a, b, c, d = widths
        if stem not in (2, 3):
            raise ValueError(f"a stem of kernel 3 or 2, not {stem}")
        self.halved = conv(3, a, 2, size=stem, padding=stem - 2)
        self.quarter = nn.Sequential(conv(a, b, 2), *(conv(b, b) for _ in range(quarter_convs - 1)))
        self.eighth = nn.Sequential(conv(b, c, 2), conv(c, c))
        self.sixteenth = nn.Sequential(conv(c, d, 2), conv(d, d), conv(d, d))
        self.lateral8, self.lateral16 = conv(c, b, size=1), conv(d, b, size=1)
        self.fuse8 = conv(b, b)
        self.fuse4 = conv(b, b) if fuse4 else nn.Identity()
        self.head = nn.Conv2d(b, 5, 1)
        nn.init.constant_(self.head.bias[:1], -4.6)  # centre scores start near 0.01, as in CenterNet

    def forward(self, x):
        x4 = self.quarter(self.halved(x))
        x8 = self.eighth(x4)
        x16 = self.sixteenth(x8)
        y8 = self.fuse8(self.lateral8(x8) + F.interpolate(self.lateral16(x16), scale_factor=2.0, mode="nearest"))
        y4 = self.fuse4(x4 + F.interpolate(y8, scale_factor=2.0, mode="nearest"))
        return self.head(y4)
