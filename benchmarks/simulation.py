"""Scaling of the simulation backends: games/s for 1 and 2 workers, and the cost of a task;
with ``--engines``, the compiled core against the reference on the same games.

    python benchmarks/simulation.py [--games 400] [--bots random] [--repeat 3] [--no-ray]
    python benchmarks/simulation.py --engines [--games 10000] [--bots random,greedy]

For each backend and worker count it runs the same seeded games ``--repeat`` times and reports
the median games/s, and the overhead per game: the wall time per game with one worker less
the time the game itself took in its worker (the rows' ``duration``), i.e. what sending the
game out and its row back costs. Ray runs on a local instance with two CPUs, started once
(its start-up time is reported on its own). It also times empty tasks, which cost only the
backend's own scheduling and transfer. See docs/simulation.md for the figures.
"""

from __future__ import annotations

import argparse
import json
import logging
import statistics
import sys
import time
from typing import Any

from ttr_europe.players import split_specs
from ttr_europe.sim import make_backend, simulate


def run_once(bots: list[str], games: int, **settings: Any) -> tuple[float, float, float]:
    """games/s, overhead per game (s) and mean game time (s) of one run."""
    run = simulate(bots, games=games, players=2, **settings)
    assert run.finished == games and not run.failures
    own = statistics.fmean(r.duration for r in run.results)
    per_game = run.elapsed / games * run.workers  # wall time a worker spends per game
    return run.games_per_second, per_game - own, own


def summarise(
    settings: dict[str, Any], samples: list[tuple[float, float, float]]
) -> dict[str, Any]:
    return {
        "backend": settings["backend"],
        "workers": settings.get("workers", 1),
        "batch": settings.get("batch", "auto"),
        "games_per_second": statistics.median(s[0] for s in samples),
        "overhead_ms_per_game": 1000 * statistics.median(s[1] for s in samples),
        "game_ms": 1000 * statistics.median(s[2] for s in samples),
    }


def task_cost(backend: str, tasks: int = 300, repeat: int = 3) -> float:
    """Seconds per task of one worker running empty batches: the backend's own cost."""
    times = []
    for _ in range(repeat):
        with make_backend(backend, workers=1) as runner:
            list(runner.run([()] * 20))  # start the workers
            started = time.perf_counter()
            list(runner.run([()] * tasks))
            times.append((time.perf_counter() - started) / tasks)
    return statistics.median(times)


def rounds(
    bots: list[str], games: int, repeat: int, configs: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """Every config ``repeat`` times, in rounds, so that a busy spell hits them all alike."""
    samples: list[list[tuple[float, float, float]]] = [[] for _ in configs]
    for _ in range(repeat):
        for settings, kept in zip(configs, samples, strict=True):
            kept.append(run_once(bots, games, **settings))
    return [summarise(c, kept) for c, kept in zip(configs, samples, strict=True)]


def engines(bots: list[str], games: int, repeat: int) -> dict[str, Any]:
    """Games per CPU-second of ``simulate(bots, games=games, backend="serial")`` played by the
    reference once and by the compiled core ``repeat`` times (the median), the two runs' rows
    compared: the serial backend keeps every game in this process, so ``time.process_time``
    is all the CPU time the games take."""
    out: dict[str, Any] = {"games": games, "bots": bots}
    rows: dict[str, Any] = {}
    for engine, times in (("python", 1), ("fast", repeat)):
        rates = []
        for _ in range(times):
            started = time.process_time()
            run = simulate(bots, games=games, backend="serial", engine=engine)
            rates.append(games / (time.process_time() - started))
            assert run.engine == engine and run.finished == games and not run.failures
            rows[engine] = run.results
        out[engine] = statistics.median(rates)
        print(f"{engine:<6} engine: {out[engine]:10.1f} games per CPU-second "
              f"(median of {times})", flush=True)  # fmt: skip
    out["same_rows"] = rows["python"] == rows["fast"]
    out["ratio"] = out["fast"] / out["python"]
    print(f"the core plays {out['ratio']:.1f}x the games per CPU-second; "
          f"the same rows: {out['same_rows']}")  # fmt: skip
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--bots", default="random")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--no-ray", action="store_true")
    parser.add_argument("--json", metavar="FILE")
    parser.add_argument("--engines", action="store_true", help="the core against the reference")
    args = parser.parse_args(argv)
    bots = split_specs(args.bots)
    if args.engines:
        simulate(bots, games=2, players=2, backend="serial")  # imports and caches, once
        found = engines(bots, args.games, args.repeat)
        if args.json:
            with open(args.json, "w", encoding="utf-8") as f:
                json.dump(found, f, indent=2)
        return 0 if found["same_rows"] else 1
    local: list[dict[str, Any]] = [
        {"backend": "serial"},
        {"backend": "process", "workers": 1},
        {"backend": "process", "workers": 2},
    ]
    on_ray: list[dict[str, Any]] = [
        {"backend": "ray", "workers": 1, "batch": 1},
        {"backend": "ray", "workers": 2, "batch": 1},
        {"backend": "ray", "workers": 2, "batch": 8},
        {"backend": "ray", "workers": 2},
    ]
    results: dict[str, Any] = {"games": args.games, "bots": bots, "runs": []}
    simulate(bots, games=2, players=2, backend="serial")  # imports and caches, once
    # The local backends first: a running Ray instance slows this process down.
    lines = rounds(bots, args.games, args.repeat, local)
    results["task_ms"] = {"process": 1000 * task_cost("process")}
    if not args.no_ray:
        import ray

        started = time.perf_counter()
        ray.init(num_cpus=2, include_dashboard=False, logging_level=logging.ERROR)
        results["ray_start_s"] = time.perf_counter() - started
        try:
            results["task_ms"]["ray"] = 1000 * task_cost("ray")
            lines += rounds(bots, args.games, args.repeat, on_ray)
        finally:
            ray.shutdown()
    serial = lines[0]["games_per_second"]
    for line in lines:
        line["speed_vs_serial"] = line["games_per_second"] / serial
        results["runs"].append(line)
        print(f"{line['backend']:<8} workers {line['workers']} batch {line['batch']!s:<5} "
              f"{line['games_per_second']:8.1f} games/s ({line['speed_vs_serial']:4.2f}x serial)"
              f"  overhead {line['overhead_ms_per_game']:6.2f} ms/game"
              f"  (a game {line['game_ms']:.2f} ms)")  # fmt: skip
    for name, cost in results["task_ms"].items():
        print(f"{name} backend: {cost:.3f} ms per task (an empty batch, one worker)")
    if "ray_start_s" in results:
        print(f"ray start-up {results['ray_start_s']:.1f} s")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(results, f, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
