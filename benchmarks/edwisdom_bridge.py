"""Our bots against edwisdom's scripted players H0-H4 on the USA map, through their own engine.

Usage::

    apt-get install -y librust-rayon-dev librust-blake2b-simd-dev librust-serde-json-dev
    python benchmarks/edwisdom_bridge.py CHECKOUT --ours mcts-core --theirs h3,h4 --games 400

``CHECKOUT`` is a checkout of github.com/edwisdom/ticket_to_ride, outside this repository,
never copied into it: ``edwisdom_rust.build`` compiles their core (``crates/ttr-core``) offline
on a copy, with a small program beside it, ``edwisdom_bridge.rs``, that speaks JSON lines.

**Their engine referees.** It deals, keeps the deck, moves their heuristics (seeded as their
own arena seeds them) and scores the end with its own scorer and tiebreaks. Before each of our
bot's decisions the referee's position is rebuilt as one of ours (``to_state``) and our bot is
shown its seat's view of it (``observe``: nothing hidden reaches it). It is offered the moves
both engines allow: their claim names a route and a colour and always pays the most cards of
that colour it can (their ``WildPolicy::Canonical``), so of our payments for a route in one
colour only that one is offered. A bot that answers another payment (a search that lists its
own moves) is played as their engine pays it, and counted. Every move, of every seat, is shown
to the bots that watch (``tell``) in our notation.

**Every move is a rules check.** Each one is also played by our engine from the rebuilt
position, and the result is compared with the referee's next position on the public parts and
the mover's hand; the final position is scored by our scorer too. Every disagreement is
counted by what differs, so the two engines' rule differences are measured, not assumed
(docs/bots.md, "Against edwisdom's heuristics").

Games are paired: each seed is dealt once for every seat our bot can take (``--players``
seats), so the deals favour no one. A shared win counts its share. The summary gives each
pairing's wins with a 95 % Wilson interval and the mean margin; ``--out`` keeps one JSON line a
game.
"""

from __future__ import annotations

import argparse
import collections
import json
import subprocess
import sys
import time
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs

from ttr_europe import (
    GameState,
    Phase,
    apply,
    legal_actions,
    new_game,
    observe,
    why_illegal,
)
from ttr_europe._seeds import seat_rng
from ttr_europe.actions import (
    Action,
    ClaimRoute,
    DrawBlind,
    DrawFaceUp,
    DrawTickets,
    KeepTickets,
    Pass,
)
from ttr_europe.bench import machine
from ttr_europe.board import Map
from ttr_europe.cards import LOCOMOTIVE, Cards, kind_from_name
from ttr_europe.errors import CardsError, TTRError
from ttr_europe.maps import load_map
from ttr_europe.players.bots import Bot, bot_name, tell
from ttr_europe.players.registry import make_bot
from ttr_europe.scoring import outcome
from ttr_europe.sim.stats import Sequential, wilson
from ttr_europe.state import NO_CARD, NO_OWNER, PlayerState

BRIDGE = "ttr-peer-bridge"
SOURCE = Path(__file__).with_name("edwisdom_bridge.rs")
TIERS = ("h0", "h1", "h2", "h3", "h4")
BREAKDOWN = ("routes", "tickets_made", "tickets_missed", "ticket_points", "longest_bonus",
             "longest_trail", "total")  # fmt: skip
"""The fields of the referee's score breakdown, one row a seat, in its order."""
SEARCHES = ("mcts", "mcts-core")  # may be named with a fixed budget: mcts-core@100

# Their phases, in their numbering, and ours.
_PHASES = {0: Phase.INITIAL_TICKETS, 1: Phase.TURN, 2: Phase.SECOND_DRAW,
           3: Phase.CHOOSE_TICKETS, 4: Phase.GAME_OVER}  # fmt: skip
_EMPTY = -1  # their empty face-up slot
_FREE, _CLOSED = 255, 254  # their segment owners that are not a seat
_NOT_TRIGGERED = 255
_BLIND = 5  # their blind-draw slot


