"""One seeded game between bots, described by a picklable ``GameSpec`` and summed up as a row.

This is all a worker runs, whatever the backend: ``play_batch`` plays some games and returns
their ``GameResult`` rows. A bot that raises or answers with an illegal action forfeits the game
(the row says who and why) instead of stopping the run, so a bad bot costs one game, not all;
so does an in-process bot over the clock its spec gives it (``SeatClock``).

A game whose every seat is a bot the compiled core plays move for move (``core_bot``) is played
in the core when the spec's engine allows it; its row is the reference's row, field for field
(only ``duration`` differs), which ``tests/sim/test_engines.py`` checks on every map and variant.
"""

from __future__ import annotations

import copy
import signal
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any

import attrs

from .. import fast
from .._seeds import PUBLIC, Deal, seat_rng, seat_seed, twister_key
from ..actions import Action
from ..board import Map
from ..errors import BadArgumentError, BotError, OutOfTime
from ..errors import SimulationError as SimulationError  # noqa: PLC0414 (re-exported from its old home)
from ..loop import MAX_ACTIONS, play_out  # a bot that never ends its game forfeits at the cap
from ..maps import load_map
from ..players import Bot, GreedyBot, RandomBot, close_bots, decide, make_bot, tell
from ..players import bot_name as reported_name
from ..players.protocol import ProcessBot, TimeControl
from ..players.styles import AmbitiousBot, ClaimerBot, SaverBot
from ..rules import new_game, setup_rules
from ..state import GameState, Phase
from ..views import OptionValue

BotLike = str | Bot  # a spec ("greedy", "package.module:Class") or a bot object

ENGINES = ("auto", "fast", "python")
"""Which engine plays a game: ``fast``, the compiled core (every seat a bot it plays, see
``core_bot``), ``python``, the reference, or ``auto``: the core when it is built and plays every
seat, else the reference. The rows are the same whichever plays."""


def bot_name(bot: BotLike) -> str:
    """The name a bot goes by in rows and tables: its spec, or the name it reports."""
    return bot if isinstance(bot, str) else reported_name(bot)


def resolve_bot(bot: BotLike) -> Bot:
    """A bot object for ``bot``: specs are built (``players.make_bot``, ``BotError`` for a spec
    that names no bot) and objects copied, so that every game starts from the same bot
    whichever worker plays it and whatever it played before."""
    if isinstance(bot, str):
        return make_bot(bot)
    try:
        return copy.deepcopy(bot)
    except Exception as exc:
        raise SimulationError(f"bot {bot_name(bot)!r} cannot be copied: {exc}") from None


_CORE_CLASSES: dict[str, type] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "claimer": ClaimerBot,
    "saver": SaverBot,
    "ambitious": AmbitiousBot,
}


def core_bot(bot: BotLike) -> str | None:
    """The name the compiled core knows ``bot`` by, when it plays it move for move (the specs
    of ``fast.CORE_BOTS``: ``random``, ``greedy``, ``claimer``, ``saver``, ``ambitious``; or an
    unaltered object of those bots' classes), else None."""
    if isinstance(bot, str):
        name = bot.strip()
        return name if name in fast.CORE_BOTS else None
    for name in fast.CORE_BOTS:
        if type(bot) is _CORE_CLASSES[name] and set(getattr(bot, "__dict__", {})) <= {"name"}:
            return name
    return None


def core_playable(lineup: Sequence[BotLike]) -> bool:
    """Whether the compiled core is built and plays every bot of ``lineup`` (``core_bot``)."""
    return bool(lineup) and all(core_bot(b) is not None for b in lineup) and fast.available()


def engine_for(engine: str, lineup: Sequence[BotLike]) -> str:
    """``fast`` or ``python``: the engine that ``engine`` (one of ``ENGINES``) plays ``lineup``
    with; a ``SimulationError`` saying why in one line when ``fast`` is asked for and cannot."""
    if engine not in ENGINES:
        raise SimulationError(f"unknown engine {engine!r}; known: {', '.join(ENGINES)}")
    if engine == "python" or (engine == "auto" and not core_playable(lineup)):
        return "python"
    others = [bot_name(b) for b in lineup if core_bot(b) is None]
    if others:
        raise SimulationError(f"the fast engine plays only the bots {', '.join(fast.CORE_BOTS)}, "
                              f"not {others[0]!r}; use --engine auto or python")  # fmt: skip
    if not fast.available():
        raise SimulationError("the fast engine needs the compiled core, which is not built or "
                              f"does not load: {fast.BUILD_COMMAND}")  # fmt: skip
    return "fast"


