"""Side-by-side throughput against another engine, in interleaved rounds.

Usage::

    python benchmarks/peers.py --edwisdom PATH          # or TTR_PEER_EDWISDOM=PATH
    python benchmarks/peers.py --edwisdom-rust PATH     # the compiled core against its Rust core
    python benchmarks/peers.py --baseline OLD/src       # this checkout against an older one
    python benchmarks/peers.py --quick --json out.json
    python benchmarks/peers.py                          # the compiled core alone, when built

``--edwisdom`` is a checkout of github.com/edwisdom/ticket_to_ride (USA map only; its engine
needs ``msgspec``). It is never copied into this repository: the path is only put on the
worker's ``sys.path``. ``--baseline`` is the ``src`` directory of another ttr_europe checkout
(for example ``git archive main src | tar -x -C /tmp/main``), to compare two versions of this
engine on any map.

When the compiled core (``ttr_europe.fast``) is built, it is put beside the Python engine too
(``--no-fast`` leaves it out): ``fast`` drives ``FastGame`` with the policy below (the same
games as ours), ``fast-playout`` plays each game whole in C with the core's own generator
(``FastGame.playout``; different games of the same kind, as search plays them).

Method (the same for every engine):

- at each decision the policy picks uniformly from the engine's own legal list,
  ``acts[rng.randrange(len(acts))]`` with ``rng = random.Random(seed)``, one stream per game;
- a timed game is setup, every action and one final score;
- each round runs in a fresh worker process (warm-up games first, seeds outside the timed set),
  which measures CPU time (``time.process_time``) and wall time around the timed games only;
- rounds alternate (ours, peer, ours, peer, ...) over the same seeds; figures are medians over
  rounds and the ratio is taken from the medians of the same run, so a machine shared with
  other work slows both sides alike;
- health: every game must finish under the step cap, with the same action counts every round.

``--edwisdom-rust PATH`` puts the compiled core beside the peer's Rust core
(``crates/ttr-core``), built offline from Debian's crate packages by ``edwisdom_rust.py`` in a
copy outside this repository, on the peer's own workload: USA, 2 players, uniformly random legal
moves, one thread, ``--rust-games`` games a round. Each engine plays with its own generator (the
Rust core ``vecenv::random_playouts``, its ``"bench"`` stream; ours ``FastGame.deal`` and
``FastGame.playout`` called from Python per game, as a user calls them), so the games are of the
same kind, not the same games. Two workloads, each timed twice a round: ``plain`` (deal and
every action, no final scoring, what the peer's ``ttr bench`` times) and ``scored`` (plus every
seat's final score: the peer's ``scoring::final_scores``, our ``FastGame.scores()``). The four
runs of a round alternate the engines and run in reverse order every other round; CPU time of
the timed games only, measured inside each process; medians over rounds; the run is healthy only
if each engine plays the same number of actions in every run.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import time
from typing import Any

STEP_CAP = 20_000
HERE = os.path.abspath(__file__)


# --------------------------------------------------------------------------- workers


def _play_ttr(map_id: str, players: int, seed: int) -> tuple[int, float]:
    import ttr_europe as t

    state = t.new_game(map_id, variant="base", players=players, seed=seed)
    rng = random.Random(seed)
    n = 0
    while not t.is_terminal(state):
        acts = t.legal_actions(state)
        state = t.apply(state, acts[rng.randrange(len(acts))])
        n += 1
        if n > STEP_CAP:
            raise RuntimeError(f"seed {seed}: over {STEP_CAP} actions")
    start = time.perf_counter()
    t.score(state)
    return n, time.perf_counter() - start


class _Edwisdom:
    def __init__(self, map_id: str, players: int) -> None:
        from ticket_to_ride.engine import Game, RuleConfig, score_breakdown

        # One Game per configuration, built once, as ttr_europe caches its map.
        self.game = Game(RuleConfig(map_name=map_id, n_players=players, track_history=False))
        self.score = score_breakdown

    def play(self, seed: int) -> tuple[int, float]:
        state = self.game.new_initial_state(seed)
        rng = random.Random(seed)
        n = 0
        while not state.is_terminal():
            acts = state.legal_actions()
            state.step(acts[rng.randrange(len(acts))])
            n += 1
            if n > STEP_CAP:
                raise RuntimeError(f"seed {seed}: over {STEP_CAP} actions")
        start = time.perf_counter()
        self.score(state)
        return n, time.perf_counter() - start


class _Fast:
    """The compiled core (``ttr_europe.fast``). ``whole``: each game is one ``playout`` in C,
    its policy drawing from the core's own generator (``fast.reference_playout`` replays it);
    otherwise the harness's policy picks from ``FastGame.legal_actions``, which lists the
    reference's actions in its order, so these are the very games ours plays."""

    def __init__(self, map_id: str, players: int, whole: bool) -> None:
        from ttr_europe import fast

        self.game = fast.new_game(map_id, players=players)
        self.whole = whole

    def play(self, seed: int) -> tuple[int, float]:
        game = self.game
        game.deal(seed)  # what new_game(map_id, players=players, seed=seed) deals
        if self.whole:
            n = game.playout(seed, STEP_CAP + 1)
        else:
            rng = random.Random(seed)
            n = 0
            while not game.is_terminal() and n <= STEP_CAP:
                acts = game.legal_actions()
                game.apply(acts[rng.randrange(len(acts))])
                n += 1
        if n > STEP_CAP:
            raise RuntimeError(f"seed {seed}: over {STEP_CAP} actions")
        start = time.perf_counter()
        game.scores()
        return n, time.perf_counter() - start


