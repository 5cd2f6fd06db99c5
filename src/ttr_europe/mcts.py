"""A search bot: information-set Monte Carlo search over determinized worlds.

The seat knows only its view, so the search samples worlds the seat cannot tell apart from it
(``views.determinize``, which never reads a hidden card) and judges its candidate moves by
playing each of them in the same worlds and finishing the game with ``Playout``, a fast
ticket-driven policy (a cheap ``GreedyBot`` that works on the sampled full state). The move
the policy itself would make is the baseline: the search replaces it only with a move that
does measurably better on the same worlds. Sequential halving spends the budget on the
promising moves.

The search is one level deep (the seat's own move) on purpose: at half a second a move a
deeper tree would see each of its nodes once or twice, and moves chosen on so little are
noise that a greedy playout does better without.
"""

from __future__ import annotations

import math
import random
import statistics
import time
from collections.abc import Sequence

from .actions import (
    Action,
    ClaimRoute,
    DrawBlind,
    DrawFaceUp,
    DrawTickets,
    KeepTickets,
    Pass,
    PayTunnel,
    WithdrawTunnel,
)
from .board import Map, Route
from .bots import board_of, shortest_path
from .cards import COLORS, KINDS, LOCOMOTIVE, Cards
from .errors import SetupError
from .rules import apply, is_legal, legal_actions
from .scoring import outcome
from .state import NO_CARD, NO_OWNER, GameState, Phase
from .views import View, determinize

__all__ = ["MctsBot", "Playout", "search_moves"]

_PATH_CLAIMS = 3  # claims on the mover's ticket paths searched at a turn start: the longest
_OTHER_CLAIMS = 2  # and claims off them: the longest
_HOARD = 12  # a playout hand this large claims for points whatever the tickets say
_MORE_TICKETS = 20  # trains a playout needs left to draw tickets once its own are connected
_MAX_PLAYOUT = 2_000  # actions; a playout this long is scored where it stands


# --------------------------------------------------------------------------- playouts


