"""Payments: which multisets of train cards pay a route, a ferry, a station or a tunnel's extra.

This module is the one home of the payment rules (R20, R21, R27, R28-R31, R41): listing the
exact payments a hand can make, counting them without building them, and checking one payment.
``legal_actions``, ``apply``, the action codec, the bots and the state readers all ask here. A
map with other payment rules (mixed colours, a different ferry rule) would plug in by replacing
these functions; nothing else knows how a payment is formed.

The standard rules: ``length`` cards of one colour, locomotives standing in for any of them;
``min_locos`` locomotives are compulsory (ferry symbols); gray routes and stations take any one
colour; colours are never mixed. A tunnel's extra is paid in the colour laid or locomotives, and
only in locomotives when the cards laid were all locomotives.

engine.c's payments (``count_pay``, ``nth_pay``, ``pays``) mirror this module. The differential
tests (tests/fast/test_fast.py) keep the two alike.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from .board import Map, RouteKind
from .cards import COLORS, KIND_NAMES, KINDS, LOCOMOTIVE, Cards, _make, single

KindCount = tuple[RouteKind, int, tuple[Cards, ...] | None]
"""A route kind, how many payments a hand has for it, and those payments when they depend on
the kind's colour alone (``None`` for gray kinds: ask ``payments`` with the hand)."""


def _loco_range(held: int, locos: int, length: int, min_locos: int) -> range:
    """Locomotive counts for paying ``length`` with at least one card of a colour held ``held``."""
    return range(max(min_locos, length - held), min(length - 1, locos) + 1)


@lru_cache(maxsize=65536)
def payments(colour: int | None, length: int, min_locos: int, hand: Cards) -> tuple[Cards, ...]:
    """Every exact payment of ``length`` cards that ``hand`` can make (rules R20, R21, R27, R41).

    ``colour`` is the required colour, ``None`` for any single colour (gray routes, stations);
    ``min_locos`` locomotives are compulsory (ferry symbols). Colours are never mixed. Order: by
    colour, then by locomotives used; the all-locomotive payment comes last and appears once.
    """
    locos = hand[LOCOMOTIVE]
    out: list[Cards] = []
    for c in COLORS if colour is None else (() if colour == LOCOMOTIVE else (colour,)):
        for m in _loco_range(hand[c], locos, length, min_locos):
            values = [0] * KINDS
            values[c] = length - m
            values[LOCOMOTIVE] = m
            out.append(_make(values))
    if locos >= length:
        out.append(single(LOCOMOTIVE, length))
    return tuple(out)


def nth_payment(
    colour: int | None, length: int, min_locos: int, hand: tuple[int, ...], index: int
) -> Cards:
    """``payments(colour, length, min_locos, hand)[index]`` without building the others: a
    claim drawn from ``legal_actions`` needs one payment, and a new hand would otherwise list
    them all (``IndexError`` past the last)."""
    if index >= 0:
        locos = hand[LOCOMOTIVE]
        top = min(length - 1, locos)
        for c in COLORS if colour is None else (() if colour == LOCOMOTIVE else (colour,)):
            low = max(min_locos, length - hand[c])
            if top >= low:
                if index <= top - low:
                    values = [0] * KINDS
                    values[c] = length - low - index
                    values[LOCOMOTIVE] = low + index
                    return _make(values)
                index -= top - low + 1
        if index == 0 and locos >= length:
            return single(LOCOMOTIVE, length)
    raise IndexError("no such payment")


def count_payments(colour: int | None, length: int, min_locos: int, hand: tuple[int, ...]) -> int:
    """``len(payments(...))`` without building them."""
    locos = hand[LOCOMOTIVE]
    total = 1 if locos >= length else 0
    top = min(length - 1, locos)
    if colour == LOCOMOTIVE:
        return total
    if colour is not None:
        low = max(min_locos, length - hand[colour])
        return total + (top - low + 1 if top >= low else 0)
    if top < min_locos:
        return total
    # Per colour held: top - max(min_locos, length - held) + 1 payments when that is positive,
    # i.e. min(held - need + 1, cap) once held reaches need (no call per colour).
    need = length - top
    cap = top - min_locos + 1
    for held in hand[:LOCOMOTIVE]:
        if held >= need:
            more = held - need + 1
            total += more if more < cap else cap
    return total


