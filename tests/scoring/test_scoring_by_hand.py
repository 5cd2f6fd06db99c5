"""Final scoring checked from the outside: worked positions computed by hand, and properties of
the scores of played games (R39, R43-R50, D10, D14-D17, D35).

The longest-path reference here enumerates route sets (a set of routes is walkable as one
trail exactly when it is connected and has at most two cities of odd degree), so it shares no
step with the library's search nor with a trail-walking reference.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

from positions import FOUR_DISJOINT_THREES, worked
from strategies import played
from ttr_europe import Phase, load_map
from ttr_europe.paths import Edge, longest_trail
from ttr_europe.scoring import (
    PlayerScore,
    Scoreboard,
    ScoreMismatchError,
    choose_borrowed,
    longest_path,
    outcome,
    score,
)
from ttr_europe.state import NO_OWNER, GameState, closed_masks
from ttr_europe.testing import finished

EUROPE = load_map("europe")


def totals(board: Scoreboard) -> list[int]:
    return [p.total for p in board.players]


def ranks(board: Scoreboard) -> list[int]:
    return [p.rank for p in board.players]


# --------------------------------------------------------------------------- a whole final score


def test_worked_final_score_by_hand() -> None:
    """Every number of a three-seat final score, computed by hand.

    Seat 0, routes 2+1+4+2+4+2 = 15 (R47.1). Tickets: Paris-Wien is joined by its own track
    (+8). The Wien station may borrow Berlin-Wien (seat 2), Budapest-Wien-red or Wien-Zagrab
    (seat 1), one route for all tickets (R43): Berlin-Wien completes London-Berlin (+7,
    Paris-Zagrab -7), Wien-Zagrab completes Paris-Zagrab (+7, London-Berlin -7), the Budapest
    track neither. Both give 8 points and 2 tickets, so the lower route index wins (D10 3):
    Berlin-Wien. Lisboa has no claimed route: it borrows nothing but counts as built (D17);
    one station unbuilt: 4 (R45). Longest path London-Dieppe-Paris-Frankfurt-Munchen-Wien,
    2+1+3+2+3 = 11, the longest of all: 10 (R47.4). Total 15 + 8 + 4 + 10 = 37.

    Seat 1, routes 1+2+2+2+2 = 9; Zagrab-Brindisi +6, Roma-Smyrna -8; three stations unbuilt:
    12; path 9 (Budapest to Brindisi). Total 9 - 2 + 12 = 19.

    Seat 2, routes 4+2+4 = 10. Zurich-Budapest is completed only through all three stations,
    each borrowing a different route of two other seats (R43): Munchen-Zurich (Zurich),
    Munchen-Wien (Munchen), Budapest-Wien-red (Budapest): +6; Marseille-Essen -8. No station
    left: 0. The borrowed routes do not lengthen its path (R44): 8. Total 10 - 2 + 0 = 8.
    """
    board = score(worked())
    assert board.final
    s0, s1, s2 = board.players
    assert (s0.route_points, s0.ticket_points, s0.station_points, s0.bonus, s0.total) == (
        15, 8, 4, 10, 37,
    )  # fmt: skip
    assert [(t.ticket, t.points) for t in s0.tickets] == [
        ("Paris-Wien", 8), ("Paris-Zagrab", -7), ("London-Berlin", 7),
    ]  # fmt: skip
    assert [(s.city, s.route) for s in s0.stations] == [("Wien", "Berlin-Wien"), ("Lisboa", None)]
    assert s0.completed == 2 and s0.stations_built == 2
    assert s0.longest_path.length == 11
    assert s0.tickets[2].routes[-1] == "Berlin-Wien"  # the borrowed route is on the path
    assert (s1.route_points, s1.ticket_points, s1.station_points, s1.bonus, s1.total) == (
        9, -2, 12, 0, 19,
    )  # fmt: skip
    assert s1.longest_path.length == 9
    assert (s2.route_points, s2.ticket_points, s2.station_points, s2.bonus, s2.total) == (
        10, -2, 0, 0, 8,
    )  # fmt: skip
    assert [(s.city, s.route) for s in s2.stations] == [
        ("Zurich", "Munchen-Zurich"),
        ("Munchen", "Munchen-Wien"),
        ("Budapest", "Budapest-Wien-red"),
    ]
    assert s2.tickets[0].completed and set(s2.tickets[0].routes) == {
        "Munchen-Zurich", "Munchen-Wien", "Budapest-Wien-red",
    }  # fmt: skip
    assert s2.longest_path.length == 8
    assert set(s2.longest_path.routes) == {"Amsterdam-Essen", "Berlin-Essen", "Berlin-Wien"}
    assert board.ranking == (0, 1, 2) and board.winners == (0,)
    assert board.decided_by == ("total", "total")
    assert outcome(worked()).totals == (37, 19, 8)


def test_r43_d10_explicit_station_choices_on_the_worked_position() -> None:
    """An explicit choice replaces D10 for the named station only, and is checked."""
    state = worked()
    other = score(state, stations={0: {"Wien": "Wien-Zagrab"}})
    s0 = other.players[0]
    assert [t.completed for t in s0.tickets] == [True, True, False]
    assert s0.total == 37  # the same 8 ticket points the other way round
    worse = score(state, stations={0: {"Wien": "Budapest-Wien-red"}}).players[0]
    assert worse.ticket_points == 8 - 7 - 7 and worse.total == 37 - 14
    # Without Munchen-Wien no choice of the other two stations completes Zurich-Budapest, so
    # D10 has them borrow nothing.
    none = score(state, stations={2: {"Munchen": None}}).players[2]
    assert none.ticket_points == -6 - 8 and none.total == 8 - 12
    assert [s.route for s in none.stations] == [None, None, None]


# --------------------------------------------------------------------------- D10 in the abstract


def test_d10_best_total_before_more_tickets_before_lower_routes() -> None:
    """D10 in order, on cities 0..5 with no own track. One station at city 0 may borrow
    route 1 (to city 1) or route 2 (to city 2).

    - tickets 0-1 (10) and 0-2 (4): route 1 gives +10-4, route 2 -10+4: route 1 (total);
    - tickets 0-1 (10), 0-2 (6) and 0-2 (4): both give 0; route 2 completes two: route 2;
    - tickets 0-1 (5) and 0-2 (5): both 0 with one ticket: the lower index, route 1;
    - ticket 3-4 (5): no choice helps: nothing ("nothing" is lowest).
    """
    station = [(0, [None, (1, 1), (2, 2)])]
    assert choose_borrowed([], [(0, 1, 10), (0, 2, 4)], station) == ((1,), (True, False))
    assert choose_borrowed([], [(0, 1, 10), (0, 2, 6), (0, 2, 4)], station) == (
        (2,),
        (False, True, True),
    )
    assert choose_borrowed([], [(0, 1, 5), (0, 2, 5)], station) == ((1,), (True, False))
    assert choose_borrowed([], [(3, 4, 5)], station) == ((None,), (False,))


def test_r43_one_route_per_station_and_chains_of_stations() -> None:
    """R43: a station's one route serves every ticket; a ticket may chain two stations'
    routes; a route back into the station's own network changes nothing (borrows nothing)."""
    own = [(0, 1)]  # own track 0-1
    stations = [
        (1, [None, (10, 0), (11, 2)]),  # 1-0 is own already; 1-2 leads out
        (2, [None, (12, 3)]),
    ]
    chosen, done = choose_borrowed(own, [(0, 3, 9)], stations)
    assert chosen == (11, 12) and done == (True,)
    chosen, done = choose_borrowed(own, [(0, 2, 4), (1, 3, 9)], stations[:1])
    assert chosen == (11,) and done == (True, False)
    chosen, done = choose_borrowed(own, [(0, 1, 4)], stations)
    assert chosen == (None, None) and done == (True,)


