"""Integer action codes: a fixed layout per map and variant, exact round trips, legal masks."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, reject
from hypothesis import strategies as st

from strategies import play_to_end, played
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
    Phase,
    WithdrawTunnel,
    legal_actions,
    load_map,
    new_game,
)
from ttr_europe.cards import CARDS_PER_COLOR, LOCOMOTIVES_IN_DECK, Cards
from ttr_europe.codec import ActionCodec, codec_for, legal_action_mask
from ttr_europe.errors import MalformedActionError, SetupError
from ttr_europe.testing import scenario

CONFIGS = [(m, v) for m in ("europe", "usa") for v in load_map(m).variants]


def _claim_patterns(colour: int | None, length: int, ferry: int) -> int:
    """Payments a route admits (R20, R21, R27): one colour or locomotives, ferry symbols paid
    by locomotives, the all-locomotive payment counted once."""
    colours = 8 if colour is None else 1
    return colours * (length - ferry) + 1


def _one_colour(n: int) -> int:
    """One-colour payments of exactly ``n`` cards: each colour with 0..n-1 locos, or n locos."""
    return 8 * n + 1


@pytest.mark.parametrize(("map_id", "variant"), CONFIGS)
def test_layout_is_fixed_and_contiguous(map_id: str, variant: str) -> None:
    board = load_map(map_id)
    v = board.variants[variant]
    codec = ActionCodec(map_id, variant)
    expected = {
        "face_up": v.face_up,
        "blind": 1,
        "tickets": 1,
        "pass": 1,
        "withdraw": 1,
        "keep": 2 ** max(v.deal_long + v.deal_regular, v.draw_tickets),
        "claim": sum(_claim_patterns(r.colour, r.length, r.ferry) for r in board.routes),
        "station": len(board.cities) * sum(_one_colour(n) for n in range(1, v.stations + 1)),
        "pay": sum(_one_colour(n) for n in (1, 2, 3)) if any(r.tunnel for r in board.routes)
        else 0,
    }  # fmt: skip
    assert {name: len(codes) for name, codes in codec.blocks.items()} == expected
    assert list(codec.blocks) == list(expected)
    at = 0
    for codes in codec.blocks.values():
        assert codes.start == at
        at = codes.stop
    assert at == codec.size
    assert codec_for(board, variant).size == codec.size


def test_documented_sizes_match() -> None:
    """docs/embedding.md states the size of every codec; the table must be right."""
    doc = (Path(__file__).parents[2] / "docs" / "embedding.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| `(\w+)` \| `(\w+)` \|((?: *\d+ *\|)+)$", doc, re.MULTILINE)
    found = {(m, v): [int(x) for x in cells.split("|") if x.strip()] for m, v, cells in rows}
    assert set(found) == set(CONFIGS)
    for (m, v), numbers in found.items():
        codec = ActionCodec(m, v)
        assert numbers == [*(len(r) for r in codec.blocks.values()), codec.size], (m, v)


@pytest.mark.slow
@given(played())
def test_every_legal_action_round_trips(sample: tuple[GameState, Any, Any]) -> None:
    """Each legal action has its own code and decodes back; the mask marks exactly them."""
    state = sample[0]
    codec = codec_for(state.rules.map, state.rules.variant.id)
    legal = list(legal_actions(state))
    codes = codec.legal_codes(state)
    assert len(set(codes)) == len(codes) == len(legal)
    for action, code in zip(legal, codes, strict=True):
        assert 0 <= code < codec.size
        assert codec.decode(code, state) == action
        if not isinstance(action, KeepTickets):
            assert codec.encode(action) == code  # no state needed
            assert codec.decode(code) == action
    mask = legal_action_mask(state)
    assert len(mask) == codec.size
    assert [i for i, ok in enumerate(mask) if ok] == sorted(codes)


def test_codes_do_not_depend_on_the_position() -> None:
    codec = ActionCodec("europe", "base")
    claim = ClaimRoute("Dieppe-Paris", Cards.of(pink=1))
    code = codec.encode(claim)
    assert code in codec.blocks["claim"]
    assert codec.decode(code) == claim
    assert codec.encode(DrawFaceUp(2)) == 2
    assert codec.encode(DrawBlind()) == codec.blocks["blind"].start
    assert codec.encode(DrawTickets()) == codec.blocks["tickets"].start
    assert codec.encode(Pass()) == codec.blocks["pass"].start
    assert codec.encode(WithdrawTunnel()) == codec.blocks["withdraw"].start
    station = BuildStation("Wien", Cards.of(red=2, loco=1))
    assert codec.decode(codec.encode(station)) == station
    pay = PayTunnel(Cards.of(loco=3))
    assert codec.decode(codec.encode(pay)) == pay


def test_keep_codes_are_places_in_the_offer_r9() -> None:
    offer = ["Brest-Petrograd", "Paris-Wien", "Roma-Smyrna", "Athina-Angora"]
    state = scenario(phase=Phase.INITIAL_TICKETS, offers={0: offer}, check=False)  # R9 alone
    codec = ActionCodec("europe", "base")
    keep = KeepTickets(["Roma-Smyrna", "Brest-Petrograd"])
    code = codec.encode(keep, state)
    assert code == codec.blocks["keep"].start + 0b0101
    assert codec.decode(code, state) == keep
    with pytest.raises(MalformedActionError):
        codec.encode(keep)
    with pytest.raises(MalformedActionError):
        codec.decode(code)
    with pytest.raises(MalformedActionError):
        codec.encode(KeepTickets(["Paris-Roma"]), state)
    short = scenario(phase=Phase.CHOOSE_TICKETS, offers={0: offer[:2]}, check=False)
    with pytest.raises(MalformedActionError):
        codec.decode(codec.blocks["keep"].start + 0b0100, short)


def test_bad_codes_and_actions_are_refused() -> None:
    codec = ActionCodec("usa", "base")
    for code in (-1, codec.size, "3", 2.0):
        with pytest.raises(MalformedActionError):
            codec.decode(code)  # type: ignore[arg-type]
    for action in (
        DrawFaceUp(5),
        ClaimRoute("Dieppe-Paris", Cards.of(pink=1)),  # a Europe route
        ClaimRoute("Atlanta-Miami", Cards.of(red=1, blue=1)),  # colours mixed
        BuildStation("Atlanta", Cards.of(red=1)),  # no stations in this game
        PayTunnel(Cards.of(red=1)),  # no tunnels on this map
        "claim",
    ):
        with pytest.raises(MalformedActionError):
            codec.encode(action)  # type: ignore[arg-type]
    with pytest.raises(MalformedActionError):
        ActionCodec("usa", "mega")


def test_no_code_is_legal_once_the_game_is_over() -> None:
    state, _ = play_to_end(new_game("usa", "base", 2, seed=3), seed=3)
    assert not any(legal_action_mask(state))


@st.composite
def _positions(draw: st.DrawFn) -> GameState:
    """A turn start built by hand: any hand the deck allows (more cards of a colour and more
    locomotives than the longest route), routes owned by anyone, stations built, few trains."""
    map_id, variant = draw(st.sampled_from(CONFIGS))
    board = load_map(map_id)
    v = board.variants[variant]
    players = draw(st.integers(v.min_players, v.max_players))
    seat = draw(st.integers(0, players - 1))
    counts = [draw(st.integers(0, CARDS_PER_COLOR)) for _ in range(8)]
    hand = Cards((*counts, draw(st.integers(0, LOCOMOTIVES_IN_DECK))))
    owned = draw(st.lists(st.integers(0, len(board.routes) - 1), max_size=60, unique=True))
    owners: dict[str, int] = {}
    for r in owned:
        twin = board.routes[r].twin
        if twin is None or board.routes[twin].id not in owners:
            owners[board.routes[r].id] = draw(st.integers(0, players - 1))
    places = draw(st.lists(st.sampled_from(board.cities), max_size=3 * players, unique=True))
    stations: dict[int, list[str]] = {}
    for city in places:
        builder = draw(st.integers(0, players - 1))
        if len(stations.setdefault(builder, [])) < v.stations:
            stations[builder].append(city.id)
    try:
        return scenario(
            map_id, variant, players, seed=draw(st.integers(0, 2**16)), current=seat,
            hands={seat: hand}, owners=owners, stations=stations,
            trains={seat: draw(st.sampled_from((v.trains, 45, 8, 5, 3, 1, 0)))},
        )  # fmt: skip
    except SetupError:  # a seat drawn more routes than its trains lay: no such position
        reject()


@pytest.mark.slow
@given(_positions())
def test_the_mask_marks_exactly_the_legal_actions_of_any_turn_start(state: GameState) -> None:
    """Claims of gray and coloured routes with some routes closed, ferries, big hands, stations
    with some cities taken: the mask's tables (per count of a colour and of locomotives, per set
    of a kind's routes open) give what ``legal_actions`` lists, in a new codec and again once
    its tables have seen the position."""
    codec = ActionCodec(state.rules.map, state.rules.variant.id)
    codes = sorted(codec.legal_codes(state))
    for _ in range(2):
        mask = codec.mask_bytes(state)
        assert len(mask) == codec.size
        assert [i for i, b in enumerate(mask) if b] == codes
