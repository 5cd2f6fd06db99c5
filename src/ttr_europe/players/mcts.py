"""A search bot: information-set Monte Carlo tree search over determinized worlds.

The seat knows only its view, so every iteration of the search samples a world the seat cannot
tell apart from it (``views.determinize``, which never reads a hidden card) and walks a tree of
the seat's own decisions in that world, the other seats answering with ``Playout``, a fast
ticket-driven policy (a cheap ``GreedyBot`` that works on the sampled full state), which also
finishes the game. Moves are judged by their gain over the policy's own game in the same world
(common random numbers), and the policy's move is kept unless another does measurably better:
at half a second a move the search runs a few hundred playouts, and a move chosen on noise
loses to the policy it was meant to improve.

policies.c's greedy policy (``fg_greedy_playout``) mirrors ``Playout``, and search.c's search step
(``fg_search_step``) mirrors ``search_moves`` and the walk of ``MctsBot._iterate``. The
differential tests (tests/fast/test_fast.py, tests/fast/test_fast_search.py) keep them alike.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from typing import Any, Protocol, TypeVar, cast

from .. import fast
from ..actions import (
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
from ..board import Map, Route
from ..cards import COLORS, KINDS, LOCOMOTIVE, Cards
from ..errors import SetupError
from ..loop import finish
from ..rules import apply, is_legal, legal_actions
from ..scoring import Outcome, outcome
from ..state import NO_CARD, NO_OWNER, GameState, Phase, Rules
from ..views import Sampler, View, determinize, rules_for
from ._routing import board_of, shortest_path

__all__ = ["CoreMctsBot", "MctsBot", "Playout", "search_moves"]

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

    def forget(self) -> None:
        """Drop the remembered paths: a new world may have other routes free."""
        self._targets.clear()

    def finish(self, state: GameState) -> GameState:
        """Play ``state`` to the end (or ``_MAX_PLAYOUT`` actions) with this policy.

        The paths remembered from an earlier playout are forgotten first: they may have lost
        routes that are free again in ``state``.
        """
        self.forget()
        return finish(state, self.choose, max_actions=_MAX_PLAYOUT)[0]


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

_M = TypeVar("_M", Action, int)  # a move of the tree: an action, or a key of the core's walk
_W = TypeVar("_W")  # a world as a search walks it: a GameState, or a game in the core

_DECISIONS = (Phase.TURN, Phase.INITIAL_TICKETS, Phase.CHOOSE_TICKETS)
"""Phases in which the searching seat's move is a node of the tree; in the others (a second
draw, a tunnel) it follows the playout policy, as every other seat does."""


def _reward(state: GameState, seat: int, margin_scale: float) -> float:
    """Half the seat's share of the win, half its squashed margin over the best other seat."""
    return _reward_of(outcome(state), seat, margin_scale)


def _reward_of(result: Outcome, seat: int, margin_scale: float) -> float:
    totals = result.totals
    best_other = max(t for s, t in enumerate(totals) if s != seat)
    margin = math.tanh((totals[seat] - best_other) / margin_scale)
    share = 1.0 / len(result.winners) if seat in result.winners else 0.0
    return 0.5 * share + 0.25 * (1.0 + margin)


class Node:
    """One of the searching seat's information sets: its moves so far from the root.

    ``available`` counts the iterations in which the node's move could be played (the
    availability count of information-set MCTS: a move legal in some sampled worlds only is
    judged against the iterations that could have chosen it).
    """

    __slots__ = ("available", "children", "squares", "total", "visits")

    def __init__(self) -> None:
        self.children: dict[Action | int, Node] = {}  # by move (by key in the core's walk)
        self.visits = 0
        self.total = 0.0
        self.squares = 0.0
        self.available = 0

    def mean(self) -> float:
        return self.total / self.visits if self.visits else 0.0

    def error(self) -> float:
        """The standard error of the mean (infinite below two visits)."""
        n = self.visits
        if n < 2:
            return math.inf
        variance = max(0.0, (self.squares - self.total * self.total / n) / (n - 1))
        return math.sqrt(variance / n)


def _back_up(path: list[Node], gain: float) -> None:
    for visited in path:
        visited.visits += 1
        visited.total += gain
        visited.squares += gain * gain