class Playout:
    """A fast ticket-driven policy on full states, for playouts: a cheap GreedyBot.

    It remembers, per seat, the free routes on cheapest paths for that seat's tickets.
    """

    def __init__(self, board: Map) -> None:
        self.board = board
        self.by_length = sorted(board.routes, key=lambda r: (-r.length, r.index))  # longest first
        self._targets: dict[int, tuple[tuple[int, ...], list[list[int]]]] = {}

    def targets(self, state: GameState, seat: int) -> set[int]:
        """Free routes on the seat's cheapest ticket paths.

        A path is traced again only when another seat takes one of its routes (or the seat's
        tickets change); a route the seat takes itself just leaves the set, since the rest
        of a cheapest path stays cheapest.
        """
        tickets = state.players[seat].tickets
        owners = state.owners
        cached = self._targets.get(seat)
        if cached is None or cached[0] is not tickets:
            paths = [self._path(state, seat, t) for t in tickets]
        else:
            paths = cached[1]
            for i, path in enumerate(paths):
                if any(owners[r] != NO_OWNER for r in path):
                    if all(owners[r] in (NO_OWNER, seat) for r in path):
                        paths[i] = [r for r in path if owners[r] == NO_OWNER]
                    else:
                        paths[i] = self._path(state, seat, tickets[i])
        self._targets[seat] = (tickets, paths)
        return {r for path in paths for r in path}

    def _path(self, state: GameState, seat: int, t: int) -> list[int]:
        ticket = self.board.tickets[t]
        path = shortest_path(self.board, state.owners, seat, ticket.a, ticket.b)
        return [r for r in path if state.owners[r] == NO_OWNER] if path else []

    def choose(self, state: GameState) -> Action:
        """The policy's move in ``state`` (always legal)."""
        phase = state.phase
        if phase is Phase.TURN:
            return self._turn(state)
        if phase is Phase.SECOND_DRAW:
            return self._draw(state, self.targets(state, state.current), second=True)
        if phase is Phase.TUNNEL:
            tunnel = state.tunnel
            assert tunnel is not None
            hand = state.players[state.current].hand
            pay = cheapest_payment(tunnel.colour, tunnel.extra, 0, hand)
            return WithdrawTunnel() if pay is None else PayTunnel(pay)
        return self.keep(state)

    def keep(self, state: GameState) -> KeepTickets:
        """The fewest tickets allowed, the cheapest to connect."""
        options = [a for a in legal_actions(state) if isinstance(a, KeepTickets)]
        smallest = min(len(a.tickets) for a in options)
        board, seat = self.board, state.current

        def cost(ticket_id: str) -> float:
            ticket = board.ticket(ticket_id)
            path = shortest_path(board, state.owners, seat, ticket.a, ticket.b)
            length = sum(board.routes[r].length for r in path) if path else 99
            return length - ticket.points / 2

        costs = {t: cost(t) for a in options for t in a.tickets}
        return min(
            (a for a in options if len(a.tickets) == smallest),
            key=lambda a: sum(costs[t] for t in a.tickets),
        )

    def _claim(self, state: GameState, routes: Sequence[int] | set[int]) -> ClaimRoute | None:
        """A cheapest claim of the longest claimable of ``routes``."""
        board = self.board
        player = state.players[state.current]
        closed, hand, trains = state.closed[state.current], player.hand, player.trains
        best = None
        for r in routes:
            route = board.routes[r]
            if route.length > trains or closed >> r & 1:
                continue
            if best is not None and (route.length, -r) <= (best.length, -best.index):
                continue
            if _can_pay(route.colour, route.length, route.ferry, hand):
                best = route
        if best is None:
            return None
        return _claim_of(best, hand)

    def _longest_claim(self, state: GameState) -> ClaimRoute | None:
        player = state.players[state.current]
        closed, hand, trains = state.closed[state.current], player.hand, player.trains
        for route in self.by_length:
            if route.length > trains or closed >> route.index & 1:
                continue
            if _can_pay(route.colour, route.length, route.ferry, hand):
                return _claim_of(route, hand)
        return None

    def _turn(self, state: GameState) -> Action:
        wanted = self.targets(state, state.current)
        claim = self._claim(state, wanted)
        if claim is not None:
            return claim
        player = state.players[state.current]
        if not wanted and state.ticket_deck and player.trains >= _MORE_TICKETS:
            return DrawTickets()
        if not wanted or player.hand.total >= _HOARD:
            claim = self._longest_claim(state)
            if claim is not None:
                return claim
        return self._draw(state, wanted, second=False)

    def _draw(self, state: GameState, wanted: set[int], second: bool) -> Action:
        board, row = self.board, state.row
        hand = state.players[state.current].hand
        colours = {board.routes[r].colour for r in wanted}
        if None in colours:  # a gray route: the colour held most
            colours.add(max(range(8), key=lambda c: hand[c]))
        for slot, card in enumerate(row):
            if card in colours:
                return DrawFaceUp(slot)
        if not second and wanted and LOCOMOTIVE in row:
            return DrawFaceUp(row.index(LOCOMOTIVE))
        if state.pile_top < len(state.pile) or state.discard.total:
            return DrawBlind()
        for slot, card in enumerate(row):
            if card != NO_CARD and card != LOCOMOTIVE:
                return DrawFaceUp(slot)
        if not second:
            claim = self._longest_claim(state)
            if claim is not None:
                return claim
        return legal_actions(state)[0]

    def finish(self, state: GameState) -> GameState:
        """Play ``state`` to the end (or ``_MAX_PLAYOUT`` actions) with this policy.

        The paths remembered from an earlier playout are forgotten first: they may have lost
        routes that are free again in ``state``.
        """
        self._targets.clear()
        for _ in range(_MAX_PLAYOUT):
            if state.phase is Phase.GAME_OVER:
                break
            state = apply(state, self.choose(state))
        return state


def cheapest_payment(colour: int | None, length: int, ferry: int, hand: Cards) -> Cards | None:
    """``bots.cheapest(payments(...))`` (fewest locomotives, then the colour held most), or
    None when the hand cannot pay; built directly, so playouts do not fill the cache of
    ``payments`` (a big cache makes every full garbage collection slow)."""
    locos = hand[LOCOMOTIVE]
    best_colour, best_locos, best_held = -1, length, 0
    for c in COLORS if colour is None else (() if colour == LOCOMOTIVE else (colour,)):
        held = hand[c]
        if not held:
            continue
        need = length - held
        if need < ferry:
            need = ferry
        if (
            need <= locos
            and need < length
            and (need < best_locos or (need == best_locos and held > best_held))
        ):
            best_colour, best_locos, best_held = c, need, held
    values = [0] * KINDS
    if best_colour >= 0:
        values[best_colour] = length - best_locos
        values[LOCOMOTIVE] = best_locos
    elif locos >= length:
        values[LOCOMOTIVE] = length
    else:
        return None
    return Cards(values)


