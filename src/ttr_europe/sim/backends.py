"""Where games run: in this process, in a local process pool, or on a Ray cluster.

A backend takes batches of games and yields each batch's rows as soon as it is done, in any
order. A batch whose worker died (a killed process, a lost node) is submitted again, up to
``max_retries`` times, and only then reported as failed; the driver never sees a game twice.
Games are fixed by their specs, so which worker plays them changes nothing but the time.
A backend runs one task on each batch: ``play_batch`` (rows of ``simulate``) unless given
another picklable function of a batch (the playtests' game logs, say).

On every backend a batch with a seat on the clocks (a ``cmd:`` bot, or in-process bots under
``GameSpec.clock``) is watched (``Watch``): its worker notes each finished game and whose turn
it is, with the deadline that turn's clocks give. A worker past a deadline (stopped, stuck) is
killed; a game whose worker died while a seat on the clocks was to move, or passed its
deadline, is a forfeit of that seat, and the games finished before it keep their rows. The
serial backend plays such a batch in one watched worker process, so that nothing a bot does
to the process hosting it stops the run.
"""

from __future__ import annotations

import contextlib
import functools
import itertools
import json
import logging
import os
import pickle
import shutil
import signal
import socket
import sys
import tempfile
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from typing import Any

import attrs

from .._jsontext import parse_json
from ..state import GameState
from .games import (
    Forfeit,
    GameResult,
    SimulationError,
    bot_name,
    describe_error,
    forfeit_result,
    play_batch,
    play_game,
)

BACKENDS = ("serial", "process", "ray")
Batch = tuple[Any, ...]  # game specs: ``GameSpec`` for ``play_batch``, or a task's own
Task = Callable[[Batch], Sequence[Any]]  # a batch's rows, in its order


@attrs.frozen
class Done:
    """A batch played: its rows."""

    results: tuple[Any, ...]  # what the task returned: ``GameResult`` rows for ``play_batch``


@attrs.frozen
class Failed:
    """A batch given up on: its games and why (a worker died too often, or the engine raised)."""

    specs: Batch
    error: str


class Backend:
    """The shared part: counting retries. Subclasses implement ``run`` and ``close``."""

    name = "?"

    def __init__(self, workers: int, max_retries: int, task: Task = play_batch) -> None:
        self.workers = workers
        self.max_retries = max_retries
        self.task = task
        self.retried = 0  # games submitted again after their worker died
        self._attempts: dict[int, int] = {}
        self._watches: dict[int, Watch] = {}  # batch key -> its watch, while it runs
        self._overdue: dict[int, str] = {}  # batches whose worker was killed, and why
        self._serial = itertools.count()  # each submission's own watch

    def run(self, batches: Sequence[Batch]) -> Iterator[Done | Failed]:
        raise NotImplementedError

    def close(self) -> None:
        """Release the workers (idempotent)."""

    def __enter__(self) -> Backend:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _again(self, key: int, batch: Batch) -> bool:
        """Whether a batch whose worker died gets another try (and count it)."""
        tries = self._attempts.get(key, 0) + 1
        self._attempts[key] = tries
        if tries > self.max_retries:
            return False
        self.retried += len(batch)
        return True

    def watched(self, batch: Batch) -> bool:
        """Whether ``batch`` is played under a watch: ``simulate``'s games (``play_batch``)
        with a turn that can have a deadline (``GameSpec.watched``)."""
        return self.task is play_batch and any(spec.watched for spec in batch)

    def _overdue_now(self, keys: Iterable[int]) -> list[tuple[int, dict[str, Any]]]:
        """The watched batches among ``keys`` past their turn's deadline, with that turn, each
        marked overdue (once): their workers are to be killed."""
        turns = []
        for key in keys:
            watch = self._watches.get(key)
            if watch is None or key in self._overdue:
                continue
            turn = watch.read_turn()
            if turn is not None and turn["left"] is not None and turn["left"] <= 0:
                self._overdue[key] = OVERDUE
                turns.append((key, turn))
        return turns

    def _salvage(self, key: int, batch: Batch, alone: bool) -> tuple[list[GameResult], Batch, bool]:
        """What a lost watched batch leaves: the rows of its finished games, a forfeit for
        the game whose seat on the clocks was to move when its worker was killed for a
        deadline or died alone (then ``True``: the death is accounted for), and the games
        still to play."""
        watch = self._watches.pop(key, None)
        if watch is None:
            return [], batch, False
        rows, turn = watch.read_rows(), watch.read_turn()
        left = batch[len(rows) :]
        overdue = self._overdue.pop(key, None)
        if turn is None or turn["game"] != len(rows) or turn["limit"] is None:
            return rows, left, False  # no seat on the clocks: the worker itself failed
        if overdue is None and not alone:
            return rows, left, False  # it may have gone down with a pool another task broke
        spec, seat = left[0], turn["seat"]
        forfeit = Forfeit(seat, bot_name(spec.bots[seat]), len(turn["taken"]), overdue or DIED)
        rows.append(forfeit_result(spec, forfeit, turn["taken"]))
        return rows, left[1:], True


