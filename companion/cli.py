"""The ``elfer`` command: parse arguments, call the package, print. Nothing else."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from . import report
from .record import ERROR_EXIT, UNREADABLE_EXIT, RecordError, check, read_objects, summary, write_record
from .rules.presets import PRESETS, PresetError, get_preset
from .rules.session import TIEBREAKS, Referee
from .sim.bots import BOTS


def _preset_name(text: str) -> str:
    try:
        return get_preset(text).name
    except PresetError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def _bot_list(text: str) -> list[str]:
    kinds = [k.strip() for k in text.split(",") if k.strip()]
    unknown = [k for k in kinds if k not in BOTS]
    if not kinds or unknown:
        raise argparse.ArgumentTypeError(f"bots are {', '.join(BOTS)} (comma-separated), not {text!r}")
    return kinds


def _number(kind: type, low: float, high: float, what: str):
    """An argparse type for a number within [low, high]."""

    def parse(text: str):
        try:
            value = kind(text)
        except ValueError:
            value = None
        if value is None or not low <= value <= high:
            raise argparse.ArgumentTypeError(f"expected {what}, not {text!r}")
        return value

    return parse


_positive = _number(int, 1, float("inf"), "a whole number of at least 1")
_rate = _number(float, 0.0, 1.0, "a rate from 0 to 1")
_fps = _number(float, 0.5, 60.0, "frames per second from 0.5 to 60")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="elfer",
        description="Elfer raus! companion: a referee and scoresheet for the card game. "
        "Run 'elfer COMMAND --help' for each command.",
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    sim = commands.add_parser(
        "simulate", help="let bots play whole sessions and write their game records",
        description="Bots play whole sessions through the rules engine. Prints each session's totals and "
        "statistics (turns, draws, game length, penalty spread); with --out, writes one record per session "
        "that 'elfer check' accepts. The same seed gives the same games.",
    )
    sim.add_argument("--players", type=int, default=4, choices=range(2, 7), metavar="N", help="2 to 6 (default 4)")
    sim.add_argument("--rules", type=_preset_name, default="classic", metavar="NAME",
                     help=f"rule preset: {', '.join(PRESETS)} (default classic)")
    sim.add_argument("--games", type=_positive, metavar="K", help="games per session (default: one per player)")
    sim.add_argument("--limit", type=_positive, metavar="POINTS",
                     help="end a session when someone's penalty total reaches POINTS instead (e.g. 500)")
    sim.add_argument("--tiebreak", choices=TIEBREAKS, default="share",
                     help="tied leaders share the win (manual) or play one deciding game")
    sim.add_argument("--sessions", type=_positive, default=1, metavar="M", help="how many sessions (default 1)")
    sim.add_argument("--seed", type=int, default=1, metavar="S", help="random seed (default 1)")
    sim.add_argument("--bots", type=_bot_list, default=["sensible"], metavar="KINDS",
                     help="bot kinds by seat, comma-separated and repeated round the table: "
                     f"{', '.join(BOTS)} (default sensible)")
    sim.add_argument("--out", type=Path, metavar="DIR", help="write session-NNN.jsonl records into DIR")
    sim.add_argument("--json", action="store_true", help="print the statistics as JSON")
    sim.add_argument("--lang", choices=("de", "en"), default="de", help="language of the report (default de)")

    chk = commands.add_parser(
        "check", help="replay a game record through the referee",
        description="Replays a game record (JSON Lines) through the referee and reports every rejected "
        "event and where the game stands. Exit status 0: every line accepted; 1: some line rejected; "
        "2: the file cannot be read or is not JSON Lines.",
    )
    chk.add_argument("record", type=Path, metavar="RECORD.jsonl")
    chk.add_argument("--json", action="store_true", help="one JSON line per input line, then a summary line")
    chk.add_argument("--lang", choices=("de", "en"), default="de", help="language of messages (default de)")

    rules = commands.add_parser("rules", help="list the rule presets and what each one changes",
                                description="Lists the rule presets; with a name, describes that one.")
    rules.add_argument("name", nargs="?", type=_preset_name, help="a preset name")
    rules.add_argument("--lang", choices=("de", "en"), default="de", help="language of the titles (default de)")

    bench = commands.add_parser("bench", help="measure speed (benchmarks, not tests)",
                                description="Runs a benchmark and prints medians. 'rules': events checked per "
                                "second and whole 4-player games simulated per second, on one core. 'synth': "
                                "frames rendered per second at 1280x720 on one core. 'vision': the card reader's accuracy, speed and memory "
                                "on rendered scenes, beside Tesseract.")
    bench.add_argument("what", choices=("rules", "synth", "vision"), help="what to measure")
    bench.add_argument("--repeat", type=_positive, default=5, help="timed repetitions (default 5)")
    bench.add_argument("--games", type=_positive, default=2000, help="rules: games per repetition (default 2000)")
    bench.add_argument("--frames", type=_positive, default=300, help="synth: frames per repetition (default 300)")
    bench.add_argument("--scenes", type=_positive, default=2000, help="vision: rendered scenes (default 2000)")
    bench.add_argument("--tesseract-cards", type=int, default=500, help="vision: cards for the Tesseract "
                       "comparison, 0 to skip (default 500)")

    markers = commands.add_parser(
        "markers", help="write the printable sheet of the four play-area markers",
        description="Writes the A4 sheet of the four play-area markers (PNG or PDF, true size) with short "
        "instructions. Print it at 100 %%, cut the markers out and lay one on each corner of the play area.")
    markers.add_argument("--out", type=Path, required=True, metavar="FILE", help="FILE.pdf or FILE.png")
    markers.add_argument("--dpi", type=_positive, default=300, help="resolution (default 300)")

    _add_synth(commands)
    _add_vision(commands)
    return parser


def _add_vision(commands) -> None:
    read = commands.add_parser(
        "read", help="read the cards in camera pictures",
        description="Finds the play area and every fully visible card in each picture and reads its colour and "
        "number with a confidence. A card that cannot be read with confidence is reported as unknown, never "
        "guessed. Exit status 2 when a picture cannot be read or the profile is broken.")
    read.add_argument("images", nargs="+", type=Path, metavar="IMAGE")
    read.add_argument("--profile", type=Path, metavar="DIR", help="a calibration profile (default: the shipped "
                      "profile for the reference deck)")
    read.add_argument("--json", action="store_true", help="one JSON line per picture")
    read.add_argument("--show", type=Path, metavar="OUT.png", help="draw what was seen over the picture "
                      "(several pictures: OUT-1.png, OUT-2.png, ...)")
    read.add_argument("--lang", choices=("de", "en"), default="de", help="language of the summary (default de)")

    calibrate = commands.add_parser(
        "calibrate", help="learn a deck from single-card pictures",
        description="Learns a deck and a camera from single-card pictures whose file names start with the card "
        "code (R11.png, r11-2.jpg). The 20 cards of one colour plus the 11 of each other colour (23 pictures) "
        "are enough to read all 80 cards. Prints what it learned and warns about what is missing; a folder it "
        "cannot use is an error (exit 2) and writes nothing.")
    calibrate.add_argument("--images", type=Path, required=True, metavar="DIR")
    calibrate.add_argument("--out", type=Path, required=True, metavar="PROFILE", help="the profile folder to write")
    calibrate.add_argument("--name", metavar="DECK", help="a name for the deck (default: the profile folder's name)")


def _add_synth(commands) -> None:
    synth = commands.add_parser(
        "synth", help="render the synthetic table: episodes, single cards, labelled scenes",
        description="Renders pictures of a table with Elfer raus! cards, each with its exact truth: whole "
        "games as the camera would see them (episode), single-card pictures for calibration (cards), and "
        "labelled whole-table pictures (scenes). The same seed gives the same pixels.")
    kinds = synth.add_subparsers(dest="kind", required=True, metavar="KIND")
    episode = kinds.add_parser(
        "episode", help="a whole game: frames, button presses and the timed game record",
        description="Bots play a game; it is rendered frame by frame (hand enters, card goes down, hand "
        "leaves), with the buttons a family would press and the truth (the game record with t_ms). "
        "Optionally injects mistakes that the referee must flag, each taken back at once.")
    episode.add_argument("--players", type=int, default=3, choices=range(2, 7), metavar="N", help="2 to 6 (default 3)")
    episode.add_argument("--rules", type=_preset_name, default="classic", metavar="NAME", help="rule preset (default classic)")
    episode.add_argument("--seed", type=int, default=1, metavar="S", help="random seed (default 1)")
    episode.add_argument("--out", type=Path, required=True, metavar="DIR", help="the episode folder")
    episode.add_argument("--mistakes", type=_rate, default=0.0, metavar="RATE",
                         help="chance per move of a mistake, 0 to 1 (default 0)")
    episode.add_argument("--fps", type=_fps, default=10.0, metavar="F", help="frames per second (default 10)")
    episode.add_argument("--style", choices=sorted(_styles()), help="deck style (default: drawn from the seed)")
    episode.add_argument("--layout", choices=("piles", "side_by_side"), default="piles", help="how rows are laid")
    cards = kinds.add_parser("cards", help="single-card pictures for calibration (R11.png, R11_2.png, ...)",
                             description="One picture per card of the deck under varied light and camera angle, "
                             "named by the card, for 'elfer calibrate'.")
    cards.add_argument("--style", choices=sorted(_styles()), default="reference", help="deck style (default reference)")
    cards.add_argument("--out", type=Path, required=True, metavar="DIR")
    cards.add_argument("--variants", type=_positive, default=1, metavar="K", help="pictures per card (default 1)")
    cards.add_argument("--seed", type=int, default=0, metavar="S", help="random seed (default 0)")
    scenes = kinds.add_parser("scenes", help="whole-table pictures with labels.json",
                              description="Random game positions on random tables, cameras and lights; labels.json "
                              "gives per picture every card's code, outline polygon in pixels and whether it is "
                              "visible, plus the style, surface, camera and lighting used.")
    scenes.add_argument("--n", type=_positive, default=20, metavar="K", help="how many pictures (default 20)")
    scenes.add_argument("--seed", type=int, default=0, metavar="S", help="random seed (default 0)")
    scenes.add_argument("--out", type=Path, required=True, metavar="DIR")
    sheet = kinds.add_parser("sheet", help="a contact sheet: every deck style on every surface",
                             description="Renders one scene per deck style and surface, under varied light, "
                             "into one picture (the README shows it).")
    sheet.add_argument("--out", type=Path, required=True, metavar="FILE", help="FILE.jpg or FILE.png")
    sheet.add_argument("--seed", type=int, default=0, metavar="S", help="random seed (default 0)")


def _styles():
    from .sim.deck import STYLES

    return STYLES


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    commands = {"simulate": _simulate, "check": _check, "rules": _rules, "bench": _bench, "markers": _markers,
                "synth": _synth, "read": _read, "calibrate": _calibrate}
    return commands[args.command](args)


def _simulate(args: argparse.Namespace) -> int:
    from tqdm import tqdm

    from .sim.simulate import RunawayGame, simulate, statistics_of

    preset = get_preset(args.rules)
    try:
        preset.check_players(args.players)
    except PresetError as error:
        print(f"elfer simulate: {error}", file=sys.stderr)
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


def _bench(args: argparse.Namespace) -> int:
    if args.what == "vision":
        from .vision.bench import run_vision_benchmark

        run_vision_benchmark(n_scenes=args.scenes, tesseract_cards=args.tesseract_cards)
        return 0
    if args.what == "synth":
        from .sim.bench_synth import run_synth_benchmark

        run_synth_benchmark(frames=args.frames, repeat=args.repeat)
        return 0
    from .bench import run_rules_benchmark

    run_rules_benchmark(games=args.games, repeat=args.repeat)
    return 0


def _read(args: argparse.Namespace) -> int:
    import cv2

    from . import report
    from .vision.pipeline import TableReader
    from .vision.profile import Profile, ProfileError

    try:
        reader = TableReader(Profile.load(args.profile) if args.profile else None)
    except ProfileError as error:
        print(f"elfer read: {error}", file=sys.stderr)
        return 2
    status = 0
    for number, path in enumerate(args.images, start=1):
        frame = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if frame is None:
            print(f"elfer read: cannot read {path} as a picture", file=sys.stderr)
            status = 2
            continue
        reading = reader.read(frame)
        if args.json:
            print(json.dumps({"image": str(path), "area": reading.area,
                              "cards": [seen.to_json() for seen in reading.cards]}, ensure_ascii=False))
        else:
            print(report.reading(str(path), reading, args.lang))
        if args.show:
            out = args.show if len(args.images) == 1 else args.show.with_name(
                f"{args.show.stem}-{number}{args.show.suffix or '.png'}")
            if not cv2.imwrite(str(out), report.draw_reading(frame, reading, args.lang)):
                print(f"elfer read: cannot write {out}", file=sys.stderr)
                status = 2
    return status


def _calibrate(args: argparse.Namespace) -> int:
    from .vision.calibrate import CalibrationError, calibrate

    try:
        profile, learned = calibrate(args.images, deck_name=args.name or args.out.name)
        profile.save(args.out)
    except (CalibrationError, OSError) as error:
        print(f"elfer calibrate: {error}", file=sys.stderr)
        return 2
    print(learned.text())
    print(f"profile written to {args.out}")
    return 0


def _markers(args: argparse.Namespace) -> int:
    from .vision.markers import save_marker_sheet

    try:
        path = save_marker_sheet(args.out, dpi=args.dpi)
    except (ValueError, OSError) as error:
        print(f"elfer markers: {error}", file=sys.stderr)
        return 2
    print(f"{path} – mit 100 % drucken / print at 100 %")
    return 0


def _synth(args: argparse.Namespace) -> int:
    from tqdm import tqdm

    from .sim import datasets, episode

    out: Path = args.out
    if args.kind == "sheet":
        from .sim.contact import contact_sheet

        try:
            print(contact_sheet(out, args.seed))
        except ValueError as error:
            print(f"elfer synth sheet: {error}", file=sys.stderr)
            return 2
        return 0
    if out.exists() and not out.is_dir():
        print(f"elfer synth: {out} is a file, not a folder", file=sys.stderr)
        return 2
    with tqdm(unit="frame" if args.kind == "episode" else "picture", disable=None, file=sys.stderr,
              leave=False) as bar:
        def progress(done: int, total: int) -> None:
            bar.total = total
            bar.update(done - bar.n)

        if args.kind == "episode":
            preset = get_preset(args.rules)
            try:
                preset.check_players(args.players)
            except PresetError as error:
                print(f"elfer synth episode: {error}", file=sys.stderr)
                return 2
            from .sim.simulate import DEFAULT_NAMES

            meta = episode.write_episode(out, preset, DEFAULT_NAMES[: args.players], args.seed, fps=args.fps,
                                         mistakes=args.mistakes, style=args.style, layout=args.layout,
                                         progress=progress)
            summary = f"{meta['frames']} frames, {meta['mistakes']} mistakes, style {meta['style']}"
        elif args.kind == "cards":
            written = datasets.write_cards(out, args.style, args.variants, args.seed, progress=progress)
            summary = f"{len(written)} pictures"
        else:
            labels = datasets.write_scenes(out, args.n, args.seed, progress=progress)
            summary = f"{len(labels)} pictures with labels.json"
    print(f"{out}: {summary}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
