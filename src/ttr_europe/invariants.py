"""What every position must satisfy: the one home of the checks on states and views.

``check_invariants(state)`` lists what is broken (an empty list when the state is sound). The
JSON readers refuse a document whose state or view has a problem, the soak script and the test
strategies check every state they reach, and a downstream project can check its own positions
the same way. Each problem names the JSON path of the fault in the state's (or view's) JSON
document, and the rule it breaks when there is one.

The checks come in three groups:

- **structure**, always: what the engine needs to play and score a position. Sizes, ranges,
  stations (R40), double routes (R26), running scores that follow from the routes owned (R24; a
  position where they disagree could not be scored, D35), tickets of the variant held once
  (R8), no more cards of a kind than the game has (R3), offers and end bookkeeping that fit the
  phase (R9, R37, R46, D30, D5), a pending tunnel exactly in the ``TUNNEL`` phase that the
  engine could have made (R21, R28, R30, R31, D31);
- **conservation** (``complete=True``): the 110 cards (R3) and every ticket of the variant are
  somewhere; a hand-built position (``testing.scenario(pile=...)``) may hold fewer on purpose;
- **reachability** (``reachable=True``): trains left that follow from the routes owned (R2), and
  no face-up slot empty while cards are left (D3). Play keeps both; a hand-built position
  (``scenario(trains={0: 3})`` for an end-game test) need not.

A valid position is one with no structural problem: the engine plays and scores it, the state
reader (``jsonio.state_from_json``) accepts it, and ``testing.scenario`` builds nothing else, so
that every state the helpers build can be saved and read back. The reader does not ask for
conservation or reachability. A view is checked for structure and, in addition, for hidden
cards and tickets that exactly fill the hidden places (which cards a partial position left out
is not in the view, so ``determinize`` could not place them).
"""

from __future__ import annotations

import json
from collections.abc import Sequence

import attrs

from ._payments import payment_colour, pays, tunnel_extra
from .board import Map
from .cards import FULL_DECK, KIND_NAMES, KINDS, LOCOMOTIVE, Cards
from .errors import BadArgumentError
from .state import NO_CARD, NO_OWNER, GameState, PendingTunnel, Phase, Rules, closed_masks
from .views import View, cards_placed, rules_for, visible_cards

__all__ = [
    "Problem",
    "card_total",
    "cards_placed",
    "check_invariants",
    "state_problems",
    "tunnel_colour_extra",
    "view_problems",
]


@attrs.frozen
class Problem:
    """One broken invariant: where in the JSON document, and what (starting with its rule)."""

    path: str
    message: str

    def __str__(self) -> str:
        return f"{self.path}: {self.message}"


def check_invariants(
    position: GameState | View,
    *,
    complete: bool = True,
    reachable: bool = True,
    map: Map | None = None,
) -> list[Problem]:
    """Every broken invariant of a state or a view; empty when it is sound.

    ``complete=False`` skips card and ticket conservation, ``reachable=False`` the bookkeeping
    that play keeps (see the module docstring). ``map`` is needed only for a view of a map that
    is not shipped.
    """
    if isinstance(position, View):
        return view_problems(position, rules_for(position, map))
    if not isinstance(position, GameState):
        raise BadArgumentError(
            f"check_invariants takes a GameState or a View, not {type(position).__name__}",
            argument="position",
        )
    return state_problems(position, complete=complete, reachable=reachable)


# --------------------------------------------------------------------------- cards


def card_total(state: GameState) -> Cards:
    """Every train card of the state, wherever it is (hands, pile, row, discard, tunnel)."""
    tunnel = state.tunnel
    laid: tuple[Sequence[int], ...] = () if tunnel is None else (tunnel.laid,)
    revealed = () if tunnel is None else tunnel.revealed
    return cards_placed(
        (p.hand for p in state.players),
        (*state.draw_pile, *state.row, *revealed),
        state.discard,
        *laid,
    )


def _shortfall(counts: Sequence[int], kinds: Sequence[int] = range(KINDS)) -> str:
    return ", ".join(
        f"{counts[k]} {KIND_NAMES[k]} (not {FULL_DECK[k]})"
        for k in kinds
        if counts[k] != FULL_DECK[k]
    )


# --------------------------------------------------------------------------- states


