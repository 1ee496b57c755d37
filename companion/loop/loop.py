"""The referee loop: table events and button presses in, verdicts and notices out.

One loop serves ``elfer replay``, ``elfer demo`` and ``elfer run``: it is handed the
readings of a camera's frames and the button presses, each with its time, and drives
the rules engine's :class:`~companion.rules.Referee`. ``docs/loop.md`` tells the rules
it follows; in short:

- **Order.** Events are judged in the order they happened at the table. A card belongs
  to the turn during which it touched the table: a button pressed while the table is
  moving (a hand still leaving) counts after the cards that movement laid.
- **A card laid** is judged as the tracker saw it (``on``: the card it covers). Where
  only the top card of a pile shows and one missing card beneath it would make it
  legal (R13 where R11 lay: R12 and R13 in one reach), the loop asks ("Rot 12
  darunter?"): NEXT says yes and both are counted, BACK says no and the card is
  judged as it lies. Unanswered, the next card or DRAW takes the legal reading, and a
  notice says so.
- **A card taken back**: a rejected card lifted clears the alert; the last card counted,
  lifted again, is taken back (undo). Any other card that goes missing is left to the
  desync check.
- **Desync.** When the table and the referee disagree on a quiet table for
  ``desync_ms``, a notice names what the referee expects at each row end that differs;
  another says when they match again. Nothing is changed by it.
- **Buttons.** NEXT ends the turn, DRAW records one drawn card, BACK takes back the
  last accepted event; while a question is open, NEXT and BACK answer it.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field

from ..cards import Card
from ..rules import DRAW, NEXT, UNDO, Event, Place, Referee, Start, Undo, Verdict
from ..tracker import Laid, Lifted, TableNotice, Tracker, TrackerSettings
from ..tracker.tracker import ReadingLike
from .outputs import GameView, Judged, Notice, Outputs
from .penalties import PenaltyEntry

BUTTONS = ("next", "draw", "back")
HELD = ("draw_repeat",)  # DRAW held: counts up by tens while penalty points are entered
log = logging.getLogger(__package__)


class LoopError(ValueError):
    """The loop cannot begin: the game's start was rejected."""


@dataclass(frozen=True)
class LoopSettings:
    tracker: TrackerSettings = field(default_factory=TrackerSettings)
    desync_ms: int = 3000
    # how long NEXT without a card counted waits, while a card a hand laid cannot be read,
    # for that card to be read (a cup taken off its corner, the card straightened)
    unread_wait_ms: int = 10000


@dataclass
class _Question:
    hidden: Card  # the card asked about
    card: Card  # the card seen on top of it
    on: Card | None
    t_ms: int  # when the card touched the table
    asked_ms: int  # when the question was put: only a press after it answers it


