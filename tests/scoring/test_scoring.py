"""Worked examples of final scoring: one or more per rule of rules.md R39, R43-R50, D10, D14-D17."""

from __future__ import annotations

import json
import random
import time
from collections.abc import Sequence

import attrs
import pytest

from ttr_europe import Phase, apply, is_terminal, legal_actions, load_map, new_game
from ttr_europe.errors import TTRError
from ttr_europe.paths import longest_trail
from ttr_europe.scoring import (
    PlayerScore,
    Scoreboard,
    ScoreMismatchError,
    ScoringError,
    choose_borrowed,
    format_scoreboard,
    longest_path,
    outcome,
    returns,
    score,
)
from ttr_europe.state import NO_OWNER, GameState
from ttr_europe.testing import finished, scenario

EUROPE = load_map("europe")
USA = load_map("usa")


def points(*route_ids: str) -> int:
    """Route points from the map's table (R25)."""
    return sum(EUROPE.route(r).points for r in route_ids)


def trains(*route_ids: str) -> int:
    return sum(EUROPE.route(r).length for r in route_ids)


def seat(board: Scoreboard, s: int) -> PlayerScore:
    return board.players[s]


def ticket(p: PlayerScore, ticket_id: str) -> tuple[int, bool, tuple[str, ...]]:
    found = [t for t in p.tickets if t.ticket == ticket_id]
    assert len(found) == 1
    return found[0].points, found[0].completed, found[0].routes


def assert_path_joins(route_ids: Sequence[str], a: str, b: str) -> None:
    """The routes, in order, walk from city a to city b."""
    city = EUROPE.city_index[a]
    for rid in route_ids:
        r = EUROPE.route(rid)
        assert city in (r.a, r.b), (rid, route_ids)
        city = r.b if r.a == city else r.a
    assert city == EUROPE.city_index[b]


# --------------------------------------------------------------------------- R47.1, D35


def test_r47_1_route_points_are_recomputed_from_routes_owned() -> None:
    owned = {"Berlin-Wien": 0, "Petrograd-Stockholm": 0, "Paris-Zurich": 1}
    board = score(finished(owned))
    assert seat(board, 0).route_points == points("Berlin-Wien", "Petrograd-Stockholm") == 25
    assert seat(board, 1).route_points == points("Paris-Zurich") == 4


def test_d35_running_score_that_disagrees_with_routes_is_refused() -> None:
    state = scenario(owners={"Berlin-Wien": 0}, scores={0: 5}, phase=Phase.GAME_OVER, check=False)
    with pytest.raises(ScoreMismatchError) as info:
        score(state)
    assert (info.value.seat, info.value.recorded, info.value.recomputed) == (0, 5, 4)
    assert isinstance(info.value, TTRError)


def test_d35_running_score_equals_recomputed_points_in_played_games() -> None:
    for seed in range(3):
        state = _random_end(seed, players=2 + seed)
        board = score(state)
        for p, ps in zip(state.players, board.players, strict=True):
            assert ps.route_points == p.score


# --------------------------------------------------------------------------- R39 tickets


def test_r39_completed_ticket_adds_and_failed_ticket_subtracts() -> None:
    route = ("Frankfurt-Munchen", "Munchen-Venezia", "Roma-Venezia", "Berlin-Frankfurt-red")
    state = finished(dict.fromkeys(route, 0), tickets={0: ["Berlin-Roma", "Brest-Petrograd"]})
    p = seat(score(state), 0)
    pts, done, path = ticket(p, "Berlin-Roma")
    assert (pts, done) == (9, True)
    assert_path_joins(path, "Berlin", "Roma")
    assert set(path) <= set(route)
    assert ticket(p, "Brest-Petrograd") == (-20, False, ())
    assert p.ticket_points == 9 - 20
    assert (p.completed, p.failed) == (1, 1)