def payment_colour(payment: tuple[int, ...]) -> int | None:
    """The one colour of a payment: ``LOCOMOTIVE`` if all locomotives, ``None`` if mixed."""
    found = LOCOMOTIVE
    for c in COLORS:
        if payment[c]:
            if found != LOCOMOTIVE:
                return None
            found = c
    return found


def tunnel_extra(colour: int, revealed: Sequence[int]) -> int:
    """The extra cards a tunnel laid in ``colour`` costs: one per revealed card of that colour
    or locomotive (R30, R31; all locomotives laid: ``colour`` is ``LOCOMOTIVE``, D7)."""
    return sum(1 for c in revealed if c == LOCOMOTIVE or c == colour)


def pays(payment: tuple[int, ...], colour: int | None, length: int, min_locos: int) -> str | None:
    """Why ``payment`` does not pay ``length`` cards of ``colour`` (``None`` if it does)."""
    if sum(payment) != length:
        return f"needs exactly {length} cards, got {sum(payment)}"
    kind = payment_colour(payment)
    if kind is None:
        return "colours may not be mixed"
    if colour is not None and kind not in (colour, LOCOMOTIVE):
        return f"needs {KIND_NAMES[colour]} cards or locomotives"
    if payment[LOCOMOTIVE] < min_locos:
        return f"needs at least {min_locos} locomotive(s)"
    return None


@lru_cache(maxsize=16384)
def pays_cards(payment: Cards, colour: int | None, length: int, min_locos: int) -> str | None:
    """``pays`` for a payment already known to be ``Cards``, cached: every claim is checked."""
    return pays(payment, colour, length, min_locos)


def tunnel_extra_payments(colour: int, extra: int, hand: Cards) -> tuple[Cards, ...]:
    """The payments of a tunnel's ``extra`` cards after laying ``colour`` (R28-R31).

    ``colour`` is ``LOCOMOTIVE`` when the cards laid were all locomotives: then only
    locomotives pay the extra (R30).
    """
    return payments(colour, extra, 0, hand)


def pays_tunnel_extra(payment: tuple[int, ...], colour: int, extra: int) -> tuple[str, str] | None:
    """Why ``payment`` does not pay a tunnel's extra, as (rule, reason); ``None`` if it does."""
    if sum(payment) != extra:
        return "R28", f"the extra cost is exactly {extra} card(s)"
    kind = payment_colour(payment)
    if colour == LOCOMOTIVE and kind != LOCOMOTIVE:
        return "R30", "a tunnel paid with locomotives only takes locomotives as extra cards"
    if kind is None or kind not in (colour, LOCOMOTIVE):
        return "R29", f"extra cards must be {KIND_NAMES[colour]} or locomotives"
    return None


# --------------------------------------------------------------------------- per-kind counts

_KIND_COUNTS: dict[Map, dict[Cards, tuple[KindCount, ...]]] = {}
_KIND_COUNTS_LIMIT = 200_000


def kind_counts(board: Map, hand: Cards) -> tuple[KindCount, ...]:
    """The route kinds of ``board`` that ``hand`` can pay, each with its number of payments.

    In the order ``legal_actions`` lists claims: by route colour (gray last), then length and
    ferry symbols. The train count and the routes still open are left to the caller (they
    change the routes of a kind, not its payments). Cached per hand: random play meets the
    same hands again and again.
    """
    cache = _KIND_COUNTS.get(board)
    if cache is None:
        cache = _KIND_COUNTS[board] = {}
    found = cache.get(hand)
    if found is None:
        if len(cache) >= _KIND_COUNTS_LIMIT:
            cache.clear()
        found = cache[hand] = _count_kinds(board, hand)
    return found