class MctsBot:
    """Information-set Monte Carlo tree search over determinized worlds.

    Every iteration samples a world from the view alone (``views.determinize``: the search
    never reads a hidden card) and walks the tree of the seat's own decisions in it: at each
    node it picks by UCB1 among the searched moves legal in that world (``search_moves``,
    counted by availability, ``exploration`` the constant), the other seats and the seat's
    second draws and tunnel payments answering with ``Playout``. One new node is added per
    iteration (down to ``depth`` decisions), the game is finished by ``Playout``, and the
    gain is backed up the path: the reward (win share and squashed margin) minus that of the
    policy's own game in the same world, each world serving ``per_world`` iterations. The
    root tries every searched move; deeper nodes widen progressively (``widening`` times the
    square root of their visits), the policy's move first, so where the tree is thin it plays
    as the policy does. The policy's move starts with ``prior`` visits of no gain. The move
    played is the root's most visited, if it beats the policy's move by ``confidence``
    standard errors; else the policy's move.

    ``iterations`` caps the iterations (playouts) of one decision; ``seconds`` caps its
    processor time (``time.process_time``, so a busy machine does not weaken it; no
    iteration is started that would end past it, judging by those so far); with both,
    whichever comes first. Only the randomness handed to ``choose`` is used, so with an
    iteration budget a game is reproducible.

    ``compiled``: finish the playouts in the compiled core (``ttr_europe.fast``), which plays
    ``Playout``'s games move for move and scores them the same way, so only the speed
    differs; ``None`` (the default) uses it when it is built.
    """

    name = "mcts"

    def __init__(
        self,
        iterations: int | None = 120,
        seconds: float | None = None,
        *,
        exploration: float = 0.35,
        widening: float = 0.5,
        depth: int = 4,
        per_world: int = 4,
        prior: int = 8,
        confidence: float = 1.0,
        margin_scale: float = 20.0,
        compiled: bool | None = None,
    ) -> None:
        if iterations is None and seconds is None:
            raise SetupError("an MctsBot needs a budget: iterations, seconds or both")
        if iterations is not None and (type(iterations) is not int or iterations < 1):
            raise SetupError(f"iterations must be a positive int, not {iterations!r}")
        if seconds is not None and not (isinstance(seconds, int | float) and seconds > 0):
            raise SetupError(f"seconds must be a positive number, not {seconds!r}")
        counts = (("depth", depth, 1), ("per_world", per_world, 1), ("prior", prior, 0))
        for label, count, least in counts:
            if type(count) is not int or count < least:
                raise SetupError(f"{label} must be an int of at least {least}, not {count!r}")
        numbers = {"exploration": exploration, "widening": widening,
                   "confidence": confidence, "margin_scale": margin_scale}  # fmt: skip
        for label, number in numbers.items():
            if not (isinstance(number, int | float) and 0 <= number < math.inf):
                raise SetupError(f"{label} must be a number of at least 0, not {number!r}")
        if margin_scale == 0:
            raise SetupError("margin_scale must be above 0")
        if compiled is not None and type(compiled) is not bool:
            raise SetupError(f"compiled must be True, False or None, not {compiled!r}")
        if compiled and not fast.available():
            raise SetupError("compiled=True, but the compiled core is not built "
                             "(python -m ttr_europe.fast.build)")  # fmt: skip
        self.compiled = fast.available() if compiled is None else compiled
        self._required = compiled is True  # a board beyond the core is refused, not searched
        self.iterations = iterations
        self.seconds = seconds
        self.exploration = exploration
        self.widening = widening
        self.depth = depth
        self.per_world = per_world
        self.prior = prior
        self.confidence = confidence
        self.margin_scale = margin_scale
        self.last_playouts = 0  # iterations run by the last decision, for benchmarks
        self.last_tree: Node | None = None  # the root of the last search, for inspection

    def choose(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        seat = view.observer
        if seat is None:
            raise SetupError("a bot needs the view of its own seat, not a spectator's")
        self.last_playouts = 0
        self.last_tree = None
        if len(legal) == 1:
            return legal[0]
        board = board_of(view)
        playout = Playout(board)
        world = determinize(view, seat, rng, map=board)
        if view.phase not in _DECISIONS:
            move = playout.choose(world)
        else:
            own = playout.choose(world)
            root = self.search(view, seat, rng, playout)
            move = self._best(root, own)
        return move if is_legal(world, move) else legal[0]

    def search(self, view: View, seat: int, rng: random.Random, playout: Playout) -> Node:
        """The tree grown from ``view`` within the budget (at least one iteration).

        Each sampled world serves ``per_world`` iterations, and each iteration's reward is
        its gain over the policy's own game in that world (a control variate: the luck of
        the deal, which the seat's move cannot change, cancels out of the comparison).
        """

        def world_of(world: GameState) -> tuple[GameState, float]:
            return world, self._finish(world, seat, playout)

        def iterate(root: Node, world: GameState, baseline: float) -> None:
            self._iterate(root, world, seat, playout, baseline)

        return self._grow(view, seat, rng, playout.board, world_of, iterate)

    def _grow(
        self,
        view: View,
        seat: int,
        rng: random.Random,
        board: Map,
        world_of: Callable[[GameState], tuple[_W, float]],
        iterate: Callable[[Node, _W, float], None],
    ) -> Node:
        """``search``'s budget and worlds: each world sampled from the view is made ready by
        ``world_of`` (with the reward of the policy's own game in it) and serves
        ``per_world`` calls of ``iterate``."""
        clock = time.process_time
        start = clock()
        sampler = Sampler(view, seat, map=board)  # the view's work once, not once a world
        root = Node()
        done = 0
        world, baseline = None, 0.0
        while True:
            if done % self.per_world == 0:
                world, baseline = world_of(sampler.sample(rng))
            assert world is not None
            iterate(root, world, baseline)
            done += 1
            if self.iterations is not None and done >= self.iterations:
                break
            if self.seconds is not None:
                spent = clock() - start
                if spent + spent / done > self.seconds:  # the next one would end past it
                    break
        self.last_playouts = done
        self.last_tree = root
        return root

    def _best(self, root: Node, own: _M) -> _M:
        """The most visited move, if it beats the policy's own by ``confidence`` standard
        errors (of both means); else the policy's move."""
        move, best = max(root.children.items(), key=lambda kv: (kv[1].visits, kv[1].mean()))
        base = root.children.get(own)
        if move == own or base is None:
            return cast(_M, move)
        spread = math.hypot(best.error(), base.error() if base.visits > 1 else 0.0)
        return cast(_M, move) if best.mean() - base.mean() > self.confidence * spread else own

    def _value(self, end: GameState, seat: int) -> float:
        return _reward(end, seat, self.margin_scale)

    def _finish(self, state: GameState, seat: int, playout: Playout) -> float:
        """The reward of ``playout.finish(state)``: in the compiled core when it is used (the
        same game move for move, scored the same way, docs/fast.md), else in Python."""
        if not self._in_core(state.rules):
            return self._value(playout.finish(state), seat)
        game = fast.FastGame.from_state(state)
        game.greedy_playout(_MAX_PLAYOUT)
        return _reward_of(game.outcome(), seat, self.margin_scale)

    def _in_core(self, rules: Rules, search: bool = False) -> bool:
        """Whether to play in the core under ``rules``: when it is used and takes them
        (``fast.takes``); a board beyond its limits plays in Python, unless ``compiled=True``
        asked for the core, which then refuses the board (``BadArgumentError``)."""
        return self.compiled and (self._required or fast.takes(rules, search=search))

    def _iterate(
        self, root: Node, state: GameState, seat: int, playout: Playout, baseline: float
    ) -> None:
        """One iteration: walk down (adding one node), finish the game, back up the gain."""
        playout.forget()
        node, path, expanded = root, [root], False
        while state.phase is not Phase.GAME_OVER:
            if state.current != seat or state.phase not in _DECISIONS:
                state = apply(state, playout.choose(state))
                continue
            if expanded or len(path) > self.depth:
                break  # a new node, or as deep as the tree goes: the playout takes over
            move, node, expanded = self._select(node, state, playout, wide=node is root)
            path.append(node)
            state = apply(state, move)
        _back_up(path, self._finish(state, seat, playout) - baseline)

    def _select(
        self, node: Node, state: GameState, playout: Playout, wide: bool
    ) -> tuple[Action, Node, bool]:
        """The move to follow from ``node`` in ``state``: an untried one if the node may
        widen (the policy's first), else the best by UCB1 over the moves legal here."""
        own = playout.choose(state)
        return self._pick(node, [own, *(m for m in search_moves(state, playout) if m != own)],
                          wide)  # fmt: skip

    def _pick(self, node: Node, moves: list[_M], wide: bool) -> tuple[_M, Node, bool]:
        """``_select`` over ``moves``, the policy's first (actions, or the core's keys)."""
        own = moves[0]
        if not wide:
            moves = moves[: 1 + int(self.widening * math.sqrt(node.visits))]
        children = node.children
        untried = None
        for move in moves:
            child = children.get(move)
            if child is not None:
                child.available += 1
            elif untried is None:
                untried = move
        if untried is not None:
            child = children[untried] = Node()
            child.available = 1
            if untried == own:  # the policy's move starts with a record of breaking even
                child.visits = child.available = self.prior
            return untried, child, True
        c = self.exploration

        def ucb(move: _M) -> float:
            child = children[move]
            return child.mean() + c * math.sqrt(math.log(child.available) / child.visits)

        best = max(moves, key=ucb)
        return best, children[best], False


class Guide(Protocol):
    """What ``CoreMctsBot`` asks of a guide: a bot's ``choose`` (``bots.Bot``, which sits above
    this module)."""

    def choose(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action: ...


class CoreMctsBot(MctsBot):
    """``MctsBot``'s search with the whole walk in the compiled core, not only the playouts.

    The same tree, moves, gains and guard; but each world is loaded into the core once and
    every iteration restores it (``FastGame.copy_from``) and walks it there: the other seats
    and the seat's second draws answer with the core's copy of ``Playout``, the moves searched
    come from ``FastGame.search_step`` as keys (one int a move, the same in every world) and
    are played with ``apply_key``, and the playout finishes in the core. The Python engine is
    left with the sampling of worlds and the tree's bookkeeping, so a second of processor time
    buys several times the playouts. Without the core built it searches as ``MctsBot`` does.
    """

    name = "mcts-core"
    DEFAULT_ITERATIONS = 600
    """The budget of ``make_bot("mcts-core")``: about the processor time of ``mcts``'s 120."""

    def __init__(
        self, iterations: int | None = 120, seconds: float | None = None, *,
        guide: Guide | None = None, **options: Any,
    ) -> None:  # fmt: skip
        """``guide``: another bot (a learned policy, say) whose move leads instead of the
        greedy policy's: at the root, where the search lists it, it is the move kept unless
        another beats it by ``confidence`` standard errors (and the one given ``prior``
        visits); where it is not listed, the policy's move leads as without a guide; the
        seat's second draws and tunnels are the guide's. The guide sees what the seat sees
        (``see``). Only the root changes: the walk below plays the policy as before. Without
        the core built, the guide is not asked (the search is ``MctsBot``'s)."""
        super().__init__(iterations, seconds, **options)
        if guide is not None and not callable(getattr(guide, "choose", None)):
            raise SetupError(f"a guide is a bot (with a choose method), not {guide!r}")
        self.guide = guide
        self._lead: int | None = None  # the root's leading key in the search under way

    def see(self, view: View, action: Action | None) -> None:
        """Show the guide what the seat sees (``bots.tell``); without one, nothing to do."""
        see = getattr(self.guide, "see", None)
        if see is not None:
            see(view, action)

    def choose(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        if not self.compiled or len(legal) == 1:
            return super().choose(view, legal, rng)
        if not self._in_core(rules_for(view, board_of(view)), search=True):
            return super().choose(view, legal, rng)  # a board beyond the core's search
        advice = None
        if self.guide is not None:
            advice = self.guide.choose(view, legal, random.Random(rng.random()))
            if view.phase not in _DECISIONS:
                return advice
        if view.phase not in _DECISIONS:
            return super().choose(view, legal, rng)
        seat = view.observer
        if seat is None:
            raise SetupError("a bot needs the view of its own seat, not a spectator's")
        self.last_playouts = 0
        self.last_tree = None
        board = board_of(view)
        world = determinize(view, seat, rng, map=board)
        here = fast.FastGame.from_state(world)
        keys = here.search_step(seat)  # the seat decides here: the policy's move, no play
        own = keys[0]
        if advice is not None:  # the guide's move leads where the search lists it
            own = next((k for k in keys if here.key_action(k) == advice), own)
        self._lead = own
        try:
            root = self._core_search(view, seat, rng, board)
        finally:
            self._lead = None
        move = here.key_action(self._best(root, own))
        return move if is_legal(world, move) else legal[0]

    def _core_search(self, view: View, seat: int, rng: random.Random, board: Map) -> Node:
        """``search`` with the worlds walked in the core: each loaded once, restored for
        every walk."""
        walk: list[fast.FastGame] = []  # the game walked, one for the search

        def world_of(world: GameState) -> tuple[fast.FastGame, float]:
            game = fast.FastGame.from_state(world)
            if not walk:
                walk.append(game.copy())
            walk[0].copy_from(game)
            walk[0].greedy_playout(_MAX_PLAYOUT)
            return game, _reward_of(walk[0].outcome(), seat, self.margin_scale)

        def iterate(root: Node, world: fast.FastGame, baseline: float) -> None:
            walk[0].copy_from(world)
            self._core_iterate(root, walk[0], seat, baseline)

        return self._grow(view, seat, rng, board, world_of, iterate)

    def _core_iterate(self, root: Node, game: fast.FastGame, seat: int, baseline: float) -> None:
        """``_iterate`` in the core: walk down (adding one node), finish, back up the gain."""
        node, path, expanded = root, [root], False
        keys = game.search_step(seat)  # fresh: the walk's policy forgets its paths
        lead = self._lead
        if lead is not None and lead != keys[0] and lead in keys:  # the guide's move leads
            keys = [lead, *(k for k in keys if k != lead)]
        while keys and not expanded and len(path) <= self.depth:
            key, node, expanded = self._pick(node, keys, wide=node is root)
            path.append(node)
            game.apply_key(key)
            # on to the seat's next decision with the same paths, as one Playout in _iterate;
            # the playout takes over from there (with paths of its own, as _finish's)
            keys = game.search_step(seat, fresh=False)
        game.greedy_playout(_MAX_PLAYOUT)
        _back_up(path, _reward_of(game.outcome(), seat, self.margin_scale) - baseline)
