"""The pure rules engine: presets, the referee of a game and of a session, and the
full-information game the simulator plays. No I/O, no clock, no OpenCV."""

from .errors import ACCEPTED, ErrorCode, Rejection, Verdict
from .events import DRAW, NEXT, PLACE, UNDO, Draw, Event, Next, Penalty, Place, Start, Undo
from .game import Game
from .presets import PRESETS, Preset, PresetError, get_preset
from .session import TIEBREAKS, Referee, Session, SessionRules
from .deal import Deal, IllegalMove

__all__ = [
    "ACCEPTED", "DRAW", "NEXT", "PLACE", "PRESETS", "TIEBREAKS", "UNDO", "Deal", "Draw", "ErrorCode", "Event", "Game",
    "IllegalMove", "Next", "Penalty", "Place", "Preset", "PresetError", "Referee", "Rejection", "Session",
    "SessionRules", "Start", "Undo", "Verdict", "get_preset",
]
