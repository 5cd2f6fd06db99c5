"""Setup: R1, R2, R5-R10 with D13, D18, D19, D21 and D36 (the deal, the face-up row with its
reset, the starting tickets and the order in which they are chosen)."""

from __future__ import annotations

from itertools import combinations

import pytest

from ttr_europe import (
    Cards,
    DrawBlind,
    DrawTickets,
    IllegalActionError,
    KeepTickets,
    Map,
    Phase,
    SetupError,
    apply,
    legal_actions,
    load_map,
    new_game,
)
from ttr_europe.cards import FULL_DECK, LOCOMOTIVE
from ttr_europe.testing import card_total

EUROPE = load_map("europe")
USA = load_map("usa")


def ids(board: Map, tickets: tuple[int, ...]) -> list[str]:
    return [board.tickets[t].id for t in tickets]


# --------------------------------------------------------------------------- R1, R21


@pytest.mark.parametrize("players", [0, 1, 6, 7, -2])
@pytest.mark.parametrize("board", ["europe", "usa"])
def test_r1_player_count_outside_2_to_5_is_rejected(board: str, players: int) -> None:
    with pytest.raises(SetupError, match="R1"):
        new_game(board, players=players)


@pytest.mark.parametrize("players", [2.0, "3", True, None])
def test_r1_player_count_must_be_an_int(players: object) -> None:
    with pytest.raises(SetupError):
        new_game("europe", players=players)  # type: ignore[arg-type]


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_r1_d21_two_to_five_players_fix_the_double_route_rule(players: int) -> None:
    s = new_game("europe", players=players, seed=players)
    assert len(s.players) == players == s.rules.players
    assert s.rules.doubles_open_to_all is (players >= 4)


# --------------------------------------------------------------------------- R2, R5, R6


@pytest.mark.parametrize(("board", "stations"), [("europe", 3), ("usa", 0)])
def test_r2_r5_pieces_and_score_at_the_start(board: str, stations: int) -> None:
    s = new_game(board, players=4, seed=11)
    for p in s.players:
        assert p.trains == 45
        assert s.rules.variant.stations == stations and p.stations == ()
        assert p.score == 0 and p.tickets == ()
    assert all(o == -1 for o in s.owners)
    assert s.closed == (0, 0, 0, 0)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_r3_r6_four_cards_each_from_the_shuffled_deck(players: int) -> None:
    s = new_game("europe", players=players, seed=100 + players)
    assert Cards.from_kinds(s.pile) == FULL_DECK  # the shuffle is of the 110 cards (R3)
    for seat, p in enumerate(s.players):
        assert p.hand == Cards.from_kinds(s.pile[4 * seat : 4 * seat + 4])
    assert card_total(s) == FULL_DECK
    assert s.pile_size == 110 - 4 * players - 5 - s.discard.total


def _expected_row(pile: tuple[int, ...], start: int, cap: int) -> tuple[tuple[int, ...], int]:
    """The row R7 and R17 predict from the shuffled deck: rows of five from ``start`` until one
    shows fewer than three locomotives (or ``cap`` resets); returns it and the resets."""
    resets = 0
    row = pile[start : start + 5]
    while row.count(LOCOMOTIVE) >= 3 and resets < cap:
        resets += 1
        start += 5
        row = pile[start : start + 5]
    return row, resets


def test_r7_face_up_row_is_the_next_five_cards_reset_on_three_locomotives() -> None:
    """R7, R17, D6: over many seeds the row and the discard follow from the deck order, and
    some seeds do need a reset at setup."""
    resets_seen = 0
    for seed in range(400):
        s = new_game("europe", players=2, seed=seed)
        row, resets = _expected_row(s.pile, 8, 3)
        assert s.row == row, seed
        discarded = Cards.from_kinds(s.pile[8 : 8 + 5 * resets])
        assert s.discard == discarded, seed
        assert s.pile_top == 8 + 5 + 5 * resets
        resets_seen += resets
    assert resets_seen > 0


def test_r7_setup_reset_respects_the_reset_cap_option() -> None:
    for seed in range(400):
        s = new_game("europe", players=2, seed=seed, reset_cap=1)
        row, resets = _expected_row(s.pile, 8, 1)
        assert s.row == row and s.pile_top == 13 + 5 * resets


# --------------------------------------------------------------------------- R8, R9


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_r8_europe_deals_one_long_and_three_regular_tickets(players: int) -> None:
    s = new_game("europe", players=players, seed=players)
    v = s.rules.variant
    dealt: list[int] = []
    for p in s.players:
        assert len(p.offer) == 4
        assert [EUROPE.tickets[t].long for t in p.offer] == [True, False, False, False]
        dealt.extend(p.offer)
    assert len(s.box) == 6 - players  # long tickets left over: out of the game, unseen
    assert all(EUROPE.tickets[t].long for t in s.box)
    assert len(s.ticket_deck) == 40 - 3 * players
    assert not any(EUROPE.tickets[t].long for t in s.ticket_deck)
    assert sorted(dealt + list(s.box) + list(s.ticket_deck)) == sorted(v.long_pool + v.regular_pool)


def test_r9_europe_keep_at_least_two_of_four_in_any_mix() -> None:
    s = new_game("europe", players=2, seed=5, first_player=0)
    offer = ids(EUROPE, s.players[0].offer)
    expected = {tuple(sorted(c)) for n in (2, 3, 4) for c in combinations(offer, n)}
    assert {a.tickets for a in legal_actions(s)} == expected  # type: ignore[union-attr]
    assert len(legal_actions(s)) == 11
    for one in offer:
        with pytest.raises(IllegalActionError) as info:
            apply(s, KeepTickets([one]))
        assert info.value.rule == "R9"
    with pytest.raises(IllegalActionError) as info:
        apply(s, KeepTickets([]))
    assert info.value.rule == "R9"


