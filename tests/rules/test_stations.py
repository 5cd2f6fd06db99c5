"""Train stations: R40-R42 (where, how many, what they cost) and R12 for the USA, which has
none. What a station does at final scoring (R43-R45) is tested with the scoring."""

from __future__ import annotations

import pytest

from ttr_europe import (
    BuildStation,
    Cards,
    GameState,
    Phase,
    apply,
    legal_actions,
    load_map,
)
from ttr_europe._payments import payments
from ttr_europe.state import NO_CARD
from ttr_europe.testing import card_total, kinds, refusal, scenario

EUROPE = load_map("europe")
ROW = "red blue green yellow pink"


def refused(state: GameState, action: object) -> str:
    """The rule that refuses ``action`` (the refusal checked clean by ``refusal``)."""
    return refusal(state, action).rule


def station_actions(state: GameState) -> list[BuildStation]:
    """The listed station actions, checked against the count ``LegalActions`` gives."""
    legal = legal_actions(state)
    found = [a for a in legal if isinstance(a, BuildStation)]
    assert legal.station_count == len(found)
    return found


def city(name: str) -> int:
    return EUROPE.city_index[name]


# --------------------------------------------------------------------------- R40


def test_r40_build_in_any_free_city_even_with_no_route_into_it() -> None:
    start = scenario(hands={0: "1red+2blue"}, row=ROW, pile="white", scores={0: 5}, check=False)
    s = apply(start, BuildStation("Erzurum", Cards.of(red=1)))
    me = s.players[0]
    assert me.stations == (city("Erzurum"),)
    assert me.hand == Cards.of(blue=2)
    assert me.trains == 45 and me.score == 5
    assert s.discard == Cards.of(red=1)
    assert s.phase is Phase.TURN and s.current == 1  # one station per turn, then the turn ends
    assert card_total(s) == card_total(start)


@pytest.mark.parametrize("holder", [0, 1])
def test_r40_one_station_per_city_whoever_built_it(holder: int) -> None:
    s = scenario(hands={0: "2red"}, row=ROW, stations={holder: ["Paris"]})
    cost = "1red" if holder == 1 else "2red"
    assert refused(s, BuildStation("Paris", Cards.parse(cost))) == "R40"
    assert all(a.city != "Paris" for a in station_actions(s))


def test_r40_at_most_three_stations() -> None:
    s = scenario(hands={0: "8red"}, row=ROW, stations={0: ["Paris", "Wien", "Roma"]})
    assert refused(s, BuildStation("Berlin", Cards.of(red=4))) == "R40"
    assert station_actions(s) == []


def test_r42_a_built_station_stays_and_blocks_the_city_for_everyone() -> None:
    s = scenario(hands={0: "1red", 1: "2red"}, row=ROW, pile="white black")
    s = apply(s, BuildStation("Zurich", Cards.of(red=1)))
    assert refused(s, BuildStation("Zurich", Cards.of(red=1))) == "R40"
    s = apply(s, BuildStation("Venezia", Cards.of(red=1)))
    assert s.players[0].stations == (city("Zurich"),)
    assert s.players[1].stations == (city("Venezia"),)


# --------------------------------------------------------------------------- R41


@pytest.mark.parametrize(
    ("built", "payment"),
    [
        ([], "1red"),
        ([], "1loco"),
        (["Paris"], "2blue"),
        (["Paris"], "1blue+1loco"),
        (["Paris", "Wien"], "3green"),
        (["Paris", "Wien"], "1green+2loco"),
        (["Paris", "Wien"], "3loco"),
    ],
)
def test_r41_cost_grows_with_each_station(built: list[str], payment: str) -> None:
    s = scenario(hands={0: "1red+2blue+3green+3loco"}, row=ROW, stations={0: built})
    after = apply(s, BuildStation("Berlin", Cards.parse(payment)))
    assert after.players[0].stations[-1] == city("Berlin")
    assert len(after.players[0].stations) == len(built) + 1
    assert after.players[0].hand == s.players[0].hand.minus(Cards.parse(payment))


@pytest.mark.parametrize(
    ("built", "payment"),
    [
        ([], "2red"),  # the first station costs exactly one card
        (["Paris"], "1blue"),
        (["Paris"], "1blue+1green"),  # one colour only
        (["Paris", "Wien"], "2green"),
        (["Paris", "Wien"], "2green+1blue"),
        (["Paris", "Wien"], "4green"),
    ],
)
def test_r41_wrong_station_payments(built: list[str], payment: str) -> None:
    s = scenario(hands={0: "1red+2blue+4green+3loco"}, row=ROW, stations={0: built})
    assert refused(s, BuildStation("Berlin", Cards.parse(payment))) == "R41"


def test_r41_cards_must_be_held() -> None:
    s = scenario(hands={0: "1blue"}, row=ROW, stations={0: ["Paris"]})
    assert refused(s, BuildStation("Berlin", Cards.of(blue=2))) == "R41"


def test_r41_listed_station_payments_are_exactly_the_legal_ones() -> None:
    hand = Cards.of(red=2, blue=1, loco=1)
    s = scenario(hands={0: hand}, row=ROW, stations={0: ["Paris"]})
    listed = station_actions(s)
    options = [Cards.of(red=2), Cards.of(red=1, loco=1), Cards.of(blue=1, loco=1)]
    assert sorted(payments(None, 2, 0, hand)) == sorted(options)
    assert len(listed) == len(set(listed)) == 46 * 3
    assert set(listed) == {
        BuildStation(c.id, pay) for c in EUROPE.cities if c.id != "Paris" for pay in options
    }


def test_r42_stations_are_never_required() -> None:
    s = scenario(hands={0: "1red"}, row=ROW, pile="white")
    la = legal_actions(s)
    assert any(isinstance(a, BuildStation) for a in la)
    assert any(not isinstance(a, BuildStation) for a in la)


def test_d3_building_a_station_refills_empty_slots() -> None:
    s = scenario(hands={0: "1pink"}, row="- blue green yellow pink", pile="")
    s = apply(s, BuildStation("Paris", Cards.of(pink=1)))
    assert s.row == kinds("pink blue green yellow pink")
    assert NO_CARD not in s.row


# --------------------------------------------------------------------------- R12 (USA)


def test_r12_usa_has_no_stations() -> None:
    s = scenario("usa", hands={0: "3red"}, row=ROW)
    assert s.rules.variant.stations == 0
    assert refused(s, BuildStation("Denver", Cards.of(red=1))) == "R12"
    assert station_actions(s) == []


def test_station_in_an_unknown_city_is_malformed() -> None:
    s = scenario(hands={0: "1red"}, row=ROW)
    assert refused(s, BuildStation("Atlantis", Cards.of(red=1))) == "input"


def test_r40_stations_left_counts_down_from_the_variant() -> None:
    s = scenario(stations={0: ["Paris", "Wien"]})
    assert s.stations_left(0) == 1 and s.stations_left(1) == 3
    assert scenario("usa").stations_left(0) == 0
