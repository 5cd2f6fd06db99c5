"""One seeded playtest game, and what a playtest keeps of it: who claimed what, and when.

``play_log(spec)`` is the whole interface between a playtest and the engines: it plays the game
``spec`` fixes and returns its ``GameLog`` (claims with the round they were made in, stations,
tickets kept and whether each was completed, every seat's score figures, turns, passes and how
the game ended). The pure-Python engine plays any seat; the compiled core plays the game in C
when every seat is one of the policies it implements (``CORE_POLICIES``), and both give the
same log for the same spec (tests/playtest/test_games_logs.py holds them together).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import attrs

from .._rng import below, next_u64, seed_state
from .._seeds import seat_rng, seat_seed, twister_key
from .._unionfind import UnionFind
from ..actions import Action, BuildStation, ClaimRoute, PayTunnel
from ..board import Map
from ..errors import SimulationError
from ..fast import CORE_BOTS, SeatScore
from ..loop import play_out
from ..maps import load_map
from ..players import Bot, close_bots, decide, make_bot, tell
from ..rules import legal_actions, new_game
from ..sim.games import _int, _str  # the rows' field readers, shared with a game log
from ..state import GameState, Phase
from ..views import OptionValue

ENGINES = ("auto", "python", "core")
SEAT_POLICIES = ("uniform", "playout")
"""The seat policies that are no bot of the registry, played by both engines: ``uniform`` takes
``legal_actions[below(n)]`` from the seat's own SplitMix64 stream (``seat_stream``), ``playout``
is the search bot's greedy playout policy (``players.mcts.Playout``: tickets first along
cheapest paths, then the longest route it can pay)."""
CORE_POLICIES = (*CORE_BOTS, *SEAT_POLICIES)
"""What the compiled core plays in a playtest (``fg_policy_playout``, each name's index its code
in policies.h): the bots it copies move for move (``fast.CORE_BOTS``: ``random``, ``greedy``,
``claimer``, ``saver``, ``ambitious``, each seat's generator ``_seeds.seat_rng(seed, seat)`` as
the reference hands it), then ``SEAT_POLICIES``."""

MAX_ACTIONS = 5_000
"""Where a playtest game stops unfinished: a board whose games go on this long is reported
(``end == "cap"``) instead of being played for ever. Random play on the shipped maps ends
within about 400 actions."""

_TURN = int(Phase.TURN)
_STATION, _PASS = 5, 8  # the action kinds of the core's log (core.h's A_STATION, A_PASS)
_KINDS = {
    "DrawFaceUp": 0,
    "DrawBlind": 1,
    "ClaimRoute": 2,
    "PayTunnel": 3,
    "WithdrawTunnel": 4,
    "BuildStation": 5,
    "DrawTickets": 6,
    "KeepTickets": 7,
    "Pass": 8,
}
_LOG = 5  # ints per logged action: seat, phase before, kind, argument, route claimed or -1


@attrs.frozen
class PlaytestSpec:
    """Everything that fixes one game: board, rules, seed, the bot of each seat, the cap, and
    the engine that plays it (``python`` or ``core``; the log is the same either way)."""

    map: str | Map
    variant: str
    seed: int
    bots: tuple[str, ...]
    options: tuple[tuple[str, OptionValue], ...] = ()
    max_actions: int = MAX_ACTIONS
    engine: str = "python"


@attrs.frozen
class GameLog:
    """What a playtest keeps of one game.

    ``claims`` are ``(route, seat, round)`` in the order made, ``round`` being the claiming
    seat's own turn number (1 for its first turn); ``stations`` are ``(city, seat, round)``;
    ``tickets`` are ``(seat, ticket, completed)`` for every ticket a seat held at the end
    (completed as the score counts it, stations' borrowing included); ``scores`` are the
    seats' figures (final, or provisional when the game stopped at the cap); ``turns`` counts
    every seat's turns, ``passes`` each seat's ``Pass`` actions (a seat that could neither draw
    nor claim); ``end`` is ``"over"``, ``"passes"`` (every seat passed in a row, D1) or
    ``"cap"`` (no end within ``max_actions``). Indexes are the map's route, city and ticket
    indexes.
    """

    seed: int
    bots: tuple[str, ...]
    claims: tuple[tuple[int, int, int], ...]
    stations: tuple[tuple[int, int, int], ...]
    tickets: tuple[tuple[int, int, bool], ...]
    scores: tuple[SeatScore, ...]
    turns: int
    actions: int
    passes: tuple[int, ...]
    end: str

    @property
    def winners(self) -> tuple[int, ...]:
        return tuple(q for q, s in enumerate(self.scores) if s.rank == 1)

    def to_json(self) -> dict[str, Any]:
        return {
            "seed": self.seed,
            "bots": list(self.bots),
            "claims": [list(c) for c in self.claims],
            "stations": [list(s) for s in self.stations],
            "tickets": [[q, t, int(done)] for q, t, done in self.tickets],
            "scores": [list(s) for s in self.scores],
            "turns": self.turns,
            "actions": self.actions,
            "passes": list(self.passes),
            "end": self.end,
        }

    @classmethod
    def from_json(cls, doc: Any) -> GameLog:
        """A log read back; ``ValueError``, ``TypeError`` or ``KeyError`` when malformed."""
        if not isinstance(doc, dict):
            raise TypeError("a row is a JSON object")
        unknown = sorted(set(doc) - _FIELDS)
        if unknown:
            raise ValueError(f"unknown field {unknown[0]!r}")
        end = doc["end"]
        if end not in ("over", "passes", "cap"):
            raise ValueError(f"end {end!r} is not over, passes or cap")
        return cls(
            seed=_int(doc["seed"]),
            bots=tuple(_str(b) for b in doc["bots"]),
            claims=_triples(doc["claims"]),
            stations=_triples(doc["stations"]),
            tickets=tuple((q, t, bool(done)) for q, t, done in _triples(doc["tickets"])),
            scores=tuple(SeatScore(*_ints(s, len(SeatScore._fields))) for s in doc["scores"]),
            turns=_int(doc["turns"]),
            actions=_int(doc["actions"]),
            passes=tuple(_int(p) for p in doc["passes"]),
            end=end,
        )


_FIELDS = frozenset(attrs.fields_dict(GameLog))


def _triples(rows: Any) -> tuple[tuple[int, int, int], ...]:
    if not isinstance(rows, list):
        raise TypeError(f"{rows!r} is not a list")
    out = []
    for row in rows:
        a, b, c = _ints(row, 3)
        out.append((a, b, c))
    return tuple(out)


def _ints(values: Any, n: int) -> tuple[int, ...]:
    if not isinstance(values, list) or len(values) != n:
        raise ValueError(f"{values!r} is not a list of {n} integers")
    return tuple(_int(v) for v in values)


def seat_stream(seed: int, seat: int) -> int:
    """The SplitMix64 state a ``uniform`` seat draws its choices from in the game of ``seed``:
    one stream per seat, apart from the deal's (which starts at ``seed_state(seed)``)."""
    value, _ = next_u64(seed_state(seed) ^ 0x5EA7_0000_0000_0000)
    return (value + seat) & ((1 << 64) - 1)


def board_of(spec: PlaytestSpec) -> Map:
    return load_map(spec.map) if isinstance(spec.map, str) else spec.map


def play_log(spec: PlaytestSpec) -> GameLog:
    """Play ``spec`` and return its log, on the engine it names."""
    if spec.engine == "core":
        return _play_core(spec)
    if spec.engine == "python":
        return _play_python(spec)
    raise SimulationError(f"engine {spec.engine!r} is not python or core")


def play_logs(specs: Sequence[PlaytestSpec]) -> list[GameLog]:
    """What a worker runs (the backends' task): several games in one task."""
    return [play_log(spec) for spec in specs]


# --------------------------------------------------------------------------- the reference


def _play_python(spec: PlaytestSpec) -> GameLog:
    from ..players.mcts import Playout
    from ..scoring import score

    board = board_of(spec)
    state = new_game(board, spec.variant, len(spec.bots), spec.seed, 0, **dict(spec.options))
    players: list[Bot | None] = [
        None if name in SEAT_POLICIES else make_bot(name) for name in spec.bots
    ]
    playout = Playout(board)  # one for the game, as the core keeps one
    streams = [seat_stream(spec.seed, q) for q in range(len(spec.bots))]
    rngs = [seat_rng(spec.seed, q) for q in range(len(spec.bots))]

    def seat_choice(now: GameState) -> Action:
        seat = now.current
        name = spec.bots[seat]
        if name == "uniform":
            legal = legal_actions(now)
            index, streams[seat] = below(streams[seat], len(legal))
            return legal[index]
        if name == "playout":
            return playout.choose(now)
        bot = players[seat]
        assert bot is not None
        action = decide(bot, now, rngs[seat])
        tell(players, now, action)
        return action

    log: list[int] = []
    try:
        for action, after, _ in play_out(state, seat_choice, max_actions=spec.max_actions):
            seat = state.current
            route = -1
            if isinstance(action, ClaimRoute):
                route = board.route_index[action.route]
            elif isinstance(action, PayTunnel) and state.tunnel is not None:
                route = state.tunnel.route
            claimed = route if route >= 0 and after.owners[route] == seat else -1
            city = board.city_index[action.city] if isinstance(action, BuildStation) else 0
            log += (seat, int(state.phase), _KINDS[type(action).__name__], city, claimed)
            state = after
    finally:
        close_bots(players)
    seats = tuple(SeatScore.of(p) for p in score(state).players)  # provisional at the cap
    return _summarise(spec, log, state, seats)


# --------------------------------------------------------------------------- the core


def _play_core(spec: PlaytestSpec) -> GameLog:
    from .. import fast

    n = len(spec.bots)
    unknown = [name for name in spec.bots if name not in CORE_POLICIES]
    if unknown:
        raise SimulationError(
            f"the compiled core does not play {unknown[0]!r}; it plays {', '.join(CORE_POLICIES)}"
        )
    game = fast.new_game(board_of(spec), spec.variant, n, spec.seed, 0, **dict(spec.options))
    policies = [CORE_POLICIES.index(name) for name in spec.bots]
    streams = [seat_stream(spec.seed, q) for q in range(n)]
    keys = [
        () if name in SEAT_POLICIES else twister_key(seat_seed(spec.seed, q))
        for q, name in enumerate(spec.bots)
    ]
    steps, log = game.policy_playout(policies, streams, spec.max_actions, _LOG, keys)
    if steps < 0:  # pragma: no cover (checked, not trusted)
        raise SimulationError(f"the compiled core failed ({steps}) in game {spec.seed}")
    return _summarise(spec, log, game.to_state(), game.scores())


# --------------------------------------------------------------------------- both


def _summarise(
    spec: PlaytestSpec, log: Sequence[int], state: GameState, seats: tuple[SeatScore, ...]
) -> GameLog:
    """The ``GameLog`` of a game from its action log (``_LOG`` ints an action) and last state."""
    n = len(spec.bots)
    rounds = [0] * n
    passes = [0] * n
    claims: list[tuple[int, int, int]] = []
    stations: list[tuple[int, int, int]] = []
    for i in range(0, len(log), _LOG):
        seat, phase, kind, arg, claimed = log[i : i + _LOG]
        if phase == _TURN:
            rounds[seat] += 1
        if claimed >= 0:
            claims.append((claimed, seat, rounds[seat]))
        elif kind == _STATION:
            stations.append((arg, seat, rounds[seat]))
        elif kind == _PASS:
            passes[seat] += 1
    actions = len(log) // _LOG
    if state.phase is not Phase.GAME_OVER:
        end = "cap"
    elif actions >= n and all(
        log[i + 2] == _PASS for i in range(len(log) - _LOG * n, len(log), _LOG)
    ):
        end = "passes"
    else:
        end = "over"
    return GameLog(
        seed=spec.seed,
        bots=spec.bots,
        claims=tuple(claims),
        stations=tuple(stations),
        tickets=ticket_results(state),
        scores=seats,
        turns=sum(rounds),
        actions=actions,
        passes=tuple(passes),
        end=end,
    )


def ticket_results(state: GameState) -> tuple[tuple[int, int, bool], ...]:
    """``(seat, ticket, completed)`` for every ticket held: joined by the seat's routes, or
    (for a seat with stations) as ``scoring.score`` counts it with the best borrowing."""
    board = state.map
    out: list[tuple[int, int, bool]] = []
    board_score = None
    for seat, player in enumerate(state.players):
        if player.stations:
            if board_score is None:
                from ..scoring import score

                board_score = score(state)
            done = {
                board.ticket_index[r.ticket]: r.completed for r in board_score.players[seat].tickets
            }
            out += [(seat, t, done[t]) for t in player.tickets]
            continue
        routes = board.routes
        joined = UnionFind(
            (routes[r].a, routes[r].b) for r, o in enumerate(state.owners) if o == seat
        )
        for t in player.tickets:
            ticket = board.tickets[t]
            out.append((seat, t, joined.connected(ticket.a, ticket.b)))
    return tuple(out)


__all__ = [
    "CORE_POLICIES",
    "ENGINES",
    "MAX_ACTIONS",
    "SEAT_POLICIES",
    "GameLog",
    "PlaytestSpec",
    "board_of",
    "play_log",
    "play_logs",
    "seat_stream",
    "ticket_results",
]
