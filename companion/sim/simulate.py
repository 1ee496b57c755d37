"""Whole sessions played by bots through the rules engine, with their records.

Every record this writes is accepted by ``elfer check`` without a single error: the
moves come from :meth:`Deal.legal_moves`, and the referee inside the deal checked
each of them as it was made. The same seed gives the same games.
"""

from __future__ import annotations

import random
import statistics
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Callable, Sequence

from ..rules.deal import Deal
from ..rules.events import Draw, Event, Penalty, Start
from ..rules.presets import Preset
from ..rules.session import Session, SessionRules
from .bots import BOTS, Bot

DEFAULT_NAMES = ("Anna", "Ben", "Cem", "Dana", "Emil", "Fiona")
MAX_EVENTS_PER_GAME = 20_000  # a free-pass game between two passing bots could go on forever


class RunawayGame(RuntimeError):
    """A simulated game that did not end (only possible when passing is free)."""


@dataclass
class GameStats:
    rules: str
    players: tuple[str, ...]
    bots: tuple[str, ...]
    winner: str
    turns: int
    draws: int
    events: int
    penalties: dict[str, int]
    redeals: int


@dataclass
class SessionResult:
    players: tuple[str, ...]
    record: list[Event]
    games: list[GameStats]
    totals: dict[str, int]
    winners: list[str]
    bots: dict[str, str] = field(default_factory=dict)


def make_bots(kinds: Sequence[str], players: Sequence[str], rng: random.Random) -> dict[str, Bot]:
    """One bot per player, the kinds taken in turn (``["sensible", "random"]`` alternates)."""
    return {name: BOTS[kinds[i % len(kinds)]](random.Random(rng.random())) for i, name in enumerate(players)}


def play_game(preset: Preset, players: Sequence[str], bots: dict[str, Bot], rng: random.Random,
              first: int, record: list[Event]) -> tuple[Deal, GameStats]:
    """Deal and play one game to its end, appending its events (not the start) to ``record``."""
    deal = Deal(preset, players, rng, first=first)
    game = deal.game
    seats = [bots[name] for name in players]
    append, legal, push = record.append, deal.legal_moves, deal.push_unchecked
    events = draws = 0
    while game.winner is None:
        moves = legal()
        move = seats[deal.seat].choose(deal, moves)
        append(push(move))
        events += 1
        if move.__class__ is Draw:
            draws += 1
        if events > MAX_EVENTS_PER_GAME:
            raise RunawayGame(f"game of {preset.name} did not end after {events} events")
    winner = game.winner_name
    for name, points in deal.penalties().items():
        if name != winner:
            verdict = game.penalty(name, points)
            if not verdict.ok:
                raise AssertionError(f"referee rejected a true penalty: {verdict}")
            record.append(Penalty(name, points))
    stats = GameStats(preset.name, tuple(players), tuple(bots[p].name for p in players), winner,
                      game.turns + 1, draws, events, dict(game.penalties), deal.redeals)
    return deal, stats


def play_session(preset: Preset, players: Sequence[str], rng: random.Random, bot_kinds: Sequence[str] = ("sensible",),
                 games: int | None = None, limit: int | None = None, tiebreak: str = "share",
                 preset_options: dict | None = None) -> SessionResult:
    """Play a whole session: ``games`` games (default: one per player) or up to ``limit``."""
    players = tuple(players)
    options = dict(preset_options or {})
    for name, value in (("games", games), ("limit", limit)):
        if value is not None:
            options[name] = value
    if tiebreak != "share":
        options["tiebreak"] = tiebreak
    rules = SessionRules.from_options(options, len(players))
    preset = preset.with_options(preset_options or {})
    session = Session(players, rules)
    bots = make_bots(bot_kinds, players, rng)
    record: list[Event] = []
    stats: list[GameStats] = []
    number = 0
    while not session.over:
        seats = tuple(session.playoff_pending or players)
        # Session options begin the session; preset options hold for each game.
        record.append(Start(seats, preset.name, MappingProxyType(options if number == 0 else dict(preset_options or {}))))
        deal, game_stats = play_game(preset, seats, bots, rng, number % len(seats), record)
        (session.playoff_games if len(seats) < len(players) else session.games).append(deal.game)
        stats.append(game_stats)
        number += 1
    return SessionResult(players, record, stats, session.totals(), session.winners(),
                         {name: bot.name for name, bot in bots.items()})


def simulate(preset: Preset, players: int, sessions: int, seed: int, bot_kinds: Sequence[str] = ("sensible",),
             games: int | None = None, limit: int | None = None, tiebreak: str = "share",
             preset_options: dict | None = None,
             progress: Callable[[int], None] | None = None) -> list[SessionResult]:
    """Play ``sessions`` sessions; the same seed gives the same games."""
    rng = random.Random(seed)
    names = DEFAULT_NAMES[:players]
    results = []
    for _ in range(sessions):
        results.append(play_session(preset, names, random.Random(rng.random()), bot_kinds, games, limit,
                                    tiebreak, preset_options))
        if progress:
            progress(len(results[-1].games))
    return results


def statistics_of(results: Sequence[SessionResult]) -> dict:
    """Turns, draws, game length and penalty spread over all games, and wins per bot."""
    games = [g for r in results for g in r.games]
    penalties = [p for g in games for name, p in g.penalties.items() if name != g.winner]
    wins: dict[str, int] = {}
    seats: dict[str, int] = {}
    for g in games:
        for name, kind in zip(g.players, g.bots):
            seats[kind] = seats.get(kind, 0) + 1
            if name == g.winner:
                wins[kind] = wins.get(kind, 0) + 1

    def spread(values: list[int]) -> dict:
        if not values:
            return {}
        return {"min": min(values), "median": statistics.median(values), "mean": round(statistics.fmean(values), 1),
                "max": max(values)}

    return {
        "sessions": len(results),
        "games": len(games),
        "turns": spread([g.turns for g in games]),
        "draws": spread([g.draws for g in games]),
        "events": spread([g.events for g in games]),
        "penalty_spread": spread(penalties),
        "redeals": sum(g.redeals for g in games),
        "win_rate": {kind: round(wins.get(kind, 0) / seats[kind], 3) for kind in seats},
    }