def board_engine(engine: str, spec: GameSpec) -> str:
    """``engine`` (``fast`` or ``python``, from ``engine_for``) for the board and rules of
    ``spec``: a board beyond the compiled core (``fast.takes``) is played in Python under
    ``auto`` and refused in one line under ``fast``, before any game."""
    if engine != "fast":
        return engine
    board = load_map(spec.map) if isinstance(spec.map, str) else spec.map
    rules = setup_rules(board, spec.variant, len(spec.bots), spec.seed, 0, dict(spec.options))
    if fast.takes(rules):
        return engine
    if spec.engine == "fast":
        raise SimulationError(f"the fast engine cannot play this board: map {board.id!r} is "
                              "beyond the compiled core's limits (docs/fast.md)")  # fmt: skip
    return "python"


@attrs.frozen
class GameSpec:
    """Everything that fixes one game: board, rules, seed and the bot of each seat."""

    map: str | Map
    variant: str
    seed: int
    bots: tuple[BotLike, ...]
    options: tuple[tuple[str, OptionValue], ...] = ()
    record: bool = False  # keep the actions in the row, for replay or training
    engine: str = "auto"  # one of ENGINES; the row is the same whichever plays
    clock: TimeControl | None = None  # the in-process seats' clocks (``SeatClock``); None: none
    deal: Deal = PUBLIC  # what the game is dealt from (``_seeds``): its seed itself, or a secret

    @property
    def dealt(self) -> int:
        """The seed the engine deals this game from (``seed`` itself in a public deal)."""
        return self.deal.game_seed(self.seed)

    @property
    def watched(self) -> bool:
        """Whether a turn of this game can have a deadline: a seat on the clocks (a ``cmd:``
        program, or in-process seats under ``clock``)."""
        return self.clock is not None or any(clocked(b) for b in self.bots)

    @property
    def map_id(self) -> str:
        return self.map if isinstance(self.map, str) else self.map.id


@attrs.frozen
class Forfeit:
    """Why a game stopped early: the seat whose bot raised or chose an illegal action."""

    seat: int
    bot: str
    action: int  # how many actions had been played
    error: str

    def __str__(self) -> str:
        return f"seat {self.seat} ({self.bot}) forfeited at action {self.action}: {self.error}"


