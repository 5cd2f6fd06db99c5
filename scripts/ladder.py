"""Rate the ladder of opponents: seeded 2-player games between every pair, Bradley-Terry ratings.

    PYTHONPATH=src python scripts/ladder.py                      # the table of docs/bots.md
    PYTHONPATH=src python scripts/ladder.py --games 20 --search-games 4 --mcts-games 2  # quick

Every pair of bots plays ``--games`` seeded Europe games (seeds ``--seed`` on, seats
alternating, so both bots play each deal from each seat); a pair with ``mcts-fast`` plays
``--search-games``, a pair with ``mcts`` or ``mcts-core`` ``--mcts-games``, and those two meet
only ``greedy``, ``bc-ppo``, ``mcts-fast`` and each other (their search costs seconds a game; on
a shared 2-core machine the defaults take about ten processor minutes). Rows go to ``--out``
(one JSON Lines file per pair), and a rerun plays only the games missing from them. Ratings are
``sim.stats.elo`` (Bradley-Terry, Elo scale, centred on 1500, one virtual draw per pair);
intervals are the 2.5 and 97.5 percentiles of ``--boot`` bootstrap refits, resampling the games
of each pair. Prints a Markdown table, the pairwise win rates and processor seconds a game.
``--engine`` (default ``auto``) plays the pairs below the search bots in the compiled core when
it is built, with the same rows (docs/simulation.md).
"""

from __future__ import annotations

import argparse
import random
import time
from itertools import combinations
from pathlib import Path

from ttr_europe.players import split_specs
from ttr_europe.players.styles import LADDER
from ttr_europe.sim import ENGINES, simulate
from ttr_europe.sim.games import GameResult
from ttr_europe.sim.stats import elo

# the trained policies among the rungs, and the search with its walk in the core at the top
DEFAULT_BOTS = (*LADDER[:-2], "baseline", "bc-ppo", *LADDER[-2:], "mcts-core")
SEARCH = ("mcts", "mcts-core")  # seconds a game: these meet only the strongest
MCTS_MEETS = ("greedy", "bc-ppo", "mcts-fast", *SEARCH)


def games_for(a: str, b: str, args: argparse.Namespace) -> int:
    """How many games the pair plays (0: it does not meet)."""
    if a in SEARCH or b in SEARCH:
        other = b if a in SEARCH else a
        return args.mcts_games if other in MCTS_MEETS else 0
    if "mcts-fast" in (a, b):
        return args.search_games
    return int(args.games)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bots", default=",".join(DEFAULT_BOTS))
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--search-games", type=int, default=60)
    parser.add_argument("--mcts-games", type=int, default=10)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--boot", type=int, default=200)
    parser.add_argument("--out", type=Path, default=Path("ladder-results"))
    parser.add_argument(
        "--engine",
        choices=ENGINES,
        default="auto",
        help="auto, fast or python: who plays the games (the same rows)",
    )
    args = parser.parse_args()
    bots = split_specs(args.bots)
    args.out.mkdir(parents=True, exist_ok=True)
    by_pair: dict[tuple[str, str], list[GameResult]] = {}
    seconds: dict[tuple[str, str], float] = {}
    for a, b in combinations(bots, 2):
        games = games_for(a, b, args)
        if not games:
            continue
        started = time.process_time()
        run = simulate(
            [a, b], games=games, seed=args.seed, backend="serial",
            out=args.out / f"{a}-vs-{b}.jsonl", resume=True, engine=args.engine,
        )  # fmt: skip
        if run.failures:
            raise SystemExit(f"{a} vs {b}: games failed: {run.failures[:3]}")
        by_pair[a, b] = list(run.results)
        if run.played:
            seconds[a, b] = (time.process_time() - started) / run.played
        won = sum(r.returns[r.bots.index(a)] for r in run.results) / len(run.results)
        print(f"{a} vs {b}: {len(run.results)} games, {a} wins {won:.3f}", flush=True)
    results = [r for rows in by_pair.values() for r in rows]
    ratings = elo(results, bots)
    rng = random.Random(args.seed)
    draws: dict[str, list[float]] = {b: [] for b in bots}
    for _ in range(args.boot):
        sample = [r for rows in by_pair.values() for r in rng.choices(rows, k=len(rows))]
        for name, value in elo(sample, bots).items():
            draws[name].append(value)
    print(f"\n{len(results)} games, {len(by_pair)} pairs, seed {args.seed}\n")
    print("| bot | games | win rate | rating | 95 % interval |")
    print("|---|---|---|---|---|")
    for name in sorted(bots, key=lambda n: ratings[n]):
        mine = [r for r in results if name in r.bots]
        wins = sum(r.returns[r.bots.index(name)] for r in mine) / max(1, len(mine))
        low, high = _percentiles(draws[name])
        print(
            f"| {name} | {len(mine)} | {wins:.3f} | {ratings[name]:.0f} | {low:.0f} to {high:.0f} |"
        )
    print("\n| row wins against column | " + " | ".join(bots) + " |")
    print("|---" * (len(bots) + 1) + "|")
    for a in bots:
        cells = []
        for b in bots:
            rows = by_pair.get((a, b)) or by_pair.get((b, a)) or []
            won = sum(r.returns[r.bots.index(a)] for r in rows) / len(rows) if rows else None
            cells.append("" if a == b or won is None else f"{won:.2f}")
        print(f"| {a} | " + " | ".join(cells) + " |")
    print("\nprocessor seconds a game (pairs that played new games in this run):")
    for (a, b), value in seconds.items():
        print(f"  {a} vs {b}: {value:.3f}")


def _percentiles(values: list[float]) -> tuple[float, float]:
    if not values:
        return float("nan"), float("nan")
    ordered = sorted(values)
    low = ordered[int(0.025 * (len(ordered) - 1))]
    high = ordered[round(0.975 * (len(ordered) - 1))]
    return low, high


if __name__ == "__main__":
    main()
