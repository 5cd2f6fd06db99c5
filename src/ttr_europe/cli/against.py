"""`ttr-europe playtest A --against B`: the same playtest on two boards, and what changed.

Board A's games and report go to ``--out``/a, board B's to ``--out``/b (by default ``--out`` is
``playtest-<A id>-against-<B id>``), the comparison (``compare.json``, ``compare.html``, a heat
map per player count) to ``--out`` itself; ``--resume`` finishes both runs. The summary of the
top changes goes to standard output (``--json``: the comparison document).
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
from collections.abc import Callable
from typing import Any

from ..board import Map
from .common import open_map
from .simulate import ProgressBar, stdout_to_stderr


def run_options(args: argparse.Namespace, bots: list[str], out: str) -> dict[str, Any]:
    """What the command line asks of a playtest run, as ``playtest``'s keywords (shared with
    ``--against``, whose two runs take the same)."""
    return {
        "players": args.players,
        "bots": bots,
        "games": args.games,
        "variant": args.variant,
        "seed": args.seed,
        "engine": args.engine,
        "backend": args.backend or ("ray" if args.address else "process"),
        "workers": args.workers,
        "address": args.address,
        "batch": args.batch,
        "out": out,
        "resume": args.resume,
        "max_actions": args.max_actions,
        "max_retries": args.retries,
    }


def command_line(args: argparse.Namespace, bots: list[str]) -> str:
    """The command that plays these games again, for the report to show beside its figures:
    what decides the games (boards, counts, bots, games, seed, variant, cap), not where they
    ran (backend, workers, batch: the same games on any) nor where they went."""
    from ..playtest import MAX_ACTIONS

    words = ["ttr-europe", "playtest", args.map]
    if args.against:
        words += ["--against", args.against]
    words += ["--players", ",".join(str(n) for n in args.players), "--bots", ",".join(bots),
              "--games", str(args.games), "--seed", str(args.seed)]  # fmt: skip
    if args.variant != "base":
        words += ["--variant", args.variant]
    if args.max_actions != MAX_ACTIONS:
        words += ["--max-actions", str(args.max_actions)]
    return shlex.join(words)


def run(args: argparse.Namespace, board: Map, fail: Callable[[str, int], int]) -> int:
    """Play both boards, write both reports and the comparison, print the summary."""
    from ..playtest.compare import against, compare, summary, write_comparison
    from ..playtest.report import write_report

    other = open_map(args.against)  # a faulty file: DataError naming file and JSON path
    out = args.out or f"playtest-{board.id}-against-{other.id}"
    bots = [name.strip() for name in args.bots.split(",") if name.strip()]
    bars = {"a": ProgressBar(sys.stderr), "b": ProgressBar(sys.stderr)}

    def progress(which: str, done: int, asked: int) -> None:
        bars[which](done, asked)
        if done == asked:
            bars[which].close()

    try:
        with stdout_to_stderr():
            first, second = against(
                board,
                other,
                **run_options(args, bots, out),
                progress=progress,
            )
    except KeyboardInterrupt:
        return fail(
            f"interrupted; the games played are in {out}, run again with --resume to finish",
            130,
        )
    finally:
        for bar in bars.values():
            bar.close()
    command = command_line(args, bots)
    for result, folder in ((first, "a"), (second, "b")):
        figures = {**result.figures(), "command": command}
        write_report(result.map, figures, f"{out}/{folder}", png=not args.no_png)
    doc = {**compare(first, second), "command": command}
    written = write_comparison(second.map, doc, out, png=not args.no_png)
    if args.json:
        print(json.dumps(doc, indent=1, ensure_ascii=False))
    else:
        print(summary(doc))
        print(
            f"\n{first.played + second.played} games played ({first.engine} engine on A, "
            f"{second.engine} on B) in {first.elapsed + second.elapsed:.1f} s; comparison: "
            f"{written[1]}"
        )
    failures = first.failures + second.failures
    if failures:
        n, seed, error = failures[0]
        return fail(
            f"{len(failures)} games failed (first: {n} players, game {seed}: {error}); run "
            "again with --resume to retry them",
            1,
        )
    return 0