def test_r39_ticket_path_is_the_shortest_in_routes() -> None:
    loop = ("Berlin-Frankfurt-red", "Frankfurt-Munchen", "Munchen-Wien", "Berlin-Wien")
    p = seat(score(finished(dict.fromkeys(loop, 0), tickets={0: ["Paris-Wien"]})), 0)
    assert ticket(p, "Paris-Wien")[1] is False
    state = finished(dict.fromkeys(loop, 0), tickets={0: ["Berlin-Roma"]})
    assert ticket(seat(score(state), 0), "Berlin-Roma")[1] is False
    owned = dict.fromkeys((*loop, "Frankfurt-Paris-orange"), 0)
    p = seat(score(finished(owned, tickets={0: ["Paris-Wien"]})), 0)
    assert ticket(p, "Paris-Wien") == (
        8,
        True,
        ("Frankfurt-Paris-orange", "Berlin-Frankfurt-red", "Berlin-Wien"),
    )


def test_r39_one_network_completes_several_tickets() -> None:
    chain = (
        "Berlin-Frankfurt-red",
        "Frankfurt-Munchen",
        "Munchen-Venezia",
        "Roma-Venezia",
        "Brindisi-Roma",
        "Venezia-Zagrab",
    )
    held = ["Berlin-Roma", "Zagrab-Brindisi", "Frankfurt-Kobenhavn"]
    p = seat(score(finished(dict.fromkeys(chain, 0), tickets={0: held})), 0)
    assert ticket(p, "Berlin-Roma")[:2] == (9, True)
    assert ticket(p, "Zagrab-Brindisi")[:2] == (6, True)
    assert p.completed == 2
    assert p.ticket_points == 9 + 6 - 5


def test_r39_only_the_holders_own_routes_count() -> None:
    owned = {
        "Berlin-Frankfurt-red": 0,
        "Frankfurt-Munchen": 1,
        "Munchen-Venezia": 0,
        "Roma-Venezia": 0,
    }
    p = seat(score(finished(owned, tickets={0: ["Berlin-Roma"]})), 0)
    assert ticket(p, "Berlin-Roma") == (-9, False, ())


# --------------------------------------------------------------------------- R43 stations, D10

BERLIN_ROMA_GAP = {
    "Berlin-Frankfurt-red": 0,
    "Frankfurt-Munchen": 1,
    "Munchen-Venezia": 0,
    "Roma-Venezia": 0,
}


def test_r43_ticket_completed_only_through_a_station() -> None:
    state = finished(BERLIN_ROMA_GAP, tickets={0: ["Berlin-Roma"]}, stations={0: ["Munchen"]})
    p = seat(score(state), 0)
    pts, done, path = ticket(p, "Berlin-Roma")
    assert (pts, done) == (9, True)
    assert "Frankfurt-Munchen" in path
    assert_path_joins(path, "Berlin", "Roma")
    assert [(s.city, s.route) for s in p.stations] == [("Munchen", "Frankfurt-Munchen")]
    assert p.station_points == 2 * 4  # R45: two stations left in reserve


def test_r43_a_borrowed_route_still_counts_fully_for_its_owner() -> None:
    state = finished(BERLIN_ROMA_GAP, tickets={0: ["Berlin-Roma"]}, stations={0: ["Munchen"]})
    assert seat(score(state), 1).route_points == points("Frankfurt-Munchen")


def test_r43_two_stations_chained_on_one_ticket() -> None:
    owned = {
        "Berlin-Frankfurt-red": 0,
        "Frankfurt-Munchen": 1,
        "Munchen-Venezia": 1,
        "Roma-Venezia": 0,
    }
    one = finished(owned, tickets={0: ["Berlin-Roma"]}, stations={0: ["Frankfurt"]})
    assert ticket(seat(score(one), 0), "Berlin-Roma")[1] is False
    two = finished(owned, tickets={0: ["Berlin-Roma"]}, stations={0: ["Frankfurt", "Venezia"]})
    p = seat(score(two), 0)
    pts, done, path = ticket(p, "Berlin-Roma")
    assert (pts, done) == (9, True)
    assert path == ("Berlin-Frankfurt-red", "Frankfurt-Munchen", "Munchen-Venezia", "Roma-Venezia")
    assert [s.route for s in p.stations] == ["Frankfurt-Munchen", "Munchen-Venezia"]


