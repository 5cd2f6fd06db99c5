"""Views, determinization, JSON, notation, records and codes, checked from the outside.

Views (R52, D20) must hide every secret and change with every public fact; worlds sampled from a
view must be states the state reader accepts; readers must refuse anything no game can reach
with a ``DataError`` (``ActionParseError`` for typed moves); codes must match legality exactly.
"""

from __future__ import annotations

import copy
import json
import random
import time
from collections.abc import Iterator
from typing import Any

import attrs
import pytest
from hypothesis import given, note
from hypothesis import strategies as st

from strategies import CONFIGS, assert_invariants, played
from ttr_europe import (
    Action,
    BuildStation,
    ClaimRoute,
    DrawFaceUp,
    GameState,
    KeepTickets,
    PayTunnel,
    Phase,
    apply,
    is_legal,
    is_terminal,
    legal_actions,
    load_map,
    new_game,
)
from ttr_europe.cards import Cards
from ttr_europe.codec import codec_for, legal_action_mask
from ttr_europe.errors import ActionParseError, DataError, MalformedActionError
from ttr_europe.jsonio import (
    state_from_json,
    state_to_json,
    view_from_json,
)
from ttr_europe.notation import parse_action
from ttr_europe.records import GameRecord, iter_replay, read_playthrough
from ttr_europe.scoring import score
from ttr_europe.state import NO_CARD
from ttr_europe.views import View, determinize, observe


def _play(
    map_id: str, variant: str, players: int, seed: int, until: Phase | None = None, **opts: Any
) -> GameState:
    """A seeded random game, stopped at the first state in phase ``until`` (or at the end)."""
    rng = random.Random(seed)
    state = new_game(map_id, variant, players, seed=seed, **opts)
    while not is_terminal(state) and state.phase is not until:
        legal = legal_actions(state)
        state = apply(state, legal[rng.randrange(len(legal))])
    return state


def _phases_of_a_game(
    map_id: str, variant: str, players: int, seed: int, **opts: Any
) -> Iterator[GameState]:
    rng = random.Random(seed)
    state = new_game(map_id, variant, players, seed=seed, **opts)
    yield state
    while not is_terminal(state):
        legal = legal_actions(state)
        state = apply(state, legal[rng.randrange(len(legal))])
        yield state


def _strings(doc: Any) -> Iterator[str]:
    """Every string of a JSON document, keys included."""
    if isinstance(doc, str):
        yield doc
    elif isinstance(doc, dict):
        for key, value in doc.items():
            yield key
            yield from _strings(value)
    elif isinstance(doc, list):
        for value in doc:
            yield from _strings(value)