class BridgeError(Exception):
    """The two engines cannot be matched, or the referee refused a move: one line, the why."""


# --------------------------------------------------------------------------- the board


@attrs.frozen
class Board:
    """Their board matched to ours: card kinds, routes and tickets, each theirs -> ours.

    ``claim_end`` and the later bases are their action numbering: claims are ``segment *
    kinds + paid kind``, then the six draws (slot 5 blind), tickets, the seven keeps, pass.
    """

    map: Map
    kind: tuple[int, ...]  # their card type -> our card kind
    route: tuple[int, ...]  # their segment -> our route index
    segment: Mapping[int, int]  # our route index -> their segment
    ticket: tuple[int, ...]  # their ticket -> our ticket index
    kinds: int

    @property
    def claim_end(self) -> int:
        return len(self.route) * self.kinds

    @property
    def draw_tickets(self) -> int:
        return self.claim_end + 6

    @property
    def pass_action(self) -> int:
        return self.draw_tickets + 8


def match_board(peer: Mapping[str, Any], board: Map) -> Board:
    """Match their board (the bridge's ``board`` answer) to ours by names, lengths and colours.

    Raises ``BridgeError`` naming the first city, route or ticket without a partner.
    """
    cities = []
    for name in peer["cities"]:
        if name not in board.city_index:
            raise BridgeError(f"their city {name!r} is not on our {board.id} map")
        cities.append(board.city_index[name])
    try:
        colours = [kind_from_name(name) for name in peer["colors"]]
    except CardsError as exc:
        raise BridgeError(f"their colours: {exc}") from None
    kind = (*colours, LOCOMOTIVE)
    if peer["locomotive"] != len(colours):
        raise BridgeError(f"their locomotive is card type {peer['locomotive']}, not last")
    free: dict[tuple[frozenset[int], int, int | None], list[int]] = collections.defaultdict(list)
    for r in board.routes:
        free[frozenset((r.a, r.b)), r.length, r.colour].append(r.index)
    route = []
    for s, (a, b, length, colour) in enumerate(peer["segments"]):
        key = frozenset((cities[a], cities[b])), length, None if colour == 255 else kind[colour]
        if not free[key]:
            raise BridgeError(f"their segment {s} ({peer['cities'][a]}-{peer['cities'][b]}, "
                              f"{length}) has no partner on our map")  # fmt: skip
        route.append(free[key].pop(0))  # the two tracks of a same-coloured double in order
    if len(route) != len(board.routes):
        raise BridgeError(f"they have {len(route)} routes, we have {len(board.routes)}")
    tickets = {(frozenset((t.a, t.b)), t.points): t.index for t in board.tickets}
    ticket = []
    for a, b, points in peer["tickets"]:
        pair = frozenset((cities[a], cities[b])), points
        if pair not in tickets:
            raise BridgeError(f"their ticket {peer['cities'][a]}-{peer['cities'][b]} "
                              f"({points}) is not ours")  # fmt: skip
        ticket.append(tickets.pop(pair))
    if tickets:
        raise BridgeError(f"{len(tickets)} of our tickets are not theirs")
    out = Board(board, kind, tuple(route), {r: s for s, r in enumerate(route)}, tuple(ticket),
                len(kind))  # fmt: skip
    if out.pass_action + 1 != peer["actions"]:
        raise BridgeError(f"their actions number {peer['actions']}, not {out.pass_action + 1}")
    return out


# --------------------------------------------------------------------------- positions


def _cards(board: Board, counts: Sequence[int]) -> Cards:
    values = [0] * 9
    for k, n in enumerate(counts):
        values[board.kind[k]] += n
    return Cards(values)


