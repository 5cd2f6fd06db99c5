"""Tunnels: R28-R36 with D4, D7, D8, D9, D22, D31 and D33, as worked examples.

Erzurum-Sochi is a red tunnel of 3, Paris-Zurich a gray tunnel of 3, Marseille-Zurich a pink
tunnel of 2, Madrid-Pamplona a double tunnel of 3.
"""

from __future__ import annotations

import pytest

from ttr_europe import (
    Cards,
    ClaimRoute,
    DrawBlind,
    GameState,
    PayTunnel,
    PendingTunnel,
    Phase,
    WithdrawTunnel,
    apply,
    legal_actions,
    load_map,
)
from ttr_europe._payments import payment_colour
from ttr_europe.cards import LOCOMOTIVE, Color
from ttr_europe.state import NO_CARD, NO_OWNER
from ttr_europe.testing import card_total, kinds, refusal, scenario

EUROPE = load_map("europe")
ROW = "white blue green yellow pink"
SOCHI = "Erzurum-Sochi"


def refused(state: GameState, action: object) -> str:
    """The rule that refuses ``action`` (the refusal checked clean by ``refusal``)."""
    return refusal(state, action).rule


def attempt(hand: str, pay: str, pile: str, route: str = SOCHI, **kw: object) -> GameState:
    s = scenario(hands={0: hand}, row=ROW, pile=pile, **kw)  # type: ignore[arg-type]
    return apply(s, ClaimRoute(route, Cards.parse(pay)))


def owner(state: GameState, route: str) -> int:
    return state.owners[EUROPE.route_index[route]]


# --------------------------------------------------------------------------- R28, R34


def test_r28_reveal_three_pay_the_extra_and_claim() -> None:
    start = scenario(hands={0: "4red+1loco"}, row=ROW, pile="red blue green white")
    s = apply(start, ClaimRoute(SOCHI, Cards.of(red=3)))
    assert s.phase is Phase.TUNNEL and s.current == 0
    assert s.tunnel == PendingTunnel(
        route=EUROPE.route_index[SOCHI],
        laid=Cards.of(red=3),
        revealed=kinds("red blue green"),
        colour=Color.RED,
        extra=1,
    )
    assert s.players[0].hand == Cards.of(red=1, loco=1)  # D31: laid cards left the hand
    assert s.draw_pile == kinds("white")
    assert s.discard == Cards()  # D4: nothing reaches the discard before the answer
    assert owner(s, SOCHI) == NO_OWNER
    assert card_total(s) == card_total(start)  # D31: laid and revealed cards still count
    assert set(legal_actions(s)) == {
        PayTunnel(Cards.of(red=1)),
        PayTunnel(Cards.of(loco=1)),
        WithdrawTunnel(),
    }
    assert len(legal_actions(s)) == 3
    s = apply(s, PayTunnel(Cards.of(red=1)))
    assert owner(s, SOCHI) == 0
    me = s.players[0]
    assert me.hand == Cards.of(loco=1)
    assert me.score == 4 and me.trains == 42  # R34: four cards paid, still a route of 3
    assert s.discard == Cards.of(red=5, blue=1, green=1)  # R28.5: revealed cards discarded
    assert s.tunnel is None and s.phase is Phase.TURN and s.current == 1
    assert card_total(s) == card_total(start)


@pytest.mark.parametrize("extra", ["2red", "1red+1loco", "2loco"])
def test_r29_extra_cards_mix_the_colour_and_locomotives(extra: str) -> None:
    s = attempt("5red+2loco", "3red", "red loco green")
    assert s.tunnel is not None and s.tunnel.extra == 2
    assert sorted(a.payment for a in legal_actions(s) if isinstance(a, PayTunnel)) == sorted(
        [Cards.of(red=2), Cards.of(red=1, loco=1), Cards.of(loco=2)]
    )
    after = apply(s, PayTunnel(Cards.parse(extra)))
    assert after.players[0].hand == Cards.of(red=2, loco=2).minus(Cards.parse(extra))
    assert owner(after, SOCHI) == 0 and after.players[0].score == 4