# --------------------------------------------------------------------------- R45


@pytest.mark.parametrize("built", [0, 1, 2, 3])
def test_r45_four_points_per_unbuilt_station(built: int) -> None:
    """R45: 4 points for each station never built, whether or not a built one helps."""
    cities = ["Lisboa", "Cadiz", "Madrid"][:built]
    board = score(finished({}, players=2, stations={0: cities}))
    assert board.players[0].station_points == 4 * (3 - built)
    assert board.players[1].station_points == 12


# --------------------------------------------------------------------------- R48


def test_r48_path_passes_a_city_twice_and_leaves_a_branch() -> None:
    """R48 by hand: Brest-Dieppe (2), Dieppe-Paris (1), the ring Paris-Frankfurt (3),
    Frankfurt-Munchen (2), Munchen-Zurich (2), Zurich-Paris (3), and Zurich-Venezia (2).
    Odd cities: Brest, Paris, Zurich, Venezia. Leaving out Zurich-Venezia (2) leaves Brest
    and Paris odd: Brest ... Paris, round the ring, back to Paris: 13 of the 15 trains.
    Leaving out the Brest tail (3) or Paris-Zurich (3) gives 12."""
    owned = dict.fromkeys(
        ["Brest-Dieppe", "Dieppe-Paris", "Frankfurt-Paris-orange", "Frankfurt-Munchen",
         "Munchen-Zurich", "Paris-Zurich", "Venezia-Zurich"],
        0,
    )  # fmt: skip
    path = longest_path(finished(owned, players=2), 0)
    assert path.length == 13
    assert "Venezia-Zurich" not in path.routes and len(path.routes) == 6
    assert path.cities.count("Paris") == 2
    assert {path.cities[0], path.cities[-1]} == {"Brest", "Paris"}


