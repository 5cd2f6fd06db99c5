"""A game between seats, each a person or a bot: what a UI or a server holds (``Match``).

A ``Match`` keeps every state and action of one game and a numbered log of events (numbers
from 1, never reused). A person's move goes through ``play(seat, action_or_text)``, which
refuses a seat that is not to act (``NotYourTurnError``, rule R12) and any illegal or unreadable
move (the state unchanged), then lets bot seats move until a person must act or the game ends.
``events_since(n, seat)`` gives the events after number ``n`` as ``seat`` may see them, so a
client that remembers the last number it showed never misses or repeats one.

``undo()`` (hot-seat play) takes back moves up to and including the last one a person made;
the event log keeps its history and notes the undo with an ``Undone`` event, so numbers stay
monotonic and clients simply show it.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import attrs

from .._seeds import seat_rng
from ..actions import Action
from ..board import Map
from ..errors import GameOverError, NotYourTurnError, SetupError
from ..errors import MatchError as MatchError  # noqa: PLC0414 (re-exported from its old home)
from ..events import EVENT_FORMAT, Event, TurnStarted, visible_to
from ..loop import MAX_ACTIONS, play_out
from ..notation import parse_action
from ..players import Bot, bot_name, decide, make_bot
from ..records import GameRecord, record_of
from ..rules import apply_with_events, legal_actions, new_game
from ..state import GameState, Phase
from ..views import View, observe

if TYPE_CHECKING:
    from ..scoring import Scoreboard

PERSON = "person"
_PERSON_NAMES = ("person", "human", "p", "h")


@attrs.frozen
class Seat:
    """A seat: a person (``bot`` None) or a bot; ``name`` is for display."""

    name: str
    bot: Bot | None = attrs.field(default=None, eq=False)

    @property
    def is_person(self) -> bool:
        return self.bot is None


@attrs.frozen
class Undone:
    """Moves were taken back (hot-seat undo): ``actions`` of them, back to ``seat``'s choice."""

    seat: int
    actions: int

    def to_json(self) -> dict[str, Any]:
        return {"format": EVENT_FORMAT, "version": 1, "type": "undone", "seat": self.seat,
                "actions": self.actions}  # fmt: skip


MatchEvent = Event | Undone
Numbered = tuple[int, MatchEvent]


def _seat(spec: str | Bot | Seat, index: int) -> Seat:
    if isinstance(spec, Seat):
        return spec
    if isinstance(spec, str):
        name = spec.strip().lower()
        if name in _PERSON_NAMES:
            return Seat(PERSON)
        if not name.startswith("cmd"):  # a command keeps its case (paths, arguments)
            spec = name
        try:
            return Seat(spec.strip(), make_bot(spec.strip()))
        except ValueError as exc:
            raise SetupError(f"seat {index}: {exc}; or {PERSON!r}") from None
    if callable(getattr(spec, "choose", None)):
        return Seat(bot_name(spec), spec)
    raise SetupError(f"seat {index}: {spec!r} is neither {PERSON!r}, a bot name nor a bot")


