"""The payments a hand can make (``_payments.py``): every exact payment against a brute-force
enumeration, worked examples, the fast counts and the n-th payment against the list, and the
tunnel's extra cards with the rule each refusal names."""

from __future__ import annotations

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from ttr_europe import _payments as payments
from ttr_europe.cards import KINDS, LOCOMOTIVE, Cards
from ttr_europe.maps import load_map
from ttr_europe.testing import cards

hands = st.lists(st.integers(0, 14), min_size=KINDS, max_size=KINDS).map(Cards)


@given(hands, st.sampled_from([None, *range(KINDS)]), st.integers(1, 9), st.integers(0, 3))
def test_nth_and_count_payments_agree_with_the_list(
    hand: Cards, colour: int | None, length: int, ferry: int
) -> None:
    listed = payments.payments(colour, length, ferry, hand)
    assert payments.count_payments(colour, length, ferry, hand) == len(listed)
    assert [payments.nth_payment(colour, length, ferry, hand, i) for i in range(len(listed))] == [
        *listed
    ]
    for beyond in (-1, len(listed)):
        with pytest.raises(IndexError):
            payments.nth_payment(colour, length, ferry, hand, beyond)


@given(hands, st.sampled_from(["europe", "usa"]))
def test_kind_counts_are_count_payments_per_route_kind(hand: Cards, map_id: str) -> None:
    board = load_map(map_id)
    expected = [
        (kind, n)
        for kind in board.route_kinds
        if (n := payments.count_payments(kind.colour, kind.length, kind.ferry, hand))
    ]
    found = payments.kind_counts(board, hand)
    assert [(kind, n) for kind, n, _ in found] == expected
    for kind, n, options in found:
        assert options is None or options == payments.payments(
            kind.colour, kind.length, kind.ferry, hand
        )
        assert n == len(payments.payments(kind.colour, kind.length, kind.ferry, hand))


def test_r28_r31_tunnel_extra_checks_name_their_rule() -> None:
    red, loco = 0, LOCOMOTIVE
    assert payments.pays_tunnel_extra(Cards.of(red=1, loco=1), red, 2) is None
    assert payments.pays_tunnel_extra(Cards.of(red=1), red, 2)[0] == "R28"  # type: ignore[index]
    assert payments.pays_tunnel_extra(Cards.of(red=1), loco, 1)[0] == "R30"  # type: ignore[index]
    assert payments.pays_tunnel_extra(Cards.of(blue=1), red, 1)[0] == "R29"  # type: ignore[index]
    assert payments.tunnel_extra_payments(loco, 2, Cards.of(red=5, loco=2)) == (Cards.of(loco=2),)


def _multisets(hand: Cards, size: int, start: int = 0) -> list[tuple[int, ...]]:
    """Every multiset of ``size`` cards taken from ``hand`` (kinds from ``start`` on)."""
    if size == 0:
        return [(0,) * KINDS]
    out = []
    for kind in range(start, KINDS):
        for rest in _multisets(hand, size - 1, kind):
            if rest[kind] < hand[kind]:
                out.append(tuple(n + (k == kind) for k, n in enumerate(rest)))
    return out


small_hands = st.lists(st.integers(0, 4), min_size=KINDS, max_size=KINDS).map(Cards)


@given(small_hands, st.sampled_from([None, *range(KINDS)]), st.integers(1, 5), st.integers(0, 2))
def test_payments_are_exactly_the_multisets_that_pay(
    hand: Cards, colour: int | None, length: int, min_locos: int
) -> None:
    assume(min_locos <= length)  # a ferry's locomotives are some of its spaces
    listed = payments.payments(colour, length, min_locos, hand)
    every = _multisets(hand, length)
    paying = {m for m in every if payments.pays(m, colour, length, min_locos) is None}
    assert len(set(listed)) == len(listed) and {tuple(p) for p in listed} == paying


def test_worked_payments_and_refusals() -> None:
    hand = cards("2red+1loco+1blue")
    assert payments.payments(None, 2, 0, hand) == (
        cards("2red"),
        cards("1red+1loco"),
        cards("1blue+1loco"),
    )
    assert payments.payments(0, 2, 1, hand) == (cards("1red+1loco"),)  # a ferry: one loco at least
    assert payments.payments(0, 4, 0, hand) == ()
    assert payments.pays(cards("1red+1blue"), None, 2, 0) == "colours may not be mixed"
    assert payments.pays(cards("2blue"), 0, 2, 0) == "needs red cards or locomotives"
    assert payments.pays(cards("2red"), 0, 3, 0) == "needs exactly 3 cards, got 2"
    assert payments.pays(cards("2red"), 0, 2, 1) == "needs at least 1 locomotive(s)"
    assert payments.tunnel_extra(0, [0, LOCOMOTIVE, 4]) == 2  # red laid: red and locos cost
    assert payments.tunnel_extra(LOCOMOTIVE, [0, LOCOMOTIVE, 4]) == 1
