"""What every subcommand shares: the ``Command`` record, how a map is named, argument types,
the language it speaks (``--lang``, else the locale) and its one-line errors in that language."""

from __future__ import annotations

import argparse
import errno
import os
import re
from collections.abc import Callable, Sequence

import attrs

from ..board import Map
from ..errors import DataError
from ..errors import UsageError as UsageError  # noqa: PLC0414 (re-exported from its old home)
from ..i18n import LANGUAGES, N_, NP_, Phrase, Phrasebook, Translator, from_environment, language
from ..jsonio import MAX_TEXT
from ..maps import available_maps, check_path, load_map, load_map_file, read_file


@attrs.frozen
class Command:
    """A subcommand: its name, a one-line help, how it declares its arguments, how it runs."""

    name: str
    help: str
    configure: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace], int]


MAX_COUNT = 10**9  # games, rounds, samples: large enough for any run, small enough to be an int


def int_between(low: int, high: int = MAX_COUNT) -> Callable[[str], int]:
    """An argparse ``type``: a decimal integer in ``low..high`` (message names the range)."""

    width = len(str(max(abs(low), abs(high))))  # more digits than this cannot be in range

    def read(text: str) -> int:
        stripped = text.strip()
        digits = stripped[1:] if stripped[:1] in "+-" else stripped
        if not (digits.isascii() and digits.isdigit()):
            raise argparse.ArgumentTypeError(f"expected an integer, got {text[:40]!r}")
        if len(digits) > width or not low <= int(stripped) <= high:
            raise argparse.ArgumentTypeError(f"must be {low} to {high}, not {stripped[:40]}")
        value = int(stripped)
        return value

    read.__name__ = f"integer {low}..{high}"
    return read


positive_int = int_between(1)
"""An argparse ``type``: an integer of at least 1 (games, rounds, samples, processes)."""

seed_int = int_between(-(2**64) + 1, 2**64 - 1)
"""An argparse ``type``: a game seed (any integer a game record can hold)."""


def require(args: argparse.Namespace, name: str, check: Callable[[str], int]) -> None:
    """Re-read ``args.<name>`` with an argparse type, for options another module declared."""
    value = getattr(args, name)
    try:
        check(str(value))
    except argparse.ArgumentTypeError as exc:
        raise UsageError(f"argument --{name.replace('_', '-')}: {exc}") from None


def read_text(path: str) -> str:
    """The text of a UTF-8 file of at most ``MAX_TEXT`` characters; anything else is a
    ``DataError`` naming the file (never a ``UnicodeDecodeError`` or a huge read)."""
    check_path(path, "read")
    data = read_file(path, 4 * MAX_TEXT + 1)  # a character is at most 4 bytes of UTF-8
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise DataError(
            f"not UTF-8 text: byte {exc.start} is {data[exc.start : exc.start + 1]!r}", source=path
        ) from None
    if len(text) > MAX_TEXT:
        raise DataError(f"longer than {MAX_TEXT} characters", source=path)
    return text


def add_map_arguments(parser: argparse.ArgumentParser) -> None:
    """``--map`` and ``--variant``, the same for every command that starts games."""
    parser.add_argument("--map", default="europe", help="a shipped map or a map .json file")
    parser.add_argument("--variant", default="base", help="a variant of the map (default base)")


def open_map(name: str) -> Map:
    """A shipped map by name, or a map file by path (anything ending in ``.json``).

    A name that is neither is a ``UsageError`` naming the maps there are: no file was read,
    so the line names none (the library's ``DataError`` names where the map would be)."""
    if name.endswith(".json"):
        return load_map_file(name)
    if name not in available_maps():
        raise UsageError(f"no such map {name!r}; known: {', '.join(available_maps())}")
    return load_map(name)


# --------------------------------------------------------------------------- the language


def add_lang_argument(parser: argparse.ArgumentParser) -> None:
    """``--lang``, the same for every command that speaks to players."""
    parser.add_argument(
        "--lang",
        choices=sorted(LANGUAGES),
        help="the language to speak: en, pt, ru or ro (default: the locale's, else English)",
    )


def chosen_language(argv: Sequence[str]) -> str:
    """The language a command line asks for: its ``--lang`` (read before argparse, so that
    argparse's own errors speak it too), else the locale's (``LANGUAGE``, ``LC_ALL``, ...)."""
    asked = None
    for i, arg in enumerate(argv):
        if arg == "--":
            break
        if arg == "--lang" and i + 1 < len(argv):
            asked = argv[i + 1]
        elif arg.startswith("--lang="):
            asked = arg[len("--lang=") :]
    return language(asked) or from_environment()


