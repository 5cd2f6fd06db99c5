"""Where a server keeps its matches: one SQLite database (the standard library's ``sqlite3``).

Every match is a row (its record header: map, variant, players, seed, options; its seats; the
generators of its bots; when a person was last seen; whether it is over or archived), its moves
are rows in the notation, one per action, and its seat tokens are stored as SHA-256 hashes only,
with the names the seats' players chose.

Keeping its word:

- **Only our file.** The database carries ``APPLICATION_ID``; a file with another id, or tables
  that are not ours, or that fails ``PRAGMA quick_check``, is refused with ``DataError`` before
  anything in it is changed. A database of ours from before the id was set (its tables exactly
  ours, schema 1) is adopted: the id is set.
- **One server per file, whatever its name.** The path is resolved (a symbolic link is
  followed, so the WAL is the one beside the real file) and a server locks one byte of the
  database file itself, far beyond any page and SQLite's own lock bytes: an open file
  description lock (Linux: ``F_OFD_SETLK``, which no other descriptor's close releases; a POSIX
  record lock elsewhere), which the system drops when the process ends, however it ends. A
  lock is the file's (its inode's), not its name's, so a second server on the same file, by a
  hard link or a symbolic link too, is refused with ``DataError``. A backup (``backup``) reads
  through SQLite beside a running server and takes no lock.
- **Written before anyone hears of it, in groups.** Each change is queued to one writer thread
  and returns a ``concurrent.futures.Future``; the writer commits everything queued in one
  transaction (WAL journal, ``synchronous=FULL``: on disk, not only in the operating system's
  cache), each change under a savepoint of its own, and only then settles the futures. Many
  matches' moves share one disk flush, and the server's event loop never waits for the disk.
- **A file that changed under the server is noticed.** Before and after each commit the writer
  checks that the database and its WAL are the files it opened (same device and inode), that
  neither shrank, and that the WAL's header is the one its own last commit left. Once that
  fails, or a commit fails, the futures fail (``WebError("not_saved")``), and after damage
  every later change is refused too: nothing is acknowledged that the file may not keep.
- **Whole at a clean stop.** ``close`` checkpoints the WAL into the database and truncates it,
  so the ``.db`` file alone then holds everything.

``":memory:"`` holds a throwaway database that ends with the process (written in the caller's
thread; nothing to lock or check).
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import logging
import os
import queue
import sqlite3
import struct
import threading
import urllib.parse
from collections.abc import Callable, Collection, Iterator, Sequence
from concurrent.futures import Future
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

import attrs

from .._jsontext import parse_json
from ..errors import DataError, WebError
from ..records import GameRecord

SCHEMA_VERSION = 1
APPLICATION_ID = 0x54545245  # "TTRE": what ``PRAGMA application_id`` says of our files
MEMORY = ":memory:"
LOCK_BYTE = 1 << 40  # the byte of the database file a server locks: past SQLite's (1 GiB)
WAL_HEADER = 32  # bytes of a WAL file's header: magic, page size, checkpoint, salts, checksum
BUSY_MS = 5000  # how long a commit waits for a backup's read to end
TABLES = ("matches", "moves", "tokens", "shared", "invites", "open_seats")
_CORE_TABLES = {"matches", "moves", "tokens"}  # a database of ours from before the sharing
_TABLES = "SELECT name FROM sqlite_master WHERE type = 'table'"
SCHEMA = """
CREATE TABLE IF NOT EXISTS matches (
    id TEXT PRIMARY KEY,
    created REAL NOT NULL,
    seen REAL NOT NULL,
    record TEXT NOT NULL,
    seats TEXT NOT NULL,
    rngs TEXT NOT NULL,
    joined INTEGER NOT NULL DEFAULT 0,
    finished INTEGER NOT NULL DEFAULT 0,
    archived REAL
);
CREATE TABLE IF NOT EXISTS moves (
    match TEXT NOT NULL REFERENCES matches(id),
    n INTEGER NOT NULL,
    action TEXT NOT NULL,
    PRIMARY KEY (match, n)
);
CREATE TABLE IF NOT EXISTS tokens (
    match TEXT NOT NULL REFERENCES matches(id),
    seat INTEGER NOT NULL,
    hash TEXT NOT NULL,
    name TEXT,
    PRIMARY KEY (match, seat)
);
CREATE INDEX IF NOT EXISTS live ON matches (archived, created);
"""
log = logging.getLogger("ttr_europe.web")
Write = Callable[[sqlite3.Connection], None]


def token_hash(token: str) -> str:
    """What the database keeps of a seat's token: enough to check it, not to use it."""
    return hashlib.sha256(token.encode()).hexdigest()


