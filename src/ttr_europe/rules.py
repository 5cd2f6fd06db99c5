"""Legality and the reducer: ``new_game``, ``legal_actions``, ``is_legal``, ``apply``.

``apply`` checks an action with the same predicates ``legal_actions`` enumerates from, then
builds the next state in one step. Every refusal is an ``IllegalActionError`` naming its rule.
"""

from __future__ import annotations

import operator
from bisect import bisect_right
from collections.abc import Iterator, Sequence
from itertools import combinations
from typing import Any, overload

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
from .board import Map, RouteKind
from .cards import (
    DECK_SIZE,
    EMPTY,
    FULL_DECK,
    KIND_NAMES,
    LOCOMOTIVE,
    Cards,
    count_payments,
    payment_colour,
    payments,
    pays,
)
from .data import load_map
from .errors import (
    GameOverError,
    IllegalActionError,
    MalformedActionError,
    NotYourTurnError,
    SetupError,
)
from .guards import check_setup, not_a_state
from .rng import below, seed_state, shuffled
from .state import (
    NO_CARD,
    NO_OWNER,
    GameState,
    PendingTunnel,
    Phase,
    PlayerState,
    Rules,
)
from .table import Table

_DRAW_BLIND = DrawBlind()
_DRAW_TICKETS = DrawTickets()
_PASS = Pass()
_WITHDRAW = WithdrawTunnel()
_FACE_UP = tuple(DrawFaceUp(slot) for slot in range(DECK_SIZE))  # a row is never longer
TUNNEL_REVEAL = 3  # cards turned over for a tunnel (R28)
END_TRIGGER_TRAINS = 2  # the last round starts at this many trains or fewer (R46)


# --------------------------------------------------------------------------- setup


def new_game(
    map: str | Map = "europe",
    variant: str = "base",
    players: int = 2,
    seed: int = 0,
    first_player: int | None = None,
    **options: Any,
) -> GameState:
    """Deal a new game (R5-R10): shuffled cards, hands, face-up row, starting tickets.

    ``options`` are the switches of ``Rules`` (rules.md Part D options). The first player is
    drawn with the seeded generator unless given (D18).
    """
    check_setup(map, variant, players, seed)
    board = load_map(map) if isinstance(map, str) else map
    if variant not in board.variants:
        raise SetupError(f"map {board.id!r} has no variant {variant!r}; "
                         f"known: {', '.join(board.variants)}")  # fmt: skip
    v = board.variants[variant]
    if type(players) is not int or not v.min_players <= players <= v.max_players:
        raise SetupError(f"R1: {v.min_players} to {v.max_players} players, not {players!r}")
    try:
        rules = Rules(board, v, players, **options)
    except TypeError as exc:
        raise SetupError(f"unknown rules option: {exc}") from None
    _check_options(rules)
    if first_player is not None and (type(first_player) is not int
                                     or not 0 <= first_player < players):  # fmt: skip
        raise SetupError(f"first_player must be a seat 0..{players - 1}, not {first_player!r}")
    rng = seed_state(seed)
    pile, rng = shuffled(rng, FULL_DECK.kinds())
    hands = [Cards.from_kinds(pile[p * v.hand : (p + 1) * v.hand]) for p in range(players)]
    table = Table(pile, players * v.hand, (NO_CARD,) * v.face_up, EMPTY, rng,
                  v.reset_locomotives, rules.reset_cap)  # fmt: skip
    table.refill()  # R7
    rng = table.rng
    longs, rng = shuffled(rng, v.long_pool)
    regulars, rng = shuffled(rng, v.regular_pool)
    dl, dr = v.deal_long, v.deal_regular
    if len(longs) < dl * players or len(regulars) < dr * players:
        raise SetupError(f"variant {variant!r} has too few tickets for {players} players")
    offers = [
        longs[p * dl : (p + 1) * dl] + regulars[p * dr : (p + 1) * dr] for p in range(players)
    ]
    if first_player is None:
        first_player, rng = below(rng, players)
    state = GameState(
        rules=rules,
        phase=Phase.INITIAL_TICKETS,
        current=first_player,
        first_player=first_player,
        players=tuple(
            PlayerState(hands[p], v.trains, (), 0, (), offers[p]) for p in range(players)
        ),
        pile=table.pile,
        pile_top=table.top,
        row=table.frozen_row(),
        discard=table.frozen_discard(),
        ticket_deck=regulars[dr * players :],
        box=longs[dl * players :],
        owners=(NO_OWNER,) * len(board.routes),
        closed=(0,) * players,
        tunnel=None,
        rng=rng,
        final_turns=-1,
        passes=0,
    )
    return state


