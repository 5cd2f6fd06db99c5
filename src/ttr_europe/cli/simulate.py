"""`ttr-europe simulate`: many seeded games on a backend, each row saved as its game ends.

`tournament` shares these arguments and this runner; it differs only in what counts as a
failed run (see ``run_games``).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
import time
from collections.abc import Iterator
from typing import TYPE_CHECKING, TextIO

from ..i18n import from_environment, translator
from ..players import BUILTIN_BOTS
from .common import (
    Command,
    add_map_arguments,
    error_line,
    int_between,
    open_map,
    positive_int,
    seed_int,
)

if TYPE_CHECKING:
    from ..players.protocol import TimeControl


def configure_games(parser: argparse.ArgumentParser) -> None:
    """The arguments of `simulate` and `tournament`."""
    from ..sim import BACKENDS, DEALS, ENGINES

    add = parser.add_argument
    add(
        "--bots",
        default="greedy,random",
        help="comma-separated bots, repeated over the seats: "
        f"{', '.join(BUILTIN_BOTS)}, package.module:Class or cmd:COMMAND (default greedy,random)",
    )
    add("--games", type=positive_int, default=100, help="games to play (default 100)")
    add("--players", type=positive_int, help="seats (default: one per bot)")
    add_map_arguments(parser)
    add("--seed", type=seed_int, default=0, help="seed of the first game; game g has seed + g")
    add(
        "--deal",
        choices=DEALS,
        help="public: game g is dealt from its seed (anyone who knows the engine can find it "
        "from a view); secret: from a key the referee keeps (--secret-file), revealed in each "
        "finished row (default: secret when a seat is a cmd: program, else public)",
    )
    add(
        "--secret-file",
        metavar="FILE",
        help="the key of a secret deal (written with a fresh key if missing; default: "
        "OUT.key beside --out, else a key of this run alone)",
    )
    add(
        "--backend",
        choices=BACKENDS,
        help="serial, process (a local pool, the default) or ray (--address, or a local Ray)",
    )
    add(
        "--engine",
        choices=ENGINES,
        default="auto",
        help="auto (the compiled core when it is built and plays every bot: random, greedy, "
        "claimer, saver, ambitious; else Python, the default), fast (the core, or an error) "
        "or python; the rows are the same",
    )
    add("--workers", type=positive_int, help="worker processes (default: one per core)")
    add("--address", help="a Ray cluster (HOST:PORT, ray://HOST:PORT or auto); implies ray")
    add("--batch", type=positive_int, help="games per task (default: chosen per backend)")
    add(
        "--retries",
        type=int_between(0),
        default=3,
        help="times a game is tried again after its worker died (default 3)",
    )
    add(
        "--clock",
        type=clock_spec,
        metavar="MOVE[,GAME]",
        help="seconds for each move (and for all of a game's moves) of the bots that run in "
        "this process; one over its clock forfeits (cmd: bots have their own; default none)",
    )
    add("--out", metavar="FILE.jsonl", help="append one JSON row per game to FILE as it ends")
    add("--resume", action="store_true", help="continue --out, playing only missing games")
    add("--record", action="store_true", help="keep every action of each game in its row")
    add("--json", action="store_true", help="print the summary as JSON")
    add("--processes", type=positive_int, dest="workers", help=argparse.SUPPRESS)  # old name


def clock_spec(text: str) -> TimeControl:
    """``--clock MOVE[,GAME]``: positive seconds (the game's default: 600 s, as ``cmd:``)."""
    from ..players.protocol import TimeControl

    parts = text.split(",")
    try:
        values = [float(p) for p in parts]
    except ValueError:
        values = []
    if len(values) not in (1, 2) or not all(0 < v < float("inf") for v in values):
        raise argparse.ArgumentTypeError(f"a clock is MOVE or MOVE,GAME in seconds, not {text!r}")
    return TimeControl(*values)


def duration(seconds: float) -> str:
    """``42s``, ``3m05s``, ``2h07m``: a time left that reads at a glance."""
    whole = round(seconds)
    if whole < 60:
        return f"{whole}s"
    if whole < 3600:
        return f"{whole // 60}m{whole % 60:02d}s"
    return f"{whole // 3600}h{whole % 3600 // 60:02d}m"


class ProgressBar:
    """Games done, games/s and time left, redrawn in place on a terminal (else silent)."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.active = stream.isatty()
        self.start = time.monotonic()
        self.first: int | None = None
        self.last_draw = 0.0
        self.done = 0

    def __call__(self, done: int, asked: int) -> None:
        from ..sim import speed

        self.done = done
        if self.first is None:
            self.first = done  # rows already in the file do not count towards the speed
        now = time.monotonic()
        if not self.active or (now - self.last_draw < 0.1 and done < asked):
            return
        self.last_draw = now
        rate = (done - self.first) / (now - self.start) if now > self.start else 0.0
        eta = duration((asked - done) / rate) if rate > 0 else "?"
        width = 30
        filled = width * done // asked if asked else width
        self.stream.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{asked} games "
                          f"{speed(rate)} ETA {eta}   ")  # fmt: skip
        self.stream.flush()

    def close(self) -> None:
        if self.active and self.last_draw:
            self.stream.write("\r\033[K")
            self.stream.flush()


@contextlib.contextmanager
def stdout_to_stderr() -> Iterator[None]:
    """Send whatever is written to standard output while the block runs to standard error
    instead, also by native code and other threads (Ray's driver prints a worker's death
    there), so that standard output holds the summary alone and ``--json`` parses."""
    sys.stdout.flush()
    real = sys.stdout
    try:
        saved: int | None = os.dup(1)
    except OSError:  # no file descriptor 1: only Python's stream can be redirected
        saved = None
    if saved is not None:
        os.dup2(2, 1)
    sys.stdout = sys.stderr
    try:
        yield
    finally:
        sys.stdout.flush()
        sys.stdout = real
        if saved is not None:
            os.dup2(saved, 1)
            os.close(saved)


def run_games(args: argparse.Namespace, *, forfeits_fail: bool) -> int:
    """Run `simulate` or `tournament`: summary on stdout, one error line on stderr.

    Exit 0 when every game finished; 1 when some failed (or, with ``forfeits_fail``, when a
    bot forfeited), 2 when nothing could start (bad arguments, map or results file, a Ray
    address that does not answer), 130 when interrupted (the rows written stay).
    """
    from .._seeds import Deal, SecretError
    from ..errors import BotError
    from ..players import split_specs
    from ..sim import SimulationError, choose_deal, engine_for, resolve_bot, simulate

    def fail(message: str, status: int = 1) -> int:
        print(error_line(message, translator(from_environment())), file=sys.stderr)
        return status

    if args.resume and not args.out:
        return fail("--resume needs --out FILE.jsonl", 2)
    if args.address and args.backend not in (None, "ray"):
        return fail("--address is for the ray backend", 2)
    if args.secret_file:  # never shown to a cmd: bot's sandbox (``simulate`` keeps --out's)
        from ..players import sandbox

        sandbox.forbid([args.secret_file])
    bots = split_specs(args.bots)
    if not bots:
        return fail("--bots names no bot", 2)
    try:
        for spec in bots:
            resolve_bot(spec)
        engine_for(args.engine, bots)
    except (BotError, SimulationError) as exc:
        return fail(str(exc), 2)
    if args.secret_file is not None and args.deal == "public":
        return fail("--secret-file is for a secret deal, not --deal public", 2)
    try:
        deal = (
            choose_deal(bots, args.deal, args.out)
            if args.secret_file is None
            else Deal.from_file(args.secret_file, create=True)
        )
    except (OSError, SecretError, SimulationError) as exc:
        return fail(str(exc), 2)
    board = open_map(args.map)
    backend = args.backend or ("ray" if args.address else "process")
    bar = ProgressBar(sys.stderr)
    try:
        with stdout_to_stderr():  # a backend's messages go to stderr; the summary alone to stdout
            result = simulate(
                bots, games=args.games, map=board, variant=args.variant, players=args.players,
                seed=args.seed, backend=backend, workers=args.workers, address=args.address,
                batch=args.batch, out=args.out, resume=args.resume, record=args.record,
                max_retries=args.retries, progress=bar, engine=args.engine, clock=args.clock,
                deal=deal,
            )  # fmt: skip
    except KeyboardInterrupt:
        bar.close()
        where = f"; they are in {args.out}, run again with --resume to finish" if args.out else ""
        return fail(f"interrupted after {_written(args.out, bar.done)} of {args.games} "
                    f"games{where}", 130)  # fmt: skip
    finally:
        bar.close()
    print(json.dumps(result.to_json(), indent=2) if args.json else result)
    if result.failures:
        seed, error = result.failures[0]
        again = "; run again with --resume to retry them" if args.out else ""
        return fail(f"{len(result.failures)} of {result.asked} games failed (first: game "
                    f"{seed}: {error}){again}")  # fmt: skip
    if forfeits_fail and result.forfeits:
        first = result.forfeits[0]
        return fail(f"{len(result.forfeits)} of {result.asked} games forfeited (first: game "
                    f"{first.seed}: {first.forfeit})")  # fmt: skip
    return 0


def _written(out: str | None, counted: int) -> int:
    """The games an interrupted run finished: the rows in its file (an interrupt may fall
    between a row written and its count), else those counted."""
    from ..sim import SimulationError, read_rows

    if out is None:
        return counted
    try:
        return len(read_rows(out)[1])
    except SimulationError:
        return counted


def run_simulate(args: argparse.Namespace) -> int:
    return run_games(args, forfeits_fail=True)


COMMAND = Command(
    "simulate",
    "many seeded games on a process pool or Ray, saved row by row (resumable)",
    configure_games,
    run_simulate,
)