@attrs.frozen
class SeatSpec:
    """A seat as stored: its display name and the bot spec that plays it (None: a person)."""

    name: str
    bot: str | None


@attrs.frozen
class Stored:
    """One match as the database holds it."""

    id: str
    created: float
    seen: float
    record: GameRecord  # with every stored move
    seats: tuple[SeatSpec, ...]
    rngs: dict[int, Any]  # each bot seat's generator state (``random.Random.getstate``)
    tokens: dict[int, str]  # seat -> token hash
    names: dict[int, str]  # seat -> the name its player chose
    joined: bool  # a person has ever taken a seat
    finished: bool
    archived: float | None


class Store:
    """The matches of one server in one SQLite database (``path``, or ``":memory:"``).

    Refuses, with ``DataError`` naming the file, one that is not ours, damaged, of a later
    schema, or held by another server. Reading is for the server's one event loop; writing
    (``add``, ``moved``, ``seat_taken``, ``named``, ``archive``) returns a future the writer
    settles once the change is on disk, or fails with ``WebError("not_saved")``.
    """

    def __init__(self, path: str | Path = MEMORY) -> None:
        # the real file: SQLite names the WAL after it, and its lock is the file's, by any name
        self.path = MEMORY if str(path) == MEMORY else os.path.realpath(path)
        self.damage: str | None = None  # why nothing more is written, once the file is lost
        self._lock_fd: int | None = None
        self._made_file = False
        self._queue: queue.SimpleQueue[tuple[Write, Future[None]] | None] = queue.SimpleQueue()
        self._writer: threading.Thread | None = None
        self._seen: dict[str, tuple[int, int, int]] = {}  # file -> device, inode, size
        self._wal_header = b""
        try:
            self._lock()
            self._w = self._open()  # the writer's
            self._db = self._w if self.path == MEMORY else self._connect()  # the event loop's
            self._db.execute("SELECT count(*) FROM matches").fetchone()  # the WAL is there now
        except sqlite3.DatabaseError as exc:
            self._unlock(refused=True)
            raise DataError(f"not a match database: {exc}", source=self.path) from None
        except DataError:
            self._unlock(refused=True)
            raise
        if self.path != MEMORY:
            self._seen_now()
            self._writer = threading.Thread(target=self._write_loop, name="ttr-store", daemon=True)
            self._writer.start()

    # ------------------------------------------------------------------ opening

    def _lock(self) -> None:
        """Hold the file's server lock, or refuse: another server uses this database (by this
        name or any other: the lock is on the file)."""
        if self.path == MEMORY:
            return
        if importlib.util.find_spec("fcntl") is None:  # pragma: no cover (Windows: documented)
            return
        self._made_file = not os.path.exists(self.path)
        try:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as exc:
            raise DataError(f"cannot be opened: {exc.strerror}", source=self.path) from None
        try:
            _lock_byte(fd)
        except OSError:
            os.close(fd)
            why = "another server is using this database (one server per file, by any name)"
            raise DataError(why, source=self.path) from None
        self._lock_fd = fd

    def _unlock(self, *, refused: bool = False) -> None:
        """Let go of the lock (closing its descriptor), and of a file made for nothing: an
        empty file this refused."""
        if self._lock_fd is not None:
            if refused and self._made_file and os.path.getsize(self.path) == 0:
                os.unlink(self.path)
            os.close(self._lock_fd)
            self._lock_fd = None

    def _connect(self) -> sqlite3.Connection:
        db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        db.execute(f"PRAGMA busy_timeout={BUSY_MS}")
        return db

    def _open(self) -> sqlite3.Connection:
        """A connection, after the file proved ours and whole; made ours if it is empty."""
        db = self._connect()
        ours = db.execute("PRAGMA application_id").fetchone()[0]
        tables = {r[0] for r in db.execute(_TABLES)}
        version = db.execute("PRAGMA user_version").fetchone()[0]
        if ours not in (0, APPLICATION_ID):
            raise DataError(f"not a match database: its application_id is {ours:#x}, not ours "
                            f"({APPLICATION_ID:#x})", source=self.path)  # fmt: skip
        if tables - set(TABLES) or (ours == 0 and tables and not tables >= _CORE_TABLES):
            raise DataError("not a match database: it holds tables "
                            + ", ".join(sorted(tables)), source=self.path)  # fmt: skip
        if version not in (0, SCHEMA_VERSION):
            raise DataError(
                f"a match database of schema {version}; this version reads {SCHEMA_VERSION}",
                source=self.path,
            )
        check = [r[0] for r in db.execute("PRAGMA quick_check")]
        if check != ["ok"]:
            raise DataError(f"damaged: quick_check says {check[0]}", source=self.path)
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=FULL")
        db.execute("PRAGMA foreign_keys=ON")
        if ours == 0 or not tables:  # new, or ours from before the id: made ours now
            db.executescript(SCHEMA)  # idempotent; executescript commits on its own
            db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
            db.execute(f"PRAGMA application_id={APPLICATION_ID}")
        if not {"shared", "invites", "open_seats"} <= tables:  # ours from before they were
            db.executescript(SHARING_SCHEMA)
        return db

    # ------------------------------------------------------------------ closing

    def close(self, *, checkpoint: bool = True) -> None:
        """Write what is queued, then (``checkpoint``) fold the WAL into the database file so
        that it alone is whole, and let go of the file. ``checkpoint=False`` leaves the files
        as a killed server would (for tests)."""
        if self._writer is not None:
            self._queue.put(None)
            self._writer.join()
            self._writer = None
        if checkpoint and self.path != MEMORY and self.damage is None:
            try:
                self._w.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            except sqlite3.Error as exc:
                log.error("%s: the WAL was not folded into the database: %s", self.path, exc)
        if self._w is not self._db:
            self._w.close()
        self._db.close()
        self._unlock()

    def flush(self) -> None:
        """Wait until every change queued so far is settled (written or failed)."""
        done: Future[None] = Future()
        self._submit(lambda db: None, done)
        done.exception()

    # ------------------------------------------------------------------ writing

    def add(
        self, id: str, record: GameRecord, seats: Sequence[SeatSpec], rngs: dict[int, Any],
        *, now: float, finished: bool,
    ) -> Future[None]:  # fmt: skip
        """A new match with the moves in ``record`` (its id never used on this database)."""
        header = json.dumps(attrs.evolve(record, actions=()).to_json())
        row = (id, now, now, header, _seats_json(seats), json.dumps(rngs), finished)
        moves = [(id, i, str(a)) for i, a in enumerate(record.actions)]

        def write(db: sqlite3.Connection) -> None:
            db.execute("INSERT INTO matches (id, created, seen, record, seats, rngs, finished) "
                       "VALUES (?, ?, ?, ?, ?, ?, ?)", row)  # fmt: skip
            db.executemany("INSERT INTO moves (match, n, action) VALUES (?, ?, ?)", moves)

        return self._submit(write)

    def moved(
        self, id: str, first: int, actions: Sequence[str], seats: Sequence[SeatSpec],
        rngs: dict[int, Any], *, now: float, finished: bool,
    ) -> Future[None]:  # fmt: skip
        """Moves ``first`` onwards (numbered from 0), with the seats and bot generators after
        them."""
        moves = [(id, first + i, text) for i, text in enumerate(actions)]
        row = (_seats_json(seats), json.dumps(rngs), finished, now, id)

        def write(db: sqlite3.Connection) -> None:
            db.executemany("INSERT INTO moves (match, n, action) VALUES (?, ?, ?)", moves)
            db.execute("UPDATE matches SET seats = ?, rngs = ?, finished = ?, "
                       "seen = max(seen, ?) WHERE id = ?", row)  # fmt: skip

        return self._submit(write)

    def seat_taken(self, id: str, seat: int, hashed: str, *, now: float) -> Future[None]:
        def write(db: sqlite3.Connection) -> None:
            db.execute("INSERT INTO tokens (match, seat, hash) VALUES (?, ?, ?)",
                       (id, seat, hashed))  # fmt: skip
            db.execute("UPDATE matches SET joined = 1, seen = max(seen, ?) WHERE id = ?",
                       (now, id))  # fmt: skip

        return self._submit(write)

    def seat_freed(self, id: str, seat: int) -> Future[None]:
        """Nobody holds ``seat`` of match ``id`` any more: its token and name are forgotten."""

        def write(db: sqlite3.Connection) -> None:
            db.execute("DELETE FROM tokens WHERE match = ? AND seat = ?", (id, seat))

        return self._submit(write)

    def named(self, id: str, seat: int, name: str) -> Future[None]:
        """The name a seat's player chose (the seat is taken)."""

        def write(db: sqlite3.Connection) -> None:
            db.execute("UPDATE tokens SET name = ? WHERE match = ? AND seat = ?", (name, id, seat))

        return self._submit(write)

    def archive(self, id: str, when: float | None) -> Future[None]:
        """The match leaves the server's memory (``when``), or comes back (None)."""

        def write(db: sqlite3.Connection) -> None:
            db.execute("UPDATE matches SET archived = ? WHERE id = ?", (when, id))

        return self._submit(write)

    def _submit(self, write: Write, done: Future[None] | None = None) -> Future[None]:
        future: Future[None] = Future() if done is None else done
        if self.path == MEMORY:
            self._commit([(write, future)])
        elif self._writer is None:
            future.set_exception(_not_saved("the database is closed"))
        else:
            self._queue.put((write, future))
        return future

    def _write_loop(self) -> None:
        """The writer: everything queued, one transaction at a time, until ``close``."""
        while True:
            first = self._queue.get()
            batch = [] if first is None else [first]
            stop = first is None
            while not stop:
                try:
                    more = self._queue.get_nowait()
                except queue.Empty:
                    break
                if more is None:
                    stop = True
                else:
                    batch.append(more)
            if batch:
                self._commit(batch)
            if stop:
                return

    def _commit(self, batch: list[tuple[Write, Future[None]]]) -> None:
        """One transaction for the batch, a savepoint per change: a change that fails alone
        (a clash of move numbers) fails its future only; a commit that fails, or a file that
        changed, fails them all."""
        db = self._w
        errors: list[BaseException | None] = [None] * len(batch)
        try:
            damage = self.damage or self._changed()
            if damage is None:
                db.execute("BEGIN IMMEDIATE")
                if len(batch) == 1:  # nothing to keep apart: no savepoint (fewer calls)
                    batch[0][0](db)
                else:
                    for i, (write, _) in enumerate(batch):
                        errors[i] = self._change(write)
                db.execute("COMMIT")
                damage = self._changed(header=False)  # the commit may begin the WAL anew
        except Exception as exc:  # a full disk, an I/O error; or a fault of ours: logged
            self._rollback()
            log.error("%s: %d change(s) not saved: %s", self.path, len(batch), exc,
                      exc_info=not isinstance(exc, sqlite3.Error))  # fmt: skip
            errors = [_not_saved(str(exc))] * len(batch)
        else:
            if damage is None:
                self._seen_now()
            else:
                if self.damage is None:
                    self.damage = damage
                    log.error("%s: %s; nothing more is saved: stop the server and restore a "
                              "backup", self.path, damage)  # fmt: skip
                errors = [_not_saved(damage)] * len(batch)
        for (_, future), error in zip(batch, errors, strict=True):
            if error is None:
                future.set_result(None)
            else:
                future.set_exception(error)

    def _change(self, write: Write) -> WebError | None:
        """One change under its own savepoint; what failed of it alone (a clash of move
        numbers), or None. A failure that ends the transaction (a full disk) is raised."""
        db = self._w
        db.execute("SAVEPOINT change")
        failed = None
        try:
            write(db)
        except sqlite3.Error as exc:
            if not db.in_transaction:  # SQLite rolled the whole transaction back
                raise
            db.execute("ROLLBACK TO change")
            log.error("%s: a change not saved: %s", self.path, exc)
            failed = _not_saved(str(exc))
        db.execute("RELEASE change")
        return failed

    def _rollback(self) -> None:
        if self._w.in_transaction:
            with suppress(sqlite3.Error):
                self._w.execute("ROLLBACK")

    # ------------------------------------------------------------------ the file

    def _files(self) -> tuple[str, str]:
        return self.path, self.path + "-wal"

    def _seen_now(self) -> None:
        """Remember the files as this commit left them."""
        if self.path == MEMORY:
            return
        for name in self._files():
            st = os.stat(name)
            self._seen[name] = (st.st_dev, st.st_ino, st.st_size)
        self._wal_header = _head(self.path + "-wal")

    def _changed(self, *, header: bool = True) -> str | None:
        """How the database or its WAL was removed, replaced, cut or (``header``) overwritten
        since the last commit, or None: nobody but this writer changes them, neither file ever
        shrinks while it runs, and the WAL's header changes only when a commit begins the WAL
        anew after a checkpoint."""
        if self.path == MEMORY:
            return None
        for name in self._files():
            device, inode, size = self._seen[name]
            what = "WAL" if name.endswith("-wal") else "database"
            try:
                st = os.stat(name)
            except FileNotFoundError:
                return f"the {what} {name} was removed"
            if (st.st_dev, st.st_ino) != (device, inode):
                return f"the {what} {name} was replaced by another file"
            if st.st_size < size:
                return f"the {what} {name} was cut from {size} to {st.st_size} bytes"
        if header and _head(self.path + "-wal") != self._wal_header:
            return f"the WAL {self.path}-wal was overwritten"
        return None

    # ------------------------------------------------------------------ reading

    def _rows(self, sql: str, *args: Any) -> list[Any]:
        """The rows of a query; SQLite's refusals (a damaged file) as ``not_saved``: what
        asked for them (a new match, a match joined) cannot be kept."""
        try:
            return self._db.execute(sql, args).fetchall()
        except sqlite3.Error as exc:
            raise _not_saved(f"the database cannot be read: {exc}") from None

    def exists(self, id: str) -> bool:
        return bool(self._rows("SELECT 1 FROM matches WHERE id = ?", id))

    def token_hash(self, id: str, seat: int) -> str | None:
        """The hash of the token that holds ``seat`` of match ``id``; None when nobody does."""
        rows = self._rows("SELECT hash FROM tokens WHERE match = ? AND seat = ?", id, seat)
        return str(rows[0][0]) if rows else None

    def count(self) -> int:
        """How many matches were ever made on this database."""
        return int(self._rows("SELECT count(*) FROM matches")[0][0])

    def ids(self) -> list[str]:
        """Every match ever made on this database, oldest first."""
        return [r[0] for r in self._rows("SELECT id FROM matches ORDER BY created, rowid")]

    def live(self) -> list[str]:
        """The matches that were in memory when the server stopped, oldest first."""
        sql = "SELECT id FROM matches WHERE archived IS NULL ORDER BY created, rowid"
        return [r[0] for r in self._rows(sql)]

    def load(self, id: str) -> Stored | None:
        """A match with all its moves; None when there is none of that id. A row that cannot
        be read raises ``DataError`` naming it."""
        source = f"{self.path}: match {id}"
        with _readable(source):
            row = self._db.execute(
                "SELECT created, seen, record, seats, rngs, joined, finished, archived "
                "FROM matches WHERE id = ?",
                (id,),
            ).fetchone()
            if row is None:
                return None
            moves = [r[0] for r in self._db.execute(
                "SELECT action FROM moves WHERE match = ? ORDER BY n", (id,)
            )]  # fmt: skip
            rows = list(
                self._db.execute("SELECT seat, hash, name FROM tokens WHERE match = ?", (id,))
            )
        created, seen, header, seats, rngs, joined, finished, archived = row
        tokens = {seat: hashed for seat, hashed, _ in rows}
        names = {seat: name for seat, _, name in rows if name is not None}
        try:
            record = GameRecord.from_json(header, source=source).then(*moves)
            specs = tuple(SeatSpec(s["name"], s["bot"]) for s in parse_json(seats, source))
            states = {int(k): _rng_state(v) for k, v in parse_json(rngs, source).items()}
        except (ValueError, KeyError, TypeError) as exc:
            raise DataError(f"unreadable match row: {exc}", source=source) from None
        return Stored(id, created, seen, record, specs, states, tokens, names, bool(joined),
                      bool(finished), archived)  # fmt: skip


