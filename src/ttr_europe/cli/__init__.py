"""The ``ttr-europe`` command line.

Each subcommand is a module of this package exporting a ``Command``: a name, a one-line help, a
function that declares its arguments and a function that runs it. ``COMMANDS`` lists them;
adding a subcommand means writing one module and adding one entry there.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence

from .. import __version__
from ..errors import TTRError
from . import bench, info, play, replay, serve, simulate, tournament
from .common import Command, open_map
from .info import map_summary

COMMANDS: tuple[Command, ...] = (
    info.COMMAND,
    play.COMMAND,
    replay.COMMAND,
    tournament.COMMAND,
    simulate.COMMAND,
    bench.COMMAND,
    serve.COMMAND,
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="ttr-europe", description="Ticket to Ride: Europe (and USA) rules engine."
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for command in COMMANDS:
        child = sub.add_parser(command.name, help=command.help, description=command.help)
        command.configure(child)
        child.set_defaults(run=command.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run one subcommand; returns the exit status (1 for bad input such as bad map data or a
    file that cannot be written), so a script sees a message rather than a traceback."""
    args = build_parser().parse_args(argv)
    run: Callable[[argparse.Namespace], int] = args.run
    try:
        return run(args)
    except (TTRError, OSError) as exc:
        print(f"ttr-europe: error: {exc}", file=sys.stderr)
        return 1


__all__ = ["COMMANDS", "Command", "build_parser", "main", "map_summary", "open_map"]

if __name__ == "__main__":
    sys.exit(main())
