"""``elfer replay`` end to end on short rendered episodes: a hand lays each card, a camera
bump, a card on the wrong colour taken back; piles and rows side by side. The state is
checked after every event, the record against ``elfer check``."""

from __future__ import annotations

import json

import pytest

from companion.bench.referee_score import score_episode
from companion.cli import main
from short_episodes import short_episode

EXPECTED = [("place", "R11", True, "Anna"), ("next", None, True, "Ben"), ("place", "R12", True, "Ben"),
            ("next", None, True, "Anna"), ("place", "B12", "wrong_colour", "Anna"), ("place", "R10", True, "Anna"),
            ("next", None, True, "Ben")]


@pytest.fixture(scope="module", params=["piles", "side_by_side"])
def episode(request, tmp_path_factory):
    seed = {"piles": 11, "side_by_side": 12}[request.param]
    return short_episode(tmp_path_factory.mktemp(request.param) / "episode", seed, layout=request.param)


def replayed(folder, capsys, *extra):
    assert main(["replay", str(folder), "--json", *extra]) == 0
    return [json.loads(line) for line in capsys.readouterr().out.splitlines()]


def test_every_event_is_judged_in_order_with_whose_turn_after_it(episode, capsys):
    lines = replayed(episode, capsys)
    assert lines[0]["source"] == "setup" and lines[0]["event"]["players"] == ["Anna", "Ben"]
    verdicts = [line for line in lines[1:] if "event" in line and "summary" not in line]
    said = [(v["event"]["event"], v["event"].get("card"), v["ok"] or v["error"], v["current"]) for v in verdicts]
    assert said == EXPECTED
    assert verdicts[4]["message"] == "Blau 12 liegt auf Rot 12: falsche Farbe"
    truth = [json.loads(line) for line in (episode / "truth.jsonl").read_text().splitlines()]
    touched = {e["card"]: e["t_ms"] for e in truth if e["event"] == "place"}
    for verdict in verdicts:
        if verdict["event"]["event"] == "place":  # judged within 2 s of the card touching the table
            assert 0 <= verdict["judged_ms"] - touched[verdict["event"]["card"]] <= 2000


def test_the_replay_scores_perfectly_against_its_truth(episode, capsys):
    lines = replayed(episode, capsys)
    truth = [json.loads(line) for line in (episode / "truth.jsonl").read_text().splitlines()]
    score = score_episode(truth, lines[:-1], lines[-1]["summary"])
    assert (score.registered, score.placements, score.in_order) == (3, 3, True)
    assert (score.flagged, score.mistakes, score.false_alarms, score.extra) == (1, 1, [], [])
    assert score.final_equal, score.final_diff
    assert "withdrawn" in score.notices


def test_the_record_checks_with_the_same_summary(episode, capsys, tmp_path):
    record = tmp_path / "game.jsonl"
    lines = replayed(episode, capsys, "--record", str(record))
    written = [json.loads(line) for line in record.read_text().splitlines()]
    assert [e["event"] for e in written] == ["start", "place", "next", "place", "next", "place", "next"]
    assert all("t_ms" in e for e in written)
    assert main(["check", str(record), "--json"]) == 0
    checked = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert checked[-1] == lines[-1]


def test_the_readable_log_speaks_english_on_request(episode, capsys):
    assert main(["replay", str(episode), "--lang", "en"]) == 0
    out = capsys.readouterr().out
    assert "✗ place Blue 12 – rejected (wrong_colour)" in out and "Anna" in out and "Cards in hand" in out


def test_the_timeline_merges_truth_presses_and_verdicts_by_time(episode, capsys):
    from companion.bench.referee_timeline import timeline

    rows = timeline(episode, replayed(episode, capsys))
    assert [t for t, _, _ in rows] == sorted(t for t, _, _ in rows)
    assert {kind for _, kind, _ in rows} >= {"T", "B", "C", "N"}
    assert any(kind == "C" and "REJECTED wrong_colour" in text for _, kind, text in rows)
