"""A database that keeps its word (``web/store.py``): refused at the start when it is not ours,
damaged or held by another server; noticed while running when its files are removed, replaced,
cut or overwritten (``not_saved``, logged, no more moves taken); whole after a clean stop; and
copied whole by ``ttr-europe backup`` while the server runs."""

from __future__ import annotations

import gc
import json
import random
import shutil
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from webserver import free_port, serve_process

pytest.importorskip("starlette")

from ttr_europe.cli import main
from ttr_europe.cli.serve import dealer, short_collections
from ttr_europe.errors import DataError
from ttr_europe.maps import load_map
from ttr_europe.web import hub as hub_module
from ttr_europe.web.hub import JOIN_GRACE, MOVE_BURST, MOVE_RATE, TURN_GOES_ON, Client, Hub
from ttr_europe.web.store import APPLICATION_ID, SCHEMA, Store, backup

SEATS = ["person", "greedy"]


class Clock:
    def __init__(self) -> None:
        self.t = 1_000_000.0

    def __call__(self) -> float:
        return self.t


@pytest.fixture(autouse=True)
def _no_drawing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(hub_module, "render_svg", lambda view, **k: "<svg/>")


def _hub(path: Path, clock: Clock) -> Hub:
    store = Store(path)
    deal = dealer(load_map("europe"), "base", len(SEATS), SEATS, 3, store.count())
    return Hub(deal, store=store, clock=clock, now=clock)


def _send(hub: Hub, client: Client, doc: dict[str, Any]) -> list[dict[str, Any]]:
    return [d for c, d in hub.receive(client, json.dumps(doc)) if c is client]


def _move(hub: Hub, tab: Client) -> list[dict[str, Any]]:
    """The person's first legal move, sent from its tab."""
    hosted = tab.hosted
    assert hosted is not None
    action = str(hosted.match.legal(hosted.match.current)[0])
    return _send(hub, tab, {"type": "act", "action": action})


# --------------------------------------------------------------------------- at the start


