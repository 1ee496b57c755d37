"""Sessions: several games by the same players, penalty totals, and who wins.

A session lasts a fixed number of games (default: as many as there are players, the
manual's tip) or, with a penalty limit, until someone's total reaches it. The lowest
total wins. Tied leaders share the victory (manual) or, with ``tiebreak: "playoff"``,
play one more game among themselves (source 004).

:class:`Referee` is the one entry point for a stream of events: ``start`` begins a
game (and, when needed, a session); everything else goes to the current game.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

from .errors import ACCEPTED, Verdict, reject
from .events import Draw, Event, Next, Penalty, Place, Start, Undo
from .game import Game
from .presets import PresetError, get_preset

SESSION_OPTIONS = ("games", "limit", "tiebreak")
TIEBREAKS = ("share", "playoff")


@dataclass(frozen=True)
class SessionRules:
    """How long a session lasts and how a tie at the top is settled."""

    games: int | None = None
    limit: int | None = None
    tiebreak: str = "share"

    @classmethod
    def from_options(cls, options: Mapping[str, object], players: int) -> "SessionRules":
        games, limit = options.get("games"), options.get("limit")
        tiebreak = options.get("tiebreak", "share")
        for name, value in (("games", games), ("limit", limit)):
            if value is not None and (not isinstance(value, int) or isinstance(value, bool) or value < 1):
                raise PresetError(f"option {name} must be a whole number of at least 1, not {value!r}")
        if tiebreak not in TIEBREAKS:
            raise PresetError(f"option tiebreak must be {' or '.join(TIEBREAKS)}, not {tiebreak!r}")
        if games is None and limit is None:
            games = players
        return cls(games=games, limit=limit, tiebreak=tiebreak)


class Session:
    """The games of one session and what they add up to."""

    def __init__(self, players: tuple[str, ...], rules: SessionRules):
        self.players = players
        self.rules = rules
        self.games: list[Game] = []
        self.playoff_games: list[Game] = []

    @property
    def finished_games(self) -> list[Game]:
        """Games that ended and whose penalties are all entered."""
        return [g for g in self.games if g.penalties_complete]

    def totals(self) -> dict[str, int]:
        totals = dict.fromkeys(self.players, 0)
        for game in self.games + self.playoff_games:
            for name, points in game.penalties.items():
                totals[name] += points
        return totals

    def _regular_over(self) -> bool:
        # Judge only between games: the last game ended and all its penalties are in.
        if not self.games or not self.games[-1].penalties_complete:
            return False
        if self.rules.limit is not None:
            return any(points >= self.rules.limit for points in self.totals().values())
        return len(self.finished_games) >= self.rules.games

    def leaders(self) -> list[str]:
        totals = self.totals()
        best = min(totals.values())
        return [name for name in self.players if totals[name] == best]

    @property
    def playoff_pending(self) -> list[str] | None:
        """The tied leaders who still have to play their deciding game, if any."""
        if self.rules.tiebreak != "playoff" or not self._regular_over():
            return None
        leaders = self.leaders()
        if len(leaders) < 2 or any(g.over for g in self.playoff_games):
            return None
        return leaders

    @property
    def over(self) -> bool:
        return self._regular_over() and self.playoff_pending is None

    def winners(self) -> list[str]:
        """Who won the session (several on a shared victory); empty while it goes on."""
        if not self.over:
            return []
        leaders = self.leaders()
        decided = [g for g in self.playoff_games if g.over]
        if len(leaders) > 1 and decided:
            return [decided[0].winner_name] if decided[0].winner_name in leaders else leaders
        return leaders


class Referee:
    """Event in, verdict out, for whole sessions. Rejected events change nothing."""

    def __init__(self) -> None:
        self.session: Session | None = None
        self.game: Game | None = None

    def push(self, event: Event) -> Verdict:
        game = self.game
        kind = event.__class__
        if kind is Start:
            return self._start(event)
        if game is None:
            return reject("no_start")
        if kind is Place:
            return game.place(event.card, event.player, event.on)
        if kind is Next:
            return game.next(event.player)
        if kind is Draw:
            return game.draw(event.player)
        if kind is Penalty:
            return game.penalty(event.player, event.points)
        if kind is Undo:
            return game.undo()
        return reject("unknown_event", text=getattr(event, "kind", kind.__name__))

    def _start(self, event: Start) -> Verdict:
        players = tuple(event.players)
        if len(players) != len(set(players)) or not all(isinstance(p, str) and p.strip() for p in players):
            return reject("bad_players", text="2 bis 6 verschiedene Namen / 2 to 6 distinct names")
        try:
            preset = get_preset(event.rules)
        except PresetError:
            return reject("unknown_rules", text=event.rules)
        options = dict(event.options)
        session_options = {k: options.pop(k) for k in SESSION_OPTIONS if k in options}
        try:
            preset = preset.with_options(options)
            game = Game(preset, players)
        except PresetError as error:
            return reject("bad_option", text=str(error)) if options else reject("bad_players", text=str(error))

        session = self.session
        pending = session.playoff_pending if session else None
        if pending and set(players) == set(pending):
            if session_options:
                return reject("bad_option", text="a deciding game keeps the session's options")
            session.playoff_games.append(game)
        elif session and not session.over and not pending and players == session.players:
            try:
                changed = session_options and SessionRules.from_options(session_options, len(players)) != session.rules
            except PresetError as error:
                return reject("bad_option", text=str(error))
            if changed:
                return reject("bad_option", text="games, limit and tiebreak are set when a session begins")
            session.games.append(game)
        else:
            try:
                rules = SessionRules.from_options(session_options, len(players))
            except PresetError as error:
                return reject("bad_option", text=str(error))
            self.session = session = Session(players, rules)
            session.games.append(game)
        self.game = game
        return ACCEPTED
