"""Sessions: how many games, penalty limits, totals, who wins, ties and the deciding game.

Games here are short Junior games (5 cards each, rows laid out at 1 and 11): the winner
opens the game by laying red 2 to 6 in one turn, so every game is six lines long and the
losers may be given any penalty from 12 to 49 points (five cards still off the table).
"""

from __future__ import annotations

import random

import pytest

from companion.record import check, event_to_dict, parse_event, summary
from companion.rules.events import Start, Undo
from companion.rules.presets import PRESETS
from companion.rules.session import Referee
from companion.sim.simulate import play_session

ANNA_BEN_CEM = ["Anna", "Ben", "Cem"]


class Table:
    """A referee fed with JSON objects, as ``elfer check`` feeds it."""

    def __init__(self) -> None:
        self.referee = Referee()

    def push(self, obj: dict):
        event = parse_event(obj)
        assert not hasattr(event, "reason"), event
        return self.referee.push(event)

    def ok(self, obj: dict) -> None:
        verdict = self.push(obj)
        assert verdict.ok, f"{obj} rejected: {verdict}"

    def start(self, players, options=None, rules="junior"):
        obj = {"event": "start", "players": list(players), "rules": rules}
        if options is not None:
            obj["options"] = options
        return self.push(obj)

    def win(self, winner: str) -> None:
        """The winner lays red 2 to 6 in one turn and the game is over."""
        self.ok({"event": "place", "card": "R2", "player": winner})
        for number in range(3, 7):
            self.ok({"event": "place", "card": f"R{number}"})
        assert self.referee.game.over and self.referee.game.winner_name == winner

    def penalty(self, player: str, points: int):
        return self.push({"event": "penalty", "player": player, "points": points})

    def game(self, players, winner, penalties, options=None):
        verdict = self.start(players, options)
        assert verdict.ok, verdict
        self.win(winner)
        for player, points in penalties.items():
            verdict = self.penalty(player, points)
            assert verdict.ok, verdict

    @property
    def state(self) -> dict:
        return summary(self.referee)

    @property
    def session(self) -> dict:
        return self.state["session"]


# ----------------------------------------------------------------- session length
@pytest.mark.parametrize("players", [["Anna", "Ben"], ANNA_BEN_CEM, ["A", "B", "C", "D"], list("ABCDEF")])
def test_default_session_lasts_one_game_per_player(players):
    table = Table()
    for number in range(len(players)):
        winner = players[number % len(players)]
        losers = {p: 20 for p in players if p != winner}
        table.game(players, winner, losers)
        assert table.state["games"] == number + 1
        assert table.session["games_planned"] == len(players)
        assert table.session["over"] is (number + 1 == len(players))
    assert table.state["totals"] == {p: 20 * (len(players) - 1) for p in players}


def test_session_is_not_over_while_penalties_are_missing():
    table = Table()
    table.game(["Anna", "Ben"], "Anna", {"Ben": 20})
    table.start(["Anna", "Ben"])
    table.win("Ben")
    assert table.state["over"] is True  # the game is over ...
    assert table.session["over"] is False  # ... but its penalties are not in yet
    assert table.state["games"] == 1
    assert table.penalty("Anna", 13).ok
    assert table.session["over"] is True
    assert table.state["games"] == 2


@pytest.mark.parametrize("games", [1, 2, 5])
def test_games_option_sets_the_session_length(games):
    table = Table()
    for number in range(games):
        table.game(ANNA_BEN_CEM, ANNA_BEN_CEM[number % 3], {}, options={"games": games} if number == 0 else None)
        assert table.session["over"] is False  # penalties missing
        for loser in ANNA_BEN_CEM:
            if loser != ANNA_BEN_CEM[number % 3]:
                assert table.penalty(loser, 15).ok
        assert table.session["games_planned"] == games
        assert table.session["over"] is (number + 1 == games)
    assert table.state["games"] == games


def test_a_start_after_the_session_ended_begins_a_new_session():
    table = Table()
    table.game(["Anna", "Ben"], "Anna", {"Ben": 20}, options={"games": 1})
    assert table.session["over"] is True
    assert table.start(["Anna", "Ben"]).ok
    assert table.session["over"] is False
    assert table.state["totals"] == {"Anna": 0, "Ben": 0}
    assert table.state["games"] == 0
    assert table.session["games_planned"] == 2  # the new session has the default length again


def test_session_options_cannot_change_mid_session():
    table = Table()
    table.game(ANNA_BEN_CEM, "Anna", {"Ben": 20, "Cem": 20}, options={"games": 3})
    verdict = table.start(ANNA_BEN_CEM, options={"games": 5})
    assert not verdict.ok and verdict.code.value == "bad_event"
    assert table.state["games"] == 1 and table.state["over"] is True  # nothing changed
    assert table.start(ANNA_BEN_CEM, options={"games": 3}).ok  # the same options repeated are fine
    assert table.state["totals"] == {"Anna": 0, "Ben": 20, "Cem": 20}