@attrs.frozen
class GameResult:
    """One game as a row: seats and bots, scores, ranks, winners, length, time.

    ``seed`` names the game in its run; ``dealt`` is the seed the engine dealt it from when the
    deal was secret (revealed in the row once the game is over), None when it was ``seed``.
    ``returns`` shares 1.0 among the winners. After a forfeit the other seats share the win,
    ``scores`` are the provisional totals when the game stopped and ``ranks`` put the forfeiting
    seat last. ``duration`` (seconds) is the only field that differs between two runs of the
    same game; it does not take part in equality.
    """

    seed: int
    bots: tuple[str, ...]
    scores: tuple[int, ...]
    ranks: tuple[int, ...]
    winners: tuple[int, ...]
    returns: tuple[float, ...]
    actions: int
    forfeit: Forfeit | None = None
    record: tuple[str, ...] | None = None  # the actions as text, when asked for
    duration: float = attrs.field(default=0.0, eq=False)
    dealt: int | None = None

    @property
    def deal_seed(self) -> int:
        """The seed to deal this game again from (``records``, ``replay``)."""
        return self.seed if self.dealt is None else self.dealt

    def to_json(self) -> dict[str, Any]:
        row: dict[str, Any] = {
            "seed": self.seed,
            "bots": list(self.bots),
            "scores": list(self.scores),
            "ranks": list(self.ranks),
            "winners": list(self.winners),
            "returns": list(self.returns),
            "actions": self.actions,
            "duration": round(self.duration, 6),
            "forfeit": None if self.forfeit is None else attrs.asdict(self.forfeit),
        }
        if self.record is not None:
            row["record"] = list(self.record)
        if self.dealt is not None:
            row["dealt"] = self.dealt
        return row

    @classmethod
    def from_json(cls, row: Any) -> GameResult:
        """A row read back; raises ``ValueError``, ``TypeError`` or ``KeyError`` if malformed."""
        if not isinstance(row, dict):
            raise TypeError("a row is a JSON object")
        unknown = sorted(set(row) - _ROW_FIELDS)
        if unknown:
            raise ValueError(f"unknown field {unknown[0]!r}")
        forfeit = row["forfeit"]
        record = row.get("record")
        result = cls(
            seed=_int(row["seed"]),
            bots=tuple(_str(b) for b in row["bots"]),
            scores=tuple(_int(s) for s in row["scores"]),
            ranks=tuple(_int(r) for r in row["ranks"]),
            winners=tuple(_int(w) for w in row["winners"]),
            returns=tuple(float(r) for r in row["returns"]),
            actions=_int(row["actions"]),
            forfeit=None if forfeit is None else Forfeit(**forfeit),
            record=None if record is None else tuple(_str(a) for a in record),
            duration=float(row["duration"]),
            dealt=None if row.get("dealt") is None else _int(row["dealt"]),
        )
        seats = len(result.bots)
        if not seats or {len(result.scores), len(result.ranks), len(result.returns)} != {seats}:
            raise ValueError("bots, scores, ranks and returns differ in length")
        return result


_ROW_FIELDS = frozenset(
    {"seed", "bots", "scores", "ranks", "winners", "returns", "actions", "duration", "forfeit",
     "record", "dealt"}
)  # fmt: skip


def _int(value: Any) -> int:
    if type(value) is not int:
        raise TypeError(f"{value!r} is not an integer")
    return value


def _str(value: Any) -> str:
    if not isinstance(value, str):
        raise TypeError(f"{value!r} is not a string")
    return value


def clocked(bot: object) -> bool:
    """Whether ``bot`` (a spec or an object) is a program in another process, on the clocks."""
    if isinstance(bot, str):
        return bot.strip().startswith(("cmd:", "cmd["))
    return isinstance(bot, ProcessBot)


@attrs.define
class SeatClock:
    """The clocks of one in-process seat (``GameSpec.clock``): each decision is measured, and
    one over its limit (the move time, at most what is left of the game) is a ``BotError``
    (``timed out: ...``), the seat's forfeit. A decision made in the main thread, where
    ``signal.setitimer`` exists, is also interrupted at its limit (``OutOfTime`` raised in the
    bot's code), which stops Python code but not a C call that ignores signals nor a bot that
    catches ``BaseException``; those are timed when they return, and a watched worker is
    killed at the deadline if they never do (docs/simulation.md)."""

    time: TimeControl
    used: float = 0.0

    def limit(self) -> float:
        """The most seconds the next decision may take."""
        return max(0.0, min(self.time.move, self.time.game - self.used))

    def decide(self, decide: Callable[[], Action], name: str, seat: int) -> Action:
        """``decide()`` on the clock, or the ``BotError`` of a seat out of time."""
        limit = self.limit()
        which = "move time" if self.time.move <= self.time.game - self.used else "game time"
        if limit <= 0:
            raise BotError(name, seat, None, "timed out: no game time left")
        started = time.monotonic()
        try:
            action = _interrupted_at(limit, decide)
        except OutOfTime:
            reason = f"timed out: interrupted at the limit of {limit:g} s ({which})"
            raise BotError(name, seat, None, reason) from None
        spent = time.monotonic() - started
        self.used += spent
        if spent > limit:
            reason = f"timed out: took {spent:.3g} s, over the limit of {limit:g} s ({which})"
            raise BotError(name, seat, None, reason)
        return action


