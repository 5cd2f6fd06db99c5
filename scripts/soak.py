"""Soak test: random full games on every map, variant and player count, checked at every step.

    python scripts/soak.py --games 2000 --seconds 600

Each game is fixed by its seed (the map, variant, player count, options and the random play all
follow from it), so a failure is reproduced with ``--seed N --games 1``. After every action the
script checks the invariants (``ttr_europe.invariants``), that ``legal_actions`` agrees with
``is_legal`` and ``apply``, and that an unlisted action raises and leaves the state as it was
(``ttr_europe.testing.play``); at the end of each game it
replays the game from its seed and checks that the same state comes out. Exits 1 on any failure.

With ``--documents`` every state also travels through JSON (state, action, every seat's view
and the spectator's, the scoreboard) and must read back equal; each view must hide what its
seat cannot see and be the view of a world sampled from it; the finished game's record must
read back and replay to the final state.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import Counter
from collections.abc import Sequence
from typing import Any

import attrs

from ttr_europe import (
    Action,
    DrawFaceUp,
    GameRecord,
    GameState,
    IllegalActionError,
    Pass,
    Phase,
    TTRError,
    WithdrawTunnel,
    apply,
    determinize,
    dumps,
    is_terminal,
    loads,
    new_game,
    observe,
    score,
)
from ttr_europe.loop import MAX_ACTIONS
from ttr_europe.records import final_state, record_of
from ttr_europe.state import NO_CARD
from ttr_europe.testing.play import (
    POLICIES,
    choose,
    configs,
    legal_list_problems,
    state_problems,
)

CONFIGS = configs()


@attrs.frozen
class Game:
    """Everything that fixes one soak game; all of it follows from the seed."""

    seed: int
    map: str
    variant: str
    players: int
    policy: str
    options: dict[str, Any] = attrs.field(hash=False)

    @classmethod
    def from_seed(cls, seed: int) -> Game:
        rng = random.Random(seed)
        map_id, variant = CONFIGS[seed % len(CONFIGS)]
        players = 2 + (seed // len(CONFIGS)) % 4
        options: dict[str, Any] = {}
        if rng.random() < 0.25:
            options["reset_cap"] = rng.choice((0, 1, 2))
        if rng.random() < 0.2:
            options["second_card_optional"] = True
        if variant == "mega" and rng.random() < 0.3:
            options["max_long_kept"] = 1
        return cls(seed, map_id, variant, players, rng.choice(POLICIES), options)

    def start(self) -> GameState:
        return new_game(self.map, self.variant, self.players, seed=self.seed, **self.options)


# --------------------------------------------------------------------------- invariants


def invariant_violations(state: GameState) -> list[str]:
    """Every broken invariant of ``state`` (``ttr_europe.invariants`` and the engine's own)."""
    return state_problems(state)


# --------------------------------------------------------------------------- documents


def _reads_back(obj: Any) -> bool:
    """Whether ``obj`` written as JSON reads back equal (a refusal counts as not)."""
    try:
        return bool(loads(dumps(obj)) == obj)
    except TTRError:
        return False


def document_violations(state: GameState, action: Action | None, rng: random.Random) -> list[str]:
    """Where a state, its views, the action that led to it or its scoreboard do not survive
    JSON, or a view shows what its seat cannot see (R52, D20)."""
    out: list[str] = []
    if not _reads_back(state):
        out.append("the state does not read back equal")
    if action is not None and not _reads_back(action):
        out.append(f"the action {action} does not read back equal")
    for seat in (None, *range(state.rules.players)):
        view = observe(state, seat)
        for other in view.players:
            secret = other.seat != seat
            if secret and (other.hand is not None or other.offer is not None):
                out.append(f"the view of seat {seat} shows seat {other.seat}'s cards or offer")
            if secret and other.tickets is not None and not is_terminal(state):
                out.append(f"the view of seat {seat} shows seat {other.seat}'s tickets")
        if not _reads_back(view):
            out.append(f"the view of seat {seat} does not read back equal")
        elif seat is not None:
            world = determinize(view, seat, rng.randrange(2**32))
            if observe(world, seat) != view:
                out.append(f"a world sampled from seat {seat}'s view looks different to it")
    if (rng.random() < 0.05 or is_terminal(state)) and not _reads_back(score(state)):
        out.append("the scoreboard does not read back equal")
    return out


def record_violations(game: Game, actions: list[Action], final: GameState) -> list[str]:
    """The game's record must read back from JSON and replay to the final state."""
    record = record_of(actions, game.map, game.variant, game.players, game.seed, **game.options)
    back = GameRecord.from_json(json.dumps(record.to_json()))
    if back != record:
        return ["the game record does not read back equal"]
    if final_state(back) != final:
        return ["the game record replays to another state"]
    return []


def play(
    game: Game,
    *,
    check: bool = True,
    stats: Counter[str] | None = None,
    documents: bool = False,
) -> tuple[GameState, list[Action], list[str]]:
    """Play one game to the end; return the final state, the actions and any failures.

    ``documents`` adds the JSON and view checks after every action (``document_violations``).
    """
    rng = random.Random(game.seed ^ 0x5EED)
    state = game.start()
    actions: list[Action] = []
    failures: list[str] = []
    if check:
        failures += invariant_violations(state)
    while not is_terminal(state) and not failures:
        if len(actions) >= MAX_ACTIONS:
            failures.append(f"no end after {MAX_ACTIONS} actions")
            break
        if check:
            failures += legal_list_problems(state, rng)
        action = choose(rng, state, game.policy)
        before = repr(state)
        try:
            after = apply(state, action)
        except IllegalActionError as exc:
            failures.append(f"listed action {action} refused: {exc}")
            break
        if check:
            if repr(state) != before:
                failures.append(f"{action} changed its input state")
            failures += [f"after {action}: {f}" for f in invariant_violations(after)]
        if documents:
            failures += [f"after {action}: {f}" for f in document_violations(after, action, rng)]
        if stats is not None:
            _count(stats, state, action, after)
        actions.append(action)
        state = after
    if check and not failures:
        replayed = game.start()
        for action in actions:
            replayed = apply(replayed, action)
        if replayed != state:
            failures.append("D19: replaying the seed and actions gives another state")
    if documents and not failures:
        failures += record_violations(game, actions, state)
    return state, actions, failures


def _count(stats: Counter[str], before: GameState, action: Action, after: GameState) -> None:
    """Coverage counters: which rare situations the soak reached."""
    if after.pile is not before.pile:
        stats["reshuffles (R18)"] += 1
    if after.discard.total > before.discard.total and isinstance(action, DrawFaceUp):
        stats["face-up resets (R17)"] += 1
    if after.phase is Phase.TUNNEL:
        stats["tunnel reveals with extra cost (R28)"] += 1
    if isinstance(action, WithdrawTunnel):
        stats["tunnel withdrawals (R35)"] += 1
    if isinstance(action, Pass) and before.phase is Phase.TURN:
        stats["passes (D1)"] += 1
    if NO_CARD in after.row:
        stats["states with an empty face-up slot (D3)"] += 1
    if before.final_turns < 0 <= after.final_turns:
        stats["end triggers (R46)"] += 1
    if after.phase is Phase.GAME_OVER:
        stats["ended by all passing (D30)" if after.passes else "ended by the last round"] += 1


# --------------------------------------------------------------------------- main


PROGRESS_SECONDS = 10.0  # a line on standard error this often, so a long run shows it lives


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="games to play (at most)")
    parser.add_argument("--seconds", type=float, default=0, help="time budget, 0 = none")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first game")
    parser.add_argument("--quiet", action="store_true", help="print only the summary")
    parser.add_argument(
        "--documents", action="store_true", help="also round-trip documents and check views"
    )
    args = parser.parse_args(argv)
    start = time.perf_counter()
    stats: Counter[str] = Counter()
    played = actions = 0
    failed: list[tuple[Game, list[str]]] = []
    shown = start
    for seed in range(args.seed, args.seed + args.games):
        if args.seconds and time.perf_counter() - start > args.seconds:
            break
        game = Game.from_seed(seed)
        try:
            _, moves, failures = play(game, stats=stats, documents=args.documents)
        except Exception as exc:  # any crash is a failure to report with its seed
            moves, failures = [], [f"crash: {type(exc).__name__}: {exc}"]
        played += 1
        actions += len(moves)
        stats[f"{game.map}/{game.variant}"] += 1
        stats[f"{game.players} players"] += 1
        if failures:
            failed.append((game, failures))
            if not args.quiet:
                print(f"FAIL seed={seed} {game}: {failures[0]}", file=sys.stderr)
        now = time.perf_counter()
        if not args.quiet and now - shown >= PROGRESS_SECONDS:
            shown = now
            print(f"soak: {played}/{args.games} games, {actions} actions, "
                  f"{len(failed)} failed, {now - start:.0f} s", file=sys.stderr)  # fmt: skip
    elapsed = time.perf_counter() - start
    print(f"games: {played}  actions: {actions}  failures: {len(failed)}  time: {elapsed:.1f}s")
    for key, value in sorted(stats.items()):
        print(f"  {key}: {value}")
    for game, failures in failed:
        print(f"reproduce: python scripts/soak.py --seed {game.seed} --games 1   # {failures[0]}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