def _check_options(rules: Rules) -> None:
    """Option values of the wrong type or sign would silently change the rules: refuse them."""
    for name in ("second_card_optional", "tiebreak_path_length", "bonus_at_zero"):
        if type(getattr(rules, name)) is not bool:
            raise SetupError(f"option {name} must be True or False")
    if type(rules.reset_cap) is not int or rules.reset_cap < 0:
        raise SetupError("D2: reset_cap must be an int >= 0 (0 = no limit)")
    limit = rules.max_long_kept
    if limit is not None and (type(limit) is not int or limit < 0):
        raise SetupError("B4: max_long_kept must be None or an int >= 0")


# --------------------------------------------------------------------------- queries


def current_player(state: GameState) -> int | None:
    """The seat to act, or None when the game is over."""
    if type(state) is not GameState:
        raise not_a_state(state, "current_player")
    return None if state.phase is Phase.GAME_OVER else state.current


def is_terminal(state: GameState) -> bool:
    if type(state) is not GameState:
        raise not_a_state(state, "is_terminal")
    return state.phase is Phase.GAME_OVER


def _can_draw_blind(state: GameState) -> bool:
    return state.pile_top < len(state.pile) or state.discard.total > 0


def _second_card_exists(pile_left: bool, row: tuple[int, ...] | list[int]) -> bool:
    """Whether any legal second card exists (D5): blind, or a face-up non-locomotive."""
    return pile_left or any(c != NO_CARD and c != LOCOMOTIVE for c in row)


def _occupied_cities(state: GameState) -> set[int]:
    return {c for p in state.players for c in p.stations}


# --------------------------------------------------------------------------- legal actions


class LegalActions(Sequence[Action]):
    """Every legal action of a state in a fixed order, built lazily.

    Claims and stations are counted without being built, so ``len`` and ``seq[i]`` (what
    ``random.choice`` uses) cost little even when a big hand makes thousands of payments.
    Order: face-up draws, blind draw, tickets, claims (by route colour with gray last, length,
    ferry symbols, then route index, then payment),
    stations (by city, then payment); or the choices of a pending phase.
    """

    __slots__ = ("_claims", "_ends", "_free", "_head", "_kinds", "_len", "_pays", "_state")

    def __init__(
        self,
        head: tuple[Action, ...],
        state: GameState | None = None,
        kinds: list[tuple[RouteKind, int, int]] | None = None,
        ends: list[int] | None = None,
        free_cities: int = 0,
        station_pays: int = 0,
    ) -> None:
        self._head = head
        self._state = state
        self._kinds = kinds or []  # (kind, open routes mask, payments per route)
        self._ends = ends or []
        self._claims = self._ends[-1] if self._ends else 0
        self._free = free_cities
        self._pays = station_pays
        self._len = len(head) + self._claims + free_cities * station_pays

    def __len__(self) -> int:
        return self._len

    @overload
    def __getitem__(self, index: int) -> Action: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[Action]: ...
    def __getitem__(self, index: int | slice) -> Action | Sequence[Action]:
        if type(index) is not int:
            if isinstance(index, slice):
                return [self[i] for i in range(*index.indices(self._len))]
            index = operator.index(index)
        if index < 0:
            index += self._len
        if not 0 <= index < self._len:
            raise IndexError("legal action index out of range")
        head = len(self._head)
        if index < head:
            return self._head[index]
        index -= head
        state = self._state
        assert state is not None
        hand = state.players[state.current].hand
        if index < self._claims:
            k = bisect_right(self._ends, index)
            kind, mask, n = self._kinds[k]
            nth, pay = divmod(index - (self._ends[k - 1] if k else 0), n)
            for _ in range(nth):
                mask &= mask - 1  # drop the lowest route
            route = state.rules.map.routes[(mask & -mask).bit_length() - 1]
            return ClaimRoute(route.id, payments(kind.colour, kind.length, kind.ferry, hand)[pay])
        nth, pay = divmod(index - self._claims, self._pays)
        city = _free_cities(state)[nth]
        cost = len(state.players[state.current].stations) + 1
        return BuildStation(state.rules.map.cities[city].id, payments(None, cost, 0, hand)[pay])

    def __iter__(self) -> Iterator[Action]:
        yield from self._head
        state = self._state
        if state is None:
            return
        board = state.rules.map
        player = state.players[state.current]
        for kind, mask, _ in self._kinds:
            options = payments(kind.colour, kind.length, kind.ferry, player.hand)
            for r in _bits(mask):
                route = board.routes[r].id
                for pay in options:
                    yield ClaimRoute(route, pay)
        if self._pays:
            options = payments(None, len(player.stations) + 1, 0, player.hand)
            for c in _free_cities(state):
                city = board.cities[c].id
                for pay in options:
                    yield BuildStation(city, pay)

    def __contains__(self, action: object) -> bool:
        if not _well_formed(action):
            return False
        return any(a == action for a in self)

    def __repr__(self) -> str:
        return f"<LegalActions: {self._len}>"


