"""Claiming routes: R12, R20-R27 with D21 and D24 (colours, gray routes, locomotives, trains,
scoring, double routes and ferries) as worked examples."""

from __future__ import annotations

import pytest

from ttr_europe import (
    BuildStation,
    Cards,
    ClaimRoute,
    DrawBlind,
    DrawFaceUp,
    DrawTickets,
    GameState,
    IllegalActionError,
    Phase,
    apply,
    legal_actions,
    load_map,
)
from ttr_europe._payments import payments
from ttr_europe.state import NO_OWNER
from ttr_europe.testing import card_total, refusal, scenario

EUROPE = load_map("europe")
ROW = "red blue green yellow pink"


def refused(state: GameState, action: object) -> str:
    """The rule that refuses ``action`` (the refusal checked clean by ``refusal``)."""
    return refusal(state, action).rule


def claims(state: GameState, route: str) -> list[Cards]:
    """The payments ``legal_actions`` offers for ``route``, sorted (their order is no rule)."""
    la = legal_actions(state)
    listed = [a.payment for a in la if isinstance(a, ClaimRoute) and a.route == route]
    assert len(set(listed)) == len(listed)
    return sorted(listed)


def owner(state: GameState, route: str) -> int:
    return state.owners[EUROPE.route_index[route]]


# --------------------------------------------------------------------------- R21, R24


def test_r21_r24_colour_route_paid_in_its_colour() -> None:
    s = scenario(hands={0: "3black+1red"}, row=ROW, pile="white")
    after = apply(s, ClaimRoute("Brest-Paris", Cards.of(black=3)))
    me = after.players[0]
    assert me.hand == Cards.of(red=1)
    assert me.trains == 42 and me.score == 4
    assert owner(after, "Brest-Paris") == 0
    assert after.discard == Cards.of(black=3)
    assert after.row == s.row and after.draw_pile == s.draw_pile
    assert after.phase is Phase.TURN and after.current == 1  # R23: one route, then the turn ends
    assert card_total(after) == card_total(s)


@pytest.mark.parametrize(
    "payment",
    [
        "3red",  # R21: wrong colour
        "2black+1red",  # R21: colours never mixed
        "2black",  # R21: too few cards
        "4black",  # R21: too many cards
        "3black+1loco",
    ],
)
def test_r21_wrong_payments_are_refused(payment: str) -> None:
    s = scenario(hands={0: "4black+3red+1loco"}, row=ROW)
    assert refused(s, ClaimRoute("Brest-Paris", Cards.parse(payment))) == "R21"


def test_r21_cards_must_be_in_hand() -> None:
    s = scenario(hands={0: "2black"}, row=ROW)
    assert refused(s, ClaimRoute("Brest-Paris", Cards.of(black=3))) == "R21"
    assert claims(s, "Brest-Paris") == []


@pytest.mark.parametrize("payment", ["4red", "4blue", "3green+1loco", "1white+3loco", "4loco"])
def test_r21_gray_route_takes_any_one_colour(payment: str) -> None:
    s = scenario(hands={0: "4red+4blue+3green+1white+4loco"}, row=ROW)
    after = apply(s, ClaimRoute("Berlin-Danzig", Cards.parse(payment)))
    assert after.players[0].hand == s.players[0].hand.minus(Cards.parse(payment))
    assert after.players[0].score == 7 and after.players[0].trains == 41


def test_r21_gray_route_colours_never_mixed() -> None:
    s = scenario(hands={0: "4red+4blue"}, row=ROW)
    assert refused(s, ClaimRoute("Berlin-Danzig", Cards.of(red=2, blue=2))) == "R21"


def test_r20_d24_locomotives_are_wild_and_every_payment_is_listed() -> None:
    """R20: locomotives stand in for any number of cards; D24: each payment is its own action."""
    s = scenario(hands={0: "2black+2loco"}, row=ROW)
    assert claims(s, "Brest-Paris") == sorted(
        [Cards.of(black=2, loco=1), Cards.of(black=1, loco=2)]
    )
    s = scenario(hands={0: "2black+3loco"}, row=ROW)
    assert Cards.of(loco=3) in claims(s, "Brest-Paris")
    after = apply(s, ClaimRoute("Brest-Paris", Cards.of(black=1, loco=2)))
    assert after.players[0].hand == Cards.of(black=1, loco=1)
    assert after.discard == Cards.of(black=1, loco=2)


