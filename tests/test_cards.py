"""Train cards: the 110-card deck (R3), the ``Cards`` multiset and its text form, and the
payment rules of R20, R21, R27 and R41 checked against a brute-force enumeration."""

from __future__ import annotations

from itertools import combinations_with_replacement

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ttr_europe import Cards, Color
from ttr_europe._payments import count_payments, payment_colour, payments, pays
from ttr_europe.cards import EMPTY, FULL_DECK, KIND_NAMES, LOCOMOTIVE, CardsError, kind_from_name

hands = st.lists(st.integers(0, 6), min_size=9, max_size=9).map(Cards)
colours = st.sampled_from([None, *range(8), LOCOMOTIVE])


def test_r3_the_deck_is_twelve_of_each_colour_and_fourteen_locomotives() -> None:
    assert FULL_DECK.total == 110
    assert list(FULL_DECK) == [12] * 8 + [14]
    assert FULL_DECK.locomotives == 14
    assert len(FULL_DECK.kinds()) == 110


def test_kind_names_and_aliases() -> None:
    assert [kind_from_name(n) for n in KIND_NAMES] == list(range(9))
    assert kind_from_name("Purple") == Color.PINK
    assert kind_from_name(" locomotive ") == LOCOMOTIVE
    with pytest.raises(CardsError):
        kind_from_name("gray")  # a route colour, never a card


def test_cards_of_parse_and_text() -> None:
    c = Cards.of(red=2, loco=1)
    assert c == Cards.of({Color.RED: 2, Color.LOCOMOTIVE: 1})
    assert str(c) == "2red+1loco"
    assert Cards.parse("2red+1loco") == c == Cards.parse(" 2 Red + loco ")
    assert Cards.parse("pink purple") == Cards.of(pink=2)
    assert Cards.parse("none") == EMPTY == Cards() and str(EMPTY) == "none"
    assert repr(c) == "Cards.of(red=2, loco=1)"


@given(hands)
def test_text_round_trip(cards: Cards) -> None:
    assert Cards.parse(str(cards)) == cards
    assert eval(repr(cards), {"Cards": Cards}) == cards


@given(hands, hands)
def test_multiset_arithmetic(a: Cards, b: Cards) -> None:
    both = a.plus(b)
    assert both.total == a.total + b.total
    assert both.covers(a) and both.covers(b)
    assert both.minus(b) == a
    assert a.covers(b) == all(x >= y for x, y in zip(a, b, strict=True))
    assert Cards.from_kinds(a.kinds()) == a


def brute_force(colour: int | None, length: int, min_locos: int, hand: Cards) -> set[Cards]:
    """Every sub-multiset of ``hand`` that pays under R20/R21/R27, found by enumeration."""
    out: set[Cards] = set()
    for chosen in combinations_with_replacement(range(9), length):
        counts = Cards.from_kinds(chosen)
        if not hand.covers(counts) or counts[LOCOMOTIVE] < min_locos:
            continue
        used = [k for k in range(8) if counts[k]]
        if len(used) > 1:
            continue  # R21: colours never mixed
        if used and colour is not None and used[0] != colour:
            continue
        if used and colour == LOCOMOTIVE:
            continue
        out.add(counts)
    return out


@given(colours, st.integers(1, 6), st.integers(0, 3), hands)
def test_payments_are_exactly_the_brute_force_ones(
    colour: int | None, length: int, min_locos: int, hand: Cards
) -> None:
    """R20, R21, R27: the listed payments, their count and ``pays`` agree with enumeration."""
    min_locos = min(min_locos, length)
    listed = payments(colour, length, min_locos, hand)
    assert len(set(listed)) == len(listed)
    assert set(listed) == brute_force(colour, length, min_locos, hand)
    assert count_payments(colour, length, min_locos, hand) == len(listed)
    for pay in listed:
        assert pays(pay, colour, length, min_locos) is None
    if listed and hand.locomotives >= length:
        assert listed[-1] == Cards.of(loco=length)  # the all-locomotive payment comes last


@given(colours, st.integers(1, 6), st.integers(0, 2), hands)
def test_pays_explains_every_wrong_payment(
    colour: int | None, length: int, min_locos: int, payment: Cards
) -> None:
    min_locos = min(min_locos, length)
    ok = payment in brute_force(colour, length, min_locos, payment)
    why = pays(payment, colour, length, min_locos)
    assert (why is None) == ok
    if why is not None:
        assert isinstance(why, str) and why


def test_r41_station_payments() -> None:
    hand = Cards.of(red=3, blue=1, loco=2)
    assert payments(None, 1, 0, hand) == (Cards.of(red=1), Cards.of(blue=1), Cards.of(loco=1))
    assert Cards.of(red=1, blue=1, loco=1) not in payments(None, 3, 0, hand)
    assert Cards.of(blue=1, loco=2) in payments(None, 3, 0, hand)


def test_payment_colour() -> None:
    assert payment_colour(Cards.of(red=2, loco=1)) == Color.RED
    assert payment_colour(Cards.of(loco=3)) == LOCOMOTIVE
    assert payment_colour(Cards.of(red=1, blue=1)) is None
    assert pays(Cards.of(red=1, blue=1), None, 2, 0) == "colours may not be mixed"
    assert pays(Cards.of(red=2), Color.BLUE, 2, 0) == "needs blue cards or locomotives"
    assert pays(Cards.of(red=2), None, 2, 1) == "needs at least 1 locomotive(s)"
    assert pays(Cards.of(red=2), None, 3, 0) == "needs exactly 3 cards, got 2"


@pytest.mark.parametrize(
    "counts", [(1, 2), (0,) * 10, (-1,) + (0,) * 8, ("1",) + (0,) * 8, (None,) * 9]
)
def test_malformed_cards_are_refused(counts: tuple[object, ...]) -> None:
    with pytest.raises(CardsError):
        Cards(counts)  # type: ignore[arg-type]


def test_cards_are_immutable_values() -> None:
    c = Cards.of(red=1)
    assert hash(c) == hash(Cards.of(red=1))
    assert {c: 1}[Cards.parse("red")] == 1
    with pytest.raises(TypeError):
        c[0] = 2  # type: ignore[index]
