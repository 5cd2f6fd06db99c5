"""A well-behaved tab's round trip while many other connections send at their allowed rate.

Usage::

    python benchmarks/web_load.py                      # 200 connections joining, 30 s
    python benchmarks/web_load.py --connections 50 --seconds 10 --kind ping
    python benchmarks/web_load.py --kind move --connections 50 --idle 300
    python benchmarks/web_load.py --kind lobby         # 30 public matches, the lobby asked for
    python benchmarks/web_load.py --json out.json

Method:

- ``ttr-europe serve`` runs in a process of its own on a loopback port with a fresh database
  file (the settings it ships with: rate limits, timeouts);
- a load process opens ``--connections`` WebSockets, each watching one of a few matches (at most
  32 watch one match), and each sends at the rate the server allows a tab: ``join`` (the
  costliest message: the whole position, about 120 kB) once every ``(1 + COSTS["join"]) / RATE``
  seconds, ``ping`` ``RATE`` times a second, or ``lobby`` (the list of public matches; 30 are
  made first with ``create``, as many as the server allows in a minute) once every
  ``(1 + COSTS["lobby"]) / RATE`` seconds (``--kind``), the tabs spread evenly over that
  interval (as independent people would be, not in step); each reads all it is sent;
- ``--kind move``: each load connection deals a match of its own (``new``), sits at its
  person's seat and sends a move at the documented move rate of a match (``MOVE_RATE`` a
  second), the first legal one of its last update (a ticket choice, the blind draw, ...);
  with ``--flood`` it sends them at the message rate instead (``RATE`` a second, as the attack
  of issue 29 did), the server refusing those beyond ``MOVE_RATE`` (``too_fast``). Each move
  made, with the bots' replies, is committed to the database file before it is answered;
- ``--idle N`` opens N more WebSockets that connect and then say nothing;
- each connection that deals a match (``new``, ``create``) comes from a loopback address of its
  own (127.B.x.y: Linux routes all of 127.0.0.0/8 to the loopback device), as independent
  people would: the server's limits on new matches are per address before they are
  server-wide;
- once every load connection is in, the probe (this process, a tab seated at a match of its own)
  sends a ping every 100 ms and times each answer, and times a ``join`` every 10 s (within its
  own rate);
- reported: median and 99th percentile of both, what the load sent and received, refusals
  (``too_fast`` means the load is at the limit, not above it), and the processor time the
  server and the load's process used meanwhile (the load runs in a process of its own, so that
  it never holds up the probe's event loop; on a small machine it still competes with the
  server for the processors, as the machine's load average says). Targets (issue 20): ping median
  under 100 ms and 99th percentile under 500 ms.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

from ttr_europe.web import hub
from ttr_europe.web.app import MAX_SOCKETS
from ttr_europe.web.hub import COSTS, MAX_MATCHES, MAX_WATCHERS, RATE
from ttr_europe.web.lobby import MAX_CREATES

MOVE_RATE: float = getattr(hub, "MOVE_RATE", 1.0)  # a match's moves a second (older: none)

TARGET_MEDIAN_MS, TARGET_P99_MS = 100.0, 500.0


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _cpu_seconds(pid: int) -> float:
    """The processor time a process has used so far (Linux; NaN elsewhere)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return float("nan")
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _cpu_use(since: tuple[float, list[float]], pids: tuple[int, ...]) -> list[float]:
    """The processor seconds a second each process used since ``since`` (when, their times)."""
    spent = time.monotonic() - since[0]
    return [(_cpu_seconds(p) - before) / spent for p, before in zip(pids, since[1], strict=True)]


_ADDRESSES = iter(range(1 << 16))


def _own_address(block: int) -> dict[str, Any]:
    """``connect`` arguments for a connection from a loopback address of its own (127.block.x.y;
    ``block`` keeps the benchmark's processes apart)."""
    n = next(_ADDRESSES)
    return {"local_addr": (f"127.{block}.{n // 250}.{n % 250 + 1}", 0)}


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values) or [float("nan")]
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


async def _new_matches(url: str, count: int) -> list[str]:
    """``count`` matches, each dealt from a connection of its own (``new`` is rate limited)."""
    ids = []
    for _ in range(count):
        async with connect(url, max_size=None, **_own_address(1)) as ws:
            await ws.send(json.dumps({"type": "new"}))
            ids.append(json.loads(await ws.recv())["match"])
    return ids


