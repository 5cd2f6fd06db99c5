"""`ttr-europe info`: the figures of a board."""

from __future__ import annotations

import argparse
import json
from collections import Counter
from typing import Any

from ..board import Map, Variant
from ..cards import KIND_NAMES
from ..data import available_maps
from .common import Command, open_map


def map_summary(board: Map) -> dict[str, Any]:
    """The board's figures, computed from its records (what ``info`` prints)."""
    decks: dict[str, dict[str, int]] = {}
    for t in board.tickets:
        deck = decks.setdefault(t.deck, {"tickets": 0, "long": 0, "big_cities": 0, "points": 0})
        deck["tickets"] += 1
        deck["long"] += t.long
        deck["big_cities"] += t.big_cities
        deck["points"] += t.points
    colours = Counter(r.colour_name for r in board.routes)
    return {
        "id": board.id,
        "name": board.name,
        "cities": len(board.cities),
        "big_cities": [c.id for c in board.cities if c.big],
        "routes": len(board.routes),
        "city_pairs": len(board.routes_between),
        "double_pairs": sum(len(v) == 2 for v in board.routes_between.values()),
        "train_spaces": sum(r.length for r in board.routes),
        "lengths": dict(sorted(Counter(r.length for r in board.routes).items())),
        "colours": {c: colours[c] for c in (*KIND_NAMES[:8], "gray") if colours[c]},
        "tunnels": sum(r.tunnel for r in board.routes),
        "ferries": sum(r.ferry > 0 for r in board.routes),
        "ferry_locomotives": sum(r.ferry for r in board.routes),
        "route_points": dict(sorted(board.route_points.items())),
        "decks": decks,
        "variants": {vid: variant_summary(v) for vid, v in board.variants.items()},
    }


def variant_summary(v: Variant) -> dict[str, Any]:
    return {
        "name": v.name,
        "players": [v.min_players, v.max_players],
        "trains": v.trains,
        "stations": v.stations,
        "long_pool": len(v.long_pool),
        "regular_pool": len(v.regular_pool),
        "deal": [v.deal_long, v.deal_regular],
        "keep_initial": v.keep_initial,
        "initial_rejects": v.initial_rejects,
        "draw_tickets": v.draw_tickets,
        "keep_drawn": v.keep_drawn,
        "bonus": {"name": v.bonus.name, "points": v.bonus.points},
        "tiebreaks": list(v.tiebreaks),
    }


def format_summary(s: dict[str, Any]) -> str:
    """The summary as aligned text."""

    def pairs(table: dict[Any, int], sep: str = ":") -> str:
        return " ".join(f"{k}{sep}{v}" for k, v in table.items())

    big = f" ({len(s['big_cities'])} Big Cities)" if s["big_cities"] else ""
    rows = [
        ("cities", f"{s['cities']}{big}"),
        ("routes", f"{s['routes']} on {s['city_pairs']} city pairs, "
                   f"{s['double_pairs']} double pairs"),
        ("train spaces", str(s["train_spaces"])),
        ("lengths", pairs(s["lengths"])),
        ("colours", pairs(s["colours"], " ")),
        ("tunnels", str(s["tunnels"])),
        ("ferries", f"{s['ferries']} ({s['ferry_locomotives']} locomotive symbols)"),
        ("route points", pairs(s["route_points"])),
    ]  # fmt: skip
    for deck, d in s["decks"].items():
        extra = [f"{d['long']} long"] if d["long"] else []
        extra += [f"{d['big_cities']} Big Cities"] if d["big_cities"] else []
        extra.append(f"{d['points']} points")
        rows.append((f"tickets {deck}", f"{d['tickets']} ({', '.join(extra)})"))
    lines = [f"{s['name']} ({s['id']})"]
    lines += [f"  {label:<15} {text}" for label, text in rows]
    lines.append("variants")
    for vid, v in s["variants"].items():
        lo, hi = v["players"]
        dl, dr = v["deal"]
        pool = f"{v['long_pool']} long + {v['regular_pool']} regular" if v["long_pool"] else (
            f"{v['regular_pool']}"
        )  # fmt: skip
        deal = f"{dl} + {dr}" if dl else f"{dr}"
        lines.append(f"  {vid:<15} {v['name']}")
        pad = " " * 18
        lines.append(
            f"{pad}{lo}-{hi} players, {v['trains']} trains, {v['stations']} stations; "
            f"bonus {v['bonus']['name']} {v['bonus']['points']}"
        )
        lines.append(
            f"{pad}tickets {pool}: deal {deal}, keep {v['keep_initial']} "
            f"(others to the {v['initial_rejects']}); draw {v['draw_tickets']}, "
            f"keep {v['keep_drawn']}"
        )
    return "\n".join(lines)


def configure_info(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "map",
        help=f"a shipped map ({', '.join(available_maps())}) or the path of a map .json file",
    )
    parser.add_argument("--json", action="store_true", help="print the summary as JSON")


def run_info(args: argparse.Namespace) -> int:
    summary = map_summary(open_map(args.map))
    if args.json:
        print(json.dumps(summary, ensure_ascii=False, indent=2))
    else:
        print(format_summary(summary))
    return 0


COMMAND = Command(
    "info", "summarise a board: cities, routes, tickets, variants", configure_info, run_info
)