def backup(source: str | Path, target: str | Path) -> int:
    """Copy the match database ``source`` into a new file ``target`` with SQLite's online
    backup, beside a running server; the number of matches copied. ``target`` must not exist.

    ``DataError`` for a source that is not a match database or a target that exists.
    """
    if str(source) == MEMORY or not Path(source).is_file():
        raise DataError("no such database file", source=str(source))
    if Path(target).exists():
        raise DataError("exists already: a backup never overwrites a file", source=str(target))
    try:
        # the path quoted: "%41", "?" or "#" in a name are the name's, not the URI's
        name = urllib.parse.quote(str(Path(source).resolve()))
        src = sqlite3.connect(f"file:{name}?mode=ro", uri=True)
    except sqlite3.Error as exc:
        raise DataError(f"cannot be opened: {exc}", source=str(source)) from None
    made = False
    try:
        with _readable(str(source)):
            src.execute(f"PRAGMA busy_timeout={BUSY_MS}")
            ours = src.execute("PRAGMA application_id").fetchone()[0]
            tables = {r[0] for r in src.execute(_TABLES)}
            if ours != APPLICATION_ID and tables != set(TABLES):
                raise DataError("not a match database", source=str(source))
            dst = sqlite3.connect(target)
            made = True
            try:
                src.backup(dst)
                check = [r[0] for r in dst.execute("PRAGMA quick_check")]
                if check != ["ok"]:
                    raise DataError(f"the copy is damaged: {check[0]}", source=str(target))
                count = int(dst.execute("SELECT count(*) FROM matches").fetchone()[0])
            finally:
                dst.close()
        return count
    except BaseException:
        if made:
            Path(target).unlink(missing_ok=True)
        raise
    finally:
        src.close()