def test_r43_two_players_may_borrow_the_same_route() -> None:
    owned = {**BERLIN_ROMA_GAP, "Marseille-Zurich": 2, "Munchen-Zurich": 2, "Essen-Frankfurt": 2}
    state = finished(
        owned,
        players=3,
        tickets={0: ["Berlin-Roma"], 2: ["Marseille-Essen"]},
        stations={0: ["Munchen"], 2: ["Frankfurt"]},
    )
    board = score(state)
    assert seat(board, 0).stations[0].route == "Frankfurt-Munchen"
    assert seat(board, 2).stations[0].route == "Frankfurt-Munchen"
    assert ticket(seat(board, 0), "Berlin-Roma")[:2] == (9, True)
    assert ticket(seat(board, 2), "Marseille-Essen")[:2] == (8, True)
    assert seat(board, 1).route_points == points("Frankfurt-Munchen")


def test_r43_station_in_a_city_without_opponent_routes_borrows_nothing() -> None:
    owned = {"Riga-Wilno": 0, "Petrograd-Wilno": 0, "Berlin-Wien": 1}
    state = finished(owned, tickets={0: ["Athina-Wilno"]}, stations={0: ["Wilno", "Athina"]})
    p = seat(score(state), 0)
    assert [(s.city, s.route) for s in p.stations] == [("Wilno", None), ("Athina", None)]
    assert ticket(p, "Athina-Wilno") == (-11, False, ())
    assert p.station_points == 4  # R45: only the unbuilt station scores


def test_r43_unclaimed_route_cannot_be_borrowed() -> None:
    owned = {"Berlin-Frankfurt-red": 0, "Munchen-Venezia": 0, "Roma-Venezia": 0}
    state = finished(owned, tickets={0: ["Berlin-Roma"]}, stations={0: ["Munchen"]})
    p = seat(score(state), 0)
    assert p.stations[0].route is None
    assert ticket(p, "Berlin-Roma")[1] is False


def test_r43_one_route_per_station_shared_by_all_its_tickets() -> None:
    """Munchen's station can join Berlin-Roma (9) or Zagrab-Brindisi (6), never both."""
    owned = {
        "Berlin-Frankfurt-red": 0,
        "Munchen-Venezia": 0,
        "Roma-Venezia": 0,
        "Brindisi-Roma": 0,
        "Wien-Zagrab": 0,
        "Frankfurt-Munchen": 1,
        "Munchen-Wien": 1,
    }
    state = finished(
        owned, tickets={0: ["Berlin-Roma", "Zagrab-Brindisi"]}, stations={0: ["Munchen"]}
    )
    p = seat(score(state), 0)
    assert p.stations[0].route == "Frankfurt-Munchen"
    assert ticket(p, "Berlin-Roma")[:2] == (9, True)
    assert ticket(p, "Zagrab-Brindisi")[:2] == (-6, False)
    assert p.ticket_points == 3


def test_d10_explicit_choice_is_used_and_other_stations_still_chosen() -> None:
    owned = {
        "Berlin-Frankfurt-red": 0,
        "Munchen-Venezia": 0,
        "Roma-Venezia": 0,
        "Brindisi-Roma": 0,
        "Wien-Zagrab": 0,
        "Frankfurt-Munchen": 1,
        "Munchen-Wien": 1,
        "Berlin-Danzig": 1,
    }
    state = finished(
        owned, tickets={0: ["Berlin-Roma", "Zagrab-Brindisi"]}, stations={0: ["Munchen", "Berlin"]}
    )
    p = seat(score(state, stations={0: {"Munchen": "Munchen-Wien"}}), 0)
    assert [s.route for s in p.stations] == ["Munchen-Wien", None]
    assert ticket(p, "Zagrab-Brindisi")[:2] == (6, True)
    assert ticket(p, "Berlin-Roma")[:2] == (-9, False)
    nothing = seat(score(state, stations={0: {"Munchen": None}}), 0)
    assert nothing.stations[0].route is None
    assert nothing.ticket_points == -15


@pytest.mark.parametrize(
    ("choice", "why"),
    [
        ({5: {"Munchen": None}}, "no seat"),
        ({0: {"Atlantis": None}}, "no city"),
        ({0: {"Wien": None}}, "no station in Wien"),
        ({0: {"Munchen": "Nowhere-Road"}}, "no route"),
        ({0: {"Munchen": "Berlin-Wien"}}, "does not touch"),
        ({0: {"Munchen": "Munchen-Zurich"}}, "not claimed"),
        ({0: {"Munchen": "Munchen-Venezia"}}, "own"),
    ],
)
def test_d10_impossible_explicit_choice_is_an_error(
    choice: dict[int, dict[str, str | None]], why: str
) -> None:
    """R43: a station borrows one claimed route of another player touching its own city."""
    state = finished(BERLIN_ROMA_GAP, tickets={0: ["Berlin-Roma"]}, stations={0: ["Munchen"]})
    with pytest.raises(ScoringError, match=why):
        score(state, stations=choice)


