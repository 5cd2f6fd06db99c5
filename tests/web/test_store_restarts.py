"""Matches that survive a restart: the hub on an SQLite database (``web/store.py``), random match
ids, and eviction that never takes a person's match away. No network here: a restart is a new
``Hub`` on the same file, with the old one dropped without a goodbye (as a killed process)."""

from __future__ import annotations

import json
import random
import shutil
import sqlite3
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")

from ttr_europe.actions import ClaimRoute, DrawBlind, DrawFaceUp, DrawTickets, KeepTickets
from ttr_europe.cli import main
from ttr_europe.cli.serve import dealer
from ttr_europe.errors import DataError
from ttr_europe.maps import load_map
from ttr_europe.table.match import Match
from ttr_europe.web import hub as hub_module
from ttr_europe.web.hub import JOIN_GRACE, PERSON_IDLE, Client, Hub
from ttr_europe.web.lobby import MAX_HELD_PER_ADDRESS
from ttr_europe.web.store import Store, token_hash

SEATS = ["person", "random", "person", "greedy"]


class Clock:
    """A clock a test moves: both the rate limits' and the wall clock."""

    def __init__(self) -> None:
        self.t = 1_000_000.0

    def __call__(self) -> float:
        return self.t


def _send(hub: Hub, client: Client, doc: dict[str, Any]) -> list[dict[str, Any]]:
    return [d for c, d in hub.receive(client, json.dumps(doc)) if c is client]


def _hub(path: Path | str, clock: Clock, seed: int = 5) -> Hub:
    store = Store(path)
    deal = dealer(load_map("europe"), "base", len(SEATS), SEATS, seed, store.count())
    return Hub(deal, store=store, clock=clock, now=clock)


@pytest.fixture(autouse=True)
def _no_drawing(monkeypatch: pytest.MonkeyPatch) -> None:
    """The board pictures are not what these tests check, and drawing them is slow."""
    monkeypatch.setattr(hub_module, "render_svg", lambda view, **k: "<svg/>")


def _choose(match: Match, rng: random.Random) -> str:
    """A person's move as a script makes it: mostly cards and tickets, so games are long."""
    legal = match.legal(match.current)
    keep = [a for a in legal if isinstance(a, KeepTickets)]
    if keep:
        return str(min(keep, key=lambda k: (len(k.tickets), str(k))))
    draws = [a for a in legal if isinstance(a, DrawBlind | DrawFaceUp | DrawTickets)]
    claims = [a for a in legal if isinstance(a, ClaimRoute)]
    pool = draws if draws and rng.random() < 0.85 else claims or list(legal)
    return str(rng.choice(pool))


def _play(hub: Hub, tabs: dict[int, Client], match_id: str, rng: random.Random) -> str:
    """The seat to act (a person) makes a scripted move from its tab; the move made."""
    match = hub.matches[match_id].match
    action = _choose(match, rng)
    seat = match.current
    assert seat is not None
    answer = _send(hub, tabs[seat], {"type": "act", "action": action})
    assert answer[-1]["type"] == "update", answer
    return action


def _as_killed(path: Path, copy: Path) -> Path:
    """The files a server killed now would leave (the database and its WAL, as they are), at
    ``copy``: the old server's hub may go on beside the new one, each on its own file."""
    for suffix in ("", "-wal"):
        shutil.copyfile(f"{path}{suffix}", f"{copy}{suffix}")
    return copy


