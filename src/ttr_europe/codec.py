"""Integer codes for every action of a map and variant, for reinforcement learning.

An ``ActionCodec`` gives each action a fixed code in ``range(codec.size)``, the same in every
state, in consecutive blocks (``codec.blocks`` maps each name to its range of codes; the
sizes per map are in docs/embedding.md):

====================  ====================================================================
block                 codes
====================  ====================================================================
``face_up``           one per face-up slot (slot ``s`` -> ``s``)
``blind``             draw blind
``tickets``           draw tickets
``pass``              pass
``withdraw``          withdraw from a tunnel
``keep``              ``2 ** M`` subsets of the offer by place: bit ``i`` keeps place ``i``
                      (``M`` is the variant's largest offer)
``claim``             per route in map order, each payment the route admits, in the order of
                      ``payments.payments`` (by colour, then locomotives; all locomotives last)
``station``           per city in map order, each one-colour payment of 1 .. stations cards
``pay``               each one-colour payment of 1 .. 3 cards (a tunnel's extra cost)
====================  ====================================================================

Only keep codes depend on the position: they name places in the offer, so ``encode`` and
``decode`` need the state for them (and only for them).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache, lru_cache

from .actions import (
    Action,
    BuildStation,
    ClaimRoute,
    DrawBlind,
    DrawFaceUp,
    DrawTickets,
    KeepTickets,
    Pass,
    PayTunnel,
    WithdrawTunnel,
)
from .board import Map
from .cards import KINDS, LOCOMOTIVE, Cards
from .data import load_map
from .errors import MalformedActionError
from .guards import check_map, not_a_state
from .payments import payments
from .rules import TUNNEL_REVEAL, KeepChoices, legal_actions
from .state import GameState

_ANY = Cards((99,) * KINDS)  # a hand that can make every payment pattern


def _patterns(lengths: Sequence[int]) -> tuple[Cards, ...]:
    """Every one-colour payment (locomotives allowed) of each of ``lengths`` cards."""
    return tuple(p for n in lengths for p in payments(None, n, 0, _ANY))


class ActionCodec:
    """A fixed numbering of the actions of one map and variant (see the module docstring)."""

    __slots__ = (
        "_claim_codes",
        "_claim_start",
        "_claims",
        "_keep",
        "_kind_bases",
        "_pay",
        "_pay_index",
        "_pay_start",
        "_station",
        "_station_index",
        "_station_offset",
        "_stations",
        "blocks",
        "map",
        "max_offer",
        "size",
        "variant",
    )  # fmt: skip

    def __init__(self, map: Map | str = "europe", variant: str = "base") -> None:
        check_map(map, "ActionCodec")
        board = load_map(map) if isinstance(map, str) else map
        if type(variant) is not str or variant not in board.variants:
            raise MalformedActionError("codec", f"map {board.id!r} has no variant {variant!r}")
        v = board.variants[variant]
        self.map = board
        self.variant = v
        self.max_offer = max(v.deal_long + v.deal_regular, v.draw_tickets)
        self._claims: list[tuple[int, ClaimRoute]] = []  # code - claim start -> (route, action)
        self._claim_codes: list[dict[Cards, int]] = []
        self._stations = _patterns(range(1, v.stations + 1))
        self._station_index = {p: i for i, p in enumerate(self._stations)}
        has_tunnels = any(r.tunnel for r in board.routes)
        self._pay = _patterns(range(1, TUNNEL_REVEAL + 1)) if has_tunnels else ()
        self._pay_index = {p: i for i, p in enumerate(self._pay)}
        sizes = [
            ("face_up", v.face_up),
            ("blind", 1),
            ("tickets", 1),
            ("pass", 1),
            ("withdraw", 1),
            ("keep", 2**self.max_offer),
            ("claim", 0),
            ("station", len(board.cities) * len(self._stations)),
            ("pay", len(self._pay)),
        ]
        for route in board.routes:
            codes: dict[Cards, int] = {}
            for pay in payments(route.colour, route.length, route.ferry, _ANY):
                codes[pay] = len(self._claims)
                self._claims.append((route.index, ClaimRoute(route.id, pay)))
            self._claim_codes.append(codes)
        sizes[6] = ("claim", len(self._claims))
        # Where each route's codes start, and each station cost's codes within a city's block:
        # the mask writes runs of codes from these, without encoding actions.
        route_start = [min(codes.values()) for codes in self._claim_codes]

        self._station_offset = [0]
        for n in range(1, v.stations + 1):
            self._station_offset.append(self._station_offset[-1] + 8 * n + 1)
        self.blocks: dict[str, range] = {}
        at = 0
        for name, n in sizes:
            self.blocks[name] = range(at, at + n)
            at += n
        self.size = at
        self._keep = self.blocks["keep"].start
        self._claim_start = self.blocks["claim"].start
        self._station = self.blocks["station"].start
        self._pay_start = self.blocks["pay"].start
        # per route kind: its routes' first codes, and each with its route's bit
        self._kind_bases: dict[int, tuple[list[int], list[tuple[int, int]]]] = {}
        for kind in board.route_kinds:
            each = [
                (1 << r, self._claim_start + route_start[r])
                for r in range(len(board.routes))
                if kind.mask >> r & 1
            ]
            self._kind_bases[kind.mask] = ([base for _, base in each], each)

    def __repr__(self) -> str:
        return f"<ActionCodec {self.map.id}/{self.variant.id}: {self.size} codes>"

    # ----------------------------------------------------------------------- encode

    def encode(self, action: Action, state: GameState | None = None) -> int:
        """The code of ``action``; ``state`` is needed for ``KeepTickets`` only.

        A payment must be a ``Cards``, as ``apply`` requires: an equal tuple or a list is refused.
        """
        if state is not None and type(state) is not GameState:
            raise not_a_state(state, "ActionCodec.encode")
        v = self.variant
        if isinstance(action, DrawFaceUp):
            if type(action.slot) is not int or not 0 <= action.slot < v.face_up:
                raise MalformedActionError("codec", f"no face-up slot {action.slot!r}", action)
            return action.slot
        simple = _SIMPLE.get(type(action))
        if simple is not None:
            return v.face_up + simple
        if isinstance(action, ClaimRoute):
            r = self.map.route_index.get(action.route) if type(action.route) is str else None
            pay = action.payment if type(action.payment) is Cards else None
            code = self._claim_codes[r].get(pay) if r is not None and pay is not None else None
            if code is None:
                raise MalformedActionError("codec", "no such claim on this map", action)
            return self._claim_start + code
        if isinstance(action, BuildStation):
            c = self.map.city_index.get(action.city) if type(action.city) is str else None
            pay = action.payment if type(action.payment) is Cards else None
            j = self._station_index.get(pay) if pay is not None else None
            if c is None or j is None:
                raise MalformedActionError("codec", "no such station on this map", action)
            return self._station + c * len(self._stations) + j
        if isinstance(action, PayTunnel):
            pay = action.payment if type(action.payment) is Cards else None
            j = self._pay_index.get(pay) if pay is not None else None
            if j is None:
                raise MalformedActionError("codec", "no such tunnel payment", action)
            return self._pay_start + j
        if isinstance(action, KeepTickets):
            return self._keep + self._keep_mask(action, state)
        raise MalformedActionError("codec", f"not an action: {action!r}", action)

    def _keep_mask(self, action: KeepTickets, state: GameState | None) -> int:
        if state is None:
            raise MalformedActionError("codec", "encoding a ticket choice needs the state", action)
        offer = state.players[state.current].offer
        index = self.map.ticket_index
        mask = 0
        for tid in action.tickets:
            t = index.get(tid) if isinstance(tid, str) else None
            if t is None or t not in offer:
                raise MalformedActionError("codec", f"ticket {tid!r} is not on offer", action)
            mask |= 1 << offer.index(t)
        if mask >> self.max_offer:
            raise MalformedActionError("codec", "the offer is larger than the codec allows", action)
        return mask

    # ----------------------------------------------------------------------- decode

    def decode(self, code: int, state: GameState | None = None) -> Action:
        """The action of ``code``; ``state`` is needed for keep codes only."""
        if state is not None and type(state) is not GameState:
            raise not_a_state(state, "ActionCodec.decode")
        if type(code) is not int or not 0 <= code < self.size:
            raise MalformedActionError("codec", f"no action code {code!r} (size {self.size})")
        face_up = self.variant.face_up
        if code < face_up:
            return DrawFaceUp(code)
        if code < self._keep:
            return _SIMPLE_ACTIONS[code - face_up]
        if code < self._claim_start:
            return self._decode_keep(code - self._keep, state)
        if code < self._station:
            return self._claims[code - self._claim_start][1]
        if code < self._pay_start:
            c, j = divmod(code - self._station, len(self._stations))
            return BuildStation(self.map.cities[c].id, self._stations[j])
        return PayTunnel(self._pay[code - self._pay_start])

    def _decode_keep(self, mask: int, state: GameState | None) -> KeepTickets:
        if state is None:
            raise MalformedActionError("codec", "decoding a ticket choice needs the state")
        offer = state.players[state.current].offer
        if mask >> len(offer):
            raise MalformedActionError("codec", f"keep code {mask:b} names places not on offer")
        tickets = self.map.tickets
        return KeepTickets(tickets[t].id for i, t in enumerate(offer) if mask >> i & 1)

    # ----------------------------------------------------------------------- masks

    def legal_codes(self, state: GameState) -> list[int]:
        """The codes of the legal actions of ``state``, in ``legal_actions`` order."""
        if type(state) is not GameState:
            raise not_a_state(state, "ActionCodec.legal_codes")
        return [self.encode(a, state) for a in legal_actions(state)]

    def mask(self, state: GameState) -> list[bool]:
        """``mask[code]`` is True exactly when the action of ``code`` is legal in ``state``."""
        if type(state) is not GameState:
            raise not_a_state(state, "ActionCodec.mask")
        return [b == 1 for b in self.mask_bytes(state)]

    def mask_bytes(self, state: GameState) -> bytearray:
        """One byte per code, 1 where the action is legal (for ``numpy.frombuffer``).

        Claims and stations are written from the route-kind tables of ``legal_actions`` as runs
        of consecutive codes, never by encoding each legal action: a route's codes list its
        payments by colour and then locomotives, so the payments a hand can make are one run
        per colour (plus the all-locomotive code).
        """
        if type(state) is not GameState:
            raise not_a_state(state, "ActionCodec.mask_bytes")
        out = bytearray(self.size)
        legal = legal_actions(state)
        head = legal.head
        if isinstance(head, KeepChoices):
            for places in head.places:
                out[self._keep + sum(1 << i for i in places)] = 1
        else:
            simple = self.variant.face_up
            for action in head:
                if type(action) is DrawFaceUp:
                    out[action.slot] = 1
                elif type(action) in _SIMPLE:
                    out[simple + _SIMPLE[type(action)]] = 1
                else:
                    out[self.encode(action, state)] = 1
        kinds = legal.claim_kinds
        cities = legal.station_cities
        if not kinds and not cities:
            return out
        hand = state.players[state.current].hand
        bases = self._kind_bases
        for kind, open_routes in kinds:
            pattern = _pattern(kind.colour, kind.length, kind.ferry, hand)
            width = len(pattern)
            every, each = bases[kind.mask]
            if open_routes == kind.mask:  # every route of the kind open (the usual case)
                for base in every:
                    out[base : base + width] = pattern
            else:
                for bit, base in each:
                    if open_routes & bit:
                        out[base : base + width] = pattern
        if cities:  # every city's block alike, then the cities with a station cleared
            cost = len(state.players[state.current].stations) + 1
            width = len(self._stations)
            block = _station_block(
                len(self.map.cities), width, self._station_offset[cost - 1],
                _pattern(None, cost, 0, hand),
            )  # fmt: skip
            first = self._station
            out[first : first + len(block)] = block
            empty = bytes(width)
            for player in state.players:
                for c in player.stations:
                    out[first + c * width : first + (c + 1) * width] = empty
        return out


@lru_cache(maxsize=4096)
def _station_block(cities: int, width: int, offset: int, pattern: bytes) -> bytes:
    """The station codes of every city for one station cost: ``pattern`` at ``offset``."""
    city = bytearray(width)
    city[offset : offset + len(pattern)] = pattern
    return bytes(city) * cities


def _pattern(colour: int | None, length: int, ferry: int, hand: Cards) -> bytes:
    """The legal bytes of a route's (or a station cost's) codes for ``hand``.

    All payments (``payments`` with an unlimited hand) list, per colour, ``length - ferry``
    codes for ``ferry .. length - 1`` locomotives, then one all-locomotive code. A hand pays
    with ``max(ferry, length - held) .. min(length - 1, locomotives)`` of them per colour.
    Cached: the pattern depends on few numbers.
    """
    locos = hand[LOCOMOTIVE]
    all_locos = locos >= length
    top = length - 1 if all_locos else locos
    if colour is not None:
        low = length - hand[colour]
        if low < ferry:
            low = ferry
        shape = (length, ferry, low, top, all_locos)
        pattern = _COLOUR_PATTERNS.get(shape)
        if pattern is None:  # few shapes: lengths and counts are bounded by the map
            pattern = _COLOUR_PATTERNS[shape] = _pattern_of(
                1, length - ferry, ferry, (low,), top, all_locos
            )
        return pattern
    key = (length, ferry, hand)
    found = _GRAY_PATTERNS.get(key)
    if found is None:
        if len(_GRAY_PATTERNS) > 100_000:
            _GRAY_PATTERNS.clear()
        lows = tuple(max(ferry, length - hand[c]) for c in range(8))
        found = _GRAY_PATTERNS[key] = _pattern_of(8, length - ferry, ferry, lows, top,
                                                  all_locos)  # fmt: skip
    return found


_GRAY_PATTERNS: dict[tuple[int, int, Cards], bytes] = {}
_COLOUR_PATTERNS: dict[tuple[int, int, int, int, bool], bytes] = {}


@lru_cache(maxsize=65536)
def _pattern_of(
    colours: int, block: int, ferry: int, lows: tuple[int, ...], top: int, all_locos: bool
) -> bytes:
    out = bytearray(colours * block + 1)
    for i, low in enumerate(lows):
        if low <= top:
            out[i * block + low - ferry : i * block + top - ferry + 1] = b"\x01" * (top - low + 1)
    out[-1] = 1 if all_locos else 0
    return bytes(out)


_SIMPLE: dict[type, int] = {DrawBlind: 0, DrawTickets: 1, Pass: 2, WithdrawTunnel: 3}
_SIMPLE_ACTIONS: tuple[Action, ...] = (DrawBlind(), DrawTickets(), Pass(), WithdrawTunnel())


@cache
def codec_for(map: Map, variant: str) -> ActionCodec:
    """The shared codec of a map and variant (built once)."""
    return ActionCodec(map, variant)


def legal_action_mask(state: GameState) -> list[bool]:
    """The legal-action mask of ``state`` under its map's and variant's codec."""
    if type(state) is not GameState:
        raise not_a_state(state, "legal_action_mask")
    return codec_for(state.rules.map, state.rules.variant.id).mask(state)


def legal_action_mask_bytes(state: GameState) -> bytearray:
    """``legal_action_mask`` as one byte per code (1 = legal), for array libraries."""
    return codec_for(state.rules.map, state.rules.variant.id).mask_bytes(state)
