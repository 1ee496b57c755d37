"""The referee loop: tracker events and button presses → the rules engine → outputs.

One loop for ``elfer replay`` and the device (``loop.py`` tells its rules); the
outputs are one narrow interface (``outputs.py``); the inputs are frames and presses
in time order (``inputs.py``).
"""

from .inputs import ButtonIn, FrameIn, run
from .loop import BUTTONS, LoopError, LoopSettings, RefereeLoop
from .outputs import Fanout, GameView, Journal, JsonLines, Judged, Notice, Outputs
from .penalties import PenaltyEntry, PenaltyView

__all__ = ["BUTTONS", "ButtonIn", "Fanout", "FrameIn", "GameView", "Journal", "JsonLines", "Judged", "LoopError",
           "LoopSettings", "Notice", "Outputs", "PenaltyEntry", "PenaltyView", "RefereeLoop", "run"]
