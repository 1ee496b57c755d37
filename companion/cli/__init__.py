"""The ``elfer`` command: parse arguments, call the package, print. Nothing else.

Each module here adds its subcommands and the function that runs each one.
"""

from __future__ import annotations

import argparse
import logging
import sys

from . import bench, demo, game, replay, run, table, vision


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="elfer",
        description="Elfer raus! companion: a referee and scoresheet for the card game. "
        "Run 'elfer COMMAND --help' for each command.",
    )
    parser.add_argument("--log-level", default="WARNING", type=str.upper,
                        choices=["DEBUG", "INFO", "WARNING", "ERROR"],
                        help="diagnostics written to standard error (default WARNING); "
                        "under systemd they go to the journal")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for module in (demo, run, game, replay, bench, table, vision):
        module.add_commands(commands)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    # Each package logs to its own logger ("companion.vision", ...); only the command decides where it goes.
    logging.basicConfig(level=args.log_level, format="%(levelname)s %(name)s: %(message)s", stream=sys.stderr)
    return args.run(args)


if __name__ == "__main__":
    sys.exit(main())
