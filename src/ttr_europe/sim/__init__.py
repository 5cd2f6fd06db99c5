"""Many seeded games between bots, on one core, a process pool or a Ray cluster, resumable.

``simulate`` (and ``tournament``, the same thing for comparing bots) plans the games, skips
those already in the results file, runs the rest on a backend and appends each row as soon as
its game is known. Game ``g`` has seed ``seed + g`` and its seats rotated by ``g``, so each bot
plays every seat equally often, and the rows are the same whatever the backend, the number of
workers or the batch size (only ``duration`` differs), and whichever engine plays them: the
compiled core plays a game whose every seat is a bot it implements (``engine="auto"``, the
default), the reference plays the rest. See docs/simulation.md.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Mapping, Sequence
from math import inf
from typing import Any

import attrs

from .._seeds import PUBLIC, Deal, SecretError
from ..board import Map
from ..maps import load_map
from ..players import sandbox
from ..players.protocol import TimeControl
from ..rules import new_game
from ..views import OptionValue
from .backends import BACKENDS, Backend, Done, make_backend
from .games import (
    ENGINES,
    BotLike,
    Forfeit,
    GameResult,
    GameSpec,
    SimulationError,
    board_engine,
    bot_name,
    clocked,
    core_bot,
    core_playable,
    engine_for,
    play_batch,
    play_core_game,
    play_game,
    resolve_bot,
)
from .stats import Line, Sequential, bot_lines, elo, mean_length, seat_lines, wilson
from .store import Header, RowCheck, Store, game_record, open_store, read_rows

Progress = Callable[[int, int], None]  # (games finished, games asked for)


@attrs.frozen
class Simulation:
    """A run: what was asked, the rows of the planned games (by seed), and what went wrong.

    ``resumed`` rows came from the results file, ``played`` games were played now, ``failures``
    are games given up on (their seed and the error; a resumed run plays them again) and
    ``retried`` counts games submitted again after their worker died.
    """

    map: str
    variant: str
    players: int
    bots: tuple[str, ...]
    asked: int
    results: tuple[GameResult, ...]
    resumed: int = 0
    failures: tuple[tuple[int, str], ...] = ()
    retried: int = 0
    replayed_torn: bool = False  # a half-written last row was cut off and played again
    backend: str = "serial"
    workers: int = 1
    engine: str = "python"  # which engine played the games: "fast" (the core) or "python"
    deal: str = "public"  # how the games were dealt (``choose_deal``): "public" or "secret"
    elapsed: float = attrs.field(default=0.0, eq=False)

    @property
    def finished(self) -> int:
        return len(self.results)

    @property
    def played(self) -> int:
        return self.finished - self.resumed

    @property
    def forfeits(self) -> tuple[GameResult, ...]:
        return tuple(r for r in self.results if r.forfeit is not None)

    @property
    def games_per_second(self) -> float:
        return self.played / self.elapsed if self.elapsed > 0 else 0.0

    def bot_lines(self) -> tuple[Line, ...]:
        return bot_lines(self.results, self.bots)

    def seat_lines(self) -> tuple[Line, ...]:
        return seat_lines(self.results, self.players)

    @property
    def mean_length(self) -> float:
        """Mean actions per game played to the end."""
        return mean_length(self.results)

    def to_json(self) -> dict[str, Any]:
        """The summary (not the rows) as a JSON document."""
        return {
            "map": self.map,
            "variant": self.variant,
            "players": self.players,
            "asked": self.asked,
            "finished": self.finished,
            "resumed": self.resumed,
            "played": self.played,
            "forfeited": len(self.forfeits),
            "failed": len(self.failures),
            "retried": self.retried,
            "replayed_torn_row": self.replayed_torn,
            "failures": [{"seed": s, "error": e} for s, e in self.failures],
            "forfeits": [
                {"seed": r.seed, **attrs.asdict(r.forfeit)}
                for r in self.forfeits
                if r.forfeit is not None
            ],
            "bots": [line.to_json() for line in self.bot_lines()],
            "seats": [line.to_json() for line in self.seat_lines()],
            "mean_length": self.mean_length,
            "backend": self.backend,
            "workers": self.workers,
            "engine": self.engine,
            "deal": self.deal,
            "elapsed": self.elapsed,
            "games_per_second": self.games_per_second,
        }

    def __str__(self) -> str:
        lines = [
            f"{self.asked} games of {self.map}/{self.variant}, {self.players} players: "
            f"{self.finished} finished ({self.resumed} from the file), "
            f"{len(self.forfeits)} forfeited, {len(self.failures)} failed, "
            f"{self.retried} retried",
            f"{self.backend} backend, {self.workers} worker{'s' * (self.workers != 1)}, "
            f"{self.played} played in {self.elapsed:.1f} s ({speed(self.games_per_second)}) "
            f"by the {self.engine} engine"
            + (
                ", dealt in secret (each row says its game's seed)" if self.deal == "secret" else ""
            ),
            "",
            _table("bot", self.bot_lines(), elo=True),
            "",
            _table("seat", self.seat_lines(), elo=False),
            "",
            f"mean game length {self.mean_length:.1f} actions",
        ]
        for r in self.forfeits[:5]:
            lines.append(f"forfeit in game {r.seed}: {r.forfeit}")
        for seed, error in self.failures[:5]:
            lines.append(f"failed game {seed}: {error}")
        return "\n".join(lines)


def speed(games_per_second: float) -> str:
    """A rate people can read at both ends: games/s, or seconds per game for slow bots."""
    if 0 < games_per_second < 1:
        return f"{1 / games_per_second:.1f} s/game"
    return f"{games_per_second:.1f} games/s"


def _table(title: str, rows: Sequence[Line], *, elo: bool) -> str:
    width = max(len(title), *(len(r.name) for r in rows))
    head = (f"{title:<{width}} {'games':>6} {'wins':>7} {'win rate':>8} {'95% interval':>15} "
            f"{'mean score':>10} {'forfeits':>8}") + (f" {'elo':>6}" if elo else "")  # fmt: skip
    out = [head]
    for r in rows:
        score = "-" if r.mean_score is None else f"{r.mean_score:.1f}"
        interval = f"{r.low:.1%}-{r.high:.1%}"
        line = (f"{r.name:<{width}} {r.games:>6} {r.wins:>7.1f} {r.win_rate:>8.1%} "
                f"{interval:>15} {score:>10} {r.forfeits:>8}")  # fmt: skip
        if elo:
            line += f" {r.elo or 0:>6.0f}"
        out.append(line)
    return "\n".join(out)


def plan(
    bots: Sequence[BotLike],
    *,
    games: int,
    map: str | Map = "europe",
    variant: str = "base",
    players: int | None = None,
    seed: int = 0,
    options: Mapping[str, OptionValue] | None = None,
    record: bool = False,
    engine: str = "auto",
    clock: TimeControl | None = None,
    deal: Deal = PUBLIC,
) -> list[GameSpec]:
    """The games of a run: game ``g`` has seed ``seed + g`` and the lineup rotated by ``g``,
    dealt as ``deal`` says (``_seeds``: from its seed, or from a secret).

    Checks everything a game needs before any is played: the board, variant and player count
    (``SetupError``, ``DataError``), that every bot spec names a bot (``BotError``), that the
    engine can play them (``engine_for``) and the in-process seats' ``clock``.
    """
    if not bots:
        raise SimulationError("a simulation needs at least one bot")
    if type(games) is not int or games < 0:
        raise SimulationError(f"the number of games is a whole number >= 0, not {games!r}")
    if clock is not None and not (
        isinstance(clock, TimeControl) and 0 < clock.move < inf and 0 < clock.game < inf
    ):
        raise SimulationError(f"a clock is a TimeControl of positive seconds, not {clock!r}")
    seats = len(bots) if players is None else players
    if len(bots) > seats:
        raise SimulationError(f"{len(bots)} bots for {seats} seats: the last ones would never "
                              "play; give at most one bot per seat")  # fmt: skip
    board = load_map(map) if isinstance(map, str) else map
    opts = tuple(sorted((options or {}).items()))
    new_game(board, variant, seats, seed, 0, **dict(opts))  # refuses bad rules now
    names: dict[str, BotLike] = {}
    for bot in bots:
        name = bot_name(bot)
        known = names.setdefault(name, bot)
        if known is not bot and not (isinstance(known, str) and known == bot):
            raise SimulationError(f"two different bots are both called {name!r}")
        resolve_bot(bot)
    engine_for(engine, bots)
    spec_map: str | Map = board.id if _is_shipped(board) else board
    lineup = [bots[i % len(bots)] for i in range(seats)]
    return [
        GameSpec(spec_map, variant, seed + g,
                 tuple(lineup[(i + g) % seats] for i in range(seats)), opts, record, engine,
                 clock, deal)
        for g in range(games)
    ]  # fmt: skip


DEALS = ("public", "secret")
"""A run's deal by name (``choose_deal``)."""


