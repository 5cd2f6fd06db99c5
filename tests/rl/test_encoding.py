"""Observation vectors (``rl/encoding.py``): the layout, a worked example, what a seat cannot see
(the memory of public hands: rl/test_memory.py, masks: rl/test_mask.py)."""

from __future__ import annotations

import random

import pytest

np = pytest.importorskip("numpy")

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from strategies import CONFIGS, played  # noqa: E402
from ttr_europe import (  # noqa: E402
    PendingTunnel,
    Phase,
    SetupError,
    apply,
    determinize,
    load_map,
    new_game,
)
from ttr_europe.cards import FULL_DECK  # noqa: E402
from ttr_europe.errors import BadArgumentError  # noqa: E402
from ttr_europe.rl import (  # noqa: E402
    ENCODING_VERSION,
    PublicHands,
    action_mask,
    encode,
    encode_view,
    layout_for,
)
from ttr_europe.rl.encoding import encoder_for  # noqa: E402
from ttr_europe.testing import cards, scenario  # noqa: E402
from ttr_europe.views import observe  # noqa: E402

# --------------------------------------------------------------------------- layout


def test_layout_names_every_entry_once_in_order() -> None:
    layout = layout_for("europe", "base")
    at = 0
    for name, shape, start, stop in layout.describe():
        assert start == at, name
        assert stop - start == int(np.prod(shape)), name
        at = stop
    assert at == layout.size == layout.high.shape[0]
    assert ENCODING_VERSION == 1
    # Europe: 101 routes, 47 cities, 101 tickets, five seats, five face-up slots, offers of 4.
    assert layout.shapes["route_owners"] == (101, 5)
    assert layout.shapes["station_owners"] == (47, 5)
    assert layout.shapes["offer"] == (4, 101)
    assert layout.shapes["row"] == (5, 10)
    assert layout.size == 1645


@pytest.mark.parametrize(("map_id", "variant"), CONFIGS)
def test_size_is_fixed_per_map_and_variant_at_any_player_count(map_id: str, variant: str) -> None:
    layout = layout_for(map_id, variant)
    v = load_map(map_id).variants[variant]
    for players in range(v.min_players, v.max_players + 1):
        state = new_game(map_id, variant, players, seed=players)
        for seat in range(players):
            obs = encode(state, seat)
            assert obs.shape == (layout.size,) and obs.dtype == np.float32
            assert (obs >= 0).all() and (obs <= layout.high).all()
            assert layout.part(obs, "player_count")[players - 1] == 1


def test_unknown_variant_and_bad_seat_are_refused() -> None:
    with pytest.raises(SetupError, match="no variant"):
        layout_for("europe", "nope")
    state = new_game("europe", "base", 2, seed=1)
    with pytest.raises(SetupError, match="no seat 2"):
        encode(state, 2)
    with pytest.raises(SetupError, match="no seat"):
        encode(state, True)  # type: ignore[arg-type]
    usa = layout_for("usa", "base")
    from ttr_europe.rl.encoding import Encoder

    with pytest.raises(SetupError, match="europe/base, not usa/base"):
        Encoder(usa).encode(state, 0)


# --------------------------------------------------------------------------- worked example


