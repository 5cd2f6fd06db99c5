"""Fair bots: a bot sees its seat's ``View`` and the legal actions, never the ``GameState``.

A bot is any object with a ``name`` and ``choose(view, legal, rng) -> Action``: ``view`` is what
its seat may know (``views.observe``), ``legal`` the legal actions of that seat, ``rng`` a seeded
``random.Random`` to draw any randomness from. ``decide(bot, state, rng)`` runs one decision and
turns a bot that raises or answers an illegal action into a ``BotError`` naming both. A bot that
remembers what it saw between its turns also has ``see(view, action)``: game drivers call
``tell(bots, state, action)`` before each move, which shows it the move and its seat's view.
``make_bot`` resolves the names of ``BUILTIN_BOTS`` (the ladder of ``ttr_europe.ladder``:
``random``, ``claimer``, ``saver``, ``greedy``, ``mcts-fast``, ``mcts``; ``mcts-core``, the same
search walked in the compiled core; ``baseline`` and ``bc-ppo``, the trained policies of
``ttr_europe.rl.baseline``), ``package.module:Class`` and ``cmd:COMMAND`` specs (a program in
another process, over the line protocol of ``protocol``).

In-process bots run with the referee's rights: they receive nothing hidden, but nothing stops
their code from reading the caller's frames (docs/bots.md); untrusted bots play out of process.

core.c's bots (``fg_play_bots``; ``Twister`` is their ``random.Random``) mirror ``RandomBot``
and ``GreedyBot`` move for move. The differential tests (tests/fast/test_fast.py) keep the two
alike.
"""

from __future__ import annotations

import importlib
import inspect
import random
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Protocol, runtime_checkable

from ._routing import board_of, cheapest, remember_board, shortest_path
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
from .cards import LOCOMOTIVE, Cards
from .errors import BotError, SetupError
from .loop import MAX_ACTIONS, play_out
from .rules import legal_actions, why_illegal
from .state import NO_OWNER, GameState, Phase
from .views import View, observe