def test_r30_locomotive_payment_only_revealed_locomotives_cost_extra() -> None:
    s = attempt("3loco+2red+1loco", "3loco", "red loco red")
    assert s.tunnel is not None
    assert s.tunnel.extra == 1 and s.tunnel.colour == LOCOMOTIVE and s.tunnel.locomotives_only
    assert refused(s, PayTunnel(Cards.of(red=1))) == "R30"
    assert list(legal_actions(s)) == [PayTunnel(Cards.of(loco=1)), WithdrawTunnel()]


def test_r30_locomotive_payment_with_no_locomotive_revealed_is_claimed_at_once() -> None:
    s = attempt("3loco", "3loco", "red red red white")
    assert s.phase is Phase.TURN and s.current == 1 and owner(s, SOCHI) == 0
    assert s.discard == Cards.of(loco=3, red=3)
    assert s.draw_pile == kinds("white")


def test_r31_mixed_payment_colour_and_locomotives_both_count() -> None:
    s = attempt("2red+1loco+2red", "2red+1loco", "red loco blue")
    assert s.tunnel is not None
    assert s.tunnel.colour == Color.RED and s.tunnel.extra == 2
    assert s.tunnel.laid == Cards.of(red=2, loco=1)


@pytest.mark.parametrize(("pay", "extra"), [("3green", 2), ("3blue", 1), ("3loco", 1)])
def test_r32_gray_tunnel_takes_the_colour_of_the_cards_laid(pay: str, extra: int) -> None:
    s = attempt("3green+3blue+3loco", pay, "green red loco", route="Paris-Zurich")
    assert s.tunnel is not None and s.tunnel.extra == extra
    assert s.tunnel.colour == payment_colour(Cards.parse(pay))


# --------------------------------------------------------------------------- R33, D8


def test_r33_fewer_than_three_cards_reveal_what_there_is() -> None:
    s = attempt("4red", "3red", "red")
    assert s.tunnel is not None
    assert s.tunnel.revealed == kinds("red") and s.tunnel.extra == 1


def test_r33_nothing_to_reveal_claims_the_tunnel_at_no_extra_cost() -> None:
    s = attempt("3red", "3red", "")
    assert s.phase is Phase.TURN and owner(s, SOCHI) == 0
    assert s.discard == Cards.of(red=3)  # the laid cards are never turned over


def test_d8_revealing_reshuffles_the_discard_part_way() -> None:
    s = attempt("4red", "3red", "blue", discard="2red")
    assert s.tunnel is not None
    assert s.tunnel.revealed == kinds("blue red red") and s.tunnel.extra == 2
    assert s.discard == Cards() and s.pile_size == 0
    assert s.players[0].hand == Cards.of(red=1)


def test_d8_reveal_stops_when_both_piles_are_empty_mid_way() -> None:
    s = attempt("4red", "3red", "blue", discard="1loco")
    assert s.tunnel is not None
    assert s.tunnel.revealed == kinds("blue loco") and s.tunnel.extra == 1


# --------------------------------------------------------------------------- R35, R36, D9


def test_r35_withdrawing_takes_every_laid_card_back_and_ends_the_turn() -> None:
    start = scenario(
        hands={0: "4red+1loco"}, row=ROW, pile="red blue green white", scores={0: 3}, check=False
    )
    s = apply(start, ClaimRoute(SOCHI, Cards.of(red=3)))
    assert WithdrawTunnel() in legal_actions(s)  # R36: even though paying is possible
    s = apply(s, WithdrawTunnel())
    assert s.players[0].hand == start.players[0].hand
    assert s.players[0].score == 3 and s.players[0].trains == 45
    assert owner(s, SOCHI) == NO_OWNER
    assert s.discard == Cards.of(red=1, blue=1, green=1)  # R28.5: revealed cards discarded
    assert s.draw_pile == kinds("white")
    assert s.tunnel is None and s.phase is Phase.TURN and s.current == 1
    assert card_total(s) == card_total(start)


