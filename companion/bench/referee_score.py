"""Scoring one replayed episode against its truth (``elfer bench referee``).

The replay gives the loop's verdicts (``Judged.to_json``) and notices (``Notice.to_json``)
in the order it gave them; the truth is the episode's ``truth.jsonl``. Everything is
matched by what happened at the table, never by position in a list.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..record import check, summary
from ..rules import Referee

MISTAKE_WINDOW_MS = 4000  # a rejection this near a mistake's time, with its code, flags it
FINAL_FIELDS = ("over", "winner", "current", "hands", "stock", "rows")


@dataclass
class EpisodeScore:
    placements: int = 0  # in the truth
    registered: int = 0  # of those, counted by the companion
    in_order: bool = True  # the companion's game record equals the truth's, event for event
    mistakes: int = 0
    flagged: int = 0  # rejected with the right error code
    false_alarms: list = field(default_factory=list)  # rejections the truth has no mistake for
    extra: list = field(default_factory=list)  # placements counted that the truth does not have
    notices: dict = field(default_factory=dict)  # kind -> count
    latencies_ms: list = field(default_factory=list)  # card touched the table -> first feedback
    final_equal: bool = True
    final_diff: dict = field(default_factory=dict)


def score_episode(truth: list[dict], lines: list[dict], final: dict) -> EpisodeScore:
    """``lines``: the replay's JSON lines without the summary; ``final``: its summary."""
    score = EpisodeScore()
    verdicts = [line for line in lines if "event" in line and "notice" not in line]
    notices = [line for line in lines if "notice" in line]
    for notice in notices:
        score.notices[notice["notice"]] = score.notices.get(notice["notice"], 0) + 1

    true_events = [e for e in truth if e["event"] in ("place", "draw", "next") and not e.get("mistake")]
    counted = _effective(verdicts)
    truth_keys = [_key(e) for e in true_events]
    counted_keys = [_key(v["event"]) for v in counted]
    score.in_order = truth_keys == counted_keys
    true_cards = {e["card"]: e for e in true_events if e["event"] == "place"}
    counted_cards = {v["event"]["card"]: v for v in counted if v["event"]["event"] == "place"}
    score.placements = len(true_cards)
    score.registered = sum(card in counted_cards for card in true_cards)
    score.extra = sorted(card for card in counted_cards if card not in true_cards)

    feedback = _feedback_times(verdicts, notices)
    for card, event in true_cards.items():
        latency = _latency(feedback.get(card, []), event["t_ms"])
        if latency is not None:
            score.latencies_ms.append(latency)

    mistakes = [e for e in truth if e.get("mistake")]
    rejections = [v for v in verdicts if not v["ok"]]
    used: set[int] = set()
    for mistake in mistakes:
        match = next((i for i, v in enumerate(rejections) if i not in used and v["error"] == mistake["error"]
                      and abs(v["t_ms"] - mistake["t_ms"]) <= MISTAKE_WINDOW_MS), None)
        score.mistakes += 1
        if match is not None:
            used.add(match)
            score.flagged += 1
            latency = _latency(feedback.get(mistake.get("card"), []), mistake["t_ms"])
            if mistake["event"] == "place" and latency is not None:
                score.latencies_ms.append(latency)
    score.false_alarms = [v for i, v in enumerate(rejections) if i not in used]

    expected = _truth_summary(truth)
    score.final_diff = {name: (final.get(name), expected.get(name)) for name in FINAL_FIELDS
                        if final.get(name) != expected.get(name)}
    score.final_equal = not score.final_diff
    return score


def _key(event: dict) -> tuple:
    return (event["event"], event.get("card"))


def _effective(verdicts: list[dict]) -> list[dict]:
    """The accepted turn events left standing once every accepted undo took its event back."""
    standing: list[dict] = []
    for verdict in verdicts:
        if not verdict["ok"]:
            continue
        if verdict["event"]["event"] == "undo":
            standing.pop()
        else:
            standing.append(verdict)
    return [v for v in standing if v["event"]["event"] in ("place", "draw", "next")]


def _feedback_times(verdicts: list[dict], notices: list[dict]) -> dict[str, list[int]]:
    """Per card: every time the table heard of it (a verdict on it, or a question about it)."""
    times: dict[str, list[int]] = {}
    for notice in notices:
        if notice["notice"] == "question" and "card" in notice:
            times.setdefault(notice["card"], []).append(notice["t_ms"])
    for verdict in verdicts:
        if verdict["event"]["event"] == "place":
            times.setdefault(verdict["event"]["card"], []).append(verdict["judged_ms"])
    return times


def _latency(times: list[int], touched_ms: int) -> int | None:
    """From a card touching the table to the first feedback on it after that."""
    after = [t for t in times if t >= touched_ms]
    return min(after) - touched_ms if after else None


def _truth_summary(truth: list[dict]) -> dict:
    referee = Referee()
    played = [(i, e) for i, e in enumerate(truth, start=1) if e["event"] != "penalty"]
    for _ in check(played, referee):
        pass
    return summary(referee)