@pytest.mark.parametrize(
    ("edges", "expected"),
    [
        # K4: four odd cities; leave out the lightest route (1): 21 - 1.
        ([(0, 0, 1, 1), (1, 0, 2, 2), (2, 0, 3, 3), (3, 1, 2, 4), (4, 1, 3, 5), (5, 2, 3, 6)], 20),
        # A star: only two branches can be walked.
        ([(0, 0, 1, 1), (1, 0, 2, 2), (2, 0, 3, 3), (3, 0, 4, 4)], 7),
        # Two triangles joined by a long route: two odd cities, every route is walked.
        (
            [
                (0, 0, 1, 1),
                (1, 1, 2, 1),
                (2, 2, 0, 1),
                (3, 2, 3, 6),
                (4, 3, 4, 1),
                (5, 4, 5, 1),
                (6, 5, 3, 1),
            ],
            12,
        ),
        # Parallel tracks make a loop of two routes; the tail doubles back through city 1.
        ([(0, 0, 1, 2), (1, 0, 1, 2), (2, 1, 2, 4)], 8),
        # Two separate pieces are not added (R48).
        ([(0, 0, 1, 4), (1, 2, 3, 3), (2, 3, 4, 3)], 6),
        # A "theta": three routes between two cities, plus a heavy tail at one of them.
        ([(0, 0, 1, 3), (1, 0, 1, 3), (2, 0, 1, 3), (3, 1, 2, 8)], 17),
    ],
)
def test_r48_small_graphs_by_hand(edges: list[Edge], expected: int) -> None:
    trail = longest_trail(edges)
    assert trail.length == expected == reference_longest(edges)
    assert_trail(edges, trail)


def reference_longest(edges: Sequence[Edge]) -> int:
    """R48 by enumerating route sets, heaviest first: the first connected set with at most two
    odd cities is walkable as one trail (Euler), and no trail is heavier."""
    m = len(edges)
    weight = [0] * (1 << m)
    odd = [0] * (1 << m)
    for s in range(1, 1 << m):
        low = (s & -s).bit_length() - 1
        _, a, b, n = edges[low]
        weight[s] = weight[s & (s - 1)] + n
        odd[s] = odd[s & (s - 1)] ^ (1 << a) ^ (1 << b)
    for s in sorted(range(1, 1 << m), key=lambda s: -weight[s]):
        if odd[s].bit_count() <= 2 and _connected([edges[i] for i in range(m) if s >> i & 1]):
            return weight[s]
    return 0


