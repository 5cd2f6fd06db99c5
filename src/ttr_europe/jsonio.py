"""JSON documents for states, actions and views, checked field by field on the way in.

Every document carries ``"format"`` (``ttr_europe/state``, ``ttr_europe/action``,
``ttr_europe/view``, ``ttr_europe/scoreboard``) and ``"version"`` (1). Routes, cities and
tickets are written by id and cards by name (``red`` ... ``black``, ``loco``); a multiset of
cards is an object of counts.
A state document holds everything needed to go on exactly: the pile in order, the ticket deck
in order, the box and the generator state.

Reading never trusts the document: a wrong type, an unknown id, an impossible card or ticket
total, a field that does not fit the phase, a truncated text or absurd nesting all raise
``DataError`` with the JSON path of the fault (``$.players[1].hand``), never another exception.
"""

from __future__ import annotations

import json
import re
import types
import typing
from collections.abc import Callable, Mapping, Sequence
from itertools import pairwise
from typing import TYPE_CHECKING, Any, Union

import attrs

from ._jsontext import MAX_TEXT, card_name, cards_json, child_path, parse_json
from .actions import (
    ACTION_TYPES,
    Action,
    BuildStation,
    ClaimRoute,
    DrawFaceUp,
    KeepTickets,
    PayTunnel,
)
from .board import Map
from .cards import FULL_DECK, KIND_NAMES, KINDS, Cards, _make
from .errors import BadArgumentError, DataError
from .invariants import Problem, state_problems, tunnel_colour_extra, view_problems
from .maps import load_map
from .state import (
    NO_CARD,
    NO_OWNER,
    GameState,
    PendingTunnel,
    Phase,
    PlayerState,
    Rules,
    closed_masks,
)
from .views import PlayerView, View, rules_options, view_to_json

if TYPE_CHECKING:
    from .scoring import PlayerScore, Scoreboard

STATE_FORMAT = "ttr_europe/state"
ACTION_FORMAT = "ttr_europe/action"
VIEW_FORMAT = "ttr_europe/view"
SCOREBOARD_FORMAT = "ttr_europe/scoreboard"  # as scoring.SCOREBOARD_FORMAT, which writes it
VERSION = 1
_MAX_COUNT = 1000  # bound on any count or score, far above anything a game reaches

JsonDoc = dict[str, Any]


# --------------------------------------------------------------------------- text


def dumps(obj: GameState | View | Action | Scoreboard, *, indent: int | None = None) -> str:
    """``to_json(obj)`` as text; ``indent`` is None (one line) or 0 to 16 spaces."""
    if indent is not None and (type(indent) is not int or not 0 <= indent <= 16):
        raise BadArgumentError(f"indent is None or 0..16, not {indent!r:.40}", argument="indent")
    return json.dumps(to_json(obj), ensure_ascii=False, indent=indent)


def loads(
    text: str | bytes, *, map: Map | None = None, source: str = "<json>"
) -> GameState | View | Action | Scoreboard:
    """Read any document written by ``dumps`` (dispatching on its ``format``)."""
    return from_json(parse_json(text, source), map=map, source=source)


def to_json(obj: GameState | View | Action | Scoreboard) -> JsonDoc:
    """The JSON document of a state, a view, an action or a scoreboard."""
    from .scoring import Scoreboard

    if isinstance(obj, GameState):
        return state_to_json(obj)
    if isinstance(obj, View):
        return view_to_json(obj)
    if isinstance(obj, Scoreboard):
        return scoreboard_to_json(obj)
    if isinstance(obj, ACTION_TYPES):
        return action_to_json(obj)
    raise BadArgumentError(f"no JSON form for {type(obj).__name__}", argument="obj")


def from_json(
    doc: Any, *, map: Map | None = None, source: str = "<json>"
) -> GameState | View | Action | Scoreboard:
    """Read a decoded document of any known format."""
    if isinstance(doc, str | bytes):
        doc = parse_json(doc, source)
    fmt = doc.get("format") if isinstance(doc, dict) else None
    reader = _READERS.get(fmt) if isinstance(fmt, str) else None
    if reader is None:
        if not isinstance(doc, dict):
            raise DataError("a document must be an object", source=source)
        known = ", ".join(_READERS)
        raise DataError(f"unknown format {fmt!r}; known: {known}", source=source, path="$.format")
    return reader(doc, map=map, source=source)


