"""MctsBot against GreedyBot in seeded two-player Europe games: win rate and time per move.

Games come in pairs: game ``2k`` and ``2k + 1`` share the seed ``seed + k`` with the seats
swapped, so the deal favours neither bot. The search's time is processor time
(``time.process_time``) of each of its decisions, so a busy machine does not distort it.

    nice python benchmarks/mcts_vs_greedy.py --games 200 --seconds 0.3 --processes 2

``--compiled no`` keeps the playouts in Python even when the compiled core is built (it is used
by default when built: the same games, faster).

``--bot mcts-core`` plays ``CoreMctsBot`` (the same search walked in the compiled core) instead of
``MctsBot``; ``--opponent mcts`` (or ``mcts-core``) puts a search bot in the other seat instead
of ``GreedyBot``, on its own budget (``--opponent-iterations`` or ``--opponent-seconds``), so
one search can be measured against another at the same time or the same playouts a move.
``--bot guided`` (or ``--opponent guided``) is the search guided by a learned network
(``players.guided``, its shipped weights, or ``--weights FILE``: a network of
``scripts/train_guided.py``).

prints one line per game, then the win rate with its 95 % Wilson interval, mean scores, and
the median, 95th percentile and maximum processor time per move of the search bot.
``--minutes M`` stops after M minutes of wall-clock time and reports the games played so far.
``--sequential LOW,HIGH`` runs Wald's test of the search bot's win rate, at most ``LOW`` against at
least ``HIGH`` with 5 % errors either way (``sim.stats.Sequential``), and stops at the end of the
first pair of games after which it decides (``--games`` is its cap); a rate far from a target is
settled in tens of games.
``--guide SPEC`` gives ``mcts-core`` a guide (``CoreMctsBot(guide=make_bot(SPEC))``, for example
``bc-ppo``), whose move leads the root instead of the greedy policy's; ``--confidence C`` sets the
search bot's guard (standard errors by which another move must beat the leading one).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from ttr_europe import new_game
from ttr_europe.errors import SetupError
from ttr_europe.players import Bot, GreedyBot, decide, make_bot, seat_rng, tell
from ttr_europe.players.mcts import CoreMctsBot, MctsBot
from ttr_europe.rules import apply
from ttr_europe.scoring import score
from ttr_europe.sim.stats import Sequential, wilson
from ttr_europe.state import Phase


def _guided(
    iterations: int | None,
    seconds: float | None,
    compiled: bool | None = None,
    weights: str | None = None,
) -> Bot:
    """The ``guided`` search with the network of ``weights`` (its shipped one when None; its
    playouts use the core when built)."""
    from ttr_europe.players.guided import guided_bot  # needs numpy

    return guided_bot(weights, iterations=iterations, seconds=seconds)


SEARCHES: dict[str, Any] = {"mcts": MctsBot, "mcts-core": CoreMctsBot, "guided": _guided}


def play_game(
    game: int,
    seed: int,
    iterations: int | None,
    seconds: float | None,
    compiled: bool | None = None,
    bot: str = "mcts",
    opponent: tuple[str, int | None, float | None] = ("greedy", None, None),
    guide: str | None = None,
    confidence: float | None = None,
    weights: str | None = None,
) -> dict[str, Any]:
    """One game: the search bot sits in seat ``game % 2``; ``weights``: a ``guided`` network's
    file, for ``bot`` or the opponent, whichever is ``guided``."""
    options: dict[str, Any] = {} if confidence is None else {"confidence": confidence}
    if guide is not None:
        options["guide"] = make_bot(guide)
    if bot == "guided":
        options["weights"] = weights
    search = SEARCHES[bot](iterations=iterations, seconds=seconds, compiled=compiled, **options)
    name, other_iterations, other_seconds = opponent
    mine: dict[str, Any] = {"weights": weights} if name == "guided" else {}
    other: Bot = (
        GreedyBot()
        if name == "greedy"
        else SEARCHES[name](
            iterations=other_iterations, seconds=other_seconds, compiled=compiled, **mine
        )
    )
    seat = game % 2
    bots: list[Bot] = [search, other] if seat == 0 else [other, search]
    game_seed = seed + game // 2
    state = new_game("europe", "base", 2, seed=game_seed)
    rngs = [seat_rng(game_seed, i) for i in range(2)]
    times: list[float] = []
    playouts: list[int] = []
    theirs: list[tuple[float, int]] = []  # the opponent search's searched moves: time, playouts
    while state.phase is not Phase.GAME_OVER:
        mover = state.current
        start = time.process_time()
        action = decide(bots[mover], state, rngs[mover])
        if mover == seat:
            times.append(time.process_time() - start)
            playouts.append(search.last_playouts)
        elif isinstance(other, MctsBot) and other.last_playouts:
            theirs.append((time.process_time() - start, other.last_playouts))
        tell(bots, state, action)  # a guide (a learned policy) remembers what it was shown
        state = apply(state, action)
    board = score(state)
    totals = [p.total for p in board.players]
    won = 1.0 / len(board.winners) if seat in board.winners else 0.0
    return {"game": game, "seed": game_seed, "seat": seat, "totals": totals, "won": won,
            "times": times, "playouts": playouts, "theirs": theirs}  # fmt: skip


def _job(args: tuple[Any, ...]) -> dict[str, Any]:
    return play_game(*args)


def _check_guided(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    if "guided" in (args.bot, args.opponent) and (
        args.confidence is not None or args.compiled != "auto"
    ):
        parser.error("--confidence and --compiled are not options of guided")
    if args.weights is not None and "guided" not in (args.bot, args.opponent):
        parser.error("--weights is an option of guided")
    if args.weights is not None and not Path(args.weights).is_file():
        parser.error(f"--weights: no file {args.weights}")


def _sequential(parser: argparse.ArgumentParser, text: str | None) -> Sequential | None:
    if text is None:
        return None
    try:
        low, high = (float(x) for x in text.split(","))
        return Sequential(low, high)
    except (ValueError, SetupError) as exc:
        parser.error(f"--sequential takes LOW,HIGH with 0 < LOW < HIGH < 1: {exc}")


def _play(
    jobs: list[tuple[Any, ...]], args: argparse.Namespace, test: Sequential | None
) -> list[dict[str, Any]]:
    """The games of ``jobs`` in order, each printed as it ends; stopped early by
    ``--minutes``, or by the sequential test at the end of a pair of games once it decides."""
    results: list[dict[str, Any]] = []
    stop = None if args.minutes is None else time.monotonic() + 60 * args.minutes
    with multiprocessing.Pool(max(1, args.processes)) as pool:
        games = pool.imap(_job, jobs)
        for _ in jobs:
            try:
                wait = None if stop is None else max(0.0, stop - time.monotonic())
                r = games.next(timeout=wait)
            except multiprocessing.TimeoutError:
                print(f"time is up after {len(results)} games", flush=True)
                pool.terminate()
                break
            results.append(r)
            t = sorted(r["times"])
            print(
                f"game {r['game']:>3} seed {r['seed']:>4} seat {r['seat']}: "
                f"{args.bot} {r['totals'][r['seat']]:>3} {args.opponent} "
                f"{r['totals'][1 - r['seat']]:>3} "
                f"{'win ' if r['won'] == 1 else 'tie ' if r['won'] else 'loss'} "
                f"median move {statistics.median(t):.3f} s, max {t[-1]:.3f} s",
                flush=True,
            )
            if test is not None and len(results) % 2 == 0:
                verdict = test.verdict(sum(g["won"] for g in results), len(results))
                if verdict is not None:
                    said = f"most {test.low:.0%}" if verdict == "low" else f"least {test.high:.0%}"
                    print(f"sequential test after {len(results)} games: the win rate is at {said}")
                    pool.terminate()
                    break
    return results


def _budget(args: argparse.Namespace, seconds: float | None) -> str:
    """The search bot's budget and settings, as the summary names them."""
    budget = f"{args.iterations} playouts" if args.iterations else f"{seconds} s"
    if args.guide:
        budget += f", guided by {args.guide}"
    if args.confidence is not None:
        budget += f", confidence {args.confidence:g}"
    if args.weights is not None:
        budget += f", network {args.weights}"
    return budget


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games (even: pairs of seats)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first pair of games")
    parser.add_argument("--seconds", type=float, default=0.3, help="processor time per move")
    parser.add_argument("--iterations", type=int, help="playouts per move (instead of time)")
    parser.add_argument("--processes", type=int, default=1, help="worker processes")
    parser.add_argument("--json", metavar="FILE", help="also write every game as JSON")
    parser.add_argument(
        "--compiled",
        choices=("auto", "yes", "no"),
        default="auto",
        help="finish playouts in the compiled core (docs/fast.md): when built, always, never",
    )
    parser.add_argument("--bot", choices=sorted(SEARCHES), default="mcts", help="the search bot")
    parser.add_argument(
        "--opponent", choices=["greedy", *sorted(SEARCHES)], default="greedy", help="its opponent"
    )
    parser.add_argument("--opponent-iterations", type=int, help="the opponent search's playouts")
    parser.add_argument("--opponent-seconds", type=float, help="the opponent search's time")
    parser.add_argument(
        "--minutes", type=float, help="stop after this wall-clock time and report the games done"
    )
    parser.add_argument("--guide", metavar="SPEC", help="mcts-core's guide: a bot spec (bc-ppo)")
    parser.add_argument("--confidence", type=float, help="the search bot's guard (default 1.0)")
    parser.add_argument("--weights", metavar="FILE", help="guided's network (train_guided.py's "
                        "guided.npz; default: the shipped one)")  # fmt: skip
    parser.add_argument(
        "--sequential", metavar="LOW,HIGH", help="stop once Wald's test (5 %% errors either "
        "way) says the win rate is at most LOW or at least HIGH, at the end of a pair of games; "
        "--games is its cap"
    )  # fmt: skip
    args = parser.parse_args(argv)
    if args.guide is not None and args.bot != "mcts-core":
        parser.error("--guide is an option of --bot mcts-core")
    _check_guided(parser, args)
    seconds = None if args.iterations else args.seconds
    compiled = {"auto": None, "yes": True, "no": False}[args.compiled]
    opponent = (args.opponent, args.opponent_iterations, args.opponent_seconds)
    if args.opponent != "greedy" and opponent[1] is None and opponent[2] is None:
        parser.error("a search opponent needs --opponent-iterations or --opponent-seconds")
    jobs = [(g, args.seed, args.iterations, seconds, compiled, args.bot, opponent, args.guide,
             args.confidence, args.weights) for g in range(args.games)]  # fmt: skip
    results = _play(jobs, args, _sequential(parser, args.sequential))
    n = len(results)
    if not n:
        return 1
    wins = sum(r["won"] for r in results)
    low, high = wilson(wins, n)
    times = sorted(t for r in results for t in r["times"])
    searched = sorted(t for r in results for t, p in zip(r["times"], r["playouts"], strict=True)
                      if p)  # fmt: skip
    playouts = [p for r in results for p in r["playouts"] if p]
    mine = statistics.mean(r["totals"][r["seat"]] for r in results)
    theirs = statistics.mean(r["totals"][1 - r["seat"]] for r in results)
    budget = _budget(args, seconds)
    playing = {"auto": "", "yes": ", compiled core", "no": ", pure Python"}[args.compiled]
    against = args.opponent
    if args.opponent != "greedy":
        against += (f" ({args.opponent_iterations} playouts per move)" if args.opponent_iterations
                    else f" ({args.opponent_seconds} s per move)")  # fmt: skip
    print(f"\n{args.bot} ({budget} per move{playing}) vs {against}, {n} games of europe/base, "
          "2 players")  # fmt: skip
    print(f"win rate {wins / n:.1%} ({wins:g}/{n}), 95 % interval {low:.1%} - {high:.1%}")
    print(f"mean score: {args.bot} {mine:.1f}, {args.opponent} {theirs:.1f}")
    print(
        f"processor time per move: median {statistics.median(times):.3f} s, "
        f"p95 {times[int(0.95 * (len(times) - 1))]:.3f} s, max {times[-1]:.3f} s "
        f"({len(times)} moves)"
    )
    if searched:
        print(
            f"searched moves: {len(searched)}, median {statistics.median(searched):.3f} s, "
            f"median playouts {statistics.median(playouts):g}, "
            f"{sum(playouts) / sum(searched):.0f} playouts per processor second"
        )
    other = [move for r in results for move in r["theirs"]]
    if other:
        spent, done = sum(t for t, _ in other), sum(p for _, p in other)
        print(
            f"{args.opponent}'s searched moves: {len(other)}, median playouts "
            f"{statistics.median(p for _, p in other):g}, {done / spent:.0f} playouts per "
            "processor second"
        )
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(results, f)
    return 0


if __name__ == "__main__":
    sys.exit(main())
