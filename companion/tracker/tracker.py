"""The tracker: what changed on the table, decided only on a quiet table.

The card reader says, frame by frame, which cards it sees and where; a stream's reading
also says how many frames in a row the table has shown no change (``still_frames``).
The tracker turns that into table events:

- **Quiet table.** Nothing is decided while anything moves: a hand, an arm, a card on
  its way down. A reading counts once ``quiet_frames`` frames in a row showed no change.
  A card carried over the table changes the picture every frame, so it is never laid.
- **Laid.** A card read on a quiet table that was not on the settled table was laid.
  Every frame since the picture last changed shows the same table, so a card read in any
  of them counts as read, unless the quiet frame's read found an outline where it lay.
  Its time is the first frame in which it was read where it now lies (until then it was
  on its way, or the hand hid it); ``reached_ms`` is the first frame of the movement that
  changed the picture where it lies (the stream says where each frame changed: a card
  whose place nothing had touched when NEXT was pressed came after the press);
  ``on`` is the settled card it now covers, if any:
  one whose centre lies under the new card and which is no longer seen. A settled card
  no longer seen that a new card covers only in part is taken to lie under it, not
  lifted (side by side, the next card hides a third of its neighbour).
- **Lifted.** A settled card no longer seen after a hand's movement was taken away (or
  is hidden: the referee loop decides which). A covered card that shows again where it
  lay is the one it had covered (``uncovered``), not a card laid. Without a hand
  nothing goes away: a card not read on a still table, or after a lamp or a glare
  spot changed the picture, is still there, only not read this time.
- **Moved.** A settled card read again somewhere else (a nudge, a camera bump) is the
  same card: its outline is updated, no event.
- **Read anew.** Neither a still table nor a change too brief for a hand (``hand_ms``:
  a lamp switched on, a glare spot, a bump) lays a card on another: a card read under a
  new name where a settled card is no longer seen is that card read differently, and
  keeps the name it settled with.
- **Notices** when the table cannot be judged: no play area and no card in view for
  ``no_view_ms``, or no quiet table for ``busy_ms``; and when it can be judged again.

The tracker knows nothing of the rules. It reads only known cards: an outline the
reader could not read is no evidence of anything.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol, Sequence

from ..cards import Card
from .geometry import Outline, bounds, centre, contains, intersect, outline_of, overlaps, same_place


class SeenCardLike(Protocol):
    card: Card | None
    polygon: Sequence[Sequence[float]]


class ReadingLike(Protocol):
    """What the tracker needs of a reading (``companion.vision.TableReading``)."""

    area: bool
    cards: Sequence[SeenCardLike]
    still_frames: int
    changes: Sequence[Sequence[Sequence[float]]] | None  # where the frame changed; None: everywhere


@dataclass(frozen=True)
class TrackerSettings:
    # At least the stream reader's second look (``THRESHOLDS.second_look_after``), so a
    # decision includes one more look at every place no card was read whole.
    quiet_frames: int = 3
    at_rest_share: float = 0.25  # a card moved less than this share of its width lies where it was seen
    # the shortest a hand's visit changes the picture for: from a movement's first changed
    # frame to its last (a frame lasts 100 ms at 10 fps)
    hand_ms: int = 300
    no_view_ms: int = 2000
    busy_ms: int = 10000


@dataclass(frozen=True)
class Laid:
    card: Card
    t_ms: int  # when it was first read where it lies
    on: Card | None = None  # the settled card it covers
    first_look: bool = False  # seen on the first quiet table: it may have lain there before
    # when the movement first changed the picture where the card lies (the hand that laid it
    # reaching there): a button pressed before that was pressed before the card came
    reached_ms: int | None = None
    kind = "laid"


@dataclass(frozen=True)
class Lifted:
    card: Card
    t_ms: int  # when the movement that took it began
    uncovered: Card | None = None  # the card it had covered, seen again
    kind = "lifted"


@dataclass(frozen=True)
class TableNotice:
    kind: str  # "no_view", "busy" or "clear"
    t_ms: int


TableEvent = Laid | Lifted | TableNotice


@dataclass
class _Sighting:
    outline: Outline
    t_ms: int


@dataclass
class Tracker:
    settings: TrackerSettings = field(default_factory=TrackerSettings)

    def __post_init__(self) -> None:
        self.settled: dict[Card, Outline] = {}
        self.covered: dict[Card, Outline] = {}  # cards another card was laid on, where they lay
        self.moving_since: int | None = None  # the start of a movement not yet decided
        # outlines a hand left where no card is read (a card laid that cannot be read, e.g.
        # a cup on its corner), each with when the hand first reached it; kept while they lie unread
        self.unread_laid: tuple[tuple[Outline, int | None], ...] = ()
        self.decided = False  # has any quiet table been seen?
        self._first_seen: dict[Card, _Sighting] = {}
        self._since_change: dict[Card, _Sighting] = {}  # every card read since the picture last changed
        # a movement's changed frames: where each changed (outlines with their bounds; None: everywhere)
        self._changes: list[tuple[int, list[tuple[Outline, tuple[float, float, float, float]]] | None]] = []
        self._quiet_at: int | None = None  # the last quiet reading's time
        self._changed_at = 0  # the last changed reading's time
        self._hand = False  # does the movement being decided look like a hand's?
        self._read_as: dict[Card, Card] = {}  # names settled cards were misread under
        self._view_lost_at: int | None = None
        self._notice: str | None = None  # the notice in force, if any

    @property
    def moving(self) -> bool:
        """Whether something has changed on the table that is not decided yet."""
        return self.moving_since is not None or not self.decided

    def observe(self, t_ms: int, reading: ReadingLike) -> list[TableEvent]:
        """The table events one reading decides (most readings decide nothing)."""
        outlines = [(c.card, outline_of(c.polygon)) for c in reading.cards]
        seen = {card: outline for card, outline in outlines if card is not None}
        events: list[TableEvent] = []
        self._watch_view(t_ms, reading.area or bool(reading.cards), events)
        if reading.still_frames == 0:
            self._changed_at = t_ms
            self._since_change = {}
            where = None if reading.changes is None else [outline_of(box) for box in reading.changes]
            self._changes.append((t_ms, None if where is None else [(box, bounds(box)) for box in where]))
        self._since_change.update((card, _Sighting(outline, t_ms)) for card, outline in seen.items())
        if reading.still_frames < self.settings.quiet_frames:
            if self.moving_since is None:
                self.moving_since = t_ms
            self._note_sightings(t_ms, seen)
            self._watch_busy(t_ms, events)
            return events
        seen = self._with_earlier_reads(seen, [outline for _, outline in outlines])
        unread = [outline for card, outline in outlines if card is None]
        self._note_sightings(t_ms, seen)
        self._quiet_at = t_ms
        if self._notice == "busy":
            self._set_notice("clear", t_ms, events)
        if self.moving_since is not None or not self.decided or set(seen) - set(self.settled):
            events.extend(self._decide(t_ms, seen, unread))
        return events

    # ------------------------------------------------------------------ decisions
    def _decide(self, t_ms: int, seen: dict[Card, Outline], unread: list[Outline]) -> list[TableEvent]:
        """``unread``: the outlines this frame's read could not read."""
        moved = self.moving_since is not None
        began = self.moving_since if moved else t_ms
        first_look = not self.decided
        events: list[TableEvent] = []
        self._hand = moved and self._changed_at - began >= self.settings.hand_ms
        seen = self._read_anew(seen)
        gone = [card for card, outline in self.settled.items() if card not in seen and self._hand_over(outline)]
        new = [card for card in seen if card not in self.settled]
        back = [card for card in new if card in self.covered]  # seen before, covered since
        fresh = [card for card in new if card not in self.covered]
        for card in gone:
            outline = self.settled.pop(card)
            self._read_as = {name: c for name, c in self._read_as.items() if c != card}
            under = next((c for c in back if contains(outline, centre(seen[c]))), None)
            if under is None and any(overlaps(seen[c], outline) for c in fresh):
                # a card laid now lies on it, or on part of it (side by side, the next card
                # hides a third of its neighbour): it is still there; where the new card
                # covers its centre, it is reported as that card's ``on``
                self.covered[card] = outline
                continue
            events.append(Lifted(card, began, under))
        laid = []
        for card in fresh:
            on = next((c for c in gone if c in self.covered and contains(seen[card], centre(self.covered[c]))), None)
            sighting = self._first_seen.get(card)
            # a card read where a hand had left an outline that could not be read is the card
            # that hand laid, whenever it is read (unless a hand has been there since)
            reached = next((when for outline, when in self.unread_laid
                            if same_place(outline, seen[card], self.settings.at_rest_share)
                            and not self._hand_over(outline)), None)
            laid.append(Laid(card, sighting.t_ms if sighting is not None else t_ms, on, first_look,
                             reached if reached is not None else self._reached(seen[card])))
        laid.sort(key=lambda event: event.t_ms)
        events.extend(laid)
        for card in back:
            del self.covered[card]
        self.unread_laid = self._still_unread(seen, unread)
        self.settled.update(seen)  # new cards, and the new outlines of cards nudged or seen anew
        self._first_seen = {}
        self._changes = []
        self.moving_since = None
        self.decided = True
        return events

    def _still_unread(self, seen: dict[Card, Outline], unread: list[Outline]) -> tuple:
        """The outlines a hand left that still lie unread: those of earlier movements that
        this read still finds unread where no hand has been since, and those this movement's
        hand touched."""
        share = self.settings.at_rest_share
        kept = [(outline, when) for outline, when in self.unread_laid if not self._hand_over(outline)
                and any(same_place(outline, other, share) for other in unread)]
        kept += [(outline, self._reached(outline)) for outline in unread if self._hand_over(outline)
                 and not any(same_place(outline, other, share) for other, _ in kept)]
        return tuple((outline, when) for outline, when in kept
                     if not any(same_place(outline, other, share) for other in seen.values()))

    def _touched(self, outline: Outline) -> list[int]:
        """The times of the movement's frames that changed the picture where ``outline`` lies."""
        left, top, right, bottom = bounds(outline)
        times = []
        for t_ms, where in self._changes:
            if where is None or any(b[0] <= right and b[2] >= left and b[1] <= bottom and b[3] >= top
                                    and intersect(box, outline) for box, b in where):
                times.append(t_ms)
        return times

    def _reached(self, outline: Outline) -> int | None:
        """The first frame of the movement that changed the picture where ``outline`` lies."""
        return next(iter(self._touched(outline)), None)

    def _hand_over(self, outline: Outline) -> bool:
        """Whether a hand was over ``outline`` in this movement: the picture kept changing
        for ``hand_ms``, and where the outline lies in more than one frame (a lamp switched
        on, a glare spot or a bump changes a place once, a hand comes and goes)."""
        return self._hand and len(self._touched(outline)) >= 2

    def _read_anew(self, seen: dict[Card, Outline]) -> dict[Card, Outline]:
        """``seen`` with the settled cards read under another name given their names back.

        A card read under a new name where a settled card lies, and that card no longer
        seen, is that card when no hand was over it; the name it was read under is
        remembered for it, so the same misreading later (the lamp still on) is no card laid
        either."""
        share = self.settings.at_rest_share
        unseen = [card for card in self.settled if card not in seen]
        named: dict[Card, Outline] = {}
        for card, outline in seen.items():
            if card not in self.settled:
                places = [c for c in unseen if same_place(self.settled[c], outline, share)]
                misread_for = self._read_as.get(card)
                same = misread_for if misread_for in places else None
                if same is None and places and not self._hand_over(self.settled[places[0]]):
                    same = places[0]
                    self._read_as[card] = same
                if same is not None:
                    unseen.remove(same)
                    card = same
            named[card] = outline
        return named

    def _with_earlier_reads(self, seen: dict[Card, Outline], outlines: list[Outline]) -> dict[Card, Outline]:
        """``seen``, with the cards read in an earlier frame of the same picture (since it
        last changed) where this frame's read found no outline at all: the picture is the
        same, so the card still lies there; one read missing it is no evidence it went.
        Of two names read at one place, the later stands."""
        places = list(outlines)
        seen = dict(seen)
        for card, sighting in sorted(self._since_change.items(), key=lambda item: -item[1].t_ms):
            if card in seen or any(contains(place, centre(sighting.outline)) for place in places):
                continue
            seen[card] = sighting.outline
            places.append(sighting.outline)
        return seen

    def _note_sightings(self, t_ms: int, seen: dict[Card, Outline]) -> None:
        """Remember where and since when each card not on the settled table lies."""
        for card, outline in seen.items():
            if card in self.settled:
                continue
            sighting = self._first_seen.get(card)
            if sighting is None or not same_place(sighting.outline, outline, self.settings.at_rest_share):
                self._first_seen[card] = _Sighting(outline, t_ms)

    # ------------------------------------------------------------------ notices
    def _watch_view(self, t_ms: int, in_view: bool, events: list[TableEvent]) -> None:
        if in_view:
            self._view_lost_at = None
            if self._notice == "no_view":
                self._set_notice("clear", t_ms, events)
            return
        if self._view_lost_at is None:
            self._view_lost_at = t_ms
        elif t_ms - self._view_lost_at >= self.settings.no_view_ms and self._notice != "no_view":
            self._set_notice("no_view", t_ms, events)

    def _watch_busy(self, t_ms: int, events: list[TableEvent]) -> None:
        since = self._quiet_at if self._quiet_at is not None else self.moving_since
        if since is not None and t_ms - since >= self.settings.busy_ms and self._notice is None:
            self._set_notice("busy", t_ms, events)

    def _set_notice(self, kind: str, t_ms: int, events: list[TableEvent]) -> None:
        self._notice = None if kind == "clear" else kind
        events.append(TableNotice(kind, t_ms))

