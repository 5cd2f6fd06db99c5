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

from ..actions import (
    ACTION_TYPES,
    Action,
    BuildStation,
    ClaimRoute,
    DrawFaceUp,
    PayTunnel,
    WithdrawTunnel,
    malformed,
)
from ..board import Map
from ..cards import Cards, _make
from ..errors import BadArgumentError, MalformedActionError, kind_of
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

    def check(self, position: object, function: str) -> None:
        """``position`` is a state or a view with as many seats as this memory."""
        if type(position) is not GameState and type(position) is not View:
            raise BadArgumentError(
                f"{function}: the position must be a GameState or a View, got {kind_of(position)}",
                argument="position",
            )
        if len(self.cards) != len(position.players):
            raise BadArgumentError(
                f"{function}: the memory has {len(self.cards)} seats, the position "
                f"{len(position.players)}",
                argument="memory",
            )

    def after(self, before: GameState | View, action: Action) -> PublicHands:
        """The memory once ``action`` is played in ``before`` (a state or any seat's view).

        A position of another player count, or an action that is not one (a face-up slot
        outside the row, a forged payment), is refused with a typed error rather than
        remembered as cards a seat never took.
        """
        self.check(before, "PublicHands.after")
        if type(action) not in ACTION_TYPES:
            raise MalformedActionError("input", f"not an action: {action!r}")
        why = malformed(action)
        if why is not None:
            raise MalformedActionError("input", why, action)
        seat = before.current
        known = self.cards[seat]
        if isinstance(action, DrawFaceUp):
            if not 0 <= action.slot < len(before.row):
                raise MalformedActionError("input", f"no face-up slot {action.slot!r}", action)
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
    if type(memory) is not PublicHands:
        raise BadArgumentError(
            f"determinize_with_memory: memory must be a PublicHands, got {kind_of(memory)}",
            argument="memory",
        )
    memory.check(source, "determinize_with_memory")
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
