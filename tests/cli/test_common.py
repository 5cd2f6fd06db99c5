"""What the subcommands share (``cli/common.py``): integer arguments that name their range,
options re-read as argparse would, files read as UTF-8 text with a typed error, maps by name
or by file."""

from __future__ import annotations

import argparse
import contextlib
import os
import threading
import time
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ttr_europe.cli import main
from ttr_europe.cli.common import (
    MAX_COUNT,
    int_between,
    open_map,
    positive_int,
    read_text,
    require,
    seed_int,
)
from ttr_europe.errors import DataError, UsageError
from ttr_europe.maps import data_files, load_map_file


def test_int_between_reads_decimal_integers_in_its_range() -> None:
    read = int_between(2, 5)
    assert [read("2"), read(" 5 "), read("+3")] == [2, 5, 3]
    assert read.__name__ == "integer 2..5"
    for text, message in [("1", "must be 2 to 5, not 1"), ("6", "must be 2 to 5, not 6"),
                          ("three", "expected an integer, got 'three'"), ("", "expected"),
                          ("3.0", "expected"), ("٣", "expected"), ("0x3", "expected")]:  # fmt: skip
        with pytest.raises(argparse.ArgumentTypeError, match=message):
            read(text)


def test_a_huge_number_is_refused_without_converting_it() -> None:
    with pytest.raises(argparse.ArgumentTypeError, match="must be 1 to 1000000000"):
        positive_int("9" * 100_000)
    assert seed_int(str(2**64 - 1)) == 2**64 - 1 and seed_int(str(-(2**64) + 1)) == -(2**64) + 1
    with pytest.raises(argparse.ArgumentTypeError):
        seed_int(str(2**64))


@given(st.integers(-(10**12), 10**12), st.integers(-50, 50), st.integers(0, 100))
def test_int_between_accepts_exactly_its_range(value: int, low: int, span: int) -> None:
    read = int_between(low, low + span)
    if low <= value <= low + span:
        assert read(str(value)) == value
    else:
        with pytest.raises(argparse.ArgumentTypeError):
            read(str(value))


def test_require_names_the_option_it_refuses() -> None:
    require(argparse.Namespace(max_games=MAX_COUNT), "max_games", positive_int)
    with pytest.raises(UsageError, match=r"^argument --max-games: must be 1 to 1000000000, not 0$"):
        require(argparse.Namespace(max_games=0), "max_games", positive_int)


def test_read_text_reads_utf8_and_refuses_other_bytes_naming_the_file(tmp_path: Path) -> None:
    good = tmp_path / "good.txt"
    good.write_bytes("\ufeffZürich".encode())  # a byte-order mark is dropped
    assert read_text(str(good)) == "Zürich"
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"ok \xff")
    with pytest.raises(DataError, match=r"not UTF-8 text: byte 3 is b'\\xff'") as refused:
        read_text(str(bad))
    assert str(bad) in str(refused.value)


def test_open_map_takes_a_shipped_name_or_a_json_file(tmp_path: Path) -> None:
    assert open_map("usa").id == "usa"
    copy = tmp_path / "mine.json"
    copy.write_bytes((data_files() / "maps" / "usa.json").read_bytes())
    assert open_map(str(copy)).id == "usa"
    with pytest.raises(UsageError, match=r"^no such map 'atlantis'; known: europe, usa$"):
        open_map("atlantis")  # no file was read: none is named
    with pytest.raises(DataError, match="cannot read"):
        open_map(str(tmp_path / "none.json"))


def _unblock_later(fifo: Path, after: float) -> threading.Thread:
    """Open ``fifo``'s writing end after ``after`` seconds and close it at once, so that a
    reader still waiting in ``open`` gets the end of the file instead of waiting for ever."""

    def write() -> None:
        time.sleep(after)
        with contextlib.suppress(OSError):  # raised when no reader waits any more
            os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))

    thread = threading.Thread(target=write, daemon=True)
    thread.start()
    return thread


@pytest.mark.parametrize(
    "argv",
    [
        ["replay", "{fifo}"],
        ["play", "--resume", "{fifo}"],
        ["info", "{fifo}.json"],
        ["play", "--map", "{fifo}.json"],
    ],
)
def test_a_named_pipe_without_a_writer_is_one_line_at_once(
    argv: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A pipe that no program writes (a file in an archive can be one) ends the command with
    one line at once: a plain ``open`` waits for a writer for ever."""
    fifo = tmp_path / "game"
    os.mkfifo(fifo)
    os.mkfifo(f"{fifo}.json")
    words = [word.format(fifo=fifo) for word in argv]
    rescuer = _unblock_later(Path(words[-1]), after=5)
    started = time.monotonic()
    assert main(words) == 2
    assert time.monotonic() - started < 2.5
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"{words[-1]}: $: not valid JSON" in err
    rescuer.join()


def test_a_device_is_refused_naming_it(tmp_path: Path) -> None:
    """``/dev/zero`` never ends and a terminal waits for a person: neither is read."""
    with pytest.raises(DataError, match="/dev/zero: \\$: not a file but a device"):
        read_text("/dev/zero")
    with pytest.raises(DataError, match="/dev/null: \\$: not a file but a device"):
        load_map_file("/dev/null")
    with pytest.raises(IsADirectoryError):
        read_text(str(tmp_path))
