"""Scoring a replay against its truth (``elfer bench referee``): what counts as registered,
flagged, a false alarm, an extra placement, and how latency is measured."""

from companion.bench.referee import check_dev_seed, episode_seeds
from companion.bench.referee_score import score_episode

import pytest

START = {"event": "start", "players": ["Anna", "Ben"], "rules": "classic", "t_ms": 0}
TRUTH = [START,
         {"event": "place", "card": "R11", "player": "Anna", "t_ms": 1000},
         {"event": "next", "t_ms": 2500},
         {"event": "place", "card": "R13", "mistake": True, "error": "skipped_number", "t_ms": 4000},
         {"event": "place", "card": "R12", "t_ms": 8000},
         {"event": "penalty", "player": "Ben", "points": 5, "t_ms": 9000}]


def verdict(event, t, judged, ok=True, error=None):
    return {"t_ms": t, "judged_ms": judged, "source": "camera", "event": event, "ok": ok, "error": error}


GOOD = [verdict({"event": "place", "card": "R11", "player": "Anna"}, 1100, 1700),
        verdict({"event": "next"}, 2500, 2500),
        verdict({"event": "place", "card": "R13"}, 4100, 4800, ok=False, error="skipped_number"),
        {"t_ms": 6000, "notice": "withdrawn", "card": "R13"},
        verdict({"event": "place", "card": "R12"}, 8100, 8900)]


def final(lines):
    from companion.record import check, summary
    from companion.rules import Referee

    referee = Referee()
    events = [START] + [line["event"] for line in lines if "event" in line and line.get("ok")]
    list(check(enumerate(events, 1), referee))
    return summary(referee)


def test_a_replay_that_got_everything_right_scores_so():
    score = score_episode(TRUTH, GOOD, final(GOOD))
    assert (score.placements, score.registered, score.in_order) == (2, 2, True)
    assert (score.mistakes, score.flagged, score.false_alarms, score.extra) == (1, 1, [], [])
    assert score.final_equal and score.notices == {"withdrawn": 1}
    assert sorted(score.latencies_ms) == [700, 800, 900]


def test_a_rejection_without_a_mistake_is_a_false_alarm_and_a_missed_card_is_not_registered():
    lines = GOOD[:2] + [verdict({"event": "place", "card": "R12"}, 8100, 8900, ok=False, error="skipped_number")]
    score = score_episode(TRUTH, lines, final(lines))
    assert score.registered == 1 and not score.in_order and score.flagged == 0
    assert [v["event"]["card"] for v in score.false_alarms] == ["R12"]
    assert not score.final_equal and "rows" in score.final_diff


def test_a_card_counted_and_taken_back_is_not_extra_but_one_left_standing_is():
    taken_back = GOOD + [verdict({"event": "place", "card": "R10"}, 9000, 9500), verdict({"event": "undo"}, 9800, 9900)]
    assert score_episode(TRUTH, taken_back, final(GOOD)).extra == []
    standing = GOOD + [verdict({"event": "place", "card": "R10"}, 9000, 9500)]
    assert score_episode(TRUTH, standing, final(standing)).extra == ["R10"]


def test_a_question_is_the_first_feedback_on_a_card():
    lines = GOOD[:4] + [{"t_ms": 8600, "notice": "question", "card": "R12", "cards": ["R11"]},
                        verdict({"event": "place", "card": "R12"}, 8100, 10400)]
    assert 600 in score_episode(TRUTH, lines, final(lines)).latencies_ms


def test_held_out_seeds_are_refused_for_development():
    held_out = episode_seeds("held-out", 3)
    assert not set(held_out) & set(episode_seeds("dev", 1000))
    with pytest.raises(ValueError, match="held out"):
        check_dev_seed(held_out[0])
    assert check_dev_seed(5) == 5
