"""Payments forged around ``Cards``' check are refused by both engines, with their fault named.

``Cards(...)`` accepts nine non-negative ints only, but ``tuple.__new__(Cards, counts)`` builds
a ``Cards`` around anything. A claim, a station or a tunnel's extra paid with such counts
(floats, bools, a negative count, too few or too many counts) gets ``MalformedActionError``
from ``apply``, ``is_legal``/``why_illegal``, ``in legal_actions``, ``decide`` (as a
``BotError``) and, when it is built, ``FastGame.apply``; the position is left as it was. Counts
that are ints but huge are well formed: both engines refuse them by the same rule.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import cache
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ttr_europe import fast
from ttr_europe.actions import Action, BuildStation, ClaimRoute, PayTunnel
from ttr_europe.cards import KINDS, Cards, well_formed
from ttr_europe.errors import BotError, IllegalActionError, MalformedActionError
from ttr_europe.jsonio import dumps, loads
from ttr_europe.players import decide
from ttr_europe.rules import apply, is_legal, legal_actions, why_illegal
from ttr_europe.state import GameState, Phase
from ttr_europe.testing import scenario
from ttr_europe.views import View

FAST_REASON = "the compiled core is not built (fast.available() is false)"
KINDS_OF_ACTION = ("claim", "station", "tunnel")


@cache
def position(kind: str) -> tuple[GameState, Action]:
    """A position and a legal action of ``kind`` in it, paid with real ``Cards``."""
    if kind == "tunnel":  # a red tunnel laid; the three cards turned over are red: 3 extra
        state = scenario(hands={0: "9red+3loco"}, pile="red red red blue green blue green")
        board = state.rules.map
        route = next(r for r in board.routes if r.tunnel and r.colour == 0 and not r.ferry)
        state = apply(state, ClaimRoute(route.id, Cards.of(red=route.length)))
        assert state.phase is Phase.TUNNEL
    else:
        state = scenario(hands={0: "4red+2blue+2loco", 1: "3green"})
    wanted = {"claim": ClaimRoute, "station": BuildStation, "tunnel": PayTunnel}[kind]
    action = next(a for a in legal_actions(state) if type(a) is wanted)
    assert is_legal(state, action)
    return state, action


def payment_of(kind: str) -> Cards:
    """The payment of ``position(kind)``'s legal action."""
    action = position(kind)[1]
    assert isinstance(action, ClaimRoute | BuildStation | PayTunnel)
    return action.payment


def forged(counts: Sequence[Any]) -> Cards:
    """A ``Cards`` around ``counts``, made past its check."""
    return tuple.__new__(Cards, tuple(counts))


def with_payment(action: Action, payment: Cards) -> Action:
    if isinstance(action, ClaimRoute):
        return ClaimRoute(action.route, payment)
    if isinstance(action, BuildStation):
        return BuildStation(action.city, payment)
    return PayTunnel(payment)


@st.composite
def bad_counts(draw: st.DrawFn, payment: Cards) -> tuple[Any, ...]:
    """The counts of ``payment`` spoiled one way: a float, a bool, a negative count, too few
    or too many counts."""
    counts = list(payment)
    how = draw(st.sampled_from(["float", "bool", "negative", "short", "long"]))
    at = draw(st.integers(0, KINDS - 1))
    if how == "float":
        counts[at] = float(counts[at]) + draw(st.sampled_from([0.0, 0.5, -0.0]))
        if draw(st.booleans()):
            counts = [float(n) for n in counts]
    elif how == "bool":
        counts[at] = draw(st.booleans())
    elif how == "negative":
        counts[at] = -draw(st.integers(1, 2**70))
    elif how == "short":
        counts = counts[: draw(st.integers(0, KINDS - 1))]
    else:
        counts += draw(st.lists(st.integers(0, 3), min_size=1, max_size=4))
    return tuple(counts)


def refused(
    state: GameState, action: Action, error: type[IllegalActionError]
) -> IllegalActionError:
    """The reference refuses ``action`` with ``error`` (exactly that class) everywhere it is
    asked, leaving ``state`` as it was; its error."""
    with pytest.raises(IllegalActionError) as raised:
        apply(state, action)
    assert type(raised.value) is error, raised.value
    with pytest.raises(IllegalActionError) as again:
        apply(state, action, player=state.current)
    assert type(again.value) is error
    assert is_legal(state, action) is False
    assert type(why_illegal(state, action)) is error
    assert action not in legal_actions(state)
    assert loads(dumps(state)) == state
    return raised.value


