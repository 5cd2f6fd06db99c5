"""Soak test: random full games on every map, variant and player count, checked at every step.

    python scripts/soak.py --games 2000 --seconds 600

Each game is fixed by its seed (the map, variant, player count, options and the random play all
follow from it), so a failure is reproduced with ``--seed N --games 1``. After every action the
script checks the invariants below, that ``legal_actions`` agrees with ``is_legal``/``apply``,
and that an unlisted action raises and leaves the state as it was; at the end of each game it
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
    BuildStation,
    ClaimRoute,
    DrawBlind,
    DrawFaceUp,
    DrawTickets,
    GameRecord,
    GameState,
    IllegalActionError,
    KeepTickets,
    Pass,
    PayTunnel,
    Phase,
    TTRError,
    WithdrawTunnel,
    apply,
    current_player,
    determinize,
    dumps,
    is_legal,
    is_terminal,
    legal_actions,
    load_map,
    loads,
    new_game,
    observe,
    score,
)
from ttr_europe.cards import FULL_DECK, LOCOMOTIVE, Cards
from ttr_europe.records import final_state, record_of
from ttr_europe.state import NO_CARD, NO_OWNER, closed_masks
from ttr_europe.testing import card_total

MAX_ACTIONS = 20_000  # a random game is a few hundred actions; more means it does not end
CONFIGS: tuple[tuple[str, str], ...] = tuple(
    (m, v) for m in ("europe", "usa") for v in load_map(m).variants
)
POLICIES = ("uniform", "hoard", "build")


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


def invariant_violations(state: GameState, *, tickets: bool = True) -> list[str]:
    """Every broken invariant of ``state`` (empty when all hold).

    ``tickets`` checks ticket conservation against the variant's pools, which holds for games
    started with ``new_game`` but not for hand-built scenarios.
    """
    out: list[str] = []
    rules = state.rules
    board, v, n = rules.map, rules.variant, rules.players
    if card_total(state) != FULL_DECK:
        out.append(f"R3: cards {card_total(state)} != the 110 of the game")
    if min(state.discard) < 0 or any(min(p.hand) < 0 for p in state.players):
        out.append("negative card count")
    if len(state.players) != n or len(state.closed) != n:
        out.append("seat count")
    cities: list[int] = []
    for seat, p in enumerate(state.players):
        mine = [r for r in board.routes if state.owners[r.index] == seat]
        if p.trains + sum(r.length for r in mine) != v.trains:
            out.append(f"R2: seat {seat} trains {p.trains} + on board != {v.trains}")
        if p.trains < 0:
            out.append(f"R22: seat {seat} has {p.trains} trains")
        if p.score != sum(r.points for r in mine):
            out.append(f"R24: seat {seat} score {p.score} != route points")
        if len(p.stations) > v.stations:
            out.append(f"R40: seat {seat} built {len(p.stations)} stations")
        cities.extend(p.stations)
    if len(set(cities)) != len(cities):
        out.append("R40: two stations in one city")
    if any(o != NO_OWNER and not 0 <= o < n for o in state.owners):
        out.append("owner out of range")
    for r in board.routes:  # R26a: never both tracks to one player; R26b: one track with 2-3
        if r.twin is not None and state.owners[r.index] != NO_OWNER:
            twin_owner = state.owners[r.twin]
            if twin_owner == state.owners[r.index]:
                out.append(f"R26a: both tracks of {r.id} to one seat")
            if twin_owner != NO_OWNER and not rules.doubles_open_to_all:
                out.append(f"R26b: both tracks of {r.id} claimed with {n} players")
    if state.closed != closed_masks(rules, state.owners):
        out.append("closed masks differ from the owners")
    if tickets:
        held = [t for p in state.players for t in (*p.tickets, *p.offer)]
        if sorted(held + list(state.ticket_deck) + list(state.box)) != sorted(
            v.long_pool + v.regular_pool
        ):
            out.append("tickets not conserved")
    if len(state.row) != v.face_up:
        out.append("row size")
    if NO_CARD in state.row and (state.pile_size or state.discard.total):
        out.append("D3: an empty face-up slot while cards are left")
    if (state.phase is Phase.TUNNEL) != (state.tunnel is not None):
        out.append("D31: a pending tunnel outside the TUNNEL phase")
    offering = {Phase.CHOOSE_TICKETS, Phase.INITIAL_TICKETS}
    if (state.phase in offering) != bool(state.player.offer):
        out.append("R37: tickets on offer do not match the phase")
    if state.phase is not Phase.INITIAL_TICKETS and any(
        p.offer for s, p in enumerate(state.players) if s != state.current
    ):
        out.append("R37: an offer waits at another seat")
    if not -1 <= state.final_turns <= n or not 0 <= state.passes <= n:
        out.append("R46/D34: turn counters out of range")
    if not 0 <= state.current < n:
        out.append("current seat out of range")
    if (current_player(state) is None) != is_terminal(state):
        out.append("current_player and is_terminal disagree")
    try:
        if hash(state) != hash(attrs.evolve(state)) or attrs.evolve(state) != state:
            out.append("state not equal to itself rebuilt")
    except TypeError as exc:
        out.append(f"state not hashable: {exc}")
    return out


def legal_list_violations(state: GameState, rng: random.Random) -> list[str]:
    """Where the lazy ``legal_actions`` disagrees with itself or with ``is_legal``."""
    out: list[str] = []
    la = legal_actions(state)
    listed = list(la)
    if len(listed) != len(la):
        out.append(f"len(legal_actions) {len(la)} != {len(listed)} listed")
    if len(set(listed)) != len(listed):
        out.append("legal_actions lists an action twice")
    if listed:
        for i in {0, len(listed) - 1, rng.randrange(len(listed))}:
            if la[i] != listed[i] or la[i - len(listed)] != listed[i]:
                out.append(f"legal_actions[{i}] differs from the listed action")
        if not is_legal(state, listed[rng.randrange(len(listed))]):
            out.append("a listed action is not is_legal")
    if is_terminal(state) != (not listed):
        out.append("no legal action although the game goes on (or one after it ended)")
    if state.phase is Phase.TURN and Pass() in listed and listed != [Pass()]:
        out.append("D1: pass listed beside other actions")
    return out


# --------------------------------------------------------------------------- random play


def random_payment(rng: random.Random, state: GameState) -> Cards:
    """A payment near a legal one: one colour plus locomotives, sometimes with a stray card."""
    hand = state.player.hand
    counts = [0] * 9
    colour = rng.randrange(8)
    if rng.random() < 0.7 and hand.total:
        colour = rng.choice([k for k in range(8) if hand[k]] or [colour])
    counts[colour] = rng.randrange(0, 5)
    counts[LOCOMOTIVE] = rng.randrange(0, 3) if rng.random() < 0.5 else 0
    if rng.random() < 0.15:
        counts[rng.randrange(9)] += 1
    return Cards(counts)


def random_candidate(rng: random.Random, state: GameState) -> Action:
    """Any action at all, usually an illegal one: the kind of mistake a caller makes."""
    board = state.rules.map
    offer = [board.tickets[t].id for t in state.player.offer]
    kind = rng.randrange(9)
    if kind == 0:
        return DrawFaceUp(rng.randrange(-1, len(state.row) + 1))
    if kind == 1:
        return DrawBlind()
    if kind == 2:
        return ClaimRoute(rng.choice(board.routes).id, random_payment(rng, state))
    if kind == 3:
        return BuildStation(rng.choice(board.cities).id, random_payment(rng, state))
    if kind == 4:
        return PayTunnel(random_payment(rng, state))
    if kind == 5:
        return KeepTickets(rng.sample(offer, rng.randrange(len(offer) + 1)))
    if kind == 6:
        return DrawTickets()
    if kind == 7:
        return WithdrawTunnel()
    return Pass()


def choose(rng: random.Random, state: GameState, policy: str) -> Action:
    """A legal action: uniform, or biased to hoard cards (runs the piles dry) or to build."""
    la = legal_actions(state)
    if policy != "uniform" and state.phase is Phase.TURN and rng.random() < 0.9:
        draws = [a for a in la if isinstance(a, DrawFaceUp | DrawBlind)]
        builds = [a for a in la if isinstance(a, ClaimRoute | BuildStation)]
        preferred = draws if policy == "hoard" else builds
        if preferred:
            return rng.choice(preferred)
    return la[rng.randrange(len(la))]


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
            failures += legal_list_violations(state, rng)
            failures += _illegal_is_refused(state, rng)
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


def _illegal_is_refused(state: GameState, rng: random.Random) -> list[str]:
    candidate = random_candidate(rng, state)
    listed = candidate in legal_actions(state)
    if is_legal(state, candidate) != listed:
        return [f"is_legal({candidate}) != ({candidate} in legal_actions)"]
    if listed:
        return []
    before = repr(state)
    try:
        apply(state, candidate)
    except IllegalActionError:
        return [] if repr(state) == before else [f"refused {candidate} changed the state"]
    return [f"unlisted {candidate} was applied"]


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
    elapsed = time.perf_counter() - start
    print(f"games: {played}  actions: {actions}  failures: {len(failed)}  time: {elapsed:.1f}s")
    for key, value in sorted(stats.items()):
        print(f"  {key}: {value}")
    for game, failures in failed:
        print(f"reproduce: python scripts/soak.py --seed {game.seed} --games 1   # {failures[0]}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
