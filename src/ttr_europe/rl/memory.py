"""What a seat with a good memory knows that a position alone does not say.

``PublicHands`` remembers, per seat, the cards everyone saw it take from the face-up row (or take
back from a withdrawn tunnel) and has not yet seen it spend: the public part of each hand.
Advance it with ``memory.after(position, action)`` before every ``apply``.
``determinize_with_memory`` samples full states that agree with it.

engine.c's ``known`` counts mirror ``PublicHands``. The differential tests (tests/fast/test_fast.py)
keep the two alike.
"""

from __future__ import annotations

import random

import attrs

from ..actions import Action, BuildStation, ClaimRoute, DrawFaceUp, PayTunnel, WithdrawTunnel
from ..board import Map
from ..cards import Cards, _make
from ..state import NO_CARD, GameState
from ..views import View, determinize, observe


@attrs.frozen
class PublicHands:
    """Per seat, the cards it was seen to take and has not been seen to spend (public facts).

    Never more than the seat really holds, kind by kind: a spend removes at most what was
    known of that kind. Immutable, so a search can keep one per node.
    """

    cards: tuple[Cards, ...]

    @classmethod
    def start(cls, players: int) -> PublicHands:
        """Nothing known yet: the starting hands are dealt face down (R6)."""
        return cls((Cards(),) * players)

    def after(self, before: GameState | View, action: Action) -> PublicHands:
        """The memory once ``action`` is played in ``before`` (a state or any seat's view)."""
        seat = before.current
        known = self.cards[seat]
        if isinstance(action, DrawFaceUp):
            kind = before.row[action.slot]
            if kind == NO_CARD:
                return self
            known = known.add_kind(kind)
        elif isinstance(action, ClaimRoute | PayTunnel | BuildStation):
            known = _make(max(0, k - p) for k, p in zip(known, action.payment, strict=True))
        elif isinstance(action, WithdrawTunnel) and before.tunnel is not None:
            known = known.plus(before.tunnel.laid)  # laid face up, taken back (R35)
        else:
            return self
        cards = list(self.cards)
        cards[seat] = known
        return PublicHands(tuple(cards))


def determinize_with_memory(
    source: GameState | View,
    seat: int,
    memory: PublicHands,
    rng: random.Random,
    *,
    map: Map | None = None,
) -> GameState:
    """Like ``views.determinize``, but every other hand holds the cards it is known to hold.

    The known cards are set aside as if face up, the rest is dealt uniformly over the hidden
    places (the pile and the unknown part of each other hand), then they go back to their
    hands: a uniform draw among the worlds that agree with the view and the memory.
    """
    view = source if isinstance(source, View) else observe(source, seat)
    aside = [Cards() if p.seat == seat else memory.cards[p.seat] for p in view.players]
    if not any(c.total for c in aside):
        return determinize(view, seat, rng, map=map)
    shown = view.discard
    for cards in aside:
        shown = shown.plus(cards)
    players = tuple(
        attrs.evolve(p, hand_size=p.hand_size - aside[p.seat].total) for p in view.players
    )
    world = determinize(attrs.evolve(view, discard=shown, players=players), seat, rng, map=map)
    hands = tuple(attrs.evolve(p, hand=p.hand.plus(aside[i])) for i, p in enumerate(world.players))
    return attrs.evolve(world, players=hands, discard=view.discard)
