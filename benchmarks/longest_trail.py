"""The exact longest trail (R48) alone, against an older engine's, on the networks scoring meets.

Usage::

    python benchmarks/longest_trail.py                          # this engine only
    python benchmarks/longest_trail.py --baseline OLD/src       # interleaved with OLD
    python benchmarks/longest_trail.py --networks 500 --rounds 7

Two sets of networks, the same in every round and for both engines (built from public map data
with a seeded ``random.Random``):

- ``grown``: connected growths of a real map (Europe and USA alternately) from one city, route
  by route, closing a cycle when one is near with probability 0.6, until no neighbouring route
  fits in the 45 trains left; dense networks, many odd cities: the branch and bound's work;
- ``played``: every seat's routes at the end of uniformly random Europe 4-player games
  (``score``'s usual input).

Both versions of ``paths.py`` are loaded in one process (``--baseline`` gives the ``src`` of an
older checkout, e.g. ``git archive <commit> src | tar -x -C /tmp/before``; ``paths.py`` imports
nothing of the package): one untimed pass, then each network's ``longest_trail`` timed with
``time.process_time_ns``, engine after engine per network, the order reversed every other
round, so that the shared machine's drift reaches both alike. Figures: the median and 90th
percentile of every timed call and the total a round, and ours over the baseline for each
(the totals are the steadiest: a median of per-network ratios leaned towards one side even
between two copies of the same code). The run checks that both find trails of the same length on
every network (exit 1 otherwise). ``--control`` loads ours a second time beside them: what
separates ours from that copy of itself is the run's noise.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import importlib.util
import os
import platform
import random
import statistics
import sys
import time
from pathlib import Path
from types import ModuleType
from typing import Any

HERE = Path(__file__).resolve().parent


def grown(count: int, seed: int) -> list[list[tuple[int, int, int, int]]]:
    """``count`` connected 45-train growths of Europe and USA (see the module's docstring)."""
    from ttr_europe.maps import load_map

    boards = [load_map("europe"), load_map("usa")]
    rng = random.Random(seed)
    networks = []
    for i in range(count):
        board = boards[i % 2]
        routes = board.routes
        picked: list[int] = []
        cities = {rng.randrange(len(board.cities))}
        trains = 45
        while True:
            near = [
                r.index
                for r in routes
                if r.index not in picked and {r.a, r.b} & cities and r.length <= trains
            ]
            if not near:
                break
            closing = [r for r in near if routes[r].a in cities and routes[r].b in cities]
            choice = rng.choice(closing if closing and rng.random() < 0.6 else near)
            picked.append(choice)
            trains -= routes[choice].length
            cities |= {routes[choice].a, routes[choice].b}
        networks.append([(r, routes[r].a, routes[r].b, routes[r].length) for r in picked])
    return networks


def played(games: int, seed: int) -> list[list[tuple[int, int, int, int]]]:
    """Every seat's routes at the end of ``games`` uniformly random Europe 4-player games."""
    from ttr_europe import apply, legal_actions, new_game
    from ttr_europe.maps import load_map
    from ttr_europe.state import Phase

    routes = load_map("europe").routes
    networks = []
    for g in range(games):
        rng = random.Random(seed + g)
        state = new_game("europe", players=4, seed=seed + g)
        while state.phase is not Phase.GAME_OVER:
            acts = legal_actions(state)
            state = apply(state, acts[rng.randrange(len(acts))])
        for seat in range(4):
            owned = [i for i, owner in enumerate(state.owners) if owner == seat]
            networks.append([(r, routes[r].a, routes[r].b, routes[r].length) for r in owned])
    return networks


def load_paths(src: str, name: str) -> ModuleType:
    """``<src>/ttr_europe/paths.py`` as a module of its own, so that two versions share one
    process (it imports nothing of the package)."""
    spec = importlib.util.spec_from_file_location(name, Path(src) / "ttr_europe" / "paths.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def measure(engines: dict[str, str], nets: list[Any], rounds: int) -> dict[str, Any]:
    """Per network, each engine in turn (the order reversed every other round), so a drift of
    the machine's speed reaches every engine alike; CPU nanoseconds per call."""
    searches = {e: load_paths(src, f"_paths_{e}").longest_trail for e, src in engines.items()}
    lengths = {e: [f(net).length for net in nets] for e, f in searches.items()}  # untimed pass
    times: dict[str, list[int]] = {e: [] for e in engines}
    order = list(engines)
    gc.collect()
    gc.disable()  # a collection would be billed to whichever engine runs then
    try:
        for r in range(rounds):
            for net in nets:
                for e in order if r % 2 == 0 else order[::-1]:
                    f = searches[e]
                    start = time.process_time_ns()
                    f(net)
                    times[e].append(time.process_time_ns() - start)
    finally:
        gc.enable()
    return {"times": times, "lengths": lengths}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument(
        "--baseline",
        default=os.environ.get("TTR_BASELINE_SRC"),
        help="src directory of an older checkout, run in turn with this one",
    )
    ap.add_argument("--ours", default=str(HERE.parent / "src"), help="src directory of ours")
    ap.add_argument("--networks", type=int, default=500, help="grown networks")
    ap.add_argument("--games", type=int, default=50, help="random 4-player games (4 networks each)")
    ap.add_argument("--rounds", type=int, default=5, help="timed calls per network and engine")
    ap.add_argument(
        "--control",
        action="store_true",
        help="load ours a second time too ('again'): its ratio to ours is the run's noise",
    )
    args = ap.parse_args(argv)
    engines = {"ours": args.ours}
    if args.baseline:
        engines["baseline"] = args.baseline
    if args.control:
        engines["again"] = args.ours
    print(
        f"CPython {platform.python_version()}, {processor()}; CPU time per call, "
        f"{args.rounds} interleaved rounds"
    )
    healthy = True
    for name, nets in (("grown", grown(args.networks, 1)), ("played", played(args.games, 5000))):
        got = measure(engines, nets, args.rounds)
        for engine, times in got["times"].items():
            median = statistics.median(times) / 1e3
            p90 = _p90(times) / 1e3
            print(
                f"{name:6s} {engine:8s} {len(nets)} networks: median {median:7.1f} us, "
                f"p90 {p90:7.1f} us, total {sum(times) / 1e6 / args.rounds:8.1f} ms a round"
            )
        for other in ("baseline", "again"):
            if other in engines:
                ours, theirs = got["times"]["ours"], got["times"][other]
                same = got["lengths"]["ours"] == got["lengths"][other]
                healthy &= same
                print(
                    f"{name:6s} ours/{other}: totals {sum(ours) / sum(theirs):.3f}x, medians "
                    f"{statistics.median(ours) / statistics.median(theirs):.3f}x, 90th "
                    f"percentiles {_p90(ours) / _p90(theirs):.3f}x; the same lengths: {same}"
                )
    return 0 if healthy else 1


def _p90(times: list[int]) -> int:
    return sorted(times)[int(0.9 * (len(times) - 1))]


def processor() -> str:
    """The processor's model name, as /proc/cpuinfo gives it (Linux), else platform's guess."""
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    return platform.processor() or "processor unknown"


if __name__ == "__main__":
    sys.exit(main())
