"""``elfer simulate``, ``elfer check`` and ``elfer rules``: the rules engine's commands."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from .. import report
from ..record import ERROR_EXIT, UNREADABLE_EXIT, RecordError, check, read_objects, summary, write_record
from ..rules.presets import PRESETS
from ..rules.session import TIEBREAKS, Referee
from ..sim.bots import BOTS
from .types import add_lang, bot_list, playable_preset, positive, preset_name


def add_commands(commands) -> None:
    sim = commands.add_parser(
        "simulate", help="let bots play whole sessions and write their game records",
        description="Bots play whole sessions through the rules engine. Prints each session's totals and "
        "statistics (turns, draws, game length, penalty spread); with --out, writes one record per session "
        "that 'elfer check' accepts. The same seed gives the same games.",
    )
    sim.add_argument("--players", type=int, default=4, choices=range(2, 7), metavar="N", help="2 to 6 (default 4)")
    sim.add_argument("--rules", type=preset_name, default="classic", metavar="NAME",
                     help=f"rule preset: {', '.join(PRESETS)} (default classic)")
    sim.add_argument("--games", type=positive, metavar="K", help="games per session (default: one per player)")
    sim.add_argument("--limit", type=positive, metavar="POINTS",
                     help="end a session when someone's penalty total reaches POINTS instead (e.g. 500)")
    sim.add_argument("--tiebreak", choices=TIEBREAKS, default="share",
                     help="tied leaders share the win (manual) or play one deciding game")
    sim.add_argument("--sessions", type=positive, default=1, metavar="M", help="how many sessions (default 1)")
    sim.add_argument("--seed", type=int, default=1, metavar="S", help="random seed (default 1)")
    sim.add_argument("--bots", type=bot_list, default=["sensible"], metavar="KINDS",
                     help="bot kinds by seat, comma-separated and repeated round the table: "
                     f"{', '.join(BOTS)} (default sensible)")
    sim.add_argument("--out", type=Path, metavar="DIR", help="write session-NNN.jsonl records into DIR")
    sim.add_argument("--json", action="store_true", help="print the statistics as JSON")
    add_lang(sim, "the report")
    sim.set_defaults(run=_simulate)

    chk = commands.add_parser(
        "check", help="replay a game record through the referee",
        description="Replays a game record (JSON Lines) through the referee and reports every rejected "
        "event and where the game stands. Exit status 0: every line accepted; 1: some line rejected; "
        "2: the file cannot be read or is not JSON Lines.",
    )
    chk.add_argument("record", type=Path, metavar="RECORD.jsonl")
    chk.add_argument("--json", action="store_true", help="one JSON line per input line, then a summary line")
    add_lang(chk, "messages")
    chk.set_defaults(run=_check)

    rules = commands.add_parser("rules", help="list the rule presets and what each one changes",
                                description="Lists the rule presets; with a name, describes that one.")
    rules.add_argument("name", nargs="?", type=preset_name, help="a preset name")
    add_lang(rules, "the titles")
    rules.set_defaults(run=_rules)


def _simulate(args: argparse.Namespace) -> int:
    from tqdm import tqdm

    from ..sim.simulate import RunawayGame, simulate, statistics_of

    preset = playable_preset(args.rules, args.players, "simulate")
    if preset is None:
        return 2
    if args.out:
        try:
            args.out.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            print(f"elfer simulate: cannot write records to {args.out}: {error.strerror or error}", file=sys.stderr)
            return 2
    with tqdm(total=args.sessions, unit="session", disable=None, file=sys.stderr, leave=False) as bar:
        try:
            results = simulate(preset, args.players, args.sessions, args.seed, args.bots, args.games, args.limit,
                               args.tiebreak, progress=lambda games: bar.update(1))
        except RunawayGame as error:
            print(f"elfer simulate: {error}", file=sys.stderr)
            return 1
    stats = statistics_of(results)
    if args.out:
        for number, result in enumerate(results, start=1):
            write_record(result.record, args.out / f"session-{number:03d}.jsonl")
    if args.json:
        print(json.dumps(stats, ensure_ascii=False))
    else:
        print(report.simulation(stats, results, args.lang))
        if args.out:
            print(f"{report.TEXTS[args.lang]['written']} {args.out}")
    return 0


def _check(args: argparse.Namespace) -> int:
    referee = Referee()
    lines = rejected = 0
    output = []
    try:
        objects = list(read_objects(args.record))
    except RecordError as error:
        print(f"elfer check: {error}", file=sys.stderr)
        return UNREADABLE_EXIT
    by_line = dict(objects)
    for checked in check(objects, referee):
        lines += 1
        rejected += not checked.verdict.ok
        if args.json:
            output.append(json.dumps(checked.to_json(args.lang), ensure_ascii=False))
        else:
            output.append(report.check_line(checked, by_line[checked.line], args.lang))
    result = summary(referee)
    if args.json:
        output.append(json.dumps({"summary": result}, ensure_ascii=False))
    else:
        output.append("")
        output.append(report.check_summary(result, lines, rejected, args.lang))
    print("\n".join(output))
    return ERROR_EXIT if rejected else 0


def _rules(args: argparse.Namespace) -> int:
    for preset in PRESETS.values():
        if args.name and preset.name != args.name:
            continue
        print(f"{preset.name:14} {preset.title[args.lang]}")
        if args.name:
            print(f"\n{preset.description}")
    return 0
