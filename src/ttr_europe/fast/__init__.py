"""An optional compiled core: the same game on a compact mutable state, for bulk play.

The pure-Python engine stays the reference and the default; this package is used only when
asked for. ``available()`` says whether the core is built (``python -m ttr_europe.fast.build``
compiles the C sources with the system's C compiler; nothing is downloaded). A ``FastGame`` is made
from any ``GameState`` or dealt from a seed, lists the same legal actions in the same order,
applies actions with the same typed errors, plays whole random games in C, and turns back into
a ``GameState`` at any point (docs/fast.md). The differential tests hold the two engines
together.
"""

from __future__ import annotations

import weakref
from collections.abc import Sequence
from typing import Any, NamedTuple

from .._guards import check_seat, not_a_state
from .._rng import below, seed_state
from ..actions import (
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
    tampered,
)
from ..board import Map
from ..cards import KINDS, Cards, well_formed
from ..errors import (
    BadArgumentError,
    GameOverError,
    IllegalActionError,
    MalformedActionError,
    NotYourTurnError,
    ScoreMismatchError,
    SetupError,
)
from ..loop import MAX_ACTIONS
from ..scoring import Outcome, PlayerScore, longest_path
from ..state import GameState, PendingTunnel, Phase, PlayerState, Rules
from ._binding import _LOADED as _LOADED
from ._binding import LOG_FIELDS, CoreGame, CoreRules, Move, available, loaded_library, status
from ._library import BUILD_COMMAND as BUILD_COMMAND
from ._library import LIBRARY_ENV as LIBRARY_ENV
from ._library import library_path

__all__ = [
    "CORE_BOTS",
    "FastGame",
    "SeatScore",
    "available",
    "library_path",
    "loaded_library",
    "new_game",
    "playout",
    "reference_playout",
    "status",
    "takes",
]

GREEDY_MAX_STEPS = 2_000  # Playout.finish's limit (players.mcts): a playout this long stops there
_MASK = (1 << 64) - 1
_WORDS = 4  # 64-bit words of a closed mask: the core holds at most 256 routes
_KEY_ARG = 20  # bits of a move key's argument (search.h KEY_ARG_BITS), after 4 of its kind
_KEY_PAY = 4 + _KEY_ARG  # where its payment starts: 4 bits a card kind
_KEY_KEPT = 7  # tickets a keep's key names at most (search.h KEY_KEPT): 3 bits, then 8 a ticket
_CLAMP = 1 << 20  # card counts above this answer every check as this does (core.h BIG)
CORE_BOTS = {"random": 0, "greedy": 1, "claimer": 2, "saver": 3, "ambitious": 4}
"""The bots the core plays move for move (``players.RandomBot``, ``players.GreedyBot``,
``players.styles.ClaimerBot``, ``players.styles.SaverBot``, ``players.styles.AmbitiousBot``), by
name, with their codes in policies.h (``BOT_*``)."""


# --------------------------------------------------------------------------- rules


# Each Rules compiled once while it lives: a process that loads map after map (a pool worker
# handed a pickled board per task) frees each one's compiled rules with the last game using it.
_RULES: weakref.WeakKeyDictionary[Rules, CoreRules] = weakref.WeakKeyDictionary()