def test_worked_example_reads_each_part_from_the_observer() -> None:
    state = scenario(
        players=3,
        current=1,
        first_player=2,
        hands={0: "2red+1loco", 1: "3blue", 2: "1green"},
        row="red blue loco red green",
        discard="2pink",
        owners={"Amsterdam-Bruxelles": 0, "Bruxelles-Paris-red": 2},
        stations={1: ["Wien"]},
        tickets={1: ["Amsterdam-Pamplona"]},
        offers={1: ["Brest-Marseille", "Zurich-Budapest"]},
        phase=Phase.CHOOSE_TICKETS,
        final_turns=2,
    )
    board = state.map
    layout = layout_for(board, "base")
    obs = encode(state, 1)
    part = layout.part
    assert part(obs, "hand").tolist() == list(cards("3blue"))
    assert part(obs, "discard").tolist() == list(cards("2pink"))
    assert part(obs, "pile_size")[0] == state.pile_size
    # Seats counted from the observer: 1 -> 0, 2 -> 1, 0 -> 2.
    assert part(obs, "hand_sizes").tolist() == [3, 1, 3, 0, 0]
    assert part(obs, "trains")[2] == state.players[0].trains
    assert part(obs, "ticket_counts").tolist() == [1, 0, 0, 0, 0]
    assert part(obs, "offer_counts").tolist() == [2, 0, 0, 0, 0]
    assert part(obs, "current").tolist() == [1, 0, 0, 0, 0]
    assert part(obs, "first_player").tolist() == [0, 1, 0, 0, 0]
    assert part(obs, "phase")[Phase.CHOOSE_TICKETS] == 1 and part(obs, "phase").sum() == 1
    owners = part(obs, "route_owners")
    assert owners[board.route_index["Amsterdam-Bruxelles"]].tolist() == [0, 0, 1, 0, 0]
    assert owners[board.route_index["Bruxelles-Paris-red"]].tolist() == [0, 1, 0, 0, 0]
    assert owners.sum() == 2
    closed = part(obs, "route_closed")
    assert closed[board.route_index["Amsterdam-Bruxelles"]] == 1
    assert closed[board.route_index["Bruxelles-Paris-yellow"]] == 1  # R26: under 4 players
    assert closed[board.route_index["Amsterdam-Essen"]] == 0
    assert closed.sum() == 3
    assert part(obs, "station_owners")[board.city_index["Wien"]].tolist() == [1, 0, 0, 0, 0]
    assert part(obs, "stations_left").tolist() == [2, 3, 3, 0, 0]
    assert np.flatnonzero(part(obs, "tickets")).tolist() == [
        board.ticket_index["Amsterdam-Pamplona"]
    ]
    offer = part(obs, "offer")
    assert offer[0, board.ticket_index["Brest-Marseille"]] == 1
    assert offer[1, board.ticket_index["Zurich-Budapest"]] == 1
    assert offer.sum() == 2
    row = part(obs, "row")
    assert [int(np.argmax(slot)) for slot in row] == [0, 4, 8, 0, 3]
    assert part(obs, "last_round")[0] == 1 and part(obs, "final_turns")[0] == 2
    # Seat 0 sees none of seat 1's secrets.
    other = encode(state, 0)
    assert part(other, "hand").tolist() == list(cards("2red+1loco"))
    assert part(other, "tickets").sum() == 0 and part(other, "offer").sum() == 0


def test_a_pending_tunnel_is_encoded() -> None:
    board = load_map("europe")
    route = board.route_index["Marseille-Zurich"]
    tunnel = PendingTunnel(route, cards("2green"), (3, 8, 0), 3, 2)
    state = scenario(phase=Phase.TUNNEL, hands={0: "1green+1loco"}, tunnel=tunnel, check=False)
    layout = layout_for(board, "base")
    obs = encode(state, 1)
    assert layout.part(obs, "tunnel_route")[route] == 1
    assert layout.part(obs, "tunnel_colour")[3] == 1
    assert layout.part(obs, "tunnel_laid").tolist() == list(cards("2green"))
    assert layout.part(obs, "tunnel_revealed").tolist() == list(cards("1red+1green+1loco"))
    assert layout.part(obs, "tunnel_extra")[0] == 2


def test_seat_relative_one_policy_plays_any_seat() -> None:
    """A position and the same position with the seats turned encode alike for the mover."""
    common = {"row": "red blue loco red green", "discard": "1pink"}
    a = scenario(
        players=2,
        current=0,
        hands={0: "2red", 1: "4blue"},
        owners={"Amsterdam-Bruxelles": 0, "Amsterdam-Essen": 1},
        **common,
    )
    b = scenario(
        players=2,
        current=1,
        first_player=1,
        hands={1: "2red", 0: "4blue"},
        owners={"Amsterdam-Bruxelles": 1, "Amsterdam-Essen": 0},
        pile=a.draw_pile,
        **common,
    )
    assert np.array_equal(encode(a, 0), encode(b, 1))


# --------------------------------------------------------------------------- hidden facts


