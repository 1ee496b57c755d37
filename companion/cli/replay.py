"""``elfer replay``: an episode through the referee loop, as the device would judge it."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from .types import add_lang


def add_commands(commands) -> None:
    replay = commands.add_parser(
        "replay", help="run an episode folder through the referee loop the device runs",
        description="Runs an episode folder (meta.json, frames/, buttons.jsonl) through the referee loop, frame "
        "by frame at the frames' times: the card reader, the tracker and the referee, with the button presses. "
        "Prints every verdict and notice (with --json one JSON line each, then the summary line of "
        "'elfer check --json'). Exit status 0 when the episode was replayed, 2 when it is missing or malformed "
        "or the profile cannot be loaded.",
    )
    replay.add_argument("episode", type=Path, metavar="EPISODE", help="the episode folder")
    replay.add_argument("--profile", type=Path, metavar="DIR",
                        help="the deck's calibration profile (default: the shipped reference profile)")
    replay.add_argument("--json", action="store_true", help="one JSON line per verdict and notice, then the summary")
    replay.add_argument("--record", type=Path, metavar="OUT.jsonl",
                        help="write the game record as the companion journals it (the accepted events, with t_ms)")
    add_lang(replay, "messages")
    replay.set_defaults(run=_replay)


class _ReadableLog:
    """The loop's outputs as readable lines: time, who, what, the verdict."""

    def __init__(self, lang: str):
        self.lang = lang

    def verdict(self, judged) -> None:
        from .. import report

        print(report.replay_verdict(judged, self.lang))

    def notice(self, notice) -> None:
        from .. import report

        print(report.replay_notice(notice, self.lang))

    def state(self, view) -> None:
        pass


def _replay(args: argparse.Namespace) -> int:
    from .. import report
    from ..device import Episode, EpisodeError
    from ..loop import Fanout, Journal, JsonLines, LoopError, RefereeLoop, run
    from ..record import summary
    from ..vision import Profile, ProfileError, StreamReader

    try:
        episode = Episode.load(args.episode)
        profile = Profile.load(args.profile) if args.profile else None
    except (EpisodeError, ProfileError) as error:
        print(f"elfer replay: {error}", file=sys.stderr)
        return 2
    journal = Journal()
    shown = JsonLines(sys.stdout, args.lang) if args.json else _ReadableLog(args.lang)
    try:
        loop = RefereeLoop(episode.start, Fanout(shown, journal), opener=episode.opener)
    except LoopError as error:
        print(f"elfer replay: {args.episode / 'meta.json'}: {error}", file=sys.stderr)
        return 2
    skipped = run(episode.inputs(), StreamReader(profile), loop)
    result = summary(loop.referee)
    if args.json:
        print(json.dumps({"summary": result}, ensure_ascii=False))
    else:
        print()
        print(report.game_summary(result, args.lang))
    if skipped:
        print(f"elfer replay: {skipped} frames could not be decoded and were skipped", file=sys.stderr)
    if args.record:
        try:
            with open(args.record, "w", encoding="utf-8") as out:
                journal.write(out)
        except OSError as error:
            print(f"elfer replay: cannot write {args.record}: {error.strerror or error}", file=sys.stderr)
            return 2
    return 0
