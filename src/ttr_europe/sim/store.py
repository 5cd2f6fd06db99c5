"""Results on disk as JSON Lines: one header line that names the run, then one row per game.

Each row is appended with a single ``write`` of the whole line on a file opened for appending,
as soon as its game is known, so an interrupted run loses at most the games still being played.
Only a line without its final newline can be half-written: ``open_store`` cuts it off and the
game is played again. Any other line that does not read back is corruption, and the file is
refused rather than guessed at. While a run appends, it holds an exclusive lock on the file so
that two runs (two processes) cannot write the same rows.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import attrs

from ..jsontext import parse_json
from .games import GameResult, SimulationError

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

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "version": VERSION,
            "map": self.map,
            "variant": self.variant,
            "players": self.players,
            "bots": list(self.bots),
            "seed": self.seed,
            "options": dict(self.options),
            "record": self.record,
        }

    def differences(self, doc: dict[str, Any]) -> list[str]:
        """The fields where a header read from a file differs from this one."""
        mine = self.to_json()
        return [key for key in mine if doc.get(key) != mine[key]]


class Store:
    """An open results file: the rows already in it, and ``append`` for new ones."""

    def __init__(
        self, path: Path, fd: int, rows: dict[int, GameResult], torn: bool, header: Header | None
    ) -> None:
        self.path = path
        self.rows = rows  # by seed
        self.torn = torn  # a half-written last line was cut off
        self._fd = fd
        self._header = header  # still to be written, before the first row

    def append(self, result: GameResult) -> None:
        if result.seed in self.rows:
            raise SimulationError(f"{self.path}: seed {result.seed} is already written")
        if self._header is not None:
            _write_line(self._fd, self._header.to_json())
            self._header = None
        _write_line(self._fd, result.to_json())
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


def open_store(path: str | os.PathLike[str], header: Header, *, resume: bool) -> Store:
    """Open ``path`` for a run: a new file, or with ``resume`` an earlier file of the same run.

    Raises ``SimulationError`` (one line naming the file) when the file exists and ``resume``
    is not given, when it is not a results file of this run, when a row is corrupt, or when
    another run holds it.
    """
    file = Path(path)
    try:
        fd = os.open(file, os.O_RDWR | os.O_CREAT | os.O_APPEND, 0o644)
    except OSError as exc:
        raise SimulationError(f"{file}: cannot open: {exc.strerror}") from None
    try:
        _lock(fd, file)
        data = _read_all(fd)
        if not data:  # the header waits for the first row: a run that fails to start
            return Store(file, fd, {}, False, header)  # leaves an empty file, not a used one
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
        rows = _read_rows(file, complete[1:])
        if torn:
            os.ftruncate(fd, len(data) - len(lines[-1]))
        return Store(file, fd, rows, torn, None)
    except BaseException:
        os.close(fd)
        raise


def read_rows(path: str | os.PathLike[str]) -> tuple[dict[str, Any], list[GameResult]]:
    """The header document and the complete rows of a results file (for analysis)."""
    file = Path(path)
    try:
        data = file.read_bytes()
    except OSError as exc:
        raise SimulationError(f"{file}: cannot read: {exc.strerror}") from None
    lines = data.split(b"\n")[:-1]  # the last piece is empty or half-written
    if not lines:
        raise SimulationError(f"{file}: not a results file of ttr_europe (no header line)")
    doc = _header_doc(file, lines[0])
    return doc, list(_read_rows(file, lines[1:]).values())


def game_record(header: dict[str, Any], row: GameResult) -> GameRecord:
    """The game record of a row written with ``record`` (for ``records.replay`` or
    ``ttr-europe replay``); ``header`` is the document ``read_rows`` returns with it."""
    from ..records import GameRecord

    if row.record is None:
        raise SimulationError(f"the row of seed {row.seed} has no actions (run with --record)")
    return GameRecord(header["map"], header["variant"], len(row.bots), row.seed, 0,
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


def _read_all(fd: int) -> bytes:
    os.lseek(fd, 0, os.SEEK_SET)
    chunks = []
    while chunk := os.read(fd, 1 << 20):
        chunks.append(chunk)
    return b"".join(chunks)


def _header_doc(file: Path, line: bytes) -> dict[str, Any]:
    try:
        doc = parse_json(line, str(file))
    except ValueError:
        doc = None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise SimulationError(f"{file}: not a results file of ttr_europe (line 1 is no header)")
    if doc.get("version") != VERSION:
        raise SimulationError(f"{file}: results format version {doc.get('version')!r}, "
                              f"this version reads {VERSION}")  # fmt: skip
    return doc


def _check_header(file: Path, line: bytes, header: Header) -> None:
    differ = header.differences(_header_doc(file, line))
    if differ:
        raise SimulationError(
            f"{file} holds another run (its {', '.join(differ)} differ); resume it with the "
            "same settings or choose another file"
        )


def _read_rows(file: Path, lines: Iterable[bytes]) -> dict[int, GameResult]:
    rows: dict[int, GameResult] = {}
    for number, line in enumerate(lines, start=2):
        try:
            result = GameResult.from_json(parse_json(line, str(file)))
        except (ValueError, TypeError, KeyError) as exc:
            raise SimulationError(f"{file}: line {number} is corrupt ({_reason(exc)})") from None
        if result.seed in rows:
            raise SimulationError(f"{file}: line {number} repeats seed {result.seed}")
        rows[result.seed] = result
    return rows


def _reason(exc: BaseException) -> str:
    if isinstance(exc, KeyError):
        return f"no field {exc}"
    return str(exc).splitlines()[0] if str(exc) else type(exc).__name__