def test_d10_best_total_first() -> None:
    """Station at city 0 may join 1 (ticket worth 5) or 2 (ticket worth 7)."""
    chosen, done = choose_borrowed([], [(0, 1, 5), (0, 2, 7)], [(0, [None, (10, 1), (11, 2)])])
    assert chosen == (11,)
    assert done == (False, True)


def test_d10_then_most_completed_tickets() -> None:
    """Joining 1 completes an 8 (+8 -4 -4 = 0); joining 2 completes two 4s (-8 +4 +4 = 0)."""
    tickets = [(0, 1, 8), (0, 2, 4), (0, 2, 4)]
    chosen, done = choose_borrowed([], tickets, [(0, [None, (10, 1), (11, 2)])])
    assert chosen == (11,)
    assert done == (False, True, True)
    # with the routes' indices swapped the same choice is made: it is not the index that decides
    chosen, _ = choose_borrowed([], tickets, [(0, [None, (11, 1), (10, 2)])])
    assert chosen == (10,)


def test_d10_then_lowest_route_indices_nothing_counting_lowest() -> None:
    # two routes reach the same city: the lower index wins
    chosen, _ = choose_borrowed([], [(0, 1, 5)], [(0, [None, (12, 1), (10, 1)])])
    assert chosen == (10,)
    # a station that cannot help borrows nothing
    chosen, _ = choose_borrowed([], [(0, 1, 5)], [(3, [None, (12, 4)]), (0, [None, (10, 1)])])
    assert chosen == (None, 10)
    # two stations that can each complete the ticket: the first in build order borrows nothing
    chosen, _ = choose_borrowed([], [(0, 1, 5)], [(0, [None, (20, 1)]), (1, [None, (10, 0)])])
    assert chosen == (None, 10)


# --------------------------------------------------------------------------- R45 stations left


def test_r45_unbuilt_stations_score_four_each_built_ones_nothing() -> None:
    board = score(
        finished({"Berlin-Wien": 1}, stations={0: ["Wien", "Roma", "Athina"], 1: ["Riga"]})
    )
    assert seat(board, 0).station_points == 0
    assert seat(board, 1).station_points == 8
    # with no ticket to help, no station borrows anything (D10 (3))
    assert [s.route for s in seat(board, 0).stations] == [None, None, None]


def test_r45_usa_has_no_station_points() -> None:
    board = score(finished({"Atlanta-Nashville": 0}, map="usa"))
    assert [p.station_points for p in board.players] == [0, 0]
    assert board.criteria == ("total", "completed_tickets", "bonus_card")  # R50


# --------------------------------------------------------------------------- R48 longest path


def test_r48_a_loop_counts_every_route() -> None:
    loop = ("Berlin-Frankfurt-red", "Frankfurt-Munchen", "Munchen-Wien", "Berlin-Wien")
    path = seat(score(finished(dict.fromkeys(loop, 0))), 0).longest_path
    assert path.length == trains(*loop) == 11
    assert sorted(path.routes) == sorted(loop)
    assert path.cities[0] == path.cities[-1]


def test_r48_a_loop_with_a_tail_passes_the_junction_twice() -> None:
    owned = (
        "Berlin-Frankfurt-red",
        "Frankfurt-Munchen",
        "Munchen-Wien",
        "Berlin-Wien",
        "Warszawa-Wien",
    )
    path = seat(score(finished(dict.fromkeys(owned, 0))), 0).longest_path
    assert path.length == trains(*owned) == 15
    assert path.cities.count("Wien") == 2


def test_r48_figure_eight() -> None:
    """Two loops through Wien: every route once, Wien passed twice."""
    owned = (
        "Berlin-Frankfurt-red",
        "Frankfurt-Munchen",
        "Munchen-Wien",
        "Berlin-Wien",
        "Wien-Zagrab",
        "Budapest-Zagrab",
        "Budapest-Wien-red",
    )
    path = seat(score(finished(dict.fromkeys(owned, 0))), 0).longest_path
    assert path.length == trains(*owned) == 16
    assert sorted(path.routes) == sorted(owned)
    assert path.cities[0] == path.cities[-1]
    assert path.cities.count("Wien") == 2