_GROUP_COUNTS: dict[Map, list[dict[object, tuple[KindCount, ...]]]] = {}
_HALF = 4  # colours 0-3 and 4-7 are looked up as two halves of the hand
_LOW, _HIGH = LOCOMOTIVE + 1, LOCOMOTIVE + 2  # their tables, after the nine groups' own


def _count_kinds(board: Map, hand: Cards) -> tuple[KindCount, ...]:
    """The computation behind ``kind_counts``, from parts cached on their own: the kinds of
    colours 0-3, those of colours 4-7 and the gray kinds.

    A colour's kinds depend only on the cards of that colour and the locomotives held, and the
    gray kinds on the colour counts in decreasing order and the locomotives; those parts repeat
    far more often than whole hands (a new hand in a new game is the common case).
    """
    tables = _GROUP_COUNTS.get(board)
    if tables is None:
        tables = _GROUP_COUNTS[board] = [{} for _ in range(len(board.kind_groups) + 2)]
    locos = hand[LOCOMOTIVE]
    low: object = (*hand[:_HALF], locos)
    out = tables[_LOW].get(low)
    if out is None:
        out = _remember(
            tables[_LOW], low, _count_colours(board, tables, hand, COLORS[:_HALF], locos)
        )
    high = hand[_HALF:]  # colours 4-7, then the locomotives
    part = tables[_HIGH].get(high)
    if part is None:
        part = _remember(
            tables[_HIGH], high, _count_colours(board, tables, hand, COLORS[_HALF:], locos)
        )
    out += part
    held_desc = sorted(hand[:LOCOMOTIVE], reverse=True)
    gray: object = (*held_desc, locos)
    part = tables[LOCOMOTIVE].get(gray)
    if part is None:
        group = board.kind_groups[LOCOMOTIVE]
        part = tables[LOCOMOTIVE][gray] = _count_group(group, tuple(held_desc), locos, None)
    return out + part


def _remember(
    table: dict[object, tuple[KindCount, ...]], key: object, part: tuple[KindCount, ...]
) -> tuple[KindCount, ...]:
    if len(table) >= _KIND_COUNTS_LIMIT:  # bounded like the per-hand cache
        table.clear()
    table[key] = part
    return part


def _count_colours(
    board: Map,
    tables: list[dict[object, tuple[KindCount, ...]]],
    hand: Cards,
    colours: Sequence[int],
    locos: int,
) -> tuple[KindCount, ...]:
    """The kinds of ``colours`` in order, each colour's part cached by its count and the
    locomotives."""
    out: tuple[KindCount, ...] = ()
    for g in colours:
        key = hand[g] << 8 | locos
        part = tables[g].get(key)
        if part is None:
            part = tables[g][key] = _count_group(board.kind_groups[g], (hand[g],), locos, g)
        out += part
    return out


def _count_group(
    group: tuple[RouteKind, ...], held_desc: tuple[int, ...], locos: int, colour: int | None
) -> tuple[KindCount, ...]:
    """``count_payments`` for each kind of one colour group (gray: every colour), stopping at
    the first length the cards cannot reach (kinds are sorted by length).
    """
    reach = held_desc[0] + locos  # no payment for a longer route in this group (R21)
    out: list[KindCount] = []
    own = None if colour is None else single(colour, held_desc[0]).add_kind(LOCOMOTIVE, locos)
    for kind in group:
        length, ferry = kind.length, kind.ferry
        if length > reach:
            break
        if locos >= length:
            n, top = 1, length - 1
        else:
            n, top = 0, locos
        for count in held_desc:  # most held first: stop at the first that cannot pay
            low = max(length - count, ferry)
            if top < low:
                break
            n += top - low + 1
        if n:
            out.append((kind, n, None if own is None else payments(colour, length, ferry, own)))
    return tuple(out)
