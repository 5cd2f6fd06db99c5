"""What one player may know (rules.md R52, D20), and full states sampled from that knowledge.

``observe(state, seat)`` strips every secret the seat may not see: the order of the draw pile and
of the ticket deck, the generator state, the box, other players' hands, tickets and offers.
``observe(state, None)`` is the spectator's view. A view holds ids, strings and small ints only,
so it is safe to send to a client; ``View.to_json`` gives its JSON document (written here,
read by ``jsonio.view_from_json``, so that this module does not import the readers).

``determinize(state_or_view, seat, rng)`` turns a view back into a complete ``GameState`` by
dealing the cards and tickets the seat has not seen uniformly at random among the hidden places,
keeping every size and the long/regular split the variant's deal allows. Search bots call it to
sample the worlds a player cannot tell apart (information-set search).

A view has no memory: cards an opponent took from the face-up row earlier are not remembered as
being in their hand. A bot that wants such inferences keeps them itself.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from math import comb
from typing import Any

import attrs

from ._guards import check_map, not_a_state
from ._jsontext import card_name, cards_json
from .board import Map
from .cards import FULL_DECK, KIND_NAMES, KINDS, Cards, _make
from .errors import BadArgumentError, DataError, SetupError, kind_of
from .maps import load_map
from .state import (
    NO_CARD,
    NO_OWNER,
    GameState,
    PendingTunnel,
    Phase,
    PlayerState,
    Rules,
)

OptionValue = int | bool | None
_FIXED_RULES = ("map", "variant", "players")


def rules_options(rules: Rules) -> tuple[tuple[str, OptionValue], ...]:
    """The option switches of ``rules`` as ``(name, value)`` pairs, in declaration order."""
    return tuple(
        (f.name, getattr(rules, f.name)) for f in attrs.fields(Rules) if f.name not in _FIXED_RULES
    )


@attrs.frozen
class PlayerView:
    """One seat as the observer sees it; ``hand``, ``tickets``, ``offer`` are None when secret."""

    seat: int
    hand_size: int
    ticket_count: int
    offer_count: int
    trains: int
    stations: tuple[str, ...]  # city ids, in the order built
    score: int  # route points scored so far (R24)
    routes: tuple[str, ...]  # route ids owned, in map order
    hand: Cards | None = None
    tickets: tuple[str, ...] | None = None
    offer: tuple[str, ...] | None = None


@attrs.frozen
class View:
    """What ``observer`` (a seat, or None for a spectator) may know of a position."""

    map: str
    variant: str
    options: tuple[tuple[str, OptionValue], ...]
    observer: int | None
    phase: Phase
    current: int
    first_player: int
    row: tuple[int, ...]  # face-up slots, NO_CARD (-1) when empty
    discard: Cards  # public (D20)
    pile_size: int
    ticket_deck_size: int
    box_size: int
    tunnel: PendingTunnel[str] | None  # all public (R28, R52); the route by id
    final_turns: int  # -1 until the end is triggered (R46)
    passes: int
    players: tuple[PlayerView, ...]

    @property
    def me(self) -> PlayerView | None:
        """The observer's own seat, or None for a spectator."""
        return None if self.observer is None else self.players[self.observer]

    @property
    def owners(self) -> dict[str, int]:
        """Claimed routes: route id -> seat."""
        return {r: p.seat for p in self.players for r in p.routes}

    def to_json(self) -> dict[str, Any]:
        """The view as a JSON document (``"format": "ttr_europe/view"``)."""
        return view_to_json(self)