def _interrupted_at(seconds: float, decide: Callable[[], Action]) -> Action:
    """``decide()``, with ``OutOfTime`` raised in it after ``seconds`` when this is the main
    thread of a system with ``setitimer``; a timer and handler already set are put back."""
    if not hasattr(signal, "setitimer") or threading.current_thread() != threading.main_thread():
        return decide()
    armed = [True]  # cleared before anything else once ``decide`` is over

    def ring(signum: int, frame: object) -> None:
        if armed[0]:
            raise OutOfTime

    previous = signal.signal(signal.SIGALRM, ring)
    earlier, _ = signal.setitimer(signal.ITIMER_REAL, seconds)
    started = time.monotonic()
    try:
        return decide()
    finally:
        armed[0] = False
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, signal.SIG_DFL if previous is None else previous)
        if earlier > 0:  # someone else's alarm, less the time the decision took
            signal.setitimer(signal.ITIMER_REAL, max(1e-6, earlier - (time.monotonic() - started)))


TurnHook = Callable[[GameState, "float | None", Sequence[str]], None]
"""Told each state, the seconds its decision may take by the clocks (None: off the clocks) and
the actions so far: the backends' watch over a game whose referee may be stopped."""


def play_game(spec: GameSpec, on_turn: TurnHook | None = None) -> GameResult:
    """Play ``spec`` to the end, in the engine its ``engine`` names (see ``ENGINES``); a failing
    bot, or an in-process one over its ``clock``, forfeits (see ``GameResult``). ``on_turn``
    (``TurnHook``) is told each turn; the core plays no bot that needs it, and its own bots
    are not timed (they take microseconds)."""
    if engine_for(spec.engine, spec.bots) == "fast":
        return play_core_game(spec)
    return _play_reference(spec, on_turn)


_CORE_GAMES: dict[tuple[object, ...], fast.FastGame] = {}  # one compiled game per rules, dealt anew


def play_core_game(spec: GameSpec) -> GameResult:
    """``play_game`` in the compiled core, whatever ``spec.engine`` says: the same row
    (``SimulationError`` when the core is not built or does not play a seat's bot)."""
    started = time.perf_counter()
    engine_for("fast", spec.bots)
    names = tuple(bot_name(b) for b in spec.bots)
    seats = len(names)
    key = (spec.map, spec.variant, seats, spec.options)
    game = _CORE_GAMES.get(key)
    if game is None:
        board = load_map(spec.map) if isinstance(spec.map, str) else spec.map
        try:
            game = fast.new_game(board, spec.variant, seats, spec.dealt, 0, **dict(spec.options))
        except BadArgumentError as exc:  # a board beyond the core's limits (docs/fast.md)
            if spec.engine == "auto":
                return _play_reference(spec, None)
            raise SimulationError(f"the fast engine cannot play this board: {exc}") from None
        if len(_CORE_GAMES) < 64:
            _CORE_GAMES[key] = game
    else:
        game.deal(spec.dealt, 0)
    lineup = [core_bot(b) or "" for b in spec.bots]
    bot_seed = spec.deal.bot_seed(spec.seed)
    keys = [twister_key(seat_seed(bot_seed, seat)) for seat in range(seats)]
    actions, taken = game.play_bots(lineup, keys, MAX_ACTIONS, spec.record)
    if actions < 0:  # pragma: no cover (a bot found no move in the core: the reference decides)
        return _play_reference(spec, None)
    outcome = game.outcome()
    forfeit = None
    if not outcome.final:  # the loop's cap
        seat = game.current
        forfeit = Forfeit(seat, names[seat], actions, f"no end after {MAX_ACTIONS} actions")
    record = () if taken is None else tuple(str(a) for a in taken)
    return _row(spec, names, outcome.totals, actions, record, time.perf_counter() - started,
                forfeit=forfeit, ranks=outcome.ranks, winners=outcome.winners)  # fmt: skip


def _row(
    spec: GameSpec,
    names: tuple[str, ...],
    totals: tuple[int, ...],
    actions: int,
    record: tuple[str, ...],
    duration: float,
    *,
    forfeit: Forfeit | None = None,
    ranks: tuple[int, ...] = (),
    winners: tuple[int, ...] = (),
) -> GameResult:
    """The row of a game played to its end (its ``ranks`` and ``winners``) or stopped by a
    forfeit (the forfeiting seat last, the others sharing the win), whichever engine played."""
    seats = len(names)
    if forfeit is not None:
        ranks = tuple(seats if s == forfeit.seat else 1 for s in range(seats))
        winners = tuple(s for s in range(seats) if s != forfeit.seat)
    share = 1.0 / len(winners)
    return GameResult(
        seed=spec.seed,
        bots=names,
        scores=totals,
        ranks=ranks,
        winners=winners,
        returns=tuple(share if s in winners else 0.0 for s in range(seats)),
        actions=actions,
        forfeit=forfeit,
        record=record if spec.record else None,
        duration=duration,
        dealt=None if spec.deal.public else spec.dealt,
    )


