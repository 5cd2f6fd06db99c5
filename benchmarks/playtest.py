"""The playtest target: 10,000 two-player Europe games between the compiled core's policies
in under 2 CPU-minutes, report included.

    python benchmarks/playtest.py [--games 10000] [--workers 0] [--out DIR] [--repeat 1]

Plays ``--games`` games of Europe at two players between ``uniform`` and ``playout`` (every
ordering, so each plays each seat) in the compiled core, serially in this process (or on the
process pool with ``--workers`` workers), then computes the figures and writes the whole
report (``figures.json``, ``report.html``, the SVG pictures and, where CairoSVG is installed,
their PNGs) into ``--out``. Reports the CPU seconds per stage and the wall time, the median of
``--repeat`` runs. CPU time is counted serially: the pool's workers are not waited for when it
shuts down, so their time cannot be read back; with ``--workers`` only the wall time counts.
See docs/playtest.md and docs/performance.md for the figures.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import sys
import tempfile
import time
from typing import Any

from ttr_europe import fast
from ttr_europe.playtest import playtest
from ttr_europe.playtest.report import write_report

TARGET_CPU_SECONDS = 120.0


def cpu() -> float:
    """CPU seconds of this process and of its finished children (the pool's workers)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def run_once(games: int, workers: int, out: str) -> dict[str, Any]:
    started, wall = cpu(), time.perf_counter()
    backend = "serial" if workers == 0 else "process"
    result = playtest(
        "europe",
        players=2,
        bots=("uniform", "playout"),
        games=games,
        backend=backend,
        workers=workers or None,
    )
    assert result.engine == "core" and not result.failures
    played = cpu()  # the pool is shut down: its workers' time is counted
    doc = result.figures()
    figured = cpu()
    files = write_report(result.map, doc, out)
    reported = cpu()
    return {
        "games": games,
        "workers": workers,
        "play_cpu_s": played - started,
        "figures_cpu_s": figured - played,
        "report_cpu_s": reported - figured,
        "total_cpu_s": reported - started,
        "wall_s": time.perf_counter() - wall,
        "files": len(files),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--workers", type=int, default=0, help="0: serially, in this process")
    parser.add_argument("--out", help="where the report goes (default: a temporary directory)")
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if not fast.available():
        print("the compiled core is not built: python -m ttr_europe.fast.build", file=sys.stderr)
        return 1
    out = args.out or tempfile.mkdtemp(prefix="ttr-playtest-")
    runs = [run_once(args.games, args.workers, out) for _ in range(args.repeat)]
    keys = [k for k in runs[0] if k.endswith("_s")]
    summary = {
        **runs[0],
        **{k: statistics.median(r[k] for r in runs) for k in keys},
        "repeat": args.repeat,
        "cpus": os.cpu_count(),
        "out": out,
        "target_cpu_s": TARGET_CPU_SECONDS,
    }
    if args.json:
        print(json.dumps(summary, indent=2))
    else:
        print(
            f"{args.games} two-player Europe games (uniform, playout) in the compiled core, "
            f"{args.workers or 'no'} workers, report in {out}"
        )
        for stage in ("play", "figures", "report", "total"):
            print(f"  {stage:<8} {summary[stage + '_cpu_s']:7.1f} CPU s")
        print(
            f"  wall     {summary['wall_s']:7.1f} s; target {TARGET_CPU_SECONDS:.0f} CPU s: "
            f"{'met' if summary['total_cpu_s'] < TARGET_CPU_SECONDS else 'MISSED'}"
        )
    return 0 if summary["total_cpu_s"] < TARGET_CPU_SECONDS else 1


if __name__ == "__main__":
    raise SystemExit(main())
