"""The ``ttr-europe`` command line.

Each subcommand is a module of this package exporting a ``Command``: a name, a one-line help, a
function that declares its arguments and a function that runs it. ``COMMANDS`` lists them;
adding a subcommand means writing one module and adding one entry there.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence
from typing import Any, NoReturn

from .. import __version__
from ..errors import TTRError
from ..i18n import Translator, translator
from . import backup, bench, info, play, playtest, replay, serve, simulate, tournament
from .common import Command, UsageError, chosen_language, error_line, open_map
from .info import map_summary

COMMANDS: tuple[Command, ...] = (
    info.COMMAND,
    play.COMMAND,
    replay.COMMAND,
    tournament.COMMAND,
    simulate.COMMAND,
    playtest.COMMAND,
    bench.COMMAND,
    serve.COMMAND,
    backup.COMMAND,
)


class _Parser(argparse.ArgumentParser):
    """A parser whose errors are one line on stderr and exit status 2 (no usage block), in the
    command line's language (its subcommands' parsers get the same ``words``)."""

    def __init__(self, *args: Any, words: Translator | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.words = words or translator()

    def error(self, message: str) -> NoReturn:
        self.exit(2, error_line(message, self.words, self.prog) + "\n")


def build_parser(tr: Translator | None = None) -> argparse.ArgumentParser:
    """The command line's parser; ``tr`` speaks its errors (English by default; its ``--help``
    stays in English)."""
    words = tr or translator()
    parser = _Parser(
        prog="ttr-europe", description="Ticket to Ride: Europe (and USA) rules engine.", words=words
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for command in COMMANDS:
        # argparse %-formats a subcommand's help ("95% intervals" would crash --help)
        child = sub.add_parser(
            command.name,
            help=command.help.replace("%", "%%"),
            description=command.help,
            words=words,
        )
        command.configure(child)
        child.set_defaults(run=command.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run one subcommand and return its exit status.

    Bad input of any kind (arguments, map data, records, files that cannot be read or written)
    is one line on stderr and status 2, never a traceback, in the language asked for (``--lang``,
    else the locale). Output cut short by a closed pipe (``ttr-europe info europe --json | head
    -1``) ends quietly with status 0.
    """
    words = [str(a) for a in (sys.argv[1:] if argv is None else argv)]
    tr = translator(chosen_language(words))
    try:
        if argv is not None and any("\0" in str(a) for a in argv):  # a real command line has none
            raise UsageError("an argument holds a NUL character")
        args = build_parser(tr).parse_args(argv)
        run: Callable[[argparse.Namespace], int] = args.run
        status = run(args)
        sys.stdout.flush()  # a closed pipe shows up here rather than at interpreter exit
        return status
    except BrokenPipeError:
        _silence_stdout()
        return 0
    except (TTRError, OSError) as exc:
        print(error_line(exc, tr), file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(tr.t("ttr-europe: interrupted"), file=sys.stderr)
        return 130


def _silence_stdout() -> None:
    """Point stdout at the null device so the final flush at exit cannot fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):  # no real file (a test capture): nothing to do
        pass


__all__ = ["COMMANDS", "Command", "build_parser", "main", "map_summary", "open_map"]

if __name__ == "__main__":
    sys.exit(main())