# --------------------------------------------------------------------------- writing


def _rules_json(rules: Rules) -> JsonDoc:
    return {
        "map": rules.map.id,
        "variant": rules.variant.id,
        "players": rules.players,
        "options": dict(rules_options(rules)),
    }


def state_to_json(state: GameState) -> JsonDoc:
    """The whole state; ``from_json`` gives back an equal state (``closed`` is recomputed)."""
    board = state.rules.map
    tickets = board.tickets
    tunnel = state.tunnel
    return {
        "format": STATE_FORMAT,
        "version": VERSION,
        "rules": _rules_json(state.rules),
        "phase": state.phase.name,
        "current": state.current,
        "first_player": state.first_player,
        "players": [
            {
                "hand": cards_json(p.hand),
                "trains": p.trains,
                "stations": [board.cities[c].id for c in p.stations],
                "score": p.score,
                "tickets": [tickets[t].id for t in p.tickets],
                "offer": [tickets[t].id for t in p.offer],
            }
            for p in state.players
        ],
        "pile": [KIND_NAMES[k] for k in state.draw_pile],
        "row": [card_name(k) for k in state.row],
        "discard": cards_json(state.discard),
        "ticket_deck": [tickets[t].id for t in state.ticket_deck],
        "box": [tickets[t].id for t in state.box],
        "owners": {
            board.routes[r].id: seat for r, seat in enumerate(state.owners) if seat != NO_OWNER
        },
        "tunnel": None
        if tunnel is None
        else {
            "route": board.routes[tunnel.route].id,
            "laid": cards_json(tunnel.laid),
            "revealed": [KIND_NAMES[k] for k in tunnel.revealed],
        },
        "rng": f"{state.rng:016x}",
        "final_turns": state.final_turns,
        "passes": state.passes,
    }


def _type_name(cls: type) -> str:
    """``DrawFaceUp`` -> ``draw_face_up``."""
    return re.sub(r"(?<!^)(?=[A-Z])", "_", cls.__name__).lower()


_ACTION_BY_NAME: dict[str, type] = {_type_name(cls): cls for cls in ACTION_TYPES}


def action_to_json(action: Action) -> JsonDoc:
    """An action as ``{"type": "claim_route", "route": ..., "payment": {...}}``.

    Face-up slots are 0-based here, as in code (the text form counts from 1).
    """
    doc: JsonDoc = {"format": ACTION_FORMAT, "version": VERSION, "type": _type_name(type(action))}
    for field in attrs.fields(type(action)):
        value = getattr(action, field.name)
        if isinstance(value, Cards):
            value = cards_json(value)
        elif isinstance(value, tuple):
            value = list(value)
        doc[field.name] = value
    return doc


# --------------------------------------------------------------------------- reading helpers


