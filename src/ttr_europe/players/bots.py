"""Fair bots: a bot sees its seat's ``View`` and the legal actions, never the ``GameState``.

A bot is any object with a ``name`` and ``choose(view, legal, rng) -> Action``: ``view`` is what
its seat may know (``views.observe``), ``legal`` the legal actions of that seat, ``rng`` a seeded
``random.Random`` to draw any randomness from. ``decide(bot, state, rng)`` runs one decision and
turns a bot that raises or answers an illegal action into a ``BotError`` naming both. A bot that
remembers what it saw between its turns also has ``see(view, action)``: game drivers call
``tell(bots, state, action)`` before each move, which shows it the move and its seat's view.
The registry (``players.registry``) names these bots and the others of the package.

In-process bots run with the referee's rights: they receive nothing hidden, but nothing stops
their code from reading the caller's frames (docs/bots.md); untrusted bots play out of process.

policies.c's bots (``fg_play_bots``; ``Twister`` is their ``random.Random``) mirror ``RandomBot``
and ``GreedyBot`` move for move. The differential tests (tests/fast/test_fast.py) keep the two
alike.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import Protocol, runtime_checkable

from .._seeds import seat_rng
from ..actions import (
    ACTION_TYPES,
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
from ..cards import LOCOMOTIVE, Cards
from ..errors import BotError, SetupError
from ..loop import MAX_ACTIONS, play_out
from ..rules import legal_actions, why_illegal
from ..state import NO_OWNER, GameState, Phase
from ..views import View, observe
from ._routing import board_of, cheapest, remember_board, shortest_path

__all__ = [
    "Bot",
    "GreedyBot",
    "RandomBot",
    "bot_name",
    "close_bots",
    "decide",
    "play",
    "tell",
]


@runtime_checkable
class Bot(Protocol):
    """What a player program provides; it never receives hidden information."""

    name: str

    def choose(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action: ...


def bot_name(bot: object) -> str:
    """The name a bot reports (its class name when it has none)."""
    name = getattr(bot, "name", None)
    return name if isinstance(name, str) else type(bot).__name__


def decide(bot: Bot, state: GameState, rng: random.Random) -> Action:
    """One decision of the seat to act, made by ``bot`` from that seat's view.

    Raises ``BotError`` (naming the bot, the seat and the action) when the bot raises or answers
    an action that is not legal; ``state`` is untouched either way.
    """
    if state.phase is Phase.GAME_OVER:
        raise BotError(bot_name(bot), None, None, "asked to move after the game ended")
    seat = state.current
    remember_board(state.map)
    view = observe(state, seat)
    legal = legal_actions(state)
    try:
        action = bot.choose(view, legal, rng)
    except BotError as exc:  # a bot in another process failed: its reason, this seat
        raise BotError(bot_name(bot), seat, None, _text(exc.reason), said=exc.said) from exc
    except (Exception, SystemExit) as exc:  # exit() in a bot ends its game, not the program
        raise BotError(
            bot_name(bot), seat, None, f"raised {type(exc).__name__}: {_text(exc)}"
        ) from exc
    if not isinstance(action, ACTION_TYPES):  # None, a notation, an index: say what it was
        raise BotError(bot_name(bot), seat, action, _not_an_action(action))
    reason = _illegal(state, action)
    if reason is not None:
        raise BotError(bot_name(bot), seat, action, f"illegal action {_text(action)} ({reason})")
    return action


def tell(bots: Sequence[Bot | None], state: GameState, action: Action) -> None:
    """Show ``action``, about to be played in ``state``, to each bot that has ``see``.

    ``bots[seat]`` is the bot of ``seat`` (None for a seat no bot plays). A watching bot gets
    ``see(view, move)`` once per move, ``view`` being its (first) seat's view before it and
    ``move`` the action, or None for another seat's ticket choice, which stays secret (R52; the
    next view shows how many were kept). A blind draw does not name its card. Raises
    ``BotError`` naming a bot whose ``see`` raises.
    """
    told: set[int] = set()
    secret = isinstance(action, KeepTickets)
    for seat, bot in enumerate(bots):
        see = getattr(bot, "see", None)
        if see is None or id(bot) in told:
            continue
        told.add(id(bot))
        try:
            see(observe(state, seat), None if secret and seat != state.current else action)
        except (Exception, SystemExit) as exc:  # as in ``decide``
            raise BotError(
                bot_name(bot), seat, action, f"see raised {type(exc).__name__}: {_text(exc)}"
            ) from exc


def _text(thing: object) -> str:
    """``str(thing)``, or its type when even that fails (a bot may answer anything)."""
    try:
        return str(thing)
    except Exception:
        return f"<unprintable {type(thing).__name__}>"


def _not_an_action(answer: object) -> str:
    """What a bot answered that is no action at all, and what it should answer instead: a
    lookalike class is named with its module, so it is not taken for the engine's own."""
    wanted = "which is not an action: choose must return one of its legal list"
    if answer is None:
        return f"answered None, {wanted}"
    kind = type(answer)
    named = (
        kind.__qualname__
        if kind.__module__ == "builtins"
        else f"{kind.__module__}.{kind.__qualname__}"
    )
    article = "an" if named[:1].lower() in "aeiou" else "a"
    try:
        shown = repr(answer)
    except Exception:
        shown = f"<unprintable {kind.__name__}>"
    return f"answered {_text(shown[:200])} ({article} {named}), {wanted}"


