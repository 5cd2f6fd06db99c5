"""The fast paths give the same answers as the plain definitions they replace.

- ``_payments.kind_counts`` (cached per colour group) against ``count_payments`` per route kind;
- ``_payments.nth_payment`` against the list ``payments`` builds;
- ``ActionCodec.mask_bytes`` (runs of codes from the route-kind tables) against encoding every
  legal action;
- ``action in legal_actions(state)`` (one ``is_legal`` check) against a scan of the list;
- ``GameState.create`` against the closed masks derived from the owners;
- the reducer's builders ``new_state``/``new_player`` against the attrs constructors;
- tunnel claims and withdrawals without a ``Table`` against the same moves on a ``Table``;
- ``paths.Network`` components against networkx's components of ``player_graph``;
- a claim just taken from ``legal_actions(state)`` and applied to that state (not checked
  again) against an equal claim that is checked;
- the longest-trail search that trusts its quick search when that one is exact against always
  running the branch and bound after it.
"""

from __future__ import annotations

import copy
import pickle
import random
from typing import Any

import attrs
import networkx as nx  # type: ignore[import-untyped]
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from strategies import map_regions
from ttr_europe import _payments as payments
from ttr_europe import rules
from ttr_europe.actions import ClaimRoute, WithdrawTunnel
from ttr_europe.cards import KINDS, LOCOMOTIVE, Cards
from ttr_europe.codec import codec_for, legal_action_mask, legal_action_mask_bytes
from ttr_europe.data import load_map
from ttr_europe.errors import IllegalActionError
from ttr_europe.events import Event
from ttr_europe.paths import Edge, Network, Trail, _adjacency, _Search, player_graph
from ttr_europe.rules import apply, is_legal, is_terminal, legal_actions, new_game
from ttr_europe.state import (
    GameState,
    Phase,
    PlayerState,
    closed_masks,
    new_player,
    new_state,
)
from ttr_europe.testing.strategies import near_miss_actions, played

hands = st.lists(st.integers(0, 14), min_size=KINDS, max_size=KINDS).map(Cards)


@given(hands, st.sampled_from([None, *range(KINDS)]), st.integers(1, 9), st.integers(0, 3))
def test_nth_and_count_payments_agree_with_the_list(
    hand: Cards, colour: int | None, length: int, ferry: int
) -> None:
    listed = payments.payments(colour, length, ferry, hand)
    assert payments.count_payments(colour, length, ferry, hand) == len(listed)
    assert [payments.nth_payment(colour, length, ferry, hand, i) for i in range(len(listed))] == [
        *listed
    ]
    for beyond in (-1, len(listed)):
        with pytest.raises(IndexError):
            payments.nth_payment(colour, length, ferry, hand, beyond)


@given(hands, st.sampled_from(["europe", "usa"]))
def test_kind_counts_are_count_payments_per_route_kind(hand: Cards, map_id: str) -> None:
    board = load_map(map_id)
    expected = [
        (kind, n)
        for kind in board.route_kinds
        if (n := payments.count_payments(kind.colour, kind.length, kind.ferry, hand))
    ]
    found = payments.kind_counts(board, hand)
    assert [(kind, n) for kind, n, _ in found] == expected
    for kind, n, options in found:
        assert options is None or options == payments.payments(
            kind.colour, kind.length, kind.ferry, hand
        )
        assert n == len(payments.payments(kind.colour, kind.length, kind.ferry, hand))


def test_r28_r31_tunnel_extra_checks_name_their_rule() -> None:
    red, loco = 0, LOCOMOTIVE
    assert payments.pays_tunnel_extra(Cards.of(red=1, loco=1), red, 2) is None
    assert payments.pays_tunnel_extra(Cards.of(red=1), red, 2)[0] == "R28"  # type: ignore[index]
    assert payments.pays_tunnel_extra(Cards.of(red=1), loco, 1)[0] == "R30"  # type: ignore[index]
    assert payments.pays_tunnel_extra(Cards.of(blue=1), red, 1)[0] == "R29"  # type: ignore[index]
    assert payments.tunnel_extra_payments(loco, 2, Cards.of(red=5, loco=2)) == (Cards.of(loco=2),)