def _rules_array(rules: Rules) -> list[int]:
    """The flat layout ``fg_rules_new`` reads: rules, variant, routes, tickets, route kinds."""
    board, v = rules.map, rules.variant
    limit = rules.long_kept_limit
    out = [
        rules.players, len(board.routes), len(board.cities), len(board.tickets), v.trains,
        v.stations, v.hand, v.face_up, v.reset_locomotives, rules.reset_cap,
        int(rules.second_card_optional), v.deal_long, v.deal_regular, v.keep_initial,
        -1 if limit is None else limit, int(v.initial_rejects == "box"), v.draw_tickets,
        v.keep_drawn, int(rules.doubles_open_to_all), len(v.long_pool), *v.long_pool,
        len(v.regular_pool), *v.regular_pool,
    ]  # fmt: skip
    for r in board.routes:
        out += [r.a, r.b, r.length, -1 if r.colour is None else r.colour, int(r.tunnel), r.ferry,
                -1 if r.twin is None else r.twin, r.points]  # fmt: skip
    out += [int(t.long) for t in board.tickets]
    kinds = board.route_kinds
    out.append(len(kinds))
    for kind in kinds:
        out += [-1 if kind.colour is None else kind.colour, kind.length, kind.ferry]
    for t in board.tickets:
        out += [t.a, t.b, t.points]
    tiebreaks = [_TIEBREAKS.get(name, 0) for name in v.tiebreaks]
    if rules.tiebreak_path_length:  # R49 (3'): path length instead of the bonus card
        tiebreaks = [_TIEBREAKS["longest_path"] if k == 3 else k for k in tiebreaks]
    out += [v.station_points, v.bonus.points, int(rules.bonus_at_zero), len(tiebreaks),
            *tiebreaks]  # fmt: skip
    return out


_TIEBREAKS = {"completed_tickets": 1, "fewest_stations": 2, "bonus_card": 3, "longest_path": 4}
_BEYOND: weakref.WeakSet[Rules] = weakref.WeakSet()  # refused; takes() is asked per playout


def takes(rules: Rules, *, search: bool = False) -> bool:
    """Whether the core is built and plays games under ``rules``: a map and variant within its
    limits (docs/fast.md). With ``search``, also whether its search's walk does
    (``FastGame.search_step``): a move key names at most seven tickets kept, so no deal or
    draw may offer more. Where it does not, the callers that fall back play in Python."""
    if not available() or rules in _BEYOND:
        return False
    try:
        _core_rules(rules)
    except BadArgumentError:
        _BEYOND.add(rules)
        return False
    return not search or _keys_name_keeps(rules)


def _keys_name_keeps(rules: Rules) -> bool:
    v = rules.variant
    return max(v.deal_long + v.deal_regular, v.draw_tickets) <= _KEY_KEPT


def _core_rules(rules: Rules) -> CoreRules:
    found = _RULES.get(rules)
    if found is None:
        found = CoreRules(_rules_array(rules))
        if not found.valid:
            raise BadArgumentError(
                f"map {rules.map.id!r} is beyond the compiled core's limits (docs/fast.md)"
            )
        _RULES[rules] = found
    return found


# --------------------------------------------------------------------------- positions


def _signed(word: int) -> int:
    return word - (1 << 64) if word >= 1 << 63 else word


def _state_array(state: GameState) -> list[int]:
    """``state`` in the layout of ``fg_load`` (the inverse of ``_from_array``)."""
    if not 0 <= state.rng <= _MASK:
        raise BadArgumentError("the generator state must lie in 0..2**64-1", argument="state")
    out = [int(state.phase), state.current, state.first_player, _signed(state.rng),
           state.final_turns, state.passes, len(state.row), *state.row, *state.discard,
           state.pile_size, *state.draw_pile, len(state.ticket_deck), *state.ticket_deck,
           len(state.box), *state.box, *state.owners]  # fmt: skip
    for mask in state.closed:
        if type(mask) is not int or mask < 0 or mask >> (64 * _WORDS):
            raise BadArgumentError("a closed-route mask is out of range", argument="state")
        out += [_signed(mask >> (64 * w) & _MASK) for w in range(_WORDS)]
    for p in state.players:
        out += [*p.hand, p.trains, p.score, len(p.stations), *p.stations, len(p.tickets),
                *p.tickets, len(p.offer), *p.offer]  # fmt: skip
    tunnel = state.tunnel
    if tunnel is None:
        out.append(0)
    else:
        out += [1, tunnel.route, *tunnel.laid, len(tunnel.revealed), *tunnel.revealed,
                tunnel.colour, tunnel.extra]  # fmt: skip
    return out