@pytest.mark.slow
@settings(max_examples=30)
@given(played(max_steps=300), st.integers(0, 4), st.integers(0, 2**32))
def test_encoding_does_not_depend_on_what_the_seat_cannot_see(game, seat_pick, seed) -> None:
    state, _, _ = game
    seat = seat_pick % state.rules.players
    world = determinize(state, seat, random.Random(seed))
    assert np.array_equal(encode(state, seat), encode(world, seat))


def _replayed(setup: dict, actions: list) -> tuple[object, PublicHands]:
    state = new_game(**setup)
    memory = PublicHands.start(state.rules.players)
    for action in actions:
        memory = memory.after(state, action)
        state = apply(state, action)
    return state, memory


@pytest.mark.slow
@settings(max_examples=30)
@given(played(max_steps=300))
def test_a_view_encodes_as_its_state_does(game) -> None:
    _, actions, setup = game
    state, memory = _replayed(setup, actions)
    layout = layout_for(state.map, state.rules.variant.id)
    for seat in range(state.rules.players):
        obs = encode(state, seat, memory)
        assert (obs <= layout.high).all()
        assert np.array_equal(encode_view(observe(state, seat), memory), obs)
        assert np.array_equal(encode_view(observe(state, seat)), encode(state, seat))


def test_views_that_cannot_be_encoded_are_refused() -> None:
    state = new_game("europe", "base", 2, seed=1)
    with pytest.raises(SetupError, match="spectator"):
        encode_view(observe(state, None))
    usa = new_game("usa", "base", 2, seed=1)
    with pytest.raises(SetupError, match="usa/base, not europe/base"):
        encoder_for(state.map, "base").encode_view(observe(usa, 0))


@pytest.mark.parametrize(
    ("call", "match"),
    [
        (lambda s: encode(None, 0), "encode: state must be a GameState, got None"),  # type: ignore[arg-type]
        (lambda s: encode(observe(s, 0), 0), "encode: state must be a GameState, got a View"),  # type: ignore[arg-type]
        (encode_view, "encode_view: view must be a View, got a GameState"),  # type: ignore[arg-type]
        (lambda s: encode_view(observe(s, 0), map=7), "map must be a map name or a Map"),  # type: ignore[arg-type]
        (lambda s: encode(s, 0, PublicHands.start(2)), "PublicHands of 3 seats, got one of 2"),
        (lambda s: encode(s, 0, PublicHands.start(5)), "PublicHands of 3 seats, got one of 5"),
        (lambda s: encode(s, 0, "memory"), "PublicHands of 3 seats, got a str"),  # type: ignore[arg-type]
        (lambda s: encode_view(observe(s, 1), PublicHands.start(2)), "PublicHands of 3 seats"),
        (lambda s: encoder_for(s.map, "base").encode(s, 0, out=np.zeros(3, np.float32)),
         "out must be a float32 vector"),
        (lambda s: encoder_for(s.map, "base").encode(s, 0, out=np.zeros(1645)),
         "out must be a float32 vector"),
        (lambda s: action_mask(None), "action_mask: state must be a GameState, got None"),  # type: ignore[arg-type]
        (lambda s: action_mask(s, "codec"), "codec must be an ActionCodec or None, got a str"),  # type: ignore[arg-type]
        (lambda s: encode_view([1]), "encode_view: view must be a View, got a list"),  # type: ignore[arg-type]
    ],
)  # fmt: skip
def test_wrong_arguments_are_named_not_met_deep_inside(call, match: str) -> None:
    """Every public entry point of ``rl`` answers a wrong argument with a typed error
    (docs/robustness.md), not an AttributeError or IndexError from inside."""
    state = new_game("europe", "base", 3, seed=1)
    with pytest.raises(BadArgumentError, match=match):
        call(state)


def test_one_encoder_serves_a_map_and_variant() -> None:
    """Building an encoder costs its layout: every call for a map and variant shares one."""
    board = load_map("europe")
    assert encoder_for(board, "base") is encoder_for(board, "base")


def test_full_deck_bounds_the_card_parts() -> None:
    layout = layout_for("europe", "base")
    assert layout.part(layout.high, "hand").tolist() == list(FULL_DECK)
