"""Results on disk as JSON Lines: one header line that names the run, then one row per game.

Each row is appended with a single ``write`` of the whole line on a file opened for appending,
as soon as its game is known, so an interrupted run loses at most the games still being played.
Only a line without its final newline can be half-written: ``open_store`` cuts it off and the
game is played again. Any other line that does not read back is corruption, and the file is
refused rather than guessed at; so is a row that reads but cannot be a game of this run
(``RowCheck``: a seed outside the run, another lineup, scores no game on this map can reach,
ranks, winners or returns that do not follow from the scores). While a run appends, it holds an
exclusive lock on the file so that two runs (two processes) cannot write the same rows.

The rows are ``GameResult`` unless ``open_store`` is given another ``reader`` (the playtests'
game logs: any row with a ``seed`` and ``to_json``), under a header of its own ``format``.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import stat
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

import attrs

from .._jsontext import parse_json
from ..board import Map
from ..loop import MAX_ACTIONS
from .games import Forfeit, GameResult, SimulationError

if TYPE_CHECKING:
    from ..records import GameRecord

try:
    import fcntl
except ImportError:  # pragma: no cover - not on POSIX
    fcntl = None  # type: ignore[assignment]

FORMAT = "ttr_europe/simulation"
VERSION = 1


@attrs.frozen
class Header:
    """What fixes the rows of a run; a file resumes only the run its header names."""

    map: str
    variant: str
    players: int
    bots: tuple[str, ...]
    seed: int
    options: tuple[tuple[str, Any], ...]
    record: bool
    format: str = FORMAT  # what the rows are: another format is another kind of file
    clock: tuple[float, float] | None = None  # the in-process seats' clock: move, game seconds
    deal: str = ""  # a secret deal's key fingerprint (``_seeds.Deal``); empty: a public deal

    def to_json(self) -> dict[str, Any]:
        """The header line; ``clock`` only when there is one, so that a run without clocks
        keeps the header (and the rows' ``run`` mark) it had before clocks were recorded."""
        doc: dict[str, Any] = {
            "format": self.format,
            "version": VERSION,
            "map": self.map,
            "variant": self.variant,
            "players": self.players,
            "bots": list(self.bots),
            "seed": self.seed,
            "options": dict(self.options),
            "record": self.record,
        }
        if self.clock is not None:
            doc["clock"] = list(self.clock)
        if self.deal:
            doc["deal"] = {"mode": "secret", "key": self.deal}
        return doc

    @property
    def mark(self) -> str:
        return run_mark(self.to_json())

    def differences(self, doc: dict[str, Any]) -> list[str]:
        """The fields where a header read from a file differs from this one."""
        mine = self.to_json()
        keys = [*mine, *(k for k in ("clock", "deal") if k not in mine)]
        return [key for key in keys if doc.get(key) != mine.get(key)]


def run_mark(header: dict[str, Any]) -> str:
    """The ``run`` field of each row: a digest of its header, so that a row copied from a file
    of another run (another map, variant, options...) is refused on ``--resume``."""
    text = json.dumps(header, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


@attrs.frozen
class RowCheck:
    """What a row must be to belong to a run: one of its seeds with that seed's lineup, and a
    game the map allows whose parts agree (``problem`` says what is wrong, or None)."""

    lineups: Mapping[int, tuple[str, ...]]  # seed -> the bot of each seat
    lowest: int  # no seat can score less: every ticket of the variant failed
    highest: int  # nor more: 45 trains on the best routes, every ticket, bonus and station
    record: bool  # rows hold their actions

    @classmethod
    def of(
        cls, lineups: Mapping[int, tuple[str, ...]], board: Map, variant: str, record: bool
    ) -> RowCheck:
        v = board.variants[variant]
        tickets = sum(board.tickets[t].points for t in {*v.long_pool, *v.regular_pool})
        per_train = max(points / length for length, points in board.route_points.items())
        routes = min(sum(r.points for r in board.routes), math.floor(v.trains * per_train))
        extras = v.bonus.points + v.stations * v.station_points
        return cls(lineups, -tickets, routes + tickets + extras, record)

    def problem(self, row: GameResult) -> str | None:
        if row.seed not in self.lineups:
            seeds = sorted(self.lineups)
            asked = f"{seeds[0]}..{seeds[-1]}" if seeds else "none"
            return f"seed {row.seed} is not one of this run's seeds ({asked})"
        lineup = self.lineups[row.seed]
        if row.bots != lineup:
            return f"the row of seed {row.seed} seats {list(row.bots)}, this run {list(lineup)}"
        return _game_problem(row, self.lowest, self.highest) or self._record_problem(row)

    def _record_problem(self, row: GameResult) -> str | None:
        if self.record and row.record is None:
            return "no actions, in a run that records them"
        if not self.record and row.record is not None:
            return "actions, in a run that does not record them"
        if row.record is not None and len(row.record) != row.actions:
            return f"{len(row.record)} actions recorded, {row.actions} counted"
        return None


def _game_problem(row: GameResult, lowest: int, highest: int) -> str | None:
    """What makes ``row`` a game no play gives, or None (``play_game`` is the reference)."""
    return (
        _figures_problem(row, lowest, highest)
        or (_finished_problem(row) if row.forfeit is None else _forfeit_problem(row, row.forfeit))
        or _winners_problem(row)
    )


def _figures_problem(row: GameResult, lowest: int, highest: int) -> str | None:
    """Scores, action count and duration each within what a game can give."""
    for seat, points in enumerate(row.scores):
        if not lowest <= points <= highest:
            return f"seat {seat} scores {points}, outside {lowest}..{highest} on this map"
    if not 0 <= row.actions <= MAX_ACTIONS:
        return f"{row.actions} actions, outside 0..{MAX_ACTIONS}"
    if not (math.isfinite(row.duration) and row.duration >= 0):
        return f"a duration of {row.duration} seconds"
    return None


def _finished_problem(row: GameResult) -> str | None:
    """A game played to its end: every seat kept tickets, and the ranks follow the scores."""
    n = len(row.bots)
    if row.actions < n:
        return f"{row.actions} actions: every seat keeps tickets before the end (R9)"
    for i, j in ((i, j) for i in range(n) for j in range(n)):  # tie-breaks split ties only
        if row.scores[i] > row.scores[j] and row.ranks[i] >= row.ranks[j]:
            return f"seat {i} outscores seat {j} but does not rank ahead of it"
    if any(row.ranks[s] != 1 + sum(r < row.ranks[s] for r in row.ranks) for s in range(n)):
        return f"ranks {list(row.ranks)} are not a ranking (ties share a rank, D15)"
    return None


def _forfeit_problem(row: GameResult, forfeit: Forfeit) -> str | None:
    """A forfeit names a seat of the row, its bot and action, its error, and ranks it last."""
    n = len(row.bots)
    if not (type(forfeit.seat) is int and 0 <= forfeit.seat < n):
        return f"a forfeit by seat {forfeit.seat!r} of {n}"
    if forfeit.bot != row.bots[forfeit.seat] or forfeit.action != row.actions:
        return "a forfeit that names another bot or another action than the row"
    if not isinstance(forfeit.error, str):
        return "a forfeit without its error"
    if row.ranks != tuple(n if s == forfeit.seat else 1 for s in range(n)):
        return f"ranks {list(row.ranks)} do not put the forfeiting seat last"
    return None


def _winners_problem(row: GameResult) -> str | None:
    """The winners are the seats the ranks make first (all but a forfeiting seat), sharing 1.0."""
    n = len(row.bots)
    if row.forfeit is None:
        winners = tuple(s for s in range(n) if row.ranks[s] == 1)
    else:
        winners = tuple(s for s in range(n) if s != row.forfeit.seat)
    if row.winners != winners:
        return f"winners {list(row.winners)}, the ranks make {list(winners)}"
    share = 1.0 / len(winners)
    if row.returns != tuple(share if s in winners else 0.0 for s in range(n)):
        return f"returns {list(row.returns)} do not share 1.0 among the winners"
    return None


class Checks(Protocol):
    """What a row must be to belong to a run (``RowCheck`` for ``GameResult`` rows)."""

    def problem(self, row: Any) -> str | None: ...


Reader = Callable[[Any], Any]  # a row read back from its JSON document (``GameResult.from_json``)


class Store:
    """An open results file: the rows already in it (by seed), and ``append`` for new ones."""

    def __init__(
        self,
        path: Path,
        fd: int,
        rows: dict[int, Any],
        torn: bool,
        header: Header | None,
        mark: str | None,
    ) -> None:
        self.path = path
        self.rows = rows  # by seed
        self.torn = torn  # a half-written last line was cut off
        self._fd = fd
        self._header = header  # still to be written, before the first row
        self._mark = mark  # the run's mark, None in a file written before rows had one

    def append(self, result: Any) -> None:
        if result.seed in self.rows:
            raise SimulationError(f"{self.path}: seed {result.seed} is already written")
        if self._header is not None:
            _write_line(self._fd, self._header.to_json())
            self._header = None
        row = result.to_json()
        _write_line(self._fd, row if self._mark is None else {**row, "run": self._mark})
        self.rows[result.seed] = result

    def close(self) -> None:
        if self._fd >= 0:
            os.fsync(self._fd)
            os.close(self._fd)  # also releases the lock
            self._fd = -1


def _write_line(fd: int, doc: dict[str, Any]) -> None:
    data = (json.dumps(doc, separators=(",", ":"), ensure_ascii=False) + "\n").encode()
    written = os.write(fd, data)
    while written < len(data):  # a regular file takes it whole; be exact anyway
        written += os.write(fd, data[written:])


def open_store(
    path: str | os.PathLike[str],
    header: Header,
    *,
    resume: bool,
    rows: Checks | None = None,
    reader: Reader = GameResult.from_json,
) -> Store:
    """Open ``path`` for a run: a new file, or with ``resume`` an earlier file of the same run.

    Raises ``SimulationError`` (one line naming the file) when the file exists and ``resume``
    is not given, when it is not a results file of this run, when a row is corrupt or (with
    ``rows``) not a game of this run, or when another run holds it. A refused file is left
    exactly as it was.
    """
    file = Path(path)
    try:
        fd = os.open(file, os.O_RDWR | os.O_CREAT | os.O_APPEND, 0o644)
    except OSError as exc:
        raise SimulationError(f"{file}: cannot open: {exc.strerror}") from None
    try:
        _regular(fd, file)
        _lock(fd, file)
        data = _read_all(fd)
        if not data:  # the header waits for the first row: a run that fails to start
            return Store(file, fd, {}, False, header, header.mark)  # an empty file is new
        if not resume:
            raise SimulationError(
                f"{file} already exists; pass --resume to finish that run, or choose another file"
            )
        lines = data.split(b"\n")
        torn = lines[-1] != b""  # the last line did not get its newline: a cut-short write
        complete = lines[:-1]
        if not complete:
            raise SimulationError(f"{file}: not a results file of ttr_europe (no header line)")
        _check_header(file, complete[0], header)
        kept, marked = _read_rows(file, header.mark, complete[1:], rows, reader)
        if torn:
            os.ftruncate(fd, len(data) - len(lines[-1]))
        return Store(file, fd, kept, torn, None, header.mark if marked is not False else None)
    except BaseException:
        os.close(fd)
        raise


def read_rows(path: str | os.PathLike[str]) -> tuple[dict[str, Any], list[GameResult]]:
    """The header document and the complete rows of a results file (for analysis)."""
    file = Path(path)
    try:
        fd = os.open(file, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)  # a pipe: never wait
    except OSError as exc:
        raise SimulationError(f"{file}: cannot read: {exc.strerror}") from None
    try:
        _regular(fd, file)
        data = _read_all(fd)
    except OSError as exc:
        raise SimulationError(f"{file}: cannot read: {exc.strerror}") from None
    finally:
        os.close(fd)
    lines = data.split(b"\n")[:-1]  # the last piece is empty or half-written
    if not lines:
        raise SimulationError(f"{file}: not a results file of ttr_europe (no header line)")
    doc = _header_doc(file, lines[0])
    return doc, list(_read_rows(file, run_mark(doc), lines[1:])[0].values())


def game_record(header: dict[str, Any], row: GameResult) -> GameRecord:
    """The game record of a row written with ``record`` (for ``records.replay`` or
    ``ttr-europe replay``); ``header`` is the document ``read_rows`` returns with it."""
    from ..records import GameRecord

    if row.record is None:
        raise SimulationError(f"the row of seed {row.seed} has no actions (run with --record)")
    return GameRecord(header["map"], header["variant"], len(row.bots), row.deal_seed, 0,
                      header["options"], row.record)  # fmt: skip


def _lock(fd: int, file: Path) -> None:
    if fcntl is None:  # pragma: no cover
        return
    try:
        # a POSIX record lock belongs to this process: worker processes forked from it do not
        # hold it, so it ends with the run even when the run is killed and its workers linger
        fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        raise SimulationError(f"{file} is being written by another run") from None


def _regular(fd: int, file: Path) -> None:
    """Refuse a results file that is not a regular file: ``/dev/zero`` would be read without
    end, a pipe waited on for ever, and neither can be locked, cut back or resumed."""
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        raise SimulationError(f"{file}: not a regular file")


def _read_all(fd: int) -> bytes:
    os.lseek(fd, 0, os.SEEK_SET)
    chunks = []
    while chunk := os.read(fd, 1 << 20):
        chunks.append(chunk)
    return b"".join(chunks)


def _header_doc(file: Path, line: bytes, format: str = FORMAT) -> dict[str, Any]:
    try:
        doc = parse_json(line, str(file))
    except ValueError:
        doc = None
    if not isinstance(doc, dict) or doc.get("format") != format:
        raise SimulationError(f"{file}: not a results file of ttr_europe (line 1 is no header)")
    if doc.get("version") != VERSION:
        raise SimulationError(f"{file}: results format version {doc.get('version')!r}, "
                              f"this version reads {VERSION}")  # fmt: skip
    return doc


def _check_header(file: Path, line: bytes, header: Header) -> None:
    differ = header.differences(_header_doc(file, line, header.format))
    if differ:
        raise SimulationError(
            f"{file} holds another run (its {', '.join(differ)} differ); resume it with the "
            "same settings or choose another file"
        )


def _read_rows(
    file: Path,
    mark: str,
    lines: Iterable[bytes],
    check: Checks | None = None,
    reader: Reader = GameResult.from_json,
) -> tuple[dict[int, Any], bool | None]:
    """The rows by seed, and whether they carry the run's mark (None: no rows).

    Every row carries ``mark`` or, in a file written before rows had one, none does.
    """
    rows: dict[int, Any] = {}
    marked: bool | None = None
    for number, line in enumerate(lines, start=2):
        try:
            doc = parse_json(line, str(file))
            found = doc.pop("run", None) if isinstance(doc, dict) else None
            result = reader(doc)
        except (ValueError, TypeError, KeyError) as exc:
            raise SimulationError(f"{file}: line {number} is corrupt ({_reason(exc)})") from None
        marked = found is not None if marked is None else marked
        if found != (mark if marked else None):
            raise SimulationError(
                f"{file}: line {number} is not a game of this run: its run mark "
                f"{found!r} is not the header's {mark if marked else None!r}"
            )
        if result.seed in rows:
            raise SimulationError(f"{file}: line {number} repeats seed {result.seed}")
        problem = None if check is None else check.problem(result)
        if problem is not None:
            raise SimulationError(f"{file}: line {number} is not a game of this run: {problem}")
        rows[result.seed] = result
    return rows, marked


def _reason(exc: BaseException) -> str:
    if isinstance(exc, KeyError):
        return f"no field {exc}"
    return str(exc).splitlines()[0] if str(exc) else type(exc).__name__
