"""Action notation: the exact text form, and friendly forms resolved against the position."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from strategies import played
from ttr_europe import (
    BuildStation,
    ClaimRoute,
    DrawBlind,
    DrawFaceUp,
    DrawTickets,
    GameState,
    KeepTickets,
    Pass,
    PayTunnel,
    PendingTunnel,
    Phase,
    WithdrawTunnel,
    is_legal,
    legal_actions,
)
from ttr_europe.actions import parse
from ttr_europe.cards import Cards
from ttr_europe.errors import ActionParseError
from ttr_europe.notation import find_city, find_routes, find_tickets, normalize, parse_action
from ttr_europe.testing import kinds, scenario


def _fails(state: GameState, text: str) -> ActionParseError:
    with pytest.raises(ActionParseError) as info:
        parse_action(state, text)
    return info.value


@pytest.mark.slow
@given(played())
def test_exact_text_of_every_legal_action_parses_back(sample: tuple[GameState, Any, Any]) -> None:
    """``str(action)`` is context-free: ``parse`` and ``parse_action`` both read it back."""
    state = sample[0]
    legal = legal_actions(state)
    for i in range(0, len(legal), max(1, len(legal) // 50)):
        action = legal[i]
        assert parse(str(action)) == action
        assert parse_action(state, str(action)) == action
        assert parse_action(state, str(action).upper()) == action


# --------------------------------------------------------------------------- draws


def test_draw_by_slot_and_by_colour_r13() -> None:
    state = scenario(hands={0: "2red"}, row="blue red loco red green")
    assert parse_action(state, "draw 3") == DrawFaceUp(2)
    assert parse_action(state, "Draw  red") == DrawFaceUp(1)  # the first face-up red
    assert parse_action(state, "take green") == DrawFaceUp(4)
    assert parse_action(state, "draw loco") == DrawFaceUp(2)
    for text in ("blind", "draw blind", "DRAW DECK"):
        assert parse_action(state, text) == DrawBlind()
    for text in ("tickets", "draw tickets"):
        assert parse_action(state, text) == DrawTickets()
    assert "no orange card is face up" in str(_fails(state, "draw orange"))
    assert "no legal action" in str(_fails(state, "draw 6"))


@pytest.mark.parametrize("verb", ["draw", "take"])
def test_every_draw_form_of_the_grammar_reads_with_both_verbs(verb: str) -> None:
    """docs/embedding.md: draw := ("draw" | "take") (SLOT | COLOUR | "blind" | "deck" |
    "tickets"); each form means the same with either verb."""
    state = scenario(hands={0: "2red"}, row="blue red loco red green")
    assert parse_action(state, f"{verb} 1") == DrawFaceUp(0)
    assert parse_action(state, f"{verb} green") == DrawFaceUp(4)
    assert parse_action(state, f"{verb} blind") == DrawBlind()
    assert parse_action(state, f"{verb} deck") == DrawBlind()
    assert parse_action(state, f"{verb} tickets") == DrawTickets()


def test_second_card_cannot_be_a_face_up_locomotive_r15b() -> None:
    state = scenario(hands={0: "2red"}, row="blue red loco red green", phase=Phase.SECOND_DRAW)
    error = _fails(state, "draw loco")
    assert "R15b" in str(error)
    assert "R15b" in str(_fails(state, "draw 3"))


def test_bare_draw_lists_the_candidates() -> None:
    state = scenario(row="blue red loco red green")
    error = _fails(state, "draw")
    assert set(error.candidates) == {"draw 1", "draw 2", "draw 3", "draw 4", "draw 5", "blind"}


# --------------------------------------------------------------------------- tickets


def _offered(phase: Phase = Phase.INITIAL_TICKETS) -> GameState:
    offer = ["Brest-Petrograd", "Paris-Wien", "Roma-Smyrna", "Athina-Angora"]
    return scenario(phase=phase, offers={0: offer}, check=False)  # seat 0's offer alone


def test_keep_by_place_by_name_and_all_r9() -> None:
    state = _offered()
    assert parse_action(state, "keep 1 3") == KeepTickets(["Brest-Petrograd", "Roma-Smyrna"])
    assert parse_action(state, "keep 3,1") == KeepTickets(["Brest-Petrograd", "Roma-Smyrna"])
    assert parse_action(state, "keep all") == KeepTickets(
        ["Brest-Petrograd", "Paris-Wien", "Roma-Smyrna", "Athina-Angora"]
    )
    assert parse_action(state, "keep wien-paris, Angora - Athina") == KeepTickets(
        ["Paris-Wien", "Athina-Angora"]
    )
    assert parse_action(state, "keep Vienna-Paris and Roma-Smyrna") == KeepTickets(
        ["Paris-Wien", "Roma-Smyrna"]
    )
    assert "R9" in str(_fails(state, "keep 2"))  # at least two of the starting deal
    assert "places 1 to 4" in str(_fails(state, "keep 5"))
    error = _fails(state, "keep Paris-Berlin")
    assert "Paris-Wien" in error.candidates


def test_keep_one_drawn_ticket_r37() -> None:
    state = _offered(Phase.CHOOSE_TICKETS)
    assert parse_action(state, "keep 2") == KeepTickets(["Paris-Wien"])


# --------------------------------------------------------------------------- claims


def test_claim_with_the_only_payment_r21() -> None:
    """Either order of cities, any case, accents or not: the one legal payment is chosen."""
    state = scenario(hands={0: "1pink+2red"})
    want = ClaimRoute("Dieppe-Paris", Cards.of(pink=1))
    for text in ("claim Paris-Dieppe", "claim dieppe - paris", "CLAIM Paris to Dieppe"):
        assert parse_action(state, text) == want


def test_claim_ambiguous_payment_lists_candidates_d24() -> None:
    """D24: the engine never picks cards; several payments are listed, each one legal."""
    state = scenario(hands={0: "1pink+1loco"})
    error = _fails(state, "claim Paris-Dieppe")
    assert set(error.candidates) == {
        "claim Dieppe-Paris with 1pink",
        "claim Dieppe-Paris with 1loco",
    }
    for text in error.candidates:
        assert is_legal(state, parse(text))
    assert parse_action(state, "claim Paris-Dieppe with pink") == ClaimRoute(
        "Dieppe-Paris", Cards.of(pink=1)
    )
    assert parse_action(state, "claim Paris-Dieppe with 1loco") == ClaimRoute(
        "Dieppe-Paris", Cards.of(loco=1)
    )


def test_claim_with_exact_cards_and_locomotives_r20() -> None:
    state = scenario(hands={0: "1red+3pink+2loco"})
    assert parse_action(state, "claim Frankfurt-Berlin with 1red+2loco") == ClaimRoute(
        "Berlin-Frankfurt-red", Cards.of(red=1, loco=2)
    )
    assert parse_action(state, "claim Frankfurt-Berlin with 1 red and 2 loco") == ClaimRoute(
        "Berlin-Frankfurt-red", Cards.of(red=1, loco=2)
    )
    assert "R21" in str(_fails(state, "claim Berlin-Frankfurt-red with 3red"))


def test_claim_a_double_route_by_colour_r26() -> None:
    state = scenario(hands={0: "3red+3black"})
    assert parse_action(state, "claim Berlin-Frankfurt red") == ClaimRoute(
        "Berlin-Frankfurt-red", Cards.of(red=3)
    )
    assert parse_action(state, "claim Frankfurt-Berlin-black") == ClaimRoute(
        "Berlin-Frankfurt-black", Cards.of(black=3)
    )
    error = _fails(state, "claim Berlin-Frankfurt")
    assert set(error.candidates) == {
        "claim Berlin-Frankfurt-red with 3red",
        "claim Berlin-Frankfurt-black with 3black",
    }


def test_a_route_or_ticket_by_its_cities_with_only_a_space_between() -> None:
    """Every split point is tried, as a name may hold a space: only the readings that name two
    cities (and, for a route, a track) count."""
    europe, usa = scenario().rules.map, scenario("usa").rules.map
    assert find_routes(europe, "venezia  roma") == (europe.route_index["Roma-Venezia"],)
    assert find_routes(europe, "Zürich München") == (europe.route_index["Munchen-Zurich"],)
    assert find_routes(europe, "frankfurt berlin black") == (
        europe.route_index["Berlin-Frankfurt-black"],
    )
    assert find_routes(europe, "paris moskva") == ()
    assert {usa.routes[r].id for r in find_routes(usa, "salt lake city denver")} == {
        "Denver-Salt Lake City-red",
        "Denver-Salt Lake City-yellow",
    }
    assert [usa.routes[r].id for r in find_routes(usa, "kansas city saint louis pink")] == [
        "Kansas City-Saint Louis-pink"
    ]
    assert [usa.routes[r].id for r in find_routes(usa, "Sault St. Marie - duluth")] == [
        "Duluth-Sault St. Marie"
    ]
    assert [usa.tickets[t].id for t in find_tickets(usa, "new york los angeles", range(30))] == [
        "Los Angeles-New York"
    ]
    offer = ["Los Angeles-New York", "Boston-Miami", "Dallas-New York"]
    choosing = scenario("usa", phase=Phase.CHOOSE_TICKETS, offers={0: offer})
    assert parse_action(choosing, "keep new york los angeles, miami boston") == KeepTickets(
        ("Boston-Miami", "Los Angeles-New York")
    )


def test_claim_refusal_names_the_rule_r23() -> None:
    state = scenario(hands={0: "1pink"}, owners={"Dieppe-Paris": 1})
    assert "R23" in str(_fails(state, "claim Paris-Dieppe"))
    assert "no route" in str(_fails(state, "claim Paris-Atlantis"))


def test_ferry_needs_its_locomotive_r27() -> None:
    state = scenario(hands={0: "2red+1loco"})
    assert parse_action(state, "claim London-Dieppe-1 with red") == ClaimRoute(
        "Dieppe-London-1", Cards.of(red=1, loco=1)
    )
    assert "R27" in str(_fails(state, "claim London-Dieppe-1 with 2red"))


# --------------------------------------------------------------------------- stations, tunnels


def test_station_by_name_alias_and_cards_r41() -> None:
    state = scenario(hands={0: "2red+1black"})
    assert parse_action(state, "station Wien with 1 red") == BuildStation("Wien", Cards.of(red=1))
    assert parse_action(state, "station Vienna with red") == BuildStation("Wien", Cards.of(red=1))
    assert parse_action(state, "build a station in München with black") == BuildStation(
        "Munchen", Cards.of(black=1)
    )
    assert "R41" in str(_fails(state, "station Wien with 2 red"))  # the first costs one card
    assert len(_fails(state, "station Wien").candidates) == 2
    assert "no city" in str(_fails(state, "station Atlantis"))


def _tunnel(hand: str) -> GameState:
    board_route = 74  # Marseille-Zurich, pink, 2 spaces
    tunnel = PendingTunnel(board_route, Cards.of(pink=2), kinds("pink red blue"), 5, 1)
    return scenario(hands={0: hand}, phase=Phase.TUNNEL, tunnel=tunnel)


def test_pay_or_withdraw_a_tunnel_r28_r29() -> None:
    state = _tunnel("1pink+1loco+2red")
    assert state.rules.map.routes[74].id == "Marseille-Zurich"
    assert set(_fails(state, "pay").candidates) == {"pay 1pink", "pay 1loco"}
    assert parse_action(state, "pay pink") == PayTunnel(Cards.of(pink=1))
    assert parse_action(state, "pay 1loco") == PayTunnel(Cards.of(loco=1))
    assert parse_action(state, "withdraw") == WithdrawTunnel()
    assert parse_action(state, "decline") == WithdrawTunnel()
    assert "R29" in str(_fails(state, "pay 1red"))
    assert parse_action(_tunnel("2red"), "withdraw") == WithdrawTunnel()
    assert "R28" in str(_fails(_tunnel("2red"), "blind"))


def test_pass_only_when_allowed_d1_d5() -> None:
    state = scenario(hands={0: "2red"}, row="blue red loco red green")
    assert "D1" in str(_fails(state, "pass"))
    optional = scenario(
        row="blue red loco red green", phase=Phase.SECOND_DRAW, second_card_optional=True
    )
    assert parse_action(optional, "pass") == Pass()


# --------------------------------------------------------------------------- names and junk


def test_names_and_aliases() -> None:
    state = scenario()
    board = state.rules.map
    assert normalize("  Zürich ") == "zurich"
    assert (
        find_city(board, "KØBENHAVN")
        == find_city(board, "copenhagen")
        == board.city_index["Kobenhavn"]
    )
    assert find_city(board, "St. Petersburg") == board.city_index["Petrograd"]
    assert set(find_routes(board, "Madrid-Pamplona")) == {
        board.route_index["Madrid-Pamplona-white"],
        board.route_index["Madrid-Pamplona-black"],
    }
    assert find_routes(board, "Pamplona-Madrid-white") == (
        board.route_index["Madrid-Pamplona-white"],
    )
    assert find_routes(board, "Paris-Moskva") == ()


_WORDS = st.sampled_from(
    ["draw", "claim", "station", "keep", "pay", "blind", "tickets", "withdraw", "pass", "build",
     "with", "red", "loco", "pink", "1", "3", "all", "Paris-Dieppe", "Berlin-Frankfurt", "Wien",
     "2red+1loco", "-", ",", "and", "Madrid-Pamplona", "São", "x"]
)  # fmt: skip


@pytest.mark.slow
@given(played(max_steps=300), st.lists(_WORDS, min_size=1, max_size=5))
def test_friendly_text_gives_a_legal_action_or_a_parse_error(
    sample: tuple[GameState, Any, Any], words: list[str]
) -> None:
    """Whatever is typed, the answer is a legal action or an ActionParseError, nothing else."""
    state = sample[0]
    try:
        action = parse_action(state, " ".join(words))
    except ActionParseError as exc:
        board = state.rules.map
        offer = {board.tickets[t].id for t in state.player.offer}
        for text in exc.candidates:  # legal actions, or tickets on offer
            assert text in offer or is_legal(state, parse(text)), text
        return
    assert is_legal(state, action)


def test_a_long_text_is_read_in_few_cuts_only_those_that_could_name_two_cities() -> None:
    """A city's name has at most a few words (3 on the USA map: "salt lake city"), so only the
    cuts leaving each side that many are read: a text of 500 words is cut a handful of times,
    not 500 times with 500 words joined each (a refused move cost milliseconds a character)."""
    from ttr_europe.notation import _city_words, _pairs

    europe, usa = scenario().rules.map, scenario("usa").rules.map
    assert (_city_words(europe), _city_words(usa)) == (2, 3)  # "st petersburg", "salt lake city"
    assert list(_pairs("-" * 980, 3)) == []  # 981 empty words: no city on either side
    assert list(_pairs("a " * 500, 3)) == []
    cuts = list(_pairs("kansas city saint louis pink", 3))
    assert ("kansas city", "saint louis", "pink") in cuts and len(cuts) <= 2 * 3 + 2
    assert ("kansas city", "saint louis pink", "") in cuts
    assert find_routes(usa, "kansas city " * 200 + "saint louis") == ()
    assert find_tickets(usa, "new york " * 300, range(30)) == ()