def _well_formed(action: object) -> bool:
    """Whether a slot is an int and a payment is ``Cards``, as ``apply`` requires.

    Equality alone is not enough: ``DrawFaceUp(True) == DrawFaceUp(1)`` and a plain tuple
    equals the ``Cards`` with the same counts, yet ``apply`` refuses both as malformed.
    """
    return (
        type(getattr(action, "slot", 0)) is int and type(getattr(action, "payment", EMPTY)) is Cards
    )


def legal_actions(state: GameState) -> LegalActions:
    """Every legal action of the player to act, payments included (D24)."""
    if type(state) is not GameState:
        raise not_a_state(state, "legal_actions")
    phase = state.phase
    if phase is Phase.TURN:
        return _turn_actions(state)
    if phase is Phase.SECOND_DRAW:
        head: list[Action] = [_FACE_UP[s] for s, c in enumerate(state.row)
                              if c != NO_CARD and c != LOCOMOTIVE]  # fmt: skip
        if _can_draw_blind(state):
            head.append(_DRAW_BLIND)
        if state.rules.second_card_optional:
            head.append(_PASS)
        return LegalActions(tuple(head))
    if phase is Phase.TUNNEL:
        return LegalActions((*(PayTunnel(p) for p in _tunnel_payments(state)), _WITHDRAW))
    if phase is Phase.INITIAL_TICKETS or phase is Phase.CHOOSE_TICKETS:
        return LegalActions(tuple(KeepTickets(keep) for keep in _keep_choices(state)))
    return LegalActions(())


def _turn_actions(state: GameState) -> LegalActions:
    """The start of a turn: draws, tickets, then claims and stations counted per route kind."""
    row = state.row
    if NO_CARD in row:
        head: list[Action] = [_FACE_UP[s] for s in range(len(row)) if row[s] != NO_CARD]
    else:
        head = list(_FACE_UP[: len(row)])
    if state.pile_top < len(state.pile) or state.discard.total:
        head.append(_DRAW_BLIND)
    if state.ticket_deck:
        head.append(_DRAW_TICKETS)
    board = state.rules.map
    seat = state.current
    player = state.players[seat]
    hand = player.hand
    trains = player.trains
    locos = hand[LOCOMOTIVE]
    avail = ~state.closed[seat]
    kinds: list[tuple[RouteKind, int, int]] = []
    ends: list[int] = []
    total = 0
    held_desc = sorted(hand[:LOCOMOTIVE], reverse=True)
    for group, held in zip(board.kind_groups, (*hand[:LOCOMOTIVE], held_desc[0]), strict=True):
        reach = held + locos  # no payment for a longer route in this group (R21)
        if reach > trains:
            reach = trains  # R22
        for kind in group:  # R21, R22, R27: the same count as cards.count_payments
            colour, length, ferry, mask = kind
            if length > reach:
                break  # kinds are sorted by length
            mask &= avail
            if not mask:
                continue
            if locos >= length:
                n, top = 1, length - 1
            else:
                n, top = 0, locos
            if colour is not None:
                low = length - held
                if low < ferry:  # an if, not max(): this loop is the hot path
                    low = ferry
                if top >= low:
                    n += top - low + 1
            else:
                for count in held_desc:  # most held first: stop at the first that cannot pay
                    low = length - count
                    if low < ferry:
                        low = ferry
                    if top < low:
                        break
                    n += top - low + 1
            if n:
                total += n * mask.bit_count()
                kinds.append((kind, mask, n))
                ends.append(total)
    free = station_pays = 0
    if len(player.stations) < state.rules.variant.stations:  # R40, R41
        free = len(board.cities) - sum([len(p.stations) for p in state.players])
        if free:
            station_pays = count_payments(None, len(player.stations) + 1, 0, hand)
    if not head and not kinds and not station_pays:
        return LegalActions((_PASS,))
    return LegalActions(tuple(head), state, kinds, ends, free if station_pays else 0, station_pays)


