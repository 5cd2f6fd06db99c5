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