def _key_path(path: str, key: str) -> str:
    return f"{path}.{key}" if key.isidentifier() else f"{path}[{json.dumps(key)}]"


def state_problems(
    state: GameState, *, complete: bool = True, reachable: bool = True
) -> list[Problem]:
    """The problems of a state (see ``check_invariants``)."""
    rules = state.rules
    board, v, n = rules.map, rules.variant, rules.players
    out: list[Problem] = []
    sizes = (
        ("$.players", len(state.players), n),
        ("$.row", len(state.row), v.face_up),
        ("$.owners", len(state.owners), len(board.routes)),
        ("$.closed", len(state.closed), n),
    )
    for path, got, want in sizes:
        if got != want:
            out.append(Problem(path, f"expected {want} entries, got {got}"))
    if out:
        return out  # the other checks index by seat and route
    for path, value, low, high in (
        ("$.current", state.current, 0, n - 1),
        ("$.first_player", state.first_player, 0, n - 1),
        ("$.final_turns", state.final_turns, -1, n),
        ("$.passes", state.passes, 0, n),
    ):
        if not low <= value <= high:
            out.append(Problem(path, f"{value} is out of range {low}..{high}"))
    if out:
        return out
    out += _station_problems([p.stations for p in state.players], board, v.stations)
    for r, seat in enumerate(state.owners):
        if seat != NO_OWNER and not 0 <= seat < n:
            where = _key_path("$.owners", board.routes[r].id)
            out.append(Problem(where, f"no seat {seat} in a {n}-player game"))
    fault = double_fault(rules, state.owners)
    if fault is not None:
        out.append(Problem(_key_path("$.owners", board.routes[fault[0]].id), fault[1]))
    if state.closed != closed_masks(rules, state.owners):
        out.append(Problem("$", "the closed-route masks do not follow from the owners (R26)"))
    for seat, p in enumerate(state.players):
        if not 0 <= p.trains <= v.trains:
            out.append(Problem(f"$.players[{seat}].trains", f"R22: {p.trains} trains"))
        owned = [r for r, owner in enumerate(state.owners) if owner == seat]
        out += _owned_problems(f"$.players[{seat}]", p.trains, p.score, owned, rules, reachable)
    if state.tunnel is not None or state.phase is Phase.TUNNEL:
        out += _tunnel_problems(
            rules,
            state.phase,
            state.tunnel,
            state.owners,
            state.current,
            state.players[state.current].trains,
        )
    out += phase_problems(
        rules,
        state.phase,
        state.current,
        state.first_player,
        [len(p.offer) for p in state.players],
        "offer",
        state.final_turns,
        state.passes,
        state.pile_size > 0 or state.discard.total > 0,
        state.row,
    )
    out += _ticket_problems(state, complete)
    counts = card_total(state)
    if complete and counts != FULL_DECK:
        out.append(Problem("$", f"R3: the cards do not make the game's 110: {_shortfall(counts)}"))
    elif any(counts[k] > FULL_DECK[k] for k in range(KINDS)):
        over = [k for k in range(KINDS) if counts[k] > FULL_DECK[k]]
        out.append(Problem("$", f"R3: more cards than the game's 110: {_shortfall(counts, over)}"))
    if reachable:
        out += _bookkeeping_problems(state)
    return out


def _station_problems(stations: Sequence[Sequence[int]], board: Map, most: int) -> list[Problem]:
    """At most ``most`` stations a seat, never two in one city (R40)."""
    out: list[Problem] = []
    taken: dict[int, str] = {}
    for seat, built in enumerate(stations):
        if len(built) > most:
            out.append(
                Problem(
                    f"$.players[{seat}].stations", f"R40: {len(built)} stations, at most {most}"
                )
            )
        for j, c in enumerate(built):
            where = f"$.players[{seat}].stations[{j}]"
            if c in taken:
                out.append(
                    Problem(
                        where, f"R40: a station is already in {board.cities[c].id} ({taken[c]})"
                    )
                )
            taken.setdefault(c, where)
    return out


def double_fault(rules: Rules, owners: Sequence[int]) -> tuple[int, str] | None:
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