def _illegal(state: GameState, action: object) -> str | None:
    """Why ``action`` is not legal in ``state``, or None when it is."""
    try:
        error = why_illegal(state, action)
    except Exception as exc:  # a malformed object the checks did not expect
        return f"{type(exc).__name__}: {_text(exc)}"
    return None if error is None else str(error)


def close_bots(bots: Iterable[object]) -> None:
    """End what the bots hold (a ``ProcessBot``'s program): each one's ``close()``, if any.

    A driver that built its bots from specs calls it when the game ends.
    """
    for bot in bots:
        close = getattr(bot, "close", None)
        if callable(close):
            close()


def play(
    state: GameState, bots: Sequence[Bot], *, seed: int = 0, max_steps: int = MAX_ACTIONS
) -> list[GameState]:
    """Play to the end (``loop.play_out``), each seat moved by its bot; returns every state
    from ``state`` on.

    Seat ``i`` draws its randomness from ``seat_rng(seed, i)``, so a game is fixed by the
    state, the bots and ``seed``.
    """
    if len(bots) != state.rules.players:
        raise SetupError(f"{len(bots)} bots for {state.rules.players} seats")
    rngs = [seat_rng(seed, i) for i in range(len(bots))]

    def choose(now: GameState) -> Action:
        action = decide(bots[now.current], now, rngs[now.current])
        tell(bots, now, action)  # the bots that watch see each move
        return action

    return [state, *(after for _, after, _ in play_out(state, choose, max_actions=max_steps))]


# --------------------------------------------------------------------------- the bots


