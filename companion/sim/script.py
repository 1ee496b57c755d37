"""A recorded game as the camera would see it, before any pixel is drawn.

The bots play a game through the rules engine; this turns it into what happens at the
table, frame by frame: a hand enters, a card goes down, the hand leaves, the table lies
still; NEXT and DRAW are pressed; optionally a player makes a mistake and takes it back
the way people do (the card is lifted off again). Alongside come the button presses
and the truth: the game record with the time of every event.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
import numpy as np

from ..cards import Card
from ..rules.deal import Deal
from ..rules.events import Draw, Penalty, Place, Start
from ..rules.presets import Preset
from ..record import event_to_dict
from .bots import BOTS
from .layout import CardPose, Table, TableLayout

MISTAKES = ("skipped_number", "wrong_colour", "turn_over", "must_play_or_draw")

# seconds each part of a move takes
ENTER, DOWN, LEAVE, SETTLE, THINK, LOOK = 0.6, 0.2, 0.5, 0.5, 0.4, 1.2


@dataclass(frozen=True)
class Hand:
    """A hand over the table: coming in from a seat towards a point, maybe holding a card."""

    seat: int  # whose hand it is
    seat_angle: float  # radians, direction from the area's centre to the player's seat
    target: tuple[float, float]  # mm, where the fingertips are headed
    reach: float  # 0 = outside the picture at the seat's edge, 1 = at the target
    holding: CardPose | None = None


@dataclass(frozen=True)
class FrameState:
    """What one frame shows: a version of the table, plus a hand and the card it carries."""

    table: tuple[CardPose, ...]
    hand: Hand | None = None


@dataclass
class Script:
    preset: Preset
    players: tuple[str, ...]
    fps: float
    frames: list[FrameState] = field(default_factory=list)
    buttons: list[dict] = field(default_factory=list)
    truth: list[dict] = field(default_factory=list)
    opener: str | None = None
    mistakes: int = 0

    @property
    def t_ms(self) -> int:
        """The time of the next frame."""
        return round(len(self.frames) * 1000 / self.fps)

    def _count(self, seconds: float) -> int:
        return max(1, round(seconds * self.fps))

    def still(self, table: Table, seconds: float) -> None:
        self.frames.extend([FrameState(tuple(table.poses))] * self._count(seconds))

    def reach(self, table: Table, seat: int, pose: CardPose, seconds: float, coming: bool,
              holding: bool) -> None:
        """A hand moving in (or out) between its seat and a card's place, maybe carrying the card."""
        n = self._count(seconds)
        seat_angle = seat_angles(len(self.players))[seat]
        poses = tuple(table.poses)
        for i in range(n):
            progress = (i + 1) / n if coming else 1 - (i + 1) / n
            eased = 0.5 - 0.5 * math.cos(math.pi * progress)
            carried = _carried(pose, seat_angle, eased) if holding else None
            self.frames.append(FrameState(poses, Hand(seat, seat_angle, pose.centre, eased, carried)))

    def lay(self, table: Table, seat: int, pose: CardPose) -> int:
        """A card goes down; returns the time it touches the table."""
        self.reach(table, seat, pose, ENTER, coming=True, holding=True)
        table.add(pose)
        touched = self.t_ms
        resting = Hand(seat, seat_angles(len(self.players))[seat], pose.centre, 1.0)
        self.frames.extend([FrameState(tuple(table.poses), resting)] * self._count(DOWN))
        self.reach(table, seat, pose, LEAVE, coming=False, holding=False)
        self.still(table, SETTLE)
        return touched

    def lift(self, table: Table, seat: int, pose: CardPose) -> None:
        """A card taken back off the table."""
        self.reach(table, seat, pose, ENTER, coming=True, holding=False)
        table.remove(pose.card)
        self.reach(table, seat, pose, LEAVE, coming=False, holding=True)
        self.still(table, SETTLE)

    def press(self, button: str, event: dict, table: Table, before: float = THINK) -> None:
        self.still(table, before)
        self.buttons.append({"t_ms": self.t_ms, "button": button})
        self.truth.append({**event, "t_ms": self.t_ms})


def _carried(pose: CardPose, seat_angle: float, reach: float) -> CardPose:
    """Where a carried card is on its way: along the arm, turning a little."""
    distance = (1 - reach) * 400.0
    return pose.moved(math.cos(seat_angle) * distance, math.sin(seat_angle) * distance, turn=(1 - reach) * 20.0)


