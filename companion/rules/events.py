"""The referee's vocabulary: immutable events, one per line of a game record.

Everything that happens at the table is one of these. The camera and the tracker
produce ``Place``; the buttons produce ``Draw``, ``Next`` and ``Undo``; the score
screen produces ``Penalty``. ``companion.record`` turns them into JSON Lines and back.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import ClassVar, Mapping, Union

from ..cards import DECK, Card


@dataclass(frozen=True, slots=True)
class Start:
    """The first line of every game: the players in clockwise seat order and the rules."""

    players: tuple[str, ...]
    rules: str = "classic"
    options: Mapping[str, object] = field(default_factory=lambda: MappingProxyType({}))
    kind: ClassVar[str] = "start"


@dataclass(frozen=True, slots=True)
class Place:
    """A card laid on the table by the player whose turn it is."""

    card: Card
    player: str | None = None
    on: Card | None = None
    kind: ClassVar[str] = "place"


@dataclass(frozen=True, slots=True)
class Draw:
    """The current player drew one card from the stock."""

    player: str | None = None
    kind: ClassVar[str] = "draw"


@dataclass(frozen=True, slots=True)
class Next:
    """The current player ends the turn (the NEXT button)."""

    player: str | None = None
    kind: ClassVar[str] = "next"


@dataclass(frozen=True, slots=True)
class Undo:
    """Take back the last accepted event of the current game."""

    kind: ClassVar[str] = "undo"


@dataclass(frozen=True, slots=True)
class Penalty:
    """After the game ended: one non-winner's penalty points."""

    player: str
    points: int
    kind: ClassVar[str] = "penalty"


Event = Union[Start, Place, Draw, Next, Undo, Penalty]
TurnEvent = Union[Place, Draw, Next]

EVENT_KINDS: Mapping[str, type] = MappingProxyType(
    {cls.kind: cls for cls in (Start, Place, Draw, Next, Undo, Penalty)}
)

# Shared instances for the common case without player or ``on``: the simulator and
# the benchmarks create millions of events, and these need no allocation.
DRAW = Draw()
NEXT = Next()
UNDO = Undo()
PLACE: Mapping[Card, Place] = MappingProxyType({c: Place(c) for c in DECK})