def _play_reference(spec: GameSpec, on_turn: TurnHook | None) -> GameResult:
    """``play_game`` on the reference engine, with the bots' own code."""
    from ..scoring import score

    started = time.perf_counter()
    board = load_map(spec.map) if isinstance(spec.map, str) else spec.map
    state = new_game(board, spec.variant, len(spec.bots), spec.dealt, 0, **dict(spec.options))
    names = tuple(bot_name(b) for b in spec.bots)
    players = [resolve_bot(b) for b in spec.bots]
    rngs = [seat_rng(spec.deal.bot_seed(spec.seed), seat) for seat in range(len(players))]
    clocks = [None if spec.clock is None or isinstance(p, ProcessBot) else SeatClock(spec.clock)
              for p in players]  # fmt: skip
    taken: list[str] = []
    forfeit = None

    def choose(now: GameState) -> Action:
        seat = now.current
        bot, clock, rng = players[seat], clocks[seat], rngs[seat]
        if on_turn is not None:
            limit = bot.decision_limit() if isinstance(bot, ProcessBot) else None
            on_turn(now, limit if clock is None else clock.limit(), taken)
        if clock is None:
            action = decide(bot, now, rng)
        else:
            action = clock.decide(lambda: decide(bot, now, rng), names[seat], seat)
        tell(players, now, action)  # the bots that watch see each move
        return action

    try:
        for action, after, _ in play_out(state, choose, max_actions=MAX_ACTIONS):
            taken.append(str(action))
            state = after
    except BotError as exc:  # a bot's failure is a result, not a crash of the run
        loser = state.current if exc.seat is None else exc.seat  # the mover, or a watcher
        forfeit = Forfeit(loser, names[loser], len(taken), exc.explained)  # stderr's end too
    finally:
        close_bots(players)  # a program in another process ends with its game
    if forfeit is None and state.phase is not Phase.GAME_OVER:  # the loop's cap
        seat = state.current
        forfeit = Forfeit(seat, names[seat], len(taken), f"no end after {MAX_ACTIONS} actions")
    board_score = score(state)
    totals = tuple(p.total for p in board_score.players)
    return _row(spec, names, totals, len(taken), tuple(taken), time.perf_counter() - started,
                forfeit=forfeit, ranks=tuple(p.rank for p in board_score.players),
                winners=board_score.winners)  # fmt: skip


def forfeit_result(spec: GameSpec, forfeit: Forfeit, taken: Sequence[str]) -> GameResult:
    """The row of a game ``forfeit`` stopped after the actions ``taken`` (their text), when
    its referee could not write it (its worker was killed): the game is dealt again and
    played to where it stood, so the row is the one the referee would have written, its
    provisional totals included (``duration`` 0)."""
    from ..records import GameRecord, final_state
    from ..scoring import score

    board = load_map(spec.map) if isinstance(spec.map, str) else spec.map
    played = GameRecord(board.id, spec.variant, len(spec.bots), spec.dealt, 0, spec.options, taken)
    state = final_state(played, map=board)
    names = tuple(bot_name(b) for b in spec.bots)
    totals = tuple(p.total for p in score(state).players)
    return _row(spec, names, totals, len(taken), tuple(taken), 0.0, forfeit=forfeit)


def play_batch(specs: Sequence[GameSpec]) -> list[GameResult]:
    """What a worker runs: several games in one task, to spread the cost of a task."""
    return [play_game(spec) for spec in specs]


def describe_error(exc: BaseException) -> str:
    """``Type: first line of the message``: an error in one line, for rows and summaries."""
    text = str(exc).splitlines()[0] if str(exc) else ""
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__
