"""Legality and the reducer: ``new_game``, ``legal_actions``, ``is_legal``, ``apply``.

``apply`` checks an action with the same predicates ``legal_actions`` (``legal``) enumerates
from, then builds the next state in one step. Every refusal is an ``IllegalActionError``
naming its rule.

engine.c's legal actions, checks and reducer (``legal``, ``check``, ``step``) mirror this module;
their error codes (``E_*``) map to the errors raised here in ``fast._ERRORS``. The differential
tests (tests/fast/test_fast.py) keep the two alike.
"""

from __future__ import annotations

from typing import Any

from ._dealing import Table
from ._guards import check_seat, check_setup, not_a_state
from ._payments import (
    payment_colour,
    pays_cards,
    pays_tunnel_extra,
    tunnel_extra,
)
from ._rng import below, seed_state, shuffled
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
    malformed,
    tampered,
)
from .board import Map, fewest_keepable
from .cards import EMPTY, FULL_DECK, LOCOMOTIVE, Cards, _make, well_formed
from .errors import (
    EventError,
    GameOverError,
    IllegalActionError,
    MalformedActionError,
    NotYourTurnError,
    SetupError,
)
from .events import (
    Event,
    GameOver,
    LastRound,
    Passed,
    StationBuilt,
    TicketsDrawn,
    TicketsKept,
    TunnelPaid,
    TunnelRevealed,
    TunnelWithdrawn,
    blind_drawn,
    face_up_taken,
    new_route_claimed,
    slot_refilled,
    turn_started,
)
from .legal import (  # the legal-move builder, and what the checks share with it
    _CHOOSE_TICKETS,
    _GAME_OVER,
    _INITIAL_TICKETS,
    _PASS,
    _SECOND_DRAW,
    _TUNNEL,
    _TURN,
    _can_draw_blind,
    _keep_limits,
    _occupied_cities,
    _second_card_exists,
    _turn_actions,
)
from .legal import KeepChoices as KeepChoices  # noqa: PLC0414 (the API's old home)
from .legal import LegalActions as LegalActions  # noqa: PLC0414
from .legal import legal_actions as legal_actions  # noqa: PLC0414
from .maps import load_map
from .state import (
    NO_CARD,
    NO_OWNER,
    GameState,
    PendingTunnel,
    Phase,
    PlayerState,
    Rules,
    new_player,
    new_state,
)

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

    ``options`` are the switches of ``Rules`` (rules.md Part D options); any other is a
    ``SetupError``, among them ``depots`` and ``warehouses``: the Warehouses & Depots module
    (D26, D27) is not offered. The player count must lie in the variant's range (2 to 5 for
    Europe, D21) and fixes the double-route rule for the game. The first player is drawn with
    the seeded generator unless given (D18).
    """
    rules = setup_rules(map, variant, players, seed, first_player, options)
    v = rules.variant
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
    return GameState.create(
        rules=rules,
        phase=_INITIAL_TICKETS,
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
        owners=(NO_OWNER,) * len(rules.map.routes),
        closed=(0,) * players,
        rng=rng,
    )


def setup_rules(
    map: str | Map,
    variant: str,
    players: int,
    seed: int,
    first_player: int | None,
    options: dict[str, Any],
) -> Rules:
    """The ``Rules`` of a new game from ``new_game``'s arguments, each checked (R1, D21, D18).

    Every engine that deals a game (this one, the compiled core) asks here, so they refuse the
    same settings with the same errors.
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
    return rules


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
    if limit is not None:
        v = rules.variant
        if fewest_keepable(v, rules.map.tickets, limit) < v.keep_initial:
            raise SetupError(
                f"B4: with at most {limit} long tickets kept, a starting offer may leave fewer "
                f"than the {v.keep_initial} tickets a player must keep"
            )


# --------------------------------------------------------------------------- queries


def current_player(state: GameState) -> int | None:
    """The seat to act, or None when the game is over."""
    if type(state) is not GameState:
        raise not_a_state(state, "current_player")
    return None if state.phase is _GAME_OVER else state.current


