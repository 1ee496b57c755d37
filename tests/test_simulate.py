"""Bots and simulated sessions: legal moves only, records that check clean, statistics, determinism."""

from __future__ import annotations

import random

import pytest

from companion.record import check, event_to_dict, summary
from companion.rules.deal import Deal, IllegalMove
from companion.rules.events import DRAW, NEXT, Draw, Next, Penalty, Place, Start
from companion.rules.presets import PRESETS
from companion.rules.session import Referee
from companion.sim.bots import BOTS, RandomBot, SensibleBot
from companion.sim.simulate import DEFAULT_NAMES, play_game, play_session, simulate, statistics_of


def player_counts(preset):
    counts = range(preset.min_players, preset.max_players + 1)
    return sorted({counts[0], counts[len(counts) // 2], counts[-1]})


PRESET_PLAYERS = [(name, n) for name, preset in PRESETS.items() for n in player_counts(preset)]


def check_record(record) -> tuple[list, Referee]:
    referee = Referee()
    objects = [(number, event_to_dict(event)) for number, event in enumerate(record, start=1)]
    return list(check(objects, referee)), referee


# ----------------------------------------------------------------- records check clean
@pytest.mark.parametrize("rules, players", PRESET_PLAYERS)
@pytest.mark.parametrize("bots", [("sensible",), ("random",), ("sensible", "random")], ids="/".join)
def test_simulated_sessions_check_without_rejections(rules, players, bots):
    results = simulate(PRESETS[rules], players, sessions=2, seed=players, bot_kinds=bots, games=2)
    for result in results:
        checked, referee = check_record(result.record)
        rejected = [(c.line, str(c.verdict)) for c in checked if not c.verdict.ok]
        assert rejected == []
        state = summary(referee)
        assert state["rules"] == rules
        assert state["over"] is True
        assert state["session"]["over"] is True
        assert state["totals"] == result.totals
        assert state["session"]["winners"] == result.winners
        assert state["games"] == 2


@pytest.mark.parametrize("rules", ["classic", "junior", "free-pass"])
def test_limit_and_playoff_sessions_check_clean(rules):
    for result in simulate(PRESETS[rules], 3, sessions=3, seed=5, bot_kinds=("random", "sensible"), limit=120,
                           tiebreak="playoff"):
        checked, referee = check_record(result.record)
        assert all(c.verdict.ok for c in checked)
        state = summary(referee)
        assert state["session"]["over"] is True
        assert max(state["totals"].values()) >= 120
        assert state["totals"] == result.totals
        assert state["session"]["winners"] == result.winners


def test_sixty_plays_without_blue():
    result = play_session(PRESETS["sixty"], ("Anna", "Ben"), random.Random(3), ("random",))
    placed = {e.card.colour.letter for e in result.record if isinstance(e, Place)}
    assert placed and placed <= {"R", "Y", "G"}
    checked, _ = check_record(result.record)
    assert all(c.verdict.ok for c in checked)


def test_sixty_without_another_colour_checks_clean():
    result = play_session(PRESETS["sixty"], ("Anna", "Ben"), random.Random(3), ("random",),
                          preset_options={"without": "R"})
    first = result.record[0]
    assert isinstance(first, Start) and dict(first.options) == {"without": "R"}
    checked, _ = check_record(result.record)
    assert [(c.line, str(c.verdict)) for c in checked if not c.verdict.ok] == []
    placed = {e.card.colour.letter for e in result.record if isinstance(e, Place)}
    assert placed and placed <= {"Y", "G", "B"}


def test_record_shape():
    result = play_session(PRESETS["classic"], ("Anna", "Ben", "Cem"), random.Random(1))
    record = result.record
    starts = [i for i, e in enumerate(record) if isinstance(e, Start)]
    assert starts[0] == 0 and len(starts) == 3  # one game per player
    assert all(record[i].players == ("Anna", "Ben", "Cem") for i in starts)
    for begin, end in zip(starts, starts[1:] + [len(record)]):
        game = record[begin + 1:end]
        # the first event names who began; a classic game begins with an 11
        assert isinstance(game[0], Place) and game[0].player is not None and game[0].card.number == 11
        penalties = [e for e in game if isinstance(e, Penalty)]
        assert len(penalties) == 2  # every loser, nobody twice
        assert len({p.player for p in penalties}) == 2
        assert all(isinstance(e, Penalty) for e in game[-2:])


# ----------------------------------------------------------------- bots make legal moves only
def fitting(deal: Deal) -> list:
    return [c for c in deal.hand if deal.game.fits(c)]


def assert_legal(deal: Deal, move) -> None:
    """An independent reading of the rules for the player on turn, with their real hand."""
    game, preset = deal.game, deal.preset
    assert not game.over
    fits = fitting(deal)
    if isinstance(move, Place):
        assert move.card in deal.hand, f"{move.card} is not in the hand"
        assert game.fits(move.card), f"{move.card} does not fit"
        assert not game.turn_over
        if not game.started and preset.opening_card_starts and not preset.openers_follow_first:
            assert move.card is deal.opening_card  # red 11 first, else yellow, green, blue
        if game.drawn and not game.placed:
            assert move.card is deal.last_drawn  # only the drawn card may be laid at once
    elif isinstance(move, Draw):
        assert game.started or not preset.opening_card_starts
        assert not game.placed and not game.turn_over
        assert game.stock > 0
        assert game.drawn < preset.draw_limit
        if game.drawn:
            assert not game.fits(deal.last_drawn)
        assert not fits, "a player who can lay a card does not draw"
    else:
        assert isinstance(move, Next)
        assert game.started or not preset.opening_card_starts
        if game.turn_over or game.placed or preset.free_pass:
            return
        assert not fits, "a player who can lay a card must lay one"
        assert not game.stock or game.drawn >= preset.draw_limit, "must draw first"


@pytest.mark.parametrize("rules, players", PRESET_PLAYERS)
@pytest.mark.parametrize("kind", list(BOTS))
def test_bots_only_make_legal_moves(rules, players, kind):
    preset = PRESETS[rules]
    names = DEFAULT_NAMES[:players]
    for seed in range(3):
        rng = random.Random(seed)
        bot = BOTS[kind](random.Random(seed + 100))
        deal = Deal(preset, names, rng, first=seed % players)
        steps = 0
        while not deal.game.over:
            moves = deal.legal_moves()
            assert moves, "the player on turn must have something to do"
            for move in moves:
                assert_legal(deal, move)
            move = bot.choose(deal, moves)
            assert move in moves
            deal.push(move)  # the checked path: IllegalMove if the deal disagrees
            steps += 1
            assert steps < 20_000
        assert deal.legal_moves() == []
        assert sum(1 for hand in deal.hands if not hand) == 1


def test_deal_refuses_an_illegal_move():
    deal = Deal(PRESETS["classic"], ("Anna", "Ben", "Cem"), random.Random(2))
    assert deal.legal_moves() == [Place(deal.opening_card)]
    with pytest.raises(IllegalMove):
        deal.push(NEXT)
    with pytest.raises(IllegalMove):
        deal.push(DRAW)
    other = next(c for c in deal.hand if c is not deal.opening_card)
    with pytest.raises(IllegalMove):
        deal.push(Place(other))
    assert not deal.game.started  # nothing happened


def test_sensible_bot_never_holds_back_its_last_card_and_draws_only_when_stuck():
    deal = Deal(PRESETS["classic"], ("Anna", "Ben"), random.Random(4))
    bot = SensibleBot()
    while not deal.game.over:
        moves = deal.legal_moves()
        move = bot.choose(deal, moves)
        if len(deal.hand) == 1 and any(isinstance(m, Place) for m in moves):
            assert isinstance(move, Place)  # never hold back the winning card
        if isinstance(move, Draw):
            assert not any(isinstance(m, Place) for m in moves)
        deal.push(move)


# ----------------------------------------------------------------- statistics
def test_statistics_fields():
    results = simulate(PRESETS["classic"], 4, sessions=3, seed=8, bot_kinds=("sensible", "random"))
    stats = statistics_of(results)
    games = [g for r in results for g in r.games]
    assert stats["sessions"] == 3
    assert stats["games"] == len(games) == 12
    for key in ("turns", "draws", "events", "penalty_spread"):
        spread = stats[key]
        assert set(spread) == {"min", "median", "mean", "max"}
        assert spread["min"] <= spread["median"] <= spread["max"]
        assert spread["min"] <= spread["mean"] <= spread["max"]
    assert stats["turns"]["min"] == min(g.turns for g in games)
    assert stats["draws"]["max"] == max(g.draws for g in games) <= 80 - 4 * 15
    assert stats["events"]["max"] == max(g.events for g in games)
    assert stats["turns"]["max"] <= stats["events"]["max"]
    penalties = [p for g in games for name, p in g.penalties.items() if name != g.winner]
    assert len(penalties) == 12 * 3
    assert stats["penalty_spread"]["min"] == min(penalties) >= 1
    assert stats["redeals"] == sum(g.redeals for g in games) >= 0
    # two seats of each kind in every game: the win rates add up to one game in two seats
    assert set(stats["win_rate"]) == {"sensible", "random"}
    wins = {kind: sum(1 for g in games for name, b in zip(g.players, g.bots) if b == kind and name == g.winner)
            for kind in ("sensible", "random")}
    assert wins["sensible"] + wins["random"] == 12
    assert stats["win_rate"]["sensible"] == round(wins["sensible"] / 24, 3)


def test_game_stats_agree_with_the_record():
    result = play_session(PRESETS["classic"], ("Anna", "Ben"), random.Random(5), ("random",), games=3)
    starts = [i for i, e in enumerate(result.record) if isinstance(e, Start)] + [len(result.record)]
    assert len(result.games) == 3
    for stats, begin, end in zip(result.games, starts, starts[1:]):
        events = result.record[begin + 1:end]
        turn_events = [e for e in events if not isinstance(e, Penalty)]
        assert stats.events == len(turn_events)
        assert stats.draws == sum(isinstance(e, Draw) for e in turn_events)
        assert stats.turns == sum(isinstance(e, Next) for e in turn_events) + 1
        assert stats.penalties == {e.player: e.points for e in events if isinstance(e, Penalty)}
        assert stats.winner not in stats.penalties
        assert stats.bots == ("random", "random")
    totals = {"Anna": 0, "Ben": 0}
    for stats in result.games:
        for name, points in stats.penalties.items():
            totals[name] += points
    assert totals == result.totals


def test_single_bot_kind_wins_one_game_in_n():
    stats = statistics_of(simulate(PRESETS["junior"], 5, sessions=2, seed=1))
    assert stats["win_rate"] == {"sensible": 0.2}


def test_statistics_of_nothing():
    stats = statistics_of([])
    assert stats["sessions"] == 0 and stats["games"] == 0
    assert stats["turns"] == {} and stats["win_rate"] == {}


# ----------------------------------------------------------------- determinism
def as_lines(results) -> list[list[dict]]:
    return [[event_to_dict(e) for e in r.record] for r in results]


@pytest.mark.parametrize("rules", ["classic", "any-start", "free-pass", "junior"])
def test_same_seed_same_games(rules):
    preset = PRESETS[rules]
    first = simulate(preset, 3, sessions=3, seed=42, bot_kinds=("random", "sensible"))
    again = simulate(preset, 3, sessions=3, seed=42, bot_kinds=("random", "sensible"))
    assert as_lines(first) == as_lines(again)
    assert statistics_of(first) == statistics_of(again)
    other = simulate(preset, 3, sessions=3, seed=43, bot_kinds=("random", "sensible"))
    assert as_lines(first) != as_lines(other)


def test_play_game_with_the_same_rng_state_is_repeatable():
    preset, names = PRESETS["classic"], ("Anna", "Ben", "Cem", "Dana")
    runs = []
    for _ in range(2):
        rng = random.Random(99)
        bots = {n: RandomBot(random.Random(1)) for n in names}
        record: list = []
        _, stats = play_game(preset, names, bots, rng, 0, record)
        runs.append((record, stats))
    assert runs[0] == runs[1]


# ----------------------------------------------------------------- the sensible bot is better
def test_sensible_bot_beats_random_bot():
    """Head to head, 1000 two-player classic games (the first player alternates)."""
    results = simulate(PRESETS["classic"], 2, sessions=500, seed=2024, bot_kinds=("sensible", "random"))
    stats = statistics_of(results)
    assert stats["games"] == 1000
    rate = stats["win_rate"]
    assert rate["sensible"] + rate["random"] == pytest.approx(1.0)
    assert rate["sensible"] > rate["random"]
    # and it leaves the random bot with more penalty points than it takes itself
    penalty = {"sensible": 0, "random": 0}
    for result in results:
        for name, points in result.totals.items():
            penalty[result.bots[name]] += points
    assert penalty["sensible"] < penalty["random"]