def _refused_by_serve(path: Path, capsys: pytest.CaptureFixture[str]) -> str:
    assert main(["serve", "--db", str(path), "--port", "1"]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and str(path) in err, err
    return err


def test_someone_elses_sqlite_file_is_refused_and_left_as_it_was(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    theirs = tmp_path / "theirs.db"
    db = sqlite3.connect(theirs)
    db.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT)")
    db.execute("INSERT INTO notes (text) VALUES ('mine')")
    db.commit()
    db.close()
    before = theirs.read_bytes()
    assert "tables notes" in _refused_by_serve(theirs, capsys)
    assert theirs.read_bytes() == before and not Path(f"{theirs}-wal").exists()
    tagged = tmp_path / "tagged.db"  # another program's application id, no tables at all
    db = sqlite3.connect(tagged)
    db.execute("PRAGMA application_id = 1234")
    db.close()
    assert "application_id is 0x4d2" in _refused_by_serve(tagged, capsys)


def test_a_database_of_ours_made_before_the_application_id_is_adopted(tmp_path: Path) -> None:
    older = tmp_path / "older.db"
    db = sqlite3.connect(older)
    db.executescript(SCHEMA)
    db.execute("PRAGMA user_version = 1")
    db.close()
    Store(older).close()
    db = sqlite3.connect(older)
    assert db.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
    db.close()


def test_a_database_with_damaged_pages_is_refused_with_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "m.db"
    clock = Clock()
    hub = _hub(path, clock)
    for _ in range(30):  # a few pages of matches
        clock.t += JOIN_GRACE
        _send(hub, Client(), {"type": "new"})
    hub.store.close()
    data = bytearray(path.read_bytes())
    page = 4096
    assert len(data) > 4 * page
    rng = random.Random(1)
    for i in range(2 * page, len(data)):  # every page after the schema's: garbage
        data[i] = rng.randrange(256)
    path.write_bytes(bytes(data))
    err = _refused_by_serve(path, capsys)
    assert "damaged" in err or "malformed" in err, err


def test_a_second_server_on_the_same_file_is_refused_with_one_line(tmp_path: Path) -> None:
    path = tmp_path / "m.db"
    first = Store(path)  # this process's server
    try:
        second = subprocess.run(
            [sys.executable, "-m", "ttr_europe", "serve", "--db", str(path),
             "--port", str(free_port())],
            check=False, capture_output=True, text=True, timeout=60,
        )  # fmt: skip
        assert second.returncode == 2, second.stderr
        assert second.stderr.count("\n") == 1 and "another server" in second.stderr
    finally:
        first.close()
    Store(path).close()  # once the first let go, the file is free


@pytest.mark.parametrize("other", ["hard link", "symbolic link"])
def test_a_second_server_by_another_name_of_the_same_file_is_refused(
    other: str, tmp_path: Path
) -> None:
    """The lock is the file's, not its name's: ``ln a.db b.db`` (or ``ln -s``) and a server on
    each name would take the same tokens and moves, and one history would be lost."""
    path, alias = tmp_path / "a.db", tmp_path / "b.db"
    first = Store(path)
    try:
        if other == "hard link":
            alias.hardlink_to(path)
        else:
            alias.symlink_to(path)
        with pytest.raises(DataError, match="another server"):
            Store(alias)
        second = subprocess.run(
            [sys.executable, "-m", "ttr_europe", "serve", "--db", str(alias),
             "--port", str(free_port())],
            check=False, capture_output=True, text=True, timeout=60,
        )  # fmt: skip
        assert second.returncode == 2, second.stderr
        assert second.stderr.count("\n") == 1 and "another server" in second.stderr
    finally:
        first.close()
    Store(alias).close()  # once the first let go, the file is free by either name


def test_a_symlinked_database_is_served_and_keeps_its_moves_in_the_real_file(
    tmp_path: Path,
) -> None:
    """``serve --db LINK`` opens the file the link names, its WAL beside that file (SQLite
    names the WAL after the real file): it was refused with "No such file: 'LINK-wal'"."""
    real, link = tmp_path / "real.db", tmp_path / "link.db"
    link.symlink_to(real)
    clock = Clock()
    hub = _hub(link, clock)
    tab = Client()
    match_id = _send(hub, tab, {"type": "join", "seat": 0})[0]["match"]
    _move(hub, tab)
    hub.store.close()
    assert not (tmp_path / "link.db-wal").exists()
    copy = Store(real)
    stored = copy.load(match_id)
    copy.close()
    assert stored is not None and len(stored.record.actions) == len(
        hub.matches[match_id].match.actions
    )


# --------------------------------------------------------------------------- while running


def _cut(path: Path) -> None:
    with open(path, "r+b") as file:
        file.truncate(0)


def _garbage(path: Path) -> None:
    size = path.stat().st_size
    path.write_bytes(random.Random(2).randbytes(size))


def _replace(path: Path) -> None:
    copy = path.with_name(path.name + ".copy")
    shutil.copyfile(path, copy)
    copy.replace(path)


ATTACKS: dict[str, tuple[str, Callable[[Path], None]]] = {
    "WAL cut": ("-wal", _cut),
    "WAL overwritten": ("-wal", _garbage),
    "WAL removed": ("-wal", Path.unlink),
    "WAL replaced": ("-wal", _replace),
    "database cut": ("", _cut),
    "database removed": ("", Path.unlink),
    "database replaced": ("", _replace),
}


@pytest.mark.parametrize("attack", ATTACKS)
def test_a_file_changed_under_the_server_is_noticed_and_no_move_is_acknowledged(
    attack: str, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "m.db"
    clock = Clock()
    hub = _hub(path, clock)
    tab = Client()
    _send(hub, tab, {"type": "join", "seat": 0})
    assert _move(hub, tab)[-1]["type"] == "update"  # saved as ever
    hosted = tab.hosted
    suffix, damage = ATTACKS[attack]
    damage(Path(f"{path}{suffix}"))
    answer = _move(hub, tab)
    assert [a.get("code") for a in answer] == ["not_saved"], answer
    assert hub.store.damage is not None and "nothing more is saved" in caplog.text
    assert hosted is not None and hosted.saving.lost and tab.hosted is None
    # no more moves are taken: the match, joined again, is refused again; so is a new one
    again = Client()
    clock.t += JOIN_GRACE
    for doc in ({"type": "new"}, {"type": "join", "match": hosted.id}):
        out = _send(hub, again, doc)
        assert [a.get("code") for a in out] in (["not_saved"], ["broken_match"]), out


def test_a_serve_process_whose_wal_is_removed_answers_not_saved_and_logs_it(
    tmp_path: Path,
) -> None:
    client = pytest.importorskip("websockets.sync.client")
    port, path = free_port(), tmp_path / "m.db"
    with serve_process(port, "--db", str(path), "--players", "2", "--seats", "person,greedy",
                       "--seed", "3") as server:  # fmt: skip
        with client.connect(f"ws://127.0.0.1:{port}/ws", max_size=None) as ws:
            ws.send(json.dumps({"type": "join", "seat": 0}))
            assert json.loads(ws.recv(timeout=20))["type"] == "joined"
            update = json.loads(ws.recv(timeout=20))
            keep = update["moves"]["keep"][0]["action"]
            Path(f"{path}-wal").unlink()
            ws.send(json.dumps({"type": "act", "action": keep}))
            answer = json.loads(ws.recv(timeout=20))
            assert answer["code"] == "not_saved", answer
        server.terminate()
        _, err = server.communicate(timeout=30)
    assert "was removed" in err and "nothing more is saved" in err and "Traceback" not in err


# --------------------------------------------------------------------------- fair under load


def test_a_match_takes_moves_at_its_rate_whatever_number_of_tabs_send_them(
    tmp_path: Path,
) -> None:
    """A match begins at most ``MOVE_BURST`` turns at once and ``MOVE_RATE`` a second after,
    from all its tabs together; a turn's second move is free, so a flood makes at most two
    moves a turn; refused moves do not count, and nothing refused is made."""
    clock = Clock()
    hub = _hub(tmp_path / "m.db", clock)
    tabs = [Client() for _ in range(3)]  # one person's tabs at its seat
    joined = _send(hub, tabs[0], {"type": "join", "seat": 0})[0]
    for tab in tabs[1:]:
        _send(hub, tab, {"type": "join", "seat": 0, "token": joined["token"]})
    hosted = hub.latest
    for _ in range(3):  # moves refused by the rules cost the match nothing
        assert _send(hub, tabs[1], {"type": "act", "action": "claim Nowhere with 1red"})
    begun, sent = 0, 0
    while True:  # a flood: the first legal move, again and again, no time passing
        starts = hosted.match.state.phase not in TURN_GOES_ON
        answer = _move(hub, tabs[sent % 3])[-1]
        sent += 1
        if answer["type"] == "error":
            break
        begun += starts
    assert begun == int(MOVE_BURST) and starts and sent <= 2 * int(MOVE_BURST) + 1
    assert answer["code"] == "too_fast" and "turn(s) a second" in answer["message"]
    made = len(hosted.match.actions)
    clock.t += 1 / MOVE_RATE  # one more turn's worth
    assert _move(hub, tabs[2])[-1]["type"] == "update"
    if hosted.match.state.phase in TURN_GOES_ON:
        assert _move(hub, tabs[1])[-1]["type"] == "update"  # the turn is finished
    assert _move(hub, tabs[0])[-1]["code"] == "too_fast"  # the next one waits
    assert len(hosted.match.actions) > made  # and the refused ones were not made
    stored = hub.store.load(hosted.id)
    assert stored is not None and len(stored.record.actions) == len(hosted.match.actions)


def test_a_person_drawing_two_cards_a_turn_at_human_speed_is_never_refused(
    tmp_path: Path,
) -> None:
    """Two blind draws 0.3 s apart, the next turn a second later, for forty turns: every draw
    is made (the rate counts turns begun, and a person begins fewer than one a second)."""
    clock = Clock()
    hub = _hub(tmp_path / "m.db", clock)
    tab = Client()
    _send(hub, tab, {"type": "join", "seat": 0})
    hosted = hub.latest
    assert _move(hub, tab)[-1]["type"] == "update"  # the starting tickets kept
    for turn in range(40):
        for action in ("blind", "blind"):
            answer = _send(hub, tab, {"type": "act", "action": action})[-1]
            assert answer["type"] == "update", (turn, answer)
            clock.t += 0.3
        clock.t += 0.7
        assert hosted.match.current == 0


def test_short_collections_freeze_what_survives_and_walk_everything_now_and_then() -> None:
    now = [0.0]
    hook = short_collections(clock=lambda: now[0], every=10.0)
    gc.callbacks.append(hook)
    try:
        kept = [[i] for i in range(1000)]  # tracked objects that outlive a collection
        gc.collect()
        assert gc.get_freeze_count() >= len(kept)  # out of the next collections' way
        now[0] = 10.0
        gc.collect()  # time for a collection that walks everything: nothing stays frozen
        assert gc.get_freeze_count() == 0
        gc.collect()
        assert gc.get_freeze_count() >= len(kept)
        gc.unfreeze()
        gc.collect(1)  # the middle generation's survivors are frozen too
        assert gc.get_freeze_count() >= len(kept)
        gc.unfreeze()
        gc.collect(0)  # not the youngest's: short-lived cycles are still collected
        assert gc.get_freeze_count() == 0
        now[0] = 20.0
        gc.collect()  # time again: unfrozen, and nothing is frozen until the walk is done
        gc.collect(1)
        assert gc.get_freeze_count() == 0
        gc.collect()
        assert gc.get_freeze_count() >= len(kept)
    finally:
        gc.callbacks.remove(hook)
        gc.unfreeze()


# --------------------------------------------------------------------------- stop and backup


def _play_some(port: int, moves: int) -> tuple[str, int]:
    """A person's first moves at seat 0 over a real socket: the match and its last seq."""
    client = pytest.importorskip("websockets.sync.client")
    with client.connect(f"ws://127.0.0.1:{port}/ws", max_size=None) as ws:
        ws.send(json.dumps({"type": "join", "seat": 0}))
        match = json.loads(ws.recv(timeout=20))["match"]
        update = json.loads(ws.recv(timeout=20))
        made = 0
        while made < moves:
            options = update["moves"]
            action = options["keep"][0]["action"] if options["keep"] else "blind"
            ws.send(json.dumps({"type": "act", "action": action}))
            answer = json.loads(ws.recv(timeout=20))
            if answer.get("code") == "too_fast":  # the match's move budget: wait a little
                time.sleep(1 / MOVE_RATE)
                continue
            assert answer["type"] == "update", answer
            update, made = answer, made + 1
        return match, update["seq"]


def test_after_a_clean_stop_the_database_file_alone_holds_every_move(tmp_path: Path) -> None:
    port, path = free_port(), tmp_path / "m.db"
    with serve_process(port, "--db", str(path), "--players", "2", "--seats", "person,greedy",
                       "--seed", "3") as server:  # fmt: skip
        match, _ = _play_some(port, 6)
        server.terminate()  # SIGTERM: a clean stop
        server.communicate(timeout=30)
    alone = tmp_path / "alone" / "m.db"
    alone.parent.mkdir()
    shutil.copyfile(path, alone)  # the .db file only, no WAL
    store = Store(alone)
    stored = store.load(match)
    assert stored is not None and len(stored.record.actions) >= 6
    store.close()
    assert not Path(f"{path}-wal").exists() or Path(f"{path}-wal").stat().st_size == 0


def test_backup_copies_a_running_servers_database_whole(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    port, path, copy = free_port(), tmp_path / "m.db", tmp_path / "copy.db"
    with serve_process(port, "--db", str(path), "--players", "2", "--seats", "person,greedy",
                       "--seed", "3"):  # fmt: skip
        match, _ = _play_some(port, 6)
        assert main(["backup", str(path), str(copy)]) == 0
        assert "1 match(es) copied" in capsys.readouterr().out
        store = Store(copy)
        stored = store.load(match)
        assert stored is not None and len(stored.record.actions) >= 6
        store.close()
        assert main(["backup", str(path), str(copy)]) == 2  # never over a file
        assert "exists already" in capsys.readouterr().err
    not_ours = tmp_path / "theirs.db"
    sqlite3.connect(not_ours).execute("CREATE TABLE t (x)").connection.close()
    assert main(["backup", str(not_ours), str(tmp_path / "c2.db")]) == 2
    assert "not a match database" in capsys.readouterr().err
    assert not (tmp_path / "c2.db").exists()
    with pytest.raises(DataError, match="no such database"):
        backup(tmp_path / "missing.db", tmp_path / "c3.db")
