"""``elfer markers`` and ``elfer synth``: the play-area sheet and the synthetic table."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .types import fps, playable_preset, positive, preset_name, rate


def add_commands(commands) -> None:
    markers = commands.add_parser(
        "markers", help="write the printable sheet of the four play-area markers",
        description="Writes the A4 sheet of the four play-area markers (PNG or PDF, true size) with short "
        "instructions. Print it at 100 %, cut the markers out and lay one on each corner of the play area.")
    markers.add_argument("--out", type=Path, required=True, metavar="FILE", help="FILE.pdf or FILE.png")
    markers.add_argument("--dpi", type=positive, default=300, help="resolution (default 300)")
    markers.set_defaults(run=_markers)
    _add_synth(commands)


def _add_synth(commands) -> None:
    synth = commands.add_parser(
        "synth", help="render the synthetic table: episodes, single cards, labelled scenes",
        description="Renders pictures of a table with Elfer raus! cards, each with its exact truth: whole "
        "games as the camera would see them (episode), single-card pictures for calibration (cards), and "
        "labelled whole-table pictures (scenes). The same seed gives the same pixels.")
    synth.set_defaults(run=_synth)
    kinds = synth.add_subparsers(dest="kind", required=True, metavar="KIND")
    episode = kinds.add_parser(
        "episode", help="a whole game: frames, button presses and the timed game record",
        description="Bots play a game; it is rendered frame by frame (hand enters, card goes down, hand "
        "leaves), with the buttons a family would press and the truth (the game record with t_ms). "
        "Optionally injects mistakes that the referee must flag, each taken back at once. The family also "
        "lays two cards in one reach now and then, answers the companion's questions, presses NEXT while "
        "the hand still leaves, and the room disturbs the picture (a pile nudged, the camera knocked, a "
        "lamp, a glare spot, a cup at the edge); --plain leaves all that out.")
    episode.add_argument("--players", type=int, default=3, choices=range(2, 7), metavar="N", help="2 to 6 (default 3)")
    episode.add_argument("--rules", type=preset_name, default="classic", metavar="NAME", help="rule preset (default classic)")
    episode.add_argument("--seed", type=int, default=1, metavar="S", help="random seed (default 1)")
    episode.add_argument("--out", type=Path, required=True, metavar="DIR", help="the episode folder")
    episode.add_argument("--mistakes", type=rate, default=0.0, metavar="RATE",
                         help="chance per move of a mistake, 0 to 1 (default 0)")
    episode.add_argument("--fps", type=fps, default=10.0, metavar="F", help="frames per second (default 10)")
    episode.add_argument("--style", type=_style, help="deck style, or a design FAMILY:SEED (default: drawn from the seed)")
    episode.add_argument("--layout", choices=("piles", "side_by_side"), default="piles", help="how rows are laid")
    episode.add_argument("--plain", action="store_true",
                         help="only the moves (and --mistakes): no two cards in one reach, no answers, no early "
                         "NEXT, no disturbances")
    cards = kinds.add_parser("cards", help="single-card pictures for calibration (R11.png, R11_2.png, ...)",
                             description="One picture per card of the deck under varied light and camera angle, "
                             "named by the card, for 'elfer calibrate'.")
    cards.add_argument("--style", type=_style, default="reference",
                       help="deck style, or a design FAMILY:SEED (default reference)")
    cards.add_argument("--out", type=Path, required=True, metavar="DIR")
    cards.add_argument("--variants", type=positive, default=1, metavar="K", help="pictures per card (default 1)")
    cards.add_argument("--seed", type=int, default=0, metavar="S", help="random seed (default 0)")
    scenes = kinds.add_parser("scenes", help="whole-table pictures with labels.json",
                              description="Random game positions on random tables, cameras and lights; labels.json "
                              "gives per picture every card's code, outline polygon in pixels and whether it is "
                              "visible, plus the style, surface, camera and lighting used.")
    scenes.add_argument("--n", type=positive, default=20, metavar="K", help="how many pictures (default 20)")
    scenes.add_argument("--seed", type=int, default=0, metavar="S", help="random seed (default 0)")
    scenes.add_argument("--out", type=Path, required=True, metavar="DIR")
    sheet = kinds.add_parser("sheet", help="a contact sheet: every deck style on every surface",
                             description="Renders one scene per deck style and surface, under varied light, "
                             "into one picture (the README and docs/synthetic-table.md show it).")
    sheet.add_argument("--out", type=Path, required=True, metavar="FILE", help="FILE.jpg or FILE.png")
    sheet.add_argument("--seed", type=int, default=0, metavar="S", help="random seed (default 0)")


def _style(name: str) -> str:
    """A deck style's name or a design's (FAMILY:SEED), checked as the argument is parsed."""
    from ..sim.deck import get_style

    try:
        get_style(name)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None
    return name


def _markers(args: argparse.Namespace) -> int:
    from ..vision.markers import save_marker_sheet

    try:
        path = save_marker_sheet(args.out, dpi=args.dpi)
    except (ValueError, OSError) as error:
        print(f"elfer markers: {error}", file=sys.stderr)
        return 2
    print(f"{path} – mit 100 % drucken / print at 100 %")
    return 0


def _synth(args: argparse.Namespace) -> int:
    from tqdm import tqdm

    from ..sim import datasets, episode

    out: Path = args.out
    if args.kind == "sheet":
        from ..sim.contact import contact_sheet

        try:
            print(contact_sheet(out, args.seed))
        except ValueError as error:
            print(f"elfer synth sheet: {error}", file=sys.stderr)
            return 2
        return 0
    preset = playable_preset(args.rules, args.players, "synth episode") if args.kind == "episode" else None
    if args.kind == "episode" and preset is None:
        return 2
    if out.exists() and not out.is_dir():
        print(f"elfer synth: {out} is a file, not a folder", file=sys.stderr)
        return 2
    with tqdm(unit="frame" if args.kind == "episode" else "picture", disable=None, file=sys.stderr,
              leave=False) as bar:
        def progress(done: int, total: int) -> None:
            bar.total = total
            bar.update(done - bar.n)

        if args.kind == "episode":
            from ..sim.script import FAMILY, PLAIN
            from ..sim.simulate import DEFAULT_NAMES

            meta = episode.write_episode(out, preset, DEFAULT_NAMES[: args.players], args.seed, fps=args.fps,
                                         mistakes=args.mistakes, style=args.style, layout=args.layout,
                                         progress=progress, behaviours=PLAIN if args.plain else FAMILY)
            summary = (f"{meta['frames']} frames, {meta['mistakes']} mistakes, "
                       f"{meta['two_in_one_reach']} two-card reaches, {len(meta['disturbances'])} disturbances, "
                       f"style {meta['style']}")
        elif args.kind == "cards":
            written = datasets.write_cards(out, args.style, args.variants, args.seed, progress=progress)
            summary = f"{len(written)} pictures"
        else:
            labels = datasets.write_scenes(out, args.n, args.seed, progress=progress)
            summary = f"{len(labels)} pictures with labels.json"
    print(f"{out}: {summary}")
    return 0
