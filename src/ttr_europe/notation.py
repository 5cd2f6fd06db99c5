"""Reading moves as people type them: ``parse_action(state, text)`` returns a legal action.

Besides the exact text of ``str(action)``, it accepts friendly forms and resolves them against
the position (face-up row, hand, offer, free routes):

- ``draw 3`` (face-up slot, counted from 1), ``draw red`` (the first face-up red), ``blind``,
  ``draw blind``, ``tickets``, ``draw tickets``;
- ``keep all``, ``keep 1 3`` (places in the offer, from 1), ``keep Paris-Wien, Roma-Smyrna``;
- ``claim Paris-Dieppe``, ``claim dieppe paris``, ``claim dieppe - paris with pink``, ``claim
  Paris-Dieppe with 3pink+1loco``, ``claim Berlin-Frankfurt red`` (a track of a double route, or
  the colour paid), ``claim Salt Lake City Denver`` (the cities' names may hold spaces);
- ``station Wien``, ``station Vienna with 2 red``, ``pay``, ``pay 1red``, ``withdraw``, ``pass``.

Words are case-insensitive; cities may be named by id, printed name (with or without accents)
or a common English name; a route's cities (and a ticket's) may come in either order, joined by
a hyphen, ``to`` or only a space (every split point is tried, as a name may hold a space). When
several legal actions fit, ``ActionParseError`` lists them as ``candidates``; when none does, it
says why.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable, Sequence
from functools import cache

from ._payments import payment_colour
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
    parse,
)
from .board import Map
from .cards import KIND_NAMES, Cards, kind_from_name
from .errors import ActionParseError, CardsError
from .rules import is_legal, legal_actions, why_illegal
from .state import GameState

_Handler = Callable[[GameState, str, str, "Action | None"], Action]
MAX_CANDIDATES = 30  # candidates listed in an ambiguity error
MAX_TEXT = 1000  # characters once spaces are collapsed; the longest real move is under 300

CITY_ALIASES: dict[str, dict[str, tuple[str, ...]]] = {
    "europe": {
        "Angora": ("Ankara",),
        "Athina": ("Athens",),
        "Bruxelles": ("Brussels",),
        "Bucuresti": ("Bucharest",),
        "Constantinople": ("Istanbul",),
        "Danzig": ("Gdansk",),
        "Kharkov": ("Kharkiv",),
        "Kobenhavn": ("Copenhagen",),
        "Kyiv": ("Kiev",),
        "Lisboa": ("Lisbon",),
        "Marseille": ("Marseilles",),
        "Moskva": ("Moscow",),
        "Munchen": ("Munich",),
        "Petrograd": ("St Petersburg", "Saint Petersburg"),
        "Roma": ("Rome",),
        "Smyrna": ("Izmir",),
        "Venezia": ("Venice",),
        "Warszawa": ("Warsaw",),
        "Wien": ("Vienna",),
        "Wilno": ("Vilnius",),
        "Zagrab": ("Zagreb",),
    },
}
"""Other names of cities, by map id and city id (names on the board are always accepted)."""


def normalize(text: str) -> str:
    """Lower case, accents dropped, dots and apostrophes removed, spaces collapsed."""
    decomposed = unicodedata.normalize("NFKD", text)
    plain = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    plain = re.sub(r"[.'’]", "", plain.lower())
    return " ".join(plain.split())


@cache
def _tables(board: Map) -> tuple[dict[str, int], dict[str, int], dict[str, int]]:
    """Normalized city names, route ids and ticket ids of a map, each to its index."""
    cities: dict[str, int] = {}
    for c in board.cities:
        for name in (c.id, c.name, *CITY_ALIASES.get(board.id, {}).get(c.id, ())):
            cities[_city_key(name)] = c.index
    routes = {normalize(r.id): r.index for r in board.routes}
    tickets = {normalize(t.id): t.index for t in board.tickets}
    return cities, routes, tickets


def find_city(board: Map, text: str) -> int | None:
    """The city named ``text`` (id, printed name or alias, any case), or None."""
    return _tables(board)[0].get(_city_key(text))


# What may stand between two cities (and a track): a hyphen, ``to``, or only a space
_SEPARATOR = re.compile(r"\s*-\s*|\s+to\s+|\s+")


def _city_key(name: str) -> str:
    """A city's name as the tables hold it: normalized, a hyphen in it read as a space, so that
    a name split at its hyphen by ``_pairs`` is found again."""
    return re.sub(r"\s*-\s*", " ", normalize(name))


def _pairs(text: str, words: int) -> Iterable[tuple[str, str, str]]:
    """Every way to read ``text`` as ``city<sep>city[<sep>track]``, each city a ``_city_key``
    of at most ``words`` words: it is cut at every separator, a space included, since a city's
    name may hold spaces (``salt lake city denver``); the caller keeps the readings that name
    cities. Only cuts leaving each city ``words`` words or fewer are read, so a long text costs
    time in proportion to its length, not its square."""
    parts = _SEPARATOR.split(text.strip())
    n = len(parts)
    for i in range(max(1, n - 2 * words - 1), min(n, words + 1)):
        left = " ".join(parts[:i])
        if n - i <= words:
            yield left, " ".join(parts[i:]), ""
        if 2 <= n - i <= words + 1:
            yield left, " ".join(parts[i:-1]), parts[-1]


@cache
def _city_words(board: Map) -> int:
    """The most words in a city key of ``board`` (its names and aliases)."""
    return max((len(key.split()) for key in _tables(board)[0]), default=1)


def find_routes(board: Map, text: str) -> tuple[int, ...]:
    """Routes ``text`` may name: a route id, or two cities in either order, optionally with a
    track colour or number for a double route (``Berlin-Frankfurt-red``)."""
    cities, routes, _ = _tables(board)
    key = normalize(text)
    if key in routes:
        return (routes[key],)
    found: list[int] = []
    for left, right, track in _pairs(key, _city_words(board)):
        a, b = cities.get(left), cities.get(right)
        if a is None or b is None:
            continue
        for r in board.routes_between.get(frozenset((a, b)), ()):
            route = board.routes[r]
            if track and track not in (route.colour_name, route.id.rsplit("-", 1)[-1].lower()):
                continue
            if r not in found:
                found.append(r)
    return tuple(found)


def find_tickets(board: Map, text: str, among: Iterable[int]) -> tuple[int, ...]:
    """Tickets of ``among`` that ``text`` names: by id, or by its two cities in either order."""
    _, _, tickets = _tables(board)
    key = normalize(text)
    pool = tuple(among)
    if key in tickets and tickets[key] in pool:
        return (tickets[key],)
    cities = _tables(board)[0]
    out: list[int] = []
    for left, right, _track in _pairs(key, _city_words(board)):
        a, b = cities.get(left), cities.get(right)
        for t in pool:
            ticket = board.tickets[t]
            if {a, b} == {ticket.a, ticket.b} and t not in out:
                out.append(t)
    return tuple(out)


# --------------------------------------------------------------------------- parsing


def parse_action(state: GameState, text: str) -> Action:
    """The one legal action ``text`` names in ``state`` (see the module docstring).

    Raises ``ActionParseError``: with ``candidates`` when several legal actions fit, or with
    the reason (the rule refusing it) when none does.
    """
    if not isinstance(text, str):
        raise ActionParseError(f"an action is text, not {type(text).__name__}")
    words = " ".join(text.split())
    if len(words) > MAX_TEXT:  # no action's text is longer
        raise ActionParseError(f"an action is at most {MAX_TEXT} characters, not {len(words)}")
    try:
        return _parse_action(state, text, words)
    except ActionParseError:
        raise
    except ValueError as exc:  # a number too long for int(), from any reading below
        raise ActionParseError(f"cannot read {text[:40]!r}: {exc}") from None


def _parse_action(state: GameState, text: str, words: str) -> Action:
    try:
        exact: Action | None = parse(words)
    except ValueError:
        exact = None
    if exact is not None and is_legal(state, exact):
        return exact
    low = words.lower()
    verb, _, rest = low.partition(" ")
    rest_raw = words[len(verb) :].strip()
    handler = _VERBS.get(verb)
    drawing = verb in ("draw", "take")
    if drawing and rest in ("blind", "deck", "pile", "top"):
        handler, rest_raw = _blind, ""
    elif drawing and rest in ("tickets", "ticket", "destinations"):
        handler, rest_raw = _tickets, ""
    elif verb == "build":
        rest_raw = re.sub(r"^(?:a\s+)?station\s+", "", rest_raw, flags=re.IGNORECASE)
        handler = _station
    if handler is None:
        raise ActionParseError(f"cannot read {text!r}: unknown verb {verb!r}")
    return handler(state, rest_raw, words, exact)


def _choose(
    state: GameState, matches: Sequence[Action], text: str, probe: Action | None = None
) -> Action:
    """The single match, or an error listing the matches or saying why none is legal."""
    unique = list(dict.fromkeys(matches))
    if len(unique) == 1:
        return unique[0]
    if unique:
        shown = tuple(str(a) for a in unique[:MAX_CANDIDATES])
        more = f" (first {MAX_CANDIDATES} of {len(unique)})" if len(unique) > MAX_CANDIDATES else ""
        raise ActionParseError(f"{text!r} fits {len(unique)} legal actions{more}", shown)
    reason = why_illegal(state, probe) if probe is not None else None
    because = f": {reason}" if reason is not None else ""
    raise ActionParseError(f"no legal action matches {text!r}{because}", refusal=reason)


def _plain(kind: type) -> _Handler:
    def handler(state: GameState, rest: str, text: str, exact: Action | None) -> Action:
        if rest:
            raise ActionParseError(f"cannot read {rest!r} after the verb")
        return _choose(state, _of(state, kind), text, kind())

    return handler


_blind = _plain(DrawBlind)
_tickets = _plain(DrawTickets)
_withdraw = _plain(WithdrawTunnel)
_pass = _plain(Pass)


def _draw(state: GameState, rest: str, text: str, exact: Action | None) -> Action:
    legal = [a for a in legal_actions(state) if isinstance(a, DrawFaceUp)]
    if not rest:
        return _choose(state, [*legal, *_of(state, DrawBlind)], text)
    if rest.isdecimal():  # what int() reads; isdigit() also takes superscripts
        probe = DrawFaceUp(int(rest) - 1)
        return _choose(state, [a for a in legal if a == probe], text, probe)
    kind = _kind(rest)
    slots = [a for a in legal if state.row[a.slot] == kind]
    if slots:
        return slots[0]  # the cards are alike: the first such slot
    shown = [s for s, k in enumerate(state.row) if k == kind]
    if not shown:
        raise ActionParseError(f"no {KIND_NAMES[kind]} card is face up")
    return _choose(state, [], text, DrawFaceUp(shown[0]))


def _of(state: GameState, kind: type) -> list[Action]:
    return [a for a in legal_actions(state) if type(a) is kind]


def _kind(word: str) -> int:
    try:
        return kind_from_name(word)
    except CardsError:
        raise ActionParseError(f"{word!r} is not a card colour") from None


def _payment_filter(spec: str) -> Callable[[Cards], bool]:
    """``3pink+1loco`` means exactly those cards; a lone colour means any payment of it."""
    spec = _cards_text(spec)
    if not spec:
        return lambda payment: True
    if re.fullmatch(r"[a-z]+", spec, re.IGNORECASE):
        kind = _kind(spec)
        return lambda payment: payment_colour(payment) == kind
    try:
        wanted = Cards.parse(spec)
    except CardsError as exc:
        raise ActionParseError(f"cannot read the cards {spec!r}: {exc}") from None
    return lambda payment: payment == wanted


def _cards_text(spec: str) -> str:
    """``2 red and 1 loco`` -> ``2red+1loco``: the forms people type, in ``Cards.parse`` form."""
    spec = re.sub(r"\s+and\s+", "+", spec.strip(), flags=re.IGNORECASE)
    return re.sub(r"(\d+)\s+(?=[a-z])", r"\1", spec, flags=re.IGNORECASE)


def _exact_cards(spec: str) -> Cards | None:
    spec = _cards_text(spec)
    try:
        return Cards.parse(spec) if re.search(r"\d", spec) else None
    except CardsError:
        return None


def _claim(state: GameState, rest: str, text: str, exact: Action | None) -> Action:
    board = state.rules.map
    spec, _, pay = _split_with(rest)
    routes = find_routes(board, spec)
    hint: int | None = None
    if not routes and " " in spec:
        head, _, last = spec.rpartition(" ")
        routes = find_routes(board, head)
        hint = _kind(last) if routes else None
    if not routes:
        raise ActionParseError(f"no route {spec!r} on the {board.id} map")
    ids = {board.routes[r].id for r in routes}
    paid = _payment_filter(pay)
    matches = [
        a
        for a in legal_actions(state)
        if isinstance(a, ClaimRoute)
        and a.route in ids
        and paid(a.payment)
        and (hint is None or _fits_hint(board, a, hint))
    ]
    cards = _exact_cards(pay)
    probe: Action | None = None
    if len(routes) == 1:
        route = board.routes[routes[0]]
        if cards is None:
            colour = route.colour if route.colour is not None else (hint if hint is not None else 0)
            cards = Cards.of({colour: route.length})
        probe = ClaimRoute(route.id, cards)
    return _choose(state, matches, text, probe)


def _split_with(rest: str) -> tuple[str, str, str]:
    """``X with Y`` -> ``(X, "with", Y)``; no ``with`` -> ``(rest, "", "")``."""
    parts = re.split(r"\s+with\s+", rest, maxsplit=1, flags=re.IGNORECASE)
    return (parts[0], "with", parts[1]) if len(parts) == 2 else (rest, "", "")


def _fits_hint(board: Map, action: ClaimRoute, kind: int) -> bool:
    """A colour after the route names the track's colour or the colour paid."""
    return board.route(action.route).colour == kind or payment_colour(action.payment) == kind


