"""A recorded game as the camera would see it, before any pixel is drawn.

The bots play a game through the rules engine; this turns it into what happens at the
table, frame by frame: a hand enters, a card goes down, the hand leaves, the table lies
still; NEXT and DRAW are pressed; optionally a player makes a mistake and takes it back
the way people do (the card is lifted off again). Alongside come the button presses
and the truth: the game record with the time of every event.

With :class:`Behaviours` the family also does what families do besides playing by the
book: two cards in one reach (and answering the companion's question about the hidden
one), NEXT pressed while the hand is still leaving, and disturbances that are not moves
(a pile nudged, the camera knocked, a lamp switched on, a glare spot, a cup set down).
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field, replace
import numpy as np

from ..cards import Card
from ..rules.deal import Deal
from ..rules.events import Draw, Penalty, Place, Start
from ..rules.game import Game
from ..rules.presets import Preset
from ..record import event_to_dict
from .bots import BOTS
from .layout import CardPose, Table, TableLayout
from .room import DISTURBANCES, Bump, Glare, Lamp, Prop, Room

MISTAKES = ("skipped_number", "wrong_colour", "turn_over", "must_play_or_draw")

# seconds each part of a move takes
ENTER, DOWN, LEAVE, SETTLE, THINK, LOOK = 0.6, 0.2, 0.5, 0.5, 0.4, 1.2
BETWEEN = 0.3  # two cards in one reach: from the first touching the table to the second
ANSWER = 0.8  # from the hand leaving the table to the family answering the companion's question


@dataclass(frozen=True)
class Behaviours:
    """What a family does besides playing by the book; a rate of 0 (or False) switches each off.

    Every choice is drawn from the game's seed. ``PLAIN`` switches all of them off (the
    episodes the benchmarks and data sets render); ``FAMILY`` is the default of
    ``write_episode`` and ``elfer synth episode``.
    """

    # chance, where a player lays a card and next the card that continues it on the same pile
    # (and the companion, seeing only the second, will ask about the first), that both go down in one reach
    two_in_one: float = 0.4
    # answer the companion's question after a skipped-number mistake that one hidden card would explain
    answers: bool = True
    # chance that a NEXT ending a turn with a card laid is pressed while the hand is still leaving
    early_next: float = 0.2
    # disturbances that are not moves, each a rate per minute of play
    nudge: float = 0.3
    bump: float = 0.25
    lamp: float = 0.2
    glare: float = 0.25
    cup: float = 0.25

    def rates(self) -> dict[str, float]:
        """The disturbances switched on, with their rates per minute."""
        return {kind: getattr(self, kind) for kind in DISTURBANCES if getattr(self, kind) > 0}


PLAIN = Behaviours(two_in_one=0.0, answers=False, early_next=0.0, nudge=0.0, bump=0.0, lamp=0.0, glare=0.0, cup=0.0)
FAMILY = Behaviours()


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
    """What one frame shows: a version of the table, plus a hand and the card it carries, and
    how the room differs from how the episode began (None: not at all)."""

    table: tuple[CardPose, ...]
    hand: Hand | None = None
    room: Room | None = None


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
    room: Room | None = None  # the room as it is now; every frame added carries it
    two_in_one: int = 0  # reaches that laid two cards
    early_next: int = 0  # NEXT presses made while the hand was still leaving
    disturbances: list[dict] = field(default_factory=list)  # what happened that was no move, for meta.json
    bumps: list[Bump] = field(default_factory=list)  # the camera's pose after each bump, in order
    _leaving: tuple[int, int, int] | None = None  # the last lay: its LEAVE frames, and the frame count after it

    @property
    def t_ms(self) -> int:
        """The time of the next frame."""
        return round(len(self.frames) * 1000 / self.fps)

    def _count(self, seconds: float) -> int:
        return max(1, round(seconds * self.fps))

    def still(self, table: Table, seconds: float) -> None:
        self.frames.extend([FrameState(tuple(table.poses), None, self.room)] * self._count(seconds))

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
            self.frames.append(FrameState(poses, Hand(seat, seat_angle, pose.centre, eased, carried), self.room))

    def lay(self, table: Table, seat: int, pose: CardPose) -> int:
        """A card goes down; returns the time it touches the table."""
        self.reach(table, seat, pose, ENTER, coming=True, holding=True)
        table.add(pose)
        touched = self.t_ms
        self._let_go(table, seat, pose)
        return touched

    def lay_two(self, table: Table, seat: int, first: CardPose, second: CardPose) -> tuple[int, int]:
        """Two cards go down in one reach, the second on the first; returns when each touches the table."""
        self.reach(table, seat, first, ENTER, coming=True, holding=True)
        table.add(first)
        touched = self.t_ms
        seat_angle = seat_angles(len(self.players))[seat]
        # the second card still in the hand, a little back along the arm, over the first
        holding = Hand(seat, seat_angle, first.centre, 1.0, _carried(second, seat_angle, 0.85))
        self.frames.extend([FrameState(tuple(table.poses), holding, self.room)] * self._count(BETWEEN))
        table.add(second)
        then = self.t_ms
        self._let_go(table, seat, second)
        return touched, then

    def _let_go(self, table: Table, seat: int, pose: CardPose) -> None:
        """The hand rests on the card just laid, leaves, and the table settles."""
        resting = Hand(seat, seat_angles(len(self.players))[seat], pose.centre, 1.0)
        self.frames.extend([FrameState(tuple(table.poses), resting, self.room)] * self._count(DOWN))
        leaving = len(self.frames)
        self.reach(table, seat, pose, LEAVE, coming=False, holding=False)
        left = len(self.frames)
        self.still(table, SETTLE)
        self._leaving = (leaving, left, len(self.frames))

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

    def answer(self, button: str, yes: bool, table: Table) -> None:
        """The family answers the companion's question (no game event: the truth has no line for it).

        Called right after a lay, whose settling is part of the wait.
        """
        self.still(table, ANSWER - SETTLE)
        self.buttons.append({"t_ms": self.t_ms, "button": button, "answer": yes})

    def just_laid(self) -> bool:
        """Whether the last thing that happened is a card laid (nothing since it settled)."""
        return self._leaving is not None and self._leaving[2] == len(self.frames)

    def press_while_leaving(self, event: dict, when: float) -> None:
        """NEXT pressed during the last lay's LEAVE, while the hand is still over the table;
        ``when`` (0 to 1) picks the frame."""
        first, end, _ = self._leaving
        # not the last LEAVE frame, where the hand has gone (unless that is the only one)
        frame = first + int(when * max(1, end - first - 1))
        t_ms = round(frame * 1000 / self.fps)
        self.buttons.append({"t_ms": t_ms, "button": "next"})
        self.truth.append({**event, "t_ms": t_ms})
        self.early_next += 1


def _carried(pose: CardPose, seat_angle: float, reach: float) -> CardPose:
    """Where a carried card is on its way: along the arm, turning a little."""
    distance = (1 - reach) * 400.0
    return pose.moved(math.cos(seat_angle) * distance, math.sin(seat_angle) * distance, turn=(1 - reach) * 20.0)


def seat_angles(players: int) -> list[float]:
    """Players sit around the table; seat 0 at the bottom edge of the picture, clockwise."""
    return [math.pi / 2 + 2 * math.pi * i / players for i in range(players)]


def play_script(preset: Preset, players: tuple[str, ...], seed: int, fps: float, area_mm: tuple[float, float],
                mistake_rate: float = 0.0, layout: str = "piles", bot: str = "sensible",
                behaviours: Behaviours = PLAIN) -> tuple[Script, Table]:
    """Play one game with bots and script it for the camera. The same seed, the same script.

    ``behaviours`` (default ``PLAIN``: none) adds what families do besides the moves. The
    bots' moves are the same with or without them.
    """
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
    # the family's choices and the room's disturbances draw from streams of their own, so that
    # switching the disturbances off leaves the same game with the same choices
    family = np.random.default_rng([seed, 0xFA3117])
    room = _Disturbances(behaviours, np.random.default_rng([seed, 0xD157B]), script, table, table_layout,
                         opener_number, area_mm)
    pending = None  # a bot's next move, chosen early to see whether it goes down in the same reach

    while not game.over:
        seat = deal.seat
        moves = deal.legal_moves()
        room.between_moves()
        if game.started and rng.random() < mistake_rate:
            _make_mistake(script, deal, table, table_layout, seat, rng, opener_number, behaviours.answers)
        move = pending if pending is not None else bots[players[seat]].choose(deal, moves)
        pending = None
        placed_before = game.placed
        follows: set[Card] = set()
        if behaviours.two_in_one > 0 and move.__class__ is Place and game.started:
            follows = _followers(game, deal, table, table_layout, move.card, opener_number)
        event = deal.push_unchecked(move)
        script.opener = script.opener or players[seat]
        if event.__class__ is Place:
            card = event.card
            if not any(p.card.colour is card.colour for p in table.poses):
                opener_number[card.colour] = card.number
            pose = table_layout.place(card, table, opener_number.get(card.colour))
            second = None
            if follows and not game.over and deal.seat == seat:
                then = bots[players[seat]].choose(deal, deal.legal_moves())
                if then.__class__ is Place and then.card in follows and family.random() < behaviours.two_in_one:
                    second = deal.push_unchecked(then)
                else:
                    pending = then
            if second is None:
                touched = script.lay(table, seat, pose)
                script.truth.append({**event_to_dict(event), "t_ms": touched})
                continue
            # the camera will see only the second card, on the first's pile, and ask about the first
            second_pose = table_layout.place(second.card, Table([*table.poses, pose]),
                                             opener_number.get(card.colour))
            touched, then_touched = script.lay_two(table, seat, pose, second_pose)
            script.truth.append({**event_to_dict(event), "t_ms": touched})
            script.truth.append({**event_to_dict(second), "t_ms": then_touched})
            script.two_in_one += 1
            script.answer("next", True, table)
        else:
            early = 1.0  # drawn whenever the game allows an early NEXT, whatever happened in the room
            if event.__class__ is not Draw and placed_before and behaviours.early_next > 0:
                early = family.random() / behaviours.early_next
            if early < 1 and script.just_laid():
                script.press_while_leaving(event_to_dict(event), early)
            else:
                script.press("draw" if event.__class__ is Draw else "next", event_to_dict(event), table)
    room.end()
    script.still(table, 1.5)
    for name, points in deal.penalties().items():
        if name != game.winner_name:
            script.truth.append({**event_to_dict(Penalty(name, points)), "t_ms": script.t_ms})
    return script, table


def _followers(game: Game, deal: Deal, table: Table, layout: TableLayout, card: Card,
               opener_number: dict) -> set[Card]:
    """The cards in the player's hand that, laid right after ``card`` on its pile, would hide it
    so that the companion asks about it: those whose hidden reading now is ``card`` alone."""
    opener = opener_number.get(card.colour)
    found = set()
    for step in (1, -1):
        number = card.number + step
        if not 1 <= number <= game.preset.highest:
            continue
        follower = Card(card.colour, number)
        if follower not in deal.hand or not layout._same_pile(card, follower, opener):
            continue
        below = table.top_of({p.card for p in table.poses if layout._same_pile(p.card, follower, opener)})
        if game.hidden_reading(follower, on=None if below is None else below.card) == (card,):
            found.add(follower)
    return found


class _Disturbances:
    """Things that happen in the room between moves and are no move: each kind comes at its
    rate per minute of play (a Poisson process in the script's time), in a still stretch."""

    def __init__(self, behaviours: Behaviours, rng: np.random.Generator, script: Script, table: Table,
                 layout: TableLayout, opener_number: dict, area_mm: tuple[float, float]):
        self.rates = behaviours.rates()
        self.rng, self.script, self.table, self.layout = rng, script, table, layout
        self.opener_number, self.area_mm = opener_number, area_mm
        self.due = {kind: self._wait(kind) for kind in self.rates}  # seconds of script time
        self.going: list[tuple[float, dict, object]] = []  # (when, its meta entry, the glare or prop that goes)
        self.lamp: Lamp | None = None

    def _wait(self, kind: str) -> float:
        return float(self.rng.exponential(60.0 / self.rates[kind]))

    def between_moves(self) -> None:
        if not self.rates:
            return
        now = self.script.t_ms / 1000
        due = [kind for kind in DISTURBANCES if kind in self.due and now >= self.due[kind]]
        if not due and not self._leaving(now):
            return
        # a moment of quiet first, so that nothing coincides with the press that came before
        self.script.still(self.table, THINK)
        self._take_away(now)
        if due:  # at most one a still stretch; another that is due waits for the next
            self.due[due[0]] = now + self._wait(due[0])
            getattr(self, f"_{due[0]}")()

    def end(self) -> None:
        now = self.script.t_ms / 1000
        if self._leaving(now):
            self.script.still(self.table, THINK)
            self._take_away(now)

    def _leaving(self, now: float) -> list[tuple[float, dict, object]]:
        return [item for item in self.going if item[0] <= now]

    def _take_away(self, now: float) -> None:
        leaving = self._leaving(now)
        if not leaving:
            return
        self.going = [item for item in self.going if item[0] > now]
        room = self.script.room
        gone = {id(thing) for _, _, thing in leaving}
        for _, entry, _ in leaving:
            entry["until_ms"] = self.script.t_ms
        self.script.room = replace(room, glares=tuple(g for g in room.glares if id(g) not in gone),
                                   props=tuple(p for p in room.props if id(p) not in gone))
        self.script.still(self.table, SETTLE)

    def _record(self, kind: str, **details) -> dict:
        entry = {"kind": kind, "t_ms": self.script.t_ms, **details}
        self.script.disturbances.append(entry)
        return entry

    def _nudge(self) -> None:
        """Someone brushes a pile: its top card, or the whole pile, slides a few mm and turns a little."""
        script, table, rng = self.script, self.table, self.rng
        tops: list[int] = []
        for index in range(len(table.poses) - 1, -1, -1):
            if not any(self._one_pile(table.poses[index].card, table.poses[top].card) for top in tops):
                tops.append(index)
        if not tops:
            return
        top = tops[int(rng.integers(len(tops)))]
        top_card = table.poses[top].card
        whole = bool(rng.random() < 0.3)
        moved = [i for i, p in enumerate(table.poses) if i == top or (whole and self._one_pile(p.card, top_card))]
        direction = rng.uniform(0, 2 * math.pi)
        distance, turn = float(rng.uniform(2, 6)), float(rng.uniform(-3, 3))
        shift = (distance * math.cos(direction), distance * math.sin(direction))
        pivot = table.poses[top].centre
        before = {i: table.poses[i] for i in moved}
        seat = int(rng.integers(len(script.players)))
        self._record("nudge", cards=[table.poses[i].card.code for i in moved],
                     shift_mm=[round(v, 2) for v in shift], turn_deg=round(turn, 2))
        script.reach(table, seat, before[top], ENTER, coming=True, holding=False)
        steps = script._count(0.2)
        seat_angle = seat_angles(len(script.players))[seat]
        for step in range(1, steps + 1):
            part = step / steps
            for i in moved:
                table.poses[i] = _turned(before[i], pivot, shift[0] * part, shift[1] * part, turn * part)
            hand = Hand(seat, seat_angle, table.poses[top].centre, 1.0)
            script.frames.append(FrameState(tuple(table.poses), hand, script.room))
        script.reach(table, seat, table.poses[top], LEAVE, coming=False, holding=False)
        script.still(table, SETTLE)

    def _one_pile(self, a: Card, b: Card) -> bool:
        return self.layout._same_pile(a, b, self.opener_number.get(a.colour))

    def _bump(self) -> None:
        """The camera is knocked: it shakes for a moment and stays turned a little for the rest of the game."""
        script, rng = self.script, self.rng
        tilt_direction, shift_direction = rng.uniform(0, 2 * math.pi, 2)
        tilt, shift = float(rng.uniform(0.4, 1.0)), float(rng.uniform(2, 6))
        delta = Bump(yaw_deg=float(rng.uniform(0.4, 1.0) * rng.choice([-1, 1])),
                     tilt_x_deg=tilt * math.cos(tilt_direction), tilt_y_deg=tilt * math.sin(tilt_direction),
                     dx_mm=shift * math.cos(shift_direction), dy_mm=shift * math.sin(shift_direction))
        room = script.room or Room()
        old = room.bump or Bump()
        self._record("bump", **delta.describe())
        angle = float(rng.uniform(0, 180))
        # it swings past its new pose and back, blurred, before it comes to rest
        for overshoot, blur in ((1.6, 9.0), (0.6, 5.0), (1.2, 2.5))[: script._count(0.3)]:
            script.room = replace(room, bump=old + delta.scaled(overshoot), shake_px=blur, shake_angle_deg=angle)
            script.still(self.table, 1 / script.fps)
        script.room = replace(room, bump=old + delta)
        script.bumps.append(old + delta)
        script.still(self.table, SETTLE)

    def _lamp(self) -> None:
        """A lamp is switched on (brighter, another colour of light), or off again."""
        script, rng = self.script, self.rng
        if self.lamp is None:  # the room's one lamp, the same each time it is switched on
            self.lamp = Lamp(float(rng.uniform(1.2, 1.5)), float(rng.uniform(1200, 2500)))
        room = script.room or Room()
        on = room.lamp is None
        self._record("lamp", on=on, **self.lamp.describe())
        script.room = replace(room, lamp=self.lamp if on else None)
        script.still(self.table, SETTLE)

    def _glare(self) -> None:
        """A glare spot appears (light catching the table); sometimes it goes again later."""
        script, rng = self.script, self.rng
        room = script.room or Room()
        if len(room.glares) >= 2:
            return
        rx = float(rng.uniform(0.03, 0.07))
        spot = Glare(float(rng.uniform(0.2, 0.8)), float(rng.uniform(0.2, 0.8)), rx,
                         rx * float(rng.uniform(0.4, 1)), float(rng.uniform(0, 180)), float(rng.uniform(0.4, 0.8)))
        entry = self._record("glare", **{name: round(value, 3) for name, value in spot._asdict().items()})
        if rng.random() < 0.5:
            self.going.append((script.t_ms / 1000 + float(rng.uniform(5, 20)), entry, spot))
        script.room = replace(room, glares=room.glares + (spot,))
        script.still(self.table, SETTLE)

    def _cup(self) -> None:
        """A cup (or a sleeve) stands at the edge of the play area for a few seconds.

        Never over a marker: it stands at least 90 mm from the area's corners.
        """
        script, rng = self.script, self.rng
        room = script.room or Room()
        width, height = self.area_mm
        side = int(rng.integers(4))  # top, right, bottom, left
        length = width if side in (0, 2) else height
        along = float(rng.uniform(90, length - 90))
        sleeve = bool(rng.random() < 0.3)
        out = float(rng.uniform(5, 30) if sleeve else rng.uniform(-10, 25))  # mm beyond the edge; inside if < 0
        centre, outward = {0: ((along, -out), -90.0), 1: ((width + out, along), 0.0),
                           2: ((along, height + out), 90.0), 3: ((-out, along), 180.0)}[side]
        if sleeve:
            prop = Prop("sleeve", centre, float(rng.uniform(80, 110)), outward + float(rng.uniform(-25, 25)),
                        tuple(int(v) for v in rng.integers(20, 200, 3)))
        else:
            ceramic = (int(rng.integers(215, 245)),) * 3 if rng.random() < 0.5 else \
                tuple(int(v) for v in rng.integers(30, 220, 3))
            prop = Prop("cup", centre, float(rng.uniform(70, 90)), float(rng.uniform(0, 360)), ceramic)
        entry = self._record("cup", **prop.describe())
        self.going.append((script.t_ms / 1000 + float(rng.uniform(3, 8)), entry, prop))
        script.room = replace(room, props=room.props + (prop,))
        script.still(self.table, SETTLE)


def _turned(pose: CardPose, pivot: tuple[float, float], dx: float, dy: float, turn: float) -> CardPose:
    """A pose turned by ``turn`` degrees about ``pivot`` and shifted (counter-clockwise as seen from above)."""
    theta = math.radians(turn)
    x, y = pose.centre[0] - pivot[0], pose.centre[1] - pivot[1]
    # y points down, so counter-clockwise on screen is this way round (as CardPose.corners)
    rx, ry = x * math.cos(theta) + y * math.sin(theta), -x * math.sin(theta) + y * math.cos(theta)
    return CardPose(pose.card, (pivot[0] + rx + dx, pivot[1] + ry + dy), pose.angle + turn, pose.upside_down)


def _make_mistake(script: Script, deal: Deal, table: Table, layout: TableLayout, seat: int,
                  rng: np.random.Generator, opener_number: dict, answers: bool = False) -> None:
    """One of the family's typical mistakes, taken back at once; the referee must flag it.

    The error each mistake should draw is asked of the referee itself (a rejected
    event changes nothing), and a mistake is only made where it draws the intended code.
    With ``answers``, a skipped number that one hidden card would explain (the companion
    asks whether it lies beneath) is answered no with BACK while the card still lies there.
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
    asked = answers and kind == "skipped_number" and bool(game.hidden_reading(card))
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
    if asked:
        script.answer("back", False, table)
        script.still(table, LOOK - (ANSWER - SETTLE))
    else:
        script.still(table, LOOK)
    script.lift(table, seat, pose)
