"""Random play for tests: play policies, near-miss actions, legal-list checks and ``check_bot``.

Nothing here needs hypothesis; the strategies in ``ttr_europe.testing.strategies`` and the soak
script (``scripts/soak.py``) are built on these functions, so both check exactly the same things.
"""

from __future__ import annotations

import copy
import random
import threading
import time
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

import attrs

from .._seeds import seat_rng
from ..actions import (
    Action,
    BuildStation,
    ClaimRoute,
    DrawBlind,
    DrawFaceUp,
    DrawTickets,
    KeepTickets,
    Pass,
    PayTunnel,
    WithdrawTunnel,
)
from ..cards import KINDS, LOCOMOTIVE, Cards
from ..errors import BotError, IllegalActionError
from ..invariants import check_invariants
from ..loop import finish
from ..maps import available_maps, load_map
from ..players.bots import tell
from ..rules import apply, is_legal, is_terminal, legal_actions, new_game
from ..state import GameState, Phase
from ..views import determinize, observe

POLICIES = ("uniform", "hoard", "build")
"""Random play policies: uniform over legal actions, or biased to draw cards (runs the piles
dry: reshuffles, empty slots, passes) or to build (reaches the end and the last round)."""


def configs() -> tuple[tuple[str, str], ...]:
    """Every (map, variant) pair shipped."""
    return tuple((m, v) for m in available_maps() for v in load_map(m).variants)


def choose(rng: random.Random, state: GameState, policy: str = "uniform") -> Action:
    """A legal action drawn by one of the ``POLICIES``."""
    la = legal_actions(state)
    if policy != "uniform" and state.phase is Phase.TURN and rng.random() < 0.9:
        draws = [a for a in la if isinstance(a, DrawFaceUp | DrawBlind)]
        builds = [a for a in la if isinstance(a, ClaimRoute | BuildStation)]
        preferred = draws if policy == "hoard" else builds
        if preferred:
            return rng.choice(preferred)
    return la[rng.randrange(len(la))]


def play_to_end(state: GameState, seed: int, policy: str = "uniform") -> tuple[GameState, int]:
    """Random legal play by ``policy`` until the game ends (``loop.finish``); the final state and
    the number of actions."""
    rng = random.Random(seed)
    return finish(state, lambda s: choose(rng, s, policy))


def near_miss_payment(rng: random.Random, state: GameState) -> Cards:
    """A payment near a legal one: one colour plus locomotives, sometimes with a stray card."""
    hand = state.player.hand
    counts = [0] * KINDS
    colour = rng.randrange(8)
    if rng.random() < 0.7 and hand.total:
        colour = rng.choice([k for k in range(8) if hand[k]] or [colour])
    counts[colour] = rng.randrange(0, 5)
    counts[LOCOMOTIVE] = rng.randrange(0, 3) if rng.random() < 0.5 else 0
    if rng.random() < 0.15:
        counts[rng.randrange(KINDS)] += 1
    return Cards(counts)


def near_miss_action(rng: random.Random, state: GameState) -> Action:
    """Any action at all, usually an illegal one: the kind of mistake a caller makes."""
    board = state.rules.map
    offer = [board.tickets[t].id for t in state.player.offer]
    kind = rng.randrange(9)
    if kind == 0:
        return DrawFaceUp(rng.randrange(-1, len(state.row) + 1))
    if kind == 1:
        return DrawBlind()
    if kind == 2:
        return ClaimRoute(rng.choice(board.routes).id, near_miss_payment(rng, state))
    if kind == 3:
        return BuildStation(rng.choice(board.cities).id, near_miss_payment(rng, state))
    if kind == 4:
        return PayTunnel(near_miss_payment(rng, state))
    if kind == 5:
        return KeepTickets(rng.sample(offer, rng.randrange(len(offer) + 1)))
    if kind == 6:
        return DrawTickets()
    if kind == 7:
        return WithdrawTunnel()
    return Pass()


def legal_list_problems(state: GameState, rng: random.Random) -> list[str]:
    """Where the lazy ``legal_actions`` disagrees with itself, ``is_legal`` or ``apply``."""
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
    candidate = near_miss_action(rng, state)
    if is_legal(state, candidate) != (candidate in listed):
        out.append(f"is_legal({candidate}) != ({candidate} in legal_actions)")
    elif candidate not in listed:
        before = repr(state)
        try:
            apply(state, candidate)
            out.append(f"unlisted {candidate} was applied")
        except IllegalActionError:
            if repr(state) != before:
                out.append(f"refused {candidate} changed the state")
    return out


