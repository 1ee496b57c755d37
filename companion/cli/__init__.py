"""The ``elfer`` command: parse arguments, call the package, print. Nothing else.

Each module here adds its subcommands and the function that runs each one.
"""

from __future__ import annotations

import argparse
import sys

from . import bench, game, table, vision


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="elfer",
        description="Elfer raus! companion: a referee and scoresheet for the card game. "
        "Run 'elfer COMMAND --help' for each command.",
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for module in (game, bench, table, vision):
        module.add_commands(commands)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return args.run(args)


if __name__ == "__main__":
    sys.exit(main())
