"""`ttr-europe serve`: play in the browser against bots (needs the ``web`` extra).

The matches are kept in an SQLite database (``--db``, ``DEFAULT_DB`` in the working directory
by default): a restarted server goes on with every match it held. A file that is not a match
database, is damaged or is used by another server is refused before the server listens; a
clean stop (Ctrl-C, SIGTERM) folds the WAL into the database file (``ttr-europe backup`` copies
it while the server runs).
"""

from __future__ import annotations

import argparse
import gc
import ipaddress
import random
import signal
import sys
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from .common import Command, add_map_arguments, int_between, open_map, seed_int

if TYPE_CHECKING:
    from ..board import Map
    from ..table.match import Match

DEFAULT_DB = "ttr-europe-matches.db"


def configure_serve(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (default "
                        "127.0.0.1; 0.0.0.0 lets other machines join)")  # fmt: skip
    parser.add_argument("--port", type=int_between(0, 65535), default=8000, help="default 8000")
    parser.add_argument(
        "--forwarded-allow-ips",
        type=trusted_proxies,
        metavar="ADDRESSES",
        help="the reverse proxies (comma-separated addresses or networks, * for any) whose "
        "X-Forwarded-For header names the client; default: none, each client is the address "
        "it connects from (the lobby's limits count addresses)",
    )
    parser.add_argument(
        "--allow-origin",
        type=origins,
        default=(),
        metavar="ORIGINS",
        help="sites (comma-separated origins, https://name[:port]) whose pages may open the "
        "server's WebSocket besides its own: the name a reverse proxy serves it under, when "
        "the proxy does not pass the Host header on; default: its own pages only",
    )
    add_map_arguments(parser)
    parser.add_argument("--players", type=int_between(2, 5), default=3, help="2 to 5 (default 3)")
    parser.add_argument(
        "--seats",
        default="person,greedy",
        help="comma-separated seats in order: person, greedy, random or cmd:COMMAND; the last "
        "fills the remaining seats (default person,greedy: one person, the rest greedy bots)",
    )
    parser.add_argument(
        "--seed",
        type=seed_int,
        help="seed of the first match: a public deal anyone who knows the seed can see "
        "(default: each match dealt in secret)",
    )
    parser.add_argument(
        "--db",
        default=DEFAULT_DB,
        help=f"the SQLite file holding the matches (default {DEFAULT_DB}; made if missing); "
        "':memory:' keeps them in memory only, lost when the server stops",
    )


def trusted_proxies(text: str) -> str:
    """An argparse ``type``: a comma-separated list of IP addresses or networks, or ``*``;
    anything else is refused here rather than silently trusted or ignored by Uvicorn."""
    items = [item.strip() for item in text.split(",")]
    if items == ["*"]:
        return "*"
    for item in items:
        try:
            ipaddress.ip_network(item, strict=False)
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"expected IP addresses or networks separated by commas, or *; got {item[:40]!r}"
            ) from None
    return ",".join(items)


def origins(text: str) -> tuple[str, ...]:
    """An argparse ``type``: comma-separated origins (``scheme://host[:port]``, nothing more)."""
    out = []
    for item in (part.strip() for part in text.split(",")):
        try:
            parts = urlsplit(item)
            parts.port  # noqa: B018 - a port that is no number is refused
        except ValueError:
            parts = None
        if (
            parts is None
            or parts.scheme not in ("http", "https")
            or not parts.hostname
            or (parts.path not in ("", "/") or parts.query or parts.fragment or parts.username)
        ):
            raise argparse.ArgumentTypeError(
                f"expected origins such as https://example.org:8443, separated by commas; "
                f"got {item[:60]!r}"
            )
        out.append(f"{parts.scheme}://{parts.netloc}")
    return tuple(out)