def test_d24_legal_claims_for_a_small_hand_are_exactly_these() -> None:
    s = scenario(hands={0: "1black"}, row=ROW, pile="white")
    la = legal_actions(s)
    assert [a for a in la if isinstance(a, ClaimRoute)] == [
        ClaimRoute("Amsterdam-Bruxelles", Cards.of(black=1))
    ]
    stations = [a for a in la if isinstance(a, BuildStation)]
    assert len(stations) == len(EUROPE.cities) == 47
    assert list(la)[:7] == [*(DrawFaceUp(i) for i in range(5)), DrawBlind(), DrawTickets()]


# --------------------------------------------------------------------------- R22, R23


def test_r22_not_enough_trains() -> None:
    s = scenario(hands={0: "4red+3black"}, row=ROW, trains={0: 3})
    assert refused(s, ClaimRoute("Berlin-Danzig", Cards.of(red=4))) == "R22"
    assert claims(s, "Berlin-Danzig") == []
    assert claims(s, "Brest-Paris") == [Cards.of(black=3)]


def test_r22_exactly_enough_trains() -> None:
    s = scenario(hands={0: "3black"}, row=ROW, trains={0: 3})
    after = apply(s, ClaimRoute("Brest-Paris", Cards.of(black=3)))
    assert after.players[0].trains == 0


def test_r23_a_claimed_route_cannot_be_claimed_again() -> None:
    s = scenario(hands={0: "3black", 1: "3black"}, row=ROW, owners={"Brest-Paris": 1})
    assert refused(s, ClaimRoute("Brest-Paris", Cards.of(black=3))) == "R23"
    s = scenario(hands={0: "3black"}, row=ROW, owners={"Brest-Paris": 0})
    assert refused(s, ClaimRoute("Brest-Paris", Cards.of(black=3))) == "R23"


def test_r23_routes_need_not_connect() -> None:
    s = scenario(hands={0: "4black"}, row=ROW, owners={"Kharkov-Rostov": 0})
    after = apply(s, ClaimRoute("Amsterdam-Bruxelles", Cards.of(black=1)))
    assert owner(after, "Amsterdam-Bruxelles") == 0


# --------------------------------------------------------------------------- R25


@pytest.mark.parametrize(
    ("route", "payment", "points"),
    [
        ("Amsterdam-Bruxelles", "1black", 1),
        ("Brest-Dieppe", "2orange", 2),
        ("Brest-Paris", "3black", 4),
        ("Berlin-Danzig", "4red", 7),
        ("Palermo-Smyrna", "4red+2loco", 15),
        ("Petrograd-Stockholm", "8red", 21),
    ],
)
def test_r25_points_follow_the_length_table(route: str, payment: str, points: int) -> None:
    s = scenario(hands={0: payment}, row=ROW, pile="", owners={"Brest-Pamplona": 0})
    after = apply(s, ClaimRoute(route, Cards.parse(payment)))
    length = EUROPE.route(route).length
    assert EUROPE.route_points[length] == points
    assert after.players[0].score == 7 + points
    assert after.players[0].trains == 45 - 4 - length


def test_r25_europe_and_usa_tables() -> None:
    assert dict(EUROPE.route_points) == {1: 1, 2: 2, 3: 4, 4: 7, 6: 15, 8: 21}
    assert dict(load_map("usa").route_points) == {1: 1, 2: 2, 3: 4, 4: 7, 5: 10, 6: 15}


# --------------------------------------------------------------------------- R26, D21


DOUBLES = [
    ("Berlin-Frankfurt-red", "Berlin-Frankfurt-black", "3black"),
    ("Dieppe-London-1", "Dieppe-London-2", "1red+1loco"),  # double ferry
    ("Madrid-Pamplona-white", "Madrid-Pamplona-black", "3black"),  # double tunnel
    ("Essen-Kobenhavn-1", "Essen-Kobenhavn-2", "2red+1loco"),
]


@pytest.mark.parametrize(("taken", "other", "payment"), DOUBLES)
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_r26a_never_both_tracks_to_one_player(
    taken: str, other: str, payment: str, players: int
) -> None:
    s = scenario(players=players, hands={0: payment}, row=ROW, pile="", owners={taken: 0})
    assert refused(s, ClaimRoute(other, Cards.parse(payment))) == "R26a"