def to_state(board: Board, base: GameState, peer: Mapping[str, Any]) -> GameState:
    """The referee's position as one of ours (``base`` gives the rules: map, players)."""
    phase = _PHASES[peer["phase"]]
    current = peer["cur"]
    choosing = phase in (Phase.INITIAL_TICKETS, Phase.CHOOSE_TICKETS)
    players = tuple(
        PlayerState(
            hand=_cards(board, hand),
            trains=peer["trains"][p],
            stations=(),
            score=peer["score"][p],
            tickets=tuple(board.ticket[t] for t in peer["tickets"][p]),
            offer=tuple(board.ticket[t] for t in peer["offer"])
            if choosing and p == current
            else (),
        )
        for p, hand in enumerate(peer["hands"])
    )
    owners = [NO_OWNER] * len(board.route)
    for s, owner in enumerate(peer["owner"]):
        if owner not in (_FREE, _CLOSED):
            owners[board.route[s]] = owner
    final = peer["final_left"]
    return GameState.create(
        rules=base.rules,
        phase=phase,
        current=current,
        first_player=0,
        players=players,
        pile=tuple(board.kind[c] for c in peer["deck"]),
        row=tuple(NO_CARD if c == _EMPTY else board.kind[c] for c in peer["faceup"]),
        discard=_cards(board, peer["discard"]),
        ticket_deck=tuple(board.ticket[t] for t in peer["tdeck"]),
        box=(),
        owners=tuple(owners),
        rng=base.rng,
        final_turns=-1 if final == _NOT_TRIGGERED else final,
        passes=peer["pass_streak"],
    )


# --------------------------------------------------------------------------- moves


def to_peer(board: Board, state: GameState, action: Action, offer: Sequence[int]) -> int:
    """Our ``action`` in ``state`` as their action number (``offer``: their ticket offer).

    A claim becomes the route and the colour paid: their engine then pays the most cards of
    that colour the hand holds (``canonical``), locomotives for the rest.
    """
    if isinstance(action, DrawFaceUp):
        return board.claim_end + action.slot
    if isinstance(action, DrawBlind):
        return board.claim_end + _BLIND
    if isinstance(action, DrawTickets):
        return board.draw_tickets
    if isinstance(action, Pass):
        return board.pass_action
    if isinstance(action, KeepTickets):
        kept = {board.map.ticket_index[t] for t in action.tickets}
        return board.draw_tickets + sum(1 << i for i, t in enumerate(offer)
                                        if board.ticket[t] in kept)  # fmt: skip
    if isinstance(action, ClaimRoute):
        segment = board.segment[board.map.route_index[action.route]]
        return segment * board.kinds + board.kind.index(_paid(action.payment))
    raise BridgeError(f"{action} has no counterpart in their engine")


def canonical(state: GameState, action: Action) -> Action:
    """``action`` paid as their engine pays it: the most cards of its colour, then locomotives."""
    if not isinstance(action, ClaimRoute):
        return action
    colour = _paid(action.payment)
    if colour == LOCOMOTIVE:
        return action
    length = action.payment.total
    coloured = min(state.players[state.current].hand[colour], length)
    values = [0] * 9
    values[colour], values[LOCOMOTIVE] = coloured, length - coloured
    return ClaimRoute(action.route, Cards(values))


def _paid(payment: Cards) -> int:
    """The colour a claim's ``payment`` is in (a set of one colour), or ``LOCOMOTIVE``."""
    return next((k for k in range(8) if payment[k]), LOCOMOTIVE)


def from_peer(board: Board, state: GameState, number: int, offer: Sequence[int]) -> Action:
    """Their action ``number`` as ours, in ``state`` (the position it is played from)."""
    if number < board.claim_end:
        segment, paid = divmod(number, board.kinds)
        route = board.map.routes[board.route[segment]]
        kind = board.kind[paid]
        values = [0] * 9
        values[kind] = route.length
        return canonical(state, ClaimRoute(route.id, Cards(values)))
    if number < board.claim_end + 6:
        slot = number - board.claim_end
        return DrawBlind() if slot == _BLIND else DrawFaceUp(slot)
    if number == board.draw_tickets:
        return DrawTickets()
    if number < board.pass_action:
        mask = number - board.draw_tickets
        return KeepTickets([board.map.tickets[board.ticket[t]].id for i, t in enumerate(offer)
                            if mask >> i & 1])  # fmt: skip
    return Pass()


