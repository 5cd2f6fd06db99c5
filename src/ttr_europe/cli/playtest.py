"""`ttr-europe playtest MAP`: many seeded games on a board, and a report of what they show.

The games' logs, ``figures.json``, ``report.html`` and the pictures go to ``--out`` (a
directory, by default ``playtest-<map id>``); ``--resume`` finishes a run there. A short
summary goes to standard output.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from ..i18n import from_environment, translator
from .against import command_line, run_options
from .against import run as run_against
from .common import Command, error_line, int_between, open_map, positive_int, seed_int
from .simulate import ProgressBar, stdout_to_stderr


def _counts(text: str) -> tuple[int, ...]:
    try:
        counts = tuple(int(part) for part in text.split(",") if part.strip())
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected player counts like 2,3,4, got {text!r}"
        ) from None
    if not counts or any(not 2 <= n <= 5 for n in counts):
        raise argparse.ArgumentTypeError(f"player counts are 2 to 5, not {text!r}")
    return counts


def configure(parser: argparse.ArgumentParser) -> None:
    from ..playtest import CORE_POLICIES, DEFAULT_BOTS, ENGINES, MAX_ACTIONS
    from ..sim import BACKENDS

    add = parser.add_argument
    add("map", help="a shipped map (europe, usa) or a map .json file")
    add("--variant", default="base", help="a variant of the map (default base)")
    add("--players", type=_counts, default=(2,), help="player counts, e.g. 2,3,4 (default 2)")
    add(
        "--bots",
        default=",".join(DEFAULT_BOTS),
        help=f"comma-separated bots rotated over the seats (default {','.join(DEFAULT_BOTS)}); "
        f"the compiled core plays {', '.join(CORE_POLICIES)}",
    )
    add("--games", type=positive_int, default=1000, help="games per player count (default 1000)")
    add("--seed", type=seed_int, default=0, help="seed of the first game; game g has seed + g")
    add(
        "--engine",
        choices=ENGINES,
        default="auto",
        help="auto (the compiled core when it plays every bot), python or core",
    )
    add("--backend", choices=BACKENDS, help="serial, process (the default) or ray")
    add("--workers", type=positive_int, help="worker processes (default: one per core)")
    add("--address", help="a Ray cluster (HOST:PORT, ray://HOST:PORT or auto); implies ray")
    add("--batch", type=positive_int, help="games per task (default: chosen per backend)")
    add(
        "--max-actions",
        type=positive_int,
        default=MAX_ACTIONS,
        help=f"a game still going after this many actions stops unfinished ({MAX_ACTIONS})",
    )
    add("--retries", type=int_between(0), default=3, help="retries after a worker died")
    add("--out", metavar="DIR", help="where the logs and the report go (default playtest-MAP)")
    add("--resume", action="store_true", help="finish the run in --out, playing missing games")
    add("--no-png", action="store_true", help="SVG pictures only (PNG needs CairoSVG)")
    add("--json", action="store_true", help="print the figures document instead of a summary")
    add(
        "--against",
        metavar="B",
        help="a second board (shipped map or .json file) played with the same bots and seeds; "
        "reports what changed from MAP to B",
    )


def summary(doc: dict[str, Any], top: int = 5) -> str:
    """What a designer reads first, per player count: bots, the hottest routes and cities."""
    lines = [f"playtest of {doc['name']} ({doc['map']}/{doc['variant']})"]
    for c in doc["counts"]:
        lines.append("")
        lines.append(
            f"{c['players']} players: {c['finished']} of {c['games']} games ended"
            + (f", {c['unfinished']} stopped at the cap" if c["unfinished"] else "")
        )
        if not c["finished"]:
            continue
        turns = c["turns"]["mean"]
        lines.append(
            f"  mean length {turns:.1f} turns; longest path decides "
            f"{c['longest_path']['bonus_decides']['rate']:.1%} of games; "
            f"{c['stalls']['ended_by_passes']} ended by passes"
        )
        lines.append("  " + seat_line(c["seat_advantage"]))
        margin = c["distributions"]["margin"]
        lines.append(
            f"  winning margin: median {margin['quantiles']['0.5']:g}, mean "
            f"{margin['mean']['mean']:.1f}; final score median "
            f"{c['distributions']['scores']['quantiles']['0.5']:g}"
        )
        rare = c["rarely_used"]
        if rare["routes"] or rare["cities"]:
            lines.append(
                f"  rarely used (interval below {rare['rare_below']:.0%}): "
                f"{len(rare['routes'])} routes, {len(rare['cities'])} cities"
            )
        for b in c["bots"]:
            w = b["wins"]
            lines.append(
                f"  {b['name']:<12} wins {w['rate']:6.1%} ({w['low']:.1%}-{w['high']:.1%}) "
                f"mean score {b['score']['mean']:.1f}"
            )
        routes = sorted(c["routes"], key=lambda r: (-r["claimed"]["rate"], r["id"]))[:top]
        lines.append(
            "  most claimed: " + ", ".join(f"{r['id']} {r['claimed']['rate']:.0%}" for r in routes)
        )
        cities = sorted(c["cities"], key=lambda x: (-x["desirability"]["mean"], x["id"]))[:top]
        lines.append(
            "  most desirable: "
            + ", ".join(f"{x['id']} {x['desirability']['mean']:.1f}" for x in cities)
        )
    return "\n".join(lines)


def seat_line(advantage: dict[str, Any]) -> str:
    """Seat 1's win rate against the fair share, and the other seats' rates."""
    first = advantage["first"]
    verdict = {"above": "above fair", "below": "below fair", "fair": "consistent with fair"}
    rest = ", ".join(f"{w['rate']:.1%}" for w in advantage["wins"][1:])
    return (
        f"seat 1 wins {first['rate']:.1%} ({first['low']:.1%}-{first['high']:.1%}), fair "
        f"{advantage['fair']:.1%}: {verdict[advantage['first_verdict']]}; seats 2 on: {rest}"
    )


PNG_HINT = 'PNG pictures need CairoSVG: pip install "ttr_europe[webtest]" (SVGs were written)'


def run(args: argparse.Namespace) -> int:
    from ..playtest import playtest
    from ..playtest.report import write_report

    def fail(message: str, status: int = 2) -> int:
        print(error_line(message, translator(from_environment())), file=sys.stderr)
        return status

    if args.address and args.backend not in (None, "ray"):
        return fail("--address is for the ray backend")
    bots = [name.strip() for name in args.bots.split(",") if name.strip()]
    if not bots:
        return fail("--bots names no bot")
    board = open_map(args.map)  # a faulty file: DataError naming file and JSON path
    if args.against:
        return run_against(args, board, fail)
    out = args.out or f"playtest-{board.id}"
    bar = ProgressBar(sys.stderr)
    try:
        with stdout_to_stderr():
            result = playtest(board, **run_options(args, bots, out), progress=bar)
    except KeyboardInterrupt:
        bar.close()
        return fail(
            f"interrupted after {bar.done} games; they are in {out}, run again with "
            "--resume to finish",
            130,
        )
    finally:
        bar.close()
    doc = {**result.figures(), "command": command_line(args, bots)}
    written = write_report(result.map, doc, out, png=not args.no_png)
    if not args.no_png and not any(p.suffix == ".png" for p in written):
        print(PNG_HINT, file=sys.stderr)
    if args.json:
        print(json.dumps(doc, indent=1, ensure_ascii=False))
    else:
        print(summary(doc))
        print(
            f"\n{result.played} games played ({result.engine} engine, {result.backend} "
            f"backend, {result.workers} worker{'s' * (result.workers != 1)}) in "
            f"{result.elapsed:.1f} s; report: {written[1]}"
        )
    if result.failures:
        n, seed, error = result.failures[0]
        return fail(
            f"{len(result.failures)} games failed (first: {n} players, game {seed}: "
            f"{error}); run again with --resume to retry them",
            1,
        )
    return 0


COMMAND = Command(
    "playtest",
    "playtest a board: many seeded games, a report of contested routes, cities, tickets",
    configure,
    run,
)
