"""Ready-made players: a uniform random bot and a simple ticket-driven greedy bot.

A bot is anything with ``choose(state) -> Action``. These bots read only what their seat may
know (public facts, their own hand and tickets), so they can be pitted against each other fairly.
"""

from __future__ import annotations

import heapq
import random
from collections.abc import Iterable, Sequence
from typing import Protocol

from .actions import (
    Action,
    BuildStation,
    ClaimRoute,
    DrawBlind,
    DrawFaceUp,
    DrawTickets,
    KeepTickets,
    PayTunnel,
    WithdrawTunnel,
)
from .board import Map
from .cards import LOCOMOTIVE, Cards, payments
from .errors import SetupError
from .rules import is_legal, legal_actions
from .state import NO_CARD, NO_OWNER, GameState, Phase


class Bot(Protocol):
    name: str

    def choose(self, state: GameState) -> Action: ...


class RandomBot:
    """Picks uniformly among the legal actions (the benchmark policy)."""

    def __init__(self, seed: int = 0) -> None:
        self.name = "random"
        self._rng = random.Random(seed)

    def choose(self, state: GameState) -> Action:
        options = legal_actions(state)
        return options[self._rng.randrange(len(options))]


def _cheapest(options: Sequence[Cards], hand: Cards) -> Cards:
    """The payment with fewest locomotives, then in the colour held most."""

    def cost(payment: Cards) -> tuple[int, int]:
        held = max((hand[c] for c in range(8) if payment[c]), default=0)
        return payment[LOCOMOTIVE], -held

    return min(options, key=cost)


def _shortest_path(
    board: Map, owners: tuple[int, ...], seat: int, source: int, target: int
) -> list[int] | None:
    """Routes of a cheapest path (own routes free, free routes by length, others' closed)."""
    best = {source: 0}
    back: dict[int, tuple[int, int]] = {}
    queue = [(0, source)]
    while queue:
        dist, city = heapq.heappop(queue)
        if city == target:
            path: list[int] = []
            while city != source:
                r, city = back[city]
                path.append(r)
            return path
        if dist > best.get(city, 1 << 30):
            continue
        for r in board.routes_at[city]:
            owner = owners[r]
            if owner not in (NO_OWNER, seat):
                continue
            track = board.routes[r]
            other = track.b if track.a == city else track.a
            step = dist + (0 if owner == seat else track.length)
            if step < best.get(other, 1 << 30):
                best[other] = step
                back[other] = (r, city)
                heapq.heappush(queue, (step, other))
    return None


class GreedyBot:
    """Connects its tickets along cheapest paths, drawing the colours those routes need.

    Keeps the starting tickets with the shortest connections, claims the longest useful route it
    can pay for, draws matching face-up cards, pays tunnels when it can, and claims long routes
    for points once its tickets are done.
    """

    def __init__(self, seed: int = 0) -> None:
        self.name = "greedy"
        self._rng = random.Random(seed)

    def choose(self, state: GameState) -> Action:
        phase = state.phase
        if phase is Phase.INITIAL_TICKETS or phase is Phase.CHOOSE_TICKETS:
            return self._keep(state)
        if phase is Phase.TUNNEL:
            pays = [a for a in legal_actions(state) if isinstance(a, PayTunnel)]
            hand = state.player.hand
            return PayTunnel(_cheapest([a.payment for a in pays], hand)) if pays else (
                WithdrawTunnel())  # fmt: skip
        if phase is Phase.SECOND_DRAW:
            return self._draw(state, second=True)
        return self._turn(state)

    def _wanted_routes(self, state: GameState) -> list[int]:
        board, seat = state.map, state.current
        wanted: list[int] = []
        for t in state.player.tickets:
            ticket = board.tickets[t]
            path = _shortest_path(board, state.owners, seat, ticket.a, ticket.b)
            if path:
                wanted.extend(r for r in path if state.owners[r] == NO_OWNER)
        return wanted

    def _keep(self, state: GameState) -> Action:
        options = list(legal_actions(state))
        board = state.map
        offer = state.player.offer

        def cost(t: int) -> float:
            ticket = board.tickets[t]
            path = _shortest_path(board, state.owners, state.current, ticket.a, ticket.b)
            length = sum(board.routes[r].length for r in path) if path else 99
            return length - ticket.points / 2

        ranked = sorted(offer, key=cost)
        smallest = min(len(a.tickets) for a in options if isinstance(a, KeepTickets))
        keep = tuple(board.tickets[t].id for t in ranked[:smallest])
        for a in options:
            if isinstance(a, KeepTickets) and sorted(a.tickets) == sorted(keep):
                return a
        return options[0]

    def _turn(self, state: GameState) -> Action:
        player = state.player
        wanted = self._wanted_routes(state)
        claim = _longest_claim(state, wanted)
        if claim is not None:
            return claim
        if not wanted and state.ticket_deck and player.trains >= 20:
            return DrawTickets()
        if not wanted or player.hand.total >= 12:  # nothing to build for, or hoarding: score
            claim = _longest_claim(state, range(len(state.map.routes)))
            if claim is not None:
                return claim
        draw = self._draw(state, second=False, wanted=wanted)
        if is_legal(state, draw):
            return draw
        options = [a for a in legal_actions(state) if not isinstance(a, BuildStation)]
        return self._rng.choice(options) if options else legal_actions(state)[0]

    def _draw(self, state: GameState, second: bool, wanted: list[int] | None = None) -> Action:
        board, hand = state.map, state.player.hand
        if wanted is None:
            wanted = self._wanted_routes(state)
        colours = {board.routes[r].colour for r in wanted}
        if None in colours:  # a gray route: the colour held most
            colours.add(max(range(8), key=lambda c: hand[c]))
        for slot, card in enumerate(state.row):
            if card != NO_CARD and card in colours:
                return DrawFaceUp(slot)
        if not second and LOCOMOTIVE in state.row and wanted:
            return DrawFaceUp(state.row.index(LOCOMOTIVE))
        if is_legal(state, DrawBlind()):
            return DrawBlind()
        options = list(legal_actions(state))
        return self._rng.choice(options)


def _longest_claim(state: GameState, routes: Iterable[int]) -> ClaimRoute | None:
    """The cheapest legal claim of the longest of ``routes`` that the hand can pay for."""
    board, hand = state.map, state.player.hand
    for r in sorted(set(routes), key=lambda r: (-board.routes[r].length, r)):
        route = board.routes[r]
        options = payments(route.colour, route.length, route.ferry, hand)
        if options:
            claim = ClaimRoute(route.id, _cheapest(options, hand))
            if is_legal(state, claim):
                return claim
    return None


BOTS: dict[str, type[RandomBot] | type[GreedyBot]] = {"random": RandomBot, "greedy": GreedyBot}


def make_bot(name: str, seed: int = 0) -> Bot:
    """A bot by name ("random", "greedy")."""
    try:
        return BOTS[name](seed)
    except KeyError:
        raise SetupError(f"unknown bot {name!r}; known: {', '.join(BOTS)}") from None


def play(state: GameState, bots: Sequence[Bot], max_steps: int = 100_000) -> list[GameState]:
    """Play to the end, each seat moved by its bot; returns every state from ``state`` on."""
    from .rules import apply

    history = [state]
    for _ in range(max_steps):
        if state.phase is Phase.GAME_OVER:
            break
        state = apply(state, bots[state.current].choose(state))
        history.append(state)
    return history