def _bits(mask: int) -> Iterator[int]:
    """The indices of the set bits of ``mask``, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def _free_cities(state: GameState) -> list[int]:
    """Cities with no station yet (R40), in index order."""
    taken = _occupied_cities(state)
    return [c for c in range(len(state.rules.map.cities)) if c not in taken]


def _tunnel_payments(state: GameState) -> tuple[Cards, ...]:
    tunnel = state.tunnel
    assert tunnel is not None
    return payments(tunnel.colour, tunnel.extra, 0, state.players[state.current].hand)


def _keep_choices(state: GameState) -> Iterator[tuple[str, ...]]:
    offer = state.players[state.current].offer
    tickets = state.rules.map.tickets
    low, long_limit = _keep_limits(state)
    for size in range(low, len(offer) + 1):
        for combo in combinations(offer, size):
            if long_limit is None or sum(tickets[t].long for t in combo) <= long_limit:
                yield tuple(tickets[t].id for t in combo)


def _keep_limits(state: GameState) -> tuple[int, int | None]:
    """Minimum kept and the limit on long tickets kept, for the pending choice (R9, R37, B4)."""
    v = state.rules.variant
    n = len(state.players[state.current].offer)
    if state.phase is Phase.INITIAL_TICKETS:
        return min(v.keep_initial, n), state.rules.long_kept_limit
    return min(v.keep_drawn, n), None


# --------------------------------------------------------------------------- checks


def is_legal(state: GameState, action: object) -> bool:
    """Whether ``apply(state, action)`` would succeed (checks the one action, lists nothing)."""
    if type(state) is not GameState:
        raise not_a_state(state, "is_legal")
    try:
        _check(state, action)
    except IllegalActionError:
        return False
    return True


def why_illegal(state: GameState, action: object) -> IllegalActionError | None:
    """The error ``apply`` would raise for ``action``, or None if it is legal."""
    if type(state) is not GameState:
        raise not_a_state(state, "why_illegal")
    try:
        _check(state, action)
    except IllegalActionError as exc:
        return exc
    return None


def _check(state: GameState, action: object) -> None:
    checker = _CHECKS.get(type(action))
    if checker is None:
        raise MalformedActionError("input", f"not an action: {action!r}")
    if state.phase is Phase.GAME_OVER:
        raise GameOverError("R46", "the game is over", action)
    checker(state, action)


def _phase_error(state: GameState, action: object) -> IllegalActionError:
    phase = state.phase
    if phase is Phase.SECOND_DRAW:
        return IllegalActionError("R13", "the second train card must be drawn now", action)
    if phase is Phase.TUNNEL:
        return IllegalActionError("R28", "pay the tunnel's extra cards or withdraw", action)
    if phase is Phase.CHOOSE_TICKETS:
        return IllegalActionError("R37", "choose which drawn tickets to keep", action)
    if phase is Phase.INITIAL_TICKETS:
        return IllegalActionError("R9", "choose the starting tickets first", action)
    return IllegalActionError("R12", "not possible at the start of a turn", action)


def _cards(value: object, action: object) -> Cards:
    if type(value) is Cards:
        return value
    raise MalformedActionError("input", f"a payment must be Cards, not {value!r}", action)


def _check_face_up(state: GameState, action: DrawFaceUp) -> None:
    if state.phase is not Phase.TURN and state.phase is not Phase.SECOND_DRAW:
        raise _phase_error(state, action)
    slot = action.slot
    if type(slot) is not int or not 0 <= slot < len(state.row):
        raise MalformedActionError("input", f"no face-up slot {slot!r}", action)
    card = state.row[slot]
    if card == NO_CARD:
        raise IllegalActionError("D3", "that face-up slot is empty", action)
    if card == LOCOMOTIVE and state.phase is Phase.SECOND_DRAW:
        raise IllegalActionError("R15b", "a face-up locomotive cannot be the second card", action)


def _check_blind(state: GameState, action: DrawBlind) -> None:
    if state.phase is not Phase.TURN and state.phase is not Phase.SECOND_DRAW:
        raise _phase_error(state, action)
    if not _can_draw_blind(state):
        raise IllegalActionError("R19", "the draw pile and the discard pile are empty", action)


def _check_claim(state: GameState, action: ClaimRoute) -> None:
    if state.phase is not Phase.TURN:
        raise _phase_error(state, action)
    board = state.rules.map
    r = board.route_index.get(action.route) if isinstance(action.route, str) else None
    if r is None:
        raise MalformedActionError("input", f"no route {action.route!r} on this map", action)
    payment = _cards(action.payment, action)
    route = board.routes[r]
    if state.owners[r] != NO_OWNER:
        raise IllegalActionError("R23", "that route is already claimed", action)
    if state.closed[state.current] >> r & 1:
        twin_owner = state.owners[route.twin] if route.twin is not None else NO_OWNER
        if twin_owner == state.current:
            raise IllegalActionError("R26a", "you own the other track of this double route",
                                     action)  # fmt: skip
        raise IllegalActionError("R26b", "with 2-3 players a double route is closed once one "
                                 "track is claimed", action)  # fmt: skip
    player = state.players[state.current]
    if player.trains < route.length:
        raise IllegalActionError("R22", f"{route.length} trains needed, {player.trains} left",
                                 action)  # fmt: skip
    why = pays(payment, route.colour, route.length, route.ferry)
    if why is not None:
        rule = "R27" if route.ferry and payment[LOCOMOTIVE] < route.ferry else "R21"
        raise IllegalActionError(rule, f"{route.id}: {why}", action)
    if not player.hand.covers(payment):
        raise IllegalActionError("R21", "you do not hold those cards", action)


def _check_pay_tunnel(state: GameState, action: PayTunnel) -> None:
    tunnel = state.tunnel
    if state.phase is not Phase.TUNNEL or tunnel is None:
        raise _phase_error(state, action)
    payment = _cards(action.payment, action)
    if payment.total != tunnel.extra:
        raise IllegalActionError("R28", f"the extra cost is exactly {tunnel.extra} card(s)",
                                 action)  # fmt: skip
    colour = payment_colour(payment)
    if tunnel.locomotives_only and colour != LOCOMOTIVE:
        raise IllegalActionError("R30", "a tunnel paid with locomotives only takes locomotives "
                                 "as extra cards", action)  # fmt: skip
    if colour is None or colour not in (tunnel.colour, LOCOMOTIVE):
        raise IllegalActionError("R29", f"extra cards must be {KIND_NAMES[tunnel.colour]} or "
                                 "locomotives", action)  # fmt: skip
    if not state.players[state.current].hand.covers(payment):
        raise IllegalActionError("R28", "you do not hold those cards", action)


def _check_withdraw(state: GameState, action: WithdrawTunnel) -> None:
    if state.phase is not Phase.TUNNEL:
        raise _phase_error(state, action)


def _check_station(state: GameState, action: BuildStation) -> None:
    variant = state.rules.variant
    if not variant.stations:
        raise IllegalActionError("R12", "this game has no stations", action)
    if state.phase is not Phase.TURN:
        raise _phase_error(state, action)
    board = state.rules.map
    c = board.city_index.get(action.city) if isinstance(action.city, str) else None
    if c is None:
        raise MalformedActionError("input", f"no city {action.city!r} on this map", action)
    payment = _cards(action.payment, action)
    player = state.players[state.current]
    built = len(player.stations)
    if built >= variant.stations:
        raise IllegalActionError("R40", f"all {variant.stations} stations are built", action)
    if c in _occupied_cities(state):
        raise IllegalActionError("R40", "that city already has a station", action)
    why = pays(payment, None, built + 1, 0)
    if why is not None:
        raise IllegalActionError("R41", f"station {built + 1}: {why}", action)
    if not player.hand.covers(payment):
        raise IllegalActionError("R41", "you do not hold those cards", action)


def _check_draw_tickets(state: GameState, action: DrawTickets) -> None:
    if state.phase is not Phase.TURN:
        raise _phase_error(state, action)
    if not state.ticket_deck:
        raise IllegalActionError("D11", "the ticket deck is empty", action)


def _check_keep(state: GameState, action: KeepTickets) -> None:
    if state.phase is not Phase.INITIAL_TICKETS and state.phase is not Phase.CHOOSE_TICKETS:
        raise _phase_error(state, action)
    board = state.rules.map
    offer = state.players[state.current].offer
    kept: list[int] = []
    for tid in action.tickets:
        t = board.ticket_index.get(tid) if isinstance(tid, str) else None
        if t is None or t not in offer:
            raise MalformedActionError("input", f"ticket {tid!r} is not on offer", action)
        if t in kept:
            raise MalformedActionError("input", f"ticket {tid!r} listed twice", action)
        kept.append(t)
    low, long_limit = _keep_limits(state)
    rule = "R9" if state.phase is Phase.INITIAL_TICKETS else "R37"
    if len(kept) < low:
        raise IllegalActionError(rule, f"keep at least {low} ticket(s)", action)
    if long_limit is not None and sum(board.tickets[t].long for t in kept) > long_limit:
        raise IllegalActionError("B4", f"keep at most {long_limit} long ticket(s)", action)


def _check_pass(state: GameState, action: Pass) -> None:
    if state.phase is Phase.SECOND_DRAW and state.rules.second_card_optional:
        return
    if state.phase is not Phase.TURN:
        raise _phase_error(state, action)
    if _turn_actions(state)[0] != _PASS:
        raise IllegalActionError("D1", "passing is allowed only when nothing else is", action)


_CHECKS: dict[type, Any] = {
    DrawFaceUp: _check_face_up,
    DrawBlind: _check_blind,
    ClaimRoute: _check_claim,
    PayTunnel: _check_pay_tunnel,
    WithdrawTunnel: _check_withdraw,
    BuildStation: _check_station,
    DrawTickets: _check_draw_tickets,
    KeepTickets: _check_keep,
    Pass: _check_pass,
}


# --------------------------------------------------------------------------- the reducer


def apply(state: GameState, action: Action, *, player: int | None = None) -> GameState:
    """The state after ``action``; raises ``IllegalActionError`` (state untouched) if illegal.

    ``player``, when given, must be the seat to act (else ``NotYourTurnError``).
    """
    if type(state) is not GameState:
        raise not_a_state(state, "apply")
    if player is not None and player != state.current and state.phase is not Phase.GAME_OVER:
        raise NotYourTurnError("R12", f"it is seat {state.current}'s turn, not {player}'s", action)
    _check(state, action)
    new: GameState = _APPLY[type(action)](state, action)
    return new


def _table(state: GameState) -> Table:
    v = state.rules.variant
    return Table(state.pile, state.pile_top, state.row, state.discard, state.rng,
                 v.reset_locomotives, state.rules.reset_cap)  # fmt: skip


def _with_player(state: GameState, seat: int, new: PlayerState) -> tuple[PlayerState, ...]:
    players = list(state.players)
    players[seat] = new
    return tuple(players)


def _end_turn(
    state: GameState,
    table: Table | None,
    players: tuple[PlayerState, ...],
    *,
    owners: tuple[int, ...] | None = None,
    closed: tuple[int, ...] | None = None,
    ticket_deck: tuple[int, ...] | None = None,
    passed: bool = False,
) -> GameState:
    """Close the turn: refill empty slots (D33), end bookkeeping (R46, D25, D30, D34)."""
    if table is not None and NO_CARD in table.row:
        table.refill()
    n = state.rules.players
    final = state.final_turns
    if final > 0:
        final -= 1
    elif final < 0 and players[state.current].trains <= END_TRIGGER_TRAINS:
        final = n
    passes = state.passes + 1 if passed else 0
    over = final == 0 or passes >= n
    if table is None:
        pile, top, row, discard, rng = (state.pile, state.pile_top, state.row, state.discard,
                                        state.rng)  # fmt: skip
    else:
        pile, top, row, discard, rng = (table.pile, table.top, table.frozen_row(),
                                        table.frozen_discard(), table.rng)  # fmt: skip
    return GameState(
        state.rules,
        Phase.GAME_OVER if over else Phase.TURN,
        state.current if over else (state.current + 1) % n,
        state.first_player,
        players,
        pile,
        top,
        row,
        discard,
        state.ticket_deck if ticket_deck is None else ticket_deck,
        state.box,
        state.owners if owners is None else owners,
        state.closed if closed is None else closed,
        None,
        rng,
        final,
        passes,
    )


def _after_card(state: GameState, table: Table, hand: Cards, took_loco: bool) -> GameState:
    p = state.players[state.current]
    players = _with_player(state, state.current, PlayerState(
        hand, p.trains, p.stations, p.score, p.tickets, p.offer))  # fmt: skip
    if (
        state.phase is Phase.TURN
        and not took_loco
        and _second_card_exists(table.cards_left(), table.row)
    ):
        return GameState(
            state.rules, Phase.SECOND_DRAW, state.current, state.first_player, players,
            table.pile, table.top, table.frozen_row(), table.frozen_discard(), state.ticket_deck,
            state.box, state.owners, state.closed, None, table.rng, state.final_turns, 0,
        )  # fmt: skip
    return _end_turn(state, table, players)


def _apply_face_up(state: GameState, action: DrawFaceUp) -> GameState:
    table = _table(state)
    card = table.take(action.slot)
    hand = state.players[state.current].hand.add_kind(card)
    return _after_card(state, table, hand, card == LOCOMOTIVE and state.phase is Phase.TURN)


def _apply_blind(state: GameState, action: DrawBlind) -> GameState:
    table = _table(state)
    card = table.draw()
    return _after_card(state, table, state.players[state.current].hand.add_kind(card), False)


def _claimed(state: GameState, r: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Owners and closed masks after the current seat claims route ``r`` (R24, R26)."""
    seat = state.current
    owners = list(state.owners)
    owners[r] = seat
    bit = 1 << r
    twin = state.rules.map.twin_mask[r]
    if state.rules.doubles_open_to_all:
        closed = tuple(m | bit | (twin if p == seat else 0) for p, m in enumerate(state.closed))
    else:
        closed = tuple(m | bit | twin for m in state.closed)
    return tuple(owners), closed


