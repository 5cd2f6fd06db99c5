"""`ttr-europe backup DB COPY`: one line and status 2 for every refusal, never a file over
another; a running server's copy is tested with the database in tests/web/test_web_durability.py."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from ttr_europe.cli import main
from ttr_europe.web.store import Store


def test_an_idle_database_of_ours_is_copied(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db, copy = tmp_path / "m.db", tmp_path / "copy.db"
    Store(db).close()
    assert main(["backup", str(db), str(copy)]) == 0
    assert capsys.readouterr().out.strip() == f"{copy}: 0 match(es) copied from {db}"
    Store(copy).close()  # the copy opens as one of ours


@pytest.mark.parametrize("fault", ["missing", "not ours", "copy exists"])
def test_each_refusal_is_one_line_and_status_2(
    fault: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db, copy = tmp_path / "m.db", tmp_path / "copy.db"
    if fault == "not ours":
        sqlite3.connect(db).execute("CREATE TABLE t (x)").connection.close()
    elif fault == "copy exists":
        Store(db).close()
        copy.write_text("keep me", "utf-8")
    assert main(["backup", str(db), str(copy)]) == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and err.startswith("ttr-europe: error: ")
    if fault == "copy exists":
        assert copy.read_text("utf-8") == "keep me"
    else:
        assert not copy.exists()


@pytest.mark.parametrize("name", ["we%41ird.db", "what?.db", "number#1.db", "with space.db"])
def test_a_name_with_uri_characters_is_copied_and_no_other_file(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The source is the file named, whatever characters a ``file:`` URI reads otherwise
    (``%41`` is "A", ``?`` starts the query, ``#`` the fragment): "we%41ird.db" was read as
    "weAird.db", and a name with "?" could not be copied."""
    from ttr_europe.maps import load_map
    from ttr_europe.table.match import Match

    db, copy = tmp_path / name, tmp_path / "copy.db"
    store = Store(db)
    match = Match.new(load_map("europe"), "base", 2, 1, ["person", "greedy"])
    store.add("only-one", match.record(), [], {}, now=0.0, finished=False).result()
    store.close()
    Store(tmp_path / "weAird.db").close()  # the file a misread name would be: no match in it
    assert main(["backup", str(db), str(copy)]) == 0
    assert capsys.readouterr().out.strip() == f"{copy}: 1 match(es) copied from {db}"
    kept = Store(copy)
    assert kept.ids() == ["only-one"]
    kept.close()