def _claim_of(route: Route, hand: Cards) -> ClaimRoute:
    pay = cheapest_payment(route.colour, route.length, route.ferry, hand)
    assert pay is not None
    return ClaimRoute(route.id, pay)


def _can_pay(colour: int | None, length: int, ferry: int, hand: Cards) -> bool:
    """Whether ``payments(colour, length, ferry, hand)`` is not empty, without building it."""
    locos = hand[LOCOMOTIVE]
    if locos >= length:
        return True
    if locos < ferry:
        return False
    held = max(hand[:LOCOMOTIVE]) if colour is None else hand[colour]
    return held > 0 and held + locos >= length


# --------------------------------------------------------------------------- the moves searched


def search_moves(state: GameState, playout: Playout) -> list[Action]:
    """The legal moves the search compares in ``state`` (a subset; never empty).

    At a turn start: one cheapest claim per route for the ``_PATH_CLAIMS`` longest routes on
    the mover's ticket paths and the ``_OTHER_CLAIMS`` longest others, one face-up draw per
    card kind, the blind draw, and ticket draws; stations are left out. A second draw: one
    face-up draw per kind and the blind draw. A tunnel: the cheapest payment and withdrawing.
    A ticket choice: every legal keep.
    """
    phase = state.phase
    if phase is Phase.TURN:
        moves = _claims(state, playout)
        moves.extend(_draws(state, second=False))
        if state.ticket_deck:
            moves.append(DrawTickets())
        return moves or [legal_actions(state)[0]]
    if phase is Phase.SECOND_DRAW:
        moves = _draws(state, second=True)
        if state.rules.second_card_optional:
            moves.append(Pass())
        return moves or [legal_actions(state)[0]]
    if phase is Phase.TUNNEL:
        tunnel = state.tunnel
        assert tunnel is not None
        hand = state.players[state.current].hand
        pay = cheapest_payment(tunnel.colour, tunnel.extra, 0, hand)
        return [WithdrawTunnel()] if pay is None else [PayTunnel(pay), WithdrawTunnel()]
    return list(legal_actions(state))  # the ticket choices


def _draws(state: GameState, second: bool) -> list[Action]:
    moves: list[Action] = []
    seen: set[int] = set()
    for slot, card in enumerate(state.row):
        if card != NO_CARD and card not in seen and not (second and card == LOCOMOTIVE):
            seen.add(card)
            moves.append(DrawFaceUp(slot))
    if state.pile_top < len(state.pile) or state.discard.total:
        moves.append(DrawBlind())
    return moves


def _claims(state: GameState, playout: Playout) -> list[Action]:
    """The cheapest claims of the longest claimable routes, on the ticket paths and off."""
    seat = state.current
    player = state.players[seat]
    closed, hand, trains = state.closed[seat], player.hand, player.trains
    wanted = playout.targets(state, seat)
    out: list[Action] = []
    left = {True: _PATH_CLAIMS, False: _OTHER_CLAIMS}
    for route in playout.by_length:
        on_path = route.index in wanted
        if not left[on_path] or route.length > trains or closed >> route.index & 1:
            continue
        if _can_pay(route.colour, route.length, route.ferry, hand):
            out.append(_claim_of(route, hand))
            left[on_path] -= 1
    return out


# --------------------------------------------------------------------------- the search


def _reward(state: GameState, seat: int, margin_scale: float) -> float:
    """Half the seat's share of the win, half its squashed margin over the best other seat."""
    result = outcome(state)
    totals = result.totals
    best_other = max(t for s, t in enumerate(totals) if s != seat)
    margin = math.tanh((totals[seat] - best_other) / margin_scale)
    share = 1.0 / len(result.winners) if seat in result.winners else 0.0
    return 0.5 * share + 0.25 * (1.0 + margin)


