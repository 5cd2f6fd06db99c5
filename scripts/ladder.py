"""Rate the ladder of opponents: one Bradley-Terry fit of every game, head-to-head records,
more games where neighbours' order is open.

    PYTHONPATH=src python scripts/ladder.py --out ladder-results        # the table of docs/bots.md
    PYTHONPATH=src python scripts/ladder.py --bots random,claimer,saver --games 4 --budget 20

Every pair of bots plays ``--games`` seeded 2-player Europe games (seeds ``--seed`` on, seats
alternating, so both bots play each deal from each seat); a pair with a search plays
``--search-games``. Then, in rounds, each pair of neighbours in the rating order whose
head-to-head 95 % Wilson interval still holds 50 % plays ``--step`` more games (the next seeds
of that pair), until no neighbour pair is open or the next round would take the total past
``--budget`` games (``sim.ladder.run``). Ratings are one Bradley-Terry fit of every game
(``sim.ladder.fit``: maximum likelihood, one virtual draw per pair that played, Elo scale,
``--anchor`` rated 1500), with 95 % intervals from the observed Fisher information; the table
names any decisive pair the fit orders against its games.

The searches play at a fixed number of playouts a move, so their games are the same on every
machine: ``mcts`` and ``mcts-core`` at ``--playouts`` (named ``mcts@N``, ``mcts-core@N``),
``mcts-fast`` at its own 8. ``--seconds S`` rates ``mcts`` and ``mcts-core`` at ``S`` seconds a
move instead (named ``mcts@Ss``; games then depend on the machine). Rows go to ``--out``, one
JSON Lines file per pair, and a rerun plays only the games missing from them. ``--engine``
plays pairs of the core's bots in the compiled core when it is built (the same rows).
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence
from pathlib import Path

from ttr_europe.bench import machine
from ttr_europe.players import make_bot, split_specs
from ttr_europe.players.bots import Bot
from ttr_europe.sim import ENGINES, read_rows, simulate
from ttr_europe.sim.games import GameResult
from ttr_europe.sim.ladder import run, table

DEFAULT_BOTS = ("random", "claimer", "saver", "racer", "greedy", "baseline", "bc-ppo",
                "mcts-fast", "mcts-core")  # fmt: skip
SEARCHES = ("mcts", "mcts-core")  # rated at --playouts (or --seconds)
SEARCHY = ("mcts-fast", *SEARCHES)  # pairs with one of these play --search-games first


def rated_name(spec: str, args: argparse.Namespace) -> str:
    """The name a bot has in the ladder: a search's carries its budget."""
    if spec not in SEARCHES:
        return spec
    return f"{spec}@{args.seconds:g}s" if args.seconds else f"{spec}@{args.playouts}"


def build(spec: str, args: argparse.Namespace) -> Bot | str:
    """A search at the stated budget, any other bot by its spec."""
    if spec not in SEARCHES:
        return spec
    from ttr_europe.players.mcts import CoreMctsBot, MctsBot

    kind = CoreMctsBot if spec == "mcts-core" else MctsBot
    bot = kind(iterations=None, seconds=args.seconds) if args.seconds else kind(args.playouts)
    bot.name = rated_name(spec, args)
    return bot


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bots", default=",".join(DEFAULT_BOTS))
    parser.add_argument("--anchor", default="greedy", help="the bot rated 1500")
    parser.add_argument("--games", type=int, default=40, help="first games of each pair")
    parser.add_argument("--search-games", type=int, default=20, help="... of a pair with a search")
    parser.add_argument("--step", type=int, default=20, help="games an open pair adds a round")
    parser.add_argument("--budget", type=int, default=2000, help="games in all, at most")
    parser.add_argument("--playouts", type=int, default=64, help="playouts a move of a search")
    parser.add_argument("--seconds", type=float, default=None, help="else seconds a move")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=Path("ladder-results"))
    parser.add_argument(
        "--engine",
        choices=ENGINES,
        default="auto",
        help="auto, fast or python: who plays the games (the same rows)",
    )
    args = parser.parse_args(argv)
    specs = split_specs(args.bots)
    names = [rated_name(s, args) for s in specs]
    spec_of = dict(zip(names, specs, strict=True))
    anchor = rated_name(args.anchor, args)
    if anchor not in names:
        raise SystemExit(f"--anchor {args.anchor} is not among --bots")
    for spec in specs:
        make_bot(spec)  # a bad name fails before any game
    args.out.mkdir(parents=True, exist_ok=True)
    seconds: dict[tuple[str, str], float] = {}

    def play(a: str, b: str, games: int) -> Sequence[GameResult]:
        path = args.out / f"{a}-vs-{b}.jsonl"
        # a rerun's first rounds ask for fewer games than the file holds from later rounds
        held = max((r.seed - args.seed + 1 for r in read_rows(path)[1]), default=0) if (
            path.exists()) else 0  # fmt: skip
        started = time.process_time()
        result = simulate(
            [build(spec_of[a], args), build(spec_of[b], args)], games=max(games, held),
            seed=args.seed, backend="serial", out=path, resume=True, engine=args.engine,
        )  # fmt: skip
        if result.failures:
            raise SystemExit(f"{a} vs {b}: games failed: {result.failures[:3]}")
        if result.played:
            seconds[a, b] = (time.process_time() - started) / result.played
        rows = [r for r in result.results if r.seed < args.seed + games]
        print(f"{a} vs {b}: {len(rows)} games", flush=True)
        return rows

    def first(a: str, b: str) -> int:
        searchy = spec_of[a] in SEARCHY or spec_of[b] in SEARCHY
        return int(args.search_games if searchy else args.games)

    ladder = run(names, play, anchor=anchor, first=first, step=args.step, budget=args.budget)
    budget = f"{args.seconds:g} s a move" if args.seconds else f"{args.playouts} playouts a move"
    print(
        f"\n{len(ladder.results)} games, seeds from {args.seed}, {len(ladder.rounds)} rounds "
        f"after the first; stopped: {ladder.stopped}.\nSearches: mcts, mcts-core at {budget}, "
        f"mcts-fast at 8 playouts a move. Processor: {machine()['cpu']}.\n"
    )
    print(table(ladder))
    print("\nprocessor seconds a game (pairs that played new games in this run):")
    for (a, b), value in seconds.items():
        print(f"  {a} vs {b}: {value:.3f}")


if __name__ == "__main__":
    main()