def _ticket_problems(state: GameState, complete: bool) -> list[Problem]:
    """Tickets of the variant's pools, each at most once, all of them when ``complete`` (R8)."""
    board, v = state.rules.map, state.rules.variant
    pool = frozenset((*v.long_pool, *v.regular_pool))
    places: list[tuple[str, tuple[int, ...]]] = []
    for seat, p in enumerate(state.players):
        places += [(f"$.players[{seat}].tickets", p.tickets), (f"$.players[{seat}].offer", p.offer)]
    places += [("$.ticket_deck", state.ticket_deck), ("$.box", state.box)]
    out: list[Problem] = []
    seen: dict[int, str] = {}
    for path, held in places:
        for i, t in enumerate(held):
            where = f"{path}[{i}]"
            name = board.tickets[t].id
            if t not in pool:
                out.append(Problem(where, f"R8: ticket {name!r} is not in this variant"))
            elif t in seen:
                out.append(Problem(where, f"R8: ticket {name!r} is also at {seen[t]}"))
            else:
                seen[t] = where
    missing = sorted(pool - seen.keys()) if complete else []
    if missing:
        names = ", ".join(board.tickets[t].id for t in missing[:5])
        out.append(
            Problem("$", f"R8: {len(missing)} ticket(s) of the variant are nowhere: {names}")
        )
    return out


def _owned_problems(
    path: str, trains: int, score: int, owned: Sequence[int], rules: Rules, reachable: bool
) -> list[Problem]:
    """A seat's running score follows from the routes it owns (R24), or scoring would refuse
    the position (D35); with ``reachable``, its trains left too (R2)."""
    routes, want = rules.map.routes, rules.variant.trains
    out: list[Problem] = []
    if reachable and trains + sum(routes[r].length for r in owned) != want:
        out.append(Problem(f"{path}.trains", f"R2: {trains} trains left plus the routes owned "
                           f"is not {want}"))  # fmt: skip
    if score != sum(routes[r].points for r in owned):
        out.append(Problem(f"{path}.score", f"R24: {score} is not the points of the routes owned"))
    return out


def _bookkeeping_problems(state: GameState) -> list[Problem]:
    """D3's full row: play keeps it, a position edited by hand need not."""
    if NO_CARD in state.row and (state.pile_size or state.discard.total):
        return [Problem("$.row", "D3: an empty face-up slot while cards are left")]
    return []


# --------------------------------------------------------------------------- phase and tunnel


def phase_problems(
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
) -> list[Problem]:
    """The fields that depend on the phase, shared by states and views.

    ``offers`` are the offer sizes by seat, found at ``$.players[seat].<offer_field>``.
    """
    n = rules.players
    v = rules.variant
    out: list[Problem] = []
    initial = phase is Phase.INITIAL_TICKETS
    most, rule = (v.deal_long + v.deal_regular, "R9") if initial else (v.draw_tickets, "R37")
    for seat, size in enumerate(offers):
        where = f"$.players[{seat}].{offer_field}"
        if initial:
            waiting = (seat - first) % n >= (current - first) % n
        else:
            waiting = phase is Phase.CHOOSE_TICKETS and seat == current
        if waiting and not size:
            out.append(
                Problem(
                    where,
                    f"{rule}: seat {seat} must have tickets on offer in the {phase.name} phase",
                )
            )
        if size and not waiting:
            out.append(
                Problem(
                    where,
                    f"{rule}: seat {seat} can have no tickets on offer in the {phase.name} phase",
                )
            )
        if size > most:  # the keep choices would number 2 ** size
            out.append(Problem(where, f"{rule}: an offer holds at most {most} tickets, not {size}"))
    over = phase is Phase.GAME_OVER
    if initial and final_turns != -1:
        out.append(
            Problem("$.final_turns", "R46: the end cannot be triggered before the first turn")
        )
    if final_turns == 0 and not over:
        out.append(Problem("$.final_turns", "R46: no final turn is left, so the game must be over"))
    if passes == n and not over:
        out.append(Problem("$.passes", "D30: every seat passed in a row, so the game must be over"))
    second = phase is Phase.SECOND_DRAW
    if second and not can_blind and all(k in (NO_CARD, LOCOMOTIVE) for k in row):
        out.append(Problem("$.phase", "D5: no second card can be drawn"))
    return out