GRACE = 5.0
"""Seconds past what a turn's clocks allow before its worker counts as stuck and is killed."""
OVERDUE = "timed out: its turn passed the deadline of its clocks"
DIED = "its referee's process died while it was to move"


class Watch:
    """Where a worker notes its batch's progress for the driver: each finished game's row, and
    the turn being played (the worker's process, the game, the seat, the seconds its clocks
    give it, the actions so far). Whoever keeps the notes stamps the turn's
    deadline on its own clock, so reading says how many seconds are ``left`` (None: the turn
    is off the clocks) whatever machine the worker runs on. A subclass says where the notes
    are kept: ``FileWatch`` (a folder on this machine), ``BoardWatch`` (a Ray actor)."""

    def note_turn(
        self, game: int, state: GameState, limit: float | None, taken: Sequence[str]
    ) -> None:
        turn = {"pid": os.getpid(), "machine": machine(), "game": game, "seat": state.current,
                "limit": limit, "taken": list(taken)}  # fmt: skip
        self._keep_turn(turn)

    def note_row(self, result: GameResult) -> None:
        self._keep_row(json.dumps(result.to_json()))

    def read_turn(self) -> dict[str, Any] | None:
        """The turn last noted, with the seconds ``left`` before its deadline."""
        raise NotImplementedError

    def close(self) -> None:
        """Release what the worker holds to note (once its batch is played)."""

    def read_rows(self) -> list[GameResult]:
        raise NotImplementedError

    def _keep_turn(self, turn: dict[str, Any]) -> None:
        raise NotImplementedError

    def _keep_row(self, line: str) -> None:
        raise NotImplementedError


@functools.cache
def machine() -> str:
    """What tells this machine from the others of a cluster (its name and, on Linux, boot)."""
    try:
        with open("/proc/sys/kernel/random/boot_id") as f:
            boot = f.read().strip()
    except OSError:
        boot = ""
    return f"{socket.gethostname()} {boot}"


def stamped(turn: dict[str, Any]) -> dict[str, Any]:
    """``turn`` with its deadline (``until``) on this process's monotonic clock."""
    limit = turn["limit"]
    return {**turn, "until": None if limit is None else time.monotonic() + limit + GRACE}


def left(turn: dict[str, Any]) -> dict[str, Any]:
    """A ``stamped`` turn with the seconds ``left`` before its deadline, by this clock (the
    monotonic clock, which every process of a machine shares)."""
    until = turn["until"]
    return {**turn, "left": None if until is None else until - time.monotonic()}


