"""`ttr-europe tournament`: many seeded games between bots."""

from __future__ import annotations

import argparse
import sys

from ..errors import TTRError
from .common import Command


def configure_tournament(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--bots", default="greedy,random", help="comma-separated bots")
    parser.add_argument("--map", default="europe", help="a shipped map (default europe)")
    parser.add_argument("--variant", default="base", help="a variant of the map (default base)")
    parser.add_argument("--players", type=int, help="seats (default: one per bot)")
    parser.add_argument("--games", type=int, default=100, help="games to play (default 100)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first game")
    parser.add_argument("--processes", type=int, default=1, help="worker processes")


def run_tournament(args: argparse.Namespace) -> int:
    from ..errors import BotError
    from ..sim import tournament

    names = [n.strip() for n in args.bots.split(",") if n.strip()]
    try:
        result = tournament(
            names, map=args.map, variant=args.variant, players=args.players,
            games=args.games, seed=args.seed, processes=args.processes,
        )  # fmt: skip
    except ValueError as exc:
        if isinstance(exc, TTRError) and not isinstance(exc, BotError):
            raise
        print(f"ttr-europe: error: {exc}", file=sys.stderr)
        return 2
    print(result)
    return 0


COMMAND = Command(
    "tournament",
    "many seeded games between bots: win rates and mean scores",
    configure_tournament,
    run_tournament,
)