# The English of the errors a person meets at the command line (argparse's, the files', the
# maps', the records', the bots', the commands' own) and the message for each; a text no
# entry knows stays in English. ``why`` is said again with the same entries.
_ERRORS: tuple[Phrase, ...] = (
    (r"argument (?P<arg>[^:]+): (?P<why>.+)", N_("argument {arg}: {why}")),
    (
        r"the following arguments are required: (?P<names>.+)",
        N_("the following arguments are required: {names}"),
    ),
    (r"unrecognized arguments: (?P<args>.+)", N_("unrecognized arguments: {args}")),
    (
        r"ambiguous option: (?P<option>\S+) could match (?P<matches>.+)",
        N_("ambiguous option: {option} could match {matches}"),
    ),
    (
        r"invalid choice: (?P<value>.+) \(choose from (?P<choices>.+)\)",
        N_("invalid choice: {value} (choose from {choices})"),
    ),
    ("expected one argument", N_("expected one argument")),
    ("expected at least one argument", N_("expected at least one argument")),
    (r"invalid (?P<kind>.+?) value: (?P<value>.+)", N_("invalid {kind} value: {value}")),
    (r"not allowed with argument (?P<other>.+)", N_("not allowed with argument {other}")),
    (
        r"must be (?P<low>[-\d]+) to (?P<high>[-\d]+), not (?P<value>.+)",
        N_("must be {low} to {high}, not {value}"),
    ),
    (r"expected an integer, got (?P<value>.+)", N_("expected an integer, got {value}")),
    ("an argument holds a NUL character", N_("an argument holds a NUL character")),
    (r"\[Errno (?P<code>\d+)\] (?P<why>[^:]+): (?P<path>.+)", N_("[Errno {code}] {why}: {path}")),
    *(
        (re.escape(os.strerror(code)), message)
        for code, message in (
            (errno.ENOENT, N_("No such file or directory")),
            (errno.EACCES, N_("Permission denied")),
            (errno.EISDIR, N_("Is a directory")),
            (errno.ENOTDIR, N_("Not a directory")),
            (errno.ENOSPC, N_("No space left on device")),
            (errno.EROFS, N_("Read-only file system")),
        )
    ),
    (r"cannot read the file: (?P<why>.+)", N_("cannot read the file: {why}")),
    (r"not valid JSON: (?P<detail>.+)", N_("not valid JSON: {detail}")),
    (
        r"not UTF-8 text: byte (?P<at>\d+) is (?P<byte>.+)",
        N_("not UTF-8 text: byte {at} is {byte}"),
    ),
    (
        r"longer than (?P<n>\d+) characters",
        NP_("longer than {n} character", "longer than {n} characters"),
    ),
    (r"no such map (?P<name>.+); known: (?P<known>.+)", N_("no such map {name}; known: {known}")),
    ("missing", N_("missing")),
    ("required field missing", N_("required field missing")),
    (r"unknown field (?P<field>.+)", N_("unknown field {field}")),
    (
        r"action (?P<index>\d+) \((?P<action>.*)\) is illegal: (?P<refusal>.+)",
        N_("action {index} ({action}) is illegal: {refusal}"),
    ),
    (
        r"bot (?P<bot>'.*'): unknown bot spec; known: (?P<known>.+)",
        N_("bot {bot}: unknown bot spec; known: {known}"),
    ),
    (
        r"--at: positions are 0 to (?P<last>\d+), not (?P<at>.+)",
        N_("--at: positions are 0 to {last}, not {at}"),
    ),
    (
        r"--human: players are numbered from 1, as on the page \(1 to (?P<players>\d+)\), not 0: "
        r"the old --human 0,2 is now --human 1,3",
        N_(
            "--human: players are numbered from 1, as on the page (1 to {players}), not 0: "
            "the old --human 0,2 is now --human 1,3"
        ),
    ),
    (
        r"--human: players are 1 to (?P<players>\d+), not (?P<value>.+)",
        N_("--human: players are 1 to {players}, not {value}"),
    ),
    (
        r"--player: players are 1 to (?P<players>\d+), not (?P<value>.+)",
        N_("--player: players are 1 to {players}, not {value}"),
    ),
    (
        r"--player chooses whose views --json writes; give --json too",
        N_("--player chooses whose views --json writes; give --json too"),
    ),
    (
        r"--svg draws the whole position: give it without --json",
        N_("--svg draws the whole position: give it without --json"),
    ),
)
ERRORS = Phrasebook.of(_ERRORS)


def error_words(error: BaseException | str, tr: Translator) -> str:
    """An error's text in ``tr``'s language, on one line: a data error keeps its file and JSON
    path; what no entry of ``ERRORS`` knows stays in English."""
    if isinstance(error, DataError):
        head, text = f"{error.source}: {error.path}: ", error.reason
    else:
        head, text = "", str(error)
    text = " ".join(text.split())
    return " ".join((head + (ERRORS.say(text, tr) or text)).split())


def error_line(error: BaseException | str, tr: Translator, prog: str = "ttr-europe") -> str:
    """``ttr-europe: error: ...``, the one line a bad command line, file or record gets."""
    return tr.t("{prog}: error: {message}", prog=prog, message=error_words(error, tr))
