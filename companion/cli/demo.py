"""``elfer demo``: a rendered game through the real loop and screens, shown in the terminal."""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from pathlib import Path

from .types import _number, add_lang, playable_preset, preset_name

players = _number(int, 2, 6, "2 to 6 players")
seed = _number(int, 0, 2**32 - 1, "a seed from 0 to 4294967295")
speed = _number(float, 0.1, 1000.0, "a speed from 0.1 to 1000")


def add_commands(commands) -> None:
    demo = commands.add_parser(
        "demo", help="watch the companion referee a rendered game: the screen in the terminal, a GIF of it all",
        description="Renders a short game of the bots on the synthetic table, with a few of a family's mistakes, "
        "and runs it through the companion's own loop (card reader, tracker, referee) and screens. The terminal "
        "shows the 128x64 screen and a line per event; OUT/demo.gif shows the camera's view beside the screen.",
    )
    demo.add_argument("--players", type=players, default=3, help="2 to 6 (default 3)")
    demo.add_argument("--rules", type=preset_name, default="classic", help="the preset (default classic)")
    demo.add_argument("--seed", type=seed, default=1, help="which game the bots play (default 1)")
    demo.add_argument("--out", type=Path, metavar="DIR",
                      help="keep the episode and write demo.gif here (default: a temporary folder; the GIF is "
                      "written to ./demo.gif)")
    demo.add_argument("--speed", type=speed, metavar="X",
                      help="play at X times the game's pace (default: as fast as the machine can)")
    add_lang(demo, "the screens and the log")
    demo.set_defaults(run=_demo)


def _demo(args: argparse.Namespace) -> int:
    from ..demo import DemoSettings, Film, Pace, render_game
    from ..device import Episode
    from ..device.display import Screen, open_display
    from ..device.feedback import Feedback
    from ..loop import Fanout, RefereeLoop, run
    from ..record import summary
    from ..report import game_summary
    from ..ui import Panel, to_text
    from ..vision import StreamReader

    if playable_preset(args.rules, args.players, "demo") is None:
        return 2
    settings = DemoSettings(players=args.players, rules=args.rules, seed=args.seed, lang=args.lang)
    workdir = args.out or Path(tempfile.mkdtemp(prefix="elfer-demo-"))
    gif = (args.out / "demo.gif") if args.out else Path("demo.gif")
    try:
        workdir.mkdir(parents=True, exist_ok=True)
        folder = render_game(workdir / "episode", settings, _progress)
        print(file=sys.stderr)
        episode = Episode.load(folder)
        film = Film(settings.gif_every_ms)
        terminal = Terminal(args.lang, live=sys.stdout.isatty())

        def shown(image) -> None:
            film.screen(image)
            terminal.image(image)

        feedback = Feedback(Panel(args.lang), Screen(open_display("dummy")), on_image=shown)
        loop = RefereeLoop(episode.start, Fanout(feedback, terminal), opener=episode.opener)
        pace = Pace(args.speed)

        def filmed(t_ms, picture) -> None:
            film.table(t_ms, picture)
            pace(t_ms)

        run(episode.inputs(), StreamReader(), loop, on_frame=filmed)
        if not terminal.live and feedback.image is not None:
            print(to_text(feedback.image))
        print()
        print(game_summary(summary(loop.referee), args.lang))
        film.save(gif, settings.gif_speed)
        print(f"elfer demo: {gif} ({len(film.frames)} frames)", file=sys.stderr)
    except OSError as error:
        print(f"elfer demo: {error.filename or ''}: {error.strerror or error}", file=sys.stderr)
        return 2
    finally:
        if args.out is None:
            shutil.rmtree(workdir, ignore_errors=True)
    return 0


def _progress(done: int, total: int) -> None:
    """A counter redrawn in place on a terminal; in a log, one line when the game is rendered."""
    if sys.stderr.isatty() and (done == total or done % 50 == 0):
        print(f"\relfer demo: rendering the game, frame {done} of {total}", end="", file=sys.stderr, flush=True)
    elif done == total:
        print(f"elfer demo: rendered the game, {total} frames", end="", file=sys.stderr)


class Terminal:
    """The loop's events as log lines; on a terminal, the screen redrawn above the last few."""

    def __init__(self, lang: str, live: bool, keep: int = 8):
        self.lang, self.live, self.keep = lang, live, keep
        self.lines: list[str] = []
        self.screen = ""

    def verdict(self, judged) -> None:
        from ..report import replay_verdict

        self._log(replay_verdict(judged, self.lang))

    def notice(self, notice) -> None:
        from ..report import replay_notice

        self._log(replay_notice(notice, self.lang))

    def state(self, view) -> None:
        pass

    def image(self, image) -> None:
        from ..ui import to_text

        self.screen = to_text(image)
        self._draw()

    def _log(self, line: str) -> None:
        if not self.live:
            print(line)
            return
        self.lines = (self.lines + [line])[-self.keep:]
        self._draw()

    def _draw(self) -> None:
        if self.live:
            print("\x1b[H\x1b[J" + self.screen + "\n\n" + "\n".join(self.lines), flush=True)
