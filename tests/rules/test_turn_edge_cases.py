"""Worked examples for the order of events inside a turn and for edge cases of legality.

Each test names the rules it checks. The positions are built with ``testing.scenario`` and every
expectation is exact (hands, rows, piles, discards, phases), so a change of behaviour fails here.
"""

from __future__ import annotations

from typing import Any

import pytest

from ttr_europe import (
    BuildStation,
    Cards,
    ClaimRoute,
    DrawBlind,
    DrawFaceUp,
    DrawTickets,
    GameState,
    KeepTickets,
    Pass,
    PayTunnel,
    Phase,
    WithdrawTunnel,
    apply,
    is_legal,
    legal_actions,
    load_map,
    new_game,
)
from ttr_europe.state import NO_CARD, NO_OWNER, PendingTunnel
from ttr_europe.testing import card_total, kinds, refusal, scenario

EUROPE = load_map("europe")
ROW = "white blue green yellow pink"
SOCHI = "Erzurum-Sochi"  # a red tunnel of 3


def owner(state: GameState, route: str) -> int:
    return state.owners[EUROPE.route_index[route]]


# --------------------------------------------------------------------------- R15, R17, D2, D32


def test_r15a_r17_locomotive_first_whose_replacement_resets_the_row_is_still_the_only_card() -> (
    None
):
    """A row left with three locomotives (D2c, D32): taking one face up and getting a
    locomotive back makes three again, so the row resets; the turn is still over (R15a)."""
    s = scenario(row="loco loco loco red blue", pile="loco white white white white white orange")
    after = apply(s, DrawFaceUp(0))
    assert after.players[0].hand == Cards.of(loco=1)
    assert after.discard == Cards.of(loco=3, red=1, blue=1)
    assert after.row == kinds("white white white white white")
    assert after.draw_pile == kinds("orange")
    assert after.phase is Phase.TURN and after.current == 1


def test_r15b_r17_locomotive_in_the_row_after_a_reset_between_cards_is_not_a_second_card() -> None:
    s = scenario(row="loco loco red blue green", pile="loco loco white white white white orange")
    s = apply(s, DrawFaceUp(2))  # the replacement is a third locomotive: reset
    assert s.players[0].hand == Cards.of(red=1)
    assert s.discard == Cards.of(loco=3, blue=1, green=1)
    assert s.row == kinds("loco white white white white")
    assert s.phase is Phase.SECOND_DRAW
    assert list(legal_actions(s)) == [
        DrawFaceUp(1),
        DrawFaceUp(2),
        DrawFaceUp(3),
        DrawFaceUp(4),
        DrawBlind(),
    ]
    assert refusal(s, DrawFaceUp(0)).rule == "R15b"


RESET_PILE = (
    "loco "  # the first replacement
    "loco loco loco white white loco loco loco black black loco loco loco orange orange "
    "red "  # the second replacement
    "loco loco loco pink pink loco loco loco pink pink loco loco loco pink pink "
    "yellow yellow yellow yellow yellow green"
)


def test_d2c_d32_the_count_of_resets_starts_again_at_the_next_placement() -> None:
    """The first card's replacement triggers three resets and the row stays with three
    locomotives (D2c). The second card's replacement is a new trigger: three more resets,
    not none (D32)."""
    start = scenario(row="loco loco red blue green", pile=RESET_PILE, check=False)  # 21 locos
    s = apply(start, DrawFaceUp(2))
    assert s.row == kinds("loco loco loco orange orange")
    assert s.discard == Cards.of(loco=9, blue=1, green=1, white=2, black=2)
    assert s.phase is Phase.SECOND_DRAW
    s = apply(s, DrawFaceUp(3))  # an orange; the red replacement leaves three locomotives
    assert s.players[0].hand == Cards.of(red=1, orange=1)
    assert s.row == kinds("loco loco loco pink pink")
    assert s.discard == Cards.of(
        loco=18, blue=1, green=1, white=2, black=2, orange=1, red=1, pink=4
    )
    assert s.draw_pile == kinds("yellow yellow yellow yellow yellow green")
    assert s.phase is Phase.TURN and s.current == 1


def test_d3_d2b_refill_after_a_claim_with_nothing_left_does_not_reset() -> None:
    """D3, D33: the claim's card refills the empty slot at the end of the turn; the row then
    shows three locomotives, but with both piles empty there is no reset (D2b, D32)."""
    s = scenario(hands={0: "1black"}, row="loco loco loco red -", pile="")
    after = apply(s, ClaimRoute("Amsterdam-Bruxelles", Cards.of(black=1)))
    assert after.row == kinds("loco loco loco red black")
    assert after.discard == Cards() and after.pile_size == 0
    assert after.phase is Phase.TURN and after.current == 1