def bulk_worker(scored: bool, map_id: str, players: int, games: int, warm: int) -> dict[str, Any]:
    """The compiled core on the Rust peer's workload: per seed, ``deal`` and ``playout`` (the
    core's own random policy), with ``scored`` every seat's ``scores()``; one CPU time around
    the timed seeds 0..games-1 only, after ``warm`` games of other seeds."""
    import gc

    from ttr_europe import fast

    game = fast.new_game(map_id, players=players)

    def run(first: int, count: int) -> tuple[int, int]:
        steps = checksum = 0
        for seed in range(first, first + count):
            game.deal(seed)
            steps += game.playout(seed)
            if scored:
                checksum += sum(s.total for s in game.scores())
        return steps, checksum

    run(1 << 40, warm)
    gc.collect()
    cpu0, wall0 = time.process_time(), time.perf_counter()
    steps, checksum = run(0, games)
    cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
    return {"games": games, "steps": steps, "cpu": cpu, "wall": wall, "checksum": checksum}


def worker(engine: str, map_id: str, players: int, games: int, warm: int) -> dict[str, Any]:
    """Play ``warm`` untimed games, then ``games`` timed games with seeds 0..games-1."""
    if engine == "edwisdom":
        peer = _Edwisdom(map_id, players)
        play = peer.play
    elif engine in ("fast", "fast-playout"):
        play = _Fast(map_id, players, whole=engine == "fast-playout").play
    else:

        def play(seed: int) -> tuple[int, float]:
            return _play_ttr(map_id, players, seed)

    for seed in range(warm):
        play(100_000 + seed)
    import gc

    gc.collect()
    per_game: list[int] = []
    score_s = 0.0
    cpu0, wall0 = time.process_time(), time.perf_counter()
    for seed in range(games):
        n, s = play(seed)
        per_game.append(n)
        score_s += s
    cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
    return {"cpu": cpu, "wall": wall, "per_game": per_game, "score_s": score_s}


# --------------------------------------------------------------------------- driver


