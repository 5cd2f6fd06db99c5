"""The learned bots' time a move: ``PolicyBot.choose`` of ``bc-ppo`` (or ``--bot``), numpy only.

Usage::

    PYTHONPATH=src python benchmarks/policy_move.py               # bc-ppo, 10 games
    PYTHONPATH=src python benchmarks/policy_move.py --bot baseline --games 4

Seeded two-player Europe games of the bot against ``greedy``; every decision of the bot is
timed around ``choose`` (processor time: the observation, the sampled world for the mask,
the network and the decoding), after a warm-up game. Target (issue: learned bot): median at
most 5 ms a move.
"""

from __future__ import annotations

import argparse
import statistics
import time

from ttr_europe import new_game
from ttr_europe.players import GreedyBot, make_bot, play

TARGET_MS = 5.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bot", default="bc-ppo")
    parser.add_argument("--games", type=int, default=10)
    args = parser.parse_args()
    bot = make_bot(args.bot)
    times: list[float] = []
    choose = bot.choose

    def timed(view, legal, rng):  # type: ignore[no-untyped-def]
        start = time.process_time()
        action = choose(view, legal, rng)
        times.append(time.process_time() - start)
        return action

    bot.choose = timed  # type: ignore[method-assign]
    for seed in range(-1, args.games):  # game -1 warms up
        seats = [bot, GreedyBot()] if seed % 2 == 0 else [GreedyBot(), bot]
        play(new_game("europe", "base", 2, max(seed, 0)), seats, seed=max(seed, 0))
        if seed == -1:
            times.clear()
    median = statistics.median(times) * 1000
    p90 = statistics.quantiles(times, n=10)[-1] * 1000
    verdict = "meets" if median <= TARGET_MS else "misses"
    print(f"{args.bot}: {len(times)} moves, median {median:.2f} ms, 90th percentile {p90:.2f} ms"
          f" ({verdict} the {TARGET_MS:g} ms target)")  # fmt: skip


if __name__ == "__main__":
    main()