def tunnel_colour_extra(laid: tuple[int, ...], revealed: Sequence[int]) -> tuple[int, int]:
    """The colour of laid cards (``LOCOMOTIVE`` when all are locomotives, D7; -1 when mixed)
    and the extra cards the revealed ones ask for (R30, R31)."""
    colour = payment_colour(laid)
    if colour is None:
        return -1, 0
    return colour, tunnel_extra(colour, revealed)


def _tunnel_problems(
    rules: Rules,
    phase: Phase,
    tunnel: PendingTunnel[int] | None,
    owners: Sequence[int],
    current: int,
    trains: int,
) -> list[Problem]:
    """A pending tunnel exactly in the TUNNEL phase, one the engine could have made."""
    if tunnel is None:
        return [Problem("$.tunnel", "D31: the TUNNEL phase needs a pending tunnel")]
    if phase is not Phase.TUNNEL:
        return [
            Problem(
                "$.tunnel",
                f"D31: a pending tunnel only exists in the TUNNEL phase, not {phase.name}",
            )
        ]
    board = rules.map
    if not 0 <= tunnel.route < len(board.routes):
        return [Problem("$.tunnel.route", f"no route {tunnel.route}")]
    route = board.routes[tunnel.route]
    if not route.tunnel:
        return [Problem("$.tunnel.route", f"R28: {route.id} is not a tunnel")]
    why = pays(tunnel.laid, route.colour, route.length, route.ferry)
    if why is not None:
        return [Problem("$.tunnel.laid", f"R21: {route.id}: {why}")]
    out: list[Problem] = []
    if len(tunnel.revealed) > 3:
        out.append(Problem("$.tunnel.revealed", "R29: at most three cards are revealed"))
    colour, extra = tunnel_colour_extra(tunnel.laid, tunnel.revealed)
    if tunnel.colour != colour:
        out.append(Problem("$.tunnel.colour", "D7: not the colour of the laid cards"))
    if extra == 0:
        out.append(Problem("$.tunnel.revealed", "D31: no revealed card asks for an extra card"))
    elif tunnel.extra != extra:
        out.append(Problem("$.tunnel.extra", f"R30: the revealed cards ask for {extra}"))
    closed = closed_masks(rules, tuple(owners))[current]
    if owners[tunnel.route] != NO_OWNER or closed >> tunnel.route & 1:
        out.append(Problem("$.tunnel.route", f"R23: seat {current} may not claim {route.id} (R26)"))
    elif trains < route.length:
        out.append(
            Problem("$.tunnel.route", f"R22: seat {current} has too few trains for {route.id}")
        )
    return out


# --------------------------------------------------------------------------- views


def view_problems(view: View, rules: Rules) -> list[Problem]:
    """The problems of a view taken under ``rules`` (the same checks as for a state, on what
    the view shows, and hidden cards and tickets that exactly fill the hidden places)."""
    board, v, n = rules.map, rules.variant, rules.players
    out: list[Problem] = []
    if len(view.players) != n or len(view.row) != v.face_up:
        return [Problem("$", f"expected {n} seats and {v.face_up} face-up slots")]
    if view.observer is not None and not 0 <= view.observer < n:
        return [Problem("$.observer", f"no seat {view.observer}")]
    for path, value in (("$.current", view.current), ("$.first_player", view.first_player)):
        if not 0 <= value < n:
            return [Problem(path, f"{value} is out of range 0..{n - 1}")]
    unknown = _unknown_ids(view, board)
    if unknown:
        return unknown
    stations = [tuple(board.city_index[c] for c in p.stations) for p in view.players]
    out += _station_problems(stations, board, v.stations)
    owners = [NO_OWNER] * len(board.routes)
    for seat, p in enumerate(view.players):
        path = f"$.players[{seat}]"
        if p.seat != seat:
            out.append(Problem(f"{path}.seat", f"expected {seat}"))
        out += _route_order_problems(board, p.routes, f"{path}.routes")
        for route_id in p.routes:
            ri = board.route_index[route_id]
            if owners[ri] != NO_OWNER:
                out.append(Problem(f"{path}.routes", f"route {route_id} has two owners"))
            owners[ri] = seat
        owned = [board.route_index[route_id] for route_id in p.routes]
        out += _owned_problems(path, p.trains, p.score, owned, rules, reachable=False)
        out += _seat_problems(view, seat, path)
    fault = double_fault(rules, owners)
    if fault is not None:
        out.append(Problem("$.players", f"{fault[1]} ({board.routes[fault[0]].id})"))
    out += phase_problems(
        rules,
        view.phase,
        view.current,
        view.first_player,
        [p.offer_count for p in view.players],
        "offer_count",
        view.final_turns,
        view.passes,
        view.pile_size > 0 or view.discard.total > 0,
        view.row,
    )
    t = view.tunnel
    if t is not None or view.phase is Phase.TUNNEL:
        tunnel = None
        if t is not None:
            ri = board.route_index[t.route]
            tunnel = PendingTunnel(ri, t.laid, t.revealed, t.colour, t.extra)
        out += _tunnel_problems(
            rules, view.phase, tunnel, owners, view.current, view.players[view.current].trains
        )
    out += _view_total_problems(view, rules)
    return out


