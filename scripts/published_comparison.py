"""Our two-player Europe playtest beside the FDG 2017 study's own data (docs/playtest.md).

    python scripts/published_comparison.py --games 10000 --bots greedy --bots playout

plays ``--games`` two-player Europe games for each ``--bots`` lineup (a comma-separated list of
bots rotated over the seats, as ``ttr-europe playtest --bots`` takes it), seeds ``seed`` to
``seed + games - 1``, and prints, per lineup, the Spearman rank correlation of the cities'
"no route into it claimed" rates with the study's, the cities ranked furthest apart, and the
games' length, scores, margin and first-player wins beside the study's 1000 games, each with
its 95 % interval. ``--json FILE`` keeps every figure.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from ttr_europe.playtest import playtest
from ttr_europe.playtest.published import compare, load_published


def _mean(m: dict[str, Any], digits: int = 1) -> str:
    return f"{m['mean']:.{digits}f} ({m['low']:.{digits}f}-{m['high']:.{digits}f})"


def _rate(r: dict[str, Any]) -> str:
    return f"{100 * r['rate']:.1f} % ({100 * r['low']:.1f}-{100 * r['high']:.1f})"


def report(lineup: str, doc: dict[str, Any]) -> str:
    """One lineup's comparison as Markdown."""
    s = doc["cities"]["spearman"]
    ours, theirs = doc["games"]["ours"], doc["games"]["theirs"]
    lines = [
        f"### `{lineup}` ({ours['games']} games)",
        "",
        f"Cities, no route into the city claimed: Spearman rho = {s['rho']:.2f} "
        f"({s['low']:.2f} to {s['high']:.2f}), {s['n']} cities.",
        "",
        "| City | ours | rank | study | rank |",
        "|---|---|---|---|---|",
    ]
    for r in doc["cities"]["most_apart"]:
        lines.append(
            f"| {r['city']} | {_rate(r['ours'])} | {r['rank_ours']:g} | "
            f"{_rate(r['theirs'])} | {r['rank_theirs']:g} |"
        )
    lines += ["", "| Figure | ours | study |", "|---|---|---|"]
    for key, name in (
        ("turns", "turns"),
        ("first_score", "first seat's score"),
        ("second_score", "second seat's score"),
        ("margin", "winning margin"),
    ):
        lines.append(f"| {name} | {_mean(ours[key])} | {_mean(theirs[key])} |")
    lines.append(
        f"| first seat wins (ties left out) | {_rate(ours['first_wins'])} | "
        f"{_rate(theirs['first_wins'])} |"
    )
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--bots", action="append", help="a lineup, comma-separated (repeatable)")
    parser.add_argument("--backend", default="serial")
    parser.add_argument("--json", help="write every figure to this file")
    args = parser.parse_args(argv)
    published = load_published()
    out: dict[str, Any] = {"games": args.games, "seed": args.seed, "lineups": {}}
    for lineup in args.bots or ["greedy"]:
        bots = tuple(lineup.split(","))
        run = playtest(
            "europe", players=2, bots=bots, games=args.games, seed=args.seed, backend=args.backend
        )
        doc = compare(run.map, run.runs[0].logs, published)
        out["lineups"][lineup] = doc
        sys.stdout.write(report(lineup, doc) + "\n")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(out, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
