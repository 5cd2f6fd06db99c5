"""`ttr-europe info`: the figures of a board."""

from __future__ import annotations

import argparse
import json
from collections import Counter
from typing import Any

from ..board import Map, Variant
from ..cards import KIND_NAMES
from ..i18n import N_, Translator, from_environment, translator
from ..maps import available_maps
from .common import Command, add_lang_argument, open_map

ENGLISH = translator("en")


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


def format_summary(s: dict[str, Any], tr: Translator = ENGLISH) -> str:
    """The summary as aligned text in ``tr``'s language (the map's and variants' names and
    ids as the data spells them)."""

    def pairs(table: dict[Any, int], sep: str = ":") -> str:
        return " ".join(f"{k}{sep}{v}" for k, v in table.items())

    def big_cities(n: int) -> str:
        return tr.tn("{n} Big City", "{n} Big Cities", n)

    cities = str(s["cities"])
    if s["big_cities"]:
        cities = tr.t("{cities} ({big})", cities=cities, big=big_cities(len(s["big_cities"])))
    colours = " ".join(f"{tr.card(c)} {n}" for c, n in s["colours"].items())
    rows = [
        (tr.t("cities"), cities),
        (tr.t("routes"), tr.t(
            "{routes} on {pairs}, {doubles}", routes=s["routes"],
            pairs=tr.tn("{n} city pair", "{n} city pairs", s["city_pairs"]),
            doubles=tr.tn("{n} double pair", "{n} double pairs", s["double_pairs"]))),
        (tr.t("train spaces"), str(s["train_spaces"])),
        (tr.t("lengths"), pairs(s["lengths"])),
        (tr.t("colours"), colours),
        (tr.t("tunnels"), str(s["tunnels"])),
        (tr.t("ferries"), tr.t("{ferries} ({symbols})", ferries=s["ferries"], symbols=tr.tn(
            "{n} locomotive symbol", "{n} locomotive symbols", s["ferry_locomotives"]))),
        (tr.t("route points"), pairs(s["route_points"])),
    ]  # fmt: skip
    for deck, d in s["decks"].items():
        extra = [tr.tn("{n} long", "{n} long", d["long"])] if d["long"] else []
        extra += [big_cities(d["big_cities"])] if d["big_cities"] else []
        extra.append(tr.tn("{n} point", "{n} points", d["points"]))
        rows.append((tr.t("tickets {deck}", deck=deck), f"{d['tickets']} ({', '.join(extra)})"))
    width = max(15, *(len(label) for label, _ in rows))
    lines = [f"{tr.marked(s['name'])} ({s['id']})"]
    lines += [f"  {label:<{width}} {text}" for label, text in rows]
    lines.append(tr.t("variants"))
    pad = " " * (width + 3)
    for vid, v in s["variants"].items():
        lo, hi = v["players"]
        dl, dr = v["deal"]
        pool = (
            tr.t("{long} long + {regular} regular", long=v["long_pool"], regular=v["regular_pool"])
            if v["long_pool"]
            else f"{v['regular_pool']}"
        )
        lines.append(f"  {vid:<{width}} {tr.marked(v['name'])}")
        lines.append(pad + tr.t(
            "{low}-{high} players, {trains}, {stations}; bonus {bonus} {points}", low=lo,
            high=hi, trains=tr.tn("{n} train", "{n} trains", v["trains"]),
            stations=tr.tn("{n} station", "{n} stations", v["stations"]),
            bonus=tr.marked(v["bonus"]["name"]), points=v["bonus"]["points"]))  # fmt: skip
        lines.append(pad + tr.t(
            "tickets {pool}: deal {deal}, keep {keep} (others to the {rejects}); draw {draw}, "
            "keep {kept}", pool=pool, deal=f"{dl} + {dr}" if dl else f"{dr}",
            keep=v["keep_initial"], rejects=tr.marked(REJECTS[v["initial_rejects"]]),
            draw=v["draw_tickets"], kept=v["keep_drawn"]))  # fmt: skip
    return "\n".join(lines)


REJECTS = {"box": N_("box"), "bottom": N_("bottom")}  # where the first tickets not kept go (R9)


def configure_info(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "map",
        help=f"a shipped map ({', '.join(available_maps())}) or the path of a map .json file",
    )
    parser.add_argument("--json", action="store_true", help="print the summary as JSON")
    add_lang_argument(parser)


def run_info(args: argparse.Namespace) -> int:
    summary = map_summary(open_map(args.map))
    if args.json:
        print(json.dumps(summary, ensure_ascii=False, indent=2))
    else:
        print(format_summary(summary, translator(args.lang or from_environment())))
    return 0


COMMAND = Command(
    "info", "summarise a board: cities, routes, tickets, variants", configure_info, run_info
)