def _run_worker(engine: str, path: str | None, cfg: tuple[str, int], games: int, warm: int) -> Any:
    env = dict(os.environ)
    if path:
        env["PYTHONPATH"] = path + os.pathsep + env.get("PYTHONPATH", "")
    cmd = [sys.executable, HERE, "--worker", engine, cfg[0], str(cfg[1]), str(games), str(warm)]
    out = subprocess.run(cmd, env=env, capture_output=True, text=True, check=False)
    if out.returncode:
        raise SystemExit(f"{engine} worker failed:\n{out.stderr}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def _summary(rounds: list[dict[str, Any]]) -> dict[str, Any]:
    games = len(rounds[0]["per_game"])
    actions = sum(rounds[0]["per_game"])
    return {
        "games": games,
        "actions_per_game": actions / games,
        "games_per_cpu_s": statistics.median(games / r["cpu"] for r in rounds),
        "games_per_s": statistics.median(games / r["wall"] for r in rounds),
        "us_per_action_cpu": statistics.median(1e6 * r["cpu"] / actions for r in rounds),
        "score_share": statistics.median(r["score_s"] / r["wall"] for r in rounds),
        "same_games_every_round": all(r["per_game"] == rounds[0]["per_game"] for r in rounds),
    }


def compare(
    ours: str | None, peer: tuple[str, str], cfg: tuple[str, int], games: int, rounds: int
) -> dict[str, Any]:
    """Interleaved rounds of this engine and ``peer`` (engine name, path) on one config."""
    a: list[dict[str, Any]] = []
    b: list[dict[str, Any]] = []
    warm = max(2, games // 20)
    for r in range(rounds):
        a.append(_run_worker("ttr", ours, cfg, games, warm))
        b.append(_run_worker(peer[0], peer[1], cfg, games, warm))
        print(f"  {cfg[0]}/{cfg[1]} round {r}: ours {games / a[-1]['cpu']:.1f} games/CPU-s, "
              f"{peer[0]} {games / b[-1]['cpu']:.1f}", file=sys.stderr, flush=True)  # fmt: skip
    sa, sb = _summary(a), _summary(b)
    return {
        "config": f"{cfg[0]}/{cfg[1]}",
        "peer": peer[0],
        "ours": sa,
        "theirs": sb,
        "ratio_games_per_cpu_s": sa["games_per_cpu_s"] / sb["games_per_cpu_s"],
        "round_ratios": [round(y["cpu"] / x["cpu"], 3) for x, y in zip(a, b, strict=True)],
        "loadavg": os.getloadavg(),
    }


RUST_TARGETS = {"plain": 1.5, "scored": 2.5}  # ours over the Rust core, games per CPU-second
RUST_ENGINES = {  # name in the results: what the table calls it
    "ttr_europe": "ttr_europe.fast (C loop)",
    "ttr_europe-py": "ttr_europe.fast (from Python)",
    "rust": "edwisdom ttr-core (Rust loop)",
}


def core_info(map_id: str, players: int, rules_file: str) -> dict[str, Any]:
    """What ``core_driver.c`` needs of the compiled core: its library, the rules it reads
    (written to ``rules_file``) and the shape of ``fg_score``'s output."""
    from ttr_europe import fast

    game = fast.new_game(map_id, players=players)
    with open(rules_file, "w", encoding="utf-8") as f:
        f.write(" ".join(map(str, fast._rules_array(game.rules))) + "\n")
    fields = fast.SeatScore._fields
    return {"lib": fast.loaded_library(), "fields": len(fields), "total": fields.index("total")}


def _run_json(cmd: list[str], env: dict[str, str], cpu: int | None) -> Any:
    """Run one timed process (pinned to ``cpu`` when given); its last line is JSON."""

    def pin() -> None:
        if cpu is not None:
            os.sched_setaffinity(0, {cpu})

    out = subprocess.run(cmd, env=env, capture_output=True, text=True, check=False,
                         preexec_fn=pin)  # fmt: skip
    if out.returncode:
        raise SystemExit(f"{cmd[0]} failed:\n{out.stderr}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def build_core_driver(work: str) -> str:
    """Compile ``core_driver.c`` (beside this script) into ``work``; return its path."""
    source = os.path.join(os.path.dirname(HERE), "core_driver.c")
    target = os.path.join(work, "core_driver")
    os.makedirs(work, exist_ok=True)
    cc = os.environ.get("CC", "cc")
    subprocess.run([cc, "-std=c11", "-O2", "-o", target, source, "-ldl"], check=True)
    return target


def rust_compare(
    ours: str | None,
    drivers: dict[str, str],
    games: int,
    rounds: int,
    work: str,
    cpu: int | None = None,
) -> dict[str, Any]:
    """Interleaved rounds of the compiled core (``drivers["ttr_europe"]``, core_driver.c, and
    from Python) and the Rust core (``drivers["rust"]``, edwisdom_rust.py) on USA, 2 players,
    without and with final scoring."""
    env = dict(os.environ)
    if ours:
        env["PYTHONPATH"] = ours + os.pathsep + env.get("PYTHONPATH", "")
    warm = max(200, games // 20)
    rules = os.path.join(work, "usa2_rules.txt")
    info = _run_json([sys.executable, HERE, "--core-info", "usa", "2", rules], env, None)

    def run(engine: str, mode: str) -> dict[str, Any]:
        tail = [mode, str(games), str(warm)]
        if engine == "rust":
            cmd = [drivers["rust"], *tail]
        elif engine == "ttr_europe":
            cmd = [drivers["ttr_europe"], info["lib"], rules, str(info["fields"]),
                   str(info["total"]), *tail]  # fmt: skip
        else:
            cmd = [sys.executable, HERE, "--bulk-worker", mode, "usa", "2", str(games), str(warm)]
        return _run_json(cmd, env, cpu)  # type: ignore[no-any-return]

    plan = [(e, m) for m in RUST_TARGETS for e in RUST_ENGINES]
    for engine, mode in plan:  # one untimed round: the processor up to speed, files cached
        run(engine, mode)
    runs: dict[tuple[str, str], list[dict[str, Any]]] = {key: [] for key in plan}
    for r in range(rounds):
        for engine, mode in plan if r % 2 == 0 else plan[::-1]:
            runs[engine, mode].append(run(engine, mode))
        line = ", ".join(f"{e} {m} {games / runs[e, m][-1]['cpu']:.0f}" for e, m in plan)
        print(f"  usa/2 round {r}: games/CPU-s {line}", file=sys.stderr, flush=True)
    rows = {}
    for (engine, mode), rs in runs.items():
        steps = rs[0]["steps"]
        rates = [games / x["cpu"] for x in rs]
        rows[f"{engine}/{mode}"] = {
            "engine": engine,
            "mode": mode,
            "games": games,
            "rounds": len(rs),
            "steps": steps,
            "checksum": rs[0]["checksum"],
            "actions_per_game": steps / games,
            "games_per_cpu_s": statistics.median(rates),
            "games_per_cpu_s_min": min(rates),
            "games_per_cpu_s_max": max(rates),
            "games_per_s": statistics.median(games / x["wall"] for x in rs),
            "us_per_action_cpu": statistics.median(1e6 * x["cpu"] / steps for x in rs),
            "same_games_every_round": all(
                x["steps"] == steps and x["checksum"] == rs[0]["checksum"] for x in rs
            ),
            "deferred": max(x.get("deferred", 0) for x in rs),
        }
    ratios = {
        f"{ours_}/{mode}": rows[f"{ours_}/{mode}"]["games_per_cpu_s"]
        / rows[f"rust/{mode}"]["games_per_cpu_s"]
        for mode in RUST_TARGETS
        for ours_ in ("ttr_europe", "ttr_europe-py")
    }
    checks = {
        "every run of an engine plays the same games": all(
            row["same_games_every_round"] for row in rows.values()
        ),
        "each engine plays the same games with and without scoring": all(
            rows[f"{e}/plain"]["steps"] == rows[f"{e}/scored"]["steps"] for e in RUST_ENGINES
        ),
        "the C loop plays and scores the very games FastGame does": all(
            rows[f"ttr_europe/{m}"]["steps"] == rows[f"ttr_europe-py/{m}"]["steps"]
            and rows[f"ttr_europe/{m}"]["checksum"] == rows[f"ttr_europe-py/{m}"]["checksum"]
            for m in RUST_TARGETS
        ),
        "no game's longest trail is left to Python": rows["ttr_europe/scored"]["deferred"] == 0,
    }
    return {
        "config": "usa/2",
        "rows": rows,
        "ratios": ratios,
        "checks": checks,
        "healthy": all(checks.values()),
        "round_ratios": {
            mode: [
                round(y["cpu"] / x["cpu"], 3)
                for x, y in zip(runs["ttr_europe", mode], runs["rust", mode], strict=True)
            ]
            for mode in RUST_TARGETS
        },
        "loadavg": os.getloadavg(),
        "pinned_cpu": cpu,
    }


def rust_table(res: dict[str, Any]) -> str:
    """The Rust comparison as a Markdown table: each workload, the engines, ratios, targets."""
    lines = [
        "| workload | engine | games/CPU-s | (min-max) | µs/action (CPU) | actions/game | "
        "over Rust |",
        "|---|---|---:|---:|---:|---:|---:|",
    ]
    what = {"plain": "no final scoring", "scored": "with final scoring"}
    for mode, target in RUST_TARGETS.items():
        for engine, name in RUST_ENGINES.items():
            row = res["rows"][f"{engine}/{mode}"]
            ratio = ""
            if engine != "rust":
                got = res["ratios"][f"{engine}/{mode}"]
                ratio = f"{got:.2f}×"
                if engine == "ttr_europe":
                    verdict = "met" if got >= target else "MISSED"
                    ratio = f"**{ratio}** (target ≥ {target}×: {verdict})"
            lines.append(
                f"| {what[mode]} | {name} | {row['games_per_cpu_s']:.0f} | "
                f"{row['games_per_cpu_s_min']:.0f}-{row['games_per_cpu_s_max']:.0f} | "
                f"{row['us_per_action_cpu']:.3f} | {row['actions_per_game']:.1f} | {ratio} |"
            )
    return "\n".join(lines)


def table(results: list[dict[str, Any]]) -> str:
    lines = [
        "| config | engine | games/CPU-s | µs/action (CPU) | actions/game | score share | ratio |",
        "|---|---|---:|---:|---:|---:|---:|",
    ]
    for res in results:
        for who, s in (("ttr_europe", res["ours"]), (res["peer"], res["theirs"])):
            ratio = f"**{res['ratio_games_per_cpu_s']:.2f}×**" if who == "ttr_europe" else ""
            lines.append(
                f"| {res['config']} | {who} | {s['games_per_cpu_s']:.1f} | "
                f"{s['us_per_action_cpu']:.2f} | {s['actions_per_game']:.1f} | "
                f"{100 * s['score_share']:.0f} % | {ratio} |"
            )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--edwisdom", default=os.environ.get("TTR_PEER_EDWISDOM"),
                    help="checkout of edwisdom/ticket_to_ride (env TTR_PEER_EDWISDOM)")  # fmt: skip
    ap.add_argument("--baseline", default=os.environ.get("TTR_BASELINE_SRC"),
                    help="src of another ttr_europe checkout (env TTR_BASELINE_SRC)")  # fmt: skip
    ap.add_argument("--edwisdom-rust", default=os.environ.get("TTR_PEER_EDWISDOM_RUST"),
                    help="checkout of edwisdom/ticket_to_ride whose Rust core to build and run "
                    "beside the compiled core (env TTR_PEER_EDWISDOM_RUST)")  # fmt: skip
    ap.add_argument("--rust-work", default=None,
                    help="where edwisdom_rust.py builds (default: a temporary folder)")  # fmt: skip
    ap.add_argument("--rust-games", type=int, default=10_000, help="games per Rust round")
    ap.add_argument("--cpu", type=int, default=None, help="pin every timed process to this CPU")
    ap.add_argument("--ours", default=None, help="src directory of ours (default: importable)")
    ap.add_argument("--fast", action=argparse.BooleanOptionalAction, default=None,
                    help="the compiled core too (default: when it is built)")  # fmt: skip
    ap.add_argument("--configs", default=None, help="e.g. usa/2,usa/4 (default: all that apply)")
    ap.add_argument("--games", type=int, default=300, help="timed games per round")
    ap.add_argument("--rounds", type=int, default=5, help="rounds per engine (odd: a median)")
    ap.add_argument("--quick", action="store_true", help="a smoke run: 20 games, 1 round")
    ap.add_argument("--json", metavar="FILE", help="also write the results as JSON")
    args = ap.parse_args(argv)
    if args.edwisdom_rust:
        return _main_rust(args)
    fast = _fast_built(args.ours) if args.fast is None else args.fast
    if not args.edwisdom and not args.baseline and not fast:
        ap.error("give --edwisdom PATH and/or --baseline PATH (or their environment variables), "
                 "or build the compiled core (python -m ttr_europe.fast.build)")  # fmt: skip
    games, rounds = (20, 1) if args.quick else (args.games, args.rounds)
    plan: list[tuple[tuple[str, str], tuple[str, int]]] = []
    if args.edwisdom:
        edw = os.path.abspath(args.edwisdom)
        wanted = args.configs or "usa/2,usa/4"
        plan += [(("edwisdom", edw), _cfg(c)) for c in wanted.split(",") if c.startswith("usa")]
    if args.baseline:
        base = os.path.abspath(args.baseline)
        wanted = args.configs or "europe/2,usa/2"
        plan += [(("baseline", base), _cfg(c)) for c in wanted.split(",")]
    if fast:
        wanted = args.configs or "europe/2,usa/2"
        ours = args.ours or ""
        plan += [((engine, ours), _cfg(c)) for c in wanted.split(",")
                 for engine in ("fast", "fast-playout")]  # fmt: skip
    results = []
    for peer, cfg in plan:
        print(f"[{cfg[0]}/{cfg[1]}] ours vs {peer[0]}: {rounds} x {games} games",
              file=sys.stderr, flush=True)  # fmt: skip
        results.append(compare(args.ours, peer, cfg, games, rounds))
    print(f"CPython {platform.python_version()}, {os.cpu_count()} cores, "
          f"medians of {rounds} interleaved round(s) of {games} games\n")  # fmt: skip
    print(table(results))
    healthy = "same_games_every_round"
    bad = [r["config"] for r in results if not (r["ours"][healthy] and r["theirs"][healthy])]
    if bad:
        print(f"\nunhealthy: action counts changed between rounds in {', '.join(bad)}")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump({"started": time.strftime("%Y-%m-%d %H:%M:%S"), "results": results}, f,
                      indent=1)  # fmt: skip
    return 1 if bad else 0


def _main_rust(args: argparse.Namespace) -> int:
    """``--edwisdom-rust``: build the peer's Rust core and our C loop, then the interleaved run."""
    if not _fast_built(args.ours):
        raise SystemExit("the compiled core is not built: python -m ttr_europe.fast.build")
    sys.path.insert(0, os.path.dirname(HERE))
    import edwisdom_rust

    work = os.path.abspath(args.rust_work or edwisdom_rust.default_work())
    drivers = {
        "rust": str(edwisdom_rust.build(args.edwisdom_rust, work)),
        "ttr_europe": build_core_driver(work),
    }
    games, rounds = (500, 1) if args.quick else (args.rust_games, args.rounds)
    print(f"[usa/2] compiled core vs edwisdom's Rust core: {rounds} x {games} games",
          file=sys.stderr, flush=True)  # fmt: skip
    res = rust_compare(args.ours, drivers, games, rounds, work, args.cpu)
    pinned = f", every timed process pinned to CPU {args.cpu}" if args.cpu is not None else ""
    print(f"CPython {platform.python_version()}, {os.cpu_count()} cores{pinned}; medians of "
          f"{rounds} interleaved round(s) of {games} games, CPU time\n")  # fmt: skip
    print(rust_table(res))
    print()
    for check, ok in res["checks"].items():
        print(f"check: {check}: {'ok' if ok else 'FAILED'}")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump({"started": time.strftime("%Y-%m-%d %H:%M:%S"), "rust": res}, f, indent=1)
    return 0 if res["healthy"] else 1


def _fast_built(ours: str | None) -> bool:
    """Whether the compiled core of ``ours`` (or the importable one) is built."""
    code = "from ttr_europe import fast; raise SystemExit(0 if fast.available() else 1)"
    env = dict(os.environ)
    if ours:
        env["PYTHONPATH"] = ours + os.pathsep + env.get("PYTHONPATH", "")
    return subprocess.run([sys.executable, "-c", code], env=env, check=False).returncode == 0


def _cfg(text: str) -> tuple[str, int]:
    map_id, _, players = text.partition("/")
    return map_id, int(players)


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--worker":
        engine, map_id, players, games, warm = sys.argv[2:7]
        print(json.dumps(worker(engine, map_id, int(players), int(games), int(warm))))
        sys.exit(0)
    if len(sys.argv) > 1 and sys.argv[1] == "--core-info":
        map_id, players, rules_file = sys.argv[2:5]
        print(json.dumps(core_info(map_id, int(players), rules_file)))
        sys.exit(0)
    if len(sys.argv) > 1 and sys.argv[1] == "--bulk-worker":
        mode, map_id, players, games, warm = sys.argv[2:7]
        res = bulk_worker(mode == "scored", map_id, int(players), int(games), int(warm))
        print(json.dumps(res))
        sys.exit(0)
    sys.exit(main())
