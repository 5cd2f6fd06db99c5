"""`ttr-europe serve`: play in the browser against bots (needs the ``web`` extra).

The matches are kept in an SQLite database (``--db``, ``DEFAULT_DB`` in the working directory
by default): a restarted server goes on with every match it held.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from .common import Command, add_map_arguments, int_between, open_map, seed_int

if TYPE_CHECKING:
    from ..board import Map
    from ..match import Match

DEFAULT_DB = "ttr-europe-matches.db"


def configure_serve(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (default "
                        "127.0.0.1; 0.0.0.0 lets other machines join)")  # fmt: skip
    parser.add_argument("--port", type=int_between(0, 65535), default=8000, help="default 8000")
    add_map_arguments(parser)
    parser.add_argument("--players", type=int_between(2, 5), default=3, help="2 to 5 (default 3)")
    parser.add_argument(
        "--seats",
        default="person,greedy",
        help="comma-separated seats in order: person, greedy, random or cmd:COMMAND; the last "
        "fills the remaining seats (default person,greedy: one person, the rest greedy bots)",
    )
    parser.add_argument("--seed", type=seed_int, help="seed of the first match (default: random)")
    parser.add_argument(
        "--db",
        default=DEFAULT_DB,
        help=f"the SQLite file holding the matches (default {DEFAULT_DB}; made if missing); "
        "':memory:' keeps them in memory only, lost when the server stops",
    )


def dealer(
    board: Map, variant: str, players: int, seats: Sequence[str], seed: int | None, made: int
) -> Callable[[], Match]:
    """Deals each new match from one sequence of seeds fixed by ``seed``, skipping the ``made``
    matches an earlier run on the same database dealt: a restart never deals them again."""
    from ..match import Match

    seeds = random.Random(seed)
    for _ in range(made):
        seeds.randrange(2**31)

    def make_match() -> Match:
        return Match.new(board, variant, players, seeds.randrange(2**31), seats)

    return make_match


def run_serve(args: argparse.Namespace) -> int:
    try:
        import uvicorn

        from ..web.app import create_app
        from ..web.hub import Hub
        from ..web.server import config
        from ..web.store import Store
    except ImportError as exc:
        print(f"ttr-europe: error: serve needs the web extra ({exc.name} is missing): "
              "pip install 'ttr_europe[web]'", file=sys.stderr)  # fmt: skip
        return 2

    board = open_map(args.map)
    names = [n.strip() for n in args.seats.split(",") if n.strip()] or ["person"]
    seats = [names[min(i, len(names) - 1)] for i in range(args.players)]
    from ..match import Match

    Match.new(board, args.variant, args.players, 0, seats)  # bad settings fail before any file
    store = Store(args.db)  # DataError for a file that is not a match database
    try:
        make_match = dealer(board, args.variant, args.players, seats, args.seed, store.count())
        hub = Hub(make_match, store=store)  # restores the matches, or deals the first
        app = create_app(make_match, hub=hub)
        kept = "in memory only" if args.db == ":memory:" else f"in {args.db}"
        address = f"http://{args.host}:{args.port}"
        print(f"Open {address}/ in a browser to play (Ctrl-C stops the server); "
              f"{len(hub.matches)} match(es) live, kept {kept}.\n"
              f"The lobby, to make and share matches: {address}/lobby", flush=True)  # fmt: skip
        uvicorn.Server(config(app, args.host, args.port)).run()
    finally:
        store.close()
    return 0


COMMAND = Command("serve", "Play in the browser against bots (needs the web extra).",
                  configure_serve, run_serve)  # fmt: skip