# --------------------------------------------------------------------------- R33, D4, D8, D31


def test_r33_d4_laid_cards_are_not_reshuffled_into_the_reveal() -> None:
    """The pile is empty, so the discard (two blue) is reshuffled for the reveal. The three red
    cards laid down wait beside the route and are not in it: only two cards are turned over,
    neither red, and the tunnel is claimed at no extra cost (D31)."""
    s = scenario(hands={0: "3red"}, row=ROW, pile="", discard="2blue")
    after = apply(s, ClaimRoute(SOCHI, Cards.of(red=3)))
    assert after.phase is Phase.TURN and after.current == 1
    assert owner(after, SOCHI) == 0 and after.players[0].score == 4
    assert after.discard == Cards.of(red=3, blue=2)
    assert after.pile_size == 0 and after.players[0].hand == Cards()


def test_d8_d31_reveal_reshuffles_part_way_then_withdraw_returns_the_laid_cards() -> None:
    start = scenario(hands={0: "3red+1loco"}, row=ROW, pile="black", discard="2red")
    s = apply(start, ClaimRoute(SOCHI, Cards.of(red=3)))
    assert s.tunnel == PendingTunnel(
        route=EUROPE.route_index[SOCHI],
        laid=Cards.of(red=3),
        revealed=kinds("black red red"),
        colour=0,
        extra=2,
    )
    assert s.discard == Cards() and s.pile_size == 0
    assert s.players[0].hand == Cards.of(loco=1)
    assert list(legal_actions(s)) == [WithdrawTunnel()]  # D9: one locomotive cannot pay two
    s = apply(s, WithdrawTunnel())
    assert s.players[0].hand == Cards.of(red=3, loco=1)  # R35
    assert s.discard == Cards.of(red=2, black=1)  # R28.5: revealed cards, at the end
    assert s.pile_size == 0 and owner(s, SOCHI) == NO_OWNER
    assert s.phase is Phase.TURN and s.current == 1
    assert card_total(s) == card_total(start)


def test_r46_d25_paying_a_tunnel_down_to_one_train_triggers_the_end() -> None:
    s = scenario(players=3, hands={0: "4red"}, row=ROW, pile="red white white black", trains={0: 4})
    s = apply(s, ClaimRoute(SOCHI, Cards.of(red=3)))
    assert s.phase is Phase.TUNNEL and s.final_turns == -1  # not at the end of a turn yet
    s = apply(s, PayTunnel(Cards.of(red=1)))
    assert s.players[0].trains == 1
    assert s.final_turns == 3 and s.current == 1 and s.phase is Phase.TURN


# --------------------------------------------------------------------------- R20, R27, D1, D24


def test_r20_d24_an_all_locomotive_hand_claims_every_short_route_with_locomotives_only() -> None:
    s = scenario(hands={0: "2loco"}, row=ROW, pile="red")
    claims = {(a.route, a.payment) for a in legal_actions(s) if isinstance(a, ClaimRoute)}
    assert claims == {(r.id, Cards.of(loco=r.length)) for r in EUROPE.routes if r.length <= 2}
    assert len(claims) == 39
    stations = [a for a in legal_actions(s) if isinstance(a, BuildStation)]
    assert {a.payment for a in stations} == {Cards.of(loco=1)}
    assert len(stations) == len(EUROPE.cities)


@pytest.mark.parametrize(("payment", "rule"), [("1red+1loco", "R27"), ("2red", "R27")])
def test_r27_ferry_with_more_symbols_than_locomotives_held(payment: str, rule: str) -> None:
    """Amsterdam-London has two spaces, both locomotive symbols: one locomotive is not enough."""
    s = scenario(hands={0: "5red+1loco"}, row=ROW, pile="red")
    assert not [a for a in legal_actions(s) if getattr(a, "route", None) == "Amsterdam-London"]
    assert refusal(s, ClaimRoute("Amsterdam-London", Cards.parse(payment))).rule == rule


def test_d1_no_pass_with_no_train_left_while_a_station_can_be_built() -> None:
    """Stations need no trains (R40, R41): with nothing to draw and no trains, the player must
    still build one rather than pass."""
    s = scenario(
        hands={0: "1orange", 1: ""},
        row="- - - - -",
        pile="",
        ticket_deck=[],
        trains={0: 0},
        final_turns=2,
    )
    listed = list(legal_actions(s))
    assert listed == [BuildStation(c.id, Cards.of(orange=1)) for c in EUROPE.cities]
    assert refusal(s, Pass()).rule == "D1"
    after = apply(s, BuildStation("Wien", Cards.of(orange=1)))
    assert after.players[0].stations == (EUROPE.city_index["Wien"],)
    assert after.row == kinds("orange - - - -") and after.discard == Cards()