def loopback(host: str) -> bool:
    """Whether ``--host`` listens on the loopback alone."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def dealer(
    board: Map, variant: str, players: int, seats: Sequence[str], seed: int | None, made: int
) -> Callable[[], Match]:
    """Deals each new match. Without ``seed``, in secret (``_seeds.Deal``): each deal and its
    bots' generators from the operating system's randomness, so that no person or bot finds
    the hidden cards from what it sees. With ``seed`` (tests, demonstrations), from one public
    sequence of seeds it fixes, skipping the ``made`` matches an earlier run on the same
    database dealt: a restart never deals them again."""
    from .._seeds import Deal
    from ..table.match import Match

    if seed is None:

        def secret_match() -> Match:
            deal = Deal.fresh()
            return Match.new(
                board, variant, players, deal.game_seed(0), seats, bot_seed=deal.bot_seed(0)
            )

        return secret_match
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

    from ..players import sandbox, split_specs

    if args.db != ":memory:":  # never shown to a cmd: seat's sandbox, nor their folder
        sandbox.forbid(args.db + end for end in ("", "-wal", "-shm", "-journal"))
    board = open_map(args.map)
    names = split_specs(args.seats) or ["person"]
    seats = [names[min(i, len(names) - 1)] for i in range(args.players)]
    from ..table.match import Match

    Match.new(board, args.variant, args.players, 0, seats)  # bad settings fail before any file
    store = Store(args.db)  # DataError: not a match database, damaged, or another server's
    try:
        make_match = dealer(board, args.variant, args.players, seats, args.seed, store.count())
        hub = Hub(make_match, store=store)  # restores the matches, or deals the first
        # on the loopback with no proxy in front, only loopback names are answered
        local = loopback(args.host) and args.forwarded_allow_ips is None
        app = create_app(make_match, hub=hub, local=local, origins=args.allow_origin)
        kept = "in memory only" if args.db == ":memory:" else f"in {args.db}"
        address = f"http://{args.host}:{args.port}"
        print(f"Open {address}/ in a browser to play (Ctrl-C stops the server); "
              f"{len(hub.matches)} match(es) live, kept {kept}.\n"
              f"The lobby, to make and share matches: {address}/lobby", flush=True)  # fmt: skip
        from ..render import render_svg

        render_svg(board)  # its layout and labels are made now, not when the first tab joins
        gc.collect()
        gc.freeze()  # what is loaded once (code, maps, restored matches) is never garbage
        gc.callbacks.append(short_collections())
        # Uvicorn stops cleanly on SIGTERM, then raises the signal again: here that ends the
        # run (status 0) through the ``finally`` that folds the WAL into the database file.
        signal.signal(signal.SIGTERM, _stopped)
        proxies = args.forwarded_allow_ips
        uvicorn.Server(config(app, args.host, args.port, forwarded_allow_ips=proxies)).run()
    finally:
        store.close()
    return 0


FULL_COLLECTION_EVERY = 3600.0  # seconds between collections that walk every object


def short_collections(
    clock: Callable[[], float] = time.monotonic, every: float = FULL_COLLECTION_EVERY
) -> Callable[[str, dict[str, int]], None]:
    """A ``gc.callbacks`` hook keeping the garbage collector's pauses short in a server whose
    matches keep their whole history (some 60 tracked objects a move): what survives a
    collection of the middle or the oldest generation is frozen (``gc.freeze``), so no later
    collection walks it again, and the oldest generation stays nearly empty (measured, 50
    matches being played: full collections of 70,000 to 97,000 objects, 90 to 230 ms each,
    every 10 to 20 s when only those froze what survived). Objects are freed by their reference
    counts as ever; only garbage in reference cycles among frozen objects waits, until every
    ``every`` seconds everything is unfrozen and the next full collection walks it all."""
    last = [clock()]
    walking = [False]  # unfrozen: the next full collection walks everything

    def after(phase: str, info: dict[str, int]) -> None:
        if phase != "stop" or info["generation"] == 0:
            return
        full = info["generation"] == 2
        if walking[0]:
            if not full:
                return
            walking[0] = False  # that was the walk: freeze again
        elif full and clock() - last[0] >= every:
            last[0] = clock()
            walking[0] = True
            gc.unfreeze()
            return
        gc.freeze()

    return after


def _stopped(signum: int, frame: object) -> None:
    sys.exit(0)


COMMAND = Command("serve", "Play in the browser against bots (needs the web extra).",
                  configure_serve, run_serve)  # fmt: skip