class RandomBot:
    """Picks uniformly among the legal actions (the benchmark policy)."""

    name = "random"

    def choose(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        return legal[rng.randrange(len(legal))]


class _Seat:
    """What GreedyBot reads off a view: the board, route owners by index, its own seat."""

    def __init__(self, view: View) -> None:
        me = view.me
        if me is None or me.hand is None or me.tickets is None or me.offer is None:
            raise SetupError("a bot needs the view of its own seat, not a spectator's")
        self.view = view
        self.board = board = board_of(view)
        owners = [NO_OWNER] * len(board.routes)
        for p in view.players:
            for r in p.routes:
                owners[board.route_index[r]] = p.seat
        self.owners = owners
        self.seat = me.seat
        self.hand: Cards = me.hand
        self.trains = me.trains
        self.tickets = [board.ticket_index[t] for t in me.tickets]
        self.offer = [board.ticket_index[t] for t in me.offer]


class GreedyBot:
    """Connects its tickets along cheapest paths, drawing the colours those routes need.

    Keeps the starting tickets with the shortest connections, claims the longest useful route it
    can pay for, draws matching face-up cards, pays tunnels when it can, and claims long routes
    for points once its tickets are done. It reads only its view.
    """

    name = "greedy"

    def choose(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        seat = _Seat(view)
        phase = view.phase
        if phase is Phase.INITIAL_TICKETS or phase is Phase.CHOOSE_TICKETS:
            return self._keep(seat, legal)
        if phase is Phase.TUNNEL:
            pays = [a.payment for a in legal if isinstance(a, PayTunnel)]
            return PayTunnel(cheapest(pays, seat.hand)) if pays else WithdrawTunnel()
        if phase is Phase.SECOND_DRAW:
            return self._draw(seat, _Options(legal), rng, second=True)
        return self._turn(seat, legal, rng)

    def _wanted_routes(self, seat: _Seat) -> list[int]:
        board, wanted = seat.board, list[int]()
        for t in seat.tickets:
            ticket = board.tickets[t]
            path = shortest_path(board, seat.owners, seat.seat, ticket.a, ticket.b)
            if path:
                wanted.extend(r for r in path if seat.owners[r] == NO_OWNER)
        return wanted

    def _keep(self, seat: _Seat, legal: Sequence[Action]) -> Action:
        board = seat.board

        def cost(t: int) -> float:
            ticket = board.tickets[t]
            path = shortest_path(board, seat.owners, seat.seat, ticket.a, ticket.b)
            length = sum(board.routes[r].length for r in path) if path else 99
            return length - ticket.points / 2

        options = [a for a in legal if isinstance(a, KeepTickets)]
        smallest = min(len(a.tickets) for a in options)
        keep = KeepTickets(board.tickets[t].id for t in sorted(seat.offer, key=cost)[:smallest])
        return keep if keep in options else options[0]

    def _turn(self, seat: _Seat, legal: Sequence[Action], rng: random.Random) -> Action:
        options = _Options(legal)
        wanted = self._wanted_routes(seat)
        claim = _longest_claim(seat, options.claims, wanted)
        if claim is not None:
            return claim
        if not wanted and options.tickets and seat.trains >= 20:
            return DrawTickets()
        if not wanted or seat.hand.total >= 12:  # nothing to build for, or hoarding: score
            claim = _longest_claim(seat, options.claims, options.claims)
            if claim is not None:
                return claim
        return self._draw(seat, options, rng, second=False, wanted=wanted)

    def _draw(
        self,
        seat: _Seat,
        options: _Options,
        rng: random.Random,
        second: bool,
        wanted: list[int] | None = None,
    ) -> Action:
        board, hand, row = seat.board, seat.hand, seat.view.row
        if wanted is None:
            wanted = self._wanted_routes(seat)
        colours = {board.routes[r].colour for r in wanted}
        if None in colours:  # a gray route: the colour held most
            colours.add(max(range(8), key=lambda c: hand[c]))
        for slot, card in enumerate(row):
            if card in colours and slot in options.face_up:
                return DrawFaceUp(slot)
        if not second and LOCOMOTIVE in row and wanted:
            slot = row.index(LOCOMOTIVE)
            if slot in options.face_up:
                return DrawFaceUp(slot)
        if options.blind:
            return DrawBlind()
        rest = options.others or options.all
        return rest[rng.randrange(len(rest))]


class _Options:
    """The legal actions sorted in one pass: draws, tickets, claims by route, the rest."""

    def __init__(self, legal: Sequence[Action]) -> None:
        self.all = legal
        self.face_up: set[int] = set()
        self.blind = self.tickets = False
        self.claims: dict[str, list[Cards]] = {}
        self.others: list[Action] = []  # anything but a station, for a last resort
        for a in legal:
            if isinstance(a, ClaimRoute):
                self.claims.setdefault(a.route, []).append(a.payment)
            elif isinstance(a, DrawFaceUp):
                self.face_up.add(a.slot)
            elif isinstance(a, DrawBlind):
                self.blind = True
            elif isinstance(a, DrawTickets):
                self.tickets = True
            if not isinstance(a, BuildStation):
                self.others.append(a)


def _longest_claim(
    seat: _Seat, claims: dict[str, list[Cards]], routes: Iterable[int | str]
) -> ClaimRoute | None:
    """The cheapest legal claim of the longest of ``routes`` (indices or ids)."""
    board = seat.board
    best: tuple[int, int, str] | None = None
    for r in set(routes):
        route = board.routes[r] if isinstance(r, int) else board.route(r)
        if route.id in claims:
            key = (-route.length, route.index, route.id)
            best = key if best is None or key < best else best
    if best is None:
        return None
    return ClaimRoute(best[2], cheapest(claims[best[2]], seat.hand))
