"""`ttr-europe play`: a game between bots, turn by turn."""

from __future__ import annotations

import argparse
import json
import sys

from .common import Command, open_map


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
    from ..bots import make_bot
    from ..rules import apply, new_game
    from ..scoring import format_scoreboard, score
    from ..state import Phase

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
        from ..records import record_of

        map_data = None  # a map file travels inside the record, so that it replays anywhere
        if args.map.endswith(".json"):
            with open(args.map, encoding="utf-8") as f:
                map_data = f.read()
        record = record_of(
            played, state.map.id, args.variant, args.players, args.seed, map_data=map_data
        )
        with open(args.record, "w", encoding="utf-8") as f:
            json.dump(record.to_json(), f, indent=1)
        print(f"\ngame record saved to {args.record}")
    if args.svg:
        from ..render import render_svg

        with open(args.svg, "w", encoding="utf-8") as f:
            f.write(render_svg(state))
        print(f"\nboard drawn to {args.svg}")
    return 0


COMMAND = Command(
    "play", "play a game between bots and print the final scores", configure_play, run_play
)
