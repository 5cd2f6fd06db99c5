"""The Europe variants from the data (B1-B4, D28) and the option switches of ``Rules``
(D2 reset_cap, D5 second_card_optional, B4 max_long_kept)."""

from __future__ import annotations

from itertools import combinations
from math import comb

import pytest

from strategies import assert_invariants, play_to_end
from ttr_europe import (
    DrawTickets,
    IllegalActionError,
    KeepTickets,
    Phase,
    Rules,
    SetupError,
    apply,
    legal_actions,
    load_map,
    new_game,
)
from ttr_europe.actions import ACTION_TYPES

EUROPE = load_map("europe")
BIG_CITIES = {"Angora", "Athina", "Berlin", "London", "Madrid", "Moskva", "Paris", "Roma", "Wien"}


def pool(variant: str) -> tuple[list[str], list[str]]:
    v = EUROPE.variants[variant]
    return [EUROPE.tickets[t].id for t in v.long_pool], [
        EUROPE.tickets[t].id for t in v.regular_pool
    ]


def test_b1_r11_every_europe_variant_shares_the_base_parameters() -> None:
    """B1, and R11: the 10-point bonus card of each map."""
    assert list(EUROPE.variants) == ["base", "expanded", "big_cities", "mega"]
    for v in EUROPE.variants.values():
        assert (v.min_players, v.max_players, v.trains, v.stations) == (2, 5, 45, 3)
        assert (v.hand, v.face_up, v.reset_locomotives, v.station_points) == (4, 5, 3, 4)
        assert (v.initial_rejects, v.keep_drawn, v.double_routes_min_players) == ("box", 1, 4)
        assert v.bonus.name == "European Express" and v.bonus.points == 10
        assert v.tiebreaks == ("completed_tickets", "fewest_stations", "bonus_card")


def test_r3_r8_base_pool_six_long_forty_regular() -> None:
    longs, regular = pool("base")
    assert len(longs) == 6 and len(regular) == 40
    v = EUROPE.variants["base"]
    assert (v.deal_long, v.deal_regular, v.keep_initial, v.draw_tickets) == (1, 3, 2, 3)


def test_b2_expanded_adds_nineteen_regular_tickets() -> None:
    longs, regular = pool("expanded")
    assert longs == pool("base")[0]
    assert len(regular) == 59 and set(pool("base")[1]) <= set(regular)
    added = [EUROPE.ticket(t) for t in regular if t not in pool("base")[1]]
    assert len(added) == 19 and all(t.deck == "1912" and not t.big_cities for t in added)
    v = EUROPE.variants["expanded"]
    assert (v.deal_long, v.deal_regular, v.keep_initial, v.draw_tickets) == (1, 3, 2, 3)


def test_b3_big_cities_pool_deal_and_draw() -> None:
    longs, regular = pool("big_cities")
    assert longs == [] and len(regular) == 45
    for t in map(EUROPE.ticket, regular):
        ends = {EUROPE.cities[t.a].id, EUROPE.cities[t.b].id}
        assert t.big_cities and ends & BIG_CITIES
    assert {c.id for c in EUROPE.cities if c.big} == BIG_CITIES
    v = EUROPE.variants["big_cities"]
    assert (v.deal_long, v.deal_regular, v.keep_initial, v.draw_tickets) == (0, 5, 2, 4)


def test_b3_big_cities_game_deals_five_keeps_two() -> None:
    s = new_game("europe", "big_cities", 3, seed=4)
    assert all(len(p.offer) == 5 for p in s.players)
    assert len(legal_actions(s)) == sum(comb(5, k) for k in range(2, 6))
    with pytest.raises(IllegalActionError) as info:
        apply(s, KeepTickets([EUROPE.tickets[s.player.offer[0]].id]))
    assert info.value.rule == "R9"
    assert len(s.ticket_deck) == 45 - 15 and s.box == ()


def test_b4_mega_pool_deal_and_keep() -> None:
    longs, regular = pool("mega")
    assert len(longs) == 12 and len(regular) == 89
    assert len(set(longs + regular)) == len(EUROPE.tickets) == 101
    v = EUROPE.variants["mega"]
    assert (v.deal_long, v.deal_regular, v.keep_initial, v.draw_tickets) == (2, 5, 3, 3)
    s = new_game("europe", "mega", 5, seed=8)
    for p in s.players:
        assert [EUROPE.tickets[t].long for t in p.offer] == [True] * 2 + [False] * 5
    assert len(s.box) == 12 - 10 and len(s.ticket_deck) == 89 - 25
    assert len(legal_actions(s)) == sum(comb(7, k) for k in range(3, 8))


