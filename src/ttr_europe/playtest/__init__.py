"""Playtest a board: many seeded games at 2-5 players between bots, summed up per player count.

``playtest(map, players=(2, 3), bots=..., games=1000)`` plays the games on a backend of
``ttr_europe.sim`` (serial, a process pool or Ray), in the compiled core when every seat is a
bot or policy it plays (``CORE_POLICIES``: the default lineup is) and in the reference engine
otherwise, and returns a
``Playtest``: its ``figures()`` are the JSON document of every figure and
``playtest.report.write_report`` draws the report. With ``out`` (a directory) each game's log
is appended to ``games-<n>p.jsonl`` as it ends, and ``resume`` plays only the games missing
there, as ``simulate`` does. Game ``g`` of a player count has seed ``seed + g`` and the
``g``-th lineup of a fixed cycle (``lineups``: every bot meets every other, in every seat), so
the figures are the same whatever the backend, the number of workers or the engine. See
docs/playtest.md.
"""

from __future__ import annotations

import hashlib
import os
import time
from collections.abc import Callable, Mapping, Sequence
from itertools import permutations
from pathlib import Path
from typing import Any

import attrs

from .. import loop
from ..board import Map
from ..errors import SimulationError
from ..maps import load_map
from ..rules import new_game
from ..sim import auto_batch, make_backend
from ..sim.backends import Done
from ..sim.games import clocked
from ..sim.store import Header, open_store
from ..views import OptionValue
from .figures import figures as _figures
from .games import (
    CORE_POLICIES,
    ENGINES,
    MAX_ACTIONS,
    GameLog,
    PlaytestSpec,
    play_log,
    play_logs,
)

FORMAT = "ttr_europe/playtest"
DEFAULT_BOTS = ("random", "claimer", "saver", "greedy", "ambitious")
"""The ladder's styles without the search bots (``players.styles.LADDER``): five styles, from no
plan to ticket routes, ``ambitious`` holding the long tickets ``greedy`` returns, so that no
ticket figure only says who held it. The compiled core plays all of them (``CORE_POLICIES``)."""

Progress = Callable[[int, int], None]  # (games finished, games asked for), all counts together


@attrs.frozen
class Run:
    """The games of one player count: their logs (by seed) and what happened to the rest."""

    players: int
    asked: int
    logs: tuple[GameLog, ...]
    resumed: int = 0
    failures: tuple[tuple[int, str], ...] = ()


@attrs.frozen
class Playtest:
    """A playtest: what was asked and the games of each player count."""

    map: Map
    variant: str
    bots: tuple[str, ...]
    seed: int
    engine: str  # the engine that played the new games: python or core
    runs: tuple[Run, ...]
    backend: str = "serial"
    workers: int = 1
    elapsed: float = attrs.field(default=0.0, eq=False)

    @property
    def played(self) -> int:
        return sum(len(r.logs) - r.resumed for r in self.runs)

    @property
    def failures(self) -> tuple[tuple[int, int, str], ...]:
        """``(players, seed, error)`` of every game given up on."""
        return tuple((r.players, s, e) for r in self.runs for s, e in r.failures)

    def figures(self) -> dict[str, Any]:
        """The JSON document of every figure (``playtest.figures``)."""
        doc = _figures(self.map, self.variant, [(r.players, r.logs) for r in self.runs])
        doc["bots"] = list(self.bots)
        doc["seed"] = self.seed
        return doc


class _Checks:
    """What a row read back must be to belong to a run: one of its seeds with its lineup,
    indexes on this board (``sim.store.Checks``)."""

    def __init__(self, lineups: Mapping[int, tuple[str, ...]], board: Map) -> None:
        self.lineups = lineups
        self.board = board

    def problem(self, row: GameLog) -> str | None:
        lineup = self.lineups.get(row.seed)
        if lineup is None:
            return f"seed {row.seed} is not one of this run's seeds"
        if row.bots != lineup:
            return f"the row of seed {row.seed} seats {list(row.bots)}, this run {list(lineup)}"
        n, board = len(lineup), self.board
        if len(row.scores) != n or len(row.passes) != n:
            return f"scores or passes for other than {n} seats"
        for route, seat, _ in row.claims:
            if not (0 <= route < len(board.routes) and 0 <= seat < n):
                return f"a claim of route {route} by seat {seat}"
        for city, seat, _ in row.stations:
            if not (0 <= city < len(board.cities) and 0 <= seat < n):
                return f"a station in city {city} by seat {seat}"
        for seat, ticket, _ in row.tickets:
            if not (0 <= ticket < len(board.tickets) and 0 <= seat < n):
                return f"ticket {ticket} held by seat {seat}"
        return None