def test_r48_branches_cannot_all_be_used() -> None:
    """A star of four routes at Wien: only two of them make one path."""
    owned = ("Berlin-Wien", "Munchen-Wien", "Warszawa-Wien", "Wien-Zagrab")
    path = seat(score(finished(dict.fromkeys(owned, 0))), 0).longest_path
    assert path.length == 4 + 3
    assert "Warszawa-Wien" in path.routes


def test_r48_two_components_are_not_added() -> None:
    owned = (
        "Berlin-Wien",
        "Munchen-Wien",
        "Cadiz-Madrid",
        "Lisboa-Madrid",
        "Cadiz-Lisboa",
        "Barcelona-Madrid",
    )
    path = seat(score(finished(dict.fromkeys(owned, 0))), 0).longest_path
    assert path.length == 3 + 3 + 2 + 2 == 10
    assert set(path.routes) == {"Cadiz-Madrid", "Lisboa-Madrid", "Cadiz-Lisboa", "Barcelona-Madrid"}


def test_r44_borrowed_routes_never_join_own_track() -> None:
    state = finished(BERLIN_ROMA_GAP, tickets={0: ["Berlin-Roma"]}, stations={0: ["Munchen"]})
    p = seat(score(state), 0)
    assert p.stations[0].route == "Frankfurt-Munchen"
    assert p.longest_path.length == 4  # Munchen-Venezia-Roma, not through the borrowed route
    assert "Frankfurt-Munchen" not in p.longest_path.routes
    assert longest_path(state, 0) == p.longest_path


def test_r48_path_of_a_double_route_multigraph() -> None:
    """Parallel tracks in one player's graph (only possible off the rules) make a 2-route loop."""
    trail = longest_trail([(0, 1, 2, 3), (1, 1, 2, 3), (2, 2, 3, 1)])
    assert trail.length == 7
    assert trail.routes[0] == 2 or trail.routes[-1] == 2


def test_longest_path_rejects_an_unknown_seat() -> None:
    with pytest.raises(ScoringError):
        longest_path(finished({}), 2)


# --------------------------------------------------------------------------- R47.4, D14 bonus


def test_r47_4_bonus_goes_to_every_tied_player() -> None:
    owned = {
        "Berlin-Wien": 0,
        "Munchen-Wien": 0,
        "Brest-Paris": 1,
        "Marseille-Paris": 1,
        "Cadiz-Madrid": 2,
    }
    board = score(finished(owned, players=3))
    assert [p.longest_path.length for p in board.players] == [6, 7, 3]
    assert [p.bonus for p in board.players] == [0, 10, 0]
    tied = {**owned, "Warszawa-Wien": 0, "Edinburgh-London-black": 0}
    board = score(finished(tied, players=3))
    assert [p.longest_path.length for p in board.players] == [7, 7, 3]
    assert [p.bonus for p in board.players] == [10, 10, 0]
    assert all(
        p.total == p.route_points + p.ticket_points + p.station_points + p.bonus
        for p in board.players
    )


def test_d14_no_bonus_when_nobody_has_track() -> None:
    assert [p.bonus for p in score(finished({})).players] == [0, 0]
    board = score(finished({}, bonus_at_zero=True))
    assert [p.bonus for p in board.players] == [10, 10]


def test_r48_usa_bonus_is_the_longest_path_card() -> None:
    board = score(finished({"Atlanta-Nashville": 0, "Denver-Phoenix": 1}, map="usa"))
    assert board.bonus_name == "Longest Continuous Path"
    assert [p.bonus for p in board.players] == [0, 10]


# --------------------------------------------------------------------------- R49, R50 ranking

CHAIN_A = ("Essen-Frankfurt", "Essen-Kobenhavn-1")  # 2 + 3 trains: Frankfurt-Kobenhavn
CHAIN_B = ("Brindisi-Roma", "Brindisi-Palermo")  # 2 + 3 trains elsewhere


