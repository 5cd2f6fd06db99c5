"""The long differential run of the compiled core against the pure-Python engine.

    python scripts/fast_differential.py --games 100000

Game ``k`` is fixed by its seed: the map, variant, player count and option switches follow from
it, the deal is ``new_game(..., seed=k)`` and the play is uniformly random with the choices of
``fast.reference_playout(state, k)``. Each game is played whole by both engines and must end in
equal states with equal scores (every figure of ``FastGame.scores`` against ``scoring.score``,
and ``FastGame.outcome`` against ``scoring.outcome``). A failure is reproduced with
``--seed K --games 1``. Exits 1 on any difference, 2 when the core is not built.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from typing import Any

from ttr_europe import fast
from ttr_europe.maps import available_maps, load_map
from ttr_europe.rules import new_game
from ttr_europe.scoring import outcome, score

OPTIONS: tuple[dict[str, Any], ...] = (
    {},
    {"reset_cap": 0},
    {"reset_cap": 1, "second_card_optional": True},
    {"second_card_optional": True, "tiebreak_path_length": True},
    {"bonus_at_zero": True, "reset_cap": 2},
    {"max_long_kept": 1},
)


def setups() -> list[tuple[str, str, int]]:
    out = []
    for map_id in available_maps():
        board = load_map(map_id)
        for variant, v in board.variants.items():
            out += [(map_id, variant, n) for n in range(v.min_players, v.max_players + 1)]
    return out


def check_game(seed: int, table: Sequence[tuple[str, str, int]]) -> str | None:
    """Play game ``seed`` with both engines; what differs, or ``None``."""
    map_id, variant, players = table[seed % len(table)]
    options = dict(OPTIONS[seed // len(table) % len(OPTIONS)])
    if "max_long_kept" in options and variant != "mega":
        del options["max_long_kept"]
    start = new_game(map_id, variant, players, seed, **options)
    expected, steps = fast.reference_playout(start, seed)
    game = fast.new_game(map_id, variant, players, seed, **options)
    where = f"seed {seed} ({map_id}/{variant}/{players}, {options})"
    if game.playout(seed) != steps:
        return f"{where}: a different number of actions"
    if game.to_state() != expected:
        return f"{where}: different final states"
    figures = tuple(fast.SeatScore.of(p) for p in score(expected).players)
    if game.scores() != figures or game.outcome() != outcome(expected):
        return f"{where}: different scores"
    return None


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[1])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0, help="the first game's seed")
    args = parser.parse_args(argv)
    if not fast.available():
        print("the compiled core is not built: python -m ttr_europe.fast.build")
        return 2
    table = setups()
    started = time.process_time()
    failures = 0
    for seed in range(args.seed, args.seed + args.games):
        problem = check_game(seed, table)
        if problem is not None:
            failures += 1
            print(problem)
    seconds = time.process_time() - started
    print(f"{args.games} games over {len(table)} setups x {len(OPTIONS)} option sets: "
          f"{failures} differing; {seconds:.0f} CPU seconds")  # fmt: skip
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