def _finish_claim(state: GameState, table: Table, hand: Cards, r: int) -> GameState:
    route = state.rules.map.routes[r]
    p = state.players[state.current]
    moved = PlayerState(
        hand, p.trains - route.length, p.stations, p.score + route.points, p.tickets, p.offer
    )
    players = _with_player(state, state.current, moved)
    owners, closed = _claimed(state, r)
    return _end_turn(state, table, players, owners=owners, closed=closed)


def _apply_claim(state: GameState, action: ClaimRoute) -> GameState:
    board = state.rules.map
    r = board.route_index[action.route]
    route = board.routes[r]
    hand = state.players[state.current].hand.minus(action.payment)
    table = _table(state)
    if not route.tunnel:
        table.throw(action.payment)
        return _finish_claim(state, table, hand, r)
    revealed: list[int] = []
    for _ in range(TUNNEL_REVEAL):  # R28, R33, D8
        card = table.draw()
        if card == NO_CARD:
            break
        revealed.append(card)
    colour = payment_colour(action.payment)
    assert colour is not None
    extra = sum(1 for c in revealed if c == LOCOMOTIVE or c == colour)  # R30, R31
    if extra == 0:  # D31: claimed at once, no TUNNEL phase
        table.throw(action.payment)
        table.throw_kinds(revealed)
        return _finish_claim(state, table, hand, r)
    p = state.players[state.current]
    players = _with_player(state, state.current, PlayerState(
        hand, p.trains, p.stations, p.score, p.tickets, p.offer))  # fmt: skip
    return GameState(
        state.rules, Phase.TUNNEL, state.current, state.first_player, players, table.pile,
        table.top, table.frozen_row(), table.frozen_discard(), state.ticket_deck, state.box,
        state.owners, state.closed,
        PendingTunnel(r, action.payment, tuple(revealed), colour, extra),
        table.rng, state.final_turns, 0,
    )  # fmt: skip


