"""The card table during one action (``_table.py``): drawing, the lazy reshuffle, refilling the
face-up row in slot order, the three-locomotive reset with and without a cap, and every card kept
whatever happens."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from ttr_europe._dealing import Table
from ttr_europe.cards import KINDS, LOCOMOTIVE
from ttr_europe.events import Event, Reshuffled, RowReset, SlotRefilled
from ttr_europe.state import NO_CARD

RED, BLUE, L, E = 0, 4, LOCOMOTIVE, NO_CARD


def _discard(**counts: int) -> tuple[int, ...]:
    names = {"red": RED, "blue": BLUE, "loco": LOCOMOTIVE}
    out = [0] * KINDS
    for name, n in counts.items():
        out[names[name]] = n
    return tuple(out)


def _table(pile: tuple[int, ...], row: tuple[int, ...], discard: tuple[int, ...] = (0,) * KINDS,
           cap: int = 3, events: list[Event] | None = None) -> Table:  # fmt: skip
    return Table(pile, 0, row, discard, rng=12345, threshold=3, cap=cap, events=events)


def _cards(table: Table) -> list[int]:
    """How many cards of each kind the table holds: pile left, row and discard."""
    held = list(table.discard)
    for card in [*table.pile[table.top :], *table.row]:
        if card != NO_CARD:
            held[card] += 1
    return held


def test_taking_a_face_up_card_refills_its_slot_from_the_pile() -> None:
    events: list[Event] = []
    table = _table((BLUE, RED), (RED, RED, BLUE, RED, BLUE), events=events)
    assert table.take(1) == RED
    assert table.frozen_row() == (RED, BLUE, BLUE, RED, BLUE) and table.top == 1
    assert events == [SlotRefilled(1, BLUE)]


def test_an_empty_pile_is_reshuffled_from_the_discard_only_when_drawn_from() -> None:
    events: list[Event] = []
    table = _table((), (RED,) * 5, _discard(blue=2), events=events)
    assert table.cards_left()
    assert table.draw() == BLUE and events == [Reshuffled(2)]
    assert table.frozen_discard() == (0,) * KINDS and len(table.pile) == 2
    assert table.draw() == BLUE and table.draw() == NO_CARD  # both piles empty (R19)
    assert not table.cards_left() and not table.reshuffle()


def test_three_locomotives_face_up_reset_the_row() -> None:
    events: list[Event] = []
    table = _table((L, RED, RED, BLUE, BLUE, RED), (L, L, E, RED, BLUE), events=events)
    table.refill()
    assert table.frozen_row() == (RED, RED, BLUE, BLUE, RED)  # the new row, in slot order
    assert table.frozen_discard() == _discard(loco=3, red=1, blue=1)
    assert events[0] == SlotRefilled(2, L) and events[1] == RowReset((L, L, L, RED, BLUE))


def test_the_cap_stops_resets_and_without_one_a_hopeless_reset_is_not_tried() -> None:
    capped = _table((L,) * 20, (L, L, E, RED, BLUE), cap=2)
    capped.refill()
    assert capped.frozen_row().count(L) == 5 and capped.top == 11  # 1 + two new rows of 5
    hopeless = _table((L,) * 20, (L, L, E, L, L), cap=0)  # every card left is a locomotive
    hopeless.refill()
    assert hopeless.top == 1 and hopeless.frozen_row() == (L,) * 5


def test_a_row_left_untouched_is_not_copied() -> None:
    row, discard = (RED, BLUE, RED, BLUE, RED), _discard(red=1)
    table = _table((BLUE,), row, discard)
    table.refill()  # nothing empty: nothing moves
    assert table.frozen_row() is row and table.frozen_discard() == discard
    table.throw_kinds([RED, NO_CARD, L])
    assert table.frozen_discard() == _discard(red=2, loco=1)


@given(
    st.lists(st.sampled_from([RED, BLUE, L]), max_size=30),
    st.lists(st.sampled_from([RED, BLUE, L, E]), min_size=5, max_size=5),
    st.lists(st.integers(0, 4), min_size=KINDS, max_size=KINDS),
    st.integers(0, 3),
    st.lists(st.integers(0, 4), max_size=12),
)
def test_every_card_is_kept_whatever_is_drawn_taken_or_reset(
    pile: list[int], row: list[int], discard: list[int], cap: int, takes: list[int]
) -> None:
    table = _table(tuple(pile), tuple(row), tuple(discard), cap=cap)
    held = _cards(table)
    rng = random.Random(len(pile))
    for slot in takes:
        if table.frozen_row()[slot] != NO_CARD:
            taken = table.take(slot)
            held[taken] -= 1
            # a take refills every empty slot while a card can be drawn (D3)
            assert NO_CARD not in table.frozen_row() or not table.cards_left()
        elif (card := table.draw()) != NO_CARD:
            held[card] -= 1
        if rng.random() < 0.2:
            table.throw((1,) + (0,) * (KINDS - 1))
            held[RED] += 1
        assert _cards(table) == held