def test_r49_total_decides_first() -> None:
    board = score(finished({"Berlin-Wien": 0, "Petrograd-Stockholm": 1}))
    assert board.ranking == (1, 0)
    assert board.winners == (1,)
    assert board.decided_by == ("total",)
    assert [p.rank for p in board.players] == [2, 1]


def test_r49_1_most_completed_tickets() -> None:
    owned = {**dict.fromkeys(CHAIN_A, 0), **dict.fromkeys(CHAIN_B, 1)}
    state = finished(owned, tickets={0: ["Frankfurt-Kobenhavn", "Budapest-Sofia"]})  # +5 -5
    board = score(state)
    assert board.players[0].total == board.players[1].total == 6 + 12 + 10
    assert [p.completed for p in board.players] == [1, 0]
    assert board.ranking == (0, 1)
    assert board.decided_by == ("completed_tickets",)
    assert [p.rank for p in board.players] == [1, 2]


def test_r49_2_fewest_stations_built() -> None:
    """Seat 0 built a station (4 points less) and owns 4 more route points away from its path."""
    owned = {**dict.fromkeys(CHAIN_A, 0), "Cadiz-Madrid": 0, **dict.fromkeys(CHAIN_B, 1)}
    board = score(finished(owned, stations={0: ["Wilno"]}))
    assert board.players[0].total == board.players[1].total == 6 + 12 + 10
    assert board.ranking == (1, 0)
    assert board.decided_by == ("fewest_stations",)
    assert board.players[0].criteria_values == (28, 0, 1, 1)


def test_d17_stations_count_when_built_even_if_they_borrow_nothing() -> None:
    owned = {**dict.fromkeys(CHAIN_A, 0), "Cadiz-Madrid": 0, **dict.fromkeys(CHAIN_B, 1)}
    board = score(finished(owned, stations={0: ["Wilno"]}))
    assert board.players[0].stations[0].route is None
    assert board.players[0].stations_built == 1
    assert board.players[0].rank == 2


def test_r49_3_holder_of_the_bonus_card() -> None:
    """Seat 0: path 5 with the bonus; seat 1: 10 more route points, no path over 4."""
    owned = {
        **dict.fromkeys(CHAIN_A, 0),
        "Athina-Sarajevo": 1,
        "Bucuresti-Kyiv": 1,
        "Cadiz-Lisboa": 1,
    }
    board = score(finished(owned))
    assert [p.route_points for p in board.players] == [6, 16]
    assert board.players[0].total == board.players[1].total == 28
    assert board.ranking == (0, 1)
    assert board.decided_by == ("bonus_card",)


def test_r49_3_prime_path_length_option() -> None:
    """Seats 0 and 1 tie without the bonus; only path length (option 3') separates them."""
    owned = {
        "Petrograd-Stockholm": 2,
        "Athina-Sarajevo": 0,
        "Cadiz-Madrid": 1,
        "Rostov-Sochi": 1,
        "Dieppe-Paris": 1,
    }
    board = score(finished(owned, players=3))
    assert [p.total for p in board.players[:2]] == [7 + 12, 7 + 12]
    assert [p.longest_path.length for p in board.players[:2]] == [4, 3]
    assert [p.rank for p in board.players] == [2, 2, 1]  # D15: shared
    assert board.decided_by == ("total", None)
    optioned = score(finished(owned, players=3, tiebreak_path_length=True))
    assert optioned.criteria == ("total", "completed_tickets", "fewest_stations", "longest_path")
    assert [p.rank for p in optioned.players] == [2, 3, 1]
    assert optioned.decided_by == ("total", "longest_path")


def test_d16_several_bonus_holders_are_not_separated() -> None:
    owned = {**dict.fromkeys(CHAIN_A, 0), **dict.fromkeys(CHAIN_B, 1)}
    board = score(finished(owned))
    assert [p.bonus for p in board.players] == [10, 10]
    assert [p.rank for p in board.players] == [1, 1]
    assert board.winners == (0, 1)
    assert board.decided_by == (None,)


def test_d15_shared_ranks_skip_the_next_rank() -> None:
    owned = {**dict.fromkeys(CHAIN_A, 0), **dict.fromkeys(CHAIN_B, 1), "Dieppe-Paris": 2}
    board = score(finished(owned, players=3))
    assert [p.rank for p in board.players] == [1, 1, 3]
    assert board.ranking == (0, 1, 2)


