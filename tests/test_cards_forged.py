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


def assert_refused(state: GameState, action: Action, error: type[IllegalActionError]) -> str:
    """Every engine refuses ``action`` with ``error`` (exactly that class), leaving ``state``
    as it was; the reference's message."""
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
    if fast.available():
        game = fast.FastGame.from_state(state)
        with pytest.raises(IllegalActionError) as compiled:
            game.apply(action)
        assert type(compiled.value) is error
        assert compiled.value.rule == raised.value.rule
        assert game.to_state() == state, "a refused action changed the compiled game"
    return str(raised.value)


@given(st.sampled_from(KINDS_OF_ACTION), st.data())
def test_forged_counts_are_malformed_in_both_engines(kind: str, data: st.DataObject) -> None:
    state, legal = position(kind)
    payment = legal.payment  # type: ignore[union-attr]
    counts = data.draw(bad_counts(payment))
    action = with_payment(legal, forged(counts))
    assert not well_formed(counts)
    message = assert_refused(state, action, MalformedActionError)
    assert "payment must be nine non-negative ints" in message


@given(st.sampled_from(KINDS_OF_ACTION), st.integers(0, KINDS - 1), st.integers(63, 400))
def test_huge_counts_are_refused_by_the_same_rule(kind: str, at: int, bits: int) -> None:
    """Huge ints are counts, so no fault of form: no hand holds them (or they pay nothing)."""
    state, legal = position(kind)
    counts = list(legal.payment)  # type: ignore[union-attr]
    counts[at] += 2**bits
    action = with_payment(legal, Cards(counts))
    assert_refused(state, action, IllegalActionError)


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


@pytest.mark.parametrize("kind", KINDS_OF_ACTION)
def test_the_real_payment_is_legal_in_both_engines(kind: str) -> None:
    """The positions above are ones where the payment, made honestly, is played."""
    state, legal = position(kind)
    after = apply(state, legal)
    if not fast.available():
        pytest.skip(FAST_REASON)
    game = fast.FastGame.from_state(state)
    game.apply(legal)
    assert game.to_state() == after


@pytest.mark.skipif(not fast.available(), reason=FAST_REASON)
def test_the_compiled_core_is_handed_no_forged_count() -> None:
    """Eight counts used to be padded with a zero by ctypes and played by the core."""
    state, legal = position("claim")
    eight = with_payment(legal, forged(tuple(legal.payment)[:8]))
    game = fast.FastGame.from_state(state)
    with pytest.raises(MalformedActionError, match="8 counts, not 9"):
        game.apply(eight)
    assert game.to_state() == state
