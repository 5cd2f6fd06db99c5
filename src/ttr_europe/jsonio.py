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
from .cards import FULL_DECK, KIND_NAMES, KINDS, LOCOMOTIVE, Cards, _make, payment_colour, pays
from .data import load_map
from .errors import BadArgumentError, DataError
from .state import NO_CARD, NO_OWNER, GameState, PendingTunnel, Phase, PlayerState, Rules
from .state import closed_masks as _closed_masks
from .views import PlayerView, TunnelView, View, rules_options, unseen_cards

if TYPE_CHECKING:
    from .scoring import Scoreboard

STATE_FORMAT = "ttr_europe/state"
ACTION_FORMAT = "ttr_europe/action"
VIEW_FORMAT = "ttr_europe/view"
SCOREBOARD_FORMAT = "ttr_europe/scoreboard"
VERSION = 1
MAX_TEXT = 4_000_000  # characters; a state is about 10 kB, a long game record about 30 kB
_MAX_COUNT = 1000  # bound on any count or score, far above anything a game reaches
_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")

JsonDoc = dict[str, Any]


# --------------------------------------------------------------------------- text


def parse_json(text: str | bytes, source: str = "<json>", max_chars: int = MAX_TEXT) -> Any:
    """Decode JSON text; any fault (syntax, truncation, size, nesting, NaN) is a ``DataError``."""
    if not isinstance(text, str | bytes):
        raise DataError(f"expected JSON text, got {type(text).__name__}", source=source)
    if len(text) > max_chars:
        raise DataError(f"document longer than {max_chars} characters", source=source)
    try:
        return json.loads(text, parse_constant=_no_constant)
    except json.JSONDecodeError as exc:
        raise DataError(
            f"not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}", source=source
        ) from None
    except RecursionError:
        raise DataError("the document is nested too deeply", source=source) from None
    except (ValueError, UnicodeDecodeError) as exc:
        raise DataError(f"not valid JSON: {exc}", source=source) from None


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


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


def cards_json(cards: Sequence[int]) -> dict[str, int]:
    """A multiset of cards as ``{"red": 2, "loco": 1}`` (kinds with no card left out)."""
    return {KIND_NAMES[k]: n for k, n in enumerate(cards) if n}


def _card_name(kind: int) -> str | None:
    return None if kind == NO_CARD else KIND_NAMES[kind]


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
        "pile": [KIND_NAMES[k] for k in state.pile],
        "pile_top": state.pile_top,
        "row": [_card_name(k) for k in state.row],
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


