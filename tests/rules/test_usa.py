"""The USA map through the same engine (R4, R9, R25, R26, R50, R51, B7): no stations, tunnels or
ferries; 3 tickets dealt, 2 kept, rejects to the bottom; its own bonus and tie-break data."""

from __future__ import annotations

import random

import pytest

from strategies import assert_invariants, choose
from ttr_europe import (
    BuildStation,
    Cards,
    ClaimRoute,
    GameState,
    IllegalActionError,
    Phase,
    apply,
    is_terminal,
    legal_actions,
    load_map,
    new_game,
)
from ttr_europe.testing import scenario

USA = load_map("usa")
V = USA.variants["base"]
ROW = "red blue green yellow pink"


def test_r4_b7_board_facts() -> None:
    assert len(USA.cities) == 36 and len(USA.routes) == 100
    assert sum(1 for r in USA.routes if r.twin is not None) == 44  # 22 double pairs
    assert {r.length for r in USA.routes} == {1, 2, 3, 4, 5, 6}
    assert not any(r.tunnel or r.ferry for r in USA.routes)
    assert len(USA.tickets) == 30 and not any(t.long for t in USA.tickets)


def test_r50_r51_variant_data() -> None:
    assert list(USA.variants) == ["base"]
    assert (V.stations, V.trains, V.hand, V.face_up, V.reset_locomotives) == (0, 45, 4, 5, 3)
    assert (V.deal_long, V.deal_regular, V.keep_initial, V.initial_rejects) == (0, 3, 2, "bottom")
    assert (V.draw_tickets, V.keep_drawn, V.double_routes_min_players) == (3, 1, 4)
    assert (V.bonus.name, V.bonus.points) == ("Longest Continuous Path", 10)
    assert V.tiebreaks == ("completed_tickets", "bonus_card")
    assert not USA.has_stations


def test_r25_usa_length_five_scores_ten() -> None:
    s = scenario("usa", hands={0: "5blue"}, row=ROW)
    s = apply(s, ClaimRoute("Atlanta-Miami", Cards.of(blue=5)))
    assert s.players[0].score == 10 and s.players[0].trains == 40


@pytest.mark.parametrize("players", [2, 3])
def test_r26b_usa_doubles_closed_with_two_or_three_players(players: int) -> None:
    s = scenario(
        "usa", players=players, hands={0: "2red"}, row=ROW, owners={"Atlanta-Raleigh-1": 1}
    )
    with pytest.raises(IllegalActionError) as info:
        apply(s, ClaimRoute("Atlanta-Raleigh-2", Cards.of(red=2)))
    assert info.value.rule == "R26b"


def test_r26c_usa_doubles_open_with_four_players() -> None:
    s = scenario("usa", players=4, hands={0: "2red"}, row=ROW, owners={"Atlanta-Raleigh-1": 1})
    s = apply(s, ClaimRoute("Atlanta-Raleigh-2", Cards.of(red=2)))
    assert s.owners[USA.route_index["Atlanta-Raleigh-2"]] == 0


def test_r12_usa_build_station_is_refused() -> None:
    s = scenario("usa", hands={0: "1red"}, row=ROW)
    with pytest.raises(IllegalActionError) as info:
        apply(s, BuildStation("Denver", Cards.of(red=1)))
    assert info.value.rule == "R12"


def test_r9_usa_new_game_deal() -> None:
    s = new_game("usa", players=5, seed=3)
    assert all(len(p.offer) == 3 for p in s.players)
    assert len(s.ticket_deck) == 15 and s.box == ()
    assert all(p.stations == () for p in s.players)


def full_game(seed: int, players: int) -> list[GameState]:
    rng = random.Random(seed)
    state = new_game("usa", players=players, seed=seed)
    seen = [state]
    while not is_terminal(state):
        state = apply(state, choose(rng, state, ("uniform", "build", "hoard")[seed % 3]))
        seen.append(state)
    return seen


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_r51_usa_games_have_no_station_or_tunnel_and_end(players: int) -> None:
    """R51: three actions only: no station is ever listed and a claim never waits on a
    tunnel; the game ends (R46) with every invariant holding."""
    for seed in range(3):
        states = full_game(seed, players)
        for s in states[:: max(1, len(states) // 40)]:
            assert not any(isinstance(a, BuildStation) for a in legal_actions(s))
            assert_invariants(s)
        assert not any(s.phase is Phase.TUNNEL for s in states)
        assert states[-1].phase is Phase.GAME_OVER