def _connected(edges: Sequence[Edge]) -> bool:
    parent: dict[int, int] = {}

    def find(x: int) -> int:
        while parent.setdefault(x, x) != x:
            x = parent[x]
        return x

    for _, a, b, _ in edges:
        parent[find(a)] = find(b)
    return len({find(x) for x in list(parent)}) == 1


def assert_trail(edges: Sequence[Edge], trail: Any) -> None:
    """The trail walks its routes end to end, each once, and its length adds up."""
    ends = {r: (a, b, n) for r, a, b, n in edges}
    assert len(set(trail.routes)) == len(trail.routes)
    if not trail.routes:
        assert trail.length == 0 and trail.cities == ()
        return
    assert len(trail.cities) == len(trail.routes) + 1
    for i, r in enumerate(trail.routes):
        a, b, _ = ends[r]
        assert {a, b} == {trail.cities[i], trail.cities[i + 1]}
    assert trail.length == sum(ends[r][2] for r in trail.routes)


@st.composite
def multigraphs(draw: st.DrawFn) -> list[Edge]:
    """Up to 15 routes over up to 8 cities, parallel tracks allowed, often dense."""
    cities = draw(st.integers(2, 8))
    count = draw(st.one_of(st.integers(0, 15), st.integers(10, 15)))
    edges: list[Edge] = []
    for r in range(count):
        a = draw(st.integers(0, cities - 1))
        b = draw(st.integers(0, cities - 2))
        edges.append((r, a, b + 1 if b >= a else b, draw(st.sampled_from((1, 1, 2, 3, 4, 6, 8)))))
    return edges


@pytest.mark.slow
@given(multigraphs())
def test_r48_longest_trail_matches_route_set_enumeration(edges: list[Edge]) -> None:
    """R48 exactly, on graphs larger and denser than a trail walk can check quickly."""
    trail = longest_trail(edges)
    assert trail.length == reference_longest(edges)
    assert_trail(edges, trail)


# --------------------------------------------------------------------------- R47.4, D14


def test_r47_4_bonus_to_every_seat_tied_for_the_longest_path() -> None:
    """R47.4: three seats tie at 4 trains (one route each, or 2+2), all get 10; the fourth
    (3 trains) does not."""
    owners = {
        "Brest-Pamplona": 0, "Berlin-Danzig": 1, "Amsterdam-Frankfurt": 2,
        "Frankfurt-Munchen": 2, "Cadiz-Madrid": 3,
    }  # fmt: skip
    board = score(finished(owners, players=4))
    assert [p.longest_path.length for p in board.players] == [4, 4, 4, 3]
    assert [p.bonus for p in board.players] == [10, 10, 10, 0]
    assert totals(board) == [7 + 12 + 10, 7 + 12 + 10, 4 + 12 + 10, 4 + 12]
    assert ranks(board) == [1, 1, 3, 4]


def test_d14_no_bonus_without_track_unless_the_option() -> None:
    """D14: nobody has track, nobody gets the bonus; with ``bonus_at_zero`` everyone does."""
    board = score(finished({}, players=3))
    assert totals(board) == [12, 12, 12] and ranks(board) == [1, 1, 1]
    assert board.decided_by == (None, None)
    board = score(finished({}, players=3, bonus_at_zero=True))
    assert totals(board) == [22, 22, 22] and ranks(board) == [1, 1, 1]


# --------------------------------------------------------------------------- R49, R50, D15-D17


def test_r49_3_the_bonus_holder_wins_a_tie_on_total() -> None:
    """Seat 0: Brest-Pamplona (7) and the bonus (path 4): 7 + 12 + 10 = 29. Seat 1: four
    separate 3-routes and a 1-route, 4*4 + 1 = 17, path 3: 17 + 12 = 29. Same tickets (none),
    same stations (none): the European Express decides (R49 3); with option (3') the path,
    4 against 3, decides the same way."""
    owners = {"Brest-Pamplona": 0, **FOUR_DISJOINT_THREES}
    board = score(finished(owners, players=2))
    assert totals(board) == [29, 29]
    assert board.ranking == (0, 1) and board.decided_by == ("bonus_card",)
    board = score(finished(owners, players=2, tiebreak_path_length=True))
    assert board.ranking == (0, 1) and board.decided_by == ("longest_path",)


