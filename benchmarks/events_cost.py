"""What a move with its events costs against a bare ``apply``:
``python benchmarks/events_cost.py [--games N] [--rounds N]``.

Random Europe games (2 and 4 players) are played once; then every transition is timed with
``apply`` (and ``score`` of the final state, which any game's end needs and the ``game_over``
event carries), with ``apply_with_events`` (what a ``Match`` move runs) and, for comparison, with
``apply`` followed by ``events_between``. The figures are CPU µs per action, the median over the
rounds; the target is ``apply_with_events`` within 15 % of ``apply`` (docs/performance.md).

Then whole games as a server plays them: random bots in a ``Match`` (each move
``apply_with_events``, its events logged) against the same games through ``bots.play`` (each
move a bare ``apply``), final score included; CPU ms per game, the median over the rounds.
"""

from __future__ import annotations

import argparse
import gc
import random
import statistics
import sys
import time
from collections.abc import Callable

from ttr_europe.actions import Action
from ttr_europe.players import RandomBot, play
from ttr_europe.rules import (
    apply,
    apply_with_events,
    events_between,
    is_terminal,
    legal_actions,
    new_game,
)
from ttr_europe.scoring import score
from ttr_europe.state import GameState
from ttr_europe.table.match import Match

TARGET = 1.15


def transitions(games: int) -> list[tuple[GameState, Action]]:
    """Every (state, action) of ``games`` uniformly random games on Europe, 2 and 4 players."""
    out: list[tuple[GameState, Action]] = []
    for seed in range(games):
        state = new_game("europe", players=2 + 2 * (seed % 2), seed=seed)
        rng = random.Random(seed)
        while not is_terminal(state):
            options = legal_actions(state)
            action = options[rng.randrange(len(options))]
            out.append((state, action))
            state = apply(state, action)
    return out


def per_action(moves: list[tuple[GameState, Action]], step: Callable[..., object]) -> float:
    """CPU µs per action of ``step(state, action)`` over every move."""
    gc.collect()
    start = time.process_time()
    for state, action in moves:
        step(state, action)
    return 1e6 * (time.process_time() - start) / len(moves)


def _apply_and_score(state: GameState, action: Action) -> object:
    after = apply(state, action)
    return score(after) if is_terminal(after) else after


def _apply_then_events(state: GameState, action: Action) -> object:
    return events_between(state, action, apply(state, action))


def _match_game(seed: int) -> object:
    match = Match.new(
        "europe", "base", 2 + 2 * (seed % 2), seed, seats=["random"] * (2 + 2 * (seed % 2))
    )
    match.advance()
    return match.scoreboard()


def _played_game(seed: int) -> object:
    players = 2 + 2 * (seed % 2)
    start = new_game("europe", "base", players, seed)
    return score(play(start, [RandomBot()] * players, seed=seed)[-1])


def per_game(games: int, run: Callable[[int], object]) -> float:
    """CPU ms per game of ``run(seed)`` over ``games`` seeds."""
    gc.collect()
    start = time.process_time()
    for seed in range(games):
        run(seed)
    return 1e3 * (time.process_time() - start) / games


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args(argv)
    moves = transitions(args.games)
    steps: dict[str, Callable[..., object]] = {
        "apply": _apply_and_score,
        "apply_with_events": apply_with_events,
        "apply + events_between": _apply_then_events,
    }
    times: dict[str, list[float]] = {name: [] for name in steps}
    for _ in range(args.rounds):
        for name, step in steps.items():
            times[name].append(per_action(moves, step))
    base = statistics.median(times["apply"])
    print(f"{len(moves)} actions, median of {args.rounds} rounds (CPU µs per action)")
    for name, samples in times.items():
        median = statistics.median(samples)
        print(f"  {name:<24} {median:7.2f} µs   {median / base:5.2f}x apply")
    ratio = statistics.median(times["apply_with_events"]) / base
    verdict = "met" if ratio <= TARGET else "MISSED"
    print(f"target: apply_with_events <= {TARGET:.2f}x apply: {verdict}")
    games: dict[str, list[float]] = {"bots.play (apply)": [], "Match (apply_with_events)": []}
    for _ in range(args.rounds):
        games["bots.play (apply)"].append(per_game(args.games // 4, _played_game))
        games["Match (apply_with_events)"].append(per_game(args.games // 4, _match_game))
    base = statistics.median(games["bots.play (apply)"])
    print(f"whole games of random bots, {args.games // 4} games (CPU ms per game)")
    for name, samples in games.items():
        median = statistics.median(samples)
        print(f"  {name:<26} {median:7.2f} ms   {median / base:5.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