def choose_deal(
    bots: Sequence[BotLike],
    deal: Deal | str | None = None,
    out: str | os.PathLike[str] | None = None,
) -> Deal:
    """The deal of a run: ``deal`` itself when it is a ``Deal``; by name (``DEALS``); or, when
    None, secret as soon as a seat is a program in another process (``cmd:``: a stranger's
    code must not find the hidden cards from the seed, docs/bots.md) and public otherwise. A
    secret deal named here of a run written to ``out`` keeps its key beside the file
    (``OUT.key``, written once, readable by its owner alone), so ``resume`` deals the same
    games again; without ``out`` its key comes from the operating system and is forgotten."""
    if isinstance(deal, Deal):
        return deal
    if deal is None:
        deal = "secret" if any(clocked(b) for b in bots) else "public"
    if deal not in DEALS:
        raise SimulationError(f"a deal is one of {', '.join(DEALS)}, not {deal!r}")
    if deal == "public":
        return PUBLIC
    if out is None:
        return Deal.fresh()
    try:
        return Deal.from_file(f"{os.fspath(out)}.key", create=True)
    except (OSError, SecretError) as exc:
        raise SimulationError(str(exc)) from None


def _is_shipped(board: Map) -> bool:
    """Whether ``board`` is a shipped map, which workers load by name (a map read from a file
    travels whole to them instead)."""
    from ..maps import available_maps

    return board.id in available_maps() and load_map(board.id) is board