USA_CHAIN = {"Denver-Omaha": 0, "Chicago-Omaha": 0}  # 8 trains, 14 points
USA_BITS = {
    "Calgary-Winnipeg": 1,
    "Atlanta-Nashville": 1,
    "Dallas-Houston-1": 1,
    "Boston-Montreal-1": 1,
    "Kansas City-Omaha-1": 1,
}  # 20 points, path 6


def test_r50_usa_bonus_card_after_completed_tickets() -> None:
    owned = {**USA_CHAIN, **USA_BITS, "Las Vegas-Los Angeles": 1, "Raleigh-Washington-1": 1}
    board = score(finished(owned, map="usa"))
    assert [p.route_points for p in board.players] == [14, 24]
    assert [p.longest_path.length for p in board.players] == [8, 6]
    assert board.players[0].total == board.players[1].total == 24
    assert board.criteria == ("total", "completed_tickets", "bonus_card")
    assert board.ranking == (0, 1)
    assert board.decided_by == ("bonus_card",)


def test_r50_usa_completed_tickets_first() -> None:
    """Seat 1 completes Denver-El Paso (+4), fails Kansas City-Houston (-5), owns 25 points."""
    owned = {
        **USA_CHAIN,
        **USA_BITS,
        "Denver-Santa Fe": 1,
        "El Paso-Santa Fe": 1,
        "Portland-Seattle-1": 1,
    }
    board = score(
        finished(owned, map="usa", tickets={1: ["Denver-El Paso", "Kansas City-Houston"]})
    )
    assert [p.route_points for p in board.players] == [14, 25]
    assert board.players[0].total == board.players[1].total == 24
    assert board.ranking == (1, 0)
    assert board.decided_by == ("completed_tickets",)


# --------------------------------------------------------------------------- mid-game, outcome


def test_provisional_scores_before_the_end() -> None:
    state = scenario(
        owners=BERLIN_ROMA_GAP,
        tickets={0: ["Berlin-Roma"]},
        offers={0: ["Brest-Petrograd"]},
        check=False,  # an offer in the TURN phase, to show offers are not held
    )
    board = score(state)
    assert board.final is False
    assert [t.ticket for t in board.players[0].tickets] == ["Berlin-Roma"]  # offers not held
    assert score(attrs.evolve(state, phase=Phase.GAME_OVER)).final is True


def test_pending_tunnel_route_is_not_owned_yet() -> None:
    rng = random.Random(7)
    for seed in range(40):
        state = new_game("europe", players=3, seed=seed)
        while not is_terminal(state):
            if state.phase is Phase.TUNNEL:
                assert state.tunnel is not None
                assert state.owners[state.tunnel.route] == NO_OWNER
                board = score(state)
                name = EUROPE.routes[state.tunnel.route].id
                for p, ps in zip(state.players, board.players, strict=True):
                    assert ps.route_points == p.score
                    assert name not in ps.longest_path.routes
                return
            state = apply(state, rng.choice(legal_actions(state)))
    pytest.fail("no tunnel attempt in 40 games")


def test_outcome_and_returns_for_a_sole_winner() -> None:
    state = finished({"Berlin-Wien": 0, "Petrograd-Stockholm": 1}, players=3)
    result = outcome(state)
    assert result.winners == (1,)
    assert result.ranks == (2, 1, 3)
    assert result.ranking == (1, 0, 2)
    assert result.totals == tuple(p.total for p in score(state).players)
    assert returns(state) == (0.0, 1.0, 0.0)


def test_returns_share_a_shared_win() -> None:
    owned = {**dict.fromkeys(CHAIN_A, 0), **dict.fromkeys(CHAIN_B, 1), "Dieppe-Paris": 2}
    state = finished(owned, players=3)
    assert returns(state) == (0.5, 0.5, 0.0)
    assert sum(returns(finished({}, players=4))) == pytest.approx(1.0)
    assert returns(finished({}, players=4)) == (0.25, 0.25, 0.25, 0.25)


def test_outcome_agrees_with_score_on_played_games() -> None:
    for seed in range(4):
        state = _random_end(seed + 10, players=2 + seed)
        board = score(state)
        result = outcome(state)
        assert result.winners == board.winners
        assert result.ranks == tuple(p.rank for p in board.players)
        assert result.final is True


