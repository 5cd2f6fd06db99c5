"""The game state: immutable, slotted, sharing unchanged parts between successive states.

Every field is a plain value (ints, tuples, ``Cards``) or a frozen attrs object, so a state is
safe to keep, hash, compare and share. ``copy``/``deepcopy`` return the state itself. The
reducer builds states and seats with ``new_state``/``new_player`` (the same objects, built
faster); for that, neither class takes weak references.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import IntEnum
from typing import Any, Generic, TypeVar

import attrs

from .board import Map, Variant
from .cards import LOCOMOTIVE, Cards

NO_CARD = -1  # an empty face-up slot (D3)
NO_OWNER = -1
RouteRef = TypeVar("RouteRef", int, str)  # a route's index (states) or its id (views)
_T = TypeVar("_T", bound=attrs.AttrsInstance)


class Phase(IntEnum):
    """Where the turn stands (design.md "The turn as a small state machine")."""

    INITIAL_TICKETS = 0  # the current player chooses from the starting deal (R9, D36)
    TURN = 1  # the current player starts a turn (R12)
    SECOND_DRAW = 2  # one train card taken; the second is due (R13, D5)
    CHOOSE_TICKETS = 3  # tickets drawn; the current player keeps some (R37)
    TUNNEL = 4  # tunnel cards laid and revealed; pay the extra or withdraw (R28)
    GAME_OVER = 5


@attrs.frozen
class Rules:
    """Map, variant, player count and every switch of rules.md Part D (defaults first).

    - ``reset_cap``: at most this many three-locomotive resets in a row (D2c); 0 = no limit.
    - ``second_card_optional``: a player may stop after one card (D5 option).
    - ``tiebreak_path_length``: the third Europe tie-break compares path length (R49 3').
    - ``bonus_at_zero``: the longest-path bonus is given even when nobody has track (D14 option).
    - ``max_long_kept``: overrides the variant's limit on long tickets kept at the start (B4 ALT).
    """

    map: Map = attrs.field(repr=lambda m: m.id)
    variant: Variant = attrs.field(repr=lambda v: v.id)
    players: int
    reset_cap: int = 3
    second_card_optional: bool = False
    tiebreak_path_length: bool = False
    bonus_at_zero: bool = False
    max_long_kept: int | None = None

    @property
    def doubles_open_to_all(self) -> bool:
        """Whether a second player may claim the other track of a double route (R26b/c),
        fixed by the player count at setup (D21)."""
        return self.players >= self.variant.double_routes_min_players

    @property
    def long_kept_limit(self) -> int | None:
        return self.max_long_kept if self.max_long_kept is not None else self.variant.max_long_kept


@attrs.frozen(weakref_slot=False)  # see _fast_builder
class PlayerState:
    """One seat: hand, pieces left, running route points, tickets kept and tickets on offer."""

    hand: Cards
    trains: int
    stations: tuple[int, ...]  # cities where this player built, in order built
    score: int  # route points scored so far (R24)
    tickets: tuple[int, ...]  # kept tickets (indices)
    offer: tuple[int, ...]  # tickets dealt or drawn, awaiting the keep choice

    def __copy__(self) -> PlayerState:
        return self

    def __deepcopy__(self, memo: object) -> PlayerState:
        return self


@attrs.frozen
class PendingTunnel(Generic[RouteRef]):
    """A tunnel attempt waiting for the answer (D31): the cards laid and those revealed.

    All of it is public (R28, R52): a state holds the route's index, a view its id.
    """

    route: RouteRef
    laid: Cards
    revealed: tuple[int, ...]
    colour: int  # colour of the laid cards, LOCOMOTIVE if they are all locomotives (D7)
    extra: int  # cards still to pay

    @property
    def locomotives_only(self) -> bool:
        return self.colour == LOCOMOTIVE


@attrs.frozen(eq=False, weakref_slot=False)  # see _fast_builder
class GameState:
    """A whole position. Build new ones with ``apply``; never mutate.

    The draw pile is ``pile[pile_top:]`` (top first): drawing only moves ``pile_top``, so
    successive states share the pile tuple. Cards before ``pile_top`` are gone, so two states
    are equal when their draw piles are, however much of ``pile`` each has drawn.
    ``closed[p]`` caches, per seat, the bitmask of routes that seat may not claim (owned, or
    closed by a double route, R26).
    """

    rules: Rules
    phase: Phase
    current: int
    first_player: int
    players: tuple[PlayerState, ...]
    pile: tuple[int, ...]
    pile_top: int
    row: tuple[int, ...]  # face-up slots, NO_CARD when empty
    discard: Cards
    ticket_deck: tuple[int, ...]  # top first
    box: tuple[int, ...]  # tickets out of the game
    owners: tuple[int, ...]  # route -> seat, NO_OWNER when free
    closed: tuple[int, ...]
    tunnel: PendingTunnel[int] | None
    rng: int  # PRNG state for every shuffle (D19)
    final_turns: int  # -1 until the end is triggered; then turns still owed (R46, D34)
    passes: int  # consecutive passes (D30)

    @property
    def map(self) -> Map:
        return self.rules.map

    @property
    def draw_pile(self) -> tuple[int, ...]:
        """The draw pile, top first."""
        return self.pile[self.pile_top :]

    @property
    def pile_size(self) -> int:
        return len(self.pile) - self.pile_top

    def stations_left(self, seat: int) -> int:
        """Stations the seat has not built (R40); 0 on maps without stations."""
        return self.rules.variant.stations - len(self.players[seat].stations)

    @property
    def player(self) -> PlayerState:
        """The player to act."""
        return self.players[self.current]

    def _position(self) -> tuple[object, ...]:
        """The fields that make the position, the pile by the cards still in it."""
        return (*(getattr(self, name) for name in _POSITION_FIELDS), self.draw_pile)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not GameState:
            return NotImplemented
        assert isinstance(other, GameState)
        return self is other or self._position() == other._position()

    def __hash__(self) -> int:
        return hash(self._position())

    def __copy__(self) -> GameState:
        return self

    def __deepcopy__(self, memo: object) -> GameState:
        return self

    @classmethod
    def create(
        cls,
        *,
        rules: Rules,
        phase: Phase,
        current: int,
        first_player: int,
        players: tuple[PlayerState, ...],
        pile: tuple[int, ...],
        row: tuple[int, ...],
        discard: Cards,
        ticket_deck: tuple[int, ...],
        box: tuple[int, ...],
        owners: tuple[int, ...],
        rng: int,
        pile_top: int = 0,
        closed: tuple[int, ...] | None = None,
        tunnel: PendingTunnel[int] | None = None,
        final_turns: int = -1,
        passes: int = 0,
    ) -> GameState:
        """A state from its parts, by name; ``closed`` is derived from the owners when omitted.

        For code that builds positions (setup, readers, test helpers). The reducer builds its
        successors positionally from the previous state, which is faster (docs/performance.md).
        """
        if closed is None:
            closed = closed_masks(rules, owners)
        return cls(rules, phase, current, first_player, players, pile, pile_top, row, discard,
                   ticket_deck, box, owners, closed, tunnel, rng, final_turns, passes)  # fmt: skip


def _fast_builder(cls: type[_T]) -> Callable[..., _T]:
    """A positional constructor for the frozen slotted attrs class ``cls``: the same object
    ``cls(...)`` builds (same fields, class, equality, hash, pickling and ``attrs.evolve``),
    for the reducer, which builds one state per action.

    attrs' ``__init__`` stores each field through ``object.__setattr__`` (a frozen class refuses
    plain assignment). The builder fills a mutable shell with the same slots, which plain
    assignment fills three times faster, then makes it a ``cls``: Python allows that
    ``__class__`` assignment exactly when the two layouts are the same, and checks it every
    time. Both classes therefore have no ``__weakref__`` slot (on Python 3.11 it makes the
    layouts differ). Should the assignment ever be refused, the builder stores each field
    through its slot descriptor instead. No converter or validator runs (``cls`` has none).
    """
    fields = attrs.fields(cls)
    assert all(f.converter is None and f.validator is None and f.init for f in fields)
    names = [f.name for f in fields]
    shell = type(f"_{cls.__name__}Shell", (), {"__slots__": tuple(names)})
    lines = [f"def build({', '.join(names)}):", "    self = new(shell)"]
    lines += [f"    self.{n} = {n}" for n in names]
    lines += ["    self.__class__ = cls", "    return self"]
    build = _compile(lines, {"new": object.__new__, "shell": shell, "cls": cls})
    try:
        build(*names)
    except TypeError:  # pragma: no cover (a Python that refuses the layout)
        lines = [f"def build({', '.join(names)}):", "    self = new(cls)"]
        lines += [f"    set_{n}(self, {n})" for n in names]
        lines.append("    return self")
        setters = {f"set_{n}": cls.__dict__[n].__set__ for n in names}
        build = _compile(lines, {"new": object.__new__, "cls": cls, **setters})
    build.__qualname__ = build.__name__ = f"build_{cls.__name__}"
    build.__doc__ = f"``{cls.__name__}(...)`` positionally, built faster (trusted values)."
    return build


def _compile(lines: list[str], namespace: dict[str, Any]) -> Callable[..., Any]:
    exec("\n".join(lines), namespace)  # source built from attrs field names only
    build: Callable[..., Any] = namespace["build"]
    return build


new_state: Callable[..., GameState] = _fast_builder(GameState)
"""``GameState(...)`` positionally, for the reducer: the same object, built faster."""
new_player: Callable[..., PlayerState] = _fast_builder(PlayerState)
"""``PlayerState(...)`` positionally, for the reducer: the same object, built faster."""

_POSITION_FIELDS = tuple(
    f.name for f in attrs.fields(GameState) if f.name not in ("pile", "pile_top", "closed")
)


def closed_masks(rules: Rules, owners: tuple[int, ...]) -> tuple[int, ...]:
    """Per seat, the routes it may not claim given the owners (R23, R26)."""
    twin = rules.map.twin_mask
    owned = 0
    own = [0] * rules.players
    for r, seat in enumerate(owners):
        if seat != NO_OWNER:
            owned |= 1 << r
            own[seat] |= twin[r]
            if not rules.doubles_open_to_all:
                owned |= twin[r]
    return tuple(owned | own[p] for p in range(rules.players))