def refused_compiled(state: GameState, action: Action, reference: IllegalActionError) -> None:
    """``FastGame.apply`` refuses ``action`` as the reference did (class and rule), leaving
    the game as it was."""
    game = fast.FastGame.from_state(state)
    with pytest.raises(IllegalActionError) as compiled:
        game.apply(action)
    assert type(compiled.value) is type(reference)
    assert compiled.value.rule == reference.rule
    if isinstance(reference, MalformedActionError):
        assert str(compiled.value) == str(reference)
    assert game.to_state() == state, "a refused action changed the compiled game"


needs_fast = pytest.mark.skipif(not fast.available(), reason=FAST_REASON)
forgeries = st.sampled_from(KINDS_OF_ACTION).flatmap(
    lambda kind: bad_counts(payment_of(kind)).map(lambda counts: (kind, counts))
)
huge = st.tuples(st.sampled_from(KINDS_OF_ACTION), st.integers(0, KINDS - 1), st.integers(63, 400))


def forgery(kind: str, counts: tuple[Any, ...]) -> tuple[GameState, Action]:
    state, legal = position(kind)
    assert not well_formed(counts)
    return state, with_payment(legal, forged(counts))


def hugely(kind: str, at: int, bits: int) -> tuple[GameState, Action]:
    """The legal payment with ``2**bits`` more cards of kind ``at``: ints, so well formed."""
    state, legal = position(kind)
    counts = list(payment_of(kind))
    counts[at] += 2**bits
    return state, with_payment(legal, Cards(counts))


@given(forgeries)
def test_forged_counts_are_malformed_in_the_reference(case: tuple[str, tuple[Any, ...]]) -> None:
    error = refused(*forgery(*case), MalformedActionError)
    assert "payment must be nine non-negative ints" in str(error)


@needs_fast
@given(forgeries)
def test_forged_counts_are_malformed_in_the_compiled_core(
    case: tuple[str, tuple[Any, ...]],
) -> None:
    state, action = forgery(*case)
    refused_compiled(state, action, refused(state, action, MalformedActionError))


@given(huge)
def test_huge_counts_are_refused_by_a_rule(case: tuple[str, int, int]) -> None:
    """Huge ints are counts, so no fault of form: no hand holds them (or they pay nothing)."""
    error = refused(*hugely(*case), IllegalActionError)
    assert error.rule in ("R21", "R27", "R28", "R41")


@needs_fast
@given(huge)
def test_huge_counts_are_refused_by_the_same_rule_in_the_compiled_core(
    case: tuple[str, int, int],
) -> None:
    state, action = hugely(*case)
    refused_compiled(state, action, refused(state, action, IllegalActionError))


class _Answers:
    """A bot that answers one fixed action, whatever it is shown."""

    name = "forger"

    def __init__(self, action: Action) -> None:
        self.action = action

    def choose(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        return self.action


@pytest.mark.parametrize("kind", KINDS_OF_ACTION)
@pytest.mark.parametrize(
    "counts",
    [(1.0,) * KINDS, (True,) + (0,) * (KINDS - 1), (-1,) + (0,) * (KINDS - 1), (1,) * (KINDS - 1),
     (0,) * KINDS + (1,)],
    ids=["floats", "bool", "negative", "eight", "ten"],
)  # fmt: skip
def test_decide_names_a_bot_answering_forged_cards(kind: str, counts: tuple[Any, ...]) -> None:
    state, legal = position(kind)
    action = with_payment(legal, forged(counts))
    with pytest.raises(BotError, match="payment must be nine non-negative ints") as raised:
        decide(_Answers(action), state, random.Random(0))
    assert raised.value.seat == state.current and raised.value.action is action


@needs_fast
@pytest.mark.parametrize("kind", KINDS_OF_ACTION)
def test_the_real_payment_is_played_alike_by_both_engines(kind: str) -> None:
    """The positions above are ones where the payment, made honestly, is played."""
    state, legal = position(kind)
    game = fast.FastGame.from_state(state)
    game.apply(legal)
    assert game.to_state() == apply(state, legal)


@needs_fast
def test_the_compiled_core_is_handed_no_forged_count() -> None:
    """Eight counts used to be padded with a zero by ctypes and played by the core."""
    state, legal = position("claim")
    eight = with_payment(legal, forged(tuple(payment_of("claim"))[:8]))
    game = fast.FastGame.from_state(state)
    with pytest.raises(MalformedActionError, match="8 counts, not 9"):
        game.apply(eight)
    assert game.to_state() == state