def auto_batch(backend: str, games: int, workers: int, engine: str = "python") -> int:
    """Games per task: enough that the backend's cost per task (about 0.2 ms for the process
    pool, 1.5 ms for Ray; docs/simulation.md) stays near 5 % of even the fastest games (random
    bots, about 2.5 ms in Python, 50 times less in the compiled core), but at least eight
    tasks per worker, so that the work spreads evenly and a lost task costs little. The serial
    backend has no cost per task."""
    cap = {"serial": 1, "process": 4}.get(backend, 32) * (50 if engine == "fast" else 1)
    return max(1, min(cap, games // (8 * max(1, workers))))


def simulate(
    bots: Sequence[BotLike],
    *,
    games: int = 100,
    map: str | Map = "europe",
    variant: str = "base",
    players: int | None = None,
    seed: int = 0,
    options: Mapping[str, OptionValue] | None = None,
    backend: str | Backend = "process",
    workers: int | None = None,
    address: str | None = None,
    batch: int | None = None,
    out: str | os.PathLike[str] | None = None,
    resume: bool = False,
    record: bool = False,
    max_retries: int = 3,
    progress: Progress | None = None,
    engine: str = "auto",
    clock: TimeControl | None = None,
    deal: Deal | str | None = None,
) -> Simulation:
    """Play ``games`` seeded games between ``bots`` (specs or bot objects, one per seat,
    repeated to fill ``players`` seats) and sum them up.

    ``backend`` is ``"serial"``, ``"process"`` (``workers`` processes, default one per core)
    or ``"ray"`` (a cluster at ``address``, or a local instance), or a ``Backend``. With
    ``out``, each row is appended to that JSON Lines file as its game ends; ``resume`` continues
    an earlier run of the same settings, playing only the games missing from the file.
    ``record`` keeps every action of each game in its row (in the file only, when there is
    one, so that memory stays small on long runs). ``engine`` (``ENGINES``) says which engine
    plays: ``auto`` the compiled core when it is built and plays every bot (``core_bot``), else
    the reference; ``fast`` the core or a ``SimulationError``; ``python`` the reference. The
    rows are the same whichever plays. ``clock`` gives the bots that run in this process
    clocks (``SeatClock``: one over its move or game time forfeits; ``cmd:`` bots have their
    own). ``deal`` (``choose_deal``): public, secret, or (None) secret when a seat is a
    ``cmd:`` program; a secret run's rows reveal the seed each game was dealt from
    (``dealt``) once it is over. ``progress(finished, asked)`` is
    called at the start and after each batch of games. Bad input raises a ``TTRError``
    before any game is played.
    """
    if out is not None:  # the rows and the deal's key are never shown to a cmd: bot's sandbox
        sandbox.forbid([os.fspath(out), f"{os.fspath(out)}.key"])
    chosen = choose_deal(bots, deal, out)
    specs = plan(bots, games=games, map=map, variant=variant, players=players, seed=seed,
                 options=options, record=record, engine=engine, clock=clock,
                 deal=chosen)  # fmt: skip
    used = engine_for(engine, bots)
    if specs:  # the board too: one beyond the core plays in Python (auto) or is refused (fast)
        used = board_engine(used, specs[0])
    seats = len(bots) if players is None else players
    board_id = map if isinstance(map, str) else map.id
    header = Header(board_id, variant, seats, tuple(bot_name(b) for b in bots), seed,
                    tuple(sorted((options or {}).items())), record,
                    clock=None if clock is None else (clock.move, clock.game),
                    deal=chosen.fingerprint)  # fmt: skip
    store = None if out is None else _open_rows(out, header, specs, map, resume)
    try:
        done = {} if store is None else {s: _unrecorded(r) for s, r in store.rows.items()}
        resumed = len(done)
        runner = backend if isinstance(backend, Backend) else (
            make_backend(backend, workers, address, max_retries))  # fmt: skip
        failures, elapsed = _play_missing(runner, specs, done, store, batch, used, progress)
    finally:
        if store is not None:
            store.close()
    return Simulation(
        map=board_id,
        variant=variant,
        players=seats,
        bots=tuple(dict.fromkeys(bot_name(b) for b in bots)),
        asked=len(specs),
        results=tuple(done[s.seed] for s in specs if s.seed in done),
        resumed=resumed,
        failures=tuple(sorted(failures)),
        retried=runner.retried,
        replayed_torn=store is not None and store.torn,
        backend=runner.name,
        deal=chosen.mode,
        workers=runner.workers,
        engine=used,
        elapsed=elapsed,
    )


def _open_rows(
    out: str | os.PathLike[str],
    header: Header,
    specs: Sequence[GameSpec],
    map: str | Map,
    resume: bool,
) -> Store:
    """The results file of a run, checked against its settings: each row's seed must be one
    of ``specs`` with its lineup, on its board and variant (``RowCheck``)."""
    lineups = {s.seed: tuple(bot_name(b) for b in s.bots) for s in specs}
    board = load_map(map) if isinstance(map, str) else map
    rows = RowCheck.of(lineups, board, header.variant, header.record)
    return open_store(out, header, resume=resume, rows=rows)


def _unrecorded(result: GameResult) -> GameResult:
    """A row as memory keeps it when a file holds it: without its actions (the file has them),
    so that memory stays small on long runs."""
    return attrs.evolve(result, record=None)


def _play_missing(
    runner: Backend,
    specs: Sequence[GameSpec],
    done: dict[int, GameResult],
    store: Store | None,
    batch: int | None,
    engine: str,
    progress: Progress | None,
) -> tuple[list[tuple[int, str]], float]:
    """Play the games of ``specs`` not in ``done`` on ``runner``, in batches, adding each row
    to ``done`` (and to ``store``) as it ends; the games lost (seed, error) and the seconds
    taken (the time to start a backend is not a game's)."""
    todo = [s for s in specs if s.seed not in done]
    failures: list[tuple[int, str]] = []
    with runner:
        started = time.perf_counter()
        size = batch or auto_batch(runner.name, len(todo), runner.workers, engine)
        _tell(progress, len(done), len(specs))
        batches = [tuple(todo[i : i + size]) for i in range(0, len(todo), size)]
        for outcome in runner.run(batches):
            if isinstance(outcome, Done):
                for result in outcome.results:
                    if store is not None:
                        store.append(result)  # the file keeps the actions, memory not
                    done[result.seed] = result if store is None else _unrecorded(result)
                    _tell(progress, len(done), len(specs))  # row by row: an interrupt counts
            else:
                failures += [(s.seed, outcome.error) for s in outcome.specs]
                _tell(progress, len(done), len(specs))
    return failures, time.perf_counter() - started


def _tell(progress: Progress | None, finished: int, asked: int) -> None:
    if progress is not None:
        progress(finished, asked)


def tournament(bots: Sequence[BotLike], **settings: Any) -> Simulation:
    """``simulate`` under the name bot authors look for: its summary ranks the bots by win
    rate (with 95 % intervals), mean score and an Elo-style rating; a bot that raises or plays
    an illegal action forfeits that game (a loss, reported) instead of stopping the run."""
    return simulate(bots, **settings)


__all__ = [
    "BACKENDS",
    "DEALS",
    "ENGINES",
    "Backend",
    "BotLike",
    "Forfeit",
    "GameResult",
    "GameSpec",
    "Line",
    "Sequential",
    "Simulation",
    "SimulationError",
    "auto_batch",
    "bot_lines",
    "choose_deal",
    "core_bot",
    "core_playable",
    "elo",
    "engine_for",
    "game_record",
    "make_backend",
    "plan",
    "play_batch",
    "play_core_game",
    "play_game",
    "read_rows",
    "resolve_bot",
    "seat_lines",
    "simulate",
    "speed",
    "tournament",
    "wilson",
]