def test_r9_europe_rejected_starting_tickets_go_to_the_box_unseen() -> None:
    s = new_game("europe", players=2, seed=5, first_player=0)
    long_id, *regular = ids(EUROPE, s.players[0].offer)
    deck, box = s.ticket_deck, s.box
    s = apply(s, KeepTickets(regular[:2]))  # throws back the long ticket and one regular
    assert ids(EUROPE, s.players[0].tickets) == regular[:2]
    assert s.players[0].offer == ()
    assert s.ticket_deck == deck
    assert ids(EUROPE, s.box[len(box) :]) == [long_id, regular[2]]
    assert s.phase is Phase.INITIAL_TICKETS and s.current == 1


def test_r9_europe_may_keep_all_four() -> None:
    s = new_game("europe", players=2, seed=9, first_player=1)
    offer = ids(EUROPE, s.players[1].offer)
    s = apply(s, KeepTickets(offer))
    assert ids(EUROPE, s.players[1].tickets) == offer
    assert len(s.box) == 4


def test_r9_usa_deals_three_keeps_two_rejects_to_the_bottom() -> None:
    s = new_game("usa", players=3, seed=2, first_player=0)
    for p in s.players:
        assert len(p.offer) == 3
    assert len(s.ticket_deck) == 30 - 9 and s.box == ()
    assert len(legal_actions(s)) == 4  # three pairs and all three
    offer = ids(USA, s.players[0].offer)
    deck = s.ticket_deck
    s = apply(s, KeepTickets([offer[0], offer[2]]))
    assert s.ticket_deck == (*deck, USA.ticket_index[offer[1]])
    assert ids(USA, s.players[0].tickets) == [offer[0], offer[2]]
    with pytest.raises(IllegalActionError) as info:
        apply(s, KeepTickets(ids(USA, s.players[1].offer)[:1]))
    assert info.value.rule == "R9"


def test_r9_kept_tickets_stay_with_the_player() -> None:
    s = new_game("europe", players=2, seed=3, first_player=0)
    first = ids(EUROPE, s.players[0].offer)
    s = apply(s, KeepTickets(first[1:]))
    s = apply(s, KeepTickets(ids(EUROPE, s.players[1].offer)[:2]))
    s = apply(s, DrawTickets())
    assert ids(EUROPE, s.players[0].tickets) == first[1:]
    with pytest.raises(IllegalActionError):
        apply(s, KeepTickets([first[1]]))  # a kept ticket cannot be offered back


# --------------------------------------------------------------------------- R10, D13, D18, D36


@pytest.mark.parametrize("first", [0, 1, 2])
def test_d13_d36_starting_tickets_chosen_in_seat_order_from_the_first_player(first: int) -> None:
    s = new_game("usa", players=3, seed=21, first_player=first)
    deck = s.ticket_deck
    order: list[int] = []
    returned: list[int] = []
    while s.phase is Phase.INITIAL_TICKETS:
        order.append(s.current)
        offer = s.players[s.current].offer
        returned.append(offer[0])  # each keeps the last two; the first goes to the bottom
        s = apply(s, KeepTickets(ids(USA, offer[1:])), player=s.current)
    assert order == [first, (first + 1) % 3, (first + 2) % 3]
    assert s.ticket_deck == deck + tuple(returned)
    assert s.phase is Phase.TURN and s.current == first == s.first_player


def test_r10_d18_first_player_given_or_drawn_with_the_seed() -> None:
    for first in range(4):
        s = new_game("europe", players=4, seed=1, first_player=first)
        assert s.current == s.first_player == first
    drawn = {new_game("europe", players=4, seed=seed).first_player for seed in range(60)}
    assert drawn == {0, 1, 2, 3}
    assert new_game("europe", players=4, seed=77) == new_game("europe", players=4, seed=77)


@pytest.mark.parametrize("first", [-1, 3, 1.0, True, "0"])
def test_d18_bad_first_player_is_rejected(first: object) -> None:
    with pytest.raises(SetupError):
        new_game("europe", players=3, first_player=first)  # type: ignore[arg-type]


def test_r10_turn_order_is_clockwise_increasing_seats() -> None:
    s = new_game("europe", players=3, seed=8, first_player=2)
    while s.phase is Phase.INITIAL_TICKETS:
        s = apply(s, legal_actions(s)[0])
    seen = []
    for _ in range(6):
        seen.append(s.current)
        s = apply(s, DrawBlind())
        s = apply(s, DrawBlind())
    assert seen == [2, 0, 1, 2, 0, 1]


def test_d36_no_other_action_while_starting_tickets_are_chosen() -> None:
    s = new_game("europe", players=2, seed=4)
    for action in (DrawBlind(), DrawTickets()):
        with pytest.raises(IllegalActionError) as info:
            apply(s, action)
        assert info.value.rule == "R9"


def test_d19_same_seed_same_game_other_seed_other_game() -> None:
    a = new_game("europe", "base", 3, seed=12345)
    assert a == new_game("europe", "base", 3, seed=12345)
    assert hash(a) == hash(new_game("europe", "base", 3, seed=12345))
    assert a != new_game("europe", "base", 3, seed=12346)


def test_setup_rejects_unknown_variant_and_option() -> None:
    with pytest.raises(SetupError, match="variant"):
        new_game("europe", "nordic")
    with pytest.raises(SetupError, match="option"):
        new_game("europe", players=2, no_such_switch=True)
