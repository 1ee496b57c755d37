"""How good and how fast the referee at the table is (``elfer bench referee``). Not a test.

Renders episodes (whole games as the camera sees them: every deck style, both layouts,
2 to 6 players, several presets, hands, the family's mistakes, two cards in one reach,
disturbances), replays each through the loop the device runs (``elfer replay``: the
card reader, the tracker, the referee) in a child process on one core, and scores it
against its truth (``referee_score.py``).

Seeds come in two splits. ``dev`` episodes are for development: look at them, debug on
them. ``held-out`` episodes give the headline figures and are never used while changing
code; :func:`check_dev_seed` keeps tests and tools off them.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import resource
import shutil
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np

from .referee_score import EpisodeScore, score_episode

SPLITS = {"dev": range(1, 100_000), "held-out": range(700_001, 800_000)}
PRESET_MIX = ("classic", "classic", "classic", "classic", "draw-one", "free-pass", "junior", "three-starts",
              "false-start", "any-start")
MISTAKE_RATE = 0.08
CACHE = Path(".cache/referee-bench")


def check_dev_seed(seed: int) -> int:
    """The seed, if it is a development seed; a held-out seed is refused."""
    if seed in SPLITS["held-out"]:
        raise ValueError(f"seed {seed} is held out for the headline figures: develop and test on dev seeds")
    return seed


def episode_seeds(split: str, count: int, first: int = 0) -> list[int]:
    seeds = SPLITS[split]
    return list(seeds[first:first + count])


def episode_spec(seed: int) -> dict:
    """What an episode's seed draws: players, rules, deck style, layout (every combination turns up)."""
    from ..rules import get_preset
    from ..sim.deck import STYLES

    rng = np.random.default_rng([seed, 0xBE7C4])
    styles = sorted(STYLES)
    players = 2 + (seed // 8) % 5  # styles, layouts and player counts cycle: any 40 seeds hold every mix
    preset = get_preset(PRESET_MIX[int(rng.integers(len(PRESET_MIX)))])
    try:
        preset.check_players(players)
    except ValueError:
        preset = get_preset("classic")
    return {"players": players, "rules": preset.name, "style": styles[seed % len(styles)],
            "layout": ("piles", "side_by_side")[(seed // 4) % 2], "mistakes": MISTAKE_RATE}


def rendered_episode(seed: int, cache: Path = CACHE) -> Path:
    """The episode of a seed, rendered once into the cache."""
    from ..rules import get_preset
    from ..sim.episode import write_episode

    folder = cache / f"episode-{seed}"
    spec = episode_spec(seed)
    if (folder / "meta.json").exists():
        meta = json.loads((folder / "meta.json").read_text())
        if (len(meta["players"]), meta["rules"], meta["style"], meta["layout"]) == (
                spec["players"], spec["rules"], spec["style"], spec["layout"]):
            return folder
        shutil.rmtree(folder)  # rendered for another spec
    names = ("Anna", "Ben", "Cem", "Dana", "Emil", "Fritz")[: spec["players"]]
    partial = folder.with_name(folder.name + ".part")
    shutil.rmtree(partial, ignore_errors=True)
    write_episode(partial, get_preset(spec["rules"]), names, seed, mistakes=spec["mistakes"], style=spec["style"],
                  layout=spec["layout"])
    partial.rename(folder)
    return folder


def profiles_for(styles, cache: Path = CACHE) -> dict[str, Path]:
    """Each deck style's profile, calibrated from its 23 pictures as a family would
    (retakes included), saved once as a profile folder for the replays to load."""
    from .evaluate_read import calibrated_profiles
    from .vision import CALIBRATION_CACHE

    folders = {style: cache / "profiles" / style for style in styles}
    missing = [style for style, folder in folders.items() if not (folder / "profile.json").exists()]
    if missing:
        made = calibrated_profiles(missing, seed=7, folder=Path(".cache/vision-bench") / CALIBRATION_CACHE, retaken={})
        for style in missing:
            made[style].save(folders[style])
    return folders


def replay_in_child(folder: Path, profile: Path, pin: bool = True) -> dict:
    """One episode through the loop, in this (child) process: its lines, summary, time and memory."""
    import cv2

    from ..device import Episode
    from ..loop import RefereeLoop, run
    from ..record import summary
    from ..vision import Profile, StreamReader
    from .cores import pin_to_one_core

    pin_to_one_core(pin)
    cv2.setNumThreads(1)
    lines: list[dict] = []

    class Collect:
        def verdict(self, judged):
            lines.append(judged.to_json())

        def notice(self, notice):
            lines.append(notice.to_json())

        def state(self, view):
            pass

    episode = Episode.load(folder)
    reader = StreamReader(Profile.load(profile))
    started = time.perf_counter()
    loop = RefereeLoop(episode.start, Collect(), opener=episode.opener)
    run(episode.inputs(), reader, loop)
    seconds = time.perf_counter() - started
    return {"lines": lines, "summary": summary(loop.referee), "seconds": seconds,
            "game_seconds": episode.duration_ms / 1000, "rss_mb": _peak_rss_mb()}


def _peak_rss_mb() -> float:
    """This process's peak resident memory. ``VmHWM`` rather than ``ru_maxrss``: the latter
    survives ``exec`` and so would count the parent a child was forked from."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def run_referee_benchmark(episodes: int = 100, split: str = "held-out", first: int = 0, cache: Path = CACHE,
                          workers: int | None = None, pin: bool = True, out=sys.stdout) -> dict:
    from tqdm import tqdm

    seeds = episode_seeds(split, episodes, first)
    workers = workers or max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else 1)
    with ProcessPoolExecutor(workers) as pool, tqdm(total=len(seeds), unit="episode", disable=None, file=sys.stderr,
                                                     leave=False, desc="rendering") as bar:
        folders = []
        for folder in pool.map(rendered_episode, seeds, [cache] * len(seeds)):
            folders.append(folder)
            bar.update(1)
    metas = [json.loads((folder / "meta.json").read_text()) for folder in folders]
    profiles = profiles_for(sorted({meta["style"] for meta in metas}), cache)
    results = []
    # a fresh process per episode: its peak memory is the replay's alone, on one core each
    fresh = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(workers, mp_context=fresh, max_tasks_per_child=1) as pool, tqdm(
            total=len(seeds), unit="episode", disable=None, file=sys.stderr, leave=False, desc="replaying") as bar:
        futures = [pool.submit(replay_in_child, folder, profiles[meta["style"]], pin)
                   for folder, meta in zip(folders, metas)]
        for future in futures:
            results.append(future.result())
            bar.update(1)
    scores = []
    for folder, meta, result in zip(folders, metas, results):
        truth = [json.loads(line) for line in (folder / "truth.jsonl").read_text().splitlines() if line.strip()]
        scores.append(score_episode(truth, result["lines"], result["summary"]))
    figures = _figures(seeds, metas, scores, results)
    _print(figures, split, out)
    return figures


def _figures(seeds, metas, scores: list[EpisodeScore], results) -> dict:
    latencies = sorted(ms for score in scores for ms in score.latencies_ms)
    notices: dict[str, int] = {}
    for score in scores:
        for kind, count in score.notices.items():
            notices[kind] = notices.get(kind, 0) + count
    problems = []
    for seed, meta, score in zip(seeds, metas, scores):
        if not (score.in_order and score.final_equal and not score.false_alarms and not score.extra
                and score.flagged == score.mistakes):
            problems.append({"seed": seed, "style": meta["style"], "layout": meta["layout"], "rules": meta["rules"],
                             "in_order": score.in_order, "missed_placements": score.placements - score.registered,
                             "unflagged": score.mistakes - score.flagged, "extra": score.extra,
                             "false_alarms": [(v["t_ms"], v["error"], v["event"]) for v in score.false_alarms],
                             "final_diff": score.final_diff})
    return {
        "episodes": len(seeds),
        "placements": sum(s.placements for s in scores), "registered": sum(s.registered for s in scores),
        "games_in_order": sum(s.in_order for s in scores),
        "mistakes": sum(s.mistakes for s in scores), "flagged": sum(s.flagged for s in scores),
        "false_alarms": sum(len(s.false_alarms) for s in scores),
        "games_with_false_alarm": sum(bool(s.false_alarms) for s in scores),
        "extra_placements": sum(len(s.extra) for s in scores),
        "final_equal": sum(s.final_equal for s in scores),
        "notices": notices,
        "latency_median_ms": statistics.median(latencies) if latencies else None,
        "latency_p95_ms": latencies[min(len(latencies) - 1, int(0.95 * len(latencies)))] if latencies else None,
        "replay_share_median": statistics.median(r["seconds"] / r["game_seconds"] for r in results),
        "replay_share_max": max(r["seconds"] / r["game_seconds"] for r in results),
        "rss_mb_max": max(r["rss_mb"] for r in results),
        "rss_mb_median": statistics.median(r["rss_mb"] for r in results),
        "game_minutes": sum(r["game_seconds"] for r in results) / 60,
        "by_style": _by(metas, scores, "style"), "by_layout": _by(metas, scores, "layout"),
        "problems": problems,
    }


def _by(metas, scores, field: str) -> dict:
    groups: dict[str, list[EpisodeScore]] = {}
    for meta, score in zip(metas, scores):
        groups.setdefault(meta[field], []).append(score)
    return {name: {"episodes": len(group), "registered": sum(s.registered for s in group),
                   "placements": sum(s.placements for s in group), "flagged": sum(s.flagged for s in group),
                   "mistakes": sum(s.mistakes for s in group),
                   "false_alarms": sum(len(s.false_alarms) for s in group),
                   "final_equal": sum(s.final_equal for s in group)} for name, group in sorted(groups.items())}


def _print(f: dict, split: str, out) -> None:
    def share(a, b):
        return f"{100 * a / b:.2f} %" if b else "–"

    print(f"elfer bench referee: {f['episodes']} episodes ({split} seeds), {f['game_minutes']:.0f} minutes of play; "
          "each replayed in its own process on one core", file=out)
    rows = [
        ("placements registered", f"{f['registered']} of {f['placements']} ({share(f['registered'], f['placements'])})",
         "every one"),
        ("games whose record equals the truth", f"{f['games_in_order']} of {f['episodes']}", ""),
        ("mistakes flagged with the right code", f"{f['flagged']} of {f['mistakes']} ({share(f['flagged'], f['mistakes'])})",
         "≥ 99.5 %"),
        ("false alarms (rejections without a mistake)", f"{f['false_alarms']} in {f['games_with_false_alarm']} games",
         "none in 100 games"),
        ("extra placements", str(f["extra_placements"]), ""),
        ("final table equal to the truth's", f"{f['final_equal']} of {f['episodes']}", "every one"),
        ("latency, touch to first feedback", f"median {f['latency_median_ms'] / 1000:.2f} s, p95 "
         f"{f['latency_p95_ms'] / 1000:.2f} s", "≤ 1 s, ≤ 2 s"),
        ("replay time / game time, one core", f"median {100 * f['replay_share_median']:.1f} %, max "
         f"{100 * f['replay_share_max']:.1f} %", "≤ 20 %"),
        ("peak memory (resident)", f"median {f['rss_mb_median']:.0f} MB, max {f['rss_mb_max']:.0f} MB", "< 200 MB"),
        ("notices", ", ".join(f"{k} {v}" for k, v in sorted(f["notices"].items())) or "none", ""),
    ]
    width = max(len(r[0]) for r in rows)
    for name, value, target in rows:
        print(f"  {name:<{width}}  {value}" + (f"   (target {target})" if target else ""), file=out)
    for field in ("by_style", "by_layout"):
        for name, g in f[field].items():
            print(f"  {name:<14} {g['episodes']:3d} episodes: placements {g['registered']}/{g['placements']}, "
                  f"mistakes {g['flagged']}/{g['mistakes']}, false alarms {g['false_alarms']}, "
                  f"final equal {g['final_equal']}/{g['episodes']}", file=out)
    if split == "held-out":  # held-out episodes are counted, never looked into
        print(f"  {len(f['problems'])} episodes not entirely right (details only for dev seeds)", file=out)
        return
    for problem in f["problems"]:
        print("  problem: " + json.dumps(problem, ensure_ascii=False), file=out)
