"""Batch simulation: many seeded games between bots, in one process or a pool of them.

Every game is fixed by its seed, so the results are the same whatever the number of processes.
Seats rotate from game to game, so that each bot plays every seat equally often.
"""

from __future__ import annotations

from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor

import attrs

from .bots import make_bot, play
from .rules import new_game


@attrs.frozen
class GameResult:
    """One finished game: the bot of each seat, totals, ranks and shares of the win."""

    seed: int
    bots: tuple[str, ...]
    totals: tuple[int, ...]
    ranks: tuple[int, ...]
    returns: tuple[float, ...]
    actions: int


@attrs.frozen
class BotSummary:
    name: str
    games: int
    wins: float  # shared wins count as fractions (scoring.returns)
    mean_total: float


@attrs.frozen
class Tournament:
    map: str
    variant: str
    players: int
    games: tuple[GameResult, ...]
    bots: tuple[BotSummary, ...]

    def __str__(self) -> str:
        lines = [
            f"{len(self.games)} games of {self.map}/{self.variant}, {self.players} players",
            f"{'bot':<10} {'seats':>6} {'wins':>7} {'win rate':>9} {'mean score':>11}",
        ]
        for b in self.bots:
            rate = b.wins / b.games if b.games else 0.0
            lines.append(
                f"{b.name:<10} {b.games:>6} {b.wins:>7.1f} {rate:>9.1%} {b.mean_total:>11.1f}"
            )
        return "\n".join(lines)


def play_one(map_id: str, variant: str, seed: int, bots: tuple[str, ...]) -> GameResult:
    """Play one seeded game; seat ``i`` is moved by a ``bots[i]`` bot seeded from the game."""
    from .scoring import returns, score

    state = new_game(map_id, variant, len(bots), seed=seed, first_player=0)
    players = [make_bot(name) for name in bots]
    history = play(state, players, seed=seed)
    board = score(history[-1])
    return GameResult(
        seed=seed,
        bots=bots,
        totals=tuple(p.total for p in board.players),
        ranks=tuple(p.rank for p in board.players),
        returns=returns(history[-1]),
        actions=len(history) - 1,
    )


def _play_args(args: tuple[str, str, int, tuple[str, ...]]) -> GameResult:
    return play_one(*args)


def tournament(
    bots: Sequence[str],
    *,
    map: str = "europe",
    variant: str = "base",
    players: int | None = None,
    games: int = 100,
    seed: int = 0,
    processes: int = 1,
) -> Tournament:
    """``games`` games between ``bots`` (one per seat, repeated to fill ``players`` seats).

    Game ``g`` has seed ``seed + g`` and its seats rotated by ``g``. With ``processes > 1`` the
    games run in a process pool; the results do not depend on it.
    """
    names = list(bots)
    seats = players if players is not None else len(names)
    if not names or seats < 1:
        raise ValueError("a tournament needs at least one bot and one seat")
    for name in names:
        make_bot(name)  # an unknown name fails here, before any game
    lineup = [names[i % len(names)] for i in range(seats)]
    jobs = [
        (map, variant, seed + g, tuple(lineup[(i + g) % seats] for i in range(seats)))
        for g in range(games)
    ]
    if processes > 1:
        with ProcessPoolExecutor(max_workers=processes) as pool:
            results = tuple(pool.map(_play_args, jobs, chunksize=max(1, games // (4 * processes))))
    else:
        results = tuple(_play_args(job) for job in jobs)
    summary = []
    for name in dict.fromkeys(names):
        seated = [(r, i) for r in results for i, b in enumerate(r.bots) if b == name]
        summary.append(
            BotSummary(
                name=name,
                games=len(seated),
                wins=sum(r.returns[i] for r, i in seated),
                mean_total=sum(r.totals[i] for r, i in seated) / len(seated) if seated else 0.0,
            )
        )
    return Tournament(map, variant, seats, results, tuple(summary))