@pytest.mark.parametrize(
    "options",
    [{"games": 0}, {"games": -1}, {"games": "3"}, {"games": True}, {"limit": 0}, {"limit": 1.5},
     {"tiebreak": "coin"}],
)
def test_bad_session_options_are_rejected(options):
    table = Table()
    verdict = table.start(ANNA_BEN_CEM, options=options)
    assert not verdict.ok
    assert verdict.code.value == "bad_event"
    assert table.referee.game is None


# ----------------------------------------------------------------- limit
def test_limit_replaces_the_number_of_games():
    table = Table()
    table.game(ANNA_BEN_CEM, "Anna", {"Ben": 12, "Cem": 12}, options={"limit": 100})
    for winner in ("Ben", "Cem", "Anna"):
        table.game(ANNA_BEN_CEM, winner, {p: 12 for p in ANNA_BEN_CEM if p != winner})
    # four games, three players: a fixed-length session would be over, a limit session is not
    assert table.state["games"] == 4
    assert table.session["limit"] == 100
    assert table.session["over"] is False
    assert max(table.state["totals"].values()) < 100


def test_limit_ends_the_session_once_reached_and_lowest_total_wins():
    table = Table()
    table.game(ANNA_BEN_CEM, "Anna", {"Ben": 30, "Cem": 12}, options={"limit": 50})
    assert table.session["over"] is False
    table.game(ANNA_BEN_CEM, "Cem", {"Anna": 20, "Ben": 25})
    assert table.state["totals"] == {"Anna": 20, "Ben": 55, "Cem": 12}
    assert table.session["over"] is True
    assert table.session["winners"] == ["Cem"]


def test_limit_reached_exactly_ends_the_session():
    table = Table()
    table.game(["Anna", "Ben"], "Anna", {"Ben": 40}, options={"limit": 40})
    assert table.session["over"] is True
    assert table.session["winners"] == ["Anna"]


def test_limit_session_ends_only_after_all_penalties_of_the_game():
    table = Table()
    table.game(ANNA_BEN_CEM, "Anna", {"Ben": 30, "Cem": 12}, options={"limit": 50})
    table.start(ANNA_BEN_CEM)
    table.win("Cem")
    assert table.penalty("Ben", 25).ok  # Ben reaches 55, Anna's penalty is not in yet
    assert table.session["over"] is False
    assert table.session["winners"] == []
    assert table.penalty("Anna", 20).ok
    assert table.session["over"] is True
    assert table.session["winners"] == ["Cem"]


# ----------------------------------------------------------------- who wins
def test_lowest_total_wins():
    table = Table()
    table.game(ANNA_BEN_CEM, "Anna", {"Ben": 20, "Cem": 30})
    table.game(ANNA_BEN_CEM, "Ben", {"Anna": 25, "Cem": 30})
    assert table.session["winners"] == []  # not over yet
    table.game(ANNA_BEN_CEM, "Cem", {"Anna": 12, "Ben": 13})
    assert table.state["totals"] == {"Anna": 37, "Ben": 33, "Cem": 60}
    assert table.session["over"] is True
    assert table.session["winners"] == ["Ben"]


def test_tied_leaders_share_the_victory_by_default():
    table = Table()
    table.game(ANNA_BEN_CEM, "Anna", {"Ben": 20, "Cem": 30}, options={"games": 2})
    table.game(ANNA_BEN_CEM, "Ben", {"Anna": 20, "Cem": 30})
    assert table.state["totals"] == {"Anna": 20, "Ben": 20, "Cem": 60}
    assert table.session["tiebreak"] == "share"
    assert table.session["over"] is True
    assert sorted(table.session["winners"]) == ["Anna", "Ben"]
    assert table.session["playoff"] is None


def playoff_table() -> Table:
    """Anna and Ben tie at 20 after two games; Cem has 60."""
    table = Table()
    table.game(ANNA_BEN_CEM, "Anna", {"Ben": 20, "Cem": 30}, options={"games": 2, "tiebreak": "playoff"})
    table.game(ANNA_BEN_CEM, "Ben", {"Anna": 20, "Cem": 30})
    return table


def test_playoff_is_pending_for_tied_leaders():
    table = playoff_table()
    assert table.state["totals"] == {"Anna": 20, "Ben": 20, "Cem": 60}
    assert table.session["tiebreak"] == "playoff"
    assert sorted(table.session["playoff"]) == ["Anna", "Ben"]
    assert table.session["over"] is False
    assert table.session["winners"] == []


