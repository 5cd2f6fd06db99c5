"""`ttr-europe serve`: play in the browser against bots (needs the ``web`` extra)."""

from __future__ import annotations

import argparse
import sys

from .common import Command, add_map_arguments, int_between, open_map, seed_int


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


def run_serve(args: argparse.Namespace) -> int:
    try:
        import uvicorn

        from ..web.app import WS_MAX_BYTES, create_app
    except ImportError as exc:
        print(f"ttr-europe: error: serve needs the web extra ({exc.name} is missing): "
              "pip install 'ttr_europe[web]'", file=sys.stderr)  # fmt: skip
        return 2
    import random

    from ..match import Match

    board = open_map(args.map)
    names = [n.strip() for n in args.seats.split(",") if n.strip()] or ["person"]
    seats = [names[min(i, len(names) - 1)] for i in range(args.players)]
    seeds = random.Random(args.seed)

    def make_match() -> Match:
        return Match.new(board, args.variant, args.players, seeds.randrange(2**31), seats)

    app = create_app(make_match)  # deals the first match, so bad settings fail here
    print(f"Open http://{args.host}:{args.port}/ in a browser (Ctrl-C stops the server).")
    uvicorn.run(app, host=args.host, port=args.port, ws_max_size=WS_MAX_BYTES, log_level="warning")
    return 0


COMMAND = Command("serve", "Play in the browser against bots (needs the web extra).",
                  configure_serve, run_serve)  # fmt: skip