def state_problems(state: GameState) -> list[str]:
    """``check_invariants`` as text, plus what only the engine can say: the game ends exactly
    when no action is legal, and a state equals and hashes as itself rebuilt."""
    out = [str(p) for p in check_invariants(state)]
    try:
        rebuilt = attrs.evolve(state)
        if hash(state) != hash(rebuilt) or rebuilt != state:
            out.append("state not equal to itself rebuilt")
    except TypeError as exc:
        out.append(f"state not hashable: {exc}")
    return out


# --------------------------------------------------------------------------- check_bot


@attrs.frozen
class BotFault:
    """One bad move of a bot: the game (its seed and setup), the move number and what was wrong.

    ``kind`` is "illegal", "slow", "crash", "peeks": the bot chose differently in a world
    its seat cannot tell from the real one, so its choice depends on something it cannot see,
    or "unrepeatable": asked the same decision again, with its generator in the same state, it
    chose differently (randomness not drawn from the generator it is handed, say), so whether it
    peeks cannot be told.
    """

    seed: int
    setup: tuple[tuple[str, Any], ...]
    move: int
    kind: str
    detail: str
    seat: int | None = None

    def __str__(self) -> str:
        setup = ", ".join(f"{k}={v!r}" for k, v in self.setup)
        where = f" (seat {self.seat})" if self.seat is not None else ""
        game = f"seed {self.seed} ({setup})"
        return f"{self.kind} at move {self.move}{where} of {game}: {self.detail}"


def _chooser(bot: Any) -> Callable[[GameState, random.Random], Action]:
    """Ask ``bot`` as a game driver does: ``choose(view, legal, rng)`` from the seat's view."""

    def choose(state: GameState, rng: random.Random) -> Action:
        action: Action = bot.choose(observe(state, state.current), legal_actions(state), rng)
        return action

    return choose


def _copy(rng: random.Random) -> random.Random:
    """A generator that will draw exactly what ``rng`` draws next."""
    twin = random.Random()
    twin.setstate(rng.getstate())
    return twin


def _twins(bot: Any, count: int) -> list[Any]:
    """``count`` copies of ``bot`` as it stands before a decision, one for each other world, so
    that nothing it keeps from the real decision (an answer remembered by view, say) answers
    for it there, nor from one world in the next; the bot itself, ``count`` times, when it
    cannot be copied (a bot that holds a process: it cannot read the referee's frames)."""
    try:
        return [copy.deepcopy(bot) for _ in range(count)]
    except Exception:
        return [bot] * count


class _Peeking:
    """The decisions of one game where the bot chose differently in another world, and those
    where it chose differently when asked again in the same one."""

    def __init__(self) -> None:
        self.decisions = 0
        self.first: tuple[int, int, str] | None = None  # move, seat, what differed
        self.count = 0
        self.first_unrepeated: tuple[int, int, str] | None = None
        self.unrepeated = 0

    def note(self, move: int, seat: int, differs: str | None, again: str | None) -> None:
        """One decision asked in other worlds: ``differs`` says how the answers differed, and
        ``again`` how the answer differed when asked again in the same world."""
        self.decisions += 1
        if again is not None:
            self.unrepeated += 1
            self.first_unrepeated = self.first_unrepeated or (move, seat, again)
        elif differs is not None:
            self.count += 1
            self.first = self.first or (move, seat, differs)

    def fault(self, seed: int, setup: tuple[tuple[str, Any], ...]) -> BotFault | None:
        """A bot whose answers do not repeat is reported as such, not as peeking: answers that
        differ by chance say nothing of what it reads."""
        if self.first_unrepeated is not None:
            move, seat, detail = self.first_unrepeated
            often = f"{self.unrepeated} of its {self.decisions} decisions"
            text = (
                f"its choice is not a function of its view, legal moves and generator ({often}:"
                f" randomness not drawn from the rng it is handed?); first: {detail}"
            )
            return BotFault(seed, setup, move, "unrepeatable", text, seat)
        if self.first is None:
            return None
        move, seat, detail = self.first
        often = f"{self.count} of its {self.decisions} decisions"
        text = f"its choice depends on what its seat cannot see ({often}); first: {detail}"
        return BotFault(seed, setup, move, "peeks", text, seat)


