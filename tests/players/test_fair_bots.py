"""Fair bots: nothing a bot is handed reaches hidden cards, and apply cannot be fooled.

What ``decide`` hands a bot (the view, the legal list, the generator) is walked object by
object; the legal list is a function of what the seat knows; any list or action a caller
alters is checked by ``apply`` exactly as ``is_legal`` checks it.
"""

from __future__ import annotations

import contextlib
import gc
import random
import sys
import types
from collections.abc import Iterator, Sequence
from typing import ClassVar

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ttr_europe.actions import Action, ClaimRoute, DrawBlind, DrawFaceUp
from ttr_europe.cards import LOCOMOTIVE, Cards
from ttr_europe.errors import IllegalActionError
from ttr_europe.players import Bot, GreedyBot, RandomBot, decide
from ttr_europe.players.mcts import MctsBot
from ttr_europe.players.registry import make_bot
from ttr_europe.rules import apply, is_legal, legal_actions, new_game
from ttr_europe.state import GameState, Phase, PlayerState
from ttr_europe.testing import check_bot, scenario
from ttr_europe.testing.play import near_miss_action
from ttr_europe.testing.strategies import played, states
from ttr_europe.views import View, determinize

PHASES = [p for p in Phase if p is not Phase.GAME_OVER]

NO_CLOCK = 60.0
"""``max_seconds`` where what is checked is what a bot looks at, not its speed: a loaded
machine (CI's parallel tests) must not add a "slow" fault."""


def reachable(*roots: object) -> Iterator[object]:
    """Every object reachable from ``roots`` as data: attributes, slots, items, closure cells
    and ``gc.get_referents``; classes, modules and code (shared by everyone) are not entered,
    nor a function's globals, but a function's closure and defaults are."""
    seen: set[int] = set()
    todo = list(roots)
    while todo:
        obj = todo.pop()
        if id(obj) in seen or isinstance(obj, type | types.ModuleType | types.CodeType):
            continue
        seen.add(id(obj))
        yield obj
        if isinstance(obj, types.FunctionType):
            todo.extend(obj.__closure__ or ())
            todo.extend(obj.__defaults__ or ())
            todo.extend((obj.__kwdefaults__ or {}).values())
            continue
        if isinstance(obj, types.MethodType):
            todo.extend((obj.__self__, obj.__func__))
            continue
        if isinstance(obj, types.CellType):
            with contextlib.suppress(ValueError):  # an empty cell
                todo.append(obj.cell_contents)
            continue
        todo.extend(gc.get_referents(obj))
        for cls in type(obj).__mro__:
            for name in getattr(cls, "__slots__", ()):
                if hasattr(obj, name):
                    todo.append(getattr(obj, name))
        todo.extend(getattr(obj, "__dict__", {}).values())