def test_r35_the_route_stays_free_for_a_later_claim() -> None:
    s = attempt("3red", "3red", "red blue green white white red red red")
    s = apply(s, WithdrawTunnel())
    s = apply(apply(s, DrawBlind()), DrawBlind())  # seat 1's turn
    s = apply(s, ClaimRoute(SOCHI, Cards.of(red=3)))
    assert s.tunnel is not None and s.tunnel.extra == 3


def test_d9_withdraw_is_the_only_answer_when_the_extra_cannot_be_paid() -> None:
    s = attempt("3red+2blue", "3red", "red red white")
    assert s.tunnel is not None and s.tunnel.extra == 2
    assert list(legal_actions(s)) == [WithdrawTunnel()]


# --------------------------------------------------------------------------- D7, phase


@pytest.mark.parametrize(
    ("extra", "rule"),
    [
        ("1blue", "R29"),  # D7: the colour is fixed by the cards laid
        ("1red+1blue", "R28"),  # exactly the extra count
        ("2red", "R28"),
        ("1green", "R29"),
    ],
)
def test_d7_extra_payment_must_match_the_colour_and_count(extra: str, rule: str) -> None:
    s = attempt("4red+2blue+1green", "3red", "red white white")
    assert refused(s, PayTunnel(Cards.parse(extra))) == rule


def test_d7_extra_cards_must_be_held() -> None:
    s = attempt("3red", "3red", "red white white")
    assert refused(s, PayTunnel(Cards.of(red=1))) == "R28"


@pytest.mark.parametrize("action", [DrawBlind(), ClaimRoute("Brest-Dieppe", Cards.of(orange=2))])
def test_r28_only_pay_or_withdraw_while_a_tunnel_waits(action: object) -> None:
    s = attempt("3red+2orange+1red", "3red", "red white white")
    assert refused(s, action) == "R28"


def test_r28_pay_or_withdraw_refused_outside_a_tunnel() -> None:
    s = scenario(hands={0: "2red"}, row=ROW)
    assert refused(s, PayTunnel(Cards.of(red=1))) == "R12"
    assert refused(s, WithdrawTunnel()) == "R12"


# --------------------------------------------------------------------------- D22, D31, D33


@pytest.mark.parametrize(
    ("kw", "payment", "rule"),
    [
        ({"owners": {SOCHI: 1}}, "3red", "R23"),
        ({"owners": {"Madrid-Pamplona-white": 1}}, "3black", "R26b"),
        ({"trains": {0: 2}}, "3red", "R22"),
        ({}, "3blue", "R21"),
        ({}, "2red", "R21"),
        ({}, "4red", "R21"),
    ],
)
def test_d22_illegal_attempt_reveals_nothing(
    kw: dict[str, object], payment: str, rule: str
) -> None:
    s = scenario(hands={0: "3red+3black+1blue"}, row=ROW, pile="red red red", **kw)  # type: ignore[arg-type]
    route = "Madrid-Pamplona-black" if "black" in payment else SOCHI
    assert refused(s, ClaimRoute(route, Cards.parse(payment))) == rule
    assert s.pile_top == 0


def test_d22_cards_not_held_reveals_nothing() -> None:
    s = scenario(hands={0: "2red"}, row=ROW, pile="red red red")
    assert refused(s, ClaimRoute(SOCHI, Cards.of(red=3))) == "R21"


def test_d31_no_extra_cost_claims_in_the_same_action() -> None:
    s = attempt("3red", "3red", "blue green white black")
    assert s.phase is Phase.TURN and s.tunnel is None and s.current == 1
    assert owner(s, SOCHI) == 0 and s.players[0].score == 4
    assert s.discard == Cards.of(red=3, blue=1, green=1, white=1)
    assert s.draw_pile == kinds("black")


def test_d33_empty_slots_refilled_after_a_tunnel_claim() -> None:
    s = scenario(hands={0: "2pink"}, row="- - green yellow pink", pile="")
    s = apply(s, ClaimRoute("Marseille-Zurich", Cards.of(pink=2)))
    assert owner(s, "Marseille-Zurich") == 0
    assert s.row == kinds("pink pink green yellow pink")
    assert NO_CARD not in s.row and s.discard == Cards()