def _route_order_problems(board: Map, routes: Sequence[str], path: str) -> list[Problem]:
    """A seat's routes are listed once each, in map order: the one order ``observe`` writes,
    so that two views of one position are equal and ``observe(determinize(v)) == v``."""
    index = [board.route_index[r] for r in routes]
    for k in range(1, len(index)):
        if index[k] <= index[k - 1]:
            return [Problem(f"{path}[{k}]", f"routes are listed once each in map order: "
                            f"{routes[k]} does not come after {routes[k - 1]}")]  # fmt: skip
    return []


def _unknown_ids(view: View, board: Map) -> list[Problem]:
    """Cities, routes and tickets a view names that the map does not have."""
    out: list[Problem] = []
    for seat, p in enumerate(view.players):
        for field, ids, index in (
            ("stations", p.stations, board.city_index),
            ("routes", p.routes, board.route_index),
            ("tickets", p.tickets or (), board.ticket_index),
            ("offer", p.offer or (), board.ticket_index),
        ):
            out += [Problem(f"$.players[{seat}].{field}", f"unknown id {i!r}") for i in ids
                    if i not in index]  # fmt: skip
    if view.tunnel is not None and view.tunnel.route not in board.route_index:
        out.append(Problem("$.tunnel.route", f"unknown route {view.tunnel.route!r}"))
    return out


def _seat_problems(view: View, seat: int, path: str) -> list[Problem]:
    """Sizes that match what is shown, and only what the observer may see shown."""
    p = view.players[seat]
    out: list[Problem] = []
    if p.hand is not None and p.hand.total != p.hand_size:
        out.append(Problem(f"{path}.hand_size", "does not match the hand shown"))
    if p.tickets is not None and len(p.tickets) != p.ticket_count:
        out.append(Problem(f"{path}.ticket_count", "does not match the tickets shown"))
    if p.offer is not None and len(p.offer) != p.offer_count:
        out.append(Problem(f"{path}.offer_count", "does not match the offer shown"))
    mine = seat == view.observer
    if not mine and (p.hand is not None or p.offer is not None):
        out.append(Problem(path, "R52: only the observer's hand and offer can be shown"))
    if mine and (p.hand is None or p.offer is None):
        out.append(Problem(path, "R52: the observer's hand and offer are shown"))
    if (p.tickets is not None) != (mine or view.phase is Phase.GAME_OVER):
        out.append(
            Problem(
                f"{path}.tickets",
                "R52: tickets are shown to their holder, and to "
                "everyone once the game is over (R38, R47)",
            )
        )
    return out


def _view_total_problems(view: View, rules: Rules) -> list[Problem]:
    """The hidden cards and tickets must exactly fill the hidden places (R3, R8)."""
    out: list[Problem] = []
    seen = visible_cards(view)
    if any(seen[k] > FULL_DECK[k] for k in range(KINDS)):
        return [Problem("$", "R3: more cards are visible than the game has")]
    unseen = FULL_DECK.total - seen.total
    hidden = view.pile_size + sum(p.hand_size for p in view.players if p.hand is None)
    if hidden != unseen:
        out.append(Problem("$", f"R3: {unseen} cards are unseen but {hidden} are hidden"))
    v = rules.variant
    pool = len(v.long_pool) + len(v.regular_pool)
    placed = view.ticket_deck_size + view.box_size
    placed += sum(p.ticket_count + p.offer_count for p in view.players)
    if placed != pool:
        out.append(Problem("$", f"R8: the variant has {pool} tickets, the view places {placed}"))
    return out