def view_to_json(view: View) -> JsonDoc:
    """A view as JSON: hidden parts are ``null``."""
    t = view.tunnel
    return {
        "format": VIEW_FORMAT,
        "version": VERSION,
        "map": view.map,
        "variant": view.variant,
        "options": dict(view.options),
        "observer": view.observer,
        "phase": view.phase.name,
        "current": view.current,
        "first_player": view.first_player,
        "row": [_card_name(k) for k in view.row],
        "discard": cards_json(view.discard),
        "pile_size": view.pile_size,
        "ticket_deck_size": view.ticket_deck_size,
        "box_size": view.box_size,
        "tunnel": None
        if t is None
        else {
            "route": t.route,
            "laid": cards_json(t.laid),
            "revealed": [KIND_NAMES[k] for k in t.revealed],
            "colour": KIND_NAMES[t.colour],
            "extra": t.extra,
        },
        "final_turns": view.final_turns,
        "passes": view.passes,
        "players": [
            {
                "seat": p.seat,
                "hand_size": p.hand_size,
                "ticket_count": p.ticket_count,
                "offer_count": p.offer_count,
                "trains": p.trains,
                "stations": list(p.stations),
                "score": p.score,
                "routes": list(p.routes),
                "hand": None if p.hand is None else cards_json(p.hand),
                "tickets": None if p.tickets is None else list(p.tickets),
                "offer": None if p.offer is None else list(p.offer),
            }
            for p in view.players
        ],
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


def _key_path(path: str, key: str) -> str:
    return f"{path}.{key}" if _IDENT.fullmatch(key) else f"{path}[{json.dumps(key)}]"


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
                raise self.fail(_key_path(path, key), "missing")
        for key in value:
            if key not in required and key not in optional:
                raise self.fail(_key_path(path, str(key)), "unknown field")
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
            values[KIND_NAMES.index(name)] = self.int_(n, _key_path(path, name), 0, FULL_DECK.total)
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
            where = _key_path(path, name)
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
    """Check a state document and build the state (``map``: for a map that is not shipped)."""
    if isinstance(doc, str | bytes):
        doc = parse_json(doc, source)
    r = _Reader(source)
    d = r.header(doc, STATE_FORMAT, _STATE_FIELDS, ("pile_top", "tunnel"))
    rules = r.rules(d["rules"], "$.rules", map)
    board, v, n = rules.map, rules.variant, rules.players
    phase = r.phase(d["phase"], "$.phase")
    current = r.int_(d["current"], "$.current", 0, n - 1)
    first = r.int_(d["first_player"], "$.first_player", 0, n - 1)
    tickets = _TicketCheck(r, rules)
    raw_players = r.list_(d["players"], "$.players", n)
    if len(raw_players) != n:
        raise r.fail("$.players", f"expected {n} players, got {len(raw_players)}")
    players: list[PlayerState] = []
    cities_taken: dict[int, str] = {}
    for i, raw in enumerate(raw_players):
        path = f"$.players[{i}]"
        p = r.obj(raw, path, _PLAYER_FIELDS)
        stations = r.refs(p["stations"], f"{path}.stations", board.city_index, "city", v.stations)
        for j, c in enumerate(stations):
            if c in cities_taken:
                raise r.fail(f"{path}.stations[{j}]", f"R40: a station is already in that city "
                             f"({cities_taken[c]})")  # fmt: skip
            cities_taken[c] = f"{path}.stations[{j}]"
        players.append(
            PlayerState(
                r.cards(p["hand"], f"{path}.hand"),
                r.int_(p["trains"], f"{path}.trains", 0, v.trains),
                stations,
                r.int_(p["score"], f"{path}.score"),
                tickets.read(p["tickets"], f"{path}.tickets"),
                tickets.read(p["offer"], f"{path}.offer"),
            )
        )
    pile = r.kinds(d["pile"], "$.pile", FULL_DECK.total)
    top = r.int_(d.get("pile_top", 0), "$.pile_top", 0, len(pile))
    raw_row = r.list_(d["row"], "$.row", v.face_up)
    if len(raw_row) != v.face_up:
        raise r.fail("$.row", f"expected {v.face_up} face-up slots, got {len(raw_row)}")
    row = tuple(r.slot(k, f"$.row[{i}]") for i, k in enumerate(raw_row))
    discard = r.cards(d["discard"], "$.discard")
    deck = tickets.read(d["ticket_deck"], "$.ticket_deck")
    box = tickets.read(d["box"], "$.box")
    tickets.check_complete()
    owners = _read_owners(r, d["owners"], rules)
    closed = _closed_masks(rules, owners)
    tunnel = _read_tunnel(r, d.get("tunnel"), rules, owners, closed, current, players, phase)
    rng_text = r.str_(d["rng"], "$.rng")
    if not re.fullmatch(r"[0-9a-f]{1,16}", rng_text):
        raise r.fail("$.rng", "expected 1 to 16 lowercase hexadecimal digits")
    state = GameState(
        rules=rules,
        phase=phase,
        current=current,
        first_player=first,
        players=tuple(players),
        pile=pile,
        pile_top=top,
        row=row,
        discard=discard,
        ticket_deck=deck,
        box=box,
        owners=owners,
        closed=closed,
        tunnel=tunnel,
        rng=int(rng_text, 16),
        final_turns=r.int_(d["final_turns"], "$.final_turns", -1, n),
        passes=r.int_(d["passes"], "$.passes", 0, n),
    )
    _check_cards(r, state)
    _check_routes(r, state)
    _check_phase(r, state)
    return state


def _check_routes(r: _Reader, state: GameState) -> None:
    """Each seat's trains and running score agree with the routes it owns (R2, R24, D35)."""
    for seat, p in enumerate(state.players):
        owned = [i for i, owner in enumerate(state.owners) if owner == seat]
        _check_owned(r, f"$.players[{seat}]", p.trains, p.score, owned, state.rules)


def _check_owned(
    r: _Reader, path: str, trains: int, score: int, owned: Sequence[int], rules: Rules
) -> None:
    """Trains left plus the spaces of the routes owned make the variant's trains (R2), and the
    running score is the points of those routes (R24, D35)."""
    routes = rules.map.routes
    on_board = sum(routes[i].length for i in owned)
    if trains + on_board != rules.variant.trains:
        raise r.fail(f"{path}.trains", f"R2: {trains} trains left and {on_board} on the "
                     f"board, not {rules.variant.trains}")  # fmt: skip
    points = sum(routes[i].points for i in owned)
    if score != points:
        raise r.fail(f"{path}.score", f"D35: a running score of {score}, routes worth {points}")


class _TicketCheck:
    """Tickets must come from the variant's pools, each exactly once over the whole state."""

    def __init__(self, reader: _Reader, rules: Rules) -> None:
        self.r = reader
        self.board = rules.map
        self.pool = frozenset((*rules.variant.long_pool, *rules.variant.regular_pool))
        self.seen: dict[int, str] = {}

    def read(self, value: Any, path: str) -> tuple[int, ...]:
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
        return out

    def check_complete(self) -> None:
        missing = sorted(self.pool - self.seen.keys())
        if missing:
            names = ", ".join(self.board.tickets[t].id for t in missing[:5])
            raise self.r.fail("$", f"{len(missing)} ticket(s) of the variant are nowhere: {names}")


def _read_owners(r: _Reader, value: Any, rules: Rules) -> tuple[int, ...]:
    board = rules.map
    d = r.obj(value, "$.owners", (), tuple(board.route_index))
    owners = [NO_OWNER] * len(board.routes)
    for route_id, seat in d.items():
        owners[board.route_index[route_id]] = r.int_(
            seat, _key_path("$.owners", route_id), 0, rules.players - 1
        )
    fault = _double_fault(rules, owners)
    if fault is not None:
        raise r.fail(_key_path("$.owners", board.routes[fault[0]].id), fault[1])
    return tuple(owners)


def _double_fault(rules: Rules, owners: Sequence[int]) -> tuple[int, str] | None:
    """The second track of the first double route owned against R26, and why."""
    for route in rules.map.routes:
        twin = route.twin
        if twin is None or twin < route.index:
            continue
        a, b = owners[route.index], owners[twin]
        if a == NO_OWNER or b == NO_OWNER:
            continue
        if a == b:
            return twin, "R26a: one seat owns both tracks of a double route"
        if not rules.doubles_open_to_all:
            return twin, (
                f"R26b: with {rules.players} players only one track of a double route may be "
                "claimed"
            )
    return None


def _read_tunnel(
    r: _Reader,
    value: Any,
    rules: Rules,
    owners: tuple[int, ...],
    closed: tuple[int, ...],
    current: int,
    players: list[PlayerState],
    phase: Phase,
) -> PendingTunnel | None:
    """A pending tunnel, present exactly in the TUNNEL phase, that the engine could have made."""
    if value is None:
        if phase is Phase.TUNNEL:
            raise r.fail("$.tunnel", "the TUNNEL phase needs a pending tunnel")
        return None
    if phase is not Phase.TUNNEL:
        raise r.fail(
            "$.tunnel", f"a pending tunnel only exists in the TUNNEL phase, not {phase.name}"
        )
    d = r.obj(value, "$.tunnel", ("route", "laid", "revealed"))
    tunnel = _tunnel_fields(r, d, rules)
    _check_claimable(r, tunnel.route, rules, owners, closed[current], current,
                     players[current].trains)  # fmt: skip
    return tunnel


def _check_claimable(
    r: _Reader,
    ri: int,
    rules: Rules,
    owners: Sequence[int],
    closed: int,
    current: int,
    trains: int,
) -> None:
    """The seat to act may claim the pending tunnel's route: free, open to it, trains enough."""
    route = rules.map.routes[ri]
    if owners[ri] != NO_OWNER or closed >> ri & 1:
        raise r.fail("$.tunnel.route", f"seat {current} may not claim {route.id} (R23, R26)")
    if trains < route.length:
        raise r.fail("$.tunnel.route", f"R22: seat {current} has too few trains for {route.id}")


def _tunnel_fields(r: _Reader, d: dict[str, Any], rules: Rules) -> PendingTunnel:
    """A tunnel route, laid cards that pay for it (R21), up to 3 revealed cards asking for at
    least one extra card (R28, R30, R31, D31); colour and extra are derived."""
    board = rules.map
    ri = r.ref(d["route"], "$.tunnel.route", board.route_index, "route")
    route = board.routes[ri]
    if not route.tunnel:
        raise r.fail("$.tunnel.route", f"{route.id} is not a tunnel")
    laid = r.cards(d["laid"], "$.tunnel.laid")
    why = pays(laid, route.colour, route.length, route.ferry)
    if why is not None:
        raise r.fail("$.tunnel.laid", f"{route.id}: {why}")
    revealed = r.kinds(d["revealed"], "$.tunnel.revealed", 3)
    colour = payment_colour(laid)
    assert colour is not None  # pays() refused mixed colours
    extra = sum(1 for c in revealed if c == LOCOMOTIVE or c == colour)
    if extra == 0:
        raise r.fail("$.tunnel.revealed", "no revealed card asks for an extra card (D31)")
    return PendingTunnel(ri, laid, revealed, colour, extra)


def _card_shortfall(counts: Sequence[int]) -> str:
    parts = [
        f"{counts[k]} {KIND_NAMES[k]} (not {FULL_DECK[k]})"
        for k in range(KINDS)
        if counts[k] != FULL_DECK[k]
    ]
    return ", ".join(parts)


def _check_cards(r: _Reader, state: GameState) -> None:
    """The 110 cards, each kind exactly (R3): hands, pile, row, discard and a pending tunnel."""
    counts = list(state.discard)
    for k in (*state.draw_pile, *state.row):
        if k != NO_CARD:
            counts[k] += 1
    for p in state.players:
        for k in range(KINDS):
            counts[k] += p.hand[k]
    if state.tunnel is not None:
        for k in range(KINDS):
            counts[k] += state.tunnel.laid[k]
        for k in state.tunnel.revealed:
            counts[k] += 1
    if counts != list(FULL_DECK):
        raise r.fail("$", f"R3: the cards do not make the game's 110: {_card_shortfall(counts)}")


def _check_phase(r: _Reader, state: GameState) -> None:
    """Fields that depend on the phase: offers, the end bookkeeping, a possible second card."""
    can_blind = state.pile_size > 0 or state.discard.total > 0
    offers = [len(p.offer) for p in state.players]
    _check_phase_fields(r, state.rules, state.phase, state.current, state.first_player, offers,
                        "offer", state.final_turns, state.passes, can_blind, state.row)  # fmt: skip


def _check_phase_fields(
    r: _Reader,
    rules: Rules,
    phase: Phase,
    current: int,
    first: int,
    offers: Sequence[int],
    offer_field: str,
    final_turns: int,
    passes: int,
    can_blind: bool,
    row: Sequence[int],
) -> None:
    """The phase checks shared by states and views; ``offers`` are offer sizes by seat."""
    n = rules.players
    v = rules.variant
    initial = phase is Phase.INITIAL_TICKETS
    most, rule = (v.deal_long + v.deal_regular, "R9") if initial else (v.draw_tickets, "R37")
    for seat, size in enumerate(offers):
        where = f"$.players[{seat}].{offer_field}"
        if initial:
            waiting = (seat - first) % n >= (current - first) % n
        else:
            waiting = phase is Phase.CHOOSE_TICKETS and seat == current
        if waiting and not size:
            raise r.fail(where, f"seat {seat} must have tickets on offer in the {phase.name} "
                         "phase")  # fmt: skip
        if size and not waiting:
            raise r.fail(where, f"seat {seat} can have no tickets on offer in the {phase.name} "
                         "phase")  # fmt: skip
        if size > most:  # the keep choices would number 2 ** size
            raise r.fail(where, f"{rule}: an offer holds at most {most} tickets, not {size}")
    over = phase is Phase.GAME_OVER
    if initial and final_turns != -1:
        raise r.fail("$.final_turns", "the end cannot be triggered before the first turn")
    if final_turns == 0 and not over:
        raise r.fail("$.final_turns", "no final turn is left, so the game must be over (R46)")
    if passes == n and not over:
        raise r.fail("$.passes", "every seat passed in a row, so the game must be over (D30)")
    second = phase is Phase.SECOND_DRAW
    if second and not can_blind and all(k in (NO_CARD, LOCOMOTIVE) for k in row):
        raise r.fail("$.phase", "no second card can be drawn (D5)")


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
    """Check a view document and build the ``View``."""
    if isinstance(doc, str | bytes):
        doc = parse_json(doc, source)
    r = _Reader(source)
    d = r.header(doc, VIEW_FORMAT, _VIEW_FIELDS)
    raw_players = r.list_(d["players"], "$.players", 5)
    rules = r.make_rules(d, "$", map, len(raw_players), "$.players")
    board, v, n = rules.map, rules.variant, rules.players
    observer = None if d["observer"] is None else r.int_(d["observer"], "$.observer", 0, n - 1)
    n_tickets = len(board.tickets)
    tickets = _TicketCheck(r, rules)
    seats: list[PlayerView] = []
    route_owner: dict[int, int] = {}
    cities: set[int] = set()
    for i, raw in enumerate(raw_players):
        path = f"$.players[{i}]"
        p = r.obj(raw, path, _SEAT_FIELDS)
        if p["seat"] != i:
            raise r.fail(f"{path}.seat", f"expected {i}")
        stations = r.refs(p["stations"], f"{path}.stations", board.city_index, "city", v.stations)
        if cities & set(stations) or len(set(stations)) != len(stations):
            raise r.fail(f"{path}.stations", "R40: two stations in one city")
        cities.update(stations)
        routes = r.refs(
            p["routes"], f"{path}.routes", board.route_index, "route", len(board.routes)
        )
        for ri in routes:
            if ri in route_owner:
                raise r.fail(f"{path}.routes", f"route {board.routes[ri].id} has two owners")
            route_owner[ri] = i
        seat = PlayerView(
            seat=i,
            hand_size=r.int_(p["hand_size"], f"{path}.hand_size", 0, FULL_DECK.total),
            ticket_count=r.int_(p["ticket_count"], f"{path}.ticket_count", 0, n_tickets),
            offer_count=r.int_(p["offer_count"], f"{path}.offer_count", 0, n_tickets),
            trains=r.int_(p["trains"], f"{path}.trains", 0, v.trains),
            stations=tuple(board.cities[c].id for c in stations),
            score=r.int_(p["score"], f"{path}.score"),
            routes=tuple(board.routes[ri].id for ri in sorted(routes)),
            hand=None if p["hand"] is None else r.cards(p["hand"], f"{path}.hand"),
            tickets=_view_tickets(p["tickets"], f"{path}.tickets", tickets),
            offer=_view_tickets(p["offer"], f"{path}.offer", tickets),
        )
        _check_seat(r, seat, path)
        _check_owned(r, path, seat.trains, seat.score, routes, rules)
        seats.append(seat)
    owners = tuple(route_owner.get(ri, NO_OWNER) for ri in range(len(board.routes)))
    fault = _double_fault(rules, owners)
    if fault is not None:
        raise r.fail("$.players", f"{fault[1]} ({board.routes[fault[0]].id})")
    phase = r.phase(d["phase"], "$.phase")
    current = r.int_(d["current"], "$.current", 0, n - 1)
    raw_row = r.list_(d["row"], "$.row", v.face_up)
    if len(raw_row) != v.face_up:
        raise r.fail("$.row", f"expected {v.face_up} face-up slots")
    view = View(
        map=board.id,
        variant=v.id,
        options=rules_options(rules),
        observer=observer,
        phase=phase,
        current=current,
        first_player=r.int_(d["first_player"], "$.first_player", 0, n - 1),
        row=tuple(r.slot(k, f"$.row[{i}]") for i, k in enumerate(raw_row)),
        discard=r.cards(d["discard"], "$.discard"),
        pile_size=r.int_(d["pile_size"], "$.pile_size", 0, FULL_DECK.total),
        ticket_deck_size=r.int_(d["ticket_deck_size"], "$.ticket_deck_size", 0, n_tickets),
        box_size=r.int_(d["box_size"], "$.box_size", 0, n_tickets),
        tunnel=_view_tunnel(r, d["tunnel"], rules, phase),
        final_turns=r.int_(d["final_turns"], "$.final_turns", -1, n),
        passes=r.int_(d["passes"], "$.passes", 0, n),
        players=tuple(seats),
    )
    over = phase is Phase.GAME_OVER
    for i, seat in enumerate(seats):
        path = f"$.players[{i}]"
        if i != observer and (seat.hand is not None or seat.offer is not None):
            raise r.fail(path, "only the observer's hand and offer can be shown")
        if i == observer and (seat.hand is None or seat.offer is None):
            raise r.fail(path, "the observer's hand and offer are shown")
        if (seat.tickets is not None) != (i == observer or over):
            raise r.fail(f"{path}.tickets", "tickets are shown to their holder, and to everyone "
                         "once the game is over (R38, R47)")  # fmt: skip
    can_blind = view.pile_size > 0 or view.discard.total > 0
    offers = [p.offer_count for p in seats]
    _check_phase_fields(r, rules, phase, current, view.first_player, offers, "offer_count",
                        view.final_turns, view.passes, can_blind, view.row)  # fmt: skip
    if view.tunnel is not None:
        ri = board.route_index[view.tunnel.route]
        closed = _closed_masks(rules, owners)[current]
        _check_claimable(r, ri, rules, owners, closed, current, seats[current].trains)
    _check_view_totals(r, view, rules)
    return view


def _view_tickets(value: Any, path: str, check: _TicketCheck) -> tuple[str, ...] | None:
    """Tickets shown in a view: of the variant's pools, each shown once (R8)."""
    if value is None:
        return None
    return tuple(check.board.tickets[t].id for t in check.read(value, path))


def _check_seat(r: _Reader, seat: PlayerView, path: str) -> None:
    if seat.hand is not None and seat.hand.total != seat.hand_size:
        raise r.fail(f"{path}.hand_size", "does not match the hand shown")
    if seat.tickets is not None and len(seat.tickets) != seat.ticket_count:
        raise r.fail(f"{path}.ticket_count", "does not match the tickets shown")
    if seat.offer is not None and len(seat.offer) != seat.offer_count:
        raise r.fail(f"{path}.offer_count", "does not match the offer shown")


def _view_tunnel(r: _Reader, value: Any, rules: Rules, phase: Phase) -> TunnelView | None:
    if (value is None) != (phase is not Phase.TUNNEL):
        raise r.fail("$.tunnel", "a pending tunnel exists exactly in the TUNNEL phase")
    if value is None:
        return None
    d = r.obj(value, "$.tunnel", ("route", "laid", "revealed", "colour", "extra"))
    t = _tunnel_fields(r, d, rules)
    if r.kind(d["colour"], "$.tunnel.colour") != t.colour:
        raise r.fail("$.tunnel.colour", "is not the colour of the laid cards (D7)")
    if r.int_(d["extra"], "$.tunnel.extra", 1, 3) != t.extra:
        raise r.fail("$.tunnel.extra", f"the revealed cards ask for {t.extra} (R30, R31)")
    return TunnelView(rules.map.routes[t.route].id, t.laid, t.revealed, t.colour, t.extra)


def _check_view_totals(r: _Reader, view: View, rules: Rules) -> None:
    """The hidden cards and tickets must exactly fill the hidden places."""
    try:
        unseen = unseen_cards(view)
    except DataError:
        raise r.fail("$", "R3: more cards are visible than the game has") from None
    hidden = view.pile_size + sum(p.hand_size for p in view.players if p.hand is None)
    if hidden != unseen.total:
        raise r.fail("$", f"R3: {unseen.total} cards are unseen but {hidden} are hidden")
    v = rules.variant
    pool = len(v.long_pool) + len(v.regular_pool)
    placed = view.ticket_deck_size + view.box_size
    placed += sum(p.ticket_count + p.offer_count for p in view.players)
    if placed != pool:
        raise r.fail("$", f"the variant has {pool} tickets, the view places {placed}")


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


def _plain(value: Any) -> Any:
    """An attrs tree of ints, strings, booleans, None and tuples as plain JSON values."""
    if attrs.has(type(value)):
        return {f.name: _plain(getattr(value, f.name)) for f in attrs.fields(type(value))}
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return value


def scoreboard_to_json(board: Scoreboard) -> JsonDoc:
    """A scoreboard (``scoring.score``) as JSON: its fields as they are, tuples as lists."""
    return {"format": SCOREBOARD_FORMAT, "version": VERSION, **_plain(board)}


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
    keys = []
    for seat, p in enumerate(board.players):
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
        keys.append(tuple(-expected[c] if c == "fewest_stations" else expected[c] for c in crit))
    ranks = [1 + sum(other > key for other in keys) for key in keys]
    for seat, p in enumerate(board.players):
        if p.rank != ranks[seat]:
            raise r.fail(f"$.players[{seat}].rank", f"the figures give rank {ranks[seat]}")
    ranking = tuple(sorted(range(n), key=lambda s: (ranks[s], s)))
    if board.ranking != ranking:
        raise r.fail("$.ranking", f"the figures give the ranking {list(ranking)}")
    if board.winners != tuple(s for s in ranking if ranks[s] == 1):
        raise r.fail("$.winners", "not the seats of rank 1")
    decided = tuple(
        next((c for c, x, y in zip(crit, keys[a], keys[b], strict=True) if x != y), None)
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
        return hint(
            **{f.name: _typed(r, d[f.name], hints[f.name], _key_path(path, f.name)) for f in fields}
        )
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