def is_terminal(state: GameState) -> bool:
    if type(state) is not GameState:
        raise not_a_state(state, "is_terminal")
    return state.phase is _GAME_OVER


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
    try:
        if state.phase is _GAME_OVER:
            raise GameOverError("R46", "the game is over", action)
        checker(state, action)
    except (IllegalActionError, AttributeError, TypeError) as exc:
        raise tampered(action, exc) from None  # fields of the wrong type: MalformedActionError


def _phase_error(state: GameState, action: object) -> IllegalActionError:
    phase = state.phase
    if phase is _SECOND_DRAW:
        return IllegalActionError("R13", "the second train card must be drawn now", action)
    if phase is _TUNNEL:
        return IllegalActionError("R28", "pay the tunnel's extra cards or withdraw", action)
    if phase is _CHOOSE_TICKETS:
        return IllegalActionError("R37", "choose which drawn tickets to keep", action)
    if phase is _INITIAL_TICKETS:
        return IllegalActionError("R9", "choose the starting tickets first", action)
    return IllegalActionError("R12", "not possible at the start of a turn", action)


def _cards(value: object, action: object) -> Cards:
    """A payment that is a real ``Cards``: one built with ``tuple.__new__`` around floats, bools,
    negative counts or other than nine counts is refused here, on every move, before a count is
    read (``_check`` then names the fault, through ``actions.tampered``)."""
    if type(value) is Cards and well_formed(value):
        return value
    raise MalformedActionError("input", f"a payment must be Cards, not {value!r}", action)


def _check_face_up(state: GameState, action: DrawFaceUp) -> None:
    if state.phase is not _TURN and state.phase is not _SECOND_DRAW:
        raise _phase_error(state, action)
    slot = action.slot
    if type(slot) is not int or not 0 <= slot < len(state.row):
        raise MalformedActionError("input", f"no face-up slot {slot!r}", action)
    card = state.row[slot]
    if card == NO_CARD:
        raise IllegalActionError("D3", "that face-up slot is empty", action)
    if card == LOCOMOTIVE and state.phase is _SECOND_DRAW:
        raise IllegalActionError("R15b", "a face-up locomotive cannot be the second card", action)


def _check_blind(state: GameState, action: DrawBlind) -> None:
    if state.phase is not _TURN and state.phase is not _SECOND_DRAW:
        raise _phase_error(state, action)
    if not _can_draw_blind(state):
        raise IllegalActionError("R19", "the draw pile and the discard pile are empty", action)


def _check_claim(state: GameState, action: ClaimRoute) -> int:
    """Route free, twin allowed, trains enough, payment valid and held: all checked before a
    tunnel reveals anything, so an illegal attempt reveals nothing (D22)."""
    if state.phase is not _TURN:
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
    why = pays_cards(payment, route.colour, route.length, route.ferry)
    if why is not None:
        rule = "R27" if route.ferry and payment[LOCOMOTIVE] < route.ferry else "R21"
        raise IllegalActionError(rule, f"{route.id}: {why}", action)
    if not player.hand.covers(payment):
        raise IllegalActionError("R21", "you do not hold those cards", action)
    return r


def _check_pay_tunnel(state: GameState, action: PayTunnel) -> None:
    tunnel = state.tunnel
    if state.phase is not _TUNNEL or tunnel is None:
        raise _phase_error(state, action)
    payment = _cards(action.payment, action)
    why = pays_tunnel_extra(payment, tunnel.colour, tunnel.extra)
    if why is not None:
        raise IllegalActionError(why[0], why[1], action)
    if not state.players[state.current].hand.covers(payment):
        raise IllegalActionError("R28", "you do not hold those cards", action)


def _check_withdraw(state: GameState, action: WithdrawTunnel) -> None:
    """Declining the extra cost is legal whenever a tunnel waits for an answer (D9)."""
    if state.phase is not _TUNNEL:
        raise _phase_error(state, action)


