"""``elfer run``: the device, from its config."""

from __future__ import annotations

import argparse
import signal
import sys
import threading
import warnings
from pathlib import Path


def add_commands(commands) -> None:
    run = commands.add_parser(
        "run", help="run the companion on its hardware (camera, buttons, OLED, buzzer)",
        description="Runs the companion: camera frames and button presses through the referee loop, verdicts on "
        "the screen and the buzzer, until stopped (SIGTERM or Ctrl-C). Every key of the config has a default "
        "(docs/device.md). Exit status 2 when the config is bad or the companion cannot play at all.",
    )
    run.add_argument("--config", type=Path, metavar="FILE", help="companion.toml (default: every key at its default)")
    run.add_argument("--dry-run", action="store_true",
                     help="check the config and the hardware it can see, print what was found, and stop")
    run.set_defaults(run=_run)


def _run(args: argparse.Namespace) -> int:
    from ..device.app import SetupError, build
    from ..device.camera import probe
    from ..device.config import ConfigError, load_config

    try:
        config = load_config(args.config)
    except ConfigError as error:
        for problem in error.problems:
            print(f"elfer run: {problem}", file=sys.stderr)
        return 2
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # gpiozero warns for each pin driver it tries; the result is said below
        try:
            app = build(config, need_buttons=not args.dry_run)
        except SetupError as error:
            print(f"elfer run: {error}", file=sys.stderr)
            return 2
    if args.dry_run:
        print(f"config: {args.config or 'defaults'}: ok")
        print(probe(app.runner.camera))
        for line in app.found:
            print(line)
        if app.buttons is None and app.episode is None:
            print("cannot play: no buttons")
        app.close()
        return 0
    stop = threading.Event()
    for name in ("SIGTERM", "SIGINT"):
        signal.signal(getattr(signal, name), lambda *_: stop.set())
    app.run(stop)
    try:
        print(f"elfer run: record written to {app.write_record()}", file=sys.stderr)
    except OSError as error:
        print(f"elfer run: cannot write the record: {error}", file=sys.stderr)
        return 2
    return 0