class RefereeLoop:
    def __init__(self, start: Start, outputs: Outputs, settings: LoopSettings | None = None,
                 opener: str | None = None):
        """``opener``: who lays the first card, where the rules let the first card decide
        who begins (the camera cannot see whose hand it is; the device asks)."""
        self.settings = settings or LoopSettings()
        if opener is not None and opener not in start.players:
            raise LoopError(f"the opener {opener!r} is not one of the players")
        self.opener = opener
        self.referee = Referee()
        verdict = self.referee.push(start)
        if not verdict.ok:
            raise LoopError(verdict.message("en"))
        self.outputs = outputs
        self.start = start
        outputs.verdict(Judged(0, 0, "setup", start, verdict, None, self.game.current_player))
        self.now = 0
        self._begin()

    def _begin(self) -> None:
        """A fresh table for the game just started."""
        self.tracker = Tracker(self.settings.tracker)
        self._entry = PenaltyEntry(self.game)
        self._unread_shown = 0  # unread cards the penalty screen last counted
        self._deferred: list[tuple[int, str]] = []  # buttons pressed while the table moved
        # NEXT held while a card laid could not be read, and everything after it, in order
        self._held: list[tuple[int, str | Laid | Lifted]] = []
        self._accepted: list[Event] = []  # what BACK and a lifted card may take back
        self._rejected: set[Card] = set()  # rejected cards still lying on the table
        self._alert: tuple[str, Card | None] | None = None  # (error code, the card it is about)
        self._question: _Question | None = None
        self._mismatch_since: int | None = None
        self._desync_shown = False
        self.outputs.state(self.view())  # the screen before the first card: whose turn, every hand

    @property
    def game(self):
        return self.referee.game

    # ------------------------------------------------------------------ inputs
    def frame(self, t_ms: int, reading: ReadingLike) -> None:
        """One camera frame's reading, at its time."""
        self.now = t_ms
        for event in self.tracker.observe(t_ms, reading):
            log.debug("%d ms: %s", t_ms, event)
            if isinstance(event, Laid):
                if event.reached_ms is not None:  # else a card read late: no movement reached it
                    self._press_deferred(before=event.reached_ms)
                if self._held:
                    self._held.append((event.t_ms if event.reached_ms is None else event.reached_ms, event))
                else:
                    self._laid(event)
            elif isinstance(event, Lifted):
                if self._held:
                    self._held.append((event.t_ms, event))
                else:
                    self._lifted(event)
            elif isinstance(event, TableNotice):
                self._notice(Notice(event.t_ms, event.kind))
        if self.game.over and self._entry.player is not None and len(self.tracker.unread_laid) != self._unread_shown:
            self._unread_shown = len(self.tracker.unread_laid)
            self.outputs.state(self.view())  # a card laid for counting that cannot be read: say so
        if not self.tracker.moving:
            self._press_deferred()
            if self._held and (not self.tracker.unread_laid
                               or t_ms - self._held[0][0] >= self.settings.unread_wait_ms):
                self._release_held()
            self._check_sync(t_ms)

    def _press_deferred(self, before: int | None = None) -> None:
        """Judge the buttons pressed while the table moved: all of them, or those pressed
        no later than ``before``, the time a hand first reached where a card now lies (a card whose
        place nothing had touched when NEXT was pressed is the next player's)."""
        due = [press for press in self._deferred if before is None or press[0] <= before]
        self._deferred = self._deferred[len(due):]  # presses are deferred in time order
        for t_ms, name in due:
            self._press(t_ms, name)

    def button(self, t_ms: int, name: str) -> None:
        """A short press of NEXT, DRAW or BACK, or DRAW held (``draw_repeat``)."""
        if name not in BUTTONS + HELD:
            raise ValueError(f"unknown button {name!r}: expected one of {', '.join(BUTTONS + HELD)}")
        self.now = max(self.now, t_ms)
        if self.tracker.moving and self.tracker.decided:
            self._deferred.append((t_ms, name))
        else:
            self._press(t_ms, name)

    def set_up(self, start: Start, t_ms: int) -> bool:
        """New players, rules or session from the setup menu: at once while nothing has been
        played in this session (True), else from the next session on (False)."""
        self.start = start
        if self.game.started or len(self.referee.session.games) > 1:
            return False
        referee = Referee()
        verdict = referee.push(start)
        if not verdict.ok:
            raise LoopError(verdict.message("en"))
        self.referee, self.opener = referee, None
        self.outputs.verdict(Judged(t_ms, self.now, "button", start, verdict, None, self.game.current_player))
        self._begin()
        return True

    def look_again(self) -> None:
        """The camera was away (play went on with the buttons): what lies on the table when
        it is back is taken as it is, not as cards laid now; the desync check names what
        differs from the count."""
        self.tracker = Tracker(self.settings.tracker)

    def finish(self, t_ms: int) -> None:
        """The end of the input: buttons still waiting are judged, an open question takes
        the legal reading."""
        self.now = max(self.now, t_ms)
        self._press_deferred()
        if self._held:
            self._release_held()
        if self._question is not None:
            self._assume(t_ms)

    # ------------------------------------------------------------------ the table
    def _laid(self, event: Laid) -> None:
        game, card = self.game, event.card
        if game.over and not game.on_table(card) and not event.first_look:
            if self._entry.laid(card):  # a card of a hand, laid to be counted
                self.outputs.state(self.view())
            return
        if game.on_table(card) or card in self._rejected or event.first_look or game.over:
            return  # seen again, already judged, lying there before, or after the game
        if self._question is not None:
            if self._question.card is card:
                return
            self._assume(event.t_ms)
        if event.on in self._rejected:  # laid where a rejected card lay: that one was taken away
            self._lifted(Lifted(event.on, event.t_ms))
        on = event.on if event.on is not None and game.on_table(event.on) else None
        hidden = game.hidden_reading(card, on=on)
        if hidden:
            self._question = _Question(hidden[0], card, on, event.t_ms, self.now)
            self._notice(Notice(self.now, "question", {"cards": [hidden[0].code], "card": card.code}))
            return
        self._judge(event.t_ms, "camera", self._place(card, on))

    def _place(self, card: Card, on: Card | None) -> Place:
        """The placement, naming the opener where it opens the game."""
        player = self.opener if not self.game.started else None
        return Place(card, player, on)

    def _lifted(self, event: Lifted) -> None:
        card = event.card
        if self.game.over and not self.game.on_table(card):  # a card laid to be counted, taken away
            if self._entry.lifted(card):
                self.outputs.state(self.view())
            return
        if card in self._rejected:
            self._rejected.discard(card)
            if self._alert is not None and self._alert[1] is card:
                self._alert = None
            self._notice(Notice(event.t_ms, "withdrawn", {"card": card.code}))
        elif self._question is not None and self._question.card is card:
            self._question = None
            self._notice(Notice(event.t_ms, "withdrawn", {"card": card.code}))
        elif self._taken_back(event):
            if self._judge(event.t_ms, "camera", UNDO).ok:
                self._notice(Notice(event.t_ms, "taken_back", {"card": card.code}))

    def _taken_back(self, event: Lifted) -> bool:
        """Whether a lifted card was taken back: it was the last card counted, and the card
        it was laid on shows again. A card that merely went out of view (a cup, a sleeve)
        leaves the card beneath it hidden too."""
        last = self._accepted[-1] if self._accepted else None
        return (isinstance(last, Place) and last.card is event.card and last.on is not None
                and last.on is event.uncovered)

    # ------------------------------------------------------------------ buttons
    def _press(self, t_ms: int, name: str, release: bool = False) -> None:
        if self.game.over and not (name == "back" and self._entry.untouched):
            self._enter_penalty(t_ms, name)
            return
        if name in HELD:
            return  # DRAW held during a turn draws nothing: a draw is a short press
        if self._held:
            self._held.append((t_ms, name))  # after a held NEXT: judged in order, when it is
            return
        question = self._question
        if question is not None and name in ("next", "back") and t_ms >= question.asked_ms:
            self._question = None
            if name == "next":
                self._count_beneath(question, t_ms, "answered")
            else:
                self._judge(question.t_ms, "camera", self._place(question.card, question.on))
            return
        if question is not None:
            self._assume(t_ms)
        if name == "back" and self._rejected:
            # with a rejected card still lying, BACK means that card, not the last one counted
            card = min(self._rejected, key=lambda c: c.code)
            self._notice(Notice(t_ms, "lift_first", {"card": card.code}))
            return
        if name == "next" and not release and self.tracker.unread_laid and self._next_refused():
            # the player may have laid the card that cannot be read: wait for it, do not accuse
            self._notice(Notice(t_ms, "unread"))
            self._held.append((t_ms, name))
            return
        self._judge(t_ms, "button", {"next": NEXT, "draw": DRAW, "back": UNDO}[name])

    def _enter_penalty(self, t_ms: int, name: str) -> None:
        if name == "next" and self.game.penalties_complete:
            self._next_game(t_ms)
            return
        event = self._entry.press(name)
        if event is None:
            self.outputs.state(self.view())
        elif self._judge(t_ms, "button", event).ok:
            self._entry.entered()
            self.outputs.state(self.view())

    def _next_game(self, t_ms: int) -> None:
        """NEXT once every penalty is in: the session's next game (its deciding game, where
        the leaders tied and the rules say so), or a new session once this one is over."""
        session = self.referee.session
        players = tuple(session.playoff_pending or session.players) if not session.over else self.start.players
        start = Start(players, self.start.rules, self.start.options)
        verdict = self.referee.push(start)
        self.outputs.verdict(Judged(t_ms, self.now, "button", start, verdict, None, self.game.current_player))
        if verdict.ok:
            self.opener = None  # who opens this game only the first card tells
            self._begin()

    def _next_refused(self) -> bool:
        """Whether NEXT now would be refused because the player has neither laid nor drawn
        (tried and taken back, as ``Game.hidden_reading`` tries a card)."""
        game = self.game
        verdict = game.next()
        if verdict.ok:
            game.undo()
        return not verdict.ok and verdict.code.value == "must_play_or_draw"

    def _release_held(self) -> None:
        """Judge what waited, in the order it happened: a card counts before a press made
        after a hand first reached its place."""
        held, self._held = sorted(self._held, key=lambda item: (item[0], not isinstance(item[1], str))), []
        for t_ms, item in held:
            if isinstance(item, Laid):
                self._laid(item)
            elif isinstance(item, Lifted):
                self._lifted(item)
            else:
                self._press(t_ms, item, release=True)

    def _assume(self, t_ms: int) -> None:
        question, self._question = self._question, None
        self._count_beneath(question, t_ms, "assumed")

    def _count_beneath(self, question: _Question, t_ms: int, kind: str) -> None:
        self._notice(Notice(t_ms, kind, {"cards": [question.hidden.code]}))
        if self._judge(question.t_ms, "camera", self._place(question.hidden, question.on)).ok:
            self._judge(question.t_ms, "camera", Place(question.card, on=question.hidden))

    # ------------------------------------------------------------------ verdicts
    def _judge(self, t_ms: int, source: str, event: Event) -> Verdict:
        player = getattr(event, "player", None) or self.game.current_player
        verdict = self.referee.push(event)
        if verdict.ok:
            if isinstance(event, Undo):
                self._accepted.pop()
            else:
                self._accepted.append(event)
            if self._alert is not None and self._alert[1] is None:
                self._alert = None  # a button's mistake is over once something is accepted
        else:
            card = event.card if isinstance(event, Place) else None
            if card is not None:
                self._rejected.add(card)
            self._alert = (verdict.code.value, card)
        self.outputs.verdict(Judged(t_ms, self.now, source, event, verdict, player, self.game.current_player))
        self.outputs.state(self.view())
        return verdict

    def _notice(self, notice: Notice) -> None:
        self.outputs.notice(notice)
        self.outputs.state(self.view())

    def view(self) -> GameView:
        game = self.game
        return GameView(self.now, game.current_player, game.hand_sizes(), game.stock,
                        {colour.letter: row for colour, row in game.rows().items()}, game.drawn, game.over,
                        game.winner_name, self._alert[0] if self._alert else None,
                        (self._question.hidden.code,) if self._question else None, game.preset.draw_limit,
                        self._entry.view(len(self.tracker.unread_laid)), dict(game.penalties))

    # ------------------------------------------------------------------ desync
    def _check_sync(self, t_ms: int) -> None:
        if self.game.over:
            return  # the table is for counting penalty cards now
        expected = None if (self._question or self._rejected) else self._expected_ends()
        if not expected:
            self._mismatch_since = None
            if self._desync_shown and expected is not None:
                self._desync_shown = False
                self._notice(Notice(t_ms, "in_sync"))
            return
        if self._mismatch_since is None:
            self._mismatch_since = t_ms
        elif t_ms - self._mismatch_since >= self.settings.desync_ms and not self._desync_shown:
            self._desync_shown = True
            self._notice(Notice(t_ms, "desync", {"expected": expected}))

    def _expected_ends(self) -> dict[str, list[int]]:
        """Per colour whose row ends differ from the table: the ends it does not show, or
        where it shows a card the referee has not counted, all the ends it expects."""
        game, seen, covered = self.game, set(self.tracker.settled), self.tracker.covered
        differ: dict[str, list[int]] = {}
        for colour, row in game.rows().items():
            ends = [] if row is None else _ends(row)
            shown = {card.number for card in seen if card.colour is colour}
            on_table = {n for n in shown if game.on_table(Card(colour, n))}
            # an end seen going under a later card is still there: side by side, the 12 laid
            # after the 11 lies on it
            missing = [n for n in ends if n not in shown and Card(colour, n) not in covered]
            if missing or shown - on_table:
                differ[colour.letter] = missing or ends
        return differ


def _ends(row) -> list[int]:
    """The numbers a camera sees at a row's ends: ``[low, high]``, or for rows growing
    inward from both ends, the inner end of each run."""
    if isinstance(row[0], list):
        return sorted({row[0][1], row[1][0]})
    return sorted({row[0], row[1]})