def _from_array(rules: Rules, v: Sequence[int]) -> GameState:
    it = iter(v)

    def take(n: int) -> tuple[int, ...]:
        return tuple(next(it) for _ in range(n))

    phase, current, first, rng, final, passes, nrow = take(7)
    row = take(nrow)
    discard = Cards(take(KINDS))
    pile = take(next(it))
    deck = take(next(it))
    box = take(next(it))
    owners = take(len(rules.map.routes))
    closed = []
    for _ in range(rules.players):
        words = take(_WORDS)
        closed.append(sum((w & _MASK) << (64 * i) for i, w in enumerate(words)))
    players = []
    for _ in range(rules.players):
        hand = Cards(take(KINDS))
        trains, score = take(2)
        stations = take(next(it))
        tickets = take(next(it))
        offer = take(next(it))
        players.append(PlayerState(hand, trains, stations, score, tickets, offer))
    tunnel = None
    if next(it):
        route = next(it)
        laid = Cards(take(KINDS))
        revealed = take(next(it))
        colour, extra = take(2)
        tunnel = PendingTunnel(route, laid, revealed, colour, extra)
    return GameState.create(
        rules=rules, phase=Phase(phase), current=current, first_player=first,
        players=tuple(players), pile=pile, row=row, discard=discard, ticket_deck=deck, box=box,
        owners=owners, rng=rng & _MASK, closed=tuple(closed), tunnel=tunnel, final_turns=final,
        passes=passes,
    )  # fmt: skip


# --------------------------------------------------------------------------- actions

_FACE_UP, _BLIND, _CLAIM, _PAY, _WITHDRAW, _STATION, _TICKETS, _KEEP, _PASS = range(9)
_PLAIN: dict[int, Action] = {
    _BLIND: DrawBlind(), _WITHDRAW: WithdrawTunnel(), _TICKETS: DrawTickets(), _PASS: Pass(),
}  # fmt: skip
_CODES: dict[type, int] = {
    DrawFaceUp: _FACE_UP, DrawBlind: _BLIND, ClaimRoute: _CLAIM, PayTunnel: _PAY,
    WithdrawTunnel: _WITHDRAW, BuildStation: _STATION, DrawTickets: _TICKETS,
    KeepTickets: _KEEP, Pass: _PASS,
}  # fmt: skip
_PHASE_RULES = {
    Phase.SECOND_DRAW: ("R13", "the second train card must be drawn now"),
    Phase.TUNNEL: ("R28", "pay the tunnel's extra cards or withdraw"),
    Phase.CHOOSE_TICKETS: ("R37", "choose which drawn tickets to keep"),
    Phase.INITIAL_TICKETS: ("R9", "choose the starting tickets first"),
    Phase.TURN: ("R12", "not possible at the start of a turn"),
}
_ERRORS: dict[int, tuple[type[IllegalActionError], str, str]] = {
    3: (MalformedActionError, "input", "no such face-up slot"),
    4: (IllegalActionError, "D3", "that face-up slot is empty"),
    5: (IllegalActionError, "R15b", "a face-up locomotive cannot be the second card"),
    6: (IllegalActionError, "R19", "the draw pile and the discard pile are empty"),
    7: (MalformedActionError, "input", "no such route on this map"),
    8: (MalformedActionError, "input", "a payment must be Cards"),
    9: (IllegalActionError, "R23", "that route is already claimed"),
    10: (IllegalActionError, "R26a", "you own the other track of this double route"),
    11: (IllegalActionError, "R26b", "this double route is closed once one track is claimed"),
    12: (IllegalActionError, "R22", "not enough trains left"),
    13: (IllegalActionError, "R21", "that payment does not pay this route"),
    14: (IllegalActionError, "R27", "a ferry needs its locomotives"),
    15: (IllegalActionError, "R21", "you do not hold those cards"),
    16: (IllegalActionError, "R28", "the extra cost is a different number of cards"),
    17: (IllegalActionError, "R30", "after locomotives only, the extra is locomotives only"),
    18: (IllegalActionError, "R29", "extra cards must be the colour laid or locomotives"),
    19: (IllegalActionError, "R28", "you do not hold those cards"),
    20: (IllegalActionError, "R12", "this game has no stations"),
    21: (MalformedActionError, "input", "no such city on this map"),
    22: (IllegalActionError, "R40", "all stations are built"),
    23: (IllegalActionError, "R40", "that city already has a station"),
    24: (IllegalActionError, "R41", "that payment does not pay this station"),
    25: (IllegalActionError, "R41", "you do not hold those cards"),
    26: (IllegalActionError, "D11", "the ticket deck is empty"),
    27: (MalformedActionError, "input", "a ticket is not on offer or listed twice"),
    28: (IllegalActionError, "R9", "keep more tickets"),
    29: (IllegalActionError, "R37", "keep more tickets"),
    30: (IllegalActionError, "B4", "keep fewer long tickets"),
    31: (IllegalActionError, "D1", "passing is allowed only when nothing else is"),
}


