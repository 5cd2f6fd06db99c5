"""The ``ttr-europe`` command line.

Each subcommand is a ``Command``: a name, a one-line help, a function that declares its
arguments and a function that runs it. ``COMMANDS`` lists them; adding a subcommand means
writing those two functions and adding one entry there.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

import attrs

from . import __version__
from .board import Map, Variant
from .cards import KIND_NAMES
from .data import available_maps, load_map, load_map_file
from .errors import TTRError


@attrs.frozen
class Command:
    name: str
    help: str
    configure: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace], int]


def open_map(name: str) -> Map:
    """A shipped map by name, or a map file by path (anything ending in ``.json``)."""
    if name.endswith(".json"):
        return load_map_file(name)
    return load_map(name)


# --- info ---------------------------------------------------------------------------------


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


# --- play ---------------------------------------------------------------------------------


def configure_play(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--map", default="europe", help="a shipped map or a map .json file")
    parser.add_argument("--variant", default="base", help="a variant of the map (default base)")
    parser.add_argument("--players", type=int, default=3, help="2 to 5 (default 3)")
    parser.add_argument("--seed", type=int, default=2026, help="the game's seed (default 2026)")
    parser.add_argument(
        "--bots",
        default="greedy,random",
        help="comma-separated bots (greedy, random), repeated over the seats (default "
        "greedy,random)",
    )
    parser.add_argument("--quiet", action="store_true", help="print only the final scoreboard")
    parser.add_argument("--svg", metavar="FILE", help="also draw the final board as SVG")
    parser.add_argument(
        "--record", metavar="FILE", help="also save the game record (JSON) for `replay`"
    )


def run_play(args: argparse.Namespace) -> int:
    from .bots import make_bot
    from .rules import apply, new_game
    from .scoring import format_scoreboard, score
    from .state import Phase

    names = [n.strip() for n in args.bots.split(",") if n.strip()] or ["greedy"]
    state = new_game(open_map(args.map), args.variant, args.players, seed=args.seed)
    try:
        bots = [make_bot(names[i % len(names)], args.seed + i) for i in range(args.players)]
    except ValueError as exc:
        print(f"ttr-europe: error: {exc}", file=sys.stderr)
        return 2
    print(
        f"{state.map.name}, variant {state.rules.variant.name}, {args.players} players, "
        f"seed {args.seed}: " + ", ".join(f"seat {i} {b.name}" for i, b in enumerate(bots))
    )
    turn, moves, played = 0, [], []
    while state.phase is not Phase.GAME_OVER:
        seat, phase = state.current, state.phase
        action = bots[seat].choose(state)
        moves.append(str(action))
        played.append(action)
        state = apply(state, action)
        if state.current != seat or state.phase is Phase.GAME_OVER:  # the turn is over
            label = "start" if phase is Phase.INITIAL_TICKETS else str(turn := turn + 1)
            if not args.quiet:
                print(f"{label:>5} seat {seat}: {'; '.join(moves)}")
            moves = []
    board = score(state)
    print("\nFinal position:")
    for seat, player in enumerate(state.players):
        routes = [r.id for r in state.map.routes if state.owners[r.index] == seat]
        print(
            f"  seat {seat}: {player.trains} trains left, {len(routes)} routes, "
            f"{len(player.stations)} stations, {player.hand.total} cards in hand"
        )
    print()
    print(format_scoreboard(board))
    winners = [p.seat for p in board.players if p.rank == 1]
    print()
    print(
        ("Winner: " if len(winners) == 1 else "Shared win: ")
        + ", ".join(f"seat {w} ({bots[w].name}, {board.players[w].total} points)" for w in winners)
    )
    if args.record:
        from .records import record_of

        record = record_of(played, state.map.id, args.variant, args.players, args.seed)
        with open(args.record, "w", encoding="utf-8") as f:
            json.dump(record.to_json(), f, indent=1)
        print(f"\ngame record saved to {args.record}")
    if args.svg:
        from .render import render_svg

        with open(args.svg, "w", encoding="utf-8") as f:
            f.write(render_svg(state))
        print(f"\nboard drawn to {args.svg}")
    return 0


# --- replay -------------------------------------------------------------------------------


def configure_replay(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("record", help="a game record (JSON), as written by `play --record`")
    parser.add_argument("--svg", metavar="FILE", help="also draw the final board as SVG")


def run_replay(args: argparse.Namespace) -> int:
    from .records import GameRecord, playthrough, replay
    from .scoring import format_scoreboard, score

    with open(args.record, encoding="utf-8") as f:
        record = GameRecord.from_json(f.read(), source=args.record)
    print(playthrough(record))
    final = replay(record)[-1]
    print()
    print(format_scoreboard(score(final)))
    if args.svg:
        from .render import render_svg

        with open(args.svg, "w", encoding="utf-8") as f:
            f.write(render_svg(final))
    return 0


# --- tournament ---------------------------------------------------------------------------


def configure_tournament(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--bots", default="greedy,random", help="comma-separated bots")
    parser.add_argument("--map", default="europe", help="a shipped map (default europe)")
    parser.add_argument("--variant", default="base", help="a variant of the map (default base)")
    parser.add_argument("--players", type=int, help="seats (default: one per bot)")
    parser.add_argument("--games", type=int, default=100, help="games to play (default 100)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first game")
    parser.add_argument("--processes", type=int, default=1, help="worker processes")


def run_tournament(args: argparse.Namespace) -> int:
    from .sim import tournament

    names = [n.strip() for n in args.bots.split(",") if n.strip()]
    try:
        result = tournament(
            names, map=args.map, variant=args.variant, players=args.players,
            games=args.games, seed=args.seed, processes=args.processes,
        )  # fmt: skip
    except ValueError as exc:
        if isinstance(exc, TTRError):
            raise
        print(f"ttr-europe: error: {exc}", file=sys.stderr)
        return 2
    print(result)
    return 0


# --- bench --------------------------------------------------------------------------------


def configure_bench(parser: argparse.ArgumentParser) -> None:
    from .bench import add_arguments

    add_arguments(parser)


def run_bench(args: argparse.Namespace) -> int:
    from .bench import run_from_args

    return run_from_args(args)


# --- the command table ----------------------------------------------------------------------

COMMANDS: tuple[Command, ...] = (
    Command(
        "info", "summarise a board: cities, routes, tickets, variants", configure_info, run_info
    ),
    Command(
        "play", "play a game between bots and print the final scores", configure_play, run_play
    ),
    Command(
        "replay",
        "replay a saved game record: every action, then the scoreboard",
        configure_replay,
        run_replay,
    ),
    Command(
        "tournament",
        "many seeded games between bots: win rates and mean scores",
        configure_tournament,
        run_tournament,
    ),
    Command(
        "bench", "measure random-play throughput and per-call costs", configure_bench, run_bench
    ),
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="ttr-europe", description="Ticket to Ride: Europe (and USA) rules engine."
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for command in COMMANDS:
        child = sub.add_parser(command.name, help=command.help, description=command.help)
        command.configure(child)
        child.set_defaults(run=command.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run one subcommand; returns the exit status (1 for bad input such as bad map data or a
    file that cannot be written), so a script sees a message rather than a traceback."""
    args = build_parser().parse_args(argv)
    run: Callable[[argparse.Namespace], int] = args.run
    try:
        return run(args)
    except (TTRError, OSError) as exc:
        print(f"ttr-europe: error: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