def _late_game_states(map_id: str, players: int, seed: int) -> list[GameState]:
    """Every turn start of one random game, hands growing towards the end."""
    state = new_game(map_id, players=players, seed=seed)
    rng = random.Random(seed)
    found = []
    while not is_terminal(state):
        found.append(state)
        options = legal_actions(state)
        state = apply(state, options[rng.randrange(len(options))])
    return found


def _codes(state: GameState) -> bytearray:
    codec = codec_for(state.rules.map, state.rules.variant.id)
    out = bytearray(codec.size)
    for code in codec.legal_codes(state):
        out[code] = 1
    return out


@pytest.mark.slow
@given(played())
def test_mask_bytes_mark_exactly_the_encoded_legal_actions(sample: Any) -> None:
    state = sample[0]
    mask = legal_action_mask_bytes(state)
    assert mask == _codes(state)
    assert legal_action_mask(state) == [b == 1 for b in mask]


def test_mask_bytes_on_every_position_of_whole_games() -> None:
    """Tunnels, stations, ticket choices and big late-game hands, on both maps."""
    for map_id, players, seed in (("europe", 2, 3), ("europe", 5, 4), ("usa", 3, 5)):
        for state in _late_game_states(map_id, players, seed):
            assert legal_action_mask_bytes(state) == _codes(state)


@pytest.mark.slow
@given(played(), st.data())
def test_membership_is_the_scan_of_the_list(sample: Any, data: st.DataObject) -> None:
    state = sample[0]
    legal = legal_actions(state)
    listed = list(legal)
    action = data.draw(st.one_of(near_miss_actions(state), st.sampled_from(listed or [None])))
    assert (action in legal) == (action in listed) == is_legal(state, action)


@pytest.mark.slow
@given(played())
def test_create_derives_the_closed_masks(sample: Any) -> None:
    state = sample[0]
    rebuilt = GameState.create(
        rules=state.rules,
        phase=state.phase,
        current=state.current,
        first_player=state.first_player,
        players=state.players,
        pile=state.pile,
        pile_top=state.pile_top,
        row=state.row,
        discard=state.discard,
        ticket_deck=state.ticket_deck,
        box=state.box,
        owners=state.owners,
        tunnel=state.tunnel,
        rng=state.rng,
        final_turns=state.final_turns,
        passes=state.passes,
    )
    assert rebuilt == state
    assert state.closed == closed_masks(state.rules, state.owners)


@given(st.lists(st.tuples(st.integers(0, 12), st.integers(0, 12), st.integers(1, 6)), max_size=30))
def test_network_components_are_networkx_components(links: list[tuple[int, int, int]]) -> None:
    edges = [(r, a, b, n) for r, (a, b, n) in enumerate(links) if a != b]
    network = Network(edges)
    by_label: dict[int, set[int]] = {}
    for city, label in network.label.items():
        by_label.setdefault(label, set()).add(city)
    expected = sorted(map(sorted, nx.connected_components(player_graph(edges))))
    assert sorted(map(sorted, by_label.values())) == expected
    assert all(label == min(group) for label, group in by_label.items())