class _Reader:
    """Typed access to a decoded document; every fault names its JSON path."""

    def __init__(self, source: str) -> None:
        self.source = source

    def fail(self, path: str, message: str) -> DataError:
        return DataError(message, source=self.source, path=path)

    def obj(
        self, value: Any, path: str, required: Sequence[str], optional: Sequence[str] = ()
    ) -> dict[str, Any]:
        if type(value) is not dict:
            raise self.fail(path, f"expected an object, got {_kind_of(value)}")
        for key in required:
            if key not in value:
                raise self.fail(child_path(path, key), "missing")
        for key in value:
            if key not in required and key not in optional:
                raise self.fail(child_path(path, str(key)), "unknown field")
        return value

    def header(
        self, doc: Any, fmt: str, required: Sequence[str], optional: Sequence[str] = ()
    ) -> dict[str, Any]:
        d = self.obj(doc, "$", ("format", "version", *required), optional)
        if d["format"] != fmt:
            raise self.fail("$.format", f"expected {fmt!r}, got {d['format']!r}")
        if type(d["version"]) is not int or d["version"] != VERSION:
            raise self.fail("$.version", f"version {d['version']!r} is not supported ({VERSION})")
        return d

    def int_(self, value: Any, path: str, low: int = -_MAX_COUNT, high: int = _MAX_COUNT) -> int:
        if type(value) is not int:
            raise self.fail(path, f"expected an integer, got {_kind_of(value)}")
        if not low <= value <= high:
            raise self.fail(path, f"{value} is out of range {low}..{high}")
        return value

    def bool_(self, value: Any, path: str) -> bool:
        if type(value) is not bool:
            raise self.fail(path, f"expected true or false, got {_kind_of(value)}")
        return value

    def str_(self, value: Any, path: str) -> str:
        if type(value) is not str:
            raise self.fail(path, f"expected a string, got {_kind_of(value)}")
        return value

    def list_(self, value: Any, path: str, max_len: int) -> list[Any]:
        if type(value) is not list:
            raise self.fail(path, f"expected a list, got {_kind_of(value)}")
        if len(value) > max_len:
            raise self.fail(path, f"more than {max_len} entries")
        return value

    def enum(self, value: Any, path: str, names: Sequence[str]) -> str:
        text = self.str_(value, path)
        if text not in names:
            raise self.fail(path, f"unknown value {text!r}; expected one of {', '.join(names)}")
        return text

    def kind(self, value: Any, path: str) -> int:
        return KIND_NAMES.index(self.enum(value, path, KIND_NAMES))

    def kinds(self, value: Any, path: str, max_len: int) -> tuple[int, ...]:
        items = self.list_(value, path, max_len)
        return tuple(self.kind(k, f"{path}[{i}]") for i, k in enumerate(items))

    def slot(self, value: Any, path: str) -> int:
        return NO_CARD if value is None else self.kind(value, path)

    def cards(self, value: Any, path: str) -> Cards:
        counts = self.obj(value, path, (), KIND_NAMES)
        values = [0] * KINDS
        for name, n in counts.items():
            where = child_path(path, name)
            values[KIND_NAMES.index(name)] = self.int_(n, where, 0, FULL_DECK.total)
        return _make(values)

    def phase(self, value: Any, path: str) -> Phase:
        return Phase[self.enum(value, path, [p.name for p in Phase])]

    def ref(self, value: Any, path: str, index: Mapping[str, int], what: str) -> int:
        text = self.str_(value, path)
        found = index.get(text)
        if found is None:
            raise self.fail(path, f"unknown {what} {text!r}")
        return found

    def refs(
        self, value: Any, path: str, index: Mapping[str, int], what: str, max_len: int
    ) -> tuple[int, ...]:
        items = self.list_(value, path, max_len)
        return tuple(self.ref(v, f"{path}[{i}]", index, what) for i, v in enumerate(items))

    def rules(self, value: Any, path: str, board: Map | None) -> Rules:
        d = self.obj(value, path, ("map", "variant", "players"), ("options",))
        return self.make_rules(d, path, board, d["players"], f"{path}.players")

    def make_rules(
        self, d: dict[str, Any], path: str, board: Map | None, players: Any, players_path: str
    ) -> Rules:
        if board is not None and type(board) is not Map:
            raise BadArgumentError(f"map must be a Map or None, not {type(board).__name__}")
        map_id = self.str_(d["map"], f"{path}.map")
        if board is None:
            try:
                board = load_map(map_id)
            except DataError:
                raise self.fail(f"{path}.map", f"unknown map {map_id!r}") from None
        elif board.id != map_id:
            raise self.fail(f"{path}.map", f"expected map {board.id!r}, got {map_id!r}")
        variant = board.variants[self.enum(d["variant"], f"{path}.variant", list(board.variants))]
        n = self.int_(players, players_path, variant.min_players, variant.max_players)
        options = self.options(d.get("options", {}), f"{path}.options")
        return Rules(board, variant, n, **options)

    def options(self, value: Any, path: str) -> dict[str, Any]:
        hints = _option_types()
        d = self.obj(value, path, (), tuple(hints))
        out: dict[str, Any] = {}
        for name, v in d.items():
            allowed = hints[name]
            where = child_path(path, name)
            if v is None and type(None) in allowed:
                out[name] = None
            elif bool in allowed:
                out[name] = self.bool_(v, where)
            elif int in allowed:
                out[name] = self.int_(v, where, 0)
            else:  # pragma: no cover - an option type this reader does not know yet
                raise self.fail(where, "unsupported option type")
        return out