def _answers_elsewhere(
    twins: Sequence[Any], state: GameState, before: random.Random, salt: str
) -> list[Action | Exception | SystemExit]:
    """What each twin answers in a world of its own that the seat cannot tell from ``state``
    (the same view, ``determinize``), with a generator in the state ``before``; an exception
    it raises stands for its answer."""
    answers: list[Action | Exception | SystemExit] = []
    for w, twin in enumerate(twins):
        world = determinize(state, state.current, random.Random(f"{salt} {w}"))
        answers.append(_alone(twin, world, _copy(before))[0])  # its stack: ``world`` alone
    return answers


_Failed = (Exception, SystemExit)
"""What a bot raising stands for its answer: ``exit()`` too, as the game drivers take it."""

_UNANSWERED: Any = object()
"""What ``_Asked.answer`` holds until the bot answers (None is an answer, a wrong one)."""


class _Asked(threading.Thread):
    """One decision of a bot asked in a thread of its own: the thread's stack holds the state
    it is asked about and nothing of the checker's, so a bot walking its caller's frames,
    however far up, finds that state alone."""

    def __init__(self, bot: Any, state: GameState, rng: random.Random) -> None:
        super().__init__(name="check_bot", daemon=True)
        self._ask: Callable[[], Action] | None = partial(_chooser(bot), state, rng)
        self.answer: Action | BaseException = _UNANSWERED
        self.elapsed = 0.0

    def run(self) -> None:
        ask, self._ask = self._ask, None  # the thread object keeps no way back to the state
        assert ask is not None
        start = time.perf_counter()
        try:
            self.answer = ask()
        except BaseException as exc:  # handed back to the checker, raised there if not an error
            self.answer = exc
        self.elapsed = time.perf_counter() - start


def _alone(
    bot: Any, state: GameState, rng: random.Random
) -> tuple[Action | Exception | SystemExit, float]:
    """``bot``'s choice in ``state`` (an exception it raised stands for it, ``exit()`` too, as
    a game driver takes it) and the seconds it took, asked in a fresh thread (``_Asked``) so
    that the caller's frames, which may hold another world, are not on the bot's stack;
    KeyboardInterrupt and the like go on up."""
    asked = _Asked(bot, state, rng)
    asked.start()
    asked.join()
    answer = asked.answer
    if isinstance(answer, BaseException) and not isinstance(answer, _Failed):
        raise answer
    assert answer is not _UNANSWERED
    return answer, asked.elapsed


def _difference(
    action: Action,
    answers: Sequence[Action | Exception | SystemExit],
    where: str = "in another world with the same view",
) -> str | None:
    """How the answers given ``where`` differ from ``action``, or None when none does."""
    for other in answers:
        if isinstance(other, _Failed):
            return f"chose {action} here, raised {type(other).__name__} {where}"
        if other != action:
            return f"chose {action} here, {other} {where}"
    return None


def check_bot(
    bot: Any,
    games: int = 10,
    *,
    map: str = "europe",
    variant: str = "base",
    players: int = 2,
    seed: int = 0,
    opponents: Sequence[Any] = (),
    max_seconds: float = 1.0,
    max_actions: int = 5_000,
    worlds: int = 1,
) -> list[BotFault]:
    """Play ``games`` seeded games with ``bot`` in every seat (or seat 0 against
    ``opponents``), and report every move that is illegal, slower than ``max_seconds``, or
    raises, and each game where the bot looked at what it cannot see. An empty list means the
    bot passed. Game ``i`` uses seed ``seed + i``; each seat draws from
    ``_seeds.seat_rng(seed + i, seat)``, as ``players.play`` and tournaments do.

    A bot is asked as the game drivers ask it: ``bot.choose(view, legal, rng)`` with its
    seat's view (``observe``), the legal actions and its generator, and shown every move
    through ``see`` when it has one (``players.tell``; a ``see`` that raises is a crash).
    Each decision is also
    asked in ``worlds`` other worlds its seat cannot tell apart (``determinize``: other hands,
    pile and tickets), with a generator in the same state, each of a copy of the bot made
    before the decision (``copy.deepcopy``), so that what the bot remembers of one world cannot
    answer for it in another; whether the other worlds are asked before or after the real one
    is drawn for each decision from the checker's own randomness, not the game's seed. A
    different answer means the choice depends on hidden information (read through the
    caller's frame, say), reported once per game as "peeks" with the seat, the first such move
    and how often. This assumes the choice is a function of (view, legal, rng) and what the
    bot remembered before it, as the bot protocol asks; ``worlds=0`` skips it. Where an
    answer differs, a copy is asked again in the real world with the same generator state: a
    bot that answers differently there too (one drawing from the ``random`` module rather than
    its ``rng``) is reported once per game as "unrepeatable", not as peeking.

    After an illegal move or a crash the game stops (the bot would be stuck); a slow move is
    reported and the game goes on.
    """
    faults: list[BotFault] = []
    for i in range(games):
        faults += _check_game(bot, seed + i, map, variant, players, opponents, max_seconds,
                              max_actions, worlds)  # fmt: skip
    return faults