def _check_station(state: GameState, action: BuildStation) -> None:
    variant = state.rules.variant
    if not variant.stations:
        raise IllegalActionError("R12", "this game has no stations", action)
    if state.phase is not _TURN:
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
    why = pays_cards(payment, None, built + 1, 0)
    if why is not None:
        raise IllegalActionError("R41", f"station {built + 1}: {why}", action)
    if not player.hand.covers(payment):
        raise IllegalActionError("R41", "you do not hold those cards", action)


def _check_draw_tickets(state: GameState, action: DrawTickets) -> None:
    if state.phase is not _TURN:
        raise _phase_error(state, action)
    if not state.ticket_deck:
        raise IllegalActionError("D11", "the ticket deck is empty", action)


def _check_keep(state: GameState, action: KeepTickets) -> None:
    if state.phase is not _INITIAL_TICKETS and state.phase is not _CHOOSE_TICKETS:
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
    rule = "R9" if state.phase is _INITIAL_TICKETS else "R37"
    if len(kept) < low:
        raise IllegalActionError(rule, f"keep at least {low} ticket(s)", action)
    if long_limit is not None and sum(board.tickets[t].long for t in kept) > long_limit:
        raise IllegalActionError("B4", f"keep at most {long_limit} long ticket(s)", action)


def _check_pass(state: GameState, action: Pass) -> None:
    if state.phase is _SECOND_DRAW and state.rules.second_card_optional:
        return
    if state.phase is not _TURN:
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

    ``player``, when given, must be the seat to act (else ``NotYourTurnError``): a plain int,
    as everywhere a seat is named, so that ``0.0``, ``True`` or ``"0"`` is a ``BadArgumentError``
    rather than quietly taken for seat 0 (or refused as another seat's turn).
    """
    return _apply(state, action, player, None, "apply")


def apply_with_events(
    state: GameState, action: Action, *, player: int | None = None
) -> tuple[GameState, tuple[Event, ...]]:
    """``apply``, and the events of the transition in the order they happened (``events``).

    Each step of the reducer notes its events where it acts (the card ``Table`` its
    reshuffles, refills and resets); the end of a turn is read from the two states: the last
    round (R46), the next seat to act, or the final scoreboard (R47).
    """
    out: list[Event] = []
    after = _apply(state, action, player, out, "apply_with_events")
    seat = state.current
    if state.final_turns < 0 <= after.final_turns:
        out.append(LastRound(seat, after.players[seat].trains, after.final_turns))
    if after.phase is _GAME_OVER:
        from .scoring import score  # networkx is loaded when a game first ends

        out.append(GameOver(score(after)))
    elif after.current != seat:
        out.append(turn_started(after.current, after.phase))
    return after, tuple(out)


def events_between(before: GameState, action: Action, after: GameState) -> tuple[Event, ...]:
    """The events of ``action`` played in ``before`` leading to ``after`` (unfiltered): those of
    ``apply_with_events``, checked against ``after``.

    Raises ``EventError`` if ``after`` does not follow ``before`` by ``action``, and the
    reducer's errors for an illegal action.
    """
    if type(after) is not GameState:
        raise not_a_state(after, "events_between")
    if type(before) is GameState and before.rules != after.rules:
        raise EventError("the two states are of different games")
    reached, events = apply_with_events(before, action)
    if reached != after:
        raise EventError(f"{action} does not lead from the first state to the second")
    return events


def _apply(
    state: GameState, action: Action, player: int | None, out: list[Event] | None, name: str
) -> GameState:
    """The reducer: ``out`` (None: no events wanted) receives the events of the action."""
    if type(state) is not GameState:
        raise not_a_state(state, name)
    if player is not None:
        check_seat(player, name, "player")
    if player is not None and player != state.current and state.phase is not _GAME_OVER:
        why = malformed(action)
        if why is not None:
            raise MalformedActionError("input", why)
        raise NotYourTurnError("R12", f"it is seat {state.current}'s turn, not {player}'s", action)
    step = _APPLY.get(type(action))
    if step is None or state.phase is _GAME_OVER:
        _check(state, action)  # raises the error is_legal and why_illegal report
        raise AssertionError("unreachable")  # pragma: no cover
    try:
        new: GameState = step(state, action, out)  # each step checks first (or inlines it)
    except (IllegalActionError, AttributeError, TypeError) as exc:
        raise tampered(action, exc) from None  # fields of the wrong type: MalformedActionError
    return new


def _table(state: GameState, out: list[Event] | None) -> Table:
    rules = state.rules
    return Table(state.pile, state.pile_top, state.row, state.discard, state.rng,
                 rules.variant.reset_locomotives, rules.reset_cap, out)  # fmt: skip


def _successor(
    state: GameState,
    phase: Phase,
    current: int,
    players: tuple[PlayerState, ...],
    table: Table | None,
    owners: tuple[int, ...],
    closed: tuple[int, ...],
    ticket_deck: tuple[int, ...],
    box: tuple[int, ...],
    tunnel: PendingTunnel[int] | None,
    final_turns: int,
    passes: int,
) -> GameState:
    """The one place the reducer builds a state: the card table comes from ``_dealing`` when
    cards moved, else it is the previous state's; rules and the first player never change.
    Positional on purpose: this runs once per action (docs/performance.md).
    """
    if table is None:
        return new_state(state.rules, phase, current, state.first_player, players, state.pile,
                         state.pile_top, state.row, state.discard, ticket_deck, box, owners,
                         closed, tunnel, state.rng, final_turns, passes)  # fmt: skip
    return new_state(
        state.rules, phase, current, state.first_player, players, table.pile, table.top,
        table.frozen_row(), table.frozen_discard(),
        ticket_deck, box, owners, closed, tunnel, table.rng, final_turns, passes,
    )  # fmt: skip


def _with_player(state: GameState, new: PlayerState) -> tuple[PlayerState, ...]:
    """The seats with the current one replaced."""
    players = list(state.players)
    players[state.current] = new
    return tuple(players)


def _with_hand(state: GameState, hand: Cards) -> tuple[PlayerState, ...]:
    p = state.players[state.current]
    return _with_player(state, new_player(hand, p.trains, p.stations, p.score, p.tickets, p.offer))


def _end_turn(
    state: GameState,
    table: Table | None,
    players: tuple[PlayerState, ...],
    owners: tuple[int, ...],
    closed: tuple[int, ...],
    ticket_deck: tuple[int, ...],
    passed: bool,
) -> GameState:
    """Close the turn: refill empty slots (D33), end bookkeeping (R46, D25, D30, D34).

    Positional only, like ``_successor``: every turn ends here.
    """
    if table is not None and NO_CARD in table.row:
        table.refill()
    phase, current, final, passes = _closing(state, players[state.current].trains, passed)
    return _successor(state, phase, current, players, table, owners, closed, ticket_deck,
                      state.box, None, final, passes)  # fmt: skip


def _closing(state: GameState, trains: int, passed: bool) -> tuple[Phase, int, int, int]:
    """The end-of-turn bookkeeping, written once (R46, D25, D30, D34): the next phase and seat,
    the last round's count and the passes in a row, for a turn whose seat has ``trains`` left.
    The trigger starts a last round of one turn each, this turn's seat last; a round of passes
    ends the game."""
    n = state.rules.players
    final = state.final_turns
    if final > 0:
        final -= 1
    elif final < 0 and trains <= END_TRIGGER_TRAINS:
        final = n
    passes = state.passes + 1 if passed else 0
    if final == 0 or passes >= n:
        return _GAME_OVER, state.current, final, passes
    return _TURN, (state.current + 1) % n, final, passes


def _after_card(state: GameState, table: Table, hand: Cards, took_loco: bool) -> GameState:
    """The drawn card is in ``hand`` (there is no hand limit, R16); a second draw follows or
    the turn ends."""
    p = state.players[state.current]
    players = list(state.players)
    players[state.current] = new_player(hand, p.trains, p.stations, p.score, p.tickets, p.offer)
    if (
        state.phase is _TURN
        and not took_loco
        and _second_card_exists(table.cards_left(), table.row)
    ):
        return _successor(state, _SECOND_DRAW, state.current, tuple(players), table,
                          state.owners, state.closed, state.ticket_deck, state.box, None,
                          state.final_turns, 0)  # fmt: skip
    return _end_turn(state, table, tuple(players), state.owners, state.closed, state.ticket_deck,
                     False)  # fmt: skip


def _apply_face_up(state: GameState, action: DrawFaceUp, out: list[Event] | None) -> GameState:
    slot = action.slot
    row = state.row
    top = state.pile_top
    pile = state.pile
    phase = state.phase
    if (
        top < len(pile)
        and NO_CARD not in row
        and (phase is _TURN or phase is _SECOND_DRAW)
        and type(slot) is int
        and 0 <= slot < len(row)
    ):  # the common case: a full row, cards in the pile; no Table, the checks inlined
        card = row[slot]
        if card != LOCOMOTIVE or phase is _TURN:  # R15b
            new_row = (*row[:slot], pile[top], *row[slot + 1 :])
            if new_row.count(LOCOMOTIVE) < state.rules.variant.reset_locomotives:  # no reset (R17)
                if out is not None:
                    out += face_up_taken(state.current, slot, card), slot_refilled(slot, pile[top])
                return _drew(state, card, pile, top + 1, new_row, card == LOCOMOTIVE)
    _check_face_up(state, action)
    if out is not None:
        out.append(face_up_taken(state.current, slot, row[slot]))
    table = _table(state, out)
    card = table.take(action.slot)
    hand = state.players[state.current].hand.add_kind(card)
    return _after_card(state, table, hand, card == LOCOMOTIVE and state.phase is _TURN)


def _drew(
    state: GameState, card: int, pile: tuple[int, ...], top: int, row: tuple[int, ...], loco: bool
) -> GameState:
    """``_after_card`` for a draw that moved no card but the one taken and the one dealt into
    its slot (the common case), in one step: ``card`` joins the hand, then the second draw is
    due (R13) unless a face-up locomotive was taken (R15a) or no second card exists (D5)."""
    seat = state.current
    p = state.players[seat]
    hand = list(p.hand)
    hand[card] += 1
    players = list(state.players)
    players[seat] = new_player(_make(hand), p.trains, p.stations, p.score, p.tickets, p.offer)
    discard = state.discard
    if (
        state.phase is _TURN
        and not loco
        and (top < len(pile) or discard.total > 0 or _second_card_exists(False, row))
    ):
        return new_state(state.rules, _SECOND_DRAW, seat, state.first_player, tuple(players),
                         pile, top, row, discard, state.ticket_deck, state.box, state.owners,
                         state.closed, None, state.rng, state.final_turns, 0)  # fmt: skip
    return _next_turn(state, tuple(players), pile, top, row, discard, state.owners, state.closed)


def _next_turn(
    state: GameState,
    players: tuple[PlayerState, ...],
    pile: tuple[int, ...],
    top: int,
    row: tuple[int, ...],
    discard: Cards,
    owners: tuple[int, ...],
    closed: tuple[int, ...],
) -> GameState:
    """``_end_turn`` when no slot is empty, nobody passed and the tickets did not move."""
    phase, current, final, _ = _closing(state, players[state.current].trains, False)
    return new_state(state.rules, phase, current, state.first_player, players, pile, top, row,
                     discard, state.ticket_deck, state.box, owners, closed, None, state.rng,
                     final, 0)  # fmt: skip


def _apply_blind(state: GameState, action: DrawBlind, out: list[Event] | None) -> GameState:
    top = state.pile_top
    phase = state.phase
    if top < len(state.pile) and (phase is _TURN or phase is _SECOND_DRAW):  # no Table (R19)
        if out is not None:
            out.append(blind_drawn(state.current, state.pile[top]))
        return _drew(state, state.pile[top], state.pile, top + 1, state.row, False)
    _check_blind(state, action)
    table = _table(state, out)
    card = table.draw()
    if out is not None:
        out.append(blind_drawn(state.current, card))
    return _after_card(state, table, state.players[state.current].hand.add_kind(card), False)


def _claimed(state: GameState, r: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Owners and closed masks after the current seat claims route ``r`` (R24, R26)."""
    seat = state.current
    owners = state.owners
    bit = 1 << r
    rules = state.rules
    twin = rules.map.twin_mask[r]
    if rules.players >= rules.variant.double_routes_min_players:  # doubles_open_to_all
        closed = [m | bit for m in state.closed]
        closed[seat] |= twin
    else:
        closed = [m | bit | twin for m in state.closed]
    new_owners = list(owners)
    new_owners[r] = seat
    return tuple(new_owners), tuple(closed)


def _finish_claim(
    state: GameState, table: Table, hand: Cards, r: int, payment: Cards, out: list[Event] | None
) -> GameState:
    """The current seat owns route ``r``, paid with ``payment`` (R24); the turn ends."""
    route = state.rules.map.routes[r]
    p = state.players[state.current]
    moved = new_player(
        hand, p.trains - route.length, p.stations, p.score + route.points, p.tickets, p.offer
    )
    if out is not None:
        out.append(new_route_claimed(state.current, route.id, payment, route.points, moved.trains))
    owners, closed = _claimed(state, r)
    players = _with_player(state, moved)
    return _end_turn(state, table, players, owners, closed, state.ticket_deck, False)


def _apply_claim(state: GameState, action: ClaimRoute, out: list[Event] | None) -> GameState:
    r = _check_claim(state, action)  # always: an action or list handed out may have been altered
    route = state.rules.map.routes[r]
    seat = state.current
    p = state.players[seat]
    hand = p.hand.minus(action.payment)
    if not route.tunnel and NO_CARD not in state.row:  # no card moves but the payment's
        players = list(state.players)
        players[seat] = new_player(hand, p.trains - route.length, p.stations,
                                   p.score + route.points, p.tickets, p.offer)  # fmt: skip
        if out is not None:
            out.append(new_route_claimed(seat, route.id, action.payment, route.points,
                                    players[seat].trains))  # fmt: skip
        owners, closed = _claimed(state, r)
        return _next_turn(state, tuple(players), state.pile, state.pile_top, state.row,
                          state.discard.plus(action.payment), owners, closed)  # fmt: skip
    if route.tunnel and NO_CARD not in state.row and _pile_reveals(state):
        return _tunnel_from_pile(state, action, r, hand, out)
    return _claim_with_table(state, action, r, hand, out)


def _pile_reveals(state: GameState) -> bool:
    """Whether the pile alone holds the cards a tunnel turns over (no reshuffle, R28, D4)."""
    return state.pile_top + TUNNEL_REVEAL <= len(state.pile)


def _claim_with_table(
    state: GameState, action: ClaimRoute, r: int, hand: Cards, out: list[Event] | None
) -> GameState:
    """A claim in the general case, on a ``Table``: empty slots to refill, or a tunnel's cards
    that need a reshuffle or run out (R28, R33, D4, D8, D33)."""
    route = state.rules.map.routes[r]
    table = _table(state, out)
    if not route.tunnel:  # the empty slots are refilled at the end of the turn (D33)
        table.throw(action.payment)
        return _finish_claim(state, table, hand, r, action.payment, out)
    from_pile = table.top < len(table.pile)  # the first card comes from the pile as it is
    noted = len(out) if out is not None else 0
    revealed: list[int] = []
    for _ in range(TUNNEL_REVEAL):  # R28, R33, D8
        card = table.draw()
        if card == NO_CARD:
            break
        revealed.append(card)
    colour = payment_colour(action.payment)
    assert colour is not None
    extra = tunnel_extra(colour, revealed)
    if out is not None:  # the reveal began before a reshuffle in its midst, after one before it
        shown = TunnelRevealed(state.current, route.id, action.payment, tuple(revealed), extra)
        out.insert(noted if from_pile else len(out), shown)
    if extra == 0:  # D31: claimed at once, no _TUNNEL phase
        table.throw(action.payment)
        table.throw_kinds(revealed)
        return _finish_claim(state, table, hand, r, action.payment, out)
    pending = PendingTunnel(r, action.payment, tuple(revealed), colour, extra)
    return _successor(state, _TUNNEL, state.current, _with_hand(state, hand), table,
                      state.owners, state.closed, state.ticket_deck, state.box, pending,
                      state.final_turns, 0)  # fmt: skip


def _tunnel_from_pile(
    state: GameState, action: ClaimRoute, r: int, hand: Cards, out: list[Event] | None
) -> GameState:
    """A tunnel claim whose three cards come from the pile with no reshuffle, the row full:
    the cards laid and revealed go to the discard at once when nothing matches (D31), or wait
    in a ``PendingTunnel`` for the answer (R28-R31). The same state ``Table`` would build."""
    top = state.pile_top
    revealed = state.pile[top : top + TUNNEL_REVEAL]
    colour = payment_colour(action.payment)
    assert colour is not None
    extra = tunnel_extra(colour, revealed)
    seat = state.current
    p = state.players[seat]
    players = list(state.players)
    if extra:
        if out is not None:
            route_id = state.rules.map.routes[r].id
            out.append(TunnelRevealed(seat, route_id, action.payment, revealed, extra))
        pending = PendingTunnel(r, action.payment, revealed, colour, extra)
        players[seat] = new_player(hand, p.trains, p.stations, p.score, p.tickets, p.offer)
        return new_state(state.rules, _TUNNEL, seat, state.first_player, tuple(players),
                         state.pile, top + TUNNEL_REVEAL, state.row, state.discard,
                         state.ticket_deck, state.box, state.owners, state.closed, pending,
                         state.rng, state.final_turns, 0)  # fmt: skip
    route = state.rules.map.routes[r]
    players[seat] = new_player(hand, p.trains - route.length, p.stations, p.score + route.points,
                               p.tickets, p.offer)  # fmt: skip
    if out is not None:
        trains = players[seat].trains
        revealed_event = TunnelRevealed(seat, route.id, action.payment, revealed, 0)
        out += (
            revealed_event,
            new_route_claimed(seat, route.id, action.payment, route.points, trains),
        )
    discard = list(state.discard.plus(action.payment))
    for c in revealed:
        discard[c] += 1
    owners, closed = _claimed(state, r)
    return _next_turn(state, tuple(players), state.pile, top + TUNNEL_REVEAL, state.row,
                      _make(discard), owners, closed)  # fmt: skip


def _apply_pay_tunnel(state: GameState, action: PayTunnel, out: list[Event] | None) -> GameState:
    _check_pay_tunnel(state, action)
    tunnel = state.tunnel
    assert tunnel is not None
    if out is not None:
        route_id = state.rules.map.routes[tunnel.route].id
        out.append(TunnelPaid(state.current, route_id, action.payment))
    table = _table(state, out)
    table.throw(tunnel.laid)
    table.throw(action.payment)
    table.throw_kinds(tunnel.revealed)
    hand = state.players[state.current].hand.minus(action.payment)
    paid = tunnel.laid.plus(action.payment)
    return _finish_claim(state, table, hand, tunnel.route, paid, out)


def _apply_withdraw(state: GameState, action: WithdrawTunnel, out: list[Event] | None) -> GameState:
    _check_withdraw(state, action)
    tunnel = state.tunnel
    assert tunnel is not None
    if out is not None:
        route_id = state.rules.map.routes[tunnel.route].id
        out.append(TunnelWithdrawn(state.current, route_id, tunnel.laid))
    if NO_CARD not in state.row:  # no slot to refill: only the revealed cards move (R28.5)
        discard = list(state.discard)
        for c in tunnel.revealed:
            if c != NO_CARD:  # as Table.throw_kinds
                discard[c] += 1
        players = _with_hand(state, state.players[state.current].hand.plus(tunnel.laid))
        return _next_turn(state, players, state.pile, state.pile_top, state.row, _make(discard),
                          state.owners, state.closed)  # fmt: skip
    return _withdraw_with_table(state, out)


def _withdraw_with_table(state: GameState, out: list[Event] | None) -> GameState:
    """Withdrawing in the general case, on a ``Table`` (empty slots to refill at the end)."""
    tunnel = state.tunnel
    assert tunnel is not None
    table = _table(state, out)
    table.throw_kinds(tunnel.revealed)  # R28.5, R35
    hand = state.players[state.current].hand.plus(tunnel.laid)
    players = _with_hand(state, hand)
    return _end_turn(state, table, players, state.owners, state.closed, state.ticket_deck, False)


def _apply_station(state: GameState, action: BuildStation, out: list[Event] | None) -> GameState:
    """Build a station; no action ever removes it from its city (R42)."""
    _check_station(state, action)
    c = state.rules.map.city_index[action.city]
    if out is not None:
        out.append(StationBuilt(state.current, action.city, action.payment))
    table = _table(state, out)
    table.throw(action.payment)
    p = state.players[state.current]
    built = new_player(
        p.hand.minus(action.payment), p.trains, (*p.stations, c), p.score, p.tickets, p.offer
    )
    players = _with_player(state, built)
    return _end_turn(state, table, players, state.owners, state.closed, state.ticket_deck, False)


def _apply_draw_tickets(
    state: GameState, action: DrawTickets, out: list[Event] | None
) -> GameState:
    _check_draw_tickets(state, action)
    k = state.rules.variant.draw_tickets
    deck = state.ticket_deck
    if out is not None:
        ids = tuple(state.rules.map.tickets[t].id for t in deck[:k])
        out.append(TicketsDrawn(state.current, len(ids), ids))
    p = state.players[state.current]
    players = _with_player(state, new_player(
        p.hand, p.trains, p.stations, p.score, p.tickets, deck[:k]))  # fmt: skip
    return _successor(state, _CHOOSE_TICKETS, state.current, players, None, state.owners,
                      state.closed, deck[k:], state.box, None, state.final_turns, 0)  # fmt: skip


def _apply_keep(state: GameState, action: KeepTickets, out: list[Event] | None) -> GameState:
    _check_keep(state, action)
    board = state.rules.map
    chosen = {board.ticket_index[t] for t in action.tickets}
    p = state.players[state.current]
    kept = tuple(t for t in p.offer if t in chosen)
    rejected = tuple(t for t in p.offer if t not in chosen)  # D12: in the order drawn
    to_box = state.phase is _INITIAL_TICKETS and state.rules.variant.initial_rejects == "box"  # R9
    if out is not None:
        kept_ids = tuple(board.tickets[t].id for t in kept)
        returned = tuple(board.tickets[t].id for t in rejected)
        out.append(TicketsKept(state.current, len(kept), len(rejected),
                               "box" if to_box else "deck", kept_ids, returned))  # fmt: skip
    players = _with_player(state, new_player(
        p.hand, p.trains, p.stations, p.score, p.tickets + kept, ()))  # fmt: skip
    if state.phase is _CHOOSE_TICKETS:
        deck = state.ticket_deck + rejected
        return _end_turn(state, None, players, state.owners, state.closed, deck, False)
    nxt = (state.current + 1) % state.rules.players
    done = nxt == state.first_player  # D13, D36: seat order from the first player
    return _successor(
        state, _TURN if done else _INITIAL_TICKETS, nxt, players, None, state.owners,
        state.closed, state.ticket_deck if to_box else state.ticket_deck + rejected,
        state.box + rejected if to_box else state.box, None, state.final_turns, state.passes,
    )  # fmt: skip


def _apply_pass(state: GameState, action: Pass, out: list[Event] | None) -> GameState:
    _check_pass(state, action)
    if out is not None:
        out.append(Passed(state.current))
    return _end_turn(state, None, state.players, state.owners, state.closed, state.ticket_deck,
                     state.phase is _TURN)  # fmt: skip


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
"""Each action kind's step: it checks the action (``_CHECKS``, or the same tests inlined for
the common draws) and builds the next state."""