class MctsBot:
    """Monte Carlo search over determinized worlds, with ticket-driven playouts.

    Every world is sampled from the view alone (``views.determinize``): the search never reads
    a hidden card. The move the playout policy would make is the baseline; every other
    searched move is played in the same worlds as the baseline (common random numbers, so
    moves are compared on equal luck) and each game finished with ``Playout``. Sequential
    halving drops the worse half of the alternatives after each round, spending the budget
    on the better ones, and the best alternative replaces the baseline only when its mean
    gain over it exceeds ``confidence`` standard errors. Second draws and tunnel payments
    follow the playout policy without a search.

    ``iterations`` caps the playouts of one decision; ``seconds`` caps its processor time
    (``time.process_time``, so a busy machine does not weaken it: no new world is started
    that would end past it, judging by the playouts so far); with both, whichever comes
    first. Each searched move is played at least once. Only the randomness handed to
    ``choose`` is used, so with an iteration budget a game is reproducible.
    """

    name = "mcts"

    def __init__(
        self,
        iterations: int | None = 120,
        seconds: float | None = None,
        *,
        confidence: float = 1.0,
        margin_scale: float = 20.0,
    ) -> None:
        if iterations is None and seconds is None:
            raise SetupError("an MctsBot needs a budget: iterations, seconds or both")
        if iterations is not None and (type(iterations) is not int or iterations < 1):
            raise SetupError(f"iterations must be a positive int, not {iterations!r}")
        if seconds is not None and not (isinstance(seconds, int | float) and seconds > 0):
            raise SetupError(f"seconds must be a positive number, not {seconds!r}")
        self.iterations = iterations
        self.seconds = seconds
        self.confidence = confidence
        self.margin_scale = margin_scale
        self.last_playouts = 0  # playouts run by the last decision, for benchmarks

    def choose(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        seat = view.observer
        if seat is None:
            raise SetupError("a bot needs the view of its own seat, not a spectator's")
        self.last_playouts = 0
        if len(legal) == 1:
            return legal[0]
        board = board_of(view)
        playout = Playout(board)
        world = determinize(view, seat, rng, map=board)
        own = playout.choose(world)
        best = own
        if view.phase is not Phase.SECOND_DRAW and view.phase is not Phase.TUNNEL:
            others = [m for m in search_moves(world, playout) if m != own]
            if others:
                best = self._search(view, seat, rng, world, own, others, playout)
        return best if is_legal(world, best) else legal[0]

    def _search(
        self,
        view: View,
        seat: int,
        rng: random.Random,
        world: GameState,
        base: Action,
        others: list[Action],
        playout: Playout,
    ) -> Action:
        """Sequential halving over ``others``, each played in the same worlds as ``base``."""
        clock = time.process_time
        start = clock()
        seconds = self.seconds
        gains: dict[Action, list[float]] = {m: [] for m in others}
        alive = list(others)
        rounds = math.ceil(math.log2(len(others))) + 1  # the last round: one alternative
        budget = self.iterations
        done = 0
        out_of_time = False

        def value(move: Action) -> float:
            end = playout.finish(apply(world, move))
            return _reward(end, seat, self.margin_scale)

        for round_ in range(rounds):
            at_start = done
            while not out_of_time:
                baseline = value(base)
                for m in alive:
                    gains[m].append(value(m) - baseline)
                done += 1 + len(alive)
                world = determinize(view, seat, rng, map=playout.board)
                if seconds is not None:
                    spent = clock() - start
                    per_playout = spent / done
                    # stop before a world that would end past the limit, not after it
                    out_of_time = spent + per_playout * (1 + len(alive)) > seconds
                    by_time = int(seconds / max(per_playout, 1e-9))
                    budget = by_time if budget is None else min(budget, by_time)
                assert budget is not None
                share = (budget - at_start) // (rounds - round_)
                if done - at_start + 1 + len(alive) > share:
                    break
            if out_of_time or (budget is not None and done >= budget):
                break
            alive.sort(key=lambda m: -_mean(gains[m]))  # stable: ties keep the search order
            alive = alive[: max(1, len(alive) // 2)]
        self.last_playouts = done
        best = max(alive, key=lambda m: _mean(gains[m]))
        sample = gains[best]
        if len(sample) < 2:
            return base
        spread = statistics.stdev(sample) / math.sqrt(len(sample))
        return best if _mean(sample) > self.confidence * spread else base


def _mean(values: list[float]) -> float:
    return sum(values) / len(values)
