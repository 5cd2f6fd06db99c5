"""Where a server keeps its matches: one SQLite database (the standard library's ``sqlite3``).

Every match is a row (its record header: map, variant, players, seed, options; its seats; the
generators of its bots; when a person was last seen; whether it is over or archived), its moves
are rows in the notation, one per action, and its seat tokens are stored as SHA-256 hashes only,
with the names the seats' players chose.
Each change is one transaction, committed before the hub answers any tab, so a server killed at
any moment restarts with every move it ever acknowledged. The database runs in WAL mode with
``synchronous=FULL``: a commit is on disk, not only in the operating system's cache.

``":memory:"`` holds a throwaway database that ends with the process.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import attrs

from .._jsontext import parse_json
from ..errors import DataError
from ..records import GameRecord

SCHEMA_VERSION = 1
MEMORY = ":memory:"
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

    Refuses a file that is not such a database, or one of a later schema, with ``DataError``.
    Not thread-safe: the hub calls it from the server's one event loop.
    """

    def __init__(self, path: str | Path = MEMORY) -> None:
        self.path = str(path)
        try:
            self._db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.execute("PRAGMA foreign_keys=ON")
            version = self._db.execute("PRAGMA user_version").fetchone()[0]
            if version not in (0, SCHEMA_VERSION):
                raise DataError(
                    f"a match database of schema {version}; this version reads {SCHEMA_VERSION}",
                    source=self.path,
                )
            self._db.executescript(SCHEMA)  # idempotent; executescript commits on its own
            self._db.executescript(SHARING_SCHEMA)
            self._db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
        except sqlite3.DatabaseError as exc:
            raise DataError(f"not a match database: {exc}", source=self.path) from None

    def close(self) -> None:
        self._db.close()

    @contextmanager
    def _transaction(self) -> Iterator[None]:
        self._db.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        self._db.execute("COMMIT")

    # ------------------------------------------------------------------ writing

    def add(
        self, id: str, record: GameRecord, seats: Sequence[SeatSpec], rngs: dict[int, Any],
        *, now: float, finished: bool,
    ) -> bool:  # fmt: skip
        """A new match with the moves in ``record``; False (nothing written) when ``id`` was
        ever used on this database."""
        header = json.dumps(attrs.evolve(record, actions=()).to_json())
        try:
            with self._transaction():
                self._db.execute(
                    "INSERT INTO matches (id, created, seen, record, seats, rngs, finished) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (id, now, now, header, _seats_json(seats), json.dumps(rngs), finished),
                )
                self._insert_moves(id, 0, record.actions)
        except sqlite3.IntegrityError:
            return False
        return True

    def moved(
        self, id: str, first: int, actions: Sequence[str], seats: Sequence[SeatSpec],
        rngs: dict[int, Any], *, now: float, finished: bool,
    ) -> None:  # fmt: skip
        """Moves ``first`` onwards (numbered from 0), with the seats and bot generators after
        them, in one transaction."""
        with self._transaction():
            self._insert_moves(id, first, actions)
            self._db.execute(
                "UPDATE matches SET seats = ?, rngs = ?, finished = ?, seen = max(seen, ?) "
                "WHERE id = ?",
                (_seats_json(seats), json.dumps(rngs), finished, now, id),
            )

    def seat_taken(self, id: str, seat: int, hashed: str, *, now: float) -> None:
        with self._transaction():
            self._db.execute(
                "INSERT INTO tokens (match, seat, hash) VALUES (?, ?, ?)", (id, seat, hashed)
            )
            self._db.execute(
                "UPDATE matches SET joined = 1, seen = max(seen, ?) WHERE id = ?", (now, id)
            )

    def named(self, id: str, seat: int, name: str) -> None:
        """The name a seat's player chose (the seat is taken)."""
        self._db.execute(
            "UPDATE tokens SET name = ? WHERE match = ? AND seat = ?", (name, id, seat)
        )

    def archive(self, id: str, when: float | None) -> None:
        """The match leaves the server's memory (``when``), or comes back (None)."""
        self._db.execute("UPDATE matches SET archived = ? WHERE id = ?", (when, id))

    def _insert_moves(self, id: str, first: int, actions: Sequence[str]) -> None:
        self._db.executemany(
            "INSERT INTO moves (match, n, action) VALUES (?, ?, ?)",
            [(id, first + i, text) for i, text in enumerate(actions)],
        )

    # ------------------------------------------------------------------ reading

    def exists(self, id: str) -> bool:
        return self._db.execute("SELECT 1 FROM matches WHERE id = ?", (id,)).fetchone() is not None

    def count(self) -> int:
        """How many matches were ever made on this database."""
        return int(self._db.execute("SELECT count(*) FROM matches").fetchone()[0])

    def ids(self) -> list[str]:
        """Every match ever made on this database, oldest first."""
        return [r[0] for r in self._db.execute("SELECT id FROM matches ORDER BY created, rowid")]

    def live(self) -> list[str]:
        """The matches that were in memory when the server stopped, oldest first."""
        rows = self._db.execute(
            "SELECT id FROM matches WHERE archived IS NULL ORDER BY created, rowid"
        )
        return [r[0] for r in rows]

    def load(self, id: str) -> Stored | None:
        """A match with all its moves; None when there is none of that id. A row that cannot
        be read raises ``DataError`` naming it."""
        row = self._db.execute(
            "SELECT created, seen, record, seats, rngs, joined, finished, archived FROM matches "
            "WHERE id = ?",
            (id,),
        ).fetchone()
        if row is None:
            return None
        created, seen, header, seats, rngs, joined, finished, archived = row
        source = f"{self.path}: match {id}"
        moves = [r[0] for r in self._db.execute(
            "SELECT action FROM moves WHERE match = ? ORDER BY n", (id,)
        )]  # fmt: skip
        rows = list(self._db.execute("SELECT seat, hash, name FROM tokens WHERE match = ?", (id,)))
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
"""


def share(
    store: Store, id: str, *, public: bool, invites: dict[int, str], reserved: dict[int, str]
) -> None:
    """A made match's sharing, in one transaction: listed or not, the hashed invite secret of
    each invited seat, and the hashed tokens of the seats its maker's device holds."""
    db = store._db
    with store._transaction():
        db.execute("INSERT INTO shared (match, public) VALUES (?, ?)", (id, public))
        db.executemany(
            "INSERT INTO invites (match, seat, hash) VALUES (?, ?, ?)",
            [(id, seat, hashed) for seat, hashed in invites.items()],
        )
        db.executemany(
            "INSERT INTO tokens (match, seat, hash) VALUES (?, ?, ?)",
            [(id, seat, hashed) for seat, hashed in reserved.items()],
        )


def sharing(store: Store, id: str) -> tuple[bool | None, dict[int, str]]:
    """Whether the lobby lists a match (None: not made from the page) and its invite hashes."""
    row = store._db.execute("SELECT public FROM shared WHERE match = ?", (id,)).fetchone()
    rows = store._db.execute("SELECT seat, hash FROM invites WHERE match = ?", (id,))
    return (None if row is None else bool(row[0])), {seat: hashed for seat, hashed in rows}


def mark_joined(store: Store, id: str, *, now: float) -> None:
    """A person sat at a seat reserved when the match was made."""
    store._db.execute("UPDATE matches SET joined = 1, seen = max(seen, ?) WHERE id = ?", (now, id))