# --------------------------------------------------------------------------- the referee


class Referee:
    """The bridge program: one command a line in, one JSON line out."""

    def __init__(self, command: Sequence[str]) -> None:
        self._process = subprocess.Popen(
            list(command), stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )

    def ask(self, command: str) -> dict[str, Any]:
        """Send ``command``; its answer, or ``BridgeError`` with the referee's reason."""
        process = self._process
        assert process.stdin is not None and process.stdout is not None
        process.stdin.write(command + "\n")
        line = process.stdout.readline()
        if not line:
            raise BridgeError(f"the bridge exited (code {process.wait()}) at {command!r}")
        answer: dict[str, Any] = json.loads(line)
        if "error" in answer:
            raise BridgeError(f"the referee refused {command!r}: {answer['error']}")
        return answer

    def close(self) -> None:
        if self._process.stdin is not None:
            self._process.stdin.close()
        self._process.wait(timeout=10)


# --------------------------------------------------------------------------- one game


@attrs.define
class Checks:
    """What the rules check found: moves compared, and each kind of disagreement counted."""

    moves: int = 0
    differences: collections.Counter[str] = attrs.field(factory=collections.Counter)
    examples: dict[str, str] = attrs.field(factory=dict)
    repaid: int = 0  # our bot's claims played as their engine pays

    def note(self, what: str, example: str) -> None:
        self.differences[what] += 1
        self.examples.setdefault(what, example)


def _compare(ours: GameState, theirs: GameState, mover: int, shuffled: bool) -> list[str]:
    """What differs between our engine's result and the referee's (public, and the mover's).

    After a reshuffle (``shuffled``) each engine has shuffled the discards with its own
    generator, so the cards drawn and the row are compared by number only, and the discards
    not at all (a reset of the new row sends five cards there in one engine and not the other).
    """
    if shuffled:
        ours, theirs = _by_number(ours), _by_number(theirs)
    found = []
    if ours.phase is not theirs.phase:
        found.append("phase")
    elif ours.phase is not Phase.GAME_OVER and ours.current != theirs.current:
        found.append("seat to act")
    for name in ("owners", "final_turns", "passes"):
        if getattr(ours, name) != getattr(theirs, name):
            found.append(name)
    if ours.phase is not Phase.GAME_OVER and ours.row != theirs.row:
        found.append("face-up row")
    if ours.discard != theirs.discard:
        found.append("discard")
    a, b = ours.players[mover], theirs.players[mover]
    for name in ("hand", "trains", "score"):
        if getattr(a, name) != getattr(b, name):
            found.append(f"mover's {name}")
    if sorted(a.tickets) != sorted(b.tickets):  # theirs lists them by number, ours as kept
        found.append("mover's tickets")
    return found


def _by_number(state: GameState) -> GameState:
    """``state`` with each hand counted, the row's slots filled or not, and no discards."""
    players = tuple(attrs.evolve(p, hand=Cards((0,) * 8 + (p.hand.total,))) for p in state.players)
    row = tuple(NO_CARD if c == NO_CARD else 0 for c in state.row)
    return attrs.evolve(state, players=players, row=row, discard=Cards())


def _board_sizes(state: GameState) -> str:
    return f"pile {state.pile_size}, discard {state.discard.total}, row {list(state.row)}"


