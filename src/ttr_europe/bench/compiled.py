"""The two engines side by side: the same seeded random games, played whole by each.

For each configuration both engines play uniformly random games from the same seeds with the
same choices (``FastGame.playout`` in C, ``reference_playout`` on the pure-Python engine), in
interleaved rounds; CPU time, medians over rounds. ``ttr-europe bench`` adds this section when
the core is built; ``python -m ttr_europe.bench.compiled`` runs it alone.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable
from functools import partial
from typing import Any

from ..fast import new_game as fast_new_game
from ..fast import reference_playout
from ..rules import new_game
from ..scoring import score

CONFIGS: tuple[tuple[str, int], ...] = (("europe", 2), ("usa", 2), ("europe", 4))
TARGET_RATIO = 30.0  # compiled over pure-Python games per CPU-second (issue 22)
SCORE_TARGET_US = 20.0  # FastGame.scores of a finished Europe 4-player game, median
BATCH_TARGET = 300_000.0  # batch steps per CPU-second, Europe 2 players, observation and mask
FAST_FACTOR = 20  # the compiled side plays this many times more games per round


def _python_round(map_id: str, players: int, games: int) -> tuple[float, int]:
    start = time.process_time()
    actions = sum(
        reference_playout(new_game(map_id, players=players, seed=seed), seed)[1]
        for seed in range(games)
    )
    return time.process_time() - start, actions


def _fast_round(map_id: str, players: int, games: int) -> tuple[float, int]:
    start = time.process_time()
    game = fast_new_game(map_id, players=players)
    actions = 0
    for seed in range(games):
        game.deal(seed)  # what new_game(map_id, players=players, seed=seed) deals
        actions += game.playout(seed)
    return time.process_time() - start, actions


def side_by_side(games: int = 50, rounds: int = 3) -> dict[str, dict[str, float]]:
    """Games per CPU-second of each engine and their ratio, per configuration."""
    out: dict[str, dict[str, float]] = {}
    for map_id, players in CONFIGS:
        _python_round(map_id, players, 1)  # warm-up: imports, caches
        _fast_round(map_id, players, 1)
        py: list[float] = []
        fast: list[float] = []
        actions = fast_actions = 0.0
        for _ in range(rounds):
            gc.collect()
            elapsed, n = _python_round(map_id, players, games)
            py.append(games / elapsed)
            elapsed, n_fast = _fast_round(map_id, players, games * FAST_FACTOR)
            fast.append(games * FAST_FACTOR / elapsed)
            actions, fast_actions = n / games, n_fast / (games * FAST_FACTOR)
        py.sort()
        fast.sort()
        python_rate, fast_rate = py[len(py) // 2], fast[len(fast) // 2]
        out[f"{map_id}/{players}"] = {
            "python_games_per_s": python_rate,
            "fast_games_per_s": fast_rate,
            "ratio": fast_rate / python_rate,
            "actions_per_game": actions,
            "fast_us_per_action": 1e6 / (fast_rate * fast_actions),
        }
    return out


def score_timing(games: int = 20, repeat: int = 20) -> dict[str, float]:
    """Median CPU time of final scoring of finished random Europe 4-player games: the whole
    ``scoring.score`` against ``FastGame.scores`` (the same figures, without the breakdown)."""
    finals = []
    for seed in range(games):
        game = fast_new_game("europe", players=4, seed=seed)
        game.playout(seed)
        finals.append(game)
    states = [game.to_state() for game in finals]
    score(states[0])  # the first call imports networkx
    python, compiled = [], []
    for game, state in zip(finals, states, strict=True):
        start = time.process_time()
        score(state)
        python.append(time.process_time() - start)
        start = time.process_time()
        for _ in range(repeat):
            game.scores()
        compiled.append((time.process_time() - start) / repeat)
    python.sort()
    compiled.sort()
    return {
        "python_median_us": 1e6 * python[len(python) // 2],
        "fast_median_us": 1e6 * compiled[len(compiled) // 2],
    }


def greedy_timing(games: int = 20, rounds: int = 3) -> dict[str, float]:
    """Whole Europe 2-player games of ``players.mcts.Playout``'s greedy policy, deal included: the
    Python ``Playout.finish`` against ``FastGame.greedy_playout`` (the same games); games per
    CPU-second, medians of ``rounds``."""
    from ..players.mcts import Playout

    python, compiled = [], []
    game = fast_new_game("europe", players=2)
    for _ in range(rounds):
        start = time.process_time()
        for seed in range(games):
            state = new_game("europe", players=2, seed=seed)
            Playout(state.rules.map).finish(state)
        python.append(games / (time.process_time() - start))
        start = time.process_time()
        for seed in range(games * FAST_FACTOR):
            game.deal(seed)
            game.greedy_playout()
        compiled.append(games * FAST_FACTOR / (time.process_time() - start))
    python.sort()
    compiled.sort()
    return {
        "python_games_per_s": python[len(python) // 2],
        "fast_games_per_s": compiled[len(compiled) // 2],
    }


def format_greedy(figures: dict[str, float]) -> list[str]:
    ratio = figures["fast_games_per_s"] / figures["python_games_per_s"]
    return [
        f"greedy playouts (players.mcts.Playout), Europe 2 players: python "
        f"{figures['python_games_per_s']:.0f} games/s, fast {figures['fast_games_per_s']:.0f} "
        f"games/s ({ratio:.0f}x)"
    ]


FORMS = ("batch", "vector", "parallel")
"""What ``batch_rate`` steps: ``BatchGames``, the Gymnasium vector environment over it, or the
PettingZoo parallel batch over it."""


def batch_rate(
    games: int = 256, steps: int = 200, rounds: int = 3, *, form: str = "batch"
) -> dict[str, float]:
    """Steps per CPU-second on Europe 2 players of ``BatchGames`` (applying the codes, the next
    observations and masks, returns and fresh deals), or of an environment over it: ``vector``,
    the Gymnasium vector environment (``envs.vector_env``: copies, rewards and infos too);
    ``parallel``, the PettingZoo parallel batch (``envs.parallel_vec_env``: every agent's
    observation and mask, copies, rewards and infos). Each game's code is drawn uniformly among
    its legal ones by numpy outside the timed calls (the policy is not the stepper's time). The
    median of ``rounds`` rounds; without numpy (or gymnasium and pettingzoo for an
    environment): an empty result."""
    if form not in FORMS:
        raise ValueError(f"form must be one of {', '.join(FORMS)}, not {form!r}")
    try:
        import numpy as np

        from ..envs.batch import BatchGames

        if form == "vector":
            from ..envs.vector_env import TicketToRideVectorEnv
        if form == "parallel":
            from ..envs.parallel_vec_env import TicketToRideParallelVecEnv
    except ImportError:
        return {}
    rates = []
    step: Callable[[Any], object]
    for r in range(rounds):
        if form == "vector":
            vector = TicketToRideVectorEnv(games, "europe", players=2)
            vector.reset(seed=r * games)
            batch, step = vector.batch, vector.step
        elif form == "parallel":
            parallel = TicketToRideParallelVecEnv(games, "europe", players=2)
            parallel.reset(seed=r * games)
            batch, step = parallel.batch, partial(_every_agent_plays, parallel)
        else:
            batch = BatchGames(games, "europe", players=2, seed=r * games)
            step = batch.step
        rng = np.random.default_rng(r)
        spent = 0.0
        for _ in range(steps):
            noise = rng.random(batch.masks.shape, dtype=np.float32)
            codes = np.argmax(np.where(batch.masks, noise, -1.0), axis=1)
            start = time.process_time()
            step(codes)
            spent += time.process_time() - start
        rates.append(games * steps / spent)
    rates.sort()
    return {"games": float(games), "steps_per_s": rates[len(rates) // 2]}


def _every_agent_plays(env: Any, codes: Any) -> object:
    """A parallel batch's step with the same codes for every agent (only the acting one's
    are read)."""
    return env.step(dict.fromkeys(env.possible_agents, codes))


def format_batch(figures: dict[str, float], form: str = "batch") -> list[str]:
    if not figures:
        what = "numpy" if form == "batch" else "gymnasium or pettingzoo"
        return [f"{form} stepping: not measured ({what}, the rl extra, is not installed)"]
    rate = f"{figures['steps_per_s']:,.0f} steps per CPU-second"
    games = f"Europe 2 players, {figures['games']:.0f} games"
    if form == "vector":
        return [f"Gymnasium vector env (envs.vector_env), {games}: {rate}"]
    if form == "parallel":
        return [f"PettingZoo parallel batch (envs.parallel_vec_env), {games}: {rate}"]
    met = "met" if figures["steps_per_s"] >= BATCH_TARGET else "MISSED"
    return [
        f"batch stepper, {games}, observation and mask: {rate}; target >= {BATCH_TARGET:,.0f} {met}"
    ]


def format_section(figures: dict[str, dict[str, float]]) -> list[str]:
    lines = [
        "",
        "compiled core (ttr_europe.fast) against the pure-Python engine, the same random games:",
        f"{'config':<10} {'python g/s':>10} {'fast g/s':>10} {'ratio':>7} {'us/action':>10}"
        "  target",
    ]
    for key, f in figures.items():
        note = ""
        if key in ("europe/2", "usa/2"):
            met = "met" if f["ratio"] >= TARGET_RATIO else "MISSED"
            note = f">= {TARGET_RATIO:.0f}x {met}"
        lines.append(
            f"{key:<10} {f['python_games_per_s']:>10.1f} {f['fast_games_per_s']:>10.0f} "
            f"{f['ratio']:>6.1f}x {f['fast_us_per_action']:>10.2f}  {note}".rstrip()
        )
    return lines


def format_score(figures: dict[str, float]) -> list[str]:
    met = "met" if figures["fast_median_us"] <= SCORE_TARGET_US else "MISSED"
    return [
        f"final scoring, finished Europe 4-player games (median): scoring.score "
        f"{figures['python_median_us']:.0f} us, FastGame.scores {figures['fast_median_us']:.1f} "
        f"us; target <= {SCORE_TARGET_US:.0f} us {met}"
    ]


def verdicts(figures: dict[str, dict[str, float]]) -> list[tuple[str, bool]]:
    return [
        (f"compiled {key}", figures[key]["ratio"] >= TARGET_RATIO)
        for key in ("europe/2", "usa/2")
        if key in figures
    ]


def main() -> int:
    from ..fast import available

    if not available():
        print("the compiled core is not built: python -m ttr_europe.fast.build")
        return 1
    lines = format_section(side_by_side()) + format_greedy(greedy_timing())
    lines += format_score(score_timing())
    for form in FORMS:
        figures = batch_rate(form=form)
        if figures or form == "batch":
            lines += format_batch(figures, form)
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