@pytest.mark.parametrize("seats", [["Anna", "Ben"], ["Ben", "Anna"]])
@pytest.mark.parametrize("winner", ["Anna", "Ben"])
def test_playoff_winner_wins_the_session(seats, winner):
    table = playoff_table()
    assert table.start(seats).ok
    # the deciding game belongs to the same session
    assert table.session["players"] == ANNA_BEN_CEM
    assert table.state["totals"] == {"Anna": 20, "Ben": 20, "Cem": 60}
    assert table.session["over"] is False
    table.win(winner)
    assert table.session["over"] is True
    assert table.session["winners"] == [winner]
    assert table.session["playoff"] is None
    loser = "Ben" if winner == "Anna" else "Anna"
    assert table.penalty(loser, 15).ok
    assert table.session["winners"] == [winner]
    assert table.state["totals"][winner] == 20
    assert table.state["totals"][loser] == 35


def test_no_playoff_without_a_tie():
    table = Table()
    table.game(["Anna", "Ben"], "Anna", {"Ben": 20}, options={"games": 2, "tiebreak": "playoff"})
    table.game(["Anna", "Ben"], "Ben", {"Anna": 15})
    assert table.session["playoff"] is None
    assert table.session["over"] is True
    assert table.session["winners"] == ["Anna"]


def test_playoff_with_a_limit():
    table = Table()
    table.game(ANNA_BEN_CEM, "Anna", {"Ben": 20, "Cem": 49}, options={"limit": 60, "tiebreak": "playoff"})
    table.game(ANNA_BEN_CEM, "Ben", {"Anna": 20, "Cem": 12})
    assert table.session["playoff"] is not None and sorted(table.session["playoff"]) == ["Anna", "Ben"]
    assert table.start(["Ben", "Anna"]).ok
    table.win("Ben")
    assert table.session["winners"] == ["Ben"]


def test_a_start_with_other_players_than_the_tied_leaders_is_no_playoff():
    table = playoff_table()
    assert table.start(["Anna", "Cem"]).ok
    assert table.session["players"] == ["Anna", "Cem"]
    assert table.state["totals"] == {"Anna": 0, "Cem": 0}


# ----------------------------------------------------------------- continuing and new sessions
def test_a_later_start_with_the_same_players_continues_the_session():
    table = Table()
    table.game(ANNA_BEN_CEM, "Anna", {"Ben": 20, "Cem": 30})
    assert table.start(ANNA_BEN_CEM).ok
    assert table.state["totals"] == {"Anna": 0, "Ben": 20, "Cem": 30}
    assert table.state["games"] == 1
    assert table.state["penalties"] == {}  # penalties of the new game
    assert table.state["hands"] == {"Anna": 5, "Ben": 5, "Cem": 5}


@pytest.mark.parametrize(
    "others",
    [["Anna", "Ben", "Dora"], ["Anna", "Ben"], ["Anna", "Ben", "Cem", "Dora"]],
)
def test_a_start_with_different_players_begins_a_new_session(others):
    table = Table()
    table.game(ANNA_BEN_CEM, "Anna", {"Ben": 20, "Cem": 30})
    assert table.start(others).ok
    assert table.session["players"] == others
    assert table.state["totals"] == dict.fromkeys(others, 0)
    assert table.state["games"] == 0
    assert table.session["games_planned"] == len(others)


def test_a_rejected_start_keeps_the_session():
    table = Table()
    table.game(ANNA_BEN_CEM, "Anna", {"Ben": 20, "Cem": 30})
    assert not table.start(ANNA_BEN_CEM, rules="nope").ok
    assert not table.start(["Anna", "Anna"]).ok
    assert not table.start(ANNA_BEN_CEM, options={"without": "R"}).ok  # junior takes no options
    assert table.state["totals"] == {"Anna": 0, "Ben": 20, "Cem": 30}
    assert table.state["over"] is True  # still looking at the finished game


# ----------------------------------------------------------------- penalties and undo
def test_undo_of_a_penalty():
    table = Table()
    table.start(["Anna", "Ben"], options={"games": 1})
    table.win("Anna")
    assert table.penalty("Ben", 30).ok
    assert table.state["totals"] == {"Anna": 0, "Ben": 30}
    assert table.session["over"] is True
    assert table.push({"event": "undo"}).ok
    assert table.state["penalties"] == {}
    assert table.state["totals"] == {"Anna": 0, "Ben": 0}
    assert table.session["over"] is False
    assert table.state["games"] == 0
    assert table.penalty("Ben", 25).ok  # entered again, with another value
    assert table.state["totals"] == {"Anna": 0, "Ben": 25}
    assert table.session["winners"] == ["Anna"]