def choose_engine(
    engine: str, bots: Sequence[str], board: Map, variant: str = "base", players: int = 2
) -> str:
    """``python`` or ``core``: ``auto`` is the core when it is built, plays every bot and takes
    the board (``SimulationError`` when ``core`` is asked for and cannot be had)."""
    from .. import fast
    from ..errors import BadArgumentError

    if engine not in ENGINES:
        raise SimulationError(f"engine {engine!r}: choose one of {', '.join(ENGINES)}")
    if engine == "python":
        return engine
    why = None
    if not fast.available():
        why = "it is not built (python -m ttr_europe.fast.build)"
    elif any(b not in CORE_POLICIES for b in bots):
        other = next(b for b in bots if b not in CORE_POLICIES)
        why = f"it does not play {other!r} (it plays {', '.join(CORE_POLICIES)})"
    else:
        try:
            fast.new_game(board, variant, players, 0)
        except BadArgumentError as exc:  # a board beyond the core's limits
            why = str(exc)
    if why is None:
        return "core"
    if engine == "core":
        raise SimulationError(f"the compiled core cannot play this playtest: {why}")
    return "python"


def plan(
    board: Map,
    bots: Sequence[str],
    *,
    players: int,
    games: int,
    variant: str = "base",
    seed: int = 0,
    options: Mapping[str, OptionValue] | None = None,
    max_actions: int = MAX_ACTIONS,
    engine: str = "python",
) -> list[PlaytestSpec]:
    """The games at one player count: game ``g`` has seed ``seed + g`` and the ``g``-th lineup
    of ``lineups`` (every bot meets every other, in every seat)."""
    from ..players import make_bot

    if not bots:
        raise SimulationError("a playtest needs at least one bot")
    if type(games) is not int or games < 0:
        raise SimulationError(f"the number of games is a whole number >= 0, not {games!r}")
    if type(max_actions) is not int or not 1 <= max_actions <= loop.MAX_ACTIONS:
        raise SimulationError(
            f"max_actions is a whole number from 1 to {loop.MAX_ACTIONS}, not {max_actions!r}"
        )
    opts = tuple(sorted((options or {}).items()))
    new_game(board, variant, players, seed, 0, **dict(opts))  # refuses bad rules now
    for name in dict.fromkeys(bots):
        if clocked(name):  # a stranger's program would find seed + g from its first view
            raise SimulationError(
                f"{name.strip()}: a playtest deals its games from public seeds, which a cmd: "
                "program could find; play programs in simulate or tournament, which deal them "
                "in secret"
            )
        if name not in CORE_POLICIES:
            make_bot(name)  # BotError for a spec that names no bot
    spec_map: str | Map = board.id if _is_shipped(board) else board
    cycle = lineups(bots, players)
    return [
        PlaytestSpec(spec_map, variant, seed + g, cycle[g % len(cycle)], opts, max_actions, engine)
        for g in range(games)
    ]


def lineups(bots: Sequence[str], players: int) -> list[tuple[str, ...]]:
    """The lineups games cycle through: with at least as many bots as seats, every ordering of
    every choice of ``players`` different bots (so each bot meets each other in every seat);
    with fewer, the bots repeated over the seats (``simulate``'s lineup) and rotated by one
    seat a game, so each seat holds each place of the lineup once a cycle."""
    k = len(bots)
    if k >= players:
        return [tuple(bots[i] for i in order) for order in permutations(range(k), players)]
    base = [bots[i % k] for i in range(players)]
    return [tuple(base[(i + g) % players] for i in range(players)) for g in range(players)]


def _is_shipped(board: Map) -> bool:
    from ..maps import available_maps

    return board.id in available_maps() and load_map(board.id) is board