def play_game(
    referee: Referee, board: Board, base: GameState, seed: int, seats: Sequence[str | Bot],
    checks: Checks,
) -> dict[str, Any]:  # fmt: skip
    """One game: ``seats[i]`` is a tier name (theirs) or our bot. Returns its record."""
    names = ",".join(s if isinstance(s, str) else "-" for s in seats)
    answer = referee.ask(f"new {seed} {len(seats)} {names}")
    bots = [None if isinstance(s, str) else s for s in seats]
    rngs = [seat_rng(seed, i) for i in range(len(seats))]
    thinking = [0.0] * len(seats)
    while "breakdown" not in answer["state"]:
        peer = answer["state"]
        state = to_state(board, base, peer)
        seat = state.current
        bot = bots[seat]
        if bot is None:
            answer = referee.ask("peer")
            action = from_peer(board, state, answer["action"], peer["offer"])
        else:
            legal = [a for a in legal_actions(state)
                     if to_peer(board, state, a, peer["offer"]) in peer["legal"]
                     and canonical(state, a) == a]  # fmt: skip
            start = time.process_time()
            try:
                chosen = bot.choose(observe(state, seat), legal, rngs[seat])
            except Exception as exc:
                raise BridgeError(f"{bot_name(bot)} (seat {seat}, seed {seed}) raised "
                                  f"{type(exc).__name__}: {exc}") from exc  # fmt: skip
            thinking[seat] += time.process_time() - start
            action = canonical(state, chosen)
            if action != chosen:
                checks.repaid += 1
            answer = referee.ask(f"step {to_peer(board, state, action, peer['offer'])}")
        tell(bots, state, action)
        _check_move(checks, board, base, state, action, answer["state"])
    return _record(board, base, seed, seats, answer["state"], thinking, checks)


def _check_move(
    checks: Checks, board: Board, base: GameState, state: GameState, action: Action,
    after: Mapping[str, Any],
) -> None:  # fmt: skip
    """Play ``action`` in our engine too and count what differs from the referee's result."""
    checks.moves += 1
    reason = why_illegal(state, action)
    if reason is not None:
        checks.note("illegal in our engine", f"{action}: {reason}")
        return
    ours, theirs = apply(state, action), to_state(board, base, after)
    while ours.phase is Phase.CHOOSE_TICKETS and len(forced := legal_actions(ours)) == 1:
        ours = apply(ours, forced[0])  # their engine makes a choice of one itself
    paid = action.payment.total if isinstance(action, ClaimRoute) else 0
    shuffled = ours.discard.total < state.discard.total + paid  # the discards became the pile
    for what in _compare(ours, theirs, state.current, shuffled):
        checks.note(what, f"{action} from {_board_sizes(state)}: ours {_board_sizes(ours)}, "
                          f"theirs {_board_sizes(theirs)}")  # fmt: skip


def _record(
    board: Board, base: GameState, seed: int, seats: Sequence[str | Bot],
    final: Mapping[str, Any], thinking: Sequence[float], checks: Checks,
) -> dict[str, Any]:  # fmt: skip
    totals = [row[-1] for row in final["breakdown"]]
    try:
        ours = outcome(to_state(board, base, final))
    except TTRError as exc:  # our scorer refuses the position (a running score it disputes)
        checks.note("final score", f"seed {seed}: {exc}")
    else:
        if tuple(ours.totals) != tuple(totals):
            checks.note("final score", f"seed {seed}: ours {list(ours.totals)}, theirs {totals}")
        if set(ours.winners) != set(final["winners"]):
            checks.note(
                "winner", f"seed {seed}: ours {list(ours.winners)}, theirs {final['winners']}"
            )
    return {
        "seed": seed,
        "seats": [s if isinstance(s, str) else bot_name(s) for s in seats],
        "ours": [i for i, s in enumerate(seats) if not isinstance(s, str)],
        "totals": totals,
        "breakdown": [dict(zip(BREAKDOWN, row, strict=True)) for row in final["breakdown"]],
        "winners": final["winners"],
        "turns": final["turn"],
        "processor": [round(t, 4) for t in thinking],
    }


# --------------------------------------------------------------------------- a match


def make_ours(spec: str) -> Bot:
    """Our bot from a spec: a registry name, or a search at a fixed budget (``mcts-core@100``)."""
    name, _, budget = spec.partition("@")
    if budget and name in SEARCHES:
        from ttr_europe.players.mcts import CoreMctsBot, MctsBot

        kind = CoreMctsBot if name == "mcts-core" else MctsBot
        return kind(int(budget))
    return make_bot(spec)