def test_b4_option_max_long_kept_one() -> None:
    """B4 ALT: at most one of the two long tickets kept (still at least three in all)."""
    s = new_game("europe", "mega", 2, seed=8, max_long_kept=1)
    assert s.rules.long_kept_limit == 1
    offer = [EUROPE.tickets[t] for t in s.player.offer]
    longs = [t.id for t in offer if t.long]
    regular = [t.id for t in offer if not t.long]
    expected = {
        tuple(sorted(c))
        for k in range(3, 8)
        for c in combinations([*longs, *regular], k)
        if len(set(c) & set(longs)) <= 1
    }
    listed = {a.tickets for a in legal_actions(s) if isinstance(a, KeepTickets)}
    assert listed == expected and len(listed) == 68
    with pytest.raises(IllegalActionError) as info:
        apply(s, KeepTickets([*longs, regular[0]]))
    assert info.value.rule == "B4"
    s = apply(s, KeepTickets([longs[1], *regular[:2]]))
    assert s.players[s.first_player].tickets == tuple(EUROPE.ticket_index[t] for t in
                                                      [longs[1], *regular[:2]])  # fmt: skip


def test_b4_max_long_kept_applies_only_to_the_starting_choice() -> None:
    s = new_game("europe", "mega", 2, seed=8, max_long_kept=0)
    while s.phase is Phase.INITIAL_TICKETS:
        s = apply(s, legal_actions(s)[0])
    assert all(not EUROPE.tickets[t].long for p in s.players for t in p.tickets)
    s = apply(s, DrawTickets())
    assert len(legal_actions(s)) == 7


def test_d2_d5_b4_option_defaults() -> None:
    rules = Rules(EUROPE, EUROPE.variants["base"], 3)
    assert rules.reset_cap == 3
    assert rules.second_card_optional is False
    assert rules.max_long_kept is None and rules.long_kept_limit is None
    assert rules.tiebreak_path_length is False and rules.bonus_at_zero is False
    s = new_game("europe", players=2, reset_cap=0, second_card_optional=True)
    assert (s.rules.reset_cap, s.rules.second_card_optional) == (0, True)


def test_unknown_variant_or_option_is_a_setup_error() -> None:
    with pytest.raises(SetupError):
        new_game("europe", "orient_express")
    with pytest.raises(SetupError):
        new_game("usa", "mega")
    with pytest.raises(SetupError):
        new_game("europe", players=2, reset_limit=2)


@pytest.mark.parametrize("variant", ["base", "expanded", "big_cities", "mega"])
@pytest.mark.parametrize("players", [2, 5])
def test_every_variant_plays_to_the_end(variant: str, players: int) -> None:
    s = new_game("europe", variant, players, seed=players)
    assert_invariants(s)
    final, count = play_to_end(s, seed=players)
    assert final.phase is Phase.GAME_OVER and count > 0
    assert_invariants(final)


@pytest.mark.parametrize(
    "option",
    [
        {"reset_cap": -1},
        {"reset_cap": "3"},
        {"reset_cap": 1.5},
        {"second_card_optional": 1},
        {"max_long_kept": -1},
        {"max_long_kept": "1"},
        {"tiebreak_path_length": None},
        {"bonus_at_zero": "yes"},
    ],
)
def test_d2_d5_b4_option_values_of_the_wrong_type_or_sign_are_refused(
    option: dict[str, object],
) -> None:
    with pytest.raises(SetupError):
        new_game("europe", "mega", 3, **option)  # type: ignore[arg-type]


def test_d26_d27_warehouses_and_depots_are_not_offered() -> None:
    """D26, D27: the Warehouses & Depots module is not implemented (docs/rules.md). Europe
    Expanded is played without it: asking for it is a SetupError naming the option, and no
    action of a game reaches outside the nine action types (no depot, no warehouse card)."""
    for option in ("depots", "warehouses"):
        with pytest.raises(SetupError, match=option):
            new_game("europe", "expanded", 3, seed=1, **{option: True})
    state = new_game("europe", "expanded", 3, seed=1)
    final, _ = play_to_end(state, seed=1)
    assert final.phase is Phase.GAME_OVER
    seen = {type(a) for a in legal_actions(state)}
    assert seen <= set(ACTION_TYPES)