def playtest(
    map: str | Map = "europe",
    *,
    players: int | Sequence[int] = 2,
    bots: Sequence[str] = DEFAULT_BOTS,
    games: int = 100,
    variant: str = "base",
    seed: int = 0,
    options: Mapping[str, OptionValue] | None = None,
    engine: str = "auto",
    backend: str = "process",
    workers: int | None = None,
    address: str | None = None,
    batch: int | None = None,
    out: str | os.PathLike[str] | None = None,
    resume: bool = False,
    max_actions: int = MAX_ACTIONS,
    max_retries: int = 3,
    progress: Progress | None = None,
) -> Playtest:
    """Play ``games`` seeded games at each count of ``players`` between ``bots`` (specs of
    ``players.make_bot`` or ``CORE_POLICIES``, rotated over the seats) and return them.

    A map name is a shipped map; a ``Map`` may come from any file (``maps.load_map_file``,
    which refuses a faulty one with ``DataError``). Bad input raises a ``TTRError`` before any
    game is played. A game still going after ``max_actions`` actions stops there and is
    reported as unfinished (a board whose games cannot end shows as all of them).
    """
    board = load_map(map) if isinstance(map, str) else map
    counts = (players,) if isinstance(players, int) else tuple(dict.fromkeys(players))
    if not counts:
        raise SimulationError("a playtest needs a player count")
    lineup = tuple(bots)
    for n in counts:  # bad rules (SetupError) and bots (BotError) before anything else
        plan(board, lineup, players=n, games=0, variant=variant, seed=seed, options=options)
    chosen = choose_engine(engine, lineup, board, variant, max(counts))
    plans = [
        (
            n,
            plan(
                board,
                lineup,
                players=n,
                games=games,
                variant=variant,
                seed=seed,
                options=options,
                max_actions=max_actions,
                engine=chosen,
            ),
        )
        for n in counts
    ]
    fixed = {"max_actions": max_actions, "board": board_digest(board)}  # and the header's
    opts = tuple(sorted({**(options or {}), **fixed}.items()))
    folder = None if out is None else Path(out)
    if folder is not None:
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise SimulationError(f"{folder}: cannot make the directory: {exc.strerror}") from None
    asked = sum(len(specs) for _, specs in plans)
    finished = 0
    runs = []
    runner = make_backend(backend, workers, address, max_retries, task=play_logs)
    started = time.perf_counter()
    with runner:
        for n, specs in plans:
            store = None
            if folder is not None:
                header = Header(board.id, variant, n, lineup, seed, opts, False, FORMAT)
                lineups = {s.seed: s.bots for s in specs}
                store = open_store(
                    folder / f"games-{n}p.jsonl",
                    header,
                    resume=resume,
                    rows=_Checks(lineups, board),
                    reader=GameLog.from_json,
                )
            try:
                done: dict[int, GameLog] = {} if store is None else dict(store.rows)
                resumed = len(done)
                finished += resumed
                todo = [s for s in specs if s.seed not in done]
                size = batch or max(
                    auto_batch(runner.name, len(todo), runner.workers),
                    _core_batch(chosen, runner.name, len(todo), runner.workers),
                )
                if progress is not None:
                    progress(finished, asked)
                failures: list[tuple[int, str]] = []
                for outcome in runner.run(
                    [tuple(todo[i : i + size]) for i in range(0, len(todo), size)]
                ):
                    if isinstance(outcome, Done):
                        for log in outcome.results:
                            if store is not None:
                                store.append(log)
                            done[log.seed] = log
                            finished += 1
                    else:
                        failures += [(s.seed, outcome.error) for s in outcome.specs]
                    if progress is not None:
                        progress(finished, asked)
            finally:
                if store is not None:
                    store.close()
            runs.append(
                Run(
                    n,
                    len(specs),
                    tuple(done[s.seed] for s in specs if s.seed in done),
                    resumed,
                    tuple(sorted(failures)),
                )
            )
    return Playtest(
        board,
        variant,
        lineup,
        seed,
        chosen,
        tuple(runs),
        runner.name,
        runner.workers,
        time.perf_counter() - started,
    )


def board_digest(board: Map) -> str:
    """A digest of everything on the board (cities, routes, tickets, variants, scores), so
    that logs of a board are never resumed on a board since changed under the same id."""
    records = board.__reduce__()[1]
    return hashlib.sha256(repr(records).encode()).hexdigest()[:16]


def _core_batch(engine: str, backend: str, games: int, workers: int) -> int:
    """Games in the core take about half a millisecond: a task holds enough of them (up to
    250) that the cost of a task stays small, still at least four tasks per worker."""
    if engine != "core" or backend == "serial":
        return 1
    return max(1, min(250, games // (4 * max(1, workers))))


__all__ = [
    "CORE_POLICIES",
    "DEFAULT_BOTS",
    "ENGINES",
    "MAX_ACTIONS",
    "GameLog",
    "Playtest",
    "PlaytestSpec",
    "Run",
    "board_digest",
    "choose_engine",
    "lineups",
    "plan",
    "play_log",
    "play_logs",
    "playtest",
]