def schedule(games: int, players: int, seed: int) -> Iterator[tuple[int, int]]:
    """``(seed, our seat)`` of each game: every seed once for each seat, in turn."""
    for g in range(games):
        yield seed + g // players, g % players


def play_match(
    referee: Referee, board: Board, ours: str, theirs: str, games: int, players: int,
    seed: int, out: Any = None, progress: bool = True, test: Sequential | None = None,
) -> dict[str, Any]:  # fmt: skip
    """``games`` games of our bot ``ours`` in one seat, their tier ``theirs`` in the others;
    with ``test``, fewer: the match stops at the end of the first deal (played from every
    seat) after which the sequential test decides, and ``games`` is its cap."""
    base = new_game(board.map, players=players, seed=seed, first_player=0)
    checks = Checks()
    wins = margin = 0.0
    processor = 0.0
    points = {side: collections.Counter[str]() for side in ("ours", "theirs")}
    verdict = None
    started = time.monotonic()
    played = 0
    for deal, seat in schedule(games, players, seed):
        bot = make_ours(ours)
        seats: list[str | Bot] = [theirs] * players
        seats[seat] = bot
        record = play_game(referee, board, base, deal, seats, checks)
        record["pairing"] = [ours, theirs]
        played += 1
        winners = record["winners"]
        wins += 1 / len(winners) if seat in winners else 0.0
        best_other = max(t for i, t in enumerate(record["totals"]) if i != seat)
        margin += record["totals"][seat] - best_other
        processor += record["processor"][seat]
        for i, row in enumerate(record["breakdown"]):
            side = points["ours" if i == seat else "theirs"]
            side.update({k: v / (1 if i == seat else players - 1) for k, v in row.items()})
        if out is not None:
            out.write(json.dumps(record) + "\n")
            out.flush()
        if test is not None and played % players == 0:
            verdict = test.verdict(wins, played)
        if progress and (played % 20 == 0 or played == games or verdict):
            print(f"  {ours} v {theirs}: {played}/{games} games, {wins:g} won, "
                  f"{time.monotonic() - started:.0f} s", file=sys.stderr, flush=True)  # fmt: skip
        if verdict:
            break
    low, high = wilson(wins, played)
    row = {
        "ours": ours, "theirs": theirs, "players": players, "games": played, "wins": wins,
        "rate": wins / played, "low": low, "high": high, "margin": margin / played,
        "processor_a_game": processor / played,
        "points": {side: {k: v / played for k, v in got.items()} for side, got in points.items()},
        "moves_checked": checks.moves, "differences": dict(checks.differences),
        "examples": checks.examples, "repaid": checks.repaid,
    }  # fmt: skip
    if test is not None:
        row["sequential"] = {"low": test.low, "high": test.high, "alpha": test.alpha,
                             "beta": test.beta, "cap": games, "verdict": verdict}  # fmt: skip
    return row