@pytest.mark.parametrize(("taken", "other", "payment"), DOUBLES)
@pytest.mark.parametrize("players", [2, 3])
def test_r26b_two_or_three_players_close_the_twin(
    taken: str, other: str, payment: str, players: int
) -> None:
    s = scenario(players=players, hands={0: payment}, row=ROW, pile="", owners={taken: 1})
    assert refused(s, ClaimRoute(other, Cards.parse(payment))) == "R26b"
    assert claims(s, other) == []


@pytest.mark.parametrize(("taken", "other", "payment"), DOUBLES)
@pytest.mark.parametrize("players", [4, 5])
def test_r26c_four_or_five_players_another_player_may_take_the_twin(
    taken: str, other: str, payment: str, players: int
) -> None:
    s = scenario(players=players, hands={0: payment}, row=ROW, pile="", owners={taken: 1})
    assert Cards.parse(payment) in claims(s, other)
    after = apply(s, ClaimRoute(other, Cards.parse(payment)))
    assert owner(after, other) == 0 and owner(after, taken) == 1


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_r26_d21_claiming_one_track_closes_the_twin_by_player_count(players: int) -> None:
    """After seat 0 claims one track, the twin is closed to seat 0 always, and to everyone else
    only with 2-3 players (D21: fixed from the player count at setup)."""
    s = scenario(players=players, hands={0: "3red"}, row=ROW)
    s = apply(s, ClaimRoute("Berlin-Frankfurt-red", Cards.of(red=3)))
    twin = EUROPE.route_index["Berlin-Frankfurt-black"]
    assert owner(s, "Berlin-Frankfurt-black") == NO_OWNER
    assert s.closed[0] >> twin & 1
    for seat in range(1, players):
        assert bool(s.closed[seat] >> twin & 1) is (players < 4)


# --------------------------------------------------------------------------- R27 ferries


@pytest.mark.parametrize("payment", ["4pink+2loco", "3pink+3loco", "1pink+5loco", "6loco"])
def test_r27_ferry_one_locomotive_per_symbol_plus_one_colour(payment: str) -> None:
    s = scenario(hands={0: "5pink+6loco+2red"}, row=ROW)
    after = apply(s, ClaimRoute("Palermo-Smyrna", Cards.parse(payment)))
    assert after.players[0].score == 15 and owner(after, "Palermo-Smyrna") == 0


@pytest.mark.parametrize(
    ("payment", "rule"),
    [
        ("5pink+1loco", "R27"),  # one symbol unpaid
        ("6pink", "R27"),
        ("4pink+1red+1loco", "R27"),
        ("4pink+2red", "R27"),  # no paying a symbol with coloured cards (a Nordic rule)
        ("2pink+2red+2loco", "R21"),  # symbols paid, but colours mixed
    ],
)
def test_r27_ferry_wrong_payments(payment: str, rule: str) -> None:
    s = scenario(hands={0: "5pink+6loco+2red"}, row=ROW)
    assert refused(s, ClaimRoute("Palermo-Smyrna", Cards.parse(payment))) == rule


def test_r27_ferry_payments_listed_are_exactly_the_legal_ones() -> None:
    s = scenario(hands={0: "5pink+3loco+1red"}, row=ROW)
    assert claims(s, "Palermo-Smyrna") == sorted(
        [Cards.of(pink=4, loco=2), Cards.of(pink=3, loco=3)]
    )
    assert claims(s, "Amsterdam-London") == [Cards.of(loco=2)]  # two symbols on two spaces


def test_r27_official_example_smyrna_palermo() -> None:
    """EU: Smyrna-Palermo takes four cards of any one colour and two locomotives."""
    route = EUROPE.route("Palermo-Smyrna")
    assert (route.length, route.ferry, route.colour) == (6, 2, None)
    hand = Cards.of(blue=4, loco=2)
    assert payments(route.colour, route.length, route.ferry, hand) == (hand,)


# --------------------------------------------------------------------------- R12


def test_r12_claiming_is_a_whole_turn() -> None:
    s = scenario(hands={0: "4black"}, row=ROW, pile="white")
    s = apply(s, ClaimRoute("Amsterdam-Bruxelles", Cards.of(black=1)))
    assert s.current == 1 and s.phase is Phase.TURN
    with pytest.raises(IllegalActionError):
        apply(s, ClaimRoute("Brest-Paris", Cards.of(black=3)), player=0)