def view_to_json(view: View) -> dict[str, Any]:
    """A view as JSON: hidden parts are ``null`` (``jsonio.view_from_json`` reads it back)."""
    t = view.tunnel
    return {
        "format": "ttr_europe/view",
        "version": 1,
        "map": view.map,
        "variant": view.variant,
        "options": dict(view.options),
        "observer": view.observer,
        "phase": view.phase.name,
        "current": view.current,
        "first_player": view.first_player,
        "row": [card_name(k) for k in view.row],
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


def observe(state: GameState, player: int | None) -> View:
    """The view of ``state`` for seat ``player`` (None: a spectator) (R52, D20).

    Kept tickets of every seat become public once the game is over (R47.2).
    """
    if type(state) is not GameState:
        raise not_a_state(state, "observe")
    n = state.rules.players
    if player is not None and (type(player) is not int or not 0 <= player < n):
        raise SetupError(f"no seat {player!r} in a {n}-player game")
    board = state.rules.map
    routes_of: list[list[str]] = [[] for _ in range(n)]
    for r, seat in enumerate(state.owners):
        if seat != NO_OWNER:
            routes_of[seat].append(board.routes[r].id)
    over = state.phase is Phase.GAME_OVER
    seats = []
    for seat, p in enumerate(state.players):
        mine = seat == player
        seats.append(
            PlayerView(
                seat=seat,
                hand_size=p.hand.total,
                ticket_count=len(p.tickets),
                offer_count=len(p.offer),
                trains=p.trains,
                stations=tuple(board.cities[c].id for c in p.stations),
                score=p.score,
                routes=tuple(routes_of[seat]),
                hand=p.hand if mine else None,
                tickets=_ticket_ids(board, p.tickets) if mine or over else None,
                offer=_ticket_ids(board, p.offer) if mine else None,
            )
        )
    tunnel = state.tunnel
    return View(
        map=board.id,
        variant=state.rules.variant.id,
        options=rules_options(state.rules),
        observer=player,
        phase=state.phase,
        current=state.current,
        first_player=state.first_player,
        row=state.row,
        discard=state.discard,
        pile_size=state.pile_size,
        ticket_deck_size=len(state.ticket_deck),
        box_size=len(state.box),
        tunnel=None
        if tunnel is None
        else PendingTunnel(
            board.routes[tunnel.route].id, tunnel.laid, tunnel.revealed, tunnel.colour, tunnel.extra
        ),
        final_turns=state.final_turns,
        passes=state.passes,
        players=tuple(seats),
    )


def _ticket_ids(board: Map, tickets: tuple[int, ...]) -> tuple[str, ...]:
    return tuple(board.tickets[t].id for t in tickets)


# --------------------------------------------------------------------------- determinization


def determinize(
    source: GameState | View,
    player: int | None,
    rng: random.Random | int | None = None,
    *,
    map: Map | None = None,
) -> GameState:
    """A full state that ``player`` cannot tell from ``source``, hidden parts drawn uniformly.

    ``source`` is a state (observed as ``player``) or a view (whose observer must be
    ``player``). Unseen cards are shuffled over the draw pile and the other hands, unseen
    tickets over the other players' tickets and offers, the ticket deck and the box, keeping
    every size and the long/regular split the variant's deal permits; the generator gets a
    fresh state. ``map`` is needed only for a view of a map that is not shipped.
    """
    _check_determinize(source, player, rng, map)
    gen = rng if isinstance(rng, random.Random) else random.Random(rng)
    return Sampler(source, player, map=map).sample(gen)


class Sampler:
    """``determinize`` for many worlds of one view: what the view fixes (the unseen cards and
    tickets, the hidden places and the count of long-ticket deals) is worked out once, and
    each ``sample(gen)`` draws only the hidden parts, the same world ``determinize(source,
    player, gen)`` draws from the same generator. A search samples thousands per move.
    """

    def __init__(self, source: GameState | View, player: int | None, *, map: Map | None = None):
        _check_determinize(source, player, None, map)
        if isinstance(source, View):
            if source.observer != player:
                raise SetupError(f"the view is seat {source.observer!r}'s, not seat {player!r}'s")
            view = source
            rules = rules_for(view, map)
        else:
            view = observe(source, player)
            rules = source.rules
        self.view = view
        self.rules = rules
        self._cards = _CardDeal(view)
        self._tickets = _TicketDeal(view, rules)
        board = rules.map
        self._owners = _owners(view, board)
        self._seats = [(p.trains, tuple(board.city_index[c] for c in p.stations), p.score)
                       for p in view.players]  # fmt: skip
        t = view.tunnel
        self._tunnel = None if t is None else PendingTunnel(
            board.route_index[t.route], t.laid, t.revealed, t.colour, t.extra
        )  # fmt: skip

    def sample(self, gen: random.Random) -> GameState:
        """One world, drawn with ``gen`` (which it advances)."""
        view = self.view
        hands, pile = self._cards.deal(gen)
        kept, offers, deck, box = self._tickets.deal(gen)
        players = tuple(
            PlayerState(hands[seat], trains, stations, score, kept[seat], offers[seat])
            for seat, (trains, stations, score) in enumerate(self._seats)
        )
        return GameState.create(
            rules=self.rules,
            phase=view.phase,
            current=view.current,
            first_player=view.first_player,
            players=players,
            pile=pile,
            pile_top=0,
            row=view.row,
            discard=view.discard,
            ticket_deck=deck,
            box=box,
            owners=self._owners,
            tunnel=self._tunnel,
            rng=gen.getrandbits(64),
            final_turns=view.final_turns,
            passes=view.passes,
        )


def rules_for(view: View, board: Map | None = None) -> Rules:
    """The ``Rules`` a view was taken under (its map loaded by id unless given)."""
    if board is None:
        board = load_map(view.map)
    elif board.id != view.map:
        raise SetupError(f"the view is of map {view.map!r}, not {board.id!r}")
    if view.variant not in board.variants:
        raise DataError(f"map {board.id!r} has no variant {view.variant!r}", source="<view>")
    options: dict[str, Any] = dict(view.options)
    return Rules(board, board.variants[view.variant], len(view.players), **options)


def _owners(view: View, board: Map) -> tuple[int, ...]:
    """The owner of each route by map index, from the seats' lists (each in map order)."""
    owners = [NO_OWNER] * len(board.routes)
    for p in view.players:
        last = -1
        for r in p.routes:
            ri = board.route_index[r]
            if ri <= last:  # one order only, or observe(determinize(v)) != v
                raise DataError(f"routes are listed once each in map order: {r} comes too late",
                                source="<view>", path=f"$.players[{p.seat}].routes")  # fmt: skip
            owners[ri], last = p.seat, ri
    return tuple(owners)


def cards_placed(
    hands: Iterable[Sequence[int]],
    kinds: Iterable[int] = (),
    *multisets: Sequence[int],
) -> Cards:
    """The cards of some hands, some single cards (``NO_CARD`` skipped) and other multisets:
    the one count of cards lying in several places (what a seat sees, a state's total)."""
    counts = [0] * KINDS
    for k in kinds:
        if k != NO_CARD:
            counts[k] += 1
    for cards in (*hands, *multisets):
        for k in range(KINDS):
            counts[k] += cards[k]
    return _make(counts)


def visible_cards(view: View) -> Cards:
    """The cards the observer sees: the row, the discard, a pending tunnel and its own hand."""
    me = view.me
    own = () if me is None or me.hand is None else (me.hand,)
    t = view.tunnel
    return cards_placed(own, (*view.row, *(t.revealed if t else ())), view.discard,
                        *((t.laid,) if t else ()))  # fmt: skip


def unseen_cards(view: View) -> Cards:
    """The cards the observer cannot see: the draw pile and the other hands, as a multiset."""
    seen = visible_cards(view)
    rest = [FULL_DECK[k] - seen[k] for k in range(KINDS)]
    if min(rest) < 0:
        raise DataError("more cards are visible than the game has", source="<view>")
    return _make(rest)


class _CardDeal:
    """The unseen cards of a view and where they go: the draw pile, then the hidden hands."""

    def __init__(self, view: View) -> None:
        self.unseen = list(unseen_cards(view).kinds())
        sizes = [p.hand_size for p in view.players if p.hand is None]
        if sum(sizes) + view.pile_size != len(self.unseen):
            raise DataError(
                f"{len(self.unseen)} unseen cards cannot fill a pile of {view.pile_size} and "
                f"hands of {sizes}",
                source="<view>",
            )
        self.pile_size = view.pile_size
        self.hands = [(p.hand, p.hand_size) for p in view.players]

    def deal(self, gen: random.Random) -> tuple[list[Cards], tuple[int, ...]]:
        """Hands by seat (the observer's own unchanged) and the draw pile."""
        unseen = self.unseen.copy()
        gen.shuffle(unseen)
        hands: list[Cards] = []
        at = self.pile_size
        for hand, size in self.hands:
            if hand is not None:
                hands.append(hand)
            else:
                hands.append(Cards.from_kinds(unseen[at : at + size]))
                at += size
        return hands, tuple(unseen[: self.pile_size])


@attrs.frozen
class _Slot:
    """A hidden place for tickets: how many, and how many of them may be long."""

    size: int
    low: int
    high: int


def _ticket_slots(view: View, rules: Rules) -> tuple[list[_Slot], int]:
    """Hidden places in a fixed order (per seat: tickets, offer; then deck, box).

    Long tickets go only where the variant's deal can put them (R8, R9, R37): when rejected
    starting tickets go to the box, the deck and drawn offers hold regular tickets only, a
    seat keeps at most its long deal, and an undecided starting offer holds exactly the long
    deal. When they go under the deck, the box holds only undealt long tickets.
    """
    v = rules.variant
    dl = v.deal_long
    to_box = v.initial_rejects == "box"
    limit = dl if rules.long_kept_limit is None else min(dl, rules.long_kept_limit)
    slots: list[_Slot] = []
    for p in view.players:
        n = 0 if p.tickets is not None else p.ticket_count
        slots.append(_Slot(n, 0, min(n, limit) if to_box else n))
        n = 0 if p.offer is not None else p.offer_count
        if view.phase is Phase.INITIAL_TICKETS:
            slots.append(_Slot(n, min(n, dl), min(n, dl)))
        else:
            slots.append(_Slot(n, 0, 0 if to_box else n))
    n = view.ticket_deck_size
    slots.append(_Slot(n, 0, 0 if to_box else n))
    n = view.box_size
    slots.append(_Slot(n, 0 if to_box else n, n))
    return slots, sum(s.size for s in slots)


class _TicketDeal:
    """The unseen tickets of a view and the hidden places they go (``_ticket_slots``), with
    the count of deals of the long ones (``_long_ways``), for uniform draws."""

    def __init__(self, view: View, rules: Rules) -> None:
        board = rules.map
        v = rules.variant
        known: set[int] = set()
        for p in view.players:
            for ids in (p.tickets, p.offer):
                known.update(board.ticket_index[t] for t in ids or ())
        self.longs = [t for t in v.long_pool if t not in known]
        self.regulars = [t for t in v.regular_pool if t not in known]
        self.slots, hidden = _ticket_slots(view, rules)
        if hidden != len(self.longs) + len(self.regulars):
            raise DataError(
                f"{len(self.longs) + len(self.regulars)} unseen tickets cannot fill {hidden} "
                "hidden places",
                source="<view>",
            )
        self.ways = _long_ways(self.slots, len(self.longs))
        self.choices: dict[tuple[int, int], tuple[list[int], list[int]]] = {}
        self.shown = [
            (
                None if p.tickets is None else _ids(board, p.tickets),
                None if p.offer is None else _ids(board, p.offer),
            )
            for p in view.players
        ]

    def deal(
        self, gen: random.Random
    ) -> tuple[list[tuple[int, ...]], list[tuple[int, ...]], tuple[int, ...], tuple[int, ...]]:
        """Kept tickets and offers by seat, the deck and the box, hidden ones drawn uniformly."""
        counts = self._long_counts(gen)
        longs, regulars = self.longs.copy(), self.regulars.copy()
        gen.shuffle(longs)
        gen.shuffle(regulars)
        filled: list[tuple[int, ...]] = []
        for slot, k in zip(self.slots, counts, strict=True):
            where_long = set(gen.sample(range(slot.size), k))
            filled.append(
                tuple(longs.pop() if i in where_long else regulars.pop() for i in range(slot.size))
            )
        kept: list[tuple[int, ...]] = []
        offers: list[tuple[int, ...]] = []
        for i, (tickets, offer) in enumerate(self.shown):
            kept.append(filled[2 * i] if tickets is None else tickets)
            offers.append(filled[2 * i + 1] if offer is None else offer)
        return kept, offers, filled[-2], filled[-1]

    def _long_counts(self, gen: random.Random) -> list[int]:
        """How many long tickets each slot gets, drawn so every full deal is equally likely: a
        slot of size ``n`` holding ``k`` long ones has ``comb(n, k)`` placements for them."""
        out: list[int] = []
        left = len(self.longs)
        for i, slot in enumerate(self.slots):
            known = self.choices.get((i, left))
            if known is None:
                choices = list(range(slot.low, min(slot.high, left) + 1))
                weights = [comb(slot.size, k) * self.ways[i + 1][left - k] for k in choices]
                known = self.choices[i, left] = choices, weights
            choices, weights = known
            pick = gen.randrange(sum(weights))
            j = 0
            while pick >= weights[j]:
                pick -= weights[j]
                j += 1
            out.append(choices[j])
            left -= choices[j]
        return out


def _ids(board: Map, tickets: tuple[str, ...]) -> tuple[int, ...]:
    return tuple(board.ticket_index[t] for t in tickets)


def _long_ways(slots: list[_Slot], longs: int) -> list[list[int]]:
    """``ways[i][s]``: the deals of ``s`` long tickets over slots ``i..`` (each slot's
    placements counted); refuses a view no deal of the variant's fits."""
    ways: list[list[int]] = [[0] * (longs + 1) for _ in range(len(slots) + 1)]
    ways[len(slots)][0] = 1
    for i in range(len(slots) - 1, -1, -1):
        slot = slots[i]
        for s in range(longs + 1):
            ways[i][s] = sum(
                comb(slot.size, k) * ways[i + 1][s - k]
                for k in range(slot.low, min(slot.high, s) + 1)
            )
    if ways[0][longs] == 0:
        raise DataError("no deal of the tickets fits the variant's rules", source="<view>")
    return ways


def _check_determinize(source: object, player: object, rng: object, map: object) -> None:
    """The arguments of ``determinize``: a state or a view, a seat, a generator or a seed."""
    from .views import View

    if type(source) is not GameState and type(source) is not View:
        raise BadArgumentError(
            f"determinize: source must be a GameState or a View, got {kind_of(source)}",
            argument="source",
        )
    if player is not None and type(player) is not int:
        raise BadArgumentError(
            f"determinize: player must be a seat (int) or None, got {kind_of(player)}",
            argument="player",
        )
    if rng is not None and type(rng) is not int and not isinstance(rng, random.Random):
        raise BadArgumentError(
            f"determinize: rng must be a random.Random, an int seed or None, got {kind_of(rng)}",
            argument="rng",
        )
    check_map(map, "determinize", optional=True)
