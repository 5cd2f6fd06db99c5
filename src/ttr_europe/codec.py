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
                      ``_payments.payments`` (by colour, then locomotives; all locomotives last)
``station``           per city in map order, each one-colour payment of 1 .. stations cards
``pay``               each one-colour payment of 1 .. 3 cards (a tunnel's extra cost)
====================  ====================================================================

Only keep codes depend on the position: they name places in the offer, so ``encode`` and
``decode`` need the state for them (and only for them).

observe.c's ``code_of``, ``mask_of`` and ``act_of_code`` (tables ``C_*``) mirror this module. The
differential tests (tests/fast/test_fast.py) keep the two alike.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache
from operator import itemgetter

from ._guards import check_map, not_a_state
from ._payments import payments
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
from .errors import MalformedActionError
from .maps import load_map
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
        "_heads",
        "_keep",
        "_kinds",
        "_open",
        "_pay",
        "_pay_index",
        "_pay_start",
        "_station",
        "_station_index",
        "_station_runs",
        "_stations",
        "_tables",
        "_top",
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

        station_offset = [0]
        for n in range(1, v.stations + 1):
            station_offset.append(station_offset[-1] + 8 * n + 1)
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
        # The mask's tables: every (length, ferry symbols) of a route kind or a station cost is
        # a "shape", and the bytes of a shape's codes depend only on the locomotives held and,
        # per colour, the cards of that colour, both counted up to the longest shape.
        shapes = sorted({(k.length, k.ferry) for k in board.route_kinds}
                        | {(n, 0) for n in range(1, v.stations + 1)})  # fmt: skip
        index = {shape: i for i, shape in enumerate(shapes)}
        self._top = max(length for length, _ in shapes) if shapes else 0
        self._tables = [_shape_tables(shapes, self._top, locos) for locos in range(self._top + 1)]
        # per station cost: its shape, and the codes of a city before and after its own
        self._station_runs = [
            (itemgetter(index[n, 0]), bytes(station_offset[n - 1]),
             bytes(len(self._stations) - station_offset[n]))
            for n in range(1, v.stations + 1)
        ]  # fmt: skip
        # Per route kind: its colour, its shape, and the codes of its routes; and the same for
        # each set of routes of one kind met open so far (routes close one by one), found by
        # the set alone since no two kinds share a route.
        self._kinds: dict[int, _Runs] = {}
        for kind in board.route_kinds:
            spans = tuple(
                slice(start, start + len(self._claim_codes[r]))
                for r in range(len(board.routes))
                if kind.mask >> r & 1
                for start in [self._claim_start + route_start[r]]
            )
            i = index[kind.length, kind.ferry]
            self._kinds[kind.mask] = (kind.colour, i, itemgetter(i), spans)
        self._open: dict[int, _Runs] = dict(self._kinds)
        self._heads: dict[int, tuple[Sequence[Action], bytes]] = {}

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

    def keep_code(self, places: int) -> int:
        """The code of keeping the offered tickets whose places are the bits of ``places`` (bit
        ``i`` for place ``i`` of the offer): what ``encode`` gives a ``KeepTickets``, for a
        caller that knows the offer but not the state (a seat's view)."""
        if type(places) is not int or not 0 <= places < 1 << self.max_offer:
            raise MalformedActionError("codec", f"no ticket choice {places!r}", None)
        return self._keep + places

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
        return list(map(bool, self.mask_bytes(state)))

    def mask_bytes(self, state: GameState) -> bytearray:
        """One byte per code, 1 where the action is legal (for ``numpy.frombuffer``).

        Claims and stations are written from the route-kind tables of ``legal_actions`` as runs
        of consecutive codes, never by encoding each legal action: a route's codes list its
        payments by colour and then locomotives, so the payments a hand can make are one run
        per colour (plus the all-locomotive code). The runs come from tables built with the
        codec, per count of one colour and of locomotives, so a hand never seen before costs
        what a known one does.
        """
        if type(state) is not GameState:
            raise not_a_state(state, "ActionCodec.mask_bytes")
        legal = legal_actions(state)
        head = legal.head
        found = self._heads.get(id(head))
        if found is not None and found[0] is head:  # the rules share a few heads: their bytes
            out = bytearray(found[1])
        else:
            out = bytearray(self.size)
            self._mark_head(out, head, state)
        kinds = legal.claim_kinds
        stations = legal.station_count > 0
        if not kinds and not stations:  # the head is all
            return out
        player = state.players[state.current]
        hand = player.hand
        locos = hand[LOCOMOTIVE]
        top = self._top
        blocks, coloured, all_locos = self._tables[locos if locos < top else top]
        columns: list[tuple[bytes, ...]] | None = None  # the gray runs of this hand
        known = self._open
        with memoryview(out) as view:  # a write through a view costs a third of one to out
            for kind, open_routes in kinds:
                found_kind = known.get(open_routes)
                if found_kind is None:
                    found_kind = self._open_runs(kind.mask, open_routes)
                colour, i, pick, codes = found_kind
                if colour is None:
                    if columns is None:
                        columns = _columns(hand, blocks, all_locos, top)
                    pattern = b"".join(map(pick, columns))
                else:
                    held = hand[colour]
                    pattern = coloured[held if held < top else top][i]
                for span in codes:
                    view[span] = pattern
            if stations:  # every city's codes alike, then the cities with a station cleared
                if columns is None:
                    columns = _columns(hand, blocks, all_locos, top)
                pick, before, after = self._station_runs[len(player.stations)]
                city = b"".join((before, *map(pick, columns), after))
                first = self._station
                view[first : self._pay_start] = city * len(self.map.cities)
                width = len(city)
                empty = bytes(width)
                for other in state.players:
                    for c in other.stations:
                        at = first + c * width
                        view[at : at + width] = empty
        return out

    def _open_runs(self, kind: int, open_routes: int) -> _Runs:
        """The runs of the routes of ``open_routes``, some of the routes of ``kind``, kept."""
        colour, i, pick, every = self._kinds[kind]
        codes = []
        for span in every:  # in route order
            low = kind & -kind
            if open_routes & low:
                codes.append(span)
            kind ^= low
        if len(self._open) >= _OPEN_LIMIT:  # bounded: a kind of n routes has 2 ** n sets
            self._open = dict(self._kinds)
        out = self._open[open_routes] = (colour, i, pick, tuple(codes))
        return out

    def _mark_head(self, out: bytearray, head: Sequence[Action], state: GameState) -> None:
        """Mark the actions listed one by one; remember the bytes of a head of draws (the rules
        build those once per row shape, so the same objects come back)."""
        if isinstance(head, KeepChoices):
            for places in head.places:
                out[self._keep + sum(1 << i for i in places)] = 1
            return
        simple = self.variant.face_up
        draws_only = type(head) is tuple
        for action in head:
            if type(action) is DrawFaceUp:
                out[action.slot] = 1
            elif type(action) in _SIMPLE:
                out[simple + _SIMPLE[type(action)]] = 1
            else:
                out[self.encode(action, state)] = 1
                draws_only = False
        if draws_only:
            if len(self._heads) >= _HEADS_LIMIT:
                self._heads.clear()
            self._heads[id(head)] = (head, bytes(out))


_Runs = tuple[int | None, int, Callable[[tuple[bytes, ...]], bytes], tuple[slice, ...]]
"""A route kind's colour (``None``: gray), shape, shape picker and routes' codes."""
_OPEN_LIMIT = 1 << 16
_HEADS_LIMIT = 256


def _shape_tables(
    shapes: Sequence[tuple[int, int]], top: int, locos: int
) -> tuple[list[tuple[bytes, ...]], list[tuple[bytes, ...]], tuple[bytes, ...]]:
    """The bytes of each shape's codes when ``locos`` locomotives are held (``top`` or more
    count as ``top``, the longest shape): per count of one colour held (up to ``top``), that
    colour's run of codes, and that run with the all-locomotive code (a coloured route's
    codes); and each shape's all-locomotive code.

    All payments (``payments`` with an unlimited hand) list, per colour, ``length - ferry``
    codes for ``ferry .. length - 1`` locomotives, then one all-locomotive code. A hand pays
    with ``max(ferry, length - held) .. min(length - 1, locomotives)`` of them per colour.
    """
    ends = tuple(b"\x01" if locos >= length else b"\x00" for length, _ in shapes)
    blocks: list[tuple[bytes, ...]] = []
    for held in range(top + 1):
        runs = []
        for length, ferry in shapes:
            run = bytearray(length - ferry)
            low, high = max(ferry, length - held), min(length - 1, locos)
            run[low - ferry : high - ferry + 1] = b"\x01" * max(0, high - low + 1)
            runs.append(bytes(run))
        blocks.append(tuple(runs))
    coloured = [tuple(run + end for run, end in zip(runs, ends, strict=True)) for runs in blocks]
    return blocks, coloured, ends


def _columns(
    hand: Cards, blocks: list[tuple[bytes, ...]], all_locos: tuple[bytes, ...], top: int
) -> list[tuple[bytes, ...]]:
    """Per colour, the runs of every shape for the cards of that colour in ``hand``, then the
    all-locomotive codes: a gray shape's bytes are their ``i``-th items joined."""
    try:
        out = [blocks[held] for held in hand[:LOCOMOTIVE]]
    except IndexError:  # more than ``top`` cards of a colour count as ``top``
        out = [blocks[min(held, top)] for held in hand[:LOCOMOTIVE]]
    out.append(all_locos)
    return out


_SIMPLE: dict[type, int] = {DrawBlind: 0, DrawTickets: 1, Pass: 2, WithdrawTunnel: 3}
_SIMPLE_ACTIONS: tuple[Action, ...] = (DrawBlind(), DrawTickets(), Pass(), WithdrawTunnel())


@cache
def codec_for(map: Map, variant: str) -> ActionCodec:
    """The shared codec of a map and variant (built once)."""
    return ActionCodec(map, variant)


def legal_action_mask_bytes(state: GameState) -> bytearray:
    """The legal-action mask of ``state`` under its map's and variant's codec: one byte per
    code, 1 where the action is legal (``numpy.frombuffer(mask, bool)`` reads it in place)."""
    if type(state) is not GameState:
        raise not_a_state(state, "legal_action_mask_bytes")
    return codec_for(state.rules.map, state.rules.variant.id).mask_bytes(state)


def legal_action_mask(state: GameState) -> list[bool]:
    """``legal_action_mask_bytes`` as a list of booleans (slower: one Python bool per code)."""
    if type(state) is not GameState:
        raise not_a_state(state, "legal_action_mask")
    return codec_for(state.rules.map, state.rules.variant.id).mask(state)
