"""``elfer bench``: the speed and accuracy benchmarks. They print medians; they are not tests."""

from __future__ import annotations

import argparse

from .types import count, positive


def add_commands(commands) -> None:
    bench = commands.add_parser("bench", help="measure speed (benchmarks, not tests)",
                                description="Runs a benchmark and prints medians. 'rules': events checked per "
                                "second and whole 4-player games simulated per second, on one core. 'synth': "
                                "frames rendered per second at 1280x720 on one core. 'vision': the card reader's accuracy, speed and memory "
                                "on rendered scenes, beside Tesseract. 'stream': how fast the card reader keeps up with a camera "
                                "over a game (only what changed is read again), beside reading every frame whole. 'stages': where a frame's "
                                "time goes, stage by stage of the card reader. 'misses': one JSON line per card the "
                                "vision benchmark's reader misses, with what it read around it. 'seeds': the card "
                                "reader's accuracy on several seeds' scenes, each seed's and pooled. 'referee': whole rendered games replayed "
                                "through the referee loop and scored against their truth (placements, mistakes, "
                                "false alarms, latency, speed, memory); the headline uses held-out seeds. 'designs': the card reader on "
                                "deck designs drawn from seeds (companion/sim/designs.py), each calibrated from its 23 "
                                "pictures: held-out families and fonts (the headline) or training ones.")
    bench.add_argument("what", choices=("rules", "synth", "vision", "stream", "stages", "misses", "seeds", "referee", "designs"), help="what to measure")
    bench.add_argument("--repeat", type=positive, default=5, help="timed repetitions (default 5)")
    bench.add_argument("--games", type=positive, default=2000, help="rules: games per repetition (default 2000)")
    bench.add_argument("--frames", type=positive, default=300, help="synth: frames per repetition (default 300)")
    bench.add_argument("--scenes", type=positive, help="vision, stages, misses: rendered scenes (default "
                       "2000 for vision and misses, the first 300 of them for stages)")
    bench.add_argument("--seed", type=int, default=2026, help="vision, stream, stages, misses: which scenes to render (default 2026, "
                       "the figures in docs/benchmarks.md; another seed gives scenes the reader was not tuned on)")
    bench.add_argument("--seeds", type=_seed_and_scenes, nargs="+", metavar="SEED[:SCENES]",
                       help="seeds: which scenes, SCENES of each (default 1000; without --seeds: 2026:2000 13 11 7)")
    bench.add_argument("--tesseract-cards", type=int, default=500, help="vision: cards for the Tesseract "
                       "comparison, 0 to skip (default 500)")
    bench.add_argument("--search", action="store_true", help="vision, stream: find the cards by the edge and "
                       "numeral search instead of the card detector (the reader before the detector, for comparison)")
    bench.add_argument("--no-markers", action="store_true", help="vision, stream, stages, misses, seeds: read each scene as if it had "
                       "no play-area markers (the frame at the scale its cards show)")
    bench.add_argument("--streams", type=positive, default=24, help="stream: rendered streams (default 24)")
    bench.add_argument("--stream-frames", type=positive, default=100, help="stream: frames per stream "
                       "(default 100: 10 seconds of a game)")
    bench.add_argument("--episodes", type=positive, default=100, help="referee: episodes (default 100)")
    bench.add_argument("--split", choices=("held-out", "dev"), default="held-out",
                       help="referee, designs: held-out seeds or designs (the headline, default), or dev ones "
                       "(for development: the referee's dev seeds, the training families' designs)")
    bench.add_argument("--designs", type=count, default=24, help="designs, vision: deck designs, the families in "
                       "turn (default 24; vision reads that many held-out designs after the four styles, 0 to skip)")
    bench.add_argument("--per-design", type=positive, default=20, help="designs: scenes of each design (default 20)")
    bench.add_argument("--first", type=int, default=0, metavar="K", help="referee: skip the split's first K seeds")
    bench.set_defaults(run=_bench)


def _seed_and_scenes(text: str) -> tuple[int, int]:
    from ..bench.seeds import seed_and_scenes

    try:
        return seed_and_scenes(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def _reader_mode(args: argparse.Namespace) -> str:
    """How the vision benchmarks' reader finds the cards (``vision.bench.READERS``)."""
    return "search" if args.search else "no-markers" if args.no_markers else "detect"


def _bench(args: argparse.Namespace) -> int:
    if args.what == "vision":
        from ..bench.vision import run_vision_benchmark

        run_vision_benchmark(n_scenes=args.scenes or 2000, seed=args.seed, tesseract_cards=args.tesseract_cards,
                             held_out_designs=args.designs, per_design=args.per_design,
                             mode=_reader_mode(args))
        return 0
    if args.what == "stages":
        from ..bench.stages import run_stage_benchmark

        run_stage_benchmark(n_scenes=args.scenes or 300, seed=args.seed,
                            mode=_reader_mode(args))
        return 0
    if args.what == "misses":
        from ..bench.misses import run_misses

        run_misses(n_scenes=args.scenes or 2000, seed=args.seed,
                   mode=_reader_mode(args))
        return 0
    if args.what == "seeds":
        from ..bench.seeds import DEFAULT_SEEDS, run_seeds_benchmark

        run_seeds_benchmark(seeds=args.seeds or DEFAULT_SEEDS, mode=_reader_mode(args))
        return 0
    if args.what == "stream":
        from ..bench.stream import run_stream_benchmark

        run_stream_benchmark(streams=args.streams, frames=args.stream_frames, seed=args.seed,
                             mode=_reader_mode(args))
        return 0
    if args.what == "designs":
        from ..bench.designs import run_designs_benchmark

        run_designs_benchmark("train" if args.split == "dev" else "held-out", designs=args.designs,
                              per_design=args.per_design, mode=_reader_mode(args))
        return 0
    if args.what == "referee":
        from ..bench.referee import run_referee_benchmark

        run_referee_benchmark(episodes=args.episodes, split=args.split, first=args.first)
        return 0
    if args.what == "synth":
        from ..bench.synth import run_synth_benchmark

        run_synth_benchmark(frames=args.frames, repeat=args.repeat)
        return 0
    from ..bench.rules import run_rules_benchmark

    run_rules_benchmark(games=args.games, repeat=args.repeat)
    return 0
