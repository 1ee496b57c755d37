"""One development episode as a timeline: the truth, the presses, the room's disturbances
and the companion's verdicts and notices, merged by time (``python -m
companion.bench.referee_timeline SEED [FROM_S TO_S]``). Not a test.

The first place the two disagree is where to look. Held-out seeds are refused: they are
scored, never looked into.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from .referee import CACHE, check_dev_seed, profiles_for, rendered_episode

KINDS = {"T": "truth", "B": "button", "D": "disturbance", "C": "companion", "N": "notice"}


def timeline(folder: Path, lines: list[dict]) -> list[tuple[int, str, str]]:
    """(t_ms, kind letter, text) for everything in an episode and its replay, in time order."""
    meta = json.loads((folder / "meta.json").read_text())
    rows = []
    for event in _lines(folder / "truth.jsonl"):
        if event["event"] not in ("start", "penalty"):
            mistake = f" MISTAKE {event['error']}" if event.get("mistake") else ""
            rows.append((event["t_ms"], "T", f"{event['event']} {event.get('card', '')}{mistake}"))
    for press in _lines(folder / "buttons.jsonl"):
        rows.append((press["t_ms"], "B", press["button"] + (" (answer)" if "answer" in press else "")))
    for entry in meta.get("disturbances", []):
        rows.append((entry["t_ms"], "D", entry["kind"]))
    for line in lines:
        if "notice" in line:
            rows.append((line["t_ms"], "N", f"{line['notice']}: {line['message']}"))
        elif "event" in line:
            verdict = "ok" if line["ok"] else f"REJECTED {line['error']}"
            rows.append((line["t_ms"], "C", f"{line['event']['event']} {line['event'].get('card', '')} {verdict} "
                                            f"(judged at {line['judged_ms']}) -> {line['current']}"))
    return sorted(rows, key=lambda row: (row[0], row[1]))


def _lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()] if path.exists() else []


def main(argv: list[str] | None = None) -> None:
    from .referee import replay_in_child

    parser = argparse.ArgumentParser(prog="python -m companion.bench.referee_timeline", description=__doc__)
    parser.add_argument("seed", type=int, help="a development episode's seed")
    parser.add_argument("window", type=float, nargs="*", metavar="SECONDS", help="from and to, in seconds")
    args = parser.parse_args(argv)
    folder = rendered_episode(check_dev_seed(args.seed), CACHE)
    style = json.loads((folder / "meta.json").read_text())["style"]
    result = replay_in_child(folder, profiles_for([style], CACHE)[style], pin=False)
    low, high = (args.window + [0, 1e9])[:2] if args.window else (0, 1e9)
    for t_ms, kind, text in timeline(folder, result["lines"]):
        if low * 1000 <= t_ms <= high * 1000:
            print(f"{t_ms:8d}  {KINDS[kind]:<11} {text}")


if __name__ == "__main__":
    main()