def summary(rows: Sequence[Mapping[str, Any]]) -> str:
    """The table of a run: each pairing's wins with its interval, the mean margin (our score
    less the best of theirs), our bot's processor seconds a game; where each side's points
    came from; each sequential test's verdict; and the rules check."""
    lines = ["ours         theirs  players  games    won   win rate   95% interval  margin  s/game"]
    for r in rows:
        lines.append(
            f"{r['ours']:<12} {r['theirs']:<7} {r['players']:>7} {r['games']:>6} "
            f"{r['wins']:>6g} {100 * r['rate']:>9.1f}% {100 * r['low']:>6.1f}-"
            f"{100 * r['high']:<5.1f}% {r['margin']:>+7.1f} {r['processor_a_game']:>7.2f}"
        )
    lines.append("\npoints a game      against       routes  tickets made  missed  "
                 "ticket points  longest  total")  # fmt: skip
    for r in rows:
        for side, other in (("ours", "theirs"), ("theirs", "ours")):
            p = r["points"][side]  # theirs: the mean of their seats
            lines.append(
                f"{r[side]:<18} {r[other]:<12} {p['routes']:>7.1f} {p['tickets_made']:>13.2f} "
                f"{p['tickets_missed']:>7.2f} {p['ticket_points']:>14.1f} "
                f"{p['longest_bonus']:>8.1f} {p['total']:>6.1f}"
            )
    tests = [(r, r["sequential"]) for r in rows if "sequential" in r]
    if tests:
        lines.append("")
    for r, test in tests:
        low, high = f"{100 * test['low']:g} %", f"{100 * test['high']:g} %"
        said = {"low": f"at most {low}", "high": f"at least {high}"}.get(test["verdict"])
        lines.append(
            f"sequential test, {r['ours']} v {r['theirs']}: {low} against {high} (errors "
            f"{100 * test['alpha']:g} % and {100 * test['beta']:g} %, at most {test['cap']} "
            f"games): {said or 'undecided'} after {r['games']} games"
        )
    differences: collections.Counter[str] = collections.Counter()
    examples: dict[str, str] = {}
    for r in rows:
        differences.update(r["differences"])
        for what, example in r["examples"].items():
            examples.setdefault(what, example)
    moves = sum(r["moves_checked"] for r in rows)
    repaid = sum(r["repaid"] for r in rows)
    lines.append(f"\nrules check: {moves} moves played in both engines; "
                 f"{repaid} of our claims paid as theirs pays")  # fmt: skip
    for what, n in differences.most_common():
        lines.append(f"  {what}: {n} (e.g. {examples[what]})")
    if not differences:
        lines.append("  no difference")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import edwisdom_rust  # the build, beside this file

    ap.add_argument("checkout", type=Path, help="checkout of edwisdom/ticket_to_ride")
    default = edwisdom_rust.default_work()
    ap.add_argument("--work", type=Path, default=default, help=f"build directory ({default})")
    ap.add_argument("--ours", default="mcts-core", help="our bots, comma-separated")
    ap.add_argument("--theirs", default=",".join(TIERS), help="their tiers, comma-separated")
    ap.add_argument("--games", type=int, default=400, help="games a pairing")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--seed", type=int, default=0, help="first deal's seed")
    ap.add_argument("--out", type=Path, help="folder for games.jsonl and summary.json")
    ap.add_argument("--sequential", metavar="LOW,HIGH", help="stop each match once Wald's "
                    "test (5 %% errors) says our win rate is at most LOW or at least HIGH "
                    "(0.8,0.9); --games is then its cap")  # fmt: skip
    args = ap.parse_args(argv)
    test = None
    if args.sequential:
        try:
            low, high = (float(x) for x in args.sequential.split(","))
            test = Sequential(low, high)
        except ValueError as exc:  # SetupError is one
            ap.error(f"--sequential takes LOW,HIGH with 0 < LOW < HIGH < 1: {exc}")
    theirs = [t.strip() for t in args.theirs.split(",")]
    if unknown := [t for t in theirs if t not in TIERS]:
        ap.error(f"unknown tier {unknown[0]!r}; theirs are {', '.join(TIERS)}")
    folder = edwisdom_rust.build(args.checkout, args.work, bins={BRIDGE: SOURCE.read_text()})
    referee = Referee([str(folder.parent / BRIDGE)])
    board = match_board(referee.ask("board"), load_map("usa"))
    out = None
    if args.out:
        args.out.mkdir(parents=True, exist_ok=True)
        out = (args.out / "games.jsonl").open("w", encoding="utf-8")
    rows = []
    try:
        for ours in (o.strip() for o in args.ours.split(",")):
            for tier in theirs:
                rows.append(play_match(referee, board, ours, tier, args.games, args.players,
                                       args.seed, out, test=test))  # fmt: skip
    except BridgeError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    finally:
        referee.close()
        if out is not None:
            out.close()
    text = summary(rows)
    print(text)
    if args.out:
        command = "python benchmarks/edwisdom_bridge.py " + " ".join(
            sys.argv[1:] if argv is None else argv)  # fmt: skip
        (args.out / "summary.json").write_text(
            json.dumps({"command": command, "machine": machine(), "rows": rows},
                       indent=1), encoding="utf-8")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
