"""Errors: every refusal is a typed ``IllegalActionError`` (a ``ValueError``) naming its rule;
wrong seat, finished game and malformed actions have their own subclasses; the input state is
never changed."""

from __future__ import annotations

from typing import Any

import pytest

from ttr_europe import (
    BuildStation,
    Cards,
    ClaimRoute,
    DrawBlind,
    DrawFaceUp,
    GameOverError,
    GameState,
    IllegalActionError,
    KeepTickets,
    MalformedActionError,
    NotYourTurnError,
    Pass,
    PayTunnel,
    Phase,
    TTRError,
    apply,
    is_legal,
    why_illegal,
)
from ttr_europe.cards import CardsError
from ttr_europe.testing import scenario

ROW = "red blue green yellow pink"


def start() -> GameState:
    return scenario(hands={0: "3black+1loco", 1: "2red"}, row=ROW, pile="white black orange")


def test_illegal_action_error_is_a_value_error_naming_the_rule() -> None:
    s = start()
    action = ClaimRoute("Brest-Paris", Cards.of(red=3))
    with pytest.raises(ValueError, match=r"^R21: Brest-Paris: needs black") as info:
        apply(s, action)
    error = info.value
    assert isinstance(error, IllegalActionError) and isinstance(error, TTRError)
    assert error.rule == "R21"
    assert error.action == action
    assert str(action) in str(error)
    assert error.reason.startswith("Brest-Paris")


def test_why_illegal_returns_the_error_apply_raises() -> None:
    s = start()
    action = DrawFaceUp(7)
    error = why_illegal(s, action)
    assert isinstance(error, MalformedActionError)
    with pytest.raises(MalformedActionError) as info:
        apply(s, action)
    assert (info.value.rule, info.value.reason) == (error.rule, error.reason)
    assert why_illegal(s, DrawBlind()) is None


def test_r12_not_your_turn() -> None:
    s = start()
    before = repr(s)
    with pytest.raises(NotYourTurnError) as info:
        apply(s, DrawBlind(), player=1)
    assert isinstance(info.value, IllegalActionError)
    assert info.value.rule == "R12" and "seat 0" in str(info.value)
    assert repr(s) == before
    assert apply(s, DrawBlind(), player=0).phase is Phase.SECOND_DRAW


def test_r46_game_over_has_its_own_error() -> None:
    s = scenario(phase=Phase.GAME_OVER, row=ROW)
    with pytest.raises(GameOverError) as info:
        apply(s, DrawBlind())
    assert isinstance(info.value, IllegalActionError)
    assert not is_legal(s, DrawBlind())


MALFORMED: list[Any] = [
    ClaimRoute("Paris-Atlantis", Cards.of(black=3)),  # unknown route
    ClaimRoute(3, Cards.of(black=3)),  # type: ignore[arg-type]
    ClaimRoute("Brest-Paris", (0, 0, 0, 0, 0, 0, 0, 3, 0)),  # type: ignore[arg-type]
    ClaimRoute("Brest-Paris", "3black"),  # type: ignore[arg-type]
    ClaimRoute("Brest-Paris", None),  # type: ignore[arg-type]
    BuildStation("Atlantis", Cards.of(black=1)),  # unknown city
    BuildStation(None, Cards.of(black=1)),  # type: ignore[arg-type]
    BuildStation("Paris", [1, 0, 0, 0, 0, 0, 0, 0, 0]),  # type: ignore[arg-type]
    DrawFaceUp(5),  # slots are 0-4
    DrawFaceUp(-1),
    DrawFaceUp("1"),  # type: ignore[arg-type]
    DrawFaceUp(True),
    DrawFaceUp(1.0),  # type: ignore[arg-type]
    None,  # not an action at all
    "blind",
    3,
    DrawBlind,  # the class, not an instance
]


@pytest.mark.parametrize("action", MALFORMED, ids=repr)
def test_malformed_actions_raise_clear_typed_errors(action: Any) -> None:
    s = start()
    before = repr(s)
    with pytest.raises(MalformedActionError) as info:
        apply(s, action)
    assert str(info.value)  # a message, never a bare KeyError or IndexError
    assert not is_legal(s, action)
    assert isinstance(why_illegal(s, action), MalformedActionError)
    assert repr(s) == before


def test_malformed_keep_and_tunnel_payment() -> None:
    s = scenario(
        phase=Phase.CHOOSE_TICKETS, row=ROW, offers={0: ["Athina-Angora", "Budapest-Sofia"]}
    )
    for keep in (["Atlantis-Paris"], [1, 2], ["Athina-Angora", "Athina-Angora"], [None]):
        with pytest.raises(MalformedActionError):
            apply(s, KeepTickets(keep))  # type: ignore[arg-type]
    with pytest.raises(IllegalActionError):
        apply(s, PayTunnel((1,) * 9))  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "build",
    [
        lambda: Cards.of(red=-1),
        lambda: Cards((1, 2, 3)),
        lambda: Cards((0,) * 8 + (-2,)),
        lambda: Cards((0.5,) + (0,) * 8),  # type: ignore[arg-type]
        lambda: Cards((True,) + (0,) * 8),
        lambda: Cards.parse("2 purple + -1 red"),
        lambda: Cards.parse("3 widgets"),
    ],
)
def test_negative_or_malformed_card_counts_are_refused(build: Any) -> None:
    with pytest.raises(CardsError) as info:
        build()
    assert isinstance(info.value, ValueError) and isinstance(info.value, TTRError)


def test_a_cards_subclass_or_lookalike_is_not_a_payment() -> None:
    class Fake(Cards):
        pass

    s = start()
    with pytest.raises(MalformedActionError):
        apply(s, ClaimRoute("Brest-Paris", Fake((0, 0, 0, 0, 0, 0, 0, 3, 0))))


@pytest.mark.parametrize(
    ("action", "rule"),
    [
        (ClaimRoute("Brest-Paris", Cards.of(black=2)), "R21"),
        (ClaimRoute("Brest-Paris", Cards.of(black=3, loco=1)), "R21"),
        (BuildStation("Paris", Cards.of(black=2)), "R41"),
        (DrawFaceUp(0), None),
        (Pass(), "D1"),
        (PayTunnel(Cards.of(black=1)), "R12"),
        (KeepTickets(["Athina-Angora"]), "R12"),
    ],
)
def test_every_refusal_names_its_rule_and_leaves_the_state(action: Any, rule: str | None) -> None:
    s = start()
    before = repr(s)
    error = why_illegal(s, action)
    if rule is None:
        assert error is None
        return
    assert error is not None and error.rule == rule
    with pytest.raises(IllegalActionError, match=f"^{rule}:"):
        apply(s, action)
    assert repr(s) == before