# --------------------------------------------------------------------------- text and JSON


def test_scoreboard_text_shows_the_breakdown() -> None:
    state = finished(
        BERLIN_ROMA_GAP, tickets={0: ["Berlin-Roma", "Brest-Petrograd"]}, stations={0: ["Munchen"]}
    )
    board = score(state)
    text = format_scoreboard(board)
    assert text == str(board)
    assert text.startswith("Final scores")
    assert "Berlin-Roma" in text and "+9" in text and "-20" in text
    assert "station Munchen: borrows Frankfurt-Munchen" in text
    assert f"longest path {board.players[0].longest_path.length} trains" in text
    for p in board.players:
        assert f"seat {p.seat}: {p.total} points, rank {p.rank}" in text
    provisional = format_scoreboard(score(attrs.evolve(state, phase=Phase.TURN)))
    assert provisional.startswith("Provisional scores")


def test_scoreboard_text_explains_a_tie_break() -> None:
    owned = {**dict.fromkeys(CHAIN_A, 0), **dict.fromkeys(CHAIN_B, 1)}
    text = str(score(finished(owned, tickets={0: ["Frankfurt-Kobenhavn", "Budapest-Sofia"]})))
    assert "seat 0 is ahead of seat 1 on completed_tickets (1 to 0)" in text
    assert "share rank 1" in str(score(finished(owned)))


def test_scoreboard_is_json_ready() -> None:
    state = finished(BERLIN_ROMA_GAP, tickets={0: ["Berlin-Roma"]}, stations={0: ["Munchen"]})
    doc = json.loads(json.dumps(attrs.asdict(score(state))))
    assert doc["players"][0]["stations"] == [{"city": "Munchen", "route": "Frankfurt-Munchen"}]
    assert doc["players"][0]["tickets"][0]["ticket"] == "Berlin-Roma"
    assert doc["final"] is True


# --------------------------------------------------------------------------- speed


def test_dense_full_network_is_scored_quickly() -> None:
    """R48 on 21 short routes in central Europe (45 trains, 8 odd cities): exact and fast.

    A plain search of every trail takes about a third of a second here.
    """
    owned = (
        "Amsterdam-Bruxelles",
        "Amsterdam-Essen",
        "Amsterdam-Frankfurt",
        "Berlin-Essen",
        "Berlin-Frankfurt-red",
        "Berlin-Wien",
        "Bruxelles-Frankfurt",
        "Bruxelles-Paris-red",
        "Budapest-Wien-red",
        "Budapest-Zagrab",
        "Dieppe-Paris",
        "Essen-Frankfurt",
        "Frankfurt-Munchen",
        "Frankfurt-Paris-orange",
        "Munchen-Venezia",
        "Munchen-Wien",
        "Munchen-Zurich",
        "Paris-Zurich",
        "Venezia-Zagrab",
        "Venezia-Zurich",
        "Wien-Zagrab",
    )
    assert trains(*owned) == 45
    state = finished(dict.fromkeys(owned, 0))
    best = min(_timed(lambda: longest_path(state, 0)) for _ in range(5))
    assert longest_path(state, 0).length == 40
    assert best < 0.05


def _timed(call: object) -> float:
    assert callable(call)
    start = time.perf_counter()
    call()
    return time.perf_counter() - start


def _random_end(seed: int, players: int, map: str = "europe") -> GameState:
    state = new_game(map, players=players, seed=seed)
    rng = random.Random(seed)
    while not is_terminal(state):
        state = apply(state, rng.choice(legal_actions(state)))
    return state


def test_d23_scores_may_go_below_zero() -> None:
    """Failed tickets are subtracted with no floor: a seat with no track can end negative."""
    state = finished(
        {"Berlin-Wien": 1},
        tickets={0: ["Brest-Petrograd", "Berlin-Roma"], 1: ["Berlin-Wien"]},
        stations={0: ["Paris", "Wien", "Roma"]},
        check=False,  # the ticket Berlin-Wien is of the expanded variant
    )
    p = seat(score(state), 0)
    assert p.route_points == 0 and p.station_points == 0
    assert p.ticket_points == -(20 + 9)
    assert p.total == -29
    assert score(state).ranking == (1, 0)