class Match:
    """One game with its seats, history and event log. Not thread-safe: serialise calls."""

    def __init__(
        self, start: GameState, seats: Sequence[str | Bot | Seat], seed: int = 0,
        record: GameRecord | None = None, bot_seed: int | None = None,
    ) -> None:  # fmt: skip
        """``bot_seed`` seeds the bots' generators (``_seeds.seat_rng``); None: ``seed``, as
        ``players.play`` and public tournaments do. A table dealt in secret passes a number of
        its own, so that no bot's generator leads back to the deal (``_seeds.Deal``)."""
        n = start.rules.players
        if len(seats) != n:
            raise SetupError(f"{n} players need {n} seats, not {len(seats)}")
        self.seats: tuple[Seat, ...] = tuple(_seat(s, i) for i, s in enumerate(seats))
        self._record = record or GameRecord(
            start.map.id, start.rules.variant.id, n, seed, start.first_player
        )
        self._states: list[GameState] = [start]
        self._actions: list[Action] = []
        self._moved: list[tuple[Event, ...]] = []  # each action's events, as the reducer told
        self._movers: list[int] = []
        self._log: list[MatchEvent] = [TurnStarted(start.current, start.phase.name)]
        self._rngs = [seat_rng(seed if bot_seed is None else bot_seed, i) for i in range(n)]

    @classmethod
    def new(
        cls,
        map: str | Map = "europe",
        variant: str = "base",
        players: int = 2,
        seed: int = 0,
        seats: Sequence[str | Bot | Seat] | None = None,
        first_player: int | None = None,
        bot_seed: int | None = None,
        **options: Any,
    ) -> Match:
        """A fresh deal; ``seats`` default to one person then bots ("greedy")."""
        start = new_game(map, variant, players, seed, first_player, **options)
        seats = list(seats) if seats is not None else [PERSON] + ["greedy"] * (players - 1)
        opts = dict(options)
        record = record_of((), start.map.id, variant, players, seed, first_player, **opts)
        return cls(start, seats, seed, record, bot_seed)

    @classmethod
    def from_record(
        cls, record: GameRecord, seats: Sequence[str | Bot | Seat], *, map: Map | None = None
    ) -> Match:
        """A match that goes on from a saved record (its moves replayed once, with their
        events)."""
        from ..records import check_record, replay_moves

        check_record(record, "Match.from_record", map)
        match = cls(record.start(map), seats, record.seed, attrs.evolve(record, actions=()))
        for action, after, events in replay_moves(record, match.state, map=map):
            match._advance(action, after, events)  # DataError naming a move that is illegal
        return match

    # ------------------------------------------------------------------ reading

    @property
    def state(self) -> GameState:
        return self._states[-1]

    @property
    def seq(self) -> int:
        """The number of the last event (events are numbered from 1)."""
        return len(self._log)

    @property
    def finished(self) -> bool:
        return self.state.phase is Phase.GAME_OVER

    @property
    def current(self) -> int | None:
        """The seat to act, or None once the game is over."""
        return None if self.finished else self.state.current

    @property
    def actions(self) -> tuple[Action, ...]:
        return tuple(self._actions)

    @property
    def states(self) -> tuple[GameState, ...]:
        return tuple(self._states)

    @property
    def rngs(self) -> tuple[random.Random, ...]:
        """Each seat's generator, which its bot draws from: a server saves their states
        (``getstate``) with the moves and sets them back after a restart."""
        return tuple(self._rngs)

    def view(self, seat: int | None) -> View:
        """What ``seat`` may know now (None: a spectator)."""
        return observe(self.state, self._check_seat(seat))

    def legal(self, seat: int | None) -> Sequence[Action]:
        """The legal actions of ``seat``: empty unless it is that seat's turn."""
        if seat is None or self.finished or self._check_seat(seat) != self.state.current:
            return ()
        return legal_actions(self.state)

    @property
    def move_events(self) -> Sequence[tuple[Event, ...]]:
        """The events of each action so far (``move_events[i]`` those of ``actions[i]``), from
        the pass of the reducer that made it: a log or a replay shows them without a second."""
        return self._moved

    def events_since(self, seq: int, seat: int | None) -> list[Numbered]:
        """Events numbered after ``seq``, as ``seat`` may see them (None: a spectator)."""
        self._check_seat(seat)
        if type(seq) is not int:
            raise MatchError(f"an event number is an int, not {seq!r}")
        out: list[Numbered] = []
        for number in range(max(seq, 0) + 1, len(self._log) + 1):
            event = self._log[number - 1]
            shown = event if isinstance(event, Undone) else visible_to(event, seat)
            if shown is not None:
                out.append((number, shown))
        return out

    def record(self) -> GameRecord:
        """The game so far as a record (``replay`` rebuilds every state)."""
        return attrs.evolve(self._record, actions=tuple(str(a) for a in self._actions))

    def scoreboard(self) -> Scoreboard:
        """The scoreboard: final once the game is over, provisional before."""
        from ..scoring import score

        return score(self.state)

    # ------------------------------------------------------------------ moving

    def play(self, seat: int, action: Action | str, *, bots: bool = True) -> list[Numbered]:
        """A person's move, then (``bots``) the bots' moves until a person must act or the game
        ends (a server leaves them to ``bot_move``, to ask its bots off its event loop).

        Returns the new events as ``seat`` sees them. A bot that fails raises ``BotError`` from
        here with the person's move made. Refuses (the match unchanged): a finished
        game (``GameOverError``), a seat not to act or played by a bot (``NotYourTurnError``),
        unreadable text (``ActionParseError`` with the candidates when several fit) and illegal
        actions (``IllegalActionError`` naming the rule).
        """
        self._check_seat(seat)
        state = self.state
        if self.finished:
            raise GameOverError("R46", "the game is over", action)
        if seat != state.current:
            raise NotYourTurnError(
                "R12", f"it is seat {state.current}'s turn, not {seat}'s", action
            )
        if not self.seats[seat].is_person:
            raise NotYourTurnError("R12", f"seat {seat} is played by a bot", action)
        if isinstance(action, str):
            action = parse_action(state, action)
        before = self.seq
        self._advance(action, *apply_with_events(state, action, player=seat))
        if bots:
            self.advance()
        return self.events_since(before, seat)

    def bot_to_act(self) -> tuple[Bot, GameState, random.Random] | None:
        """What the bot to act decides from (its bot, the state, its seat's generator), for
        ``decide`` in another thread; None when a person is to act or the game is over."""
        if self.finished:
            return None
        seat = self.state.current
        bot = self.seats[seat].bot
        return None if bot is None else (bot, self.state, self._rngs[seat])

    def bot_move(self, action: Action) -> list[Numbered]:
        """The bot to act plays ``action``, as ``decide`` chose it from ``bot_to_act``; all its
        events, unfiltered. ``MatchError`` when no bot is to act (the match unchanged)."""
        if self.bot_to_act() is None:
            raise MatchError("no bot is to act")
        before = self.seq
        self._advance(action, *apply_with_events(self.state, action))
        return [(n, self._log[n - 1]) for n in range(before + 1, self.seq + 1)]

    def step(self) -> list[Numbered]:
        """One bot move (all its events, unfiltered); [] when a person is to act or it is over."""
        return self._bots_move(1)

    def advance(self) -> list[Numbered]:
        """Bot moves until a person must act or the game ends (all events, unfiltered); the
        game loop's cap (``loop.MAX_ACTIONS``) stops a bot that would never end the game."""
        return self._bots_move(MAX_ACTIONS)

    def _bots_move(self, most: int) -> list[Numbered]:
        """Up to ``most`` bot moves through the game loop; ``BotError`` if a bot fails (the
        moves before it stay made)."""
        before = self.seq
        for action, after, events in play_out(self.state, self._bot_choice, max_actions=most,
                                              events=True):  # fmt: skip
            self._advance(action, after, events)
        return [(n, self._log[n - 1]) for n in range(before + 1, self.seq + 1)]

    def _bot_choice(self, state: GameState) -> Action | None:
        """The action of the bot to act; None when a person is to act (the loop stops)."""
        bot = self.seats[state.current].bot
        return None if bot is None else decide(bot, state, self._rngs[state.current])

    def stand_in(self, seat: int, bot: Bot | str = "random") -> Seat:
        """Give a bot's seat to another bot (a bot name or a bot; random by default), for
        example after its bot failed, so the game can go on; the moves made stay.

        Raises ``MatchError`` for a seat a person plays.
        """
        self._check_seat(seat)
        old = self.seats[seat]
        if old.is_person:
            raise MatchError(f"seat {seat} is played by a person, not a bot")
        new = _seat(bot, seat)
        if new.is_person:
            raise MatchError(f"a stand-in for seat {seat} must be a bot")
        new = Seat(f"{new.name} for {old.name}", new.bot)
        self.seats = (*self.seats[:seat], new, *self.seats[seat + 1 :])
        return new

    def undo(self) -> list[Numbered]:
        """Take back moves up to and including the last move of a person (hot-seat play).

        Raises ``MatchError`` when no person has moved.
        """
        if not any(self.seats[m].is_person for m in self._movers):
            raise MatchError("nothing to undo: no person has moved yet")
        count = 0
        while True:
            mover = self._movers.pop()
            self._actions.pop()
            self._states.pop()
            self._moved.pop()
            count += 1
            if self.seats[mover].is_person:
                break
        before = self.seq
        self._log.append(Undone(mover, count))
        self._log.append(TurnStarted(self.state.current, self.state.phase.name))
        return [(n, self._log[n - 1]) for n in range(before + 1, self.seq + 1)]

    # ------------------------------------------------------------------ inside

    def _advance(self, action: Action, after: GameState, events: tuple[Event, ...]) -> None:
        self._movers.append(self.state.current)
        self._actions.append(action)
        self._states.append(after)
        self._moved.append(events)
        self._log.extend(events)

    def _check_seat(self, seat: int | None) -> int | None:
        n = len(self.seats)
        if seat is not None and (type(seat) is not int or not 0 <= seat < n):
            raise MatchError(f"no seat {seat!r} in a {n}-player game")
        return seat