def seat_angles(players: int) -> list[float]:
    """Players sit around the table; seat 0 at the bottom edge of the picture, clockwise."""
    return [math.pi / 2 + 2 * math.pi * i / players for i in range(players)]


def play_script(preset: Preset, players: tuple[str, ...], seed: int, fps: float, area_mm: tuple[float, float],
                mistake_rate: float = 0.0, layout: str = "piles", bot: str = "sensible") -> tuple[Script, Table]:
    """Play one game with bots and script it for the camera. The same seed, the same script."""
    rng = np.random.default_rng(seed)
    deal = Deal(preset, players, random.Random(seed), first=0)
    game = deal.game
    bots = {name: BOTS[bot](random.Random(seed * 7919 + i)) for i, name in enumerate(players)}
    table_layout = TableLayout(preset, area_mm, rng, layout=layout)
    table = Table([table_layout.place(c, Table(), None) for c in game.table()])
    script = Script(preset, players, fps)
    script.truth.append({**event_to_dict(Start(players, preset.name)), "t_ms": 0})
    script.still(table, 1.0)
    opener_number: dict = {}

    while not game.over:
        seat = deal.seat
        moves = deal.legal_moves()
        if game.started and rng.random() < mistake_rate:
            _make_mistake(script, deal, table, table_layout, seat, rng, opener_number)
        move = bots[players[seat]].choose(deal, moves)
        event = deal.push_unchecked(move)
        script.opener = script.opener or players[seat]
        if event.__class__ is Place:
            card = event.card
            if not any(p.card.colour is card.colour for p in table.poses):
                opener_number[card.colour] = card.number
            pose = table_layout.place(card, table, opener_number.get(card.colour))
            touched = script.lay(table, seat, pose)
            script.truth.append({**event_to_dict(event), "t_ms": touched})
        else:
            script.press("draw" if event.__class__ is Draw else "next", event_to_dict(event), table)
    script.still(table, 1.5)
    for name, points in deal.penalties().items():
        if name != game.winner_name:
            script.truth.append({**event_to_dict(Penalty(name, points)), "t_ms": script.t_ms})
    return script, table


def _make_mistake(script: Script, deal: Deal, table: Table, layout: TableLayout, seat: int,
                  rng: np.random.Generator, opener_number: dict) -> None:
    """One of the family's typical mistakes, taken back at once; the referee must flag it.

    The error each mistake should draw is asked of the referee itself (a rejected
    event changes nothing), and a mistake is only made where it draws the intended code.
    """
    game = deal.game
    hand = list(deal.hand)
    fitting = [c for c in hand if game.fits(c)]
    choices: list[tuple[str, Card, CardPose | None]] = []
    if game.turn_over == "after_drawn_card":  # a second card after the drawn card was laid
        choices += [("turn_over", c, None) for c in hand]
    if not (game.placed or game.drawn or not game.stock or game.preset.free_pass):
        choices.append(("must_play_or_draw", None, None))
    choices += [("skipped_number", c, None) for c in hand if game.masks[c.row] and not game.fits(c)]
    for card in fitting:  # a fitting card, but laid on the top card of another colour
        # sorted: a set of colours iterates in hash order, which changes from run to run
        for colour in sorted({p.card.colour for p in table.poses} - {card.colour}, key=lambda c: c.index):
            top = table.top_of({p.card for p in table.poses if p.card.colour is colour})
            choices.append(("wrong_colour", card, top))
    kinds = sorted({kind for kind, _, _ in choices})
    if not kinds:
        return
    kind = kinds[int(rng.integers(len(kinds)))]
    options = [choice for choice in choices if choice[0] == kind]
    _, card, on = options[int(rng.integers(len(options)))]
    if card is None:
        verdict = game.next()
    else:
        verdict = game.place(card, on=None if on is None else on.card)
    if verdict.ok:  # cannot happen: each choice is made where the rules forbid it
        raise AssertionError(f"the referee accepted a scripted mistake ({kind})")
    if verdict.code.value != kind:
        return
    script.mistakes += 1
    if card is None:
        script.press("next", {"event": "next", "mistake": True, "error": kind}, table)
        return
    pose = layout.place(card, table, opener_number.get(card.colour), on=on)
    touched = script.lay(table, seat, pose)
    event = {"event": "place", "card": card.code, "mistake": True, "error": kind, "t_ms": touched}
    if on is not None:
        event["on"] = on.card.code
    script.truth.append(event)
    script.still(table, LOOK)
    script.lift(table, seat, pose)
