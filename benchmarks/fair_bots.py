"""Fair bots: the round trip of one decision with a bot in another process, and the cost of the
legal list that holds no state against an older engine's.

Usage::

    python benchmarks/fair_bots.py                          # the round trip only
    python benchmarks/fair_bots.py --baseline OLD/src       # and random games against OLD
    python benchmarks/fair_bots.py --quick --json out.json

Round trip: seeded two-player Europe games between ``examples/line_bot.py`` (a ``cmd:`` bot)
and ``GreedyBot``; each decision of the program is timed around ``ProcessBot.choose`` (wall
time: building the message, writing it, the program's answer, reading and checking it), after
a warm-up game. Target: median under 2 ms.

Legal list: uniformly random games, ``legal_actions`` and ``apply`` at each decision, in
interleaved rounds of fresh worker processes against ``--baseline`` (the ``src`` of a checkout
from before, e.g. ``git archive <commit> src | tar -x -C /tmp/before``), as
``benchmarks/peers.py`` runs them. Target: at most 10 % slower.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
EXAMPLE = HERE.parent / "examples" / "line_bot.py"
ROUND_TRIP_TARGET_MS = 2.0
COST_TARGET = 0.10


def round_trip(games: int) -> dict[str, float]:
    """Milliseconds per decision of a ``cmd:`` bot: median, 90th percentile, count."""
    import random

    from ttr_europe.players import GreedyBot, close_bots, decide
    from ttr_europe.players.protocol import ProcessBot
    from ttr_europe.rules import apply, new_game
    from ttr_europe.state import Phase

    times: list[float] = []
    for game in range(games + 1):  # game 0 warms up
        bot = ProcessBot([sys.executable, str(EXAMPLE)])
        seats = [bot, GreedyBot()]
        rngs = [random.Random(s) for s in range(2)]
        state = new_game("europe", players=2, seed=1000 + game)
        bot.start()  # the handshake is not a decision
        while state.phase is not Phase.GAME_OVER:
            seat = state.current
            start = time.perf_counter()
            action = decide(seats[seat], state, rngs[seat])
            if seat == 0 and game:
                times.append(time.perf_counter() - start)
            state = apply(state, action)
        close_bots([bot])
    times.sort()
    return {
        "median_ms": 1e3 * statistics.median(times),
        "p90_ms": 1e3 * times[int(0.9 * (len(times) - 1))],
        "decisions": float(len(times)),
    }


def legal_cost(baseline: str, games: int, rounds: int) -> list[dict[str, Any]]:
    """Random games against ``baseline`` (``peers.compare``), Europe with 2 and 4 players."""
    sys.path.insert(0, str(HERE))
    import peers

    return [
        peers.compare(None, ("baseline", os.path.abspath(baseline)), cfg, games, rounds)
        for cfg in (("europe", 2), ("europe", 4))
    ]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--baseline", default=os.environ.get("TTR_BASELINE_SRC"),
                    help="src of a checkout from before (env TTR_BASELINE_SRC)")  # fmt: skip
    ap.add_argument("--games", type=int, default=10, help="timed games for the round trip")
    ap.add_argument("--random-games", type=int, default=200, help="random games per round")
    ap.add_argument("--rounds", type=int, default=5, help="rounds per engine (odd: a median)")
    ap.add_argument("--quick", action="store_true", help="a smoke run")
    ap.add_argument("--json", metavar="FILE", help="also write the results as JSON")
    args = ap.parse_args(argv)
    games, random_games, rounds = (1, 20, 1) if args.quick else (
        args.games, args.random_games, args.rounds)  # fmt: skip
    print(f"CPython {platform.python_version()}, {os.cpu_count()} cores")
    trip = round_trip(games)
    ok = trip["median_ms"] < ROUND_TRIP_TARGET_MS
    print(f"round trip of one decision with a cmd: bot: median {trip['median_ms']:.3f} ms, "
          f"90th percentile {trip['p90_ms']:.3f} ms over {trip['decisions']:.0f} decisions "
          f"(target: median < {ROUND_TRIP_TARGET_MS} ms: {'met' if ok else 'MISSED'})")  # fmt: skip
    report: dict[str, Any] = {"round_trip": trip, "legal_cost": None}
    if args.baseline:
        results = legal_cost(args.baseline, random_games, rounds)
        report["legal_cost"] = results
        for res in results:
            cost = 1 / res["ratio_games_per_cpu_s"] - 1
            ok = ok and cost <= COST_TARGET
            ours, before = res["ours"]["games_per_cpu_s"], res["theirs"]["games_per_cpu_s"]
            target = f"target <= {100 * COST_TARGET:.0f} %"
            print(f"random games {res['config']}: {ours:.1f} games/CPU-s against {before:.1f} "
                  f"before: cost {100 * cost:+.1f} % ({target})")  # fmt: skip
    else:
        print("legal list cost: give --baseline OLD/src to compare with an older engine")
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=1), encoding="utf-8")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