@contextmanager
def _readable(source: str) -> Iterator[None]:
    """SQLite's refusals while reading (a damaged page) as ``DataError`` naming the file."""
    try:
        yield
    except sqlite3.Error as exc:
        raise DataError(f"cannot be read: {exc}", source=source) from None


def _lock_byte(fd: int) -> None:
    """Lock ``LOCK_BYTE`` of the open file ``fd`` for writing, now or ``OSError``: an open file
    description lock where the system has one (Linux), else a POSIX record lock."""
    import fcntl

    ofd = getattr(fcntl, "F_OFD_SETLK", None)
    if ofd is None:  # pragma: no cover (macOS, the BSDs)
        fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB, 1, LOCK_BYTE)
        return
    # struct flock: l_type, l_whence (shorts), l_start, l_len (off_t), l_pid (int, 0 for OFD)
    fcntl.fcntl(fd, ofd, struct.pack("hhqqi4x", fcntl.F_WRLCK, os.SEEK_SET, LOCK_BYTE, 1, 0))


def _head(path: str) -> bytes:
    try:
        with open(path, "rb") as file:
            return file.read(WAL_HEADER)
    except FileNotFoundError:
        return b""


def _not_saved(why: str) -> WebError:
    return WebError("not_saved", f"the server could not save that: {why}")


