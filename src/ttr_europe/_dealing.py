"""The card table during one action: draw pile, face-up row, discard and the PRNG.

``apply`` hands these four to a ``Table``, works on it, and freezes the result into the next
state, so one action builds one state however many cards move. The row and the discard are
copied into lists only when a card actually moves there (most draws touch neither). A
``Table`` never escapes a call. Given an ``events`` list, it notes there what it does
(``Reshuffled``, ``SlotRefilled``, ``RowReset``) as it does it (``rules.apply_with_events``).
Rules: R14 (replacement), R17 with D2/D32 (three-locomotive reset), R18 with D4 (lazy reshuffle),
D3/D6 (empty slots, slot order).

engine.c's card table (``draw``, ``reshuffle``, ``refill``) mirrors this module. The differential
tests (tests/fast/test_fast.py) keep the two alike.
"""

from __future__ import annotations

from ._rng import shuffled
from .cards import KINDS, LOCOMOTIVE, Cards, _make
from .events import Event, Reshuffled, RowReset, slot_refilled
from .state import NO_CARD


class Table:
    __slots__ = ("cap", "discard", "events", "pile", "rng", "row", "threshold", "top")

    def __init__(
        self,
        pile: tuple[int, ...],
        top: int,
        row: tuple[int, ...],
        discard: tuple[int, ...],
        rng: int,
        threshold: int,
        cap: int,
        events: list[Event] | None = None,
    ) -> None:
        self.pile = pile
        self.top = top
        self.row: list[int] | tuple[int, ...] = row
        self.discard: list[int] | tuple[int, ...] = discard
        self.rng = rng
        self.threshold = threshold
        self.cap = cap
        self.events = events

    def draw(self) -> int:
        """Take the top card, reshuffling the discard if the pile is empty (R18, D4).

        Returns ``NO_CARD`` when both piles are empty (R19).
        """
        if self.top == len(self.pile) and not self.reshuffle():
            return NO_CARD
        card = self.pile[self.top]
        self.top += 1
        return card

    def reshuffle(self) -> bool:
        """Shuffle the discard into a new draw pile; False if there is nothing to shuffle."""
        discard = self.discard
        if not any(discard):
            return False
        kinds = [k for k in range(KINDS) for _ in range(discard[k])]
        self.pile, self.rng = shuffled(self.rng, kinds)
        self.top = 0
        self.discard = [0] * KINDS
        if self.events is not None:
            self.events.append(Reshuffled(len(kinds)))
        return True

    def cards_left(self) -> bool:
        """Whether any card can still be drawn (from the pile or a reshuffle)."""
        return self.top < len(self.pile) or any(self.discard)

    def _discard(self) -> list[int]:
        if type(self.discard) is not list:
            self.discard = list(self.discard)
        return self.discard

    def _row(self) -> list[int]:
        if type(self.row) is not list:
            self.row = list(self.row)
        return self.row

    def throw(self, cards: tuple[int, ...]) -> None:
        """Put a multiset of cards on the discard pile."""
        d = self._discard()
        for k in range(KINDS):
            d[k] += cards[k]

    def throw_kinds(self, kinds: tuple[int, ...] | list[int]) -> None:
        d = self._discard()
        for k in kinds:
            if k != NO_CARD:
                d[k] += 1

    def take(self, slot: int) -> int:
        """Take the face-up card in ``slot`` and refill the row (R14)."""
        row = self._row()
        card = row[slot]
        row[slot] = NO_CARD
        self.refill()
        return card

    def refill(self) -> None:
        """Fill the empty slots in slot order, then apply the reset rule (R17, D2, D3, D6, D32)."""
        if NO_CARD not in self.row:
            return
        row = self._row()
        placed = False
        for slot, held in enumerate(row):
            if held == NO_CARD:
                card = self.draw()
                if card == NO_CARD:
                    break
                row[slot] = card
                placed = True
                if self.events is not None:
                    self.events.append(slot_refilled(slot, card))
        if not placed:
            return
        resets = 0
        while row.count(LOCOMOTIVE) >= self.threshold and (self.cap == 0 or resets < self.cap):
            if not self.cards_left():  # D2b: nothing could refill the row
                return
            if self.cap == 0 and not self.reset_can_help():  # no cap: never loop forever
                return
            resets += 1
            if self.events is not None:
                self.events.append(RowReset(tuple(row)))
            self.throw_kinds(row)
            for slot in range(len(row)):
                card = row[slot] = self.draw()
                if self.events is not None and card != NO_CARD:
                    self.events.append(slot_refilled(slot, card))

    def reset_can_help(self) -> bool:
        """Whether a new row could show fewer locomotives than the reset threshold.

        Resets keep every card in play (row, pile and discard), so if those cards hold too few
        non-locomotives, every new row triggers another reset; without a cap (D2 option) that
        would loop forever.
        """
        row = [c for c in self.row if c != NO_CARD]
        rest = self.pile[self.top :]
        total = len(row) + len(rest) + sum(self.discard)
        locos = row.count(LOCOMOTIVE) + rest.count(LOCOMOTIVE) + self.discard[LOCOMOTIVE]
        return min(len(self.row), total) - (total - locos) < self.threshold

    def frozen_row(self) -> tuple[int, ...]:
        row = self.row
        return row if type(row) is tuple else tuple(row)

    def frozen_discard(self) -> Cards:
        discard = self.discard
        return discard if type(discard) is Cards else _make(discard)
