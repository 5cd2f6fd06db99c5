"""Views (R52, D20) and determinization: what a seat may know, and worlds consistent with it."""

from __future__ import annotations

import random
from collections import Counter

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

from strategies import play_to_end, played
from ttr_europe import GameState, Phase, apply, is_terminal, legal_actions, new_game
from ttr_europe.cards import FULL_DECK, Cards
from ttr_europe.errors import DataError, SetupError
from ttr_europe.jsonio import state_from_json, state_to_json, view_from_json
from ttr_europe.state import NO_CARD
from ttr_europe.testing import card_total
from ttr_europe.views import View, determinize, observe, unseen_cards


def _seat(state: GameState, draw: st.DrawFn) -> int | None:
    seat = draw(st.integers(-1, state.rules.players - 1))
    return None if seat < 0 else seat


def _scramble(state: GameState, seat: int | None, rng: random.Random) -> GameState:
    """The same position with every part ``seat`` may not see changed at random.

    Cards move between the draw pile and the other hands (sizes kept); tickets move between
    other seats' tickets and offers, the deck and the box; the generator state changes.
    """
    others = [p for p in range(state.rules.players) if p != seat]
    cards = list(state.draw_pile)
    for p in others:
        cards.extend(state.players[p].hand.kinds())
    rng.shuffle(cards)
    over = state.phase is Phase.GAME_OVER
    tickets = list(state.ticket_deck) + list(state.box)
    for p in others:
        tickets.extend(state.players[p].offer)
        if not over:
            tickets.extend(state.players[p].tickets)
    rng.shuffle(tickets)
    players = list(state.players)
    pile = tuple(cards[: state.pile_size])
    at = state.pile_size
    taken = 0
    for p in others:
        old = players[p]
        n = old.hand.total
        hand = Cards.from_kinds(cards[at : at + n])
        at += n
        kept = old.tickets
        if not over:
            kept = tuple(tickets[taken : taken + len(old.tickets)])
            taken += len(old.tickets)
        offer = tuple(tickets[taken : taken + len(old.offer)])
        taken += len(old.offer)
        players[p] = attrs.evolve(old, hand=hand, tickets=kept, offer=offer)
    deck = tuple(tickets[taken : taken + len(state.ticket_deck)])
    box = tuple(tickets[taken + len(deck) :])
    return attrs.evolve(
        state,
        players=tuple(players),
        pile=pile,
        pile_top=0,
        ticket_deck=deck,
        box=box,
        rng=rng.getrandbits(64),
    )


@pytest.mark.slow
@given(st.data())
def test_view_is_blind_to_hidden_parts_r52_d20(data: st.DataObject) -> None:
    """R52/D20: states that differ only in what a seat cannot see give that seat equal views."""
    state, _, _ = data.draw(played())
    seat = _seat(state, data.draw)
    other = _scramble(state, seat, random.Random(data.draw(st.integers(0, 2**32))))
    assert card_total(other) == FULL_DECK
    assert observe(other, seat) == observe(state, seat)
    assert observe(other, seat).to_json() == observe(state, seat).to_json()


@pytest.mark.slow
@given(played())
def test_view_shows_what_is_public_and_own_r52(sample: tuple[GameState, object, object]) -> None:
    """R52: row, discard, sizes, owners, stations, trains, scores are public; hands are not."""
    state = sample[0]
    board = state.rules.map
    for seat in (*range(state.rules.players), None):
        view = observe(state, seat)
        assert view.observer == seat
        assert view.row == state.row
        assert view.discard == state.discard
        assert view.pile_size == state.pile_size
        assert view.ticket_deck_size == len(state.ticket_deck)
        assert view.box_size == len(state.box)
        assert (view.phase, view.current, view.final_turns) == (
            state.phase,
            state.current,
            state.final_turns,
        )
        owners = {board.routes[r].id: p for r, p in enumerate(state.owners) if p >= 0}
        assert view.owners == owners
        for p, (pv, ps) in enumerate(zip(view.players, state.players, strict=True)):
            assert (pv.hand_size, pv.ticket_count, pv.offer_count) == (
                ps.hand.total,
                len(ps.tickets),
                len(ps.offer),
            )
            assert (pv.trains, pv.score) == (ps.trains, ps.score)
            assert pv.stations == tuple(board.cities[c].id for c in ps.stations)
            if p == seat:
                assert pv.hand == ps.hand
                assert pv.offer == tuple(board.tickets[t].id for t in ps.offer)
                assert pv.tickets == tuple(board.tickets[t].id for t in ps.tickets)
            else:
                assert pv.hand is None and pv.offer is None
                if state.phase is not Phase.GAME_OVER:
                    assert pv.tickets is None


def test_tickets_are_revealed_at_game_over_r47() -> None:
    """R47.2: once the game is over every seat's tickets are shown, even to a spectator."""
    state, _ = play_to_end(new_game("europe", "base", 3, seed=5), seed=5)
    assert is_terminal(state)
    view = observe(state, None)
    board = state.rules.map
    for pv, ps in zip(view.players, state.players, strict=True):
        assert pv.tickets == tuple(board.tickets[t].id for t in ps.tickets)
        assert pv.hand is None


def test_pending_tunnel_is_public_r28_d20() -> None:
    """R28/D20: the laid and revealed cards of a pending tunnel are in every view."""
    tunnel_state = _first_tunnel(seed=3)
    tunnel = tunnel_state.tunnel
    assert tunnel is not None
    for seat in (*range(tunnel_state.rules.players), None):
        tv = observe(tunnel_state, seat).tunnel
        assert tv is not None
        assert tv.route == tunnel_state.rules.map.routes[tunnel.route].id
        assert (tv.laid, tv.revealed, tv.extra) == (tunnel.laid, tunnel.revealed, tunnel.extra)


