"""A ladder of opponents between ``RandomBot`` and ``MctsBot``, to measure progress against.

Each rung adds one idea to the one below (ratings in docs/bots.md, ``scripts/styles.py``):

- ``random``: uniform among the legal moves (``bots.RandomBot``).
- ``claimer``: ticket-blind; claims the longest route it can pay for, else draws blind.
- ``saver``: ticket-blind too, but saves its cards for long routes: it claims only routes of
  ``SAVE_FOR`` cars or more (any route once its trains run low) and draws face up the two
  colours it holds most, so its sets grow toward the long routes that score most per car.
- ``racer``: the "racing" style that learners on the USA map converge on (wqparker's
  ttr-strategy-emergence study): keeps the two cheapest tickets (fewest trains to finish) at
  every ticket choice, never draws more, claims the longest route it can pay for and draws the
  colours of the longest routes still open, to run its trains out and end the game fast.
- ``greedy``: connects its tickets along cheapest paths (``bots.GreedyBot``).
- ``ambitious``: plays as ``greedy`` but keeps the tickets worth most, so it holds (and
  pursues) the long tickets ``greedy`` always returns (``AmbitiousBot``); a side step of the
  ladder rather than a rung above ``greedy``, there so that a playtest sees long tickets held.
- ``mcts-fast``: the search bot on a budget of ``FAST_ITERATIONS`` playouts a move (a few
  milliseconds), so that thousands of games fit on a small machine.
- ``mcts``: the search bot at its default budget (``mcts.MctsBot``).

All of them read only their view, like every fair bot.

policies.c's bots (``fg_play_bots``) mirror ``ClaimerBot``, ``SaverBot`` and ``AmbitiousBot`` move
for move, as they do ``bots.RandomBot`` and ``bots.GreedyBot``. The differential tests
(tests/sim/test_engines.py, tests/playtest/test_games_logs.py) keep the two alike.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..actions import (
    Action,
    BuildStation,
    ClaimRoute,
    DrawBlind,
    DrawFaceUp,
    KeepTickets,
    PayTunnel,
    WithdrawTunnel,
)
from ..cards import LOCOMOTIVE
from ..errors import SetupError
from ..state import NO_OWNER, Phase
from ..views import View
from ._routing import board_of, cheapest, shortest_path
from .bots import GreedyBot, _Seat

if TYPE_CHECKING:
    from .mcts import MctsBot

__all__ = [
    "FAST_ITERATIONS",
    "LADDER",
    "SAVE_FOR",
    "AmbitiousBot",
    "ClaimerBot",
    "RacerBot",
    "SaverBot",
    "fast_mcts",
]

SAVE_FOR = 3  # the shortest route a SaverBot claims while it has trains to spare
FAST_ITERATIONS = 8  # playouts a move of ``mcts-fast``


def _fewest_tickets(legal: Sequence[Action]) -> Action:
    """The first way to keep as few tickets as allowed: the choice of a ticket-blind bot."""
    keeps = [a for a in legal if isinstance(a, KeepTickets)]
    return min(keeps, key=lambda a: len(a.tickets))


def _tunnel(view: View, legal: Sequence[Action]) -> Action:
    """Pay a pending tunnel the cheapest way when possible, else withdraw."""
    pays = [a.payment for a in legal if isinstance(a, PayTunnel)]
    hand = view.me.hand if view.me is not None and view.me.hand is not None else None
    if pays and hand is not None:
        return PayTunnel(cheapest(pays, hand))
    return WithdrawTunnel()


def _longest_claim(view: View, legal: Sequence[Action], shortest: int) -> ClaimRoute | None:
    """The cheapest payment for the longest route of ``shortest`` cars or more it can claim."""
    board = board_of(view)
    me = view.me
    claims = [a for a in legal if isinstance(a, ClaimRoute)]
    if not claims or me is None or me.hand is None:
        return None
    longest = max(board.route(a.route).length for a in claims)
    if longest < shortest:
        return None
    route = min(
        (board.route(a.route) for a in claims if board.route(a.route).length == longest),
        key=lambda r: r.index,
    )
    payments = [a.payment for a in claims if a.route == route.id]
    return ClaimRoute(route.id, cheapest(payments, me.hand))


def _draw(legal: Sequence[Action], rng: random.Random, slots: Sequence[int] = ()) -> Action:
    """The first of ``slots`` that may be drawn face up, else a blind draw, else any move."""
    for slot in slots:
        if DrawFaceUp(slot) in legal:
            return DrawFaceUp(slot)
    if DrawBlind() in legal:
        return DrawBlind()
    rest: list[Action] = [a for a in legal if not isinstance(a, BuildStation)] or list(legal)
    return rest[rng.randrange(len(rest))]


def _choose(view: View, legal: Sequence[Action]) -> Action | None:
    """The moves both ticket-blind bots make alike: ticket choices and tunnels."""
    if view.phase is Phase.INITIAL_TICKETS or view.phase is Phase.CHOOSE_TICKETS:
        return _fewest_tickets(legal)
    if view.phase is Phase.TUNNEL:
        return _tunnel(view, legal)
    return None


class ClaimerBot:
    """Ticket-blind: claims the longest route it can pay for, else draws a blind card."""

    name = "claimer"

    def choose(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        move = _choose(view, legal)
        if move is not None:
            return move
        if view.phase is not Phase.SECOND_DRAW:
            claim = _longest_claim(view, legal, 1)
            if claim is not None:
                return claim
        return _draw(legal, rng)


class SaverBot:
    """Ticket-blind, saving cards: claims only long routes, draws the colours it holds most."""

    name = "saver"

    def choose(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        move = _choose(view, legal)
        if move is not None:
            return move
        me = view.me
        if me is None or me.hand is None:
            raise SetupError("a bot needs the view of its own seat, not a spectator's")
        if view.phase is not Phase.SECOND_DRAW:
            claim = _longest_claim(view, legal, SAVE_FOR if me.trains > 2 * SAVE_FOR else 1)
            if claim is not None:
                return claim
        hand = me.hand
        colours = sorted((c for c in range(8) if c != LOCOMOTIVE), key=lambda c: -hand[c])
        wanted = [s for c in colours[:2] for s, card in enumerate(view.row) if card == c]
        return _draw(legal, rng, wanted)


class AmbitiousBot(GreedyBot):
    """``GreedyBot`` that keeps the tickets worth most: as few as allowed, most points first
    (the offer's order among equals), then connects them as ``GreedyBot`` does.

    At the start it is dealt one long ticket (20-21 points on Europe) among regular ones worth
    at most 13, so it always keeps the long one, which ``GreedyBot`` (cheapest path first)
    never does; it draws more tickets, as ``GreedyBot``, once its own are connected.
    """

    name = "ambitious"

    def _keep(self, seat: _Seat, legal: Sequence[Action]) -> Action:
        board = seat.board
        options = [a for a in legal if isinstance(a, KeepTickets)]
        smallest = min(len(a.tickets) for a in options)
        best = sorted(seat.offer, key=lambda t: -board.tickets[t].points)[:smallest]
        keep = KeepTickets(board.tickets[t].id for t in best)
        return keep if keep in options else options[0]


RACER_KEEPS = 2  # the tickets a RacerBot keeps at every ticket choice


def _owners(view: View) -> list[int]:
    """The seat owning each route, by index (``NO_OWNER`` when free)."""
    board = board_of(view)
    owners = [NO_OWNER] * len(board.routes)
    for p in view.players:
        for r in p.routes:
            owners[board.route_index[r]] = p.seat
    return owners


class RacerBot:
    """Races to the end: the two cheapest tickets, no more, the longest routes it can pay for.

    A ticket's cost is the trains its cheapest path still needs (its own routes free, others'
    closed; unreachable: never cheapest). It draws face up the colours of the longest free
    routes it has trains for (a gray one: the colour it holds most), else blind.
    """

    name = "racer"

    def choose(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        if view.phase is Phase.INITIAL_TICKETS or view.phase is Phase.CHOOSE_TICKETS:
            return self._keep(view, legal)
        if view.phase is Phase.TUNNEL:
            return _tunnel(view, legal)
        if view.phase is not Phase.SECOND_DRAW:
            claim = _longest_claim(view, legal, 1)
            if claim is not None:
                return claim
        return _draw(legal, rng, self._wanted_slots(view))

    def _keep(self, view: View, legal: Sequence[Action]) -> Action:
        me = view.me
        keeps = [a for a in legal if isinstance(a, KeepTickets)]
        if me is None or me.offer is None:
            raise SetupError("a bot needs the view of its own seat, not a spectator's")
        board, owners = board_of(view), _owners(view)

        def trains(ticket_id: str) -> int:
            ticket = board.tickets[board.ticket_index[ticket_id]]
            path = shortest_path(board, owners, me.seat, ticket.a, ticket.b)
            if path is None:
                return 1 << 20
            return sum(board.routes[r].length for r in path if owners[r] == NO_OWNER)

        fewest = min(len(a.tickets) for a in keeps)
        most = max(len(a.tickets) for a in keeps)
        size = min(max(RACER_KEEPS, fewest), most)
        offer = me.offer
        ranked = sorted(offer, key=lambda t: (trains(t), offer.index(t)))
        keep = KeepTickets(ranked[:size])
        return keep if keep in keeps else _fewest_tickets(legal)

    def _wanted_slots(self, view: View) -> list[int]:
        me = view.me
        if me is None or me.hand is None:
            raise SetupError("a bot needs the view of its own seat, not a spectator's")
        board, owners = board_of(view), _owners(view)
        free = [
            route
            for route in board.routes
            if owners[route.index] == NO_OWNER and route.length <= me.trains
        ]
        if not free:
            return []
        longest = max(route.length for route in free)
        hand = me.hand
        held_most = max((c for c in range(8) if c != LOCOMOTIVE), key=lambda c: hand[c])
        colours = {held_most if r.colour is None else r.colour for r in free if r.length == longest}
        return [slot for slot, card in enumerate(view.row) if card in colours]


def fast_mcts() -> MctsBot:
    """The search bot on a budget of ``FAST_ITERATIONS`` playouts a move."""
    from .mcts import MctsBot  # the search module is loaded only when asked for

    bot = MctsBot(iterations=FAST_ITERATIONS)
    bot.name = "mcts-fast"
    return bot


LADDER = ("random", "claimer", "saver", "racer", "greedy", "ambitious", "mcts-fast", "mcts")
