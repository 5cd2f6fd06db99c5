"""Destination tickets during play: R37, R38 with D11, D12 and D33 (Big Cities draws 4, B3)."""

from __future__ import annotations

from itertools import combinations

import pytest

from ttr_europe import (
    DrawBlind,
    DrawTickets,
    GameState,
    KeepTickets,
    MalformedActionError,
    Phase,
    apply,
    legal_actions,
    load_map,
)
from ttr_europe.testing import refusal as refused
from ttr_europe.testing import scenario

EUROPE = load_map("europe")
REGULAR = [t.id for t in EUROPE.tickets if t.deck == "base" and not t.long]
DECK = REGULAR[:8]
ROW = "red blue green yellow pink"


def ids(state: GameState, tickets: tuple[int, ...]) -> list[str]:
    return [state.rules.map.tickets[t].id for t in tickets]


def drawn(deck: list[str], **kw: object) -> GameState:
    s = scenario(row=ROW, ticket_deck=deck, tickets={0: REGULAR[20:22]}, **kw)  # type: ignore[arg-type]
    return apply(s, DrawTickets())


# --------------------------------------------------------------------------- R37


def test_r37_draw_the_top_three() -> None:
    s = drawn(DECK)
    assert s.phase is Phase.CHOOSE_TICKETS and s.current == 0
    assert ids(s, s.players[0].offer) == DECK[:3]
    assert ids(s, s.ticket_deck) == DECK[3:]
    assert ids(s, s.players[0].tickets) == REGULAR[20:22]


def test_r37_keep_at_least_one_any_subset_is_listed() -> None:
    s = drawn(DECK)
    expected = {tuple(sorted(c)) for n in (1, 2, 3) for c in combinations(DECK[:3], n)}
    listed = [a for a in legal_actions(s) if isinstance(a, KeepTickets)]
    assert len(listed) == len(legal_actions(s)) == 7
    assert {a.tickets for a in listed} == expected
    assert refused(s, KeepTickets([])).rule == "R37"


def test_r37_d12_kept_join_the_hand_the_rest_go_under_the_deck_in_drawn_order() -> None:
    s = apply(drawn(DECK), KeepTickets([DECK[1]]))
    assert ids(s, s.players[0].tickets) == [*REGULAR[20:22], DECK[1]]
    assert s.players[0].offer == ()
    assert ids(s, s.ticket_deck) == [*DECK[3:], DECK[0], DECK[2]]
    assert s.phase is Phase.TURN and s.current == 1


def test_r37_keep_all_three() -> None:
    s = apply(drawn(DECK), KeepTickets(DECK[:3]))
    assert ids(s, s.players[0].tickets) == [*REGULAR[20:22], *DECK[:3]]
    assert ids(s, s.ticket_deck) == DECK[3:]


def test_r37_keep_order_does_not_matter() -> None:
    s = drawn(DECK)
    a = apply(s, KeepTickets([DECK[2], DECK[0]]))
    b = apply(s, KeepTickets([DECK[0], DECK[2]]))
    assert a == b
    assert KeepTickets([DECK[2], DECK[0]]) in legal_actions(s)


@pytest.mark.parametrize("left", [1, 2])
def test_r37_fewer_than_three_left_draws_them_all(left: int) -> None:
    s = drawn(DECK[:left])
    assert ids(s, s.players[0].offer) == DECK[:left]
    assert s.ticket_deck == ()
    assert len(legal_actions(s)) == 2**left - 1
    s = apply(s, KeepTickets(DECK[:1]))
    assert ids(s, s.ticket_deck) == DECK[1:left]


def test_r37_b3_big_cities_draws_four() -> None:
    big = [t.id for t in EUROPE.tickets if t.big_cities][:6]
    s = scenario(variant="big_cities", row=ROW, ticket_deck=big)
    s = apply(s, DrawTickets())
    assert ids(s, s.players[0].offer) == big[:4]
    assert len(legal_actions(s)) == 2**4 - 1


def test_r37_kept_tickets_cannot_be_given_back_later() -> None:
    s = drawn(DECK)
    error = refused(s, KeepTickets([REGULAR[20], DECK[0]]))
    assert isinstance(error, MalformedActionError)
    assert "not on offer" in error.reason


@pytest.mark.parametrize("keep", [[DECK[0], DECK[0]], ["Nowhere-Atlantis"], [DECK[5]], [3], [None]])
def test_r37_keep_must_name_offered_tickets_once(keep: list[object]) -> None:
    assert isinstance(refused(drawn(DECK), KeepTickets(keep)), MalformedActionError)  # type: ignore[arg-type]


def test_r37_only_the_choice_while_tickets_are_on_offer() -> None:
    s = drawn(DECK)
    assert refused(s, DrawBlind()).rule == "R37"
    assert refused(s, DrawTickets()).rule == "R37"


def test_r38_any_number_of_tickets_may_be_held() -> None:
    s = scenario(row=ROW, ticket_deck=REGULAR[:12], tickets={0: REGULAR[20:40]})
    s = apply(apply(s, DrawTickets()), KeepTickets(REGULAR[:3]))
    assert len(s.players[0].tickets) == 23


# --------------------------------------------------------------------------- D11


def test_d11_no_ticket_draw_from_an_empty_deck() -> None:
    s = scenario(row=ROW, ticket_deck=[])
    assert refused(s, DrawTickets()).rule == "D11"
    assert DrawTickets() not in legal_actions(s)


def test_d11_the_last_ticket_can_still_be_drawn() -> None:
    s = drawn(DECK[:1])
    assert list(legal_actions(s)) == [KeepTickets(DECK[:1])]
    s = apply(s, KeepTickets(DECK[:1]))
    assert s.ticket_deck == ()
    assert DrawTickets() not in legal_actions(s)


# --------------------------------------------------------------------------- D33


def test_d33_a_ticket_turn_leaves_the_train_cards_alone() -> None:
    start = scenario(row=ROW, pile="white black", discard="2red", ticket_deck=DECK)
    s = apply(apply(start, DrawTickets()), KeepTickets(DECK[:1]))
    assert (s.row, s.draw_pile, s.discard, s.rng) == (
        start.row,
        start.draw_pile,
        start.discard,
        start.rng,
    )
    assert s.players[0].hand == start.players[0].hand