def test_d5_option_a_face_up_locomotive_first_still_ends_the_turn() -> None:
    s = scenario(row="loco blue green yellow pink", pile="red white", second_card_optional=True)
    after = apply(s, DrawFaceUp(0))
    assert after.players[0].hand == Cards.of(loco=1)
    assert after.phase is Phase.TURN and after.current == 1 and after.passes == 0


# --------------------------------------------------------------------------- R9, D13


def test_r9_d13_europe_starting_rejects_go_to_the_box_in_seat_order_from_the_first_player() -> None:
    s = new_game("europe", players=2, seed=5, first_player=1)
    box, deck = s.box, s.ticket_deck
    first, second = s.players[1].offer, s.players[0].offer
    s = apply(s, KeepTickets([EUROPE.tickets[t].id for t in first[2:]]), player=1)
    s = apply(s, KeepTickets([EUROPE.tickets[t].id for t in second[:2]]), player=0)
    assert s.box == (*box, *first[:2], *second[2:])
    assert s.ticket_deck == deck
    assert s.players[1].tickets == first[2:] and s.players[0].tickets == second[:2]
    assert s.phase is Phase.TURN and s.current == 1


# --------------------------------------------------------------------------- legality agreement

LOOKALIKES: list[Any] = [
    DrawFaceUp(True),  # equal to DrawFaceUp(1)
    DrawFaceUp(1.0),  # type: ignore[arg-type]
    ClaimRoute("Amsterdam-Bruxelles", (0, 0, 0, 0, 0, 0, 0, 1, 0)),  # type: ignore[arg-type]
    BuildStation("Paris", (0, 0, 0, 0, 0, 0, 0, 1, 0)),  # type: ignore[arg-type]
]


@pytest.mark.parametrize("action", LOOKALIKES, ids=repr)
def test_d24_lookalikes_of_legal_actions_are_neither_listed_nor_legal(action: Any) -> None:
    """A slot must be an int and a payment ``Cards`` (D24); an action equal to a listed one
    but refused by ``apply`` is not ``in`` the legal actions either."""
    s = scenario(hands={0: "1black"}, row=ROW, pile="red")
    assert refusal(s, action).rule == "input"
    assert not is_legal(s, action)


def test_d24_lookalike_tunnel_payment_is_neither_listed_nor_legal() -> None:
    s = apply(scenario(hands={0: "4red"}, row=ROW, pile="red white white"),
              ClaimRoute(SOCHI, Cards.of(red=3)))  # fmt: skip
    assert PayTunnel(Cards.of(red=1)) in legal_actions(s)
    lookalike = PayTunnel((1, 0, 0, 0, 0, 0, 0, 0, 0))  # type: ignore[arg-type]
    assert refusal(s, lookalike).rule == "input"
    assert NO_CARD not in s.row


def test_r9_b4_mega_starting_rejects_long_and_regular_go_to_the_box() -> None:
    s = new_game("europe", "mega", 2, seed=8, first_player=0)
    box, deck = s.box, s.ticket_deck
    offer = s.players[0].offer
    assert [EUROPE.tickets[t].long for t in offer] == [True, True] + [False] * 5
    s = apply(s, KeepTickets([EUROPE.tickets[t].id for t in offer[1:4]]))  # one long, two regular
    assert s.players[0].tickets == offer[1:4]
    assert s.box == (*box, offer[0], *offer[4:])
    assert s.ticket_deck == deck
    assert s.phase is Phase.INITIAL_TICKETS and s.current == 1


def test_r37_d12_b3_big_cities_returns_three_of_four_under_the_deck_in_drawn_order() -> None:
    big = [t.id for t in EUROPE.tickets if t.big_cities][:6]
    s = apply(scenario(variant="big_cities", row=ROW, ticket_deck=big), DrawTickets())
    assert [EUROPE.tickets[t].id for t in s.players[0].offer] == big[:4]
    s = apply(s, KeepTickets([big[2]]))
    assert [EUROPE.tickets[t].id for t in s.players[0].tickets] == [big[2]]
    assert [EUROPE.tickets[t].id for t in s.ticket_deck] == [*big[4:], big[0], big[1], big[3]]
    assert s.phase is Phase.TURN and s.current == 1