def handed(state: GameState) -> tuple[View, Sequence[Action], random.Random]:
    """What ``decide`` hands the bot of the seat to act."""
    got: list[tuple[View, Sequence[Action], random.Random]] = []

    class Recorder:
        name = "recorder"

        def choose(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
            got.append((view, legal, rng))
            return legal[0]

    decide(Recorder(), state, random.Random(1))
    return got[0]


def hidden_parts(state: GameState) -> list[object]:
    """The objects of ``state`` its seat to act may not see (or hold)."""
    seat = state.current
    parts: list[object] = [state, state.players, state.pile, state.rng, state.ticket_deck]
    parts.append(state.box)
    for other in state.players:
        if other is not state.players[seat]:
            parts.extend((other, other.tickets, other.offer))
    return [p for p in parts if p != ()]  # the empty tuple is one object shared by everyone


@pytest.mark.parametrize("phase", PHASES)
@settings(max_examples=20)
@given(data=st.data())
def test_nothing_hidden_is_reachable_from_what_a_bot_is_handed(
    phase: Phase, data: st.DataObject
) -> None:
    state = data.draw(states(phase=phase, players=data.draw(st.sampled_from([2, 3]))))
    secret = hidden_parts(state)
    secret_ids = {id(x) for x in secret}
    others = [p.hand for s, p in enumerate(state.players) if s != state.current]
    for obj in reachable(*handed(state)):
        assert id(obj) not in secret_ids, f"reaches hidden {type(obj).__name__}: {obj!r:.80}"
        assert not isinstance(obj, GameState | PlayerState), f"reaches a {type(obj).__name__}"
        if type(obj) is int:
            assert obj != state.rng, "reaches the engine's generator state"
        if type(obj) is tuple and len(obj) == len(state.pile) > 10:
            assert obj != state.pile, "reaches the draw pile's order"
        if type(obj) is Cards:
            assert not any(obj is h for h in others), "reaches another seat's hand"


def test_the_list_of_a_new_game_does_not_hold_the_opponents_hand() -> None:
    """The issue's example: ``legal_actions(...)._state.players[1].hand`` gave it away."""
    state = new_game("europe", players=2, seed=3)
    legal = legal_actions(state)
    assert not hasattr(legal, "_state")
    assert all(o is not state.players[1].hand for o in reachable(legal))


@pytest.mark.parametrize("phase", PHASES)
@settings(max_examples=20)
@given(data=st.data())
def test_the_legal_list_is_a_function_of_the_seats_view(phase: Phase, data: st.DataObject) -> None:
    """In every phase: what the bot gets holds no state, lists ``legal_actions(state)`` in the
    same order, the same as in any world the seat cannot tell apart, and ``in`` answers what
    ``is_legal`` does."""
    state = data.draw(states(phase=phase))
    view, legal, _ = handed(state)
    assert not any(isinstance(o, GameState) for o in reachable(legal))
    listed = list(legal_actions(state))
    assert list(legal) == listed and len(legal) == len(listed)
    assert [legal[i] for i in range(len(legal))] == listed
    world = determinize(view, state.current, data.draw(st.integers(0, 2**32)))
    assert list(legal_actions(world)) == listed
    rng = random.Random(data.draw(st.integers(0, 2**32)))
    for action in [*rng.sample(listed, min(5, len(listed))),
                   *(near_miss_action(rng, state) for _ in range(20))]:  # fmt: skip
        assert (action in legal) == is_legal(state, action), action


# --------------------------------------------------------------------------- apply's checks


def accepted_only_if_legal(state: GameState, action: Action) -> None:
    """``apply`` takes ``action`` exactly when ``is_legal`` does, and never leaves a hand below
    zero."""
    legal = is_legal(state, action)
    try:
        after = apply(state, action)
    except IllegalActionError:
        assert not legal, f"apply refused the legal {action}"
        return
    assert legal, f"apply took the illegal {action}"
    assert all(min(p.hand) >= 0 for p in after.players)


RICH = {0: "4red+3blue+2loco"}
POOR = {0: "1red"}


def test_a_list_pointed_at_a_poorer_position_fools_nothing() -> None:
    """Attack 1: the list of a rich hand re-aimed at a poorer position (its state, or the hand it
    holds), then its claims applied to that position."""
    rich, poor = scenario(hands=RICH), scenario(hands=POOR)
    acts = legal_actions(rich)
    for name in ("_state", "_hand"):
        try:
            object.__setattr__(acts, name, poor if name == "_state" else poor.players[0].hand)
        except AttributeError:
            continue  # the list has no such part to re-aim
    tried = 0
    for i in range(len(acts)):
        try:
            action = acts[i]
        except IndexError:
            continue  # a list re-aimed at a poorer hand may have no such payment to hand out
        if isinstance(action, ClaimRoute):
            accepted_only_if_legal(poor, action)
            tried += 1
    assert tried > 0


def test_an_altered_listed_action_is_checked_like_a_fresh_one() -> None:
    """Attack 2: a claim taken from the list, then changed in place (an empty payment)."""
    state = scenario(hands=RICH)
    acts = legal_actions(state)
    for i in range(len(acts)):
        action = acts[i]
        if isinstance(action, ClaimRoute):
            object.__setattr__(action, "payment", Cards())
            accepted_only_if_legal(state, action)
            with pytest.raises(IllegalActionError):
                apply(state, action)


@settings(max_examples=40)
@given(data=st.data())
def test_a_list_with_parts_of_another_positions_list_fools_nothing(data: st.DataObject) -> None:
    """Attack 3: any part of the list replaced by the same part of another position's list (open
    routes, payments, cities, the hand...), then what it hands out applied to the first."""
    state, _, setup = data.draw(played(phase=Phase.TURN))
    other = data.draw(states(phase=Phase.TURN, map=setup["map"], players=setup["players"]))
    acts, donor = legal_actions(state), legal_actions(other)
    name = data.draw(st.sampled_from(type(acts).__slots__))
    object.__setattr__(acts, name, getattr(donor, name))
    for i in data.draw(st.lists(st.integers(0, max(len(acts) - 1, 0)), max_size=8)):
        try:
            action = acts[i]
        except (IndexError, ValueError, ZeroDivisionError, KeyError):
            continue  # a list made inconsistent may fail to hand anything out
        accepted_only_if_legal(state, action)


def test_a_list_given_another_positions_open_routes_fools_nothing() -> None:
    """Attack 3, worked: the list of a position where a route is taken, given every part of the
    list of a position where it is open, hands out a claim of the taken route: refused."""
    free = scenario(hands=RICH)
    route = next(a.route for a in legal_actions(free) if isinstance(a, ClaimRoute))
    taken = scenario(hands=RICH, owners={route: 1})
    acts, donor = legal_actions(taken), legal_actions(free)
    for name in type(acts).__slots__:
        object.__setattr__(acts, name, getattr(donor, name))
    handed_out = []
    for i in range(len(acts)):
        action = acts[i]  # each applied as soon as it is handed out
        accepted_only_if_legal(taken, action)
        handed_out.append(action)
    assert any(isinstance(a, ClaimRoute) and a.route == route for a in handed_out)


# --------------------------------------------------------------------------- check_bot


def nearest_state(frame: types.FrameType | None) -> GameState:
    """The ``state`` nearest up the frames from ``frame``: the one the bot is asked about."""
    while frame is not None and not isinstance(frame.f_locals.get("state"), GameState):
        frame = frame.f_back
    assert frame is not None
    found: GameState = frame.f_locals["state"]
    return found


def outermost_state(frame: types.FrameType | None) -> GameState:
    """The ``state`` farthest up the frames from ``frame``, down to the bottom of the stack:
    the checker's own real state, were it on the stack of the other worlds' decisions."""
    found: GameState | None = None
    while frame is not None:
        here = frame.f_locals.get("state")
        found = here if isinstance(here, GameState) else found
        frame = frame.f_back
    assert found is not None
    return found


class FramePeeker(GreedyBot):
    """Greedy, but it reads the state out of its caller's frames and draws blind whenever the
    top of the draw pile is a locomotive: the nearest frame holding a ``state``."""

    name = "peeker"
    find = staticmethod(nearest_state)

    def choose(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        state = self.find(sys._getframe(1))
        if view.phase in (Phase.TURN, Phase.SECOND_DRAW) and DrawBlind() in legal:
            top = state.pile[state.pile_top] if state.pile_top < len(state.pile) else None
            if top == LOCOMOTIVE:
                return DrawBlind()
        return super().choose(view, legal, rng)


class OuterFramePeeker(FramePeeker):
    """The same cheat through the OUTERMOST frame holding a ``state``: while another world
    is asked with the real state still further up the stack, it reads the real one there and
    answers alike in both worlds."""

    name = "outer-peeker"
    find = staticmethod(outermost_state)


@pytest.mark.parametrize("peeker", [FramePeeker, OuterFramePeeker])
@pytest.mark.parametrize("map_id", ["europe", "usa"])
def test_check_bot_reports_a_bot_that_peeks_through_its_callers_frames(
    map_id: str, peeker: type[FramePeeker]
) -> None:
    faults = check_bot(peeker(), games=2, map=map_id, seed=40, max_seconds=NO_CLOCK)
    peeks = [f for f in faults if f.kind == "peeks"]
    assert [f.seed for f in peeks] == [40, 41] and len(faults) == 2
    for fault in peeks:
        assert fault.seat in (0, 1) and fault.move >= 0
        assert "blind" in fault.detail and "decisions" in fault.detail
        assert f"(seat {fault.seat})" in str(fault)


class MemoisingPeeker(GreedyBot):
    """Greedy, but it reads the opponent's hand out of its caller's frames and takes the
    face-up card of the colour the opponent holds most of; and it remembers its answer for
    each view, so that when the same view is asked again (in another world) it answers as it
    did the first time, from the cards it saw then."""

    name = "memo-peeker"

    def __init__(self) -> None:
        self.answers: dict[View, Action] = {}

    def choose(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        if view not in self.answers:
            self.answers[view] = self._peek(view, legal, rng)
        return self.answers[view]

    def _peek(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        state = nearest_state(sys._getframe(1))
        other = state.players[(view.observer + 1) % len(state.players)].hand
        wanted = max(range(LOCOMOTIVE), key=lambda kind: (other[kind], -kind))
        for slot, card in enumerate(state.row):
            if card == wanted and other[wanted] and DrawFaceUp(slot) in legal:
                return DrawFaceUp(slot)
        return super().choose(view, legal, rng)


@pytest.mark.parametrize("map_id", ["europe", "usa"])
def test_check_bot_reports_a_peeking_bot_that_remembers_its_answer_per_view(map_id: str) -> None:
    """Asked again in another world, a remembered answer would agree with the real one: the
    other worlds are asked of copies of the bot made before the decision."""
    faults = check_bot(
        MemoisingPeeker(), games=2, map=map_id, seed=40, max_actions=60, max_seconds=NO_CLOCK
    )
    peeks = [f for f in faults if f.kind == "peeks"]
    assert [f.seed for f in peeks] == [40, 41] and len(faults) == 2
    assert all("draw" in f.detail for f in peeks)


def states_on_stack(frame: types.FrameType | None) -> list[GameState]:
    """Every distinct GameState held by any local of any frame from ``frame`` to the bottom
    of the stack, whatever its name, directly or in a tuple, list or dict of locals."""
    found: dict[int, GameState] = {}
    while frame is not None:
        for value in frame.f_locals.values():
            inner = value.values() if isinstance(value, dict) else value
            items = inner if isinstance(inner, (tuple, list, type({}.values()))) else [value]
            for item in items:
                if isinstance(item, GameState):
                    found[id(item)] = item
        frame = frame.f_back
    return list(found.values())


class StackRecorder(RandomBot):
    """Uniform, and for each call it notes every GameState on its stack, in a log shared by
    its copies (a class attribute: not copied)."""

    name = "stack-recorder"
    log: ClassVar[list[list[GameState]]] = []

    def choose(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        self.log.append(states_on_stack(sys._getframe(1)))
        return super().choose(view, legal, rng)


def test_check_bot_asks_each_world_alone_first_or_last_unpredictably(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Each decision is asked twice (worlds=1): once in the real world and once in a world
    ``determinize`` made, in either order; and each time the bot's stack holds the state it
    is asked about and no other, so no frame, however far up, shows it the real one."""
    from ttr_europe.testing import play

    made: list[GameState] = []  # the other worlds, kept alive: their ids stay theirs

    def recorded(state: GameState, seat: int, rng: random.Random) -> GameState:
        made.append(determinize(state, seat, rng))
        return made[-1]

    monkeypatch.setattr(play, "determinize", recorded)
    StackRecorder.log = []
    assert check_bot(StackRecorder(), games=1, seed=3, max_actions=120, max_seconds=NO_CLOCK) == []
    assert len(StackRecorder.log) == 2 * 120 and len(made) == 120
    assert all(len(seen) == 1 for seen in StackRecorder.log)  # was 2 in the other world
    invented = [any(seen[0] is world for world in made) for seen in StackRecorder.log]
    orders = {tuple(invented[i : i + 2]) for i in range(0, len(invented), 2)}
    assert orders == {(False, True), (True, False)}


@pytest.mark.parametrize(
    ("bot", "moves"), [(RandomBot(), 5_000), (GreedyBot(), 5_000), (MctsBot(iterations=8), 40)]
)
def test_the_shipped_bots_look_only_at_what_they_may_see(bot: Bot, moves: int) -> None:
    """Whole games for the quick bots, the first moves of the search bot (its worlds are drawn
    from the generator it is handed, so it answers alike in worlds it cannot tell apart). What
    is checked is what a bot looks at, not its speed: no clock (a loaded machine, the pure
    engine's search)."""
    assert check_bot(bot, games=2, worlds=2, seed=7, max_actions=moves, max_seconds=NO_CLOCK) == []
    assert check_bot(bot, games=1, map="usa", players=3, seed=8, max_actions=moves,
                     max_seconds=NO_CLOCK) == []  # fmt: skip


@pytest.mark.parametrize(
    "name",
    [
        "claimer",
        "saver",
        "racer",
        "ambitious",
        "mcts-fast",
        pytest.param("mcts", marks=pytest.mark.slow),
    ],
)
def test_the_ladders_styles_look_only_at_what_they_may_see(name: str) -> None:
    """The ladder's rungs (``random`` and ``greedy`` above); the searches, on their fixed
    budgets of playouts, for their first moves only."""
    moves = {"mcts-fast": 40, "mcts": 12}.get(name, 5_000)
    assert check_bot(make_bot(name), games=1, worlds=2, seed=9, max_actions=moves,
                     max_seconds=NO_CLOCK) == []  # fmt: skip
