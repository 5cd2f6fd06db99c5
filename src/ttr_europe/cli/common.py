"""What every subcommand shares: the ``Command`` record, how a map is named, argument types."""

from __future__ import annotations

import argparse
from collections.abc import Callable

import attrs

from ..board import Map
from ..data import check_path, load_map, load_map_file
from ..errors import DataError
from ..errors import UsageError as UsageError  # noqa: PLC0414 (re-exported from its old home)
from ..jsonio import MAX_TEXT


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
    with open(path, "rb") as f:
        data = f.read(4 * MAX_TEXT + 1)  # a character is at most 4 bytes of UTF-8
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
    """A shipped map by name, or a map file by path (anything ending in ``.json``)."""
    if name.endswith(".json"):
        return load_map_file(name)
    return load_map(name)