def test_builders_make_the_objects_the_attrs_constructors_make() -> None:
    """Same class, fields, equality, hash, repr, pickling, copying, ``evolve`` and frozenness."""
    state = new_game("europe", players=3, seed=5)
    for _ in range(40):
        acts = legal_actions(state)
        state = apply(state, acts[len(acts) // 2])
    for obj, build in ((state, new_state), (state.players[0], new_player)):
        cls = type(obj)
        values = [getattr(obj, f.name) for f in attrs.fields(cls)]
        built, plain = build(*values), cls(*values)
        assert type(built) is cls and built is not plain
        assert attrs.astuple(built, recurse=False) == attrs.astuple(plain, recurse=False)
        assert built == plain and hash(built) == hash(plain) and repr(built) == repr(plain)
        assert pickle.loads(pickle.dumps(built)) == plain
        assert copy.deepcopy(built) is built
        first = attrs.fields(cls)[1].name
        assert attrs.evolve(built, **{first: getattr(plain, first)}) == plain
        with pytest.raises(attrs.exceptions.FrozenInstanceError):
            setattr(built, first, None)
    assert isinstance(state.players[0], PlayerState) and type(state) is GameState


def test_tunnels_without_a_table_are_the_moves_on_a_table() -> None:
    """Every tunnel claim and withdrawal of random Europe games that takes the fast path gives
    the state and the events the general path builds on a ``Table`` (R28-R31, R35, D31)."""
    seen = {"claim": 0, "pending": 0, "withdraw": 0}
    for seed in range(12):
        state = new_game("europe", players=3, seed=seed)
        rng = random.Random(seed)
        while not is_terminal(state):
            acts = legal_actions(state)
            for action in acts:
                if isinstance(action, ClaimRoute):
                    r = state.map.route_index[action.route]
                    tunnel = state.map.routes[r].tunnel
                    if tunnel and rules.NO_CARD not in state.row and rules._pile_reveals(state):
                        hand = state.player.hand.minus(action.payment)
                        fast_events: list[Event] = []
                        table_events: list[Event] = []
                        fast = rules._tunnel_from_pile(state, action, r, hand, fast_events)
                        slow = rules._claim_with_table(state, action, r, hand, table_events)
                        assert (fast, fast_events) == (slow, table_events)
                        seen["claim"] += 1
                        seen["pending"] += fast.tunnel is not None
                        break
            if isinstance(state.tunnel, rules.PendingTunnel) and rules.NO_CARD not in state.row:
                fast = apply(state, WithdrawTunnel())
                assert fast == rules._withdraw_with_table(state, None)
                seen["withdraw"] += 1
            state = apply(state, acts[rng.randrange(len(acts))])
    assert min(seen.values()) > 0, seen


def test_a_listed_claim_skips_its_check_only_in_its_own_state() -> None:
    applied = checked = 0
    for seed in range(12):
        state = new_game("usa" if seed % 2 else "europe", players=2 + seed % 4, seed=seed)
        rng = random.Random(seed)
        while not is_terminal(state):
            legal = legal_actions(state)
            action = legal[rng.randrange(len(legal))]
            if isinstance(action, ClaimRoute):
                again = ClaimRoute(action.route, Cards(action.payment))  # equal, not the same
                assert again is not action and again == action
                assert apply(state, action) == apply(state, again)
                applied += 1
                after = apply(state, action)
                if after.phase is Phase.TURN:  # the same object in another state is checked
                    with pytest.raises(IllegalActionError, match="R23"):
                        apply(after, action)  # the route is taken now
                    checked += 1
            state = apply(state, action)
    assert applied > 50 and checked > 50


class _PlainSearch(_Search):
    """The search without its shortcuts: the quick search never stops at the bound, and the
    branch and bound always runs after it."""

    def run(self) -> Trail:
        odd = 0
        for f in self.flip:
            odd ^= f
        first, _ = self._quick(odd, self.total + 1)
        self.best = first.length
        self._branch(0, 0, odd, 0, 2)
        return self._result(first)


@given(map_regions(4, 30))
def test_the_trail_search_shortcuts_return_the_trail_of_the_plain_search(edges: list[Edge]) -> None:
    """Connected pieces of the real maps with four or more odd cities, up to every route of a
    45-train network, where the quick search is exact, stops at its bound or runs out."""
    group = sorted(edges)
    adjacency, degree = _adjacency(group)
    assume(sum(d % 2 for d in degree.values()) >= 4)  # else an Euler trail, no search
    fast = _Search(group, adjacency, degree).run()
    assert fast == _PlainSearch(group, adjacency, degree).run()