async def _public_matches(url: str, count: int) -> None:
    """``count`` public matches with a free seat, for the lobby to list (a tab each)."""
    seats = [{"kind": "here"}, {"kind": "invite"}, {"kind": "greedy"}]
    for _ in range(count):
        async with connect(url, max_size=None, **_own_address(1)) as ws:
            await ws.send(json.dumps({"type": "create", "seats": seats}))
            assert json.loads(await ws.recv())["type"] == "created"


async def _load_tab(url: str, match: str, kind: str, until: float, stats: dict[str, int],
                    ready: asyncio.Event, joined: list[int], phase: float) -> None:  # fmt: skip
    interval = (1 + COSTS.get(kind, 0.0)) / RATE * 1.02
    message = json.dumps({"type": kind, "match": match} if kind == "join" else {"type": kind})
    reader: asyncio.Future[None] | None = None
    try:
        async with connect(url, max_size=None, ping_interval=None) as ws:
            await ws.send(json.dumps({"type": "join", "match": match}))
            reader = asyncio.ensure_future(_drain(ws, stats))
            joined[0] += 1
            await ready.wait()
            next_send = time.monotonic() + interval * (1 + phase)  # tabs are not in step
            while True:
                await asyncio.sleep(max(0.0, next_send - time.monotonic()))
                if time.monotonic() >= until:
                    break
                await ws.send(message)
                stats["sent"] += 1
                next_send += interval
    except (ConnectionClosed, InvalidHandshake, OSError):  # let go, or never let in
        stats["dropped"] += 1
    finally:
        if reader is not None:
            reader.cancel()
            await asyncio.gather(reader, return_exceptions=True)


async def _drain(ws: ClientConnection, stats: dict[str, int],
                 last: dict[str, Any] | None = None) -> None:  # fmt: skip
    """Read everything; count it; keep the latest update in ``last`` when given."""
    with contextlib.suppress(ConnectionClosed):
        async for frame in ws:
            stats["received"] += 1
            stats["bytes"] += len(frame)
            if '"too_fast"' in frame[:200]:
                stats["too_fast"] += 1
            if last is not None and frame.startswith('{"type": "update"'):
                last["moves"] = _moves_of(frame)  # not the whole 120 kB: this process is light
                stats["updates"] += 1


def _moves_of(frame: str) -> Any:
    """The ``moves`` of an update's text, read alone."""
    at = frame.find('"moves": ')
    return None if at < 0 else _DECODER.raw_decode(frame, at + len('"moves": '))[0]


_DECODER = json.JSONDecoder()


def _a_move(moves: dict[str, Any] | None) -> str:
    """The first legal move in an update's ``moves`` (a blind draw when it is not the seat's
    turn: refused, and cheap)."""
    if not moves:
        return "blind"
    if moves["keep"]:
        return str(moves["keep"][0]["action"])
    if moves["pay"]:
        return str(moves["pay"][0]["action"])
    if moves["draw"] and not moves["blind"]:
        return f"draw {moves['draw'][0] + 1}"
    for key, text in (("blind", "blind"), ("tickets", "tickets"), ("withdraw", "withdraw"),
                      ("pass", "pass")):  # fmt: skip
        if moves[key]:
            return text
    return "blind"


async def _mover(url: str, until: float, stats: dict[str, int], ready: asyncio.Event,
                 joined: list[int], phase: float, rate: float) -> None:  # fmt: skip
    """A tab at a match of its own, sending a move ``rate`` times a second."""
    interval = 1 / rate * 1.02
    reader: asyncio.Future[None] | None = None
    last: dict[str, Any] = {}
    try:
        async with connect(url, max_size=None, ping_interval=None, **_own_address(2)) as ws:
            await ws.send(json.dumps({"type": "new"}))
            created = json.loads(await ws.recv())
            await ws.send(json.dumps({"type": "join", "match": created["match"],
                                      "seat": created["seat"]}))  # fmt: skip
            reader = asyncio.ensure_future(_drain(ws, stats, last))
            joined[0] += 1
            await ready.wait()
            next_send = time.monotonic() + interval * (1 + phase)
            while True:
                await asyncio.sleep(max(0.0, next_send - time.monotonic()))
                if time.monotonic() >= until:
                    break
                await ws.send(json.dumps({"type": "act", "action": _a_move(last.get("moves"))}))
                stats["sent"] += 1
                next_send += interval
    except (ConnectionClosed, InvalidHandshake, OSError):
        stats["dropped"] += 1
    finally:
        if reader is not None:
            reader.cancel()
            await asyncio.gather(reader, return_exceptions=True)