def _payment(value: object) -> tuple[int, ...]:
    """The counts the core is handed: a payment that is not a real ``Cards`` (not nine
    non-negative ints, ``cards.well_formed``) becomes a count of -1, which the core refuses
    where the reference refuses it (``E_PAYTYPE``); ``tampered`` then names the fault."""
    if type(value) is Cards and well_formed(value):
        return value if max(value) <= _CLAMP else tuple(min(n, _CLAMP) for n in value)
    return (-1,) + (0,) * (KINDS - 1)


class SeatScore(NamedTuple):
    """One seat's figures from ``FastGame.scores``, named as in ``scoring.PlayerScore``."""

    route_points: int
    ticket_points: int
    completed: int
    station_points: int
    longest_path: int
    bonus: int
    total: int
    rank: int

    @classmethod
    def of(cls, player: PlayerScore) -> SeatScore:
        """The same figures from a seat of the reference's ``scoring.score``."""
        return cls(player.route_points, player.ticket_points, player.completed,
                   player.station_points, player.longest_path.length, player.bonus,
                   player.total, player.rank)  # fmt: skip


_SCORE_FIELDS = len(SeatScore._fields)
_PATH = SeatScore._fields.index("longest_path")


# --------------------------------------------------------------------------- the game


class FastGame:
    """A game in the compiled core: mutable, cheap to step and to copy.

    ``apply`` changes the game in place (or raises the reference's error and changes nothing);
    ``to_state`` gives the equal ``GameState`` at any moment.
    """

    __slots__ = ("_board", "_core", "rules")

    def __init__(self, rules: Rules) -> None:
        """The game ``rules`` deal from seed 0 (``deal`` or ``load`` another): a game never
        dealt would be no position of the reference's (every route seat 0's, no offer)."""
        self._bare(rules)
        self.deal(0)

    def _bare(self, rules: Rules) -> None:
        self.rules = rules
        self._board: Map = rules.map
        self._core = CoreGame(_core_rules(rules))

    @classmethod
    def _undealt(cls, rules: Rules) -> FastGame:
        """A game to be dealt, loaded or copied into at once (the deal would be wasted)."""
        game = cls.__new__(cls)
        game._bare(rules)
        return game

    @classmethod
    def from_state(cls, state: GameState) -> FastGame:
        """The compiled game equal to ``state`` (``BadArgumentError`` beyond the core's limits)."""
        if type(state) is not GameState:
            raise not_a_state(state, "FastGame.from_state")
        game = cls._undealt(state.rules)
        game.load(state)
        return game

    def load(self, state: GameState) -> None:
        """Make this game equal to ``state`` (same rules)."""
        if type(state) is not GameState:
            raise not_a_state(state, "FastGame.load")
        if state.rules != self.rules:
            raise BadArgumentError("the state is played under other rules", argument="state")
        try:
            values = _state_array(state)
        except TypeError:
            raise BadArgumentError("the state holds a value of the wrong type") from None
        if self._core.load(values):
            raise BadArgumentError(
                "the state is inconsistent or beyond the compiled core's limits (docs/fast.md)",
                argument="state",
            )

    def deal(self, seed: int, first_player: int | None = None) -> None:
        """Deal a new game under the same rules, in place: what ``new_game`` with these rules,
        ``seed`` and ``first_player`` deals, without building anything new (bulk play)."""
        if type(seed) is not int:
            raise SetupError(f"D19: seed must be an int, not {type(seed).__name__}")
        n = self.rules.players
        if first_player is not None and (type(first_player) is not int
                                         or not 0 <= first_player < n):  # fmt: skip
            raise SetupError(f"first_player must be a seat 0..{n - 1}, not {first_player!r}")
        first = -1 if first_player is None else first_player
        short = self._core.setup(seed_state(seed), first)
        if short:
            what = "tickets" if short == 1 else "train cards"
            raise SetupError(
                f"variant {self.rules.variant.id!r} has too few {what} for {n} players"
            )

    def __copy__(self) -> FastGame:
        return self.copy()  # never two games on one compiled handle

    def __deepcopy__(self, memo: dict[int, Any]) -> FastGame:
        return self.copy()

    def copy(self) -> FastGame:
        other = FastGame._undealt(self.rules)
        other._core.copy_from(self._core)
        return other

    def copy_from(self, other: FastGame) -> None:
        """Make this game equal to ``other`` (same rules), in place: a world restored for each
        walk of a search, with nothing allocated."""
        if other.rules != self.rules:
            raise BadArgumentError("the game is played under other rules", argument="other")
        self._core.copy_from(other._core)

    def to_state(self) -> GameState:
        """The equal ``GameState``: look at it, save it, render it, check it with the reference."""
        return _from_array(self.rules, self._core.dump(4096 + 512 * self.rules.players))

    @property
    def phase(self) -> Phase:
        return Phase(self._core.phase())

    def is_terminal(self) -> bool:
        return self.phase is Phase.GAME_OVER

    def legal_count(self) -> int:
        """``len(legal_actions(state))``."""
        return self._core.legal_count()

    def legal_actions(self) -> list[Action]:
        """Every legal action, in the order of ``rules.legal_actions``."""
        offer = self._offer()
        return [self._action(move, offer) for move in self._core.legal()]

    def _offer(self) -> tuple[int, ...]:
        return self._core.offer()

    def _action(self, move: Move, offer: tuple[int, ...]) -> Action:
        kind, arg, pay = move
        if kind in _PLAIN:
            return _PLAIN[kind]
        if kind == _FACE_UP:
            return DrawFaceUp(arg)
        if kind == _KEEP:
            places = [i for i in range(len(offer)) if arg >> i & 1]
            return KeepTickets([self._board.tickets[offer[i]].id for i in places])
        if kind == _CLAIM:
            return ClaimRoute(self._board.routes[arg].id, Cards(pay))
        if kind == _STATION:
            return BuildStation(self._board.cities[arg].id, Cards(pay))
        return PayTunnel(Cards(pay))

    def _encode(self, action: object) -> Move:
        code = _CODES.get(type(action))
        if code is None:
            raise MalformedActionError("input", f"not an action: {action!r}")
        board, arg, pay = self._board, 0, (0,) * KINDS
        if isinstance(action, DrawFaceUp):
            slot = action.slot
            arg = slot if type(slot) is int and 0 <= slot < 1 << 30 else -1
        elif isinstance(action, ClaimRoute):
            found = board.route_index.get(action.route) if isinstance(action.route, str) else None
            arg = -1 if found is None else found
            pay = _payment(action.payment)
        elif isinstance(action, BuildStation):
            found = board.city_index.get(action.city) if isinstance(action.city, str) else None
            arg = -1 if found is None else found
            pay = _payment(action.payment)
        elif isinstance(action, PayTunnel):
            pay = _payment(action.payment)
        elif isinstance(action, KeepTickets):
            arg = self._keep_mask(action)
        return code, arg, pay

    def _keep_mask(self, action: KeepTickets) -> int:
        """The offer places kept, or -1 for a ticket not on offer or listed twice."""
        offer = self._offer()
        mask = 0
        for tid in action.tickets:
            t = self._board.ticket_index.get(tid) if isinstance(tid, str) else None
            if t is None or t not in offer:
                return -1
            bit = 1 << offer.index(t)
            if mask & bit:
                return -1
            mask |= bit
        return mask

    def apply(self, action: Action, *, player: int | None = None) -> None:
        """Apply ``action`` in place; on an illegal one raise the reference's error, unchanged."""
        phase = self.phase
        if player is not None:
            check_seat(player, "apply", "player")  # as the reference: True is no seat
        try:
            if player is not None and phase is not Phase.GAME_OVER and player != self.current:
                raise NotYourTurnError("R12", f"it is seat {self.current}'s turn, not {player}'s",
                                       action)  # fmt: skip
            code = self._core.apply(*self._encode(action))
            if code:
                raise _error(code, phase, action)
        except (IllegalActionError, AttributeError, TypeError) as exc:
            raise tampered(action, exc) from None  # fields of the wrong type, as the reference

    @property
    def current(self) -> int:
        """The seat to act (the last to act once the game is over)."""
        return self._core.current()

    def greedy_playout(self, max_steps: int = GREEDY_MAX_STEPS) -> int:
        """Play to the end (or ``max_steps`` actions) with ``players.mcts.Playout``'s ticket-driven
        greedy policy, in place, move for move as ``Playout(board).finish(state)`` plays;
        the number of actions applied."""
        if type(max_steps) is not int or max_steps < 0:
            raise BadArgumentError("greedy_playout takes a non-negative max_steps")
        steps = self._core.greedy_playout(min(max_steps, 1 << 62))
        if steps < 0:  # pragma: no cover (the policy's moves are legal; checked, not trusted)
            raise AssertionError("the compiled greedy policy chose an illegal move")
        return steps

    def scores(self) -> tuple[SeatScore, ...]:
        """Each seat's figures as ``scoring.score`` computes them, in C: tickets with the
        stations' best borrowing (D10), the exact longest path, bonus, total and rank.

        Raises ``ScoreMismatchError`` when a running score disagrees with the routes owned.
        """
        n = self.rules.players
        bad, out = self._core.score(n * _SCORE_FIELDS, None)
        if bad < 0:  # a seat's trail too costly for the plain search: paths.py's search
            state = self.to_state()
            paths = [
                longest_path(state, q).length if out[q * _SCORE_FIELDS + _PATH] < 0 else -1
                for q in range(n)
            ]
            bad, out = self._core.score(n * _SCORE_FIELDS, paths)
        if bad:
            seat = bad - 1
            raise ScoreMismatchError(seat, self.to_state().players[seat].score, out[0])
        return tuple(SeatScore(*out[q * _SCORE_FIELDS : (q + 1) * _SCORE_FIELDS]) for q in range(n))

    def outcome(self) -> Outcome:
        """``scoring.outcome`` of the game, computed in C."""
        seats = self.scores()
        ranks = tuple(s.rank for s in seats)
        ranking = tuple(sorted(range(len(seats)), key=lambda q: (ranks[q], q)))
        return Outcome(
            final=self.is_terminal(),
            winners=tuple(q for q in ranking if ranks[q] == 1),
            ranking=ranking,
            ranks=ranks,
            totals=tuple(s.total for s in seats),
        )

    def playout(self, seed: int, max_steps: int = 1 << 40) -> int:
        """Play uniformly random legal actions to the end, in place; the number applied.

        The policy draws from its own SplitMix64 stream seeded with ``seed``: at each step it
        takes ``legal_actions[below(n)]``, which the reference can replay (``reference_playout``).
        """
        if type(seed) is not int or type(max_steps) is not int or max_steps < 0:
            raise BadArgumentError("playout takes an int seed and a non-negative max_steps")
        return self._core.playout(seed_state(seed), min(max_steps, 1 << 62))

    def play_bots(
        self,
        bots: Sequence[str],
        keys: Sequence[Sequence[int]],
        max_actions: int,
        record: bool = False,
    ) -> tuple[int, list[Action] | None]:
        """Play on, in place, each seat moved by the core's copy of its bot (``CORE_BOTS``),
        move for move as ``players.play`` with those bots: seat ``q`` draws from a
        ``random.Random`` seeded with the key words ``keys[q]`` (``_seeds.twister_key``), and play
        stops when the game ends or after ``max_actions`` actions. Returns the number of
        actions applied and, with ``record``, the actions; ``(-1, None)`` when a bot found no
        move or its move was refused (it never is; checked rather than trusted)."""
        n = self.rules.players
        if len(bots) != n or len(keys) != n or any(b not in CORE_BOTS for b in bots):
            raise BadArgumentError(f"play_bots takes one of {sorted(CORE_BOTS)} per seat")
        if type(max_actions) is not int or max_actions < 0:
            raise BadArgumentError("play_bots takes a non-negative max_actions")
        _check_keys(keys, "play_bots")
        codes = [CORE_BOTS[b] for b in bots]
        if not record:
            return self._core.play_bots(codes, keys, max_actions, 0)[0], None
        start, room = self.copy(), 1024
        while True:
            steps, noted = self._core.play_bots(codes, keys, max_actions, room)
            if steps != -2:
                break
            self._core.copy_from(start._core)  # too long to note: again from the start
            room *= 8
        if steps < 0:
            return steps, None
        return steps, [self._recorded(words) for words in noted]

    def policy_playout(
        self,
        policies: Sequence[int],
        streams: Sequence[int],
        max_actions: int,
        words: int,
        keys: Sequence[Sequence[int]] | None = None,
    ) -> tuple[int, list[int]]:
        """Play on, in place, with a playtest policy per seat (policies.c ``fg_policy_playout``):
        a code of ``CORE_BOTS`` (the bot, drawing from a ``random.Random`` seeded with the key
        words ``keys[q]``, as ``play_bots``) or of ``playtest.games.CORE_POLICIES`` after them
        (``uniform`` on the seat's own SplitMix64 stream ``streams[q]``, ``playout``); returns
        the number of actions and their log, ``words`` ints an action (negative: a fault)."""
        n = self.rules.players
        keys = [()] * n if keys is None else keys
        if (
            len(policies) != n
            or len(streams) != n
            or len(keys) != n
            or type(max_actions) is not int
        ):
            raise BadArgumentError("policy_playout takes a policy, a stream and a key per seat")
        if words != LOG_FIELDS:  # the core writes that many: fewer would run past the log
            raise BadArgumentError(
                f"policy_playout logs {LOG_FIELDS} ints an action, not {words!r}"
            )
        if not 0 <= max_actions <= MAX_ACTIONS:  # its log is made for that many at once
            raise BadArgumentError(f"policy_playout takes a max_actions of 0 to {MAX_ACTIONS}")
        if any(type(p) is not int or not 0 <= p < 1 << 31 for p in policies) or any(
            type(s) is not int or not 0 <= s <= _MASK for s in streams
        ):
            raise BadArgumentError("policy_playout takes policy codes and 64-bit streams")
        _check_keys(keys, "policy_playout")
        return self._core.policy_playout(policies, streams, keys, max_actions, words)

    def search_step(self, seat: int, *, fresh: bool = True) -> list[int]:
        """Play on, in place, with ``players.mcts.Playout``'s policy for every seat but ``seat`` and
        for ``seat``'s second draws and tunnels, up to ``seat``'s next turn start or ticket
        choice; there, the keys of ``mcts.search_moves`` (one int each, the same move in
        every world), the policy's move first and none twice. Empty once the game is over
        (or after ``GREEDY_MAX_STEPS`` actions). ``key_action`` reads a key, ``apply_key``
        plays it.

        The policy remembers its paths from one call to the next, as one ``Playout`` does
        through one walk of the search: ``fresh=False`` goes on with what the last call (in
        this thread, in any game) left, so a walk's steps after its first play as that
        ``Playout`` would; ``fresh`` (the default) forgets it first."""
        check_seat(seat, "search_step", "seat")
        if not 0 <= seat < self.rules.players:
            raise BadArgumentError(f"search_step: no seat {seat} in this game", argument="seat")
        if not _keys_name_keeps(self.rules):
            raise BadArgumentError(
                f"search_step: variant {self.rules.variant.id!r} offers more than {_KEY_KEPT} "
                "tickets at once, more than a move key names (docs/fast.md)"
            )
        return self._core.search_step(seat, bool(fresh), GREEDY_MAX_STEPS)

    def apply_key(self, key: int) -> None:
        """Apply the move of a key from ``search_step`` in place (legal where it was listed);
        an int that is no key of this map is refused (``MalformedActionError``), unchanged."""
        if type(key) is not int or not -(1 << 63) <= key < 1 << 63:
            raise MalformedActionError("input", f"not a move key: {key!r}")
        phase = self.phase
        code = self._core.apply_key(key)
        if code:
            raise _error(code, phase, self.key_action(key))

    def key_action(self, key: int) -> Action:
        """The action a key from ``search_step`` stands for (in any position: a keep's key
        names the tickets kept, as ``KeepTickets`` does); ``MalformedActionError`` for an int
        that names no move of this map (no such action, route, city or ticket)."""
        if type(key) is not int or not -(1 << 63) <= key < 1 << 63 or key & 15 > _PASS:
            raise MalformedActionError("input", f"not a move key: {key!r}")
        try:
            if key & 15 == _KEEP:  # the tickets kept, not their places in one world's offer
                kept = (key >> (7 + 8 * j) & 255 for j in range(key >> 4 & _KEY_KEPT))
                return KeepTickets([self._board.tickets[t].id for t in kept])
            pay = tuple(key >> (_KEY_PAY + 4 * k) & 15 for k in range(KINDS))
            return self._action((key & 15, key >> 4 & (1 << _KEY_ARG) - 1, pay), ())
        except IndexError:
            raise MalformedActionError(
                "input", f"move key {key} names no route, city or ticket of this map"
            ) from None

    def _recorded(self, words: Sequence[int]) -> Action:
        kind, arg = words[0], words[1]
        if kind == _KEEP:
            return KeepTickets([self._board.tickets[t].id for t in words[2 : 2 + arg]])
        return self._action((kind, arg, tuple(words[2 : 2 + KINDS])), ())