_ORDER = random.SystemRandom()
"""Whether a decision's other worlds are asked first: not drawn from anything the bot sees."""


def _check_game(
    bot: Any,
    game_seed: int,
    map: str,
    variant: str,
    players: int,
    opponents: Sequence[Any],
    max_seconds: float,
    max_actions: int,
    worlds: int,
) -> list[BotFault]:
    """``check_bot``'s faults in the one game of ``game_seed``."""
    faults: list[BotFault] = []
    setup = (("map", map), ("variant", variant), ("players", players))
    state = new_game(map, variant, players, seed=game_seed)
    rngs = [seat_rng(game_seed, seat) for seat in range(players)]
    others = [_chooser(b) for b in opponents]
    watchers = [bot if not opponents or s == 0 else opponents[(s - 1) % len(opponents)]
                for s in range(players)]  # fmt: skip
    peeking = _Peeking()
    for move in range(max_actions):
        if is_terminal(state):
            break
        seat = state.current
        mine = not others or seat == 0
        elsewhere: list[Action | Exception | SystemExit] = []
        if mine and worlds:
            twins, before = _twins(bot, worlds + 1), _copy(rngs[seat])  # the last: again
            salt = f"ttr_europe check_bot {game_seed} {move}"
            ask_after = _ORDER.random() < 0.5
            elsewhere = [] if ask_after else _answers_elsewhere(twins[:-1], state, before, salt)
        if mine:  # asked alone like its other worlds: the bot cannot tell which is real
            action, elapsed = _alone(bot, state, rngs[seat])
        else:
            try:
                action, elapsed = others[(seat - 1) % len(others)](state, rngs[seat]), 0.0
            except _Failed as exc:  # an opponent that fails ends the game too
                action, elapsed = exc, 0.0
        if isinstance(action, _Failed):  # a crashing bot is what this reports
            if mine:
                faults.append(BotFault(game_seed, setup, move, "crash", repr(action), seat))
            break
        if mine and elapsed > max_seconds:
            faults.append(BotFault(game_seed, setup, move, "slow", f"{elapsed:.2f} s", seat))
        if mine and worlds:
            if ask_after:
                elsewhere = _answers_elsewhere(twins[:-1], state, before, salt)
            differs, again = _difference(action, elsewhere), None
            if differs is not None:  # the same world again: does the bot repeat itself?
                repeat = _alone(twins[-1], state, _copy(before))[0]
                again = _difference(action, [repeat], "asked again in the same world")
            peeking.note(move, seat, differs, again)
        try:
            after = apply(state, action)
        except Exception as exc:  # illegal, or not an action at all (wrong type)
            if mine:
                why = str(exc) if isinstance(exc, IllegalActionError) else repr(exc)
                faults.append(BotFault(game_seed, setup, move, "illegal", why, seat))
            break
        try:  # every move shown to the bots that watch (``see``), as the game drivers do
            tell(watchers, state, action)
        except BotError as exc:
            if exc.seat is not None and (not others or exc.seat == 0):
                faults.append(BotFault(game_seed, setup, move, "crash", exc.reason, exc.seat))
            break
        state = after
    peeked = peeking.fault(game_seed, setup)
    return faults if peeked is None else [*faults, peeked]