def test_r49_3_prime_separates_seats_without_the_bonus() -> None:
    """Where the readings of R49 (3) differ: seats 0 and 1 tie at 16 and neither holds the
    bonus (seat 2 has a 4-route). Default: nothing separates them and they share rank 2
    (D15). Option (3'): seat 0's path of 3 beats seat 1's two separate 2-routes."""
    owners = {
        "Amsterdam-Essen": 0,
        "Amsterdam-Frankfurt": 1, "Cadiz-Lisboa": 1,
        "Berlin-Danzig": 2,
    }  # fmt: skip
    board = score(finished(owners, players=3))
    assert totals(board) == [16, 16, 29]
    assert ranks(board) == [2, 2, 1] and board.decided_by == ("total", None)
    board = score(finished(owners, tiebreak_path_length=True, players=3))
    assert ranks(board) == [2, 3, 1] and board.decided_by == ("total", "longest_path")


def test_r49_1_completed_tickets_come_before_the_bonus() -> None:
    """Seat 0: Petrograd-Stockholm (21) and the bonus: 21 + 10 + 12 = 43, no ticket. Seat 1:
    Athina-Smyrna (2) and Angora-Smyrna (4) complete Athina-Angora (+5); Budapest-Kyiv (15),
    Cadiz-Madrid (4), Amsterdam-Bruxelles (1): 26 + 5 + 12 = 43, path 6. One completed
    ticket against none: seat 1 wins (R49 1) although seat 0 holds the card."""
    owners = {
        "Petrograd-Stockholm": 0,
        "Athina-Smyrna": 1, "Angora-Smyrna": 1, "Budapest-Kyiv": 1, "Cadiz-Madrid": 1,
        "Amsterdam-Bruxelles": 1,
    }  # fmt: skip
    board = score(finished(owners, players=2, tickets={1: ["Athina-Angora"]}))
    assert totals(board) == [43, 43]
    assert board.ranking == (1, 0) and board.decided_by == ("completed_tickets",)


def test_r49_2_fewer_stations_built_come_before_the_bonus() -> None:
    """Seat 0: Petrograd-Stockholm (21), the bonus, one station built in Lisboa that borrows
    nothing (D17), 21 + 10 + 8 = 39. Seat 1: Budapest-Kyiv (15), Athina-Sarajevo (7),
    Cadiz-Madrid (4), Amsterdam-Bruxelles (1), no station: 27 + 12 = 39. No tickets: seat 1
    wins on stations built (R49 2)."""
    owners = {
        "Petrograd-Stockholm": 0,
        "Budapest-Kyiv": 1, "Athina-Sarajevo": 1, "Cadiz-Madrid": 1, "Amsterdam-Bruxelles": 1,
    }  # fmt: skip
    board = score(finished(owners, players=2, stations={0: ["Lisboa"]}))
    assert totals(board) == [39, 39]
    assert board.players[0].stations[0].route is None
    assert board.ranking == (1, 0) and board.decided_by == ("fewest_stations",)


def test_d15_d16_two_bonus_holders_share_the_win() -> None:
    """D16: both tied seats hold the bonus (4 trains each), so (3) separates nobody, nor does
    (3'); they share rank 1 and the seat with nothing is third, not second (D15)."""
    owners = {"Brest-Pamplona": 0, "Berlin-Danzig": 1}
    for option in (False, True):
        board = score(finished(owners, tiebreak_path_length=option, players=3))
        assert totals(board) == [29, 29, 12]
        assert ranks(board) == [1, 1, 3] and board.winners == (0, 1)
        assert board.decided_by == (None, "total")