def _check_keys(keys: Sequence[Sequence[int]], what: str) -> None:
    """Key words are 32-bit (``twister_key``'s): a wider or negative one would be cut short on
    its way to the core, seeding another stream than ``random.seed`` would."""
    if any(type(w) is not int or not 0 <= w < 1 << 32 for key in keys for w in key):
        raise BadArgumentError(f"{what} takes key words of 32 bits (_seeds.twister_key)")


def _error(code: int, phase: Phase, action: object) -> IllegalActionError:
    if code == 1:
        return GameOverError("R46", "the game is over", action)
    if code == 2:
        rule, message = _PHASE_RULES[phase]
        return IllegalActionError(rule, message, action)
    cls, rule, message = _ERRORS[code]
    return cls(rule, message, action)


def new_game(
    map: str | Map = "europe",
    variant: str = "base",
    players: int = 2,
    seed: int = 0,
    first_player: int | None = None,
    **options: Any,
) -> FastGame:
    """``rules.new_game`` in the compiled core: the same deal from the same arguments."""
    from ..rules import setup_rules  # the reference's own checks

    rules = setup_rules(map, variant, players, seed, first_player, options)
    game = FastGame._undealt(rules)
    game.deal(seed, first_player)
    return game


def playout(state: GameState, seed: int) -> GameState:
    """The final state of uniformly random play from ``state`` (see ``FastGame.playout``)."""
    game = FastGame.from_state(state)
    game.playout(seed)
    return game.to_state()


def reference_playout(state: GameState, seed: int) -> tuple[GameState, int]:
    """What ``FastGame.playout`` does, on the pure-Python engine: at each step
    ``legal_actions(state)[k]`` with ``k`` drawn by ``rng.below`` from ``seed``. The final state
    and the number of actions (the differential tests and the benchmark replay playouts so)."""
    from ..rules import apply, legal_actions

    rng = seed_state(seed)
    steps = 0
    while state.phase is not Phase.GAME_OVER:
        options = legal_actions(state)
        index, rng = below(rng, len(options))
        state = apply(state, options[index])
        steps += 1
    return state, steps