def _world_is_valid(world: GameState, seat: int | None, view: View, *, honest: bool) -> None:
    """A sampled world: the reader accepts it, the seat sees the view and play goes on. For a
    view of a real state, the engine's invariants hold too and the world can be scored."""
    assert state_from_json(json.loads(json.dumps(state_to_json(world)))) == world
    assert observe(world, seat) == view
    if not is_terminal(world):
        legal = legal_actions(world)
        assert len(legal) > 0
        assert sum(legal_action_mask(world)) == len(legal)
        apply(world, legal[len(legal) // 2])
    if honest:
        assert_invariants(world)
        score(world)


# --------------------------------------------------------------------------- views (R52, D20)


@pytest.mark.slow
@given(played(), st.data())
def test_r52_view_documents_name_no_hidden_ticket_and_no_generator_state(
    sample: tuple[GameState, Any, Any], data: st.DataObject
) -> None:
    """R52: the JSON of a seat's view never names a ticket that seat cannot see (other hands
    and offers before the end, the deck, the box), nor the generator state."""
    state = sample[0]
    board = state.rules.map
    seat = data.draw(st.sampled_from([None, *range(state.rules.players)]))
    over = state.phase is Phase.GAME_OVER
    hidden = {*state.ticket_deck, *state.box}
    for p, player in enumerate(state.players):
        if p != seat:
            hidden.update(player.offer)
            if not over:
                hidden.update(player.tickets)
    route_ids = {r.id for r in board.routes}  # a 1912 ticket id can equal a route id
    hidden_ids = {board.tickets[t].id for t in hidden} - route_ids
    doc = observe(state, seat).to_json()
    strings = set(_strings(doc))
    assert not strings & hidden_ids
    assert f"{state.rng:016x}" not in strings
    assert "pile" not in doc and "ticket_deck" not in doc and "box" not in doc


def _public_changes(state: GameState) -> Iterator[tuple[str, GameState]]:
    """The same position with one public fact changed (R52): each must show in every view."""
    board = state.rules.map
    p0 = state.players[0]
    yield (
        "score",
        attrs.evolve(state, players=(attrs.evolve(p0, score=p0.score + 1), *state.players[1:])),
    )
    yield (
        "trains",
        attrs.evolve(state, players=(attrs.evolve(p0, trains=p0.trains - 1), *state.players[1:])),
    )
    free = next(
        c for c in range(len(board.cities)) if all(c not in p.stations for p in state.players)
    )
    if state.rules.variant.stations:
        yield (
            "station",
            attrs.evolve(
                state, players=(attrs.evolve(p0, stations=(*p0.stations, free)), *state.players[1:])
            ),
        )
    owners = list(state.owners)
    r = owners.index(-1)
    owners[r] = 0
    yield "owner", attrs.evolve(state, owners=tuple(owners))
    if state.pile_size:
        top = state.draw_pile[0]
        moved = attrs.evolve(
            state, pile_top=state.pile_top + 1, discard=state.discard.add_kind(top)
        )
        yield "pile to discard", moved
        yield (
            "pile to hand",
            attrs.evolve(
                state,
                pile_top=state.pile_top + 1,
                players=(attrs.evolve(p0, hand=p0.hand.add_kind(top)), *state.players[1:]),
            ),
        )
    row = list(state.row)
    s = next((i for i, k in enumerate(row) if k != NO_CARD), None)
    if s is not None:
        row[s] = (row[s] + 1) % 9
        yield "row", attrs.evolve(state, row=tuple(row))
    if state.ticket_deck:
        yield (
            "deck size",
            attrs.evolve(
                state, ticket_deck=state.ticket_deck[1:], box=(*state.box, state.ticket_deck[0])
            ),
        )
    yield "passes", attrs.evolve(state, passes=state.passes + 1)
    yield "final turns", attrs.evolve(state, final_turns=state.final_turns + 2)
    yield "current", attrs.evolve(state, current=(state.current + 1) % state.rules.players)
    yield (
        "first player",
        attrs.evolve(state, first_player=(state.first_player + 1) % state.rules.players),
    )
    if state.tunnel is not None:
        t = state.tunnel
        yield "tunnel", attrs.evolve(state, tunnel=attrs.evolve(t, extra=t.extra + 1))
    yield (
        "option",
        attrs.evolve(
            state,
            rules=attrs.evolve(
                state.rules, tiebreak_path_length=not state.rules.tiebreak_path_length
            ),
        ),
    )


@pytest.mark.slow
@given(played())
def test_r52_every_public_fact_shows_in_every_view(sample: tuple[GameState, Any, Any]) -> None:
    """R52, D20: change one public fact and every seat's view, and the spectator's, changes."""
    state = sample[0]
    for what, other in _public_changes(state):
        for seat in (None, *range(state.rules.players)):
            assert observe(other, seat) != observe(state, seat), (what, seat)
            assert observe(other, seat).to_json() != observe(state, seat).to_json(), (what, seat)


@pytest.mark.slow
@given(played())
def test_r52_own_secrets_show_only_to_their_holder(sample: tuple[GameState, Any, Any]) -> None:
    """R52: a change of seat 0's hand (same size) or of its ticket choice shows in seat 0's view
    only; after the end the tickets show to everyone (R47.2)."""
    state = sample[0]
    board = state.rules.map
    p0 = state.players[0]
    n = state.rules.players
    if p0.hand.total and state.pile_size:
        k = next(k for k in range(9) if p0.hand[k])
        top = state.draw_pile[0]
        if top != k:
            swapped = attrs.evolve(
                state,
                pile=(k, *state.draw_pile[1:]),
                pile_top=0,
                players=(
                    attrs.evolve(p0, hand=p0.hand.add_kind(k, -1).add_kind(top)),
                    *state.players[1:],
                ),
            )
            assert observe(swapped, 0) != observe(state, 0)
            for seat in (None, *range(1, n)):
                assert observe(swapped, seat) == observe(state, seat)
    if p0.tickets and state.ticket_deck:
        t = p0.tickets[0]
        u = state.ticket_deck[0]
        if board.tickets[t].long == board.tickets[u].long:
            swapped = attrs.evolve(
                state,
                ticket_deck=(t, *state.ticket_deck[1:]),
                players=(attrs.evolve(p0, tickets=(u, *p0.tickets[1:])), *state.players[1:]),
            )
            assert observe(swapped, 0) != observe(state, 0)
            for seat in (None, *range(1, n)):
                same = observe(swapped, seat) == observe(state, seat)
                assert same is (state.phase is not Phase.GAME_OVER)


# --------------------------------------------------------------------------- determinization


@pytest.mark.slow
@given(played(), st.data())
def test_determinize_gives_states_the_reader_accepts(
    sample: tuple[GameState, Any, Any], data: st.DataObject
) -> None:
    """A sampled world is a full valid state: the state reader takes it back unchanged, the
    seat sees exactly its view (D20), the cards and tickets add up, play and scoring go on."""
    state = sample[0]
    seat = data.draw(st.sampled_from([None, *range(state.rules.players)]))
    view = observe(state, seat)
    world = determinize(state, seat, data.draw(st.integers(0, 2**32)))
    _world_is_valid(world, seat, view, honest=True)
    doc = json.loads(json.dumps(view.to_json()))
    again = determinize(view_from_json(doc), seat, data.draw(st.integers(0, 2**32)))
    _world_is_valid(again, seat, view, honest=True)


@st.composite
def _semantic_faults(draw: st.DrawFn, doc: dict[str, Any]) -> dict[str, Any]:
    """A view document with well-typed but possibly impossible contents."""
    doc = copy.deepcopy(doc)
    players = doc["players"]
    n = len(players)
    for _ in range(draw(st.integers(1, 2))):
        how = draw(st.sampled_from(
            ["offer", "phase", "final", "passes", "tunnel owner", "trains", "current", "box"]
        ))  # fmt: skip
        seat = draw(st.integers(0, n - 1))
        if how == "offer" and doc["ticket_deck_size"]:
            k = draw(st.integers(1, min(doc["ticket_deck_size"], 40)))
            doc["ticket_deck_size"] -= k
            players[seat]["offer_count"] += k
            if players[seat]["offer"] is not None:
                doc["ticket_deck_size"] += k
                players[seat]["offer_count"] -= k
        elif how == "phase":
            doc["phase"] = draw(st.sampled_from([p.name for p in Phase]))
        elif how == "final":
            doc["final_turns"] = draw(st.integers(-1, n))
        elif how == "passes":
            doc["passes"] = draw(st.integers(0, n))
        elif how == "tunnel owner" and doc["tunnel"] is not None:
            players[seat]["routes"].append(doc["tunnel"]["route"])
        elif how == "trains":
            players[seat]["trains"] = draw(st.integers(0, 3))
        elif how == "current":
            doc["current"] = seat
        elif how == "box" and doc["ticket_deck_size"]:
            doc["ticket_deck_size"] -= 1
            doc["box_size"] += 1
    return doc


@pytest.mark.slow
@given(played(max_steps=400), st.data())
def test_d20_impossible_views_are_refused_or_give_valid_worlds(
    sample: tuple[GameState, Any, Any], data: st.DataObject
) -> None:
    """A view document read back must be one some state could show: either the reader or
    ``determinize`` refuses it with a DataError, or the world it gives is a valid state."""
    state = sample[0]
    seat = data.draw(st.sampled_from([None, *range(state.rules.players)]))
    doc = data.draw(_semantic_faults(observe(state, seat).to_json()))
    try:
        view = view_from_json(doc)
        world = determinize(view, seat, 0)
    except DataError as exc:
        note(str(exc))
        return
    _world_is_valid(world, seat, view, honest=False)


def _view_doc(map_id: str, until: Phase, seed: int, seat: int | None = 0) -> dict[str, Any]:
    state = _play(map_id, "base", 3, seed, until)
    if until is Phase.TURN:  # a turn some way into the game, not the very first
        rng = random.Random(seed)
        for _ in range(9):
            state = apply(state, legal_actions(state)[rng.randrange(len(legal_actions(state)))])
        while state.phase is not Phase.TURN:
            state = apply(state, legal_actions(state)[0])
    return observe(state, seat).to_json()


def _impossible_views() -> Iterator[tuple[str, dict[str, Any]]]:
    doc = _view_doc("europe", Phase.TURN, 3)
    bad = copy.deepcopy(doc)
    bad["players"][1]["offer_count"] = 3
    bad["ticket_deck_size"] -= 3
    yield "an offer outside a ticket phase", bad
    bad = copy.deepcopy(doc)
    bad["final_turns"] = 0
    yield "no final turn left but not over (R46)", bad
    bad = copy.deepcopy(doc)
    bad["passes"] = 3
    yield "every seat passed but not over (D30)", bad
    bad = copy.deepcopy(doc)
    bad["phase"] = "CHOOSE_TICKETS"
    yield "a ticket choice with no offer (R37)", bad
    tunnel = _view_doc("europe", Phase.TUNNEL, 13)
    current = tunnel["current"]
    bad = copy.deepcopy(tunnel)
    bad["players"][(current + 1) % 3]["routes"].append(tunnel["tunnel"]["route"])
    yield "a tunnel on an owned route (R23)", bad
    bad = copy.deepcopy(tunnel)
    bad["players"][current]["trains"] = 0
    yield "a tunnel without the trains for it (R22)", bad
    choose = _view_doc("europe", Phase.CHOOSE_TICKETS, 5, None)
    bad = copy.deepcopy(choose)
    bad["players"][choose["current"]]["offer_count"] += bad["ticket_deck_size"]
    bad["ticket_deck_size"] = 0
    yield "an offer larger than a draw (R37)", bad
    bad = copy.deepcopy(doc)
    bad["players"][0]["tickets"] = [*bad["players"][0]["tickets"], "Essen-Angora"]
    bad["players"][0]["ticket_count"] += 1
    bad["box_size"] -= 1
    yield "a ticket of another variant", bad


@pytest.mark.parametrize(("what", "doc"), list(_impossible_views()))
def test_d20_impossible_view_documents_are_refused(what: str, doc: dict[str, Any]) -> None:
    """Views no game can show are refused by the reader, as the same faults in a state are."""
    with pytest.raises(DataError):
        view_from_json(doc)


def test_r37_oversized_offer_in_a_state_document_is_refused() -> None:
    """R37, R9: an offer holds at most one draw (or the starting deal). A larger one would make
    the list of keep choices grow as 2 ** size, so the reader refuses it."""
    state = _play("europe", "base", 3, 5, Phase.CHOOSE_TICKETS)
    doc = state_to_json(state)
    bad = copy.deepcopy(doc)
    bad["players"][state.current]["offer"] += bad["ticket_deck"][:1]
    bad["ticket_deck"] = bad["ticket_deck"][1:]
    with pytest.raises(DataError) as info:
        state_from_json(bad)
    assert info.value.path == f"$.players[{state.current}].offer"
    start = new_game("europe", "mega", 3, seed=2)
    doc = state_to_json(start)
    assert len(doc["players"][0]["offer"]) == 7
    bad = copy.deepcopy(doc)
    bad["players"][0]["offer"] += bad["ticket_deck"][:1]
    bad["ticket_deck"] = bad["ticket_deck"][1:]
    with pytest.raises(DataError):
        state_from_json(bad)
    assert state_from_json(doc) == start


# --------------------------------------------------------------------------- JSON round trips


@pytest.mark.slow
@pytest.mark.parametrize(("map_id", "variant"), CONFIGS)
def test_every_phase_of_every_variant_round_trips(map_id: str, variant: str) -> None:
    """States of every phase, on every map and variant, with and without options, are saved
    and read back equal; so are the views of every seat. Every phase is met (TUNNEL only
    where there are tunnels)."""
    board = load_map(map_id)
    seen: set[Phase] = set()
    option_sets: list[dict[str, Any]] = [
        {},
        {"second_card_optional": True, "tiebreak_path_length": True, "reset_cap": 0},
    ]
    if variant == "mega":
        option_sets.append({"max_long_kept": 1, "bonus_at_zero": True})
    for k, opts in enumerate(option_sets):
        for seed in range(2):
            players = 2 + (seed + k) % 4
            for state in _phases_of_a_game(map_id, variant, players, 100 * k + seed, **opts):
                fresh = state.phase not in seen
                seen.add(state.phase)
                if not (fresh or state.phase in (Phase.TUNNEL, Phase.GAME_OVER)):
                    continue
                text = json.dumps(state_to_json(state))
                assert state_from_json(text) == state
                for seat in (None, *range(players)):
                    view = observe(state, seat)
                    assert view_from_json(json.dumps(view.to_json())) == view
    expected = set(Phase)
    if not any(r.tunnel for r in board.routes):
        expected.discard(Phase.TUNNEL)
    assert seen == expected


# --------------------------------------------------------------------------- notation


def _friendly(state: GameState, action: Action) -> list[str]:
    """Ways a person may type ``action`` that name it and nothing else."""
    board = state.rules.map
    out: list[str] = []
    if isinstance(action, DrawFaceUp):
        out.append(f"take {action.slot + 1}")
    elif isinstance(action, ClaimRoute):
        route = board.route(action.route)
        a, b = board.cities[route.a].name, board.cities[route.b].name
        twins = board.routes_between[frozenset((route.a, route.b))]
        if len(twins) == 1:
            out.append(f"claim {b} - {a} with {action.payment}")
            out.append(f"CLAIM {a.upper()} to {b.lower()} with {action.payment}")
    elif isinstance(action, BuildStation):
        city = board.city(action.city)
        out.append(f"build a station in {city.name} with {action.payment}")
    elif isinstance(action, KeepTickets):
        offer = state.player.offer
        places = [offer.index(board.ticket_index[t]) + 1 for t in action.tickets]
        out.append("keep " + " ".join(str(p) for p in sorted(places, reverse=True)))
    elif isinstance(action, PayTunnel):
        out.append(f"pay {action.payment}")
    return out


@pytest.mark.slow
@given(played())
def test_friendly_forms_name_the_exact_legal_action(sample: tuple[GameState, Any, Any]) -> None:
    """Each legal action read back from its text, and from friendly forms (cities by printed
    name in either order, "take", "build a station in", keep by places), is that action."""
    state = sample[0]
    legal = legal_actions(state)
    step = max(1, len(legal) // 40)
    for action in list(legal)[::step]:
        assert parse_action(state, str(action)) == action
        for text in _friendly(state, action):
            assert parse_action(state, text) == action, text


_AWKWARD = st.sampled_from(
    ["draw ²", "draw 1²", "draw ٣", "keep ١ ٢", "draw " + "9" * 5000, "keep 1 " + "2" * 5000,
     "claim Dieppe-Paris with " + "9" * 5000 + "pink", "station Wien with " + "7" * 4400 + "red",
     "pay " + "1" * 4301 + "loco", "draw ½", "keep ¹", "claim Paris-Dieppe with ²pink", "keep Ⅻ",
     "draw 0", "draw -1", "draw 99999999999999999999", "keep all all", "\x00", "claim \u200b"]
)  # fmt: skip


@pytest.mark.slow
@given(played(max_steps=300), _AWKWARD)
def test_awkward_numbers_give_a_legal_action_or_a_parse_error(
    sample: tuple[GameState, Any, Any], text: str
) -> None:
    """Digits that are not ASCII, superscripts, numbers too long for ``int``: the answer is a
    legal action or an ActionParseError, nothing else."""
    state = sample[0]
    try:
        action = parse_action(state, text)
    except ActionParseError:
        return
    assert is_legal(state, action)


def test_superscript_digit_is_a_parse_error() -> None:
    """A regression: "draw ²" passed the digit test and then failed inside ``int``."""
    state = _play("europe", "base", 2, 1, Phase.TURN)
    for text in ("draw ²", "take 1²", "draw " + "9" * 5000):
        with pytest.raises(ActionParseError):
            parse_action(state, text)


def test_long_text_is_refused_quickly() -> None:
    """A very long text is refused at once, not searched for city names in quadratic time."""
    state = _play("europe", "base", 2, 1, Phase.TURN)
    for text in ("claim " + "a-" * 50_000, "keep " + "Paris-" * 20_000, "station " + "x " * 90_000):
        start = time.perf_counter()
        with pytest.raises(ActionParseError):
            parse_action(state, text)
        assert time.perf_counter() - start < 0.5


# --------------------------------------------------------------------------- records


def _record_doc(actions: list[Any], **fields: Any) -> dict[str, Any]:
    doc = {
        "format": "ttr_europe/record", "version": 1, "map": "europe", "variant": "base",
        "players": 2, "seed": 0, "first_player": None, "options": {}, "actions": actions,
    }  # fmt: skip
    doc.update(fields)
    return doc


@pytest.mark.parametrize(
    "doc",
    [
        _record_doc(["draw " + "9" * 5000]),
        _record_doc(["claim Dieppe-Paris with " + "9" * 5000 + "pink"]),
        _record_doc(["keep " + "x" * 10, "pay " + "3" * 4400 + "red"]),
    ],
)
def test_records_with_unreadable_numbers_raise_data_errors(doc: dict[str, Any]) -> None:
    """A record whose action text holds a number too long to read is refused with a
    DataError naming the action, like any other unreadable action."""
    with pytest.raises(DataError) as info:
        GameRecord.from_json(doc)
    assert info.value.path.startswith("$.actions[")


def test_replay_of_unreadable_numbers_raises_data_errors() -> None:
    record = GameRecord(actions=("draw " + "9" * 5000,))
    with pytest.raises(DataError) as info:
        list(iter_replay(record))
    assert info.value.path == "$.actions[0]"


@pytest.mark.parametrize(
    "header",
    [
        "# map=europe variant=base players=2 seed=" + "9" * 5000 + " first_player=0",
        "# map=europe variant=base players=" + "2" * 4400 + " seed=1 first_player=0",
        "# map=europe variant=base players=2 seed=1 first_player=0 reset_cap=" + "1" * 4400,
    ],
)
def test_playthrough_headers_with_unreadable_numbers_raise_data_errors(header: str) -> None:
    with pytest.raises(DataError):
        read_playthrough(header + "\n0 (start) => x\n")


# --------------------------------------------------------------------------- action codes


@pytest.mark.slow
@given(played(max_steps=400))
def test_mask_is_exactly_legality_over_every_code(sample: tuple[GameState, Any, Any]) -> None:
    """Over the whole code space: a code is set in the mask exactly when the action it
    decodes to is legal; set codes decode to distinct actions; legal actions encode back."""
    state = sample[0]
    codec = codec_for(state.rules.map, state.rules.variant.id)
    mask = legal_action_mask(state)
    assert len(mask) == codec.size
    decoded: dict[Action, int] = {}
    for code in range(codec.size):
        try:
            action = codec.decode(code, state)
        except MalformedActionError:
            assert code in codec.blocks["keep"] and not mask[code]
            continue
        assert mask[code] == is_legal(state, action), (code, action)
        if mask[code]:
            assert action not in decoded
            decoded[action] = code
            assert codec.encode(action, state) == code
    assert set(decoded) == set(legal_actions(state))


def test_codes_cover_payments_of_every_shape() -> None:
    """R20, R27, R29, R30, R41: all-locomotive claims, ferry claims, mixed tunnel extras and
    third stations have codes, and each decodes to itself."""
    codec = codec_for(load_map("europe"), "base")
    actions: list[Action] = [
        ClaimRoute("Palermo-Smyrna", Cards.of(red=4, loco=2)),
        ClaimRoute("Palermo-Smyrna", Cards.of(loco=6)),
        ClaimRoute("Petrograd-Stockholm", Cards.of(black=1, loco=7)),
        BuildStation("Wien", Cards.of(blue=1, loco=2)),
        BuildStation("Zurich", Cards.of(loco=3)),
        PayTunnel(Cards.of(green=2, loco=1)),
        PayTunnel(Cards.of(loco=3)),
    ]
    for action in actions:
        assert codec.decode(codec.encode(action)) == action
    with pytest.raises(MalformedActionError):
        codec.encode(ClaimRoute("Palermo-Smyrna", Cards.of(red=5, loco=1)))  # R27
    with pytest.raises(MalformedActionError):
        codec.encode(BuildStation("Wien", Cards.of(red=4)))  # R41: at most 3 cards