def test_a_penalty_cannot_be_entered_twice_without_undo():
    table = Table()
    table.start(["Anna", "Ben"])
    table.win("Anna")
    assert table.penalty("Ben", 30).ok
    verdict = table.penalty("Ben", 31)
    assert not verdict.ok and verdict.code.value == "bad_penalty"
    assert table.state["totals"]["Ben"] == 30


@pytest.mark.parametrize(
    "player, points",
    [("Ben", -1), ("Ben", 11), ("Ben", 50), ("Anna", 5), ("Dora", 20)],
)
def test_impossible_penalties_are_rejected(player, points):
    table = Table()
    table.start(["Anna", "Ben"])
    table.win("Anna")
    verdict = table.penalty(player, points)
    assert not verdict.ok and verdict.code.value == "bad_penalty"
    assert table.state["penalties"] == {}


def test_winner_may_be_entered_with_zero():
    table = Table()
    table.start(["Anna", "Ben"])
    table.win("Anna")
    assert table.penalty("Anna", 0).ok
    assert table.penalty("Ben", 12).ok
    assert table.state["totals"] == {"Anna": 0, "Ben": 12}


def test_undo_of_the_winning_card_reopens_the_game_and_the_session():
    table = Table()
    table.start(["Anna", "Ben"], options={"games": 1})
    table.win("Anna")
    assert table.push({"event": "undo"}).ok
    assert table.state["over"] is False
    assert table.state["winner"] is None
    assert table.state["hands"]["Anna"] == 1
    assert not table.penalty("Ben", 30).ok  # no penalties before the game ended
    assert table.push({"event": "place", "card": "R6"}).ok
    assert table.state["winner"] == "Anna"


def test_totals_add_up_over_games():
    table = Table()
    expected = dict.fromkeys(ANNA_BEN_CEM, 0)
    plan = [("Anna", {"Ben": 12, "Cem": 49}), ("Cem", {"Anna": 30, "Ben": 17}),
            ("Ben", {"Anna": 21, "Cem": 22}), ]
    for number, (winner, penalties) in enumerate(plan):
        table.game(ANNA_BEN_CEM, winner, penalties)
        for name, points in penalties.items():
            expected[name] += points
        assert table.state["totals"] == expected
        assert table.state["penalties"] == penalties
        assert table.state["games"] == number + 1
    assert table.state["totals"] == {"Anna": 51, "Ben": 29, "Cem": 71}
    assert table.session["winners"] == ["Ben"]


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("tiebreak", ["share", "playoff"])
def test_totals_of_simulated_classic_sessions(seed, tiebreak):
    """Whole classic sessions by bots: the referee's totals are the sums of the penalty lines."""
    result = play_session(PRESETS["classic"], ANNA_BEN_CEM, random.Random(seed), ("sensible", "random"),
                          games=2, tiebreak=tiebreak)
    referee = Referee()
    objects = [(n, event_to_dict(e)) for n, e in enumerate(result.record, start=1)]
    assert all(line.verdict.ok for line in check(objects, referee))
    expected = dict.fromkeys(ANNA_BEN_CEM, 0)
    for _, obj in objects:
        if obj["event"] == "penalty":
            expected[obj["player"]] += obj["points"]
    state = summary(referee)
    assert state["totals"] == expected == result.totals
    assert state["session"]["over"] is True
    assert state["session"]["winners"] == result.winners
    best = min(expected.values())
    leaders = [p for p in ANNA_BEN_CEM if expected[p] == best]
    if tiebreak == "share" or len(leaders) == 1:
        assert sorted(result.winners) == sorted(leaders)
    else:
        assert len(result.winners) == 1 and result.winners[0] in leaders
    starts = [e for e in result.record if isinstance(e, Start)]
    assert len(starts) >= 2
    assert all(set(s.players) <= set(ANNA_BEN_CEM) for s in starts)


def test_undo_does_not_reach_into_the_previous_game():
    table = Table()
    table.game(["Anna", "Ben"], "Anna", {"Ben": 20})
    assert table.start(["Anna", "Ben"]).ok
    verdict = table.referee.push(Undo())
    assert not verdict.ok
    assert table.state["totals"] == {"Anna": 0, "Ben": 20}


def test_playoff_in_a_two_player_session():
    """When everybody is tied, the deciding game has the same players as the session."""
    table = Table()
    table.game(["Anna", "Ben"], "Anna", {"Ben": 20}, options={"games": 2, "tiebreak": "playoff"})
    table.game(["Anna", "Ben"], "Ben", {"Anna": 20})
    assert sorted(table.session["playoff"]) == ["Anna", "Ben"]
    assert table.start(["Anna", "Ben"]).ok
    assert table.state["totals"] == {"Anna": 20, "Ben": 20}  # still the same session
    table.win("Anna")
    assert table.session["over"] is True
    assert table.session["winners"] == ["Anna"]
    assert table.state["games"] == 2  # the deciding game is not one of the agreed games
