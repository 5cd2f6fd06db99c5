"""Where games run: in this process, in a local process pool, or on a Ray cluster.

A backend takes batches of games and yields each batch's rows as soon as it is done, in any
order. A batch whose worker died (a killed process, a lost node) is submitted again, up to
``max_retries`` times, and only then reported as failed; the driver never sees a game twice.
Games are fixed by their specs, so which worker plays them changes nothing but the time.
A backend runs one task on each batch: ``play_batch`` (rows of ``simulate``) unless given
another picklable function of a batch (the playtests' game logs, say).
"""

from __future__ import annotations

import contextlib
import logging
import os
import socket
import sys
import tempfile
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from typing import Any

import attrs

from .games import SimulationError, describe_error, play_batch

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


class SerialBackend(Backend):
    """Every game in this process, one after the other: no overhead, no parallelism."""

    name = "serial"

    def __init__(self, max_retries: int = 0, task: Task = play_batch) -> None:
        super().__init__(1, max_retries, task)

    def run(self, batches: Sequence[Batch]) -> Iterator[Done | Failed]:
        for batch in batches:
            try:
                results = self.task(batch)
            except Exception as exc:  # an engine error: report the batch, go on
                yield Failed(batch, describe_error(exc))
            else:
                yield Done(tuple(results))


class ProcessBackend(Backend):
    """A pool of worker processes on this machine (standard library only).

    When a worker dies the pool is broken for every task in flight, and which task killed it
    is unknown. A new pool takes over and those tasks run again *one at a time* (suspects):
    a task that kills a worker when it runs alone counts an attempt and fails after
    ``max_retries`` of them, while the tasks that only shared its pool go through untouched.
    """

    name = "process"

    def __init__(
        self, workers: int | None = None, max_retries: int = 3, task: Task = play_batch
    ) -> None:
        super().__init__(workers or _cpus(), max_retries, task)
        self._pool: ProcessPoolExecutor | None = None

    def run(self, batches: Sequence[Batch]) -> Iterator[Done | Failed]:
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
                        inflight[self._pool.submit(self.task, batch)] = (key, batch)
                    alone = True
                else:
                    while pending and len(inflight) < 2 * self.workers:
                        key, batch = pending.popleft()
                        inflight[self._pool.submit(self.task, batch)] = (key, batch)
                    alone = False
                done, _ = wait(inflight, return_when=FIRST_COMPLETED)
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
                if alone:  # it killed its worker on its own
                    key, batch = lost[0]
                    if self._again(key, batch):
                        suspects.appendleft((key, batch))
                    else:
                        yield Failed(batch, f"worker died {self._attempts[key]} times")
                else:
                    self.retried += sum(len(batch) for _, batch in lost)
                    suspects.extend(lost)
        finally:
            self.close()

    def close(self) -> None:
        self._discard_pool()

    def _discard_pool(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None


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

    def run(self, batches: Sequence[Batch]) -> Iterator[Done | Failed]:
        ray = self._ray
        from ray.exceptions import RayError, RayTaskError

        pending = deque(enumerate(batches))
        inflight: dict[Any, tuple[int, Batch]] = {}
        try:
            while pending or inflight:
                while pending and len(inflight) < self.workers:  # Ray runs all it is given
                    key, batch = pending.popleft()
                    inflight[self._task.remote(batch)] = (key, batch)
                ready, _ = ray.wait(list(inflight), num_returns=1)
                for ref in ready:
                    key, batch = inflight.pop(ref)
                    try:
                        yield Done(tuple(ray.get(ref)))
                    except RayTaskError as exc:  # the game code raised: no retry helps
                        yield Failed(batch, describe_error(exc.cause or exc))
                    except RayError as exc:  # a worker or node died
                        if self._again(key, batch):
                            pending.appendleft((key, batch))
                        else:
                            yield Failed(batch, f"worker died {self._attempts[key]} times: "
                                                f"{describe_error(exc)}")  # fmt: skip
        finally:
            for ref in inflight:
                ray.cancel(ref, force=True)

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