def _apply_pay_tunnel(state: GameState, action: PayTunnel) -> GameState:
    tunnel = state.tunnel
    assert tunnel is not None
    table = _table(state)
    table.throw(tunnel.laid)
    table.throw(action.payment)
    table.throw_kinds(tunnel.revealed)
    hand = state.players[state.current].hand.minus(action.payment)
    return _finish_claim(state, table, hand, tunnel.route)


def _apply_withdraw(state: GameState, action: WithdrawTunnel) -> GameState:
    tunnel = state.tunnel
    assert tunnel is not None
    table = _table(state)
    table.throw_kinds(tunnel.revealed)  # R28.5, R35
    p = state.players[state.current]
    players = _with_player(state, state.current, PlayerState(
        p.hand.plus(tunnel.laid), p.trains, p.stations, p.score, p.tickets, p.offer))  # fmt: skip
    return _end_turn(state, table, players)


def _apply_station(state: GameState, action: BuildStation) -> GameState:
    c = state.rules.map.city_index[action.city]
    table = _table(state)
    table.throw(action.payment)
    p = state.players[state.current]
    built = PlayerState(
        p.hand.minus(action.payment), p.trains, (*p.stations, c), p.score, p.tickets, p.offer
    )
    players = _with_player(state, state.current, built)
    return _end_turn(state, table, players)