def _kind_of(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return f"the number {value!r}"
    if isinstance(value, str):
        return f"the string {value[:40]!r}"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


_OPTION_TYPES: dict[str, tuple[type, ...]] = {}


def _option_types() -> dict[str, tuple[type, ...]]:
    """The ``Rules`` switches and the Python types each accepts."""
    if not _OPTION_TYPES:
        hints = typing.get_type_hints(Rules)
        for f in attrs.fields(Rules):
            if f.name not in ("map", "variant", "players"):
                hint = hints[f.name]
                _OPTION_TYPES[f.name] = typing.get_args(hint) or (hint,)
    return _OPTION_TYPES


# --------------------------------------------------------------------------- states


_STATE_FIELDS = (
    "rules", "phase", "current", "first_player", "players", "pile", "row", "discard",
    "ticket_deck", "box", "owners", "rng", "final_turns", "passes",
)  # fmt: skip
_PLAYER_FIELDS = ("hand", "trains", "stations", "score", "tickets", "offer")


def state_from_json(doc: Any, *, map: Map | None = None, source: str = "<state>") -> GameState:
    """Check a state document and build the state (``map``: for a map that is not shipped).

    The fields are read by type and id here; how they fit together (cards, tickets, stations,
    phase, tunnel) is checked by ``invariants.state_problems``, the first problem raised as a
    ``DataError`` at its JSON path. Every valid position is accepted, also one built by hand
    with fewer cards or tickets or other trains than play leaves (``testing.scenario``). A
    ``pile_top`` (documents written before 0.2) cuts off the cards already drawn from the
    ``pile`` written in full.
    """
    if isinstance(doc, str | bytes):
        doc = parse_json(doc, source)
    r = _Reader(source)
    d = r.header(doc, STATE_FORMAT, _STATE_FIELDS, ("pile_top", "tunnel"))
    rules = r.rules(d["rules"], "$.rules", map)
    board, v, n = rules.map, rules.variant, rules.players
    phase = r.phase(d["phase"], "$.phase")
    current = r.int_(d["current"], "$.current", 0, n - 1)
    n_tickets = len(board.tickets)
    raw_players = r.list_(d["players"], "$.players", n)
    if len(raw_players) != n:
        raise r.fail("$.players", f"expected {n} players, got {len(raw_players)}")
    players: list[PlayerState] = []
    for i, raw in enumerate(raw_players):
        path = f"$.players[{i}]"
        p = r.obj(raw, path, _PLAYER_FIELDS)
        players.append(
            PlayerState(
                r.cards(p["hand"], f"{path}.hand"),
                r.int_(p["trains"], f"{path}.trains", 0, v.trains),
                r.refs(p["stations"], f"{path}.stations", board.city_index, "city", v.stations),
                r.int_(p["score"], f"{path}.score"),
                r.refs(p["tickets"], f"{path}.tickets", board.ticket_index, "ticket", n_tickets),
                r.refs(p["offer"], f"{path}.offer", board.ticket_index, "ticket", n_tickets),
            )
        )
    pile = r.kinds(d["pile"], "$.pile", FULL_DECK.total)
    pile = pile[r.int_(d.get("pile_top", 0), "$.pile_top", 0, len(pile)) :]
    raw_row = r.list_(d["row"], "$.row", v.face_up)
    if len(raw_row) != v.face_up:
        raise r.fail("$.row", f"expected {v.face_up} face-up slots, got {len(raw_row)}")
    owners = _read_owners(r, d["owners"], rules)
    rng_text = r.str_(d["rng"], "$.rng")
    if not re.fullmatch(r"[0-9a-f]{1,16}", rng_text):
        raise r.fail("$.rng", "expected 1 to 16 lowercase hexadecimal digits")
    state = GameState.create(
        rules=rules,
        phase=phase,
        current=current,
        first_player=r.int_(d["first_player"], "$.first_player", 0, n - 1),
        players=tuple(players),
        pile=pile,
        pile_top=0,
        row=tuple(r.slot(k, f"$.row[{i}]") for i, k in enumerate(raw_row)),
        discard=r.cards(d["discard"], "$.discard"),
        ticket_deck=r.refs(
            d["ticket_deck"], "$.ticket_deck", board.ticket_index, "ticket", n_tickets
        ),
        box=r.refs(d["box"], "$.box", board.ticket_index, "ticket", n_tickets),
        owners=owners,
        closed=closed_masks(rules, owners),
        tunnel=_read_tunnel(r, d.get("tunnel"), rules),
        rng=int(rng_text, 16),
        final_turns=r.int_(d["final_turns"], "$.final_turns", -1, n),
        passes=r.int_(d["passes"], "$.passes", 0, n),
    )
    _refuse(r, state_problems(state, complete=False, reachable=False))  # a valid position
    return state


def _refuse(r: _Reader, problems: Sequence[Problem]) -> None:
    """Raise the first problem, if any, as a ``DataError`` at its path."""
    if problems:
        raise r.fail(problems[0].path, problems[0].message)


def _read_owners(r: _Reader, value: Any, rules: Rules) -> tuple[int, ...]:
    board = rules.map
    d = r.obj(value, "$.owners", (), tuple(board.route_index))
    owners = [NO_OWNER] * len(board.routes)
    for route_id, seat in d.items():
        owners[board.route_index[route_id]] = r.int_(
            seat, child_path("$.owners", route_id), 0, rules.players - 1
        )
    return tuple(owners)


def _read_tunnel(r: _Reader, value: Any, rules: Rules) -> PendingTunnel[int] | None:
    """A pending tunnel's route, laid and revealed cards; its colour and extra follow (D7, R30)."""
    if value is None:
        return None
    d = r.obj(value, "$.tunnel", ("route", "laid", "revealed"))
    route = r.ref(d["route"], "$.tunnel.route", rules.map.route_index, "route")
    laid = r.cards(d["laid"], "$.tunnel.laid")
    revealed = r.kinds(d["revealed"], "$.tunnel.revealed", 3)
    return PendingTunnel(route, laid, revealed, *tunnel_colour_extra(laid, revealed))


# --------------------------------------------------------------------------- views


_VIEW_FIELDS = (
    "map", "variant", "options", "observer", "phase", "current", "first_player", "row",
    "discard", "pile_size", "ticket_deck_size", "box_size", "tunnel", "final_turns", "passes",
    "players",
)  # fmt: skip
_SEAT_FIELDS = (
    "seat", "hand_size", "ticket_count", "offer_count", "trains", "stations", "score", "routes",
    "hand", "tickets", "offer",
)  # fmt: skip


def view_from_json(doc: Any, *, map: Map | None = None, source: str = "<view>") -> View:
    """Check a view document and build the ``View`` (how its fields fit together is checked by
    ``invariants.view_problems``: views no game can show are refused as states are)."""
    if isinstance(doc, str | bytes):
        doc = parse_json(doc, source)
    r = _Reader(source)
    d = r.header(doc, VIEW_FORMAT, _VIEW_FIELDS)
    raw_players = r.list_(d["players"], "$.players", 5)
    rules = r.make_rules(d, "$", map, len(raw_players), "$.players")
    board, v, n = rules.map, rules.variant, rules.players
    observer = None if d["observer"] is None else r.int_(d["observer"], "$.observer", 0, n - 1)
    n_tickets = len(board.tickets)
    tickets = _ShownTickets(r, rules)
    seats: list[PlayerView] = []
    for i, raw in enumerate(raw_players):
        path = f"$.players[{i}]"
        p = r.obj(raw, path, _SEAT_FIELDS)
        if p["seat"] != i:
            raise r.fail(f"{path}.seat", f"expected {i}")
        stations = r.refs(p["stations"], f"{path}.stations", board.city_index, "city", v.stations)
        routes = r.refs(
            p["routes"], f"{path}.routes", board.route_index, "route", len(board.routes)
        )
        seats.append(
            PlayerView(
                seat=i,
                hand_size=r.int_(p["hand_size"], f"{path}.hand_size", 0, FULL_DECK.total),
                ticket_count=r.int_(p["ticket_count"], f"{path}.ticket_count", 0, n_tickets),
                offer_count=r.int_(p["offer_count"], f"{path}.offer_count", 0, n_tickets),
                trains=r.int_(p["trains"], f"{path}.trains", 0, v.trains),
                stations=tuple(board.cities[c].id for c in stations),
                score=r.int_(p["score"], f"{path}.score"),
                routes=tuple(board.routes[ri].id for ri in routes),
                hand=None if p["hand"] is None else r.cards(p["hand"], f"{path}.hand"),
                tickets=tickets.read(p["tickets"], f"{path}.tickets"),
                offer=tickets.read(p["offer"], f"{path}.offer"),
            )
        )
    raw_row = r.list_(d["row"], "$.row", v.face_up)
    if len(raw_row) != v.face_up:
        raise r.fail("$.row", f"expected {v.face_up} face-up slots")
    view = View(
        map=board.id,
        variant=v.id,
        options=rules_options(rules),
        observer=observer,
        phase=r.phase(d["phase"], "$.phase"),
        current=r.int_(d["current"], "$.current", 0, n - 1),
        first_player=r.int_(d["first_player"], "$.first_player", 0, n - 1),
        row=tuple(r.slot(k, f"$.row[{i}]") for i, k in enumerate(raw_row)),
        discard=r.cards(d["discard"], "$.discard"),
        pile_size=r.int_(d["pile_size"], "$.pile_size", 0, FULL_DECK.total),
        ticket_deck_size=r.int_(d["ticket_deck_size"], "$.ticket_deck_size", 0, n_tickets),
        box_size=r.int_(d["box_size"], "$.box_size", 0, n_tickets),
        tunnel=_view_tunnel(r, d["tunnel"], rules),
        final_turns=r.int_(d["final_turns"], "$.final_turns", -1, n),
        passes=r.int_(d["passes"], "$.passes", 0, n),
        players=tuple(seats),
    )
    _refuse(r, view_problems(view, rules))
    return view


class _ShownTickets:
    """Tickets a view shows: of the variant's pools, each shown once (R8)."""

    def __init__(self, reader: _Reader, rules: Rules) -> None:
        self.r = reader
        self.board = rules.map
        self.pool = frozenset((*rules.variant.long_pool, *rules.variant.regular_pool))
        self.seen: dict[int, str] = {}

    def read(self, value: Any, path: str) -> tuple[str, ...] | None:
        if value is None:
            return None
        board = self.board
        out = self.r.refs(value, path, board.ticket_index, "ticket", len(board.tickets))
        for i, t in enumerate(out):
            where = f"{path}[{i}]"
            if t not in self.pool:
                raise self.r.fail(where, f"ticket {board.tickets[t].id!r} is not in this variant")
            if t in self.seen:
                raise self.r.fail(where, f"ticket {board.tickets[t].id!r} is also at "
                                  f"{self.seen[t]}")  # fmt: skip
            self.seen[t] = where
        return tuple(board.tickets[t].id for t in out)


def _view_tunnel(r: _Reader, value: Any, rules: Rules) -> PendingTunnel[str] | None:
    if value is None:
        return None
    d = r.obj(value, "$.tunnel", ("route", "laid", "revealed", "colour", "extra"))
    route = r.ref(d["route"], "$.tunnel.route", rules.map.route_index, "route")
    return PendingTunnel(
        rules.map.routes[route].id,
        r.cards(d["laid"], "$.tunnel.laid"),
        r.kinds(d["revealed"], "$.tunnel.revealed", 3),
        r.kind(d["colour"], "$.tunnel.colour"),
        r.int_(d["extra"], "$.tunnel.extra", 1, 3),
    )


# --------------------------------------------------------------------------- actions


def action_from_json(doc: Any, *, map: Map | None = None, source: str = "<action>") -> Action:
    """Check an action document; with ``map``, route, city and ticket ids must exist on it."""
    if isinstance(doc, str | bytes):
        doc = parse_json(doc, source)
    r = _Reader(source)
    top = r.obj(
        doc, "$", ("format", "version", "type"), ("slot", "route", "city", "payment", "tickets")
    )
    kind = r.enum(top["type"], "$.type", list(_ACTION_BY_NAME))
    cls = _ACTION_BY_NAME[kind]
    names = tuple(f.name for f in attrs.fields(cls))
    d = r.header(doc, ACTION_FORMAT, ("type", *names))
    n_tickets = len(map.tickets) if map is not None else 200
    if cls is DrawFaceUp:
        return DrawFaceUp(r.int_(d["slot"], "$.slot", 0, 15))
    if cls is ClaimRoute:
        route = _id(r, d["route"], "$.route", map.route_index if map else None, "route")
        return ClaimRoute(route, r.cards(d["payment"], "$.payment"))
    if cls is BuildStation:
        city = _id(r, d["city"], "$.city", map.city_index if map else None, "city")
        return BuildStation(city, r.cards(d["payment"], "$.payment"))
    if cls is PayTunnel:
        return PayTunnel(r.cards(d["payment"], "$.payment"))
    if cls is KeepTickets:
        items = r.list_(d["tickets"], "$.tickets", n_tickets)
        index = map.ticket_index if map else None
        return KeepTickets(
            _id(r, t, f"$.tickets[{i}]", index, "ticket") for i, t in enumerate(items)
        )
    action: Action = cls()
    return action


def _id(r: _Reader, value: Any, path: str, index: Mapping[str, int] | None, what: str) -> str:
    text = r.str_(value, path)
    if index is not None and text not in index:
        raise r.fail(path, f"unknown {what} {text!r}")
    return text


# --------------------------------------------------------------------------- scoreboards


def scoreboard_to_json(board: Scoreboard) -> JsonDoc:
    """A scoreboard (``scoring.score``) as JSON: ``board.to_json()``."""
    return board.to_json()


def scoreboard_from_json(
    doc: Any, *, map: Map | None = None, source: str = "<scoreboard>"
) -> Scoreboard:
    """Check a scoreboard document against the ``Scoreboard`` field types and build it."""
    from .scoring import Scoreboard

    if isinstance(doc, str | bytes):
        doc = parse_json(doc, source)
    r = _Reader(source)
    names = tuple(f.name for f in attrs.fields(Scoreboard))
    d = r.header(doc, SCOREBOARD_FORMAT, names)
    board: Scoreboard = _typed(r, {k: d[k] for k in names}, Scoreboard, "$")
    _check_scoreboard(r, board)
    return board


_CRITERIA = ("completed_tickets", "fewest_stations", "bonus_card", "longest_path")


def _check_scoreboard(r: _Reader, board: Scoreboard) -> None:
    """Refuse a scoreboard whose parts disagree: every sum, count, rank and explanation is
    recomputed from the per-seat figures, as ``scoring.score`` computes them."""
    n = len(board.players)
    if not 1 <= n <= 5:
        raise r.fail("$.players", f"{n} seats; a game has 1 to 5")
    crit = board.criteria
    if crit[:1] != ("total",) or not set(crit[1:]) <= set(_CRITERIA) or len(set(crit)) < len(crit):
        raise r.fail("$.criteria", "criteria are 'total' then distinct tie-breaks")
    keys = [_check_seat_score(r, seat, p, crit) for seat, p in enumerate(board.players)]
    _check_ranking(r, board, keys)


def _check_seat_score(
    r: _Reader, seat: int, p: PlayerScore, crit: tuple[str, ...]
) -> tuple[int, ...]:
    """One seat's figures agree with each other; returns its ranking key (higher ranks first)."""
    path = f"$.players[{seat}]"
    if p.seat != seat:
        raise r.fail(f"{path}.seat", f"expected seat {seat}, got {p.seat}")
    if p.ticket_points != sum(t.points for t in p.tickets):
        raise r.fail(f"{path}.ticket_points", "not the sum of the tickets' points")
    if p.completed != sum(t.completed for t in p.tickets):
        raise r.fail(f"{path}.completed", "not the number of completed tickets")
    for i, t in enumerate(p.tickets):
        if t.completed != bool(t.routes) or (t.points > 0) != t.completed:
            raise r.fail(f"{path}.tickets[{i}]", "completion, points and routes disagree")
    if min(p.route_points, p.station_points, p.bonus) < 0:
        raise r.fail(path, "route, station and bonus points are never negative")
    lp = p.longest_path
    if (lp.length > 0) != bool(lp.routes) or len(lp.cities) != len(lp.routes) + bool(lp.routes):
        raise r.fail(f"{path}.longest_path", "length, routes and cities disagree")
    if p.total != p.route_points + p.ticket_points + p.station_points + p.bonus:
        raise r.fail(f"{path}.total", "not routes + tickets + stations + bonus")
    expected = {
        "total": p.total,
        "completed_tickets": p.completed,
        "fewest_stations": len(p.stations),
        "bonus_card": int(p.bonus > 0),
        "longest_path": p.longest_path.length,
    }
    if p.criteria_values != tuple(expected[c] for c in crit):
        raise r.fail(f"{path}.criteria_values", "do not match the seat's figures")
    return tuple(-expected[c] if c == "fewest_stations" else expected[c] for c in crit)


def _check_ranking(r: _Reader, board: Scoreboard, keys: list[tuple[int, ...]]) -> None:
    """Ranks, ranking, winners and what decided each place follow from the seats' keys."""
    ranks = [1 + sum(other > key for other in keys) for key in keys]
    for seat, p in enumerate(board.players):
        if p.rank != ranks[seat]:
            raise r.fail(f"$.players[{seat}].rank", f"the figures give rank {ranks[seat]}")
    ranking = tuple(sorted(range(len(keys)), key=lambda s: (ranks[s], s)))
    if board.ranking != ranking:
        raise r.fail("$.ranking", f"the figures give the ranking {list(ranking)}")
    if board.winners != tuple(s for s in ranking if ranks[s] == 1):
        raise r.fail("$.winners", "not the seats of rank 1")
    decided = tuple(
        next((c for c, x, y in zip(board.criteria, keys[a], keys[b], strict=True) if x != y), None)
        for a, b in pairwise(ranking)
    )
    if board.decided_by != decided:
        raise r.fail("$.decided_by", "does not say what separates each seat from the next")


def _typed(r: _Reader, value: Any, hint: Any, path: str) -> Any:
    """Read ``value`` as ``hint``: int, bool, str, X | None, tuple[X, ...] or an attrs class."""
    if hint is int:
        return r.int_(value, path, -_MAX_SCORE, _MAX_SCORE)
    if hint is bool:
        return r.bool_(value, path)
    if hint is str:
        return r.str_(value, path)
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin is Union or origin is types.UnionType:
        if value is None and type(None) in args:
            return None
        (other,) = (a for a in args if a is not type(None))
        return _typed(r, value, other, path)
    if origin is tuple:
        items = r.list_(value, path, _MAX_COUNT)
        return tuple(_typed(r, v, args[0], f"{path}[{i}]") for i, v in enumerate(items))
    if attrs.has(hint):
        fields = attrs.fields(hint)
        hints = typing.get_type_hints(hint)
        d = r.obj(value, path, tuple(f.name for f in fields))
        at = {f.name: child_path(path, f.name) for f in fields}
        return hint(**{f.name: _typed(r, d[f.name], hints[f.name], at[f.name]) for f in fields})
    raise TypeError(f"no JSON reading for {hint!r}")  # pragma: no cover - a new field type


_MAX_SCORE = 100_000

_READERS: dict[str, Callable[..., GameState | View | Action | Scoreboard]] = {
    STATE_FORMAT: state_from_json,
    VIEW_FORMAT: view_from_json,
    ACTION_FORMAT: action_from_json,
    SCOREBOARD_FORMAT: scoreboard_from_json,
}

__all__ = [
    "ACTION_FORMAT",
    "MAX_TEXT",
    "SCOREBOARD_FORMAT",
    "STATE_FORMAT",
    "VERSION",
    "VIEW_FORMAT",
    "action_from_json",
    "action_to_json",
    "cards_json",
    "dumps",
    "from_json",
    "loads",
    "parse_json",
    "scoreboard_from_json",
    "scoreboard_to_json",
    "state_from_json",
    "state_to_json",
    "to_json",
    "view_from_json",
    "view_to_json",
]