__all__ = [
    "BUILTIN_BOTS",
    "Bot",
    "GreedyBot",
    "RandomBot",
    "board_of",
    "bot_name",
    "close_bots",
    "decide",
    "make_bot",
    "play",
    "seat_rng",
    "seat_seed",
    "split_specs",
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
        raise BotError(bot_name(bot), seat, None, _text(exc.reason)) from exc
    except Exception as exc:
        raise BotError(
            bot_name(bot), seat, None, f"raised {type(exc).__name__}: {_text(exc)}"
        ) from exc
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
        except Exception as exc:
            raise BotError(
                bot_name(bot), seat, action, f"see raised {type(exc).__name__}: {_text(exc)}"
            ) from exc


def _text(thing: object) -> str:
    """``str(thing)``, or its type when even that fails (a bot may answer anything)."""
    try:
        return str(thing)
    except Exception:
        return f"<unprintable {type(thing).__name__}>"


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


def seat_seed(seed: int, seat: int) -> str:
    """The text ``seat_rng`` seeds its generator with (the compiled core seeds its copy of
    the generator from it too, ``fast.twister_key``)."""
    return f"ttr_europe bot {seed} {seat}"


def seat_rng(seed: int, seat: int) -> random.Random:
    """The generator a game driver hands to the bot of ``seat`` in the game of ``seed``."""
    return random.Random(seat_seed(seed, seat))


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


# --------------------------------------------------------------------------- specs


# The bots the registry names, each imported by its factory when first built (the search and
# the trained baseline are heavy), explicitly, so the import graph sees every arrow: this module
# sits above ladder, mcts, protocol and rl.baseline, and none of them imports it.


def _claimer() -> Bot:
    from .ladder import ClaimerBot

    return ClaimerBot()


def _saver() -> Bot:
    from .ladder import SaverBot

    return SaverBot()


def _mcts_fast() -> Bot:
    from .ladder import fast_mcts

    return fast_mcts()


def _mcts() -> Bot:
    from .mcts import MctsBot

    return MctsBot()


def _mcts_core() -> Bot:
    from .mcts import CoreMctsBot

    return CoreMctsBot(iterations=CoreMctsBot.DEFAULT_ITERATIONS)


def _baseline() -> Bot:
    from .rl.baseline import baseline_bot  # needs numpy

    return baseline_bot()


def _bc_ppo() -> Bot:
    from .rl.baseline import bc_ppo_bot  # needs numpy

    return bc_ppo_bot()


BUILTIN_BOTS: dict[str, Callable[[], Bot]] = {
    "random": RandomBot,
    "claimer": _claimer,
    "saver": _saver,
    "greedy": GreedyBot,
    "mcts-fast": _mcts_fast,
    "mcts": _mcts,
    "mcts-core": _mcts_core,  # the same search walked in the compiled core, 4-5x the playouts
    "baseline": _baseline,  # the trained baseline
    "bc-ppo": _bc_ppo,  # imitation then PPO (scripts/train_policy.py)
}


def make_bot(spec: str, seed: int | None = None) -> Bot:
    """A bot from a spec: a name of ``BUILTIN_BOTS``, ``package.module:Class``, or
    ``cmd:COMMAND`` for a program in another process (``protocol.ProcessBot``).

    ``Class`` may be any callable returning a bot (a class or a factory); it is called with
    ``seed=seed`` when it accepts a ``seed`` keyword and ``seed`` is given, else with no
    arguments. Raises ``BotError`` for a spec that names no bot.
    """
    if not isinstance(spec, str):
        raise BotError(repr(spec), None, None, "unknown bot spec (not a string)")
    text = spec.strip()
    factory: Any
    if text.startswith(("cmd:", "cmd[")):
        from .protocol import parse_command_spec  # a program in another process

        return parse_command_spec(text)
    if text in BUILTIN_BOTS:
        factory = BUILTIN_BOTS[text]
    elif ":" in text:
        factory = _import(text)
    else:
        raise BotError(
            text, None, None, f"unknown bot spec; known: {', '.join(BUILTIN_BOTS)}, "
            "package.module:Class, cmd:COMMAND"
        )  # fmt: skip
    try:
        accepts_seed = "seed" in inspect.signature(factory).parameters
    except (TypeError, ValueError):
        accepts_seed = False
    try:
        bot = factory(seed=seed) if seed is not None and accepts_seed else factory()
    except Exception as exc:
        raise BotError(text, None, None, f"cannot be built: {type(exc).__name__}: {exc}") from exc
    if not callable(getattr(bot, "choose", None)):
        raise BotError(text, None, None, f"built {bot!r}, which has no choose(view, legal, rng)")
    return bot  # type: ignore[no-any-return]


def split_specs(text: str) -> list[str]:
    """The bot specs of a comma-separated list (``--bots``, ``--seats``): commas inside
    brackets belong to a spec (``cmd[move=1,game=60]:./bot,greedy`` is two specs), and empty
    items are dropped. A command cannot hold a comma of its own in a list."""
    specs, depth, start = [], 0, 0
    for at, char in enumerate(text):
        if char == "[":
            depth += 1
        elif char == "]":
            depth = max(0, depth - 1)
        elif char == "," and depth == 0:
            specs.append(text[start:at])
            start = at + 1
    specs.append(text[start:])
    return [spec.strip() for spec in specs if spec.strip()]


def _import(spec: str) -> Any:
    module_name, _, attr = spec.partition(":")
    if not module_name or not attr:
        raise BotError(spec, None, None, "unknown bot spec (not package.module:Class)")
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise BotError(spec, None, None, f"cannot import module {module_name!r}: {exc}") from exc
    target: Any = module
    for part in attr.split("."):
        if not hasattr(target, part):
            raise BotError(spec, None, None, f"module {module_name!r} has no {attr!r}")
        target = getattr(target, part)
    if not callable(target):
        raise BotError(spec, None, None, f"{attr!r} is not a class or a factory")
    return target