def test_r50_usa_completed_tickets_then_the_card() -> None:
    """R50. Seat 0: Calgary-Winnipeg (15) and the card: 25. Seat 1: Atlanta-Miami (10),
    Denver-Phoenix (10), Montreal-New York (4), Dallas-Houston-1 (1): 25, path 5. The card
    decides. Then seat 1 swaps Denver-Phoenix for Denver-Santa Fe and El Paso-Santa Fe
    (2 + 2) completing Denver-El Paso (+4) and adds Las Vegas-Los Angeles (2): again 25, and
    its completed ticket comes first."""
    base = {
        "Calgary-Winnipeg": 0,
        "Atlanta-Miami": 1,
        "Montreal-New York": 1,
        "Dallas-Houston-1": 1,
    }
    board = score(finished({**base, "Denver-Phoenix": 1}, players=2, map="usa"))
    assert totals(board) == [25, 25] and [p.station_points for p in board.players] == [0, 0]
    assert board.criteria == ("total", "completed_tickets", "bonus_card")
    assert board.ranking == (0, 1) and board.decided_by == ("bonus_card",)
    option = score(
        finished({**base, "Denver-Phoenix": 1}, players=2, map="usa", tiebreak_path_length=True)
    )
    assert option.criteria == ("total", "completed_tickets", "longest_path")
    assert option.ranking == (0, 1) and option.decided_by == ("longest_path",)  # 6 against 5
    more = {**base, "Denver-Santa Fe": 1, "El Paso-Santa Fe": 1, "Las Vegas-Los Angeles": 1}
    board = score(finished(more, players=2, map="usa", tickets={1: ["Denver-El Paso"]}))
    assert totals(board) == [25, 25]
    assert board.ranking == (1, 0) and board.decided_by == ("completed_tickets",)


# --------------------------------------------------------------------------- D35


def test_d35_a_running_score_that_differs_from_the_routes_is_refused() -> None:
    state = finished({"Brest-Pamplona": 0}, players=2, scores={0: 8}, check=False)
    with pytest.raises(ScoreMismatchError) as info:
        score(state)
    assert (info.value.seat, info.value.recorded, info.value.recomputed) == (0, 8, 7)


# --------------------------------------------------------------------------- played games


def _eligible(state: GameState, seat: int, city: int) -> list[int]:
    """Routes a station of ``seat`` in ``city`` may borrow (R43)."""
    return [r for r in state.map.routes_at[city] if state.owners[r] not in (NO_OWNER, seat)]


@pytest.mark.slow
@given(played(), st.data())
def test_d10_no_other_station_choice_does_better(
    sample: tuple[GameState, Any, Any], data: st.DataObject
) -> None:
    """D10 against explicit choices: no assignment gives more ticket points, or as many with
    more completed tickets, or the same with lower route indices ("nothing" lowest); giving
    the chosen assignment explicitly changes nothing."""
    state = sample[0]
    board = state.map
    auto = score(state)
    for seat, player in enumerate(state.players):
        if not player.stations:
            continue
        mine = auto.players[seat]
        chosen = {
            board.cities[c].id: s.route for c, s in zip(player.stations, mine.stations, strict=True)
        }
        assert score(state, stations={seat: chosen}).players[seat] == mine
        key = (mine.ticket_points, mine.completed)
        order = [_index(state, s.route) for s in mine.stations]
        for _ in range(4):
            pick: dict[str, str | None] = {}
            for c in player.stations:
                options = [None, *(board.routes[r].id for r in _eligible(state, seat, c))]
                pick[board.cities[c].id] = data.draw(st.sampled_from(options))
            other = score(state, stations={seat: pick}).players[seat]
            other_key = (other.ticket_points, other.completed)
            assert other_key <= key
            if other_key == key:
                assert order <= [_index(state, route) for route in pick.values()]


def _index(state: GameState, route: str | None) -> int:
    """A borrowed route's index, "nothing" below every route (D10 3)."""
    return -1 if route is None else state.map.route_index[route]


@pytest.mark.slow
@given(played())
def test_r45_d10_another_station_never_costs_tickets(sample: tuple[GameState, Any, Any]) -> None:
    """One more station (in a free city) can only keep or raise the ticket points (it may
    borrow nothing) and costs exactly the 4 points of a station in reserve (R45)."""
    state = sample[0]
    v = state.rules.variant
    taken = {c for p in state.players for c in p.stations}
    free = [c for c in range(len(state.map.cities)) if c not in taken]
    before = score(state)
    for seat, player in enumerate(state.players):
        if len(player.stations) >= v.stations:
            continue
        city = max(free, key=lambda c: (len(_eligible(state, seat, c)), -c))
        players = list(state.players)
        players[seat] = attrs.evolve(player, stations=(*player.stations, city))
        after = score(attrs.evolve(state, players=tuple(players))).players[seat]
        old = before.players[seat]
        assert after.ticket_points >= old.ticket_points
        assert after.station_points == old.station_points - v.station_points
        assert after.longest_path == old.longest_path  # R44