def _station(state: GameState, rest: str, text: str, exact: Action | None) -> Action:
    board = state.rules.map
    spec, _, pay = _split_with(re.sub(r"^in\s+", "", rest, flags=re.IGNORECASE))
    c = find_city(board, spec)
    if c is None:
        raise ActionParseError(f"no city {spec!r} on the {board.id} map")
    city = board.cities[c].id
    paid = _payment_filter(pay)
    matches = [
        a
        for a in legal_actions(state)
        if isinstance(a, BuildStation) and a.city == city and paid(a.payment)
    ]
    cards = _exact_cards(pay) or Cards.of(red=1)
    return _choose(state, matches, text, BuildStation(city, cards))


def _pay(state: GameState, rest: str, text: str, exact: Action | None) -> Action:
    paid = _payment_filter(rest)
    matches = [a for a in legal_actions(state) if isinstance(a, PayTunnel) and paid(a.payment)]
    cards = _exact_cards(rest)
    probe = PayTunnel(cards) if cards is not None else PayTunnel(Cards.of(loco=1))
    return _choose(state, matches, text, probe)


def _keep(state: GameState, rest: str, text: str, exact: Action | None) -> Action:
    board = state.rules.map
    offer = state.players[state.current].offer
    legal = [a for a in legal_actions(state) if isinstance(a, KeepTickets)]
    if not offer:
        return _choose(state, [], text, exact or KeepTickets(()))
    low = rest.lower().strip()
    if low == "all":
        chosen: tuple[int, ...] = offer
    elif re.fullmatch(r"\d+(?:\s*(?:,|\s|and)\s*\d+)*", low):
        places = [int(x) for x in re.findall(r"\d+", low)]
        bad = [p for p in places if not 1 <= p <= len(offer)]
        if bad:
            raise ActionParseError(f"the offer has places 1 to {len(offer)}, not {bad[0]}")
        chosen = tuple(offer[p - 1] for p in places)
    else:
        picked: list[int] = []
        for part in re.split(r"\s*,\s*|\s+and\s+", rest.strip()):
            found = find_tickets(board, part, offer)
            if len(found) != 1:
                names = tuple(board.tickets[t].id for t in offer)
                what = "no" if not found else "more than one"
                raise ActionParseError(f"{what} ticket on offer matches {part!r}", names)
            picked.append(found[0])
        chosen = tuple(picked)
    action = KeepTickets(board.tickets[t].id for t in chosen)
    return _choose(state, [a for a in legal if a == action], text, action)


_VERBS: dict[str, _Handler] = {
    "draw": _draw,
    "take": _draw,
    "blind": _blind,
    "tickets": _tickets,
    "claim": _claim,
    "station": _station,
    "pay": _pay,
    "withdraw": _withdraw,
    "decline": _withdraw,
    "pass": _pass,
    "keep": _keep,
}