async def _idle(url: str, stop: asyncio.Event, stats: dict[str, int], joined: list[int]) -> None:
    """A WebSocket that connects and says nothing."""
    try:
        async with connect(url, max_size=None, ping_interval=None):
            joined[0] += 1
            await stop.wait()
    except (ConnectionClosed, InvalidHandshake, OSError):
        stats["dropped"] += 1


async def _load(url: str, matches: list[str], connections: int, kind: str, seconds: float,
                go: Path, idle: int = 0, flood: bool = False) -> dict[str, int]:  # fmt: skip
    stats = {"sent": 0, "received": 0, "bytes": 0, "too_fast": 0, "dropped": 0, "updates": 0}
    ready, stop, joined = asyncio.Event(), asyncio.Event(), [0]
    until = time.monotonic() + seconds + 30
    tabs = []
    for _ in range(idle):
        tabs.append(asyncio.ensure_future(_idle(url, stop, stats, joined)))
    for i in range(connections):
        if kind == "move":
            tab = _mover(url, until, stats, ready, joined, i / connections,
                         RATE if flood else MOVE_RATE)  # fmt: skip
        else:
            tab = _load_tab(url, matches[i // MAX_WATCHERS], kind, until, stats, ready, joined,
                            i / connections)  # fmt: skip
        tabs.append(asyncio.ensure_future(tab))
        if kind == "move":
            await asyncio.sleep(1.1 * (1 + COSTS["new"]) / RATE / 50)  # deals, not all at once
    while joined[0] + stats["dropped"] < connections + idle:
        await asyncio.sleep(0.05)
    ready.set()
    go.write_text("ready")  # the probe starts now
    while not go.read_text().startswith("stop"):
        await asyncio.sleep(0.1)
    stop.set()
    for tab in tabs:
        tab.cancel()
    await asyncio.gather(*tabs, return_exceptions=True)
    return stats


async def _probe(url: str, seconds: float) -> tuple[list[float], list[float]]:
    pings: list[float] = []
    joins: list[float] = []
    # the page deals, then loads the match's page
    async with connect(url, max_size=None, **_own_address(3)) as ws:
        await ws.send(json.dumps({"type": "new"}))
        created = json.loads(await ws.recv())
    async with connect(url, max_size=None) as ws:
        join = json.dumps({"type": "join", "match": created["match"], "seat": created["seat"]})
        await ws.send(join)
        token = json.loads(await ws.recv())["token"]
        await ws.recv()
        join = json.dumps({"type": "join", "match": created["match"], "seat": created["seat"],
                           "token": token})  # fmt: skip
        end = time.monotonic() + seconds
        next_join = time.monotonic() + 10
        while time.monotonic() < end:
            started = time.perf_counter()
            await ws.send('{"type": "ping"}')
            assert json.loads(await ws.recv())["type"] == "pong"
            pings.append((time.perf_counter() - started) * 1000)
            if time.monotonic() >= next_join:
                started = time.perf_counter()
                await ws.send(join)
                assert json.loads(await ws.recv())["type"] == "joined"
                assert json.loads(await ws.recv())["type"] == "update"
                joins.append((time.perf_counter() - started) * 1000)
                next_join += 10
            await asyncio.sleep(0.1)
    return pings, joins


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--connections", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--kind", choices=("join", "ping", "move", "lobby"), default="join")
    parser.add_argument("--idle", type=int, default=0, help="idle WebSockets besides the load")
    parser.add_argument("--memory", action="store_true", help="--db :memory: (no file)")
    parser.add_argument(
        "--flood",
        action="store_true",
        help="--kind move: moves at the message rate, not the move rate",
    )
    parser.add_argument("--json", help="also write the figures to this file")
    parser.add_argument("--server-log", help="write the server's stderr to this file")
    parser.add_argument("--load-worker", nargs=2, help=argparse.SUPPRESS)  # url, go-file
    parser.add_argument("--matches", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.load_worker:
        url, go = args.load_worker
        stats = asyncio.run(_load(url, args.matches.split(","), args.connections, args.kind,
                                  args.seconds, Path(go), args.idle, args.flood))  # fmt: skip
        print(json.dumps(stats))
        return 0
    assert args.connections + args.idle < MAX_SOCKETS
    assert args.kind != "move" or args.connections < MAX_MATCHES - 2, "a match per connection"
    port = _free_port()
    url = f"ws://127.0.0.1:{port}/ws"
    with tempfile.TemporaryDirectory() as tmp:
        db, go = Path(tmp) / "load.db", Path(tmp) / "go"
        go.write_text("")
        log = open(args.server_log or os.devnull, "w")  # noqa: SIM115 (closed with the server)
        server = subprocess.Popen(
            [sys.executable, "-m", "ttr_europe", "serve", "--port", str(port), "--db",
             ":memory:" if args.memory else str(db),
             "--players", "2", "--seats", "person,greedy", "--seed", "1"],
            stdout=subprocess.DEVNULL, stderr=log, text=True,
        )  # fmt: skip
        load = None
        try:
            deadline = time.monotonic() + 30
            while True:
                try:
                    urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2).close()
                    break
                except OSError:
                    assert server.poll() is None and time.monotonic() < deadline, "no server"
                    time.sleep(0.1)
            count = 0 if args.kind == "move" else -(-args.connections // MAX_WATCHERS)
            matches = asyncio.run(_new_matches(url, count))
            if args.kind == "lobby":
                asyncio.run(_public_matches(url, MAX_CREATES))
            load = subprocess.Popen(
                [sys.executable, __file__, "--load-worker", url, str(go), "--matches",
                 ",".join(matches), "--connections", str(args.connections), "--kind", args.kind,
                 "--seconds", str(args.seconds), "--idle", str(args.idle)]
                + (["--flood"] if args.flood else []),
                stdout=subprocess.PIPE, text=True, env={**os.environ},
            )  # fmt: skip
            while go.read_text() != "ready":
                assert load.poll() is None, "the load process ended early"
                time.sleep(0.05)
            time.sleep(2)  # the load reaches its pace
            since = time.monotonic(), [_cpu_seconds(p) for p in (server.pid, load.pid)]
            pings, joins = asyncio.run(_probe(url, args.seconds))
            server_cpu, load_cpu = _cpu_use(since, (server.pid, load.pid))
            go.write_text("stop")
            out, _ = load.communicate(timeout=120)
            stats = json.loads(out.strip().splitlines()[-1])
        finally:
            for process in (load, server):
                if process is not None and process.poll() is None:
                    process.terminate()
                    process.wait(timeout=30)
        if not args.memory:  # what the database holds once the server stopped
            with contextlib.closing(sqlite3.connect(db)) as saved:
                stats["moves_saved"] = saved.execute("SELECT count(*) FROM moves").fetchone()[0]
    figures: dict[str, Any] = {
        "connections": args.connections,
        "idle": args.idle,
        "database": ":memory:" if args.memory else "file",
        "kind": args.kind + (" (flood)" if args.flood else ""),
        "seconds": args.seconds,
        "ping_ms": {"median": _percentile(pings, 0.5), "p99": _percentile(pings, 0.99),
                    "count": len(pings)},
        "join_ms": {"median": _percentile(joins, 0.5), "p99": _percentile(joins, 0.99),
                    "count": len(joins)},
        "load": stats,
        "server_cpu": server_cpu,  # processor seconds per second while the probe ran
        "load_cpu": load_cpu,  # the same of the load's own process
        "cpus": os.cpu_count(),
        "load_average": os.getloadavg()[0],
    }  # fmt: skip
    ok = (figures["ping_ms"]["median"] < TARGET_MEDIAN_MS
          and figures["ping_ms"]["p99"] < TARGET_P99_MS)  # fmt: skip
    print(f"{args.connections} connections sending {figures['kind']} at their allowed rate and "
          f"{args.idle} idle, {args.seconds:g} s, database {figures['database']}:")  # fmt: skip
    for name in ("ping_ms", "join_ms"):
        f = figures[name]
        print(f"  probe {name[:-3]:4} round trip: median {f['median']:.1f} ms, "
              f"p99 {f['p99']:.1f} ms ({f['count']} samples)")  # fmt: skip
    print(f"  load: sent {stats['sent']}, received {stats['received']} "
          f"({stats['bytes'] / 1e6:.0f} MB), too_fast {stats['too_fast']}, "
          f"dropped {stats['dropped']}")  # fmt: skip
    print(f"  server processor use {server_cpu:.0%} of one core, the load's process "
          f"{load_cpu:.0%}; load average {figures['load_average']:.1f} on "
          f"{os.cpu_count()} cores")  # fmt: skip
    if args.kind == "move":
        print(f"  moves: {stats['updates']} updates received, "
              f"{stats.get('moves_saved', '?')} moves in the database")  # fmt: skip
    print(f"  target (ping median < {TARGET_MEDIAN_MS:g} ms, p99 < {TARGET_P99_MS:g} ms): "
          f"{'met' if ok else 'NOT met'}")  # fmt: skip
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=2) + "\n")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