def test_a_restart_restores_every_match_its_seats_tokens_and_bots(tmp_path: Path) -> None:
    clock = Clock()
    path = tmp_path / "matches.db"
    old = _hub(path, clock)
    tabs = {0: Client(), 2: Client()}
    joined = {s: _send(old, t, {"type": "join", "seat": s, "name": f"P{s}"})[0]
              for s, t in tabs.items()}  # fmt: skip
    first = joined[0]["match"]
    rng = random.Random(1)
    for _ in range(12):
        clock.t += 1
        _play(old, tabs, first, rng)
    clock.t += 100
    second = _send(old, Client(), {"type": "new"})[0]["match"]
    before = {i: (h.match.state, h.match.seq, dict(h.seating.tokens),
                  [s.name for s in h.match.seats], dict(h.seating.names))
              for i, h in old.matches.items()}  # fmt: skip

    new = _hub(_as_killed(path, tmp_path / "restarted.db"), clock)
    assert set(new.matches) == {first, second}
    for i, hosted in new.matches.items():
        m = hosted.match
        seats = [s.name for s in m.seats]
        assert (
            m.state,
            m.seq,
            dict(hosted.seating.tokens),
            seats,
            dict(hosted.seating.names),
        ) == before[i]
    assert new.matches[first].seating.names == {0: "P0", 2: "P2"}
    # the tabs come back with their tokens, at the same position; without one, refused
    again = {s: Client() for s in tabs}
    for s, tab in again.items():
        answers = _send(new, tab, {"type": "join", "match": first, "seat": s,
                                   "token": joined[s]["token"]})  # fmt: skip
        assert answers[0] == joined[s] and answers[1]["seq"] == before[first][1]
    thief = _send(new, Client(), {"type": "join", "match": first, "seat": 0})
    assert thief[0]["code"] == "seat_taken"
    # both servers, given the same moves, go on alike: the bots' generators were restored
    for _ in range(12):
        clock.t += 1
        action = _play(new, again, first, rng)
        seat = old.matches[first].match.current
        assert seat is not None
        _send(old, tabs[seat], {"type": "act", "action": action})
        assert new.matches[first].match.state == old.matches[first].match.state
    assert any(not new.matches[first].match.seats[m].is_person
               for m in new.matches[first].match._movers[-12:])  # fmt: skip


def _script(path: Path | str, moves: int, restart_every: int | None) -> list[Any]:
    """``moves`` person moves by a script (new matches as games end), the server restarted
    every ``restart_every`` of them; the records of every match, in the order dealt."""
    clock = Clock()
    hub = _hub(path, clock)
    rng = random.Random(7)
    tokens: dict[tuple[str, int], str] = {}
    current = hub.latest.id
    for n in range(moves):
        if restart_every and n and n % restart_every == 0:
            hub.store.close(checkpoint=False)  # as a killed server leaves it: the lock let go
            hub = _hub(path, clock)
        clock.t += 5
        hosted = hub.find(current)
        assert hosted is not None
        seat = hosted.match.current
        assert seat is not None
        tab = Client()
        joined = _send(hub, tab, {"type": "join", "match": current, "seat": seat,
                                  "token": tokens.get((current, seat))})[0]  # fmt: skip
        tokens[(current, seat)] = joined["token"]
        answer = _send(hub, tab, {"type": "act", "action": _choose(hosted.match, rng)})
        assert answer[-1]["type"] == "update", answer
        hub.leave(tab)
        if hosted.match.finished:  # the people start another game at once
            clock.t += JOIN_GRACE
            current = _send(hub, Client(), {"type": "new"})[0]["match"]
    hub.store.close()
    store = Store(path)
    loaded = [store.load(i) for i in store.ids()]
    store.close()
    return [(s.record, s.seats, s.finished) for s in loaded if s is not None]


@pytest.mark.slow
def test_a_scripted_1000_move_run_restarted_every_100_moves_ends_as_without_restarts(
    tmp_path: Path,
) -> None:
    steady = _script(tmp_path / "steady.db", 1000, None)
    restarted = _script(tmp_path / "restarted.db", 1000, 100)
    assert restarted == steady
    assert len(steady) >= 3 and sum(len(r.actions) for r, _, _ in steady) > 1000
    last = steady[-1][0]
    assert Match.from_record(last, SEATS).state == Match.from_record(restarted[-1][0], SEATS).state


def test_match_ids_are_random_and_an_unknown_one_is_never_taken_for_another(
    tmp_path: Path,
) -> None:
    clock = Clock()
    hub = _hub(tmp_path / "a.db", clock)
    ids = {hub.latest.id}
    for _ in range(5):
        clock.t += JOIN_GRACE
        ids.add(_send(hub, Client(), {"type": "new"})[0]["match"])
    assert len(ids) == 6 and all(len(i) >= 12 for i in ids)
    # another server (a lost database, another machine): the same seed deals the same first
    # game, but a tab that comes back with its old id and token is told, not seated
    elsewhere = _hub(tmp_path / "b.db", clock)
    tab = Client()
    old = next(iter(ids))
    refused = _send(elsewhere, tab, {"type": "join", "match": old, "seat": 0, "token": "x"})
    assert refused[0]["code"] == "unknown_match" and "new game" in refused[0]["message"]
    assert tab.hosted is None and elsewhere.latest.id not in ids