@pytest.mark.slow
@given(played(), st.randoms(use_true_random=False))
def test_seat_order_changes_no_score(
    sample: tuple[GameState, Any, Any], rnd: random.Random
) -> None:
    """Renumbering the seats renumbers the scoreboard and nothing else (R47-R50)."""
    state = sample[0]
    n = state.rules.players
    perm = list(range(n))
    rnd.shuffle(perm)
    players: list[Any] = [None] * n
    for old, new in enumerate(perm):
        players[new] = state.players[old]
    owners = tuple(NO_OWNER if o == NO_OWNER else perm[o] for o in state.owners)
    moved = attrs.evolve(
        state,
        players=tuple(players),
        owners=owners,
        closed=closed_masks(state.rules, owners),
        current=perm[state.current],
        first_player=perm[state.first_player],
    )
    before, after = score(state), score(moved)
    for old, new in enumerate(perm):
        a, b = before.players[old], after.players[new]
        assert attrs.evolve(a, seat=0) == attrs.evolve(b, seat=0)
    assert sorted(perm[s] for s in before.winners) == sorted(after.winners)


def _my_key(p: PlayerScore, path_option: bool, usa: bool) -> tuple[int, ...]:
    """The order of R49 / R50 from the breakdown alone."""
    third = p.longest_path.length if path_option else int(p.bonus > 0)
    if usa:
        return (p.total, p.completed, third)
    return (p.total, p.completed, -p.stations_built, third)


@pytest.mark.slow
@given(played())
def test_scores_of_played_games_add_up_and_rank_by_the_rules(
    sample: tuple[GameState, Any, Any],
) -> None:
    """R39, R45, R47, R48, R49, R50, D14-D17, D35 on any reachable position."""
    state = sample[0]
    rules = state.rules
    board = score(state)
    assert board.final is (state.phase is Phase.GAME_OVER)
    longest = max(p.longest_path.length for p in board.players)
    usa = not rules.variant.stations
    keys = [_my_key(p, rules.tiebreak_path_length, usa) for p in board.players]
    for seat, (player, p) in enumerate(zip(state.players, board.players, strict=True)):
        assert p.route_points == player.score  # D35
        assert [t.ticket for t in p.tickets] == [state.map.tickets[t].id for t in player.tickets]
        values = {t.ticket: state.map.ticket(t.ticket).points for t in p.tickets}
        for t in p.tickets:
            assert t.points == (values[t.ticket] if t.completed else -values[t.ticket])  # R39
        assert p.station_points == rules.variant.station_points * (
            rules.variant.stations - len(player.stations)
        )  # R45
        mine = [r for r, o in enumerate(state.owners) if o == seat]
        edges = [
            (r, state.map.routes[r].a, state.map.routes[r].b, state.map.routes[r].length)
            for r in mine
        ]
        if len(edges) <= 12:
            assert p.longest_path.length == reference_longest(edges)  # R48, R44
        ids = {state.map.routes[r].id for r in mine}
        assert set(p.longest_path.routes) <= ids
        holds = p.longest_path.length == longest and (longest > 0 or rules.bonus_at_zero)
        assert p.bonus == (rules.variant.bonus.points if holds else 0)  # R47.4, D14
        assert p.total == p.route_points + p.ticket_points + p.station_points + p.bonus
        assert p.rank == 1 + sum(k > keys[seat] for k in keys)  # R49, R50, D15, D16, D17
    assert list(board.ranking) == sorted(range(len(keys)), key=lambda s: (board.players[s].rank, s))
    assert outcome(state).ranks == tuple(ranks(board))