def _seats_json(seats: Sequence[SeatSpec]) -> str:
    return json.dumps([{"name": s.name, "bot": s.bot} for s in seats])


def _rng_state(value: Any) -> Any:
    """``random.Random.getstate()`` back from its JSON form (lists for tuples)."""
    version, internal, gauss = value
    return (version, tuple(internal), gauss)


# ---------------------------------------------------------------------- sharing
# Matches made from the page (``web.lobby``): whether the lobby lists them, and the hashed
# secrets of their invite links. A match without a ``shared`` row was dealt by the server's
# own settings: its free seats are open to whoever comes, and the lobby does not list it.

SHARING_SCHEMA = """
CREATE TABLE IF NOT EXISTS shared (
    match TEXT PRIMARY KEY REFERENCES matches(id),
    public INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS invites (
    match TEXT NOT NULL REFERENCES matches(id),
    seat INTEGER NOT NULL,
    hash TEXT NOT NULL,
    PRIMARY KEY (match, seat)
);
CREATE TABLE IF NOT EXISTS open_seats (
    match TEXT NOT NULL REFERENCES matches(id),
    seat INTEGER NOT NULL,
    PRIMARY KEY (match, seat)
);
"""


def share(
    store: Store,
    id: str,
    *,
    public: bool,
    invites: dict[int, str],
    reserved: dict[int, str],
    open: Collection[int] = (),
) -> Future[None]:
    """A made match's sharing, in one change of the writer: listed or not, the hashed invite
    secret of each invited seat, the hashed tokens of the seats its maker's device holds, and
    the seats open to anyone (a stranger who takes one and goes may lose it)."""

    def write(db: sqlite3.Connection) -> None:
        db.execute("INSERT INTO shared (match, public) VALUES (?, ?)", (id, public))
        db.executemany(
            "INSERT INTO invites (match, seat, hash) VALUES (?, ?, ?)",
            [(id, seat, hashed) for seat, hashed in invites.items()],
        )
        db.executemany(
            "INSERT INTO tokens (match, seat, hash) VALUES (?, ?, ?)",
            [(id, seat, hashed) for seat, hashed in reserved.items()],
        )
        db.executemany("INSERT INTO open_seats (match, seat) VALUES (?, ?)",
                       [(id, seat) for seat in sorted(open)])  # fmt: skip

    return store._submit(write)


def sharing(store: Store, id: str) -> tuple[bool | None, dict[int, str], frozenset[int]]:
    """Whether the lobby lists a match (None: not made from the page), its invite hashes and
    its seats open to anyone."""
    row = store._db.execute("SELECT public FROM shared WHERE match = ?", (id,)).fetchone()
    rows = store._db.execute("SELECT seat, hash FROM invites WHERE match = ?", (id,))
    invites = {seat: hashed for seat, hashed in rows}
    opened = store._db.execute("SELECT seat FROM open_seats WHERE match = ?", (id,))
    return (None if row is None else bool(row[0])), invites, frozenset(r[0] for r in opened)


def mark_joined(store: Store, id: str, *, now: float) -> Future[None]:
    """A person sat at a seat reserved when the match was made."""

    def write(db: sqlite3.Connection) -> None:
        db.execute("UPDATE matches SET joined = 1, seen = max(seen, ?) WHERE id = ?", (now, id))

    return store._submit(write)