def test_an_id_used_once_is_never_dealt_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = Clock()
    hub = _hub(tmp_path / "a.db", clock)
    taken = hub.latest.id
    drawn = iter([taken, taken, "fresh-id-0001"])
    monkeypatch.setattr(hub_module.secrets, "token_urlsafe", lambda n: next(drawn))
    assert _send(hub, Client(), {"type": "new"})[0]["match"] == "fresh-id-0001"
    assert hub.store.count() == 2


def test_another_tab_cannot_evict_a_match_whose_person_was_just_here(tmp_path: Path) -> None:
    """The fault as found: a person's tab drops for a moment, another tab does new + join 64
    times; the person must come back to the same match."""
    clock = Clock()
    hub = _hub(tmp_path / "m.db", clock)
    person = Client()
    joined = _send(hub, person, {"type": "join", "seat": 0})[0]
    mine = joined["match"]
    state = hub.matches[mine].match.state
    hub.leave(person)  # the connection drops
    attacker = Client()
    codes = []
    for _ in range(64):
        clock.t += 10  # the attacker keeps within its rate
        created = _send(hub, attacker, {"type": "new"})[0]
        codes.append(created.get("code", created["type"]))
        clock.t += 5
        if created["type"] == "created":
            _send(hub, attacker, {"type": "join", "match": created["match"], "seat": 0})
    # the attacker's own matches make room for its next: it never holds more than its share
    assert codes == ["created"] * 64
    held = [h for h in hub.matches.values() if h.listing.maker == attacker.dealer]
    assert len(held) == MAX_HELD_PER_ADDRESS and len(hub.matches) == MAX_HELD_PER_ADDRESS + 1
    clock.t += 10
    back = Client()
    answers = _send(hub, back, {"type": "join", "match": mine, "seat": 0,
                                "token": joined["token"]})  # fmt: skip
    assert answers[0]["match"] == mine and hub.matches[mine].match.state == state
    # once nobody has been at it for PERSON_IDLE it may leave memory: archived, not lost
    hub.leave(back)
    clock.t += PERSON_IDLE
    for _ in range(64):
        _send(hub, Client(), {"type": "new"})  # idle matches leave, the longest idle first
        if mine not in hub.matches:
            break
    assert mine not in hub.matches and mine not in hub.store.live()
    clock.t += JOIN_GRACE  # room for it again
    answers = _send(hub, Client(), {"type": "join", "match": mine, "seat": 0,
                                    "token": joined["token"]})  # fmt: skip
    assert answers[0]["type"] == "joined" and hub.matches[mine].match.state == state


def _disk_full(store: Store, full: bool = True) -> None:
    """The database file may not grow (or may again): a change that needs a new page fails
    as on a full disk (SQLITE_FULL), in the store's own writer."""
    writer = store._w  # the connection of the writer thread (idle: the hub waited for it)
    pages = writer.execute("PRAGMA page_count").fetchone()[0]
    writer.execute(f"PRAGMA max_page_count={pages if full else 1 << 30}")


