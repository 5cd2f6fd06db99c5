"""Observation vectors: everything one seat may know, as a fixed-size float32 vector.

A ``Layout`` (one per map and variant, sized for the variant's most players) names every part
of the vector: ``layout.slices["hand"]`` is where the seat's hand sits, ``layout.shapes`` the
shape of each part, ``layout.high`` an upper bound of every entry (all entries are >= 0).
``encode(state, seat, memory)`` fills one; ``encode_view(view, memory)`` fills the same one from
the seat's ``View`` (what a bot receives). Seats are counted from the observer: seat offset 0 is
the observer, 1 the next to play after it, and so on, so one policy can play any seat. Parts of
seats beyond the player count stay zero.

A state alone cannot say which cards an opponent is known to hold; ``memory.PublicHands``
remembers, per seat, the cards everyone saw it take face up and has not yet seen it spend. The
environments advance it for you.

The layout is stable under ``ENCODING_VERSION``: any change to the order, the meaning or the
scale of a part bumps it. The parts are listed in docs/rl.md.

observe.c's ``encode`` (parts ``O_*``, in ``envs.batch.OBS_PARTS``'s order) mirrors ``Encoder``. The
differential tests (tests/fast/test_fast.py) keep the two alike.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from types import MappingProxyType
from typing import Any

import attrs
import numpy as np
import numpy.typing as npt

from .._guards import check_map, not_a_state
from ..board import Map
from ..cards import FULL_DECK, KINDS
from ..errors import BadArgumentError, SetupError, kind_of
from ..maps import load_map
from ..rules import TUNNEL_REVEAL
from ..state import NO_CARD, NO_OWNER, GameState, Phase
from ..views import View
from .memory import PublicHands

ENCODING_VERSION = 1
Obs = npt.NDArray[np.float32]


# --------------------------------------------------------------------------- layout

PHASES = len(Phase)
ROW_KINDS = KINDS + 1  # nine card kinds, then "empty slot"


@attrs.frozen(eq=False)
class Layout:
    """Where each named part of an observation vector lies, for one map and variant.

    ``slices[name]`` indexes the flat vector; ``shapes[name]`` is the part's shape (reshape
    ``obs[slices[name]]`` to it); ``high`` bounds every entry from above.
    """

    map: Map
    variant: str
    max_players: int
    max_offer: int
    slices: Mapping[str, slice]
    shapes: Mapping[str, tuple[int, ...]]
    size: int
    high: Obs = attrs.field(repr=False)
    dense: int = attrs.field(repr=False)  # the parts before this index are written as one list

    def part(self, obs: Obs, name: str) -> Obs:
        """The part ``name`` of ``obs``, in its shape."""
        return obs[self.slices[name]].reshape(self.shapes[name])

    def describe(self) -> list[tuple[str, tuple[int, ...], int, int]]:
        """``(name, shape, start, stop)`` of every part, in order."""
        return [(n, self.shapes[n], s.start, s.stop) for n, s in self.slices.items()]


def _parts(board: Map, variant: str) -> list[tuple[str, tuple[int, ...], Any]]:
    """Every part in order: name, shape, upper bound (a number or a per-entry list)."""
    v = board.variants[variant]
    players = v.max_players
    offer = max(v.deal_long + v.deal_regular, v.draw_tickets)
    routes, cities, tickets = len(board.routes), len(board.cities), len(board.tickets)
    deck = list(FULL_DECK)
    points = sum(board.route_points.get(r.length, 0) for r in board.routes)
    return [
        # Written as one list of numbers (the "dense" parts):
        ("hand", (KINDS,), deck),
        ("discard", (KINDS,), deck),
        ("pile_size", (1,), sum(deck)),
        ("ticket_deck_size", (1,), tickets),
        ("box_size", (1,), tickets),
        ("trains", (players,), v.trains),
        ("stations_left", (players,), v.stations),
        ("scores", (players,), points),
        ("hand_sizes", (players,), sum(deck)),
        ("ticket_counts", (players,), tickets),
        ("offer_counts", (players,), offer),
        ("public_hands", (players, KINDS), deck * players),
        ("tunnel_laid", (KINDS,), deck),
        ("tunnel_revealed", (KINDS,), TUNNEL_REVEAL),
        ("tunnel_extra", (1,), TUNNEL_REVEAL),
        ("last_round", (1,), 1),
        ("final_turns", (1,), players),
        ("passes", (1,), players),
        # One-hot parts (written by index):
        ("player_count", (players,), 1),
        ("phase", (PHASES,), 1),
        ("current", (players,), 1),
        ("first_player", (players,), 1),
        ("row", (v.face_up, ROW_KINDS), 1),
        ("route_owners", (routes, players), 1),
        ("route_closed", (routes,), 1),
        ("station_owners", (cities, players), 1),
        ("tickets", (tickets,), 1),
        ("offer", (offer, tickets), 1),
        ("tunnel_route", (routes,), 1),
        ("tunnel_colour", (KINDS,), 1),
    ]


_DENSE_LAST = "passes"


@cache
def layout_for(board: Map | str, variant: str = "base") -> Layout:
    """The layout of ``board`` and ``variant`` (built once)."""
    if isinstance(board, str):
        return layout_for(load_map(board), variant)
    if variant not in board.variants:
        raise SetupError(f"map {board.id!r} has no variant {variant!r}")
    v = board.variants[variant]
    slices: dict[str, slice] = {}
    shapes: dict[str, tuple[int, ...]] = {}
    highs: list[npt.NDArray[np.float32]] = []
    at = 0
    dense = 0
    for name, shape, bound in _parts(board, variant):
        n = int(np.prod(shape))
        slices[name] = slice(at, at + n)
        shapes[name] = shape
        highs.append(np.broadcast_to(np.asarray(bound, np.float32).reshape(-1), (n,)))
        at += n
        if name == _DENSE_LAST:
            dense = at
    high = np.concatenate(highs).astype(np.float32)
    high.setflags(write=False)
    return Layout(
        map=board,
        variant=variant,
        max_players=v.max_players,
        max_offer=max(v.deal_long + v.deal_regular, v.draw_tickets),
        slices=MappingProxyType(slices),
        shapes=MappingProxyType(shapes),
        size=at,
        high=high,
        dense=dense,
    )


# --------------------------------------------------------------------------- encoding


class Encoder:
    """Fills observation vectors of one layout; ``encode`` is the hot path of an environment."""

    __slots__ = ("_at", "_empty_memory", "_pad", "layout")

    def __init__(self, layout: Layout) -> None:
        self.layout = layout
        self._at = {name: s.start for name, s in layout.slices.items()}
        self._pad = [[0] * (layout.max_players - n) for n in range(layout.max_players + 1)]
        self._empty_memory = [0] * (KINDS * layout.max_players)

    def encode(
        self,
        state: GameState,
        seat: int,
        memory: PublicHands | None = None,
        out: Obs | None = None,
    ) -> Obs:
        """The observation of ``seat``: reads only what that seat may know (R52, D20).

        ``memory`` adds what the seat remembers (zeros without it); ``out`` is filled in place
        when given (it must be a float32 vector of ``layout.size``).
        """
        if type(state) is not GameState:
            raise not_a_state(state, "encode")
        lay = self.layout
        at = self._at
        rules = state.rules
        n = rules.players
        if type(seat) is not int or not 0 <= seat < n:
            raise SetupError(f"no seat {seat!r} in a {n}-player game")
        if rules.map is not lay.map or rules.variant.id != lay.variant:
            raise SetupError(f"the state is of {rules.map.id}/{rules.variant.id}, not "
                             f"{lay.map.id}/{lay.variant}")  # fmt: skip
        players = state.players
        me = players[seat]
        order = [players[(seat + k) % n] for k in range(n)]
        pad = self._pad[n]
        stations = rules.variant.stations
        dense: list[int] = [
            *me.hand,
            *state.discard,
            len(state.pile) - state.pile_top,
            len(state.ticket_deck),
            len(state.box),
            *[p.trains for p in order], *pad,
            *[stations - len(p.stations) for p in order], *pad,
            *[p.score for p in order], *pad,
            *[p.hand.total for p in order], *pad,
            *[len(p.tickets) for p in order], *pad,
            *[len(p.offer) for p in order], *pad,
        ]  # fmt: skip
        maxp = lay.max_players
        ones: list[int] = []
        base = at["route_owners"]
        for r, owner in enumerate(state.owners):
            if owner != NO_OWNER:
                ones.append(base + r * maxp + (owner - seat) % n)
        base = at["route_closed"]
        mask = state.closed[seat]
        while mask:
            low = mask & -mask
            ones.append(base + low.bit_length() - 1)
            mask ^= low
        base = at["station_owners"]
        for s in range(n):
            rel = (s - seat) % n
            for c in players[s].stations:
                ones.append(base + c * maxp + rel)
        base = at["tickets"]
        for t in me.tickets:
            ones.append(base + t)
        base = at["offer"]
        tickets = len(lay.map.tickets)
        for place, t in enumerate(me.offer):
            ones.append(base + place * tickets + t)
        tunnel = state.tunnel
        if tunnel is not None:
            ones.append(at["tunnel_route"] + tunnel.route)
        return self._finish(state, seat, n, memory, dense, ones, out)

    def encode_view(
        self, view: View, memory: PublicHands | None = None, out: Obs | None = None
    ) -> Obs:
        """The same vector from the observer's ``View`` (what a bot receives).

        ``encode_view(observe(state, seat), memory)`` equals ``encode(state, seat, memory)``.
        """
        if type(view) is not View:
            raise _not_a_view(view)
        lay = self.layout
        at = self._at
        board = lay.map
        seat = view.observer
        players = view.players
        n = len(players)
        if seat is None:
            raise SetupError("a spectator's view has no seat to encode for")
        if view.map != board.id or view.variant != lay.variant:
            raise SetupError(f"the view is of {view.map}/{view.variant}, not "
                             f"{board.id}/{lay.variant}")  # fmt: skip
        me = players[seat]
        if me.hand is None or me.tickets is None or me.offer is None:
            raise SetupError(f"the view does not show seat {seat}'s own hand and tickets")
        order = [players[(seat + k) % n] for k in range(n)]
        pad = self._pad[n]
        stations = board.variants[lay.variant].stations
        dense: list[int] = [
            *me.hand,
            *view.discard,
            view.pile_size,
            view.ticket_deck_size,
            view.box_size,
            *[p.trains for p in order], *pad,
            *[stations - len(p.stations) for p in order], *pad,
            *[p.score for p in order], *pad,
            *[p.hand_size for p in order], *pad,
            *[p.ticket_count for p in order], *pad,
            *[p.offer_count for p in order], *pad,
        ]  # fmt: skip
        maxp = lay.max_players
        route_index = board.route_index
        twin = board.twin_mask
        v = board.variants[lay.variant]
        shared = n < v.double_routes_min_players  # one track of a double route only (R26)
        closed = 0
        ones: list[int] = []
        base = at["route_owners"]
        for p in players:
            rel = (p.seat - seat) % n
            for rid in p.routes:
                r = route_index[rid]
                ones.append(base + r * maxp + rel)
                closed |= 1 << r
                if shared or p.seat == seat:
                    closed |= twin[r]
        base = at["route_closed"]
        while closed:
            low = closed & -closed
            ones.append(base + low.bit_length() - 1)
            closed ^= low
        base = at["station_owners"]
        city_index = board.city_index
        for p in players:
            rel = (p.seat - seat) % n
            for cid in p.stations:
                ones.append(base + city_index[cid] * maxp + rel)
        ticket_index = board.ticket_index
        base = at["tickets"]
        for tid in me.tickets:
            ones.append(base + ticket_index[tid])
        base = at["offer"]
        tickets = len(board.tickets)
        for place, tid in enumerate(me.offer):
            ones.append(base + place * tickets + ticket_index[tid])
        if view.tunnel is not None:
            ones.append(at["tunnel_route"] + route_index[view.tunnel.route])
        return self._finish(view, seat, n, memory, dense, ones, out)

    def _finish(
        self,
        source: GameState | View,
        seat: int,
        n: int,
        memory: PublicHands | None,
        dense: list[int],
        ones: list[int],
        out: Obs | None,
    ) -> Obs:
        """Adds the parts a state and a view share, then writes the vector."""
        lay = self.layout
        at = self._at
        if memory is None:
            dense += self._empty_memory
        elif type(memory) is not PublicHands or len(memory.cards) != n:
            got = f"one of {len(memory.cards)}" if type(memory) is PublicHands else kind_of(memory)
            raise BadArgumentError(
                f"encode: memory must be None or a PublicHands of {n} seats, got {got}",
                argument="memory",
            )
        else:
            known = memory.cards
            for k in range(n):
                dense += known[(seat + k) % n]
            dense += self._pad[n] * KINDS
        tunnel = source.tunnel
        if tunnel is None:
            dense += _NO_TUNNEL
        else:
            dense += tunnel.laid
            revealed = [0] * KINDS
            for kind in tunnel.revealed:
                revealed[kind] += 1
            dense += revealed
            dense.append(tunnel.extra)
            ones.append(at["tunnel_colour"] + tunnel.colour)
        final = source.final_turns
        dense += (1 if final >= 0 else 0, final if final > 0 else 0, source.passes)
        ones.append(at["player_count"] + n - 1)
        ones.append(at["phase"] + source.phase)
        ones.append(at["current"] + (source.current - seat) % n)
        ones.append(at["first_player"] + (source.first_player - seat) % n)
        base = at["row"]
        for slot, kind in enumerate(source.row):
            ones.append(base + slot * ROW_KINDS + (KINDS if kind == NO_CARD else kind))
        if out is not None and (
            type(out) is not np.ndarray or out.dtype != np.float32 or out.shape != (lay.size,)
        ):
            raise BadArgumentError(
                f"encode: out must be a float32 vector of {lay.size}, got {kind_of(out)}",
                argument="out",
            )
        obs = np.zeros(lay.size, np.float32) if out is None else out
        if out is not None:
            obs[lay.dense :] = 0.0
        obs[: lay.dense] = dense
        obs[ones] = 1.0
        return obs


_NO_TUNNEL = [0] * (2 * KINDS + 1)


def _not_a_view(value: object) -> BadArgumentError:
    return BadArgumentError(
        f"encode_view: view must be a View, got {kind_of(value)}", argument="view"
    )


@cache
def encoder_for(board: Map, variant: str) -> Encoder:
    """The shared encoder of a map and variant."""
    return Encoder(layout_for(board, variant))


def encode(state: GameState, seat: int, memory: PublicHands | None = None) -> Obs:
    """The observation vector of ``seat`` in ``state`` (see ``Encoder.encode``)."""
    if type(state) is not GameState:
        raise not_a_state(state, "encode")
    return encoder_for(state.rules.map, state.rules.variant.id).encode(state, seat, memory)


def encode_view(view: View, memory: PublicHands | None = None, *, map: Map | None = None) -> Obs:
    """The observation vector of ``view``'s observer (see ``Encoder.encode_view``).

    ``map`` is needed only for a view of a map that is not shipped.
    """
    if type(view) is not View:
        raise _not_a_view(view)
    check_map(map, "encode_view", optional=True)
    board = load_map(view.map) if map is None else map
    return encoder_for(board, view.variant).encode_view(view, memory)
