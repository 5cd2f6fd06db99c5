"""What the subcommands share (``cli/common.py``): integer arguments that name their range,
options re-read as argparse would, files read as UTF-8 text with a typed error, maps by name
or by file."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

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
from ttr_europe.maps import data_files


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
    with pytest.raises(DataError, match="no such map"):
        open_map("atlantis")
    with pytest.raises(DataError, match="cannot read"):
        open_map(str(tmp_path / "none.json"))