def _first_tunnel(seed: int) -> GameState:
    rng = random.Random(seed)
    state = new_game("europe", "base", 4, seed=seed)
    while state.phase is not Phase.TUNNEL:
        assert not is_terminal(state), "no tunnel in this game"
        legal = legal_actions(state)
        state = apply(state, legal[rng.randrange(len(legal))])
    return state


def test_observe_rejects_a_seat_that_does_not_exist() -> None:
    state = new_game("europe", "base", 2, seed=1)
    with pytest.raises(SetupError):
        observe(state, 2)
    with pytest.raises(SetupError):
        observe(state, -1)


# --------------------------------------------------------------------------- determinize


def _all_tickets(state: GameState) -> list[int]:
    out = list(state.ticket_deck) + list(state.box)
    for p in state.players:
        out += list(p.tickets) + list(p.offer)
    return out


@pytest.mark.slow
@given(st.data())
def test_determinize_keeps_the_view_and_the_totals_d19_d20(data: st.DataObject) -> None:
    """D20: a determinized state looks the same to the seat; 110 cards, the whole ticket pool,
    every derived field rebuilt, and the engine plays it to the end."""
    state, _, _ = data.draw(played())
    seat = _seat(state, data.draw)
    seed = data.draw(st.integers(0, 2**32))
    world = determinize(state, seat, seed)
    assert observe(world, seat) == observe(state, seat)
    assert card_total(world) == FULL_DECK
    pool = sorted((*state.rules.variant.long_pool, *state.rules.variant.regular_pool))
    assert sorted(_all_tickets(world)) == pool
    assert state_from_json(state_to_json(world)) == world  # passes every document check
    if seat == state.current:  # the seat to act has the same choices in every world
        assert list(legal_actions(world)) == list(legal_actions(state))
    end, _ = play_to_end(world, seed)
    assert is_terminal(end)


@pytest.mark.slow
@given(st.data())
def test_determinize_from_a_view_document(data: st.DataObject) -> None:
    """A view that went through JSON is enough to sample a world (no state needed)."""
    state, _, _ = data.draw(played(max_steps=300))
    seat = _seat(state, data.draw)
    view = view_from_json(observe(state, seat).to_json())
    world = determinize(view, seat, random.Random(data.draw(st.integers(0, 2**32))))
    assert observe(world, seat) == observe(state, seat)
    assert card_total(world) == FULL_DECK


def test_determinize_resamples_only_what_is_hidden() -> None:
    """Samples differ from one another in hidden parts (they are drawn, not copied)."""
    state = _first_tunnel(seed=11)
    worlds = [determinize(state, 0, seed) for seed in range(20)]
    assert len({w.draw_pile for w in worlds}) > 1
    assert len({w.players[1].hand for w in worlds}) > 1
    assert len({w.rng for w in worlds}) > 1
    assert all(w.players[0] == state.players[0] for w in worlds)


def test_determinize_follows_the_deal_r8_r9() -> None:
    """R8/R9: long tickets never reach the deck in Europe, a seat holds at most its one long
    ticket, the rest of the long ones are in the box; each split occurs in some sample."""
    state = new_game("europe", "base", 2, seed=4)
    while state.phase is not Phase.TURN:
        state = apply(state, legal_actions(state)[0])  # keep two, the rest go to the box
    longs = set(state.rules.variant.long_pool)
    held = Counter[int]()
    for seed in range(200):
        world = determinize(state, 0, seed)
        assert not longs & set(world.ticket_deck)
        n = len(longs & set(world.players[1].tickets))
        assert n <= state.rules.variant.deal_long
        assert len(longs & set(world.box)) == len(longs) - n - len(
            longs & set(state.players[0].tickets)
        )
        held[n] += 1
    assert set(held) == {0, 1}, held


def test_determinize_deals_unseen_cards_evenly() -> None:
    """Each unseen card is as likely to be in the opponent's hand as in the pile."""
    state = new_game("europe", "base", 2, seed=8)
    view = observe(state, 0)
    unseen = unseen_cards(view)
    counts = Counter[int]()
    runs = 400
    for seed in range(runs):
        counts.update(determinize(state, 0, seed).players[1].hand.kinds())
    hand = state.players[1].hand.total
    for kind in range(9):
        expected = runs * hand * unseen[kind] / unseen.total
        assert abs(counts[kind] - expected) < 5 * expected**0.5 + 2, (kind, counts, expected)


def test_determinize_refuses_another_seats_view() -> None:
    state = new_game("usa", "base", 3, seed=2)
    with pytest.raises(SetupError):
        determinize(observe(state, 1), 0, 1)


def test_determinize_refuses_an_impossible_view() -> None:
    """A view showing more cards than exist, or too few hidden places, is a DataError."""
    view = observe(new_game("europe", "base", 2, seed=3), 0)
    too_many = attrs.evolve(view, discard=FULL_DECK)
    with pytest.raises(DataError):
        determinize(too_many, 0, 1)
    wrong_pile = attrs.evolve(view, pile_size=view.pile_size + 1)
    with pytest.raises(DataError):
        determinize(wrong_pile, 0, 1)


def test_view_document_round_trip() -> None:
    state = _first_tunnel(seed=21)
    for seat in (*range(state.rules.players), None):
        view = observe(state, seat)
        assert isinstance(view, View)
        assert view_from_json(view.to_json()) == view
        assert all(k == NO_CARD or 0 <= k < 9 for k in view.row)