def _apply_draw_tickets(state: GameState, action: DrawTickets) -> GameState:
    k = state.rules.variant.draw_tickets
    deck = state.ticket_deck
    p = state.players[state.current]
    players = _with_player(state, state.current, PlayerState(
        p.hand, p.trains, p.stations, p.score, p.tickets, deck[:k]))  # fmt: skip
    return GameState(
        state.rules, Phase.CHOOSE_TICKETS, state.current, state.first_player, players, state.pile,
        state.pile_top, state.row, state.discard, deck[k:], state.box, state.owners, state.closed,
        None, state.rng, state.final_turns, 0,
    )  # fmt: skip


def _apply_keep(state: GameState, action: KeepTickets) -> GameState:
    board = state.rules.map
    chosen = {board.ticket_index[t] for t in action.tickets}
    p = state.players[state.current]
    kept = tuple(t for t in p.offer if t in chosen)
    rejected = tuple(t for t in p.offer if t not in chosen)  # D12: in the order drawn
    players = _with_player(state, state.current, PlayerState(
        p.hand, p.trains, p.stations, p.score, p.tickets + kept, ()))  # fmt: skip
    if state.phase is Phase.CHOOSE_TICKETS:
        return _end_turn(state, None, players, ticket_deck=state.ticket_deck + rejected)
    to_box = state.rules.variant.initial_rejects == "box"  # R9
    nxt = (state.current + 1) % state.rules.players
    done = nxt == state.first_player  # D13, D36: seat order from the first player
    return GameState(
        state.rules, Phase.TURN if done else Phase.INITIAL_TICKETS, nxt, state.first_player,
        players, state.pile, state.pile_top, state.row, state.discard,
        state.ticket_deck if to_box else state.ticket_deck + rejected,
        state.box + rejected if to_box else state.box,
        state.owners, state.closed, None, state.rng, state.final_turns, state.passes,
    )  # fmt: skip


def _apply_pass(state: GameState, action: Pass) -> GameState:
    return _end_turn(state, None, state.players, passed=state.phase is Phase.TURN)


_APPLY: dict[type, Any] = {
    DrawFaceUp: _apply_face_up,
    DrawBlind: _apply_blind,
    ClaimRoute: _apply_claim,
    PayTunnel: _apply_pay_tunnel,
    WithdrawTunnel: _apply_withdraw,
    BuildStation: _apply_station,
    DrawTickets: _apply_draw_tickets,
    KeepTickets: _apply_keep,
    Pass: _apply_pass,
}
