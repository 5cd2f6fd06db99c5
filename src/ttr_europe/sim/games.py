"""One seeded game between bots, described by a picklable ``GameSpec`` and summed up as a row.

This is all a worker runs, whatever the backend: ``play_batch`` plays some games and returns
their ``GameResult`` rows. A bot that raises or answers with an illegal action forfeits the game
(the row says who and why) instead of stopping the run, so a bad bot costs one game, not all.
"""

from __future__ import annotations

import copy
import time
from collections.abc import Callable, Sequence
from typing import Any

import attrs

from .. import bots
from ..actions import Action
from ..board import Map
from ..bots import Bot
from ..data import load_map
from ..errors import BotError
from ..errors import SimulationError as SimulationError  # noqa: PLC0414 (re-exported from its old home)
from ..loop import MAX_ACTIONS, play_out  # a bot that never ends its game forfeits at the cap
from ..rules import new_game
from ..state import GameState, Phase
from ..views import OptionValue

BotLike = str | Bot  # a spec ("greedy", "package.module:Class") or a bot object


def bot_name(bot: BotLike) -> str:
    """The name a bot goes by in rows and tables: its spec, or the name it reports."""
    return bot if isinstance(bot, str) else bots.bot_name(bot)


def resolve_bot(bot: BotLike) -> Bot:
    """A bot object for ``bot``: specs are built (``bots.make_bot``, ``BotError`` for a spec
    that names no bot) and objects copied, so that every game starts from the same bot
    whichever worker plays it and whatever it played before."""
    if isinstance(bot, str):
        return bots.make_bot(bot)
    try:
        return copy.deepcopy(bot)
    except Exception as exc:
        raise SimulationError(f"bot {bot_name(bot)!r} cannot be copied: {exc}") from None


@attrs.frozen
class GameSpec:
    """Everything that fixes one game: board, rules, seed and the bot of each seat."""

    map: str | Map
    variant: str
    seed: int
    bots: tuple[BotLike, ...]
    options: tuple[tuple[str, OptionValue], ...] = ()
    record: bool = False  # keep the actions in the row, for replay or training

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
        )
        seats = len(result.bots)
        if not seats or {len(result.scores), len(result.ranks), len(result.returns)} != {seats}:
            raise ValueError("bots, scores, ranks and returns differ in length")
        return result


_ROW_FIELDS = frozenset(
    {"seed", "bots", "scores", "ranks", "winners", "returns", "actions", "duration", "forfeit",
     "record"}
)  # fmt: skip


def _int(value: Any) -> int:
    if type(value) is not int:
        raise TypeError(f"{value!r} is not an integer")
    return value


def _str(value: Any) -> str:
    if not isinstance(value, str):
        raise TypeError(f"{value!r} is not a string")
    return value


def play_game(
    spec: GameSpec, on_turn: Callable[[GameState, Bot, Sequence[str]], None] | None = None
) -> GameResult:
    """Play ``spec`` to the end; a failing bot forfeits (see ``GameResult``). ``on_turn`` is
    told each state, the bot about to decide in it and the actions so far (the backends'
    watch over a game whose referee may be stopped)."""
    from ..scoring import score

    started = time.perf_counter()
    board = load_map(spec.map) if isinstance(spec.map, str) else spec.map
    state = new_game(board, spec.variant, len(spec.bots), spec.seed, 0, **dict(spec.options))
    names = tuple(bot_name(b) for b in spec.bots)
    players = [resolve_bot(b) for b in spec.bots]
    rngs = [bots.seat_rng(spec.seed, seat) for seat in range(len(players))]
    taken: list[str] = []
    forfeit = None

    def choose(now: GameState) -> Action:
        if on_turn is not None:
            on_turn(now, players[now.current], taken)
        action = bots.decide(players[now.current], now, rngs[now.current])
        bots.tell(players, now, action)  # the bots that watch see each move
        return action

    try:
        for action, after, _ in play_out(state, choose):
            taken.append(str(action))
            state = after
    except BotError as exc:  # a bot's failure is a result, not a crash of the run
        loser = state.current if exc.seat is None else exc.seat  # the mover, or a watcher
        forfeit = Forfeit(loser, names[loser], len(taken), exc.reason)
    finally:
        bots.close_bots(players)  # a program in another process ends with its game
    if forfeit is None and state.phase is not Phase.GAME_OVER:  # the loop's cap
        seat = state.current
        forfeit = Forfeit(seat, names[seat], len(taken), f"no end after {MAX_ACTIONS} actions")
    board_score = score(state)
    scores = tuple(p.total for p in board_score.players)
    if forfeit is not None:
        return forfeit_result(spec, forfeit, scores, taken, time.perf_counter() - started)
    winners = board_score.winners
    share = 1.0 / len(winners)
    return GameResult(
        seed=spec.seed,
        bots=names,
        scores=scores,
        ranks=tuple(p.rank for p in board_score.players),
        winners=winners,
        returns=tuple(share if s in winners else 0.0 for s in range(len(players))),
        actions=len(taken),
        record=tuple(taken) if spec.record else None,
        duration=time.perf_counter() - started,
    )


def forfeit_result(
    spec: GameSpec,
    forfeit: Forfeit,
    scores: Sequence[int],
    taken: Sequence[str],
    duration: float = 0.0,
) -> GameResult:
    """The row of a game ``forfeit`` stopped: ``scores`` as they stood, the other seats
    sharing the win, the forfeiting seat ranked last."""
    seats = len(spec.bots)
    winners = tuple(s for s in range(seats) if s != forfeit.seat)
    return GameResult(
        seed=spec.seed,
        bots=tuple(bot_name(b) for b in spec.bots),
        scores=tuple(scores),
        ranks=tuple(seats if s == forfeit.seat else 1 for s in range(seats)),
        winners=winners,
        returns=tuple(1.0 / len(winners) if s in winners else 0.0 for s in range(seats)),
        actions=len(taken),
        forfeit=forfeit,
        record=tuple(taken) if spec.record else None,
        duration=duration,
    )


def play_batch(specs: Sequence[GameSpec]) -> list[GameResult]:
    """What a worker runs: several games in one task, to spread the cost of a task."""
    return [play_game(spec) for spec in specs]


def describe_error(exc: BaseException) -> str:
    """``Type: first line of the message``: an error in one line, for rows and summaries."""
    text = str(exc).splitlines()[0] if str(exc) else ""
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__
