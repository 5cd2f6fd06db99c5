"""Helpers for testing code built on ttr_europe: positions, invariants, random play, bots.

- ``scenario(...)`` builds any exact position, ``finished(...)`` a game over to score, and
  ``refusal(state, action)`` checks that an action is refused cleanly;
- ``check_invariants(state)`` lists what is broken in a state or view (``ttr_europe.invariants``);
- ``check_bot(bot, games=...)`` plays seeded games and reports illegal, slow or crashing moves,
  and a bot whose choice depends on what its seat cannot see;
- the hypothesis strategies of ``ttr_europe.testing.strategies`` (``games``, ``states``,
  ``played``, ``views``, ``legal_actions_in``, ``near_miss_actions``) are also reachable here;
  they need hypothesis (``pip install 'ttr_europe[testing]'``), which is imported only when one
  of them is first used, so the rest of this module works without it.

The scenario builder:

``scenario(hands={0: "3red+1loco"}, row="red blue loco red green", owners={"Paris-Dieppe": 1})``
returns a ``GameState`` in the ``TURN`` phase unless told otherwise. Cards not placed anywhere go
to the draw pile (so the 110 cards are all there) unless ``pile`` is given, in which case the
state holds only the cards placed. Likewise tickets of the variant not held, offered or in the
ticket deck go to the box unless ``box`` is given. Route points and trains follow from
``owners`` unless given.

``scenario`` builds only valid positions, the ones the state reader accepts (``invariants``:
the structure the engine needs to play and score, not conservation or reachability): anything
else, such as a running score that is not the points of the routes owned (D35), an offer
outside a ticket phase (R37) or a station in a city twice (R40), is a ``SetupError`` naming
the JSON path and rule, so ``from_json(to_json(s)) == s`` for every state it returns. A test of
one rule in isolation, or of the checks themselves, may ask for a position outside them with
``check=False``; such a state is refused by the readers and by ``check_invariants``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from .._rng import seed_state, shuffled
from ..board import Map, Variant
from ..cards import FULL_DECK, KINDS, Cards, kind_from_name
from ..errors import IllegalActionError, SetupError
from ..invariants import Problem, card_total, cards_placed, check_invariants, state_problems
from ..maps import load_map
from ..rules import apply, is_legal, legal_actions
from ..state import (
    NO_CARD,
    NO_OWNER,
    GameState,
    PendingTunnel,
    Phase,
    PlayerState,
    Rules,
)
from .play import POLICIES, BotFault, check_bot, choose, near_miss_action, play_to_end

__all__ = [
    "POLICIES",
    "BotFault",
    "Problem",
    "card_total",
    "cards",
    "check_bot",
    "check_invariants",
    "choose",
    "finished",
    "kind",
    "kinds",
    "near_miss_action",
    "play_to_end",
    "refusal",
    "scenario",
]

_STRATEGIES = frozenset(
    ("games", "last_round", "legal_actions_in", "near_miss_actions", "options", "payments",
     "played", "setups", "states", "views")
)  # fmt: skip


def __getattr__(name: str) -> object:
    """The hypothesis strategies load on first use, so hypothesis stays optional."""
    if name in _STRATEGIES:
        from . import strategies

        return getattr(strategies, name)
    raise AttributeError(f"module 'ttr_europe.testing' has no attribute {name!r}")


CardSpec = Cards | str | Mapping[str, int]
KindSpec = int | str | None


def cards(spec: CardSpec) -> Cards:
    """``Cards`` from ``Cards``, text ("2red+loco") or a mapping of kind names."""
    if isinstance(spec, Cards):
        return spec
    if isinstance(spec, str):
        return Cards.parse(spec)
    return Cards.of(None, **dict(spec))


def kind(spec: KindSpec) -> int:
    """A card kind from an int, a name ("red", "loco") or None / "-" (an empty slot)."""
    if spec is None or spec == "-":
        return NO_CARD
    return spec if isinstance(spec, int) else kind_from_name(spec)


def kinds(spec: str | Iterable[KindSpec]) -> tuple[int, ...]:
    """Card kinds from "red blue loco" or a list of kind specs."""
    items: Iterable[KindSpec] = spec.split() if isinstance(spec, str) else spec
    return tuple(kind(k) for k in items)


class _TicketIndex(dict[str, int]):
    """Ticket ids to indices; an unknown id is a ``SetupError``, not a ``KeyError``."""

    def __missing__(self, ticket_id: str) -> int:
        raise SetupError(f"no ticket {ticket_id!r} on this map")


def scenario(
    map: str | Map = "europe",
    variant: str = "base",
    players: int = 2,
    *,
    seed: int = 0,
    current: int = 0,
    first_player: int = 0,
    phase: Phase = Phase.TURN,
    hands: Mapping[int, CardSpec] | None = None,
    pile: str | Sequence[KindSpec] | None = None,
    row: str | Sequence[KindSpec] | None = None,
    discard: CardSpec | None = None,
    ticket_deck: Sequence[str] | None = None,
    box: Sequence[str] | None = None,
    tickets: Mapping[int, Sequence[str]] | None = None,
    offers: Mapping[int, Sequence[str]] | None = None,
    owners: Mapping[str, int] | None = None,
    stations: Mapping[int, Sequence[str]] | None = None,
    trains: Mapping[int, int] | None = None,
    scores: Mapping[int, int] | None = None,
    tunnel: PendingTunnel[int] | None = None,
    final_turns: int = -1,
    passes: int = 0,
    check: bool = True,
    **options: object,
) -> GameState:
    """Build an exact position (see the module docstring)."""
    board = load_map(map) if isinstance(map, str) else map
    v = board.variants[variant]
    rules = Rules(board, v, players, **options)  # type: ignore[arg-type]
    hand_of = {p: cards(h) for p, h in (hands or {}).items()}
    row_kinds = _row(row, v.face_up)
    discard_cards = cards(discard) if discard is not None else Cards()
    owner_idx = {board.route_index[r]: seat for r, seat in (owners or {}).items()}
    owners_t = tuple(owner_idx.get(r, NO_OWNER) for r in range(len(board.routes)))
    if pile is None:
        pile_t, rng = _shuffled_rest(seed, hand_of.values(), row_kinds, discard_cards, tunnel)
    else:
        pile_t, rng = kinds(pile), seed_state(seed)
    tix = _TicketIndex(board.ticket_index)
    deck_t, box_t = _ticket_places(board, v, tix, ticket_deck, box, tickets, offers)
    routes_of = [[board.routes[r] for r, s in owner_idx.items() if s == p] for p in range(players)]
    seats = tuple(
        PlayerState(
            hand_of.get(p, Cards()),
            (trains or {}).get(p, v.trains - sum(r.length for r in routes_of[p])),
            tuple(board.city_index[c] for c in (stations or {}).get(p, ())),
            (scores or {}).get(p, sum(r.points for r in routes_of[p])),
            tuple(tix[t] for t in (tickets or {}).get(p, ())),
            tuple(tix[t] for t in (offers or {}).get(p, ())),
        )
        for p in range(players)
    )
    state = GameState.create(
        rules=rules,
        phase=phase,
        current=current,
        first_player=first_player,
        players=seats,
        pile=pile_t,
        pile_top=0,
        row=row_kinds,
        discard=discard_cards,
        ticket_deck=deck_t,
        box=box_t,
        owners=owners_t,
        tunnel=tunnel,
        rng=rng,
        final_turns=final_turns,
        passes=passes,
    )
    problems = state_problems(state, complete=False, reachable=False) if check else []
    if problems:
        raise SetupError(f"not a valid position: {problems[0]}")
    return state


def _row(row: str | Sequence[KindSpec] | None, slots: int) -> tuple[int, ...]:
    """The face-up row: the given kinds, or every slot empty."""
    row_kinds = kinds(row) if row is not None else (NO_CARD,) * slots
    if len(row_kinds) != slots:
        raise SetupError(f"the face-up row has {slots} slots")
    return row_kinds


def _shuffled_rest(
    seed: int,
    hands: Iterable[Cards],
    row: tuple[int, ...],
    discard: Cards,
    tunnel: PendingTunnel[int] | None,
) -> tuple[tuple[int, ...], int]:
    """The draw pile when none is given: every card placed nowhere else, shuffled by ``seed``."""
    tunnel_cards: tuple[Cards, ...] = () if tunnel is None else (tunnel.laid,)
    revealed = () if tunnel is None else tunnel.revealed
    used = cards_placed(hands, (*row, *revealed), discard, *tunnel_cards)
    rest = [FULL_DECK[k] - used[k] for k in range(KINDS)]
    if min(rest) < 0:
        raise SetupError("more cards placed than the 110 of the game")
    return shuffled(seed_state(seed), Cards(rest).kinds())


def _ticket_places(
    board: Map,
    v: Variant,
    tix: Mapping[str, int],
    ticket_deck: Sequence[str] | None,
    box: Sequence[str] | None,
    tickets: Mapping[int, Sequence[str]] | None,
    offers: Mapping[int, Sequence[str]] | None,
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The ticket deck and the box: as given, else every pool ticket not held (the regular ones
    in the deck) and the rest out of the game."""
    held = {tix[t] for seq in (*(tickets or {}).values(), *(offers or {}).values()) for t in seq}
    held |= {tix[t] for t in box or ()}
    if ticket_deck is None:
        pool = [t for t in (*v.long_pool, *v.regular_pool) if t not in held]
        deck_t = tuple(t for t in pool if not board.tickets[t].long)
    else:
        deck_t = tuple(tix[t] for t in ticket_deck)
    if box is None:  # every pool ticket placed nowhere else is out of the game
        placed = held | set(deck_t)
        box_t = tuple(t for t in (*v.long_pool, *v.regular_pool) if t not in placed)
    else:
        box_t = tuple(tix[t] for t in box)
    return deck_t, box_t


def finished(
    owners: Mapping[str, int] | None = None,
    *,
    map: str | Map = "europe",
    variant: str = "base",
    players: int = 2,
    **placed: Any,
) -> GameState:
    """A game over (no turn owed) with these routes and pieces placed: a position to score."""
    return scenario(
        map, variant, players, owners=owners, phase=Phase.GAME_OVER, final_turns=0, **placed
    )


def refusal(state: GameState, action: object) -> IllegalActionError:
    """The error ``apply`` raises for ``action``, checking that the refusal is clean.

    Asserts that ``apply`` refuses with an ``IllegalActionError`` whose message starts with its
    rule, that the state is unchanged, and that ``is_legal`` and ``legal_actions`` agree.
    """
    before = repr(state)
    try:
        apply(state, action)  # type: ignore[arg-type]
    except IllegalActionError as error:
        assert repr(state) == before, "a refused action changed the state"
        assert not is_legal(state, action), "is_legal accepts an action apply refuses"
        assert action not in legal_actions(state), "legal_actions lists a refused action"
        assert str(error).startswith(f"{error.rule}: "), "the message does not name its rule"
        return error
    raise AssertionError(f"{action} was accepted")