def test_a_full_disk_refuses_moves_and_new_matches_with_not_saved_and_loses_nothing(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    clock = Clock()
    hub = _hub(tmp_path / "m.db", clock)
    tabs = {0: Client(), 2: Client()}
    joined = {s: _send(hub, t, {"type": "join", "seat": s})[0] for s, t in tabs.items()}
    hosted = hub.latest
    _disk_full(hub.store)
    rng = random.Random(0)
    for _ in range(400):  # moves fill the last pages, then one is refused
        clock.t += 1
        told = (hosted.match.state, tuple(str(a) for a in hosted.match.actions))
        action, seat = _choose(hosted.match, rng), hosted.match.current
        assert seat is not None
        answer = _send(hub, tabs[seat], {"type": "act", "action": action})
        if answer[-1]["type"] != "update":
            break
    assert [a.get("code") for a in answer] == ["not_saved"], answer
    assert "database or disk is full" in caplog.text
    assert hosted.saving.lost and hosted.id not in hub.matches
    assert all(t.hosted is None for t in tabs.values())  # every tab of it was let go
    stored = hub.store.load(hosted.id)
    assert stored is not None and stored.record.actions == told[1]  # all told, only
    clock.t += JOIN_GRACE
    assert [a.get("code") for a in _send(hub, Client(), {"type": "new"})] == ["not_saved"]
    _disk_full(hub.store, full=False)  # room again: the tab comes back to what was saved
    tab = tabs[seat]
    again = _send(hub, tab, {"type": "join", "match": hosted.id, "seat": seat,
                             "token": joined[seat]["token"]})  # fmt: skip
    assert again[0]["type"] == "joined" and hub.matches[hosted.id].match.state == told[0]
    assert _send(hub, tab, {"type": "act", "action": action})[-1]["type"] == "update"
    assert _send(hub, Client(), {"type": "new"})[0]["type"] == "created"


def test_tokens_are_stored_hashed_and_moves_committed_before_the_answer(tmp_path: Path) -> None:
    clock = Clock()
    path = tmp_path / "m.db"
    hub = _hub(path, clock)
    tab = Client()
    token = _send(hub, tab, {"type": "join", "seat": hub.latest.match.current})[0]["token"]
    action = _choose(hub.latest.match, random.Random(0))
    _send(hub, tab, {"type": "act", "action": action})
    other = sqlite3.connect(path)  # another reader sees what the answer acknowledged
    hashes = [r[0] for r in other.execute("SELECT hash FROM tokens")]
    assert hashes == [token_hash(token)] and token not in Path(path).read_bytes().decode("latin1")
    moves = [r[0] for r in other.execute("SELECT action FROM moves ORDER BY n")]
    assert moves == [str(a) for a in hub.latest.match.actions] and action in moves
    assert other.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_a_file_that_is_not_a_match_database_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"not a database at all" * 100)
    with pytest.raises(DataError, match="not a match database") as refused:
        Store(junk)
    assert refused.value.source == str(junk)
    later = tmp_path / "later.db"
    sqlite3.connect(later).execute("PRAGMA user_version = 99").connection.close()
    with pytest.raises(DataError, match="schema 99"):
        Store(later)
    assert main(["serve", "--db", str(junk), "--port", "1"]) == 2
    err = capsys.readouterr().err
    assert "junk.db" in err and len(err.strip().splitlines()) == 1


def test_a_match_that_cannot_be_read_back_is_archived_and_the_others_restored(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    clock = Clock()
    path = tmp_path / "m.db"
    hub = _hub(path, clock)
    good = hub.latest.id
    clock.t += JOIN_GRACE
    bad = _send(hub, Client(), {"type": "new"})[0]["match"]
    db = sqlite3.connect(path)
    with db:
        db.execute("UPDATE matches SET seats = '[{\"name\": 1}' WHERE id = ?", (bad,))
    db.close()
    hub.store.close(checkpoint=False)
    again = _hub(path, clock)
    assert list(again.matches) == [good]
    assert bad in caplog.text and bad not in again.store.live()
    refused = _send(again, Client(), {"type": "join", "match": bad})[0]
    assert refused["code"] == "broken_match" and bad in refused["message"]


def test_a_match_that_cannot_be_restored_tells_a_tab_nothing_of_its_moves(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Why a replay failed quotes the move it failed at, a seat's ticket choice maybe (here a
    ticket the map no longer has): any tab naming the match would read that seat's tickets."""
    clock = Clock()
    path = tmp_path / "m.db"
    hub = _hub(path, clock)
    match_id, (keep,) = hub.latest.id, hub.latest.match.actions  # the bot of seat 1 chose
    assert isinstance(keep, KeepTickets)
    db = sqlite3.connect(path)
    with db:
        db.execute("UPDATE moves SET action = ? WHERE match = ? AND n = 0",
                   (f"{keep}, Gone-Away", match_id))  # fmt: skip
    db.close()
    hub.store.close(checkpoint=False)
    with caplog.at_level("WARNING", logger="ttr_europe.web"):
        again = _hub(path, clock)
        refused = _send(again, Client(), {"type": "join", "match": match_id})[0]
    assert refused["code"] == "broken_match" and match_id in refused["message"]
    assert not [t for t in keep.tickets if t in json.dumps(refused)]
    assert keep.tickets[0] in caplog.text  # the operator reads why