@attrs.define
class FileWatch(Watch):
    """The notes in a file of a folder of this machine, which the worker keeps open and only
    appends to (a line per note: opening a file costs more than a move): a turn, with the
    actions taken since the turn before, or a finished game's row. A line cut short is not
    read."""

    folder: str
    key: int
    _fd: int | None = attrs.field(default=None, init=False)
    _noted: tuple[int, int] = attrs.field(default=(-1, 0), init=False)  # game, actions noted

    @property
    def log(self) -> str:
        return os.path.join(self.folder, f"{self.key}.log")

    def _keep_turn(self, turn: dict[str, Any]) -> None:
        game, noted = self._noted
        since = noted if game == turn["game"] else 0  # the game's actions already in the file
        self._noted = (turn["game"], len(turn["taken"]))
        self._append({"turn": {**stamped(turn), "taken": turn["taken"][since:], "since": since}})

    def _keep_row(self, line: str) -> None:
        self._append({"row": parse_json(line, "<row>")})

    def _append(self, note: dict[str, Any]) -> None:
        if self._fd is None:
            self._fd = os.open(self.log, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        os.write(self._fd, (json.dumps(note) + "\n").encode())

    def close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None

    def _read(self) -> tuple[list[GameResult], dict[str, Any] | None]:
        try:
            with open(self.log) as f:
                lines = [line for line in f if line.endswith("\n")]  # not one cut short
        except OSError:
            return [], None
        rows: list[GameResult] = []
        turn: dict[str, Any] | None = None
        taken: list[str] = []
        for line in lines:
            note = parse_json(line, self.log)
            if "row" in note:
                rows.append(GameResult.from_json(note["row"]))
                continue
            new = note["turn"]
            if turn is None or new["game"] != turn["game"]:
                taken = []
            taken = taken[: new["since"]] + new["taken"]
            turn = {**new, "taken": taken}
        return rows, None if turn is None else left(turn)

    def read_turn(self) -> dict[str, Any] | None:
        return self._read()[1]

    def read_rows(self) -> list[GameResult]:
        return self._read()[0]


class Board:
    """The notes of the watched batches on Ray (an actor: the driver and the workers may be on
    different machines), by watch key; the deadlines are on the actor's clock."""

    def __init__(self) -> None:
        self.turns: dict[int, dict[str, Any]] = {}
        self.rows: dict[int, list[str]] = {}

    def keep_turn(self, key: int, turn: dict[str, Any]) -> None:
        self.turns[key] = stamped(turn)

    def keep_row(self, key: int, line: str) -> None:
        self.rows.setdefault(key, []).append(line)

    def turn(self, key: int) -> dict[str, Any] | None:
        turn = self.turns.get(key)
        return None if turn is None else left(turn)

    def rows_of(self, key: int) -> list[str]:
        return self.rows.get(key, [])


@attrs.frozen
class BoardWatch(Watch):
    """The notes on a ``Board`` actor. A worker waits for each note to be kept, so that the
    driver knows the turn before the bot does anything."""

    board: Any  # the actor's handle
    key: int

    def _keep_turn(self, turn: dict[str, Any]) -> None:
        import ray

        ray.get(self.board.keep_turn.remote(self.key, turn))

    def _keep_row(self, line: str) -> None:
        import ray

        ray.get(self.board.keep_row.remote(self.key, line))

    def read_turn(self) -> dict[str, Any] | None:
        import ray

        turn: dict[str, Any] | None = ray.get(self.board.turn.remote(self.key))
        return turn

    def read_rows(self) -> list[GameResult]:
        import ray

        lines = ray.get(self.board.rows_of.remote(self.key))
        return [GameResult.from_json(parse_json(line, "<rows>")) for line in lines]


def play_watched(batch: Batch, watch: Watch) -> list[GameResult]:
    """``play_batch`` noting its progress in ``watch`` (what a worker runs for a watched
    batch)."""
    results = []
    try:
        for index, spec in enumerate(batch):

            def on_turn(state: GameState, limit: float | None, taken: Sequence[str],
                        game: int = index) -> None:  # fmt: skip
                watch.note_turn(game, state, limit, taken)

            result = play_game(spec, on_turn)
            watch.note_row(result)
            results.append(result)
    finally:
        watch.close()
    return results


class SerialBackend(Backend):
    """Every game in this process, one after the other: no overhead, no parallelism.

    Except a watched batch (a seat on the clocks, ``Backend.watched``): it is played in one
    watched worker process (a ``ProcessBackend`` of one), so that a bot stopped, stuck or
    killing its referee costs its seat the game and the run goes on. A batch that cannot be
    pickled stays here, on the bots' own clocks only.
    """

    name = "serial"

    def __init__(self, max_retries: int = 0, task: Task = play_batch) -> None:
        super().__init__(1, max_retries, task)

    def run(self, batches: Sequence[Batch]) -> Iterator[Done | Failed]:
        for away, run in itertools.groupby(batches, self._hosted):
            if away:  # one worker for each run of watched batches, one batch at a time
                with ProcessBackend(1, self.max_retries, self.task, in_flight=1) as host:
                    yield from host.run(list(run))
                self.retried += host.retried
                continue
            for batch in run:
                try:
                    results = self.task(batch)
                except Exception as exc:  # an engine error: report the batch, go on
                    yield Failed(batch, describe_error(exc))
                else:
                    yield Done(tuple(results))

    def _hosted(self, batch: Batch) -> bool:
        """Whether ``batch`` is played in the watched worker: watched, and picklable."""
        if not self.watched(batch):
            return False
        try:
            pickle.dumps(batch)
        except Exception:
            return False
        return True


class ProcessBackend(Backend):
    """A pool of worker processes on this machine (standard library only).

    When a worker dies the pool is broken for every task in flight, and which task killed it
    is unknown. A new pool takes over and those tasks run again *one at a time* (suspects):
    a task that kills a worker when it runs alone counts an attempt and fails after
    ``max_retries`` of them, while the tasks that only shared its pool go through untouched.
    """

    name = "process"

    def __init__(
        self,
        workers: int | None = None,
        max_retries: int = 3,
        task: Task = play_batch,
        *,
        in_flight: int | None = None,
    ) -> None:
        super().__init__(workers or _cpus(), max_retries, task)
        self.in_flight = in_flight or 2 * self.workers  # tasks given to the pool at once
        self._pool: ProcessPoolExecutor | None = None
        self._folder: str | None = None

    def _submit(self, key: int, batch: Batch) -> Future[Sequence[Any]]:
        assert self._pool is not None
        if not self.watched(batch):
            return self._pool.submit(self.task, batch)
        if self._folder is None:
            self._folder = tempfile.mkdtemp(prefix="ttr-watch-")
        watch = self._watches[key] = FileWatch(self._folder, next(self._serial))
        return self._pool.submit(play_watched, batch, watch)

    def _check_deadlines(self, inflight: dict[Any, tuple[int, Batch]]) -> None:
        """Kill the worker of each watched batch past its turn's deadline."""
        for _, turn in self._overdue_now(key for key, _ in inflight.values()):
            _kill_here(turn)

    def run(self, batches: Sequence[Batch]) -> Iterator[Done | Failed]:
        from .. import scoring  # noqa: F401 (loaded once here: each forked worker has it)

        pending = deque(enumerate(batches))
        suspects: deque[tuple[int, Batch]] = deque()
        inflight: dict[Future[Sequence[Any]], tuple[int, Batch]] = {}
        try:
            while pending or suspects or inflight:
                if self._pool is None:  # no more processes than tasks: the rest would idle
                    self._pool = ProcessPoolExecutor(
                        min(self.workers, max(1, len(batches))),
                        initializer=_follow_parent,
                        initargs=(os.getpid(),),
                    )
                if suspects:  # after a death: one task alone until the suspects are cleared
                    if not inflight:
                        key, batch = suspects.popleft()
                        inflight[self._submit(key, batch)] = (key, batch)
                    alone = True
                else:
                    while pending and len(inflight) < self.in_flight:
                        key, batch = pending.popleft()
                        inflight[self._submit(key, batch)] = (key, batch)
                    alone = len(inflight) == 1  # nothing else could have broken the pool
                watched = any(key in self._watches for key, _ in inflight.values())
                done, _ = wait(inflight, 0.25 if watched else None, FIRST_COMPLETED)
                if watched:
                    self._check_deadlines(inflight)
                lost: list[tuple[int, Batch]] = []
                for future in done:
                    key, batch = inflight.pop(future)
                    try:
                        yield Done(tuple(future.result()))
                    except BrokenProcessPool:
                        lost.append((key, batch))
                    except Exception as exc:  # an engine error: report the batch, go on
                        yield Failed(batch, describe_error(exc))
                if not lost:
                    continue
                lost += inflight.values()  # every task in flight went down with the pool
                inflight.clear()
                self._discard_pool()
                for key, batch in lost:  # a watched batch keeps what it finished
                    rows, left, blamed = self._salvage(key, batch, alone)
                    if rows:
                        yield Done(tuple(rows))
                    if not left:
                        continue
                    if blamed:  # a seat forfeited for the death: the rest plays again
                        suspects.appendleft((key, left))
                    elif not alone:
                        self.retried += len(left)
                        suspects.append((key, left))
                    elif self._again(key, left):  # it killed its worker on its own
                        suspects.appendleft((key, left))
                    else:
                        yield Failed(left, f"worker died {self._attempts[key]} times")
        finally:
            self.close()

    def close(self) -> None:
        self._discard_pool()
        if self._folder is not None:
            shutil.rmtree(self._folder, ignore_errors=True)
            self._folder = None
            self._watches.clear()

    def _discard_pool(self) -> None:
        """Shut the pool down and kill its workers: a worker still playing (the run was
        interrupted, or the pool broke) would hold the interpreter's exit until its game
        ends, and its bots with it (each dies with its worker)."""
        if self._pool is not None:
            workers = list(getattr(self._pool, "_processes", None) or {})
            manager = getattr(self._pool, "_executor_manager_thread", None)
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
            for pid in workers:
                with contextlib.suppress(OSError):
                    os.kill(pid, signal.SIGKILL)
            if manager is not None:  # it closes its pipe as it ends: ended before the exit
                manager.join(timeout=5)  # hook writes to that pipe (else, at times, EBADF)


def _kill_here(turn: dict[str, Any]) -> None:
    """Kill the process that noted ``turn``, if it runs on this machine."""
    if turn.get("machine") == machine():
        with contextlib.suppress(OSError):
            os.kill(turn["pid"], signal.SIGKILL)


def _follow_parent(parent: int) -> None:
    """In a pool worker: exit as soon as the driver is gone (killed, say), instead of waiting
    forever for work that will not come."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(1)

    threading.Thread(target=watch, daemon=True, name="follow-parent").start()


class RayBackend(Backend):
    """Tasks on Ray: a cluster at ``address``, or a local Ray instance started (and stopped)
    here. If Ray is already initialised in this process (by the caller, with whatever
    resources and runtime environment it wants), that instance is used as it is."""

    name = "ray"

    def __init__(
        self,
        workers: int | None = None,
        address: str | None = None,
        max_retries: int = 3,
        task: Task = play_batch,
    ) -> None:
        try:
            import ray
        except ImportError:
            raise SimulationError(
                "the ray backend needs Ray: pip install 'ttr_europe[ray]'"
            ) from None
        self._ray: Any = ray
        self._owned = False
        if address:
            _check_address(address)
        if not ray.is_initialized():
            try:
                with _stderr_kept_back():  # Ray's own retry messages, one a second
                    ray.init(
                        address=address or None,
                        num_cpus=None if address else (workers or _cpus()),
                        include_dashboard=False,
                        logging_level=logging.ERROR,
                        log_to_driver=False,
                    )
            except (ConnectionError, RuntimeError, ValueError) as exc:
                raise SimulationError(f"cannot reach Ray at {address or 'a local instance'}: "
                                      f"{describe_error(exc)}") from None  # fmt: skip
            self._owned = True
        cpus = int(self._ray.cluster_resources().get("CPU", 1))
        super().__init__(workers or max(1, cpus), max_retries, task)
        self._task = ray.remote(max_retries=0)(task)  # retries are counted here
        self._watched_task = ray.remote(max_retries=0)(play_watched)
        self._board: Any = None  # the actor that keeps the watches' notes, once one is needed

    def _submit(self, key: int, batch: Batch) -> Any:
        if not self.watched(batch):
            return self._task.remote(batch)
        if self._board is None:
            self._board = self._ray.remote(num_cpus=0)(Board).remote()
        watch = self._watches[key] = BoardWatch(self._board, next(self._serial))
        return self._watched_task.remote(batch, watch)

    def run(self, batches: Sequence[Batch]) -> Iterator[Done | Failed]:
        ray = self._ray
        from ray.exceptions import RayError, RayTaskError

        pending = deque(enumerate(batches))
        inflight: dict[Any, tuple[int, Batch]] = {}
        try:
            while pending or inflight:
                while pending and len(inflight) < self.workers:  # Ray runs all it is given
                    key, batch = pending.popleft()
                    inflight[self._submit(key, batch)] = (key, batch)
                watched = any(key in self._watches for key, _ in inflight.values())
                ready, _ = ray.wait(list(inflight), num_returns=1,
                                    timeout=0.25 if watched else None)  # fmt: skip
                if watched:  # a worker past a deadline is killed (also when it is stopped)
                    late = dict(self._overdue_now(key for key, _ in inflight.values()))
                    for ref, (key, _) in inflight.items():
                        if key in late:
                            _kill_here(late[key])  # at once, when it runs on this machine
                            ray.cancel(ref, force=True)  # else Ray's own, in some seconds
                for ref in ready:
                    key, batch = inflight.pop(ref)
                    try:
                        yield Done(tuple(ray.get(ref)))
                    except RayTaskError as exc:  # the game code raised: no retry helps
                        yield Failed(batch, describe_error(exc.cause or exc))
                    except RayError as exc:  # a worker or node died, or was killed here
                        rows, left, blamed = self._salvage(key, batch, alone=True)
                        if rows:
                            yield Done(tuple(rows))
                        if not left:
                            continue
                        if blamed or self._again(key, left):
                            pending.appendleft((key, left))
                        else:
                            yield Failed(left, f"worker died {self._attempts[key]} times: "
                                               f"{describe_error(exc)}")  # fmt: skip
        finally:
            for ref in inflight:
                ray.cancel(ref, force=True)
            if self._board is not None:
                ray.kill(self._board)
                self._board = None
            self._watches.clear()

    def close(self) -> None:
        if self._owned:
            self._ray.shutdown()
            self._owned = False


@contextlib.contextmanager
def _stderr_kept_back() -> Iterator[None]:
    """Hold back what is written to file descriptor 2 (also by native code) while the block
    runs; pass it on only if the block succeeds, so a failure stays one line of ours."""
    sys.stderr.flush()
    saved = os.dup(2)
    with tempfile.TemporaryFile() as held:
        os.dup2(held.fileno(), 2)
        try:
            yield
        finally:
            sys.stderr.flush()
            os.dup2(saved, 2)
            os.close(saved)
        held.seek(0)
        sys.stderr.write(held.read().decode(errors="replace"))


def _check_address(address: str) -> None:
    """Fail fast, in one line, when nothing listens at a cluster address."""
    if address == "auto":
        return
    hostport = address.removeprefix("ray://")
    host, _, port = hostport.rpartition(":")
    if not host or not port.isdigit():
        raise SimulationError(f"a Ray address is HOST:PORT, ray://HOST:PORT or auto, "
                              f"not {address!r}")  # fmt: skip
    try:
        socket.create_connection((host, int(port)), timeout=5).close()
    except OSError as exc:
        raise SimulationError(f"Ray address {address} does not answer: {exc}") from None


def _cpus() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not on Linux
        return os.cpu_count() or 1


def make_backend(
    name: str,
    workers: int | None = None,
    address: str | None = None,
    max_retries: int = 3,
    task: Task = play_batch,
) -> Backend:
    """A backend by name (``serial``, ``process``, ``ray``) running ``task`` on each batch."""
    if name == "serial":
        return SerialBackend(task=task)
    if name == "process":
        return ProcessBackend(workers, max_retries, task)
    if name == "ray":
        return RayBackend(workers, address, max_retries, task)
    raise SimulationError(f"unknown backend {name!r}; known: {', '.join(BACKENDS)}")
