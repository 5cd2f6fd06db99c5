"""Ticket to Ride as an OpenSpiel game (``pip install 'ttr_europe[openspiel]'``).

Importing this module registers ``python_ttr_europe`` with ``pyspiel``::

    import pyspiel
    import ttr_europe.envs.openspiel

    game = pyspiel.load_game("python_ttr_europe", {"players": 3, "map": "europe"})

Actions are ``ActionCodec`` codes. Chance is *explicit* and happens once: the first move of
``new_initial_state()`` is the chance player's choice of one of ``deals`` equally likely deals
(the engine's seed ``seed * deals + outcome``); every later shuffle and draw follows from that
seed, so the players' moves alone drive the rest. Information is imperfect: the observation
tensor and string are the seat-relative vectors of ``ttr_europe.rl.encoding``, with the memory
of public hands (``ttr_europe.rl.memory``). They do not keep perfect recall, so the game
provides no information state: a perfect-recall request raises ``SetupError`` instead of being
answered with something else. ``resample_from_infostate`` samples a world the player cannot
tell apart, through ``determinize``. Returns are ``scoring.returns``: 1 shared by the winners,
so they sum to 1. Games and states pickle, and serialize through pyspiel.

A game reaching ``max_moves`` actions (a parameter, 10000 by default; a real game takes a few
hundred) ends there and is scored on its provisional scores, so that every game is finite:
the rules allow a player to try and withdraw from a tunnel for ever.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import numpy as np
import pyspiel

from ..actions import Action
from ..codec import ActionCodec, codec_for
from ..errors import MalformedActionError, SetupError
from ..loop import finish, uniform
from ..maps import load_map
from ..rl.encoding import Layout, encoder_for
from ..rl.mask import action_mask
from ..rl.memory import PublicHands, determinize_with_memory
from ..rules import apply, new_game
from ..scoring import returns
from ..state import GameState, Phase

SHORT_NAME = "python_ttr_europe"
MAX_MOVES = 10_000
DEALS = 1 << 16

_GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="Ticket to Ride: Europe (ttr_europe)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.CONSTANT_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=5,
    min_num_players=2,
    provides_information_state_string=False,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={
        "players": 2,
        "map": "europe",
        "variant": "base",
        "seed": 0,
        "deals": DEALS,
        "max_moves": MAX_MOVES,
    },
)


class TicketToRideGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel has no type hints
    """The game: map, variant and player count come from the parameters."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        spec = _GAME_TYPE.parameter_specification
        values = {name: params.get(name, spec[name]) for name in spec}
        board = load_map(str(values["map"]))
        variant = str(values["variant"])
        players = int(values["players"])
        self.max_moves = int(values["max_moves"])
        self.deals = int(values["deals"])
        if self.max_moves < 1:
            raise SetupError(f"max_moves must be at least 1, not {self.max_moves}")
        if self.deals < 1:
            raise SetupError(f"deals must be at least 1, not {self.deals}")
        # Checks the map, variant and player count before pyspiel sees them.
        new_game(board, variant, players, 0)
        self.codec: ActionCodec = codec_for(board, variant)
        self.layout: Layout = encoder_for(board, variant).layout
        info = pyspiel.GameInfo(
            num_distinct_actions=self.codec.size,
            max_chance_outcomes=self.deals,
            num_players=players,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=1.0,
            max_game_length=self.max_moves + 1,  # the deal, then the moves
        )
        super().__init__(_GAME_TYPE, info, params)
        self.board = board
        self.variant = variant
        self.players = players
        self.seed = int(values["seed"])

    def new_initial_state(self, state: GameState | None = None) -> TicketToRideState:
        """The deal to come (a chance node), or a state wrapping ``state`` (of this game's map)."""
        if state is None:
            return TicketToRideState(self, None, PublicHands.start(self.players))
        rules = state.rules
        if (rules.map, rules.variant.id, rules.players) != (self.board, self.variant, self.players):
            raise SetupError(
                f"the position is a {rules.players}-player {rules.map.id}/{rules.variant.id} "
                f"game, not {self.players}-player {self.board.id}/{self.variant}"
            )
        return TicketToRideState(self, state, PublicHands.start(self.players))

    def deal(self, outcome: int) -> GameState:
        """The position the chance outcome ``outcome`` deals."""
        if not 0 <= outcome < self.deals:
            raise MalformedActionError(
                "chance", f"no deal {outcome} (deals are 0..{self.deals - 1})"
            )
        return new_game(self.board, self.variant, self.players, self.seed * self.deals + outcome)

    def __deepcopy__(self, memo: object) -> TicketToRideGame:
        """A game is shared by its states (cloning a state must not copy the game)."""
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its parameters: a game holds nothing else that changes."""
        return (pyspiel.load_game, (str(self),))

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> Observer:
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        if iig_obs_type is not None and iig_obs_type.perfect_recall:
            raise SetupError(
                "python_ttr_europe keeps no perfect recall: its observation (the encoding with "
                "the memory of public hands) forgets the order of past moves, so it provides no "
                "information state; use observation_tensor / observation_string"
            )
        public_only = (
            iig_obs_type is not None and iig_obs_type.private_info == pyspiel.PrivateInfoType.NONE
        )
        return Observer(self.layout, public_only)


class TicketToRideState(pyspiel.State):  # type: ignore[misc]
    """A position: the engine's ``GameState`` (``engine_state``, None before the deal) and the
    public memory."""

    def __init__(
        self, game: TicketToRideGame, state: GameState | None, memory: PublicHands
    ) -> None:
        super().__init__(game)
        self._game = game
        self.engine_state = state
        self.memory = memory
        self._moves = 0

    # -- pyspiel's hooks

    @property
    def position(self) -> GameState:
        """The engine state, once dealt."""
        if self.engine_state is None:
            raise SetupError("the cards are not dealt yet: the chance player moves first")
        return self.engine_state

    def current_player(self) -> int:
        if self.engine_state is None:
            return int(pyspiel.PlayerId.CHANCE)
        if self.is_terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        return self.engine_state.current

    def is_terminal(self) -> bool:
        if self.engine_state is None:
            return False
        return self.engine_state.phase is Phase.GAME_OVER or self._moves >= self._game.max_moves

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.engine_state is not None:
            return []
        deals = self._game.deals
        return [(outcome, 1.0 / deals) for outcome in range(deals)]

    def _legal_actions(self, player: int) -> list[int]:
        if self.engine_state is None:
            return list(range(self._game.deals)) if player == pyspiel.PlayerId.CHANCE else []
        if self.is_terminal() or player != self.engine_state.current:
            return []
        codes: list[int] = np.flatnonzero(action_mask(self.engine_state, self._game.codec)).tolist()
        return codes

    def _apply_action(self, code: int) -> None:
        if self.engine_state is None:
            self.engine_state = self._game.deal(int(code))
            return
        action = self._game.codec.decode(int(code), self.engine_state)
        after = apply(self.engine_state, action)  # raises, changing nothing, when illegal
        self.memory = self.memory.after(self.engine_state, action)
        self.engine_state = after
        self._moves += 1

    def _action_to_string(self, player: int, code: int) -> str:
        if self.engine_state is None:
            return f"deal {code}"
        try:
            return str(self._game.codec.decode(int(code), self.engine_state))
        except MalformedActionError:  # a keep code outside a ticket choice
            return f"code {code}"

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0] * self._game.players
        return list(returns(self.position))

    def resample_from_infostate(
        self, player: int, probability_sampler: Callable[[], float]
    ) -> TicketToRideState:
        """A state ``player`` cannot tell from this one, hidden cards and tickets resampled."""
        if self.engine_state is None:
            return self.clone()  # type: ignore[no-any-return]
        rng = random.Random(int(probability_sampler() * 2**53))
        world = determinize_with_memory(
            self.engine_state, player, self.memory, rng, map=self._game.board
        )
        clone = TicketToRideState(self._game, world, self.memory)
        clone._moves = self._moves
        return clone

    def __str__(self) -> str:
        from ..records import summary

        return "chance: the deal" if self.engine_state is None else summary(self.engine_state)

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled through pyspiel's serialization: the game, the history and the position."""
        return (_deserialize_state, (pyspiel.serialize_game_and_state(self._game, self),))

    # -- for bots of the engine playing in an OpenSpiel loop

    def code_of(self, action: Action) -> int:
        """The code of an engine ``Action`` in this position."""
        return self._game.codec.encode(action, self.position)


def _deserialize_state(text: str) -> TicketToRideState:
    """The state of ``pyspiel.serialize_game_and_state``'s text (for pickle)."""
    state: TicketToRideState = pyspiel.deserialize_game_and_state(text)[1]
    return state


class Observer:
    """Information state and observation: the encoding of ``rl.encoding`` (PyObserver API).

    ``tensor`` is the flat vector; ``dict`` has a view of each named part, in its shape. With a
    public-only observation type, the observer's hand, tickets and offer are left out (zero).
    """

    def __init__(self, layout: Layout, public_only: bool = False) -> None:
        self.layout = layout
        self.public_only = public_only
        self.tensor = np.zeros(layout.size, np.float32)
        self.dict = {name: layout.part(self.tensor, name) for name in layout.slices}
        self._encoder = encoder_for(layout.map, layout.variant)

    def set_from(self, state: TicketToRideState, player: int) -> None:
        if state.engine_state is None:  # before the deal: nothing to see
            self.tensor[:] = 0.0
            return
        self._encoder.encode(state.engine_state, player, state.memory, out=self.tensor)
        if self.public_only:
            for name in _PRIVATE:
                self.tensor[self.layout.slices[name]] = 0.0

    def string_from(self, state: TicketToRideState, player: int) -> str:
        """A compact text key of the same facts: ``index:value`` of every non-zero entry."""
        self.set_from(state, player)
        where = np.flatnonzero(self.tensor)
        values = self.tensor[where]
        return f"p{player} " + " ".join(f"{i}:{v:g}" for i, v in zip(where, values, strict=True))


_PRIVATE = ("hand", "tickets", "offer")


# --------------------------------------------------------------------------- for search bots


class EngineRolloutEvaluator:
    """An evaluator for OpenSpiel's MCTS bots that plays rollouts on the engine itself.

    Rollouts pick uniformly among ``legal_actions`` of the engine's state, which is much
    faster than stepping the pyspiel state; the value is ``scoring.returns`` at the end.
    ``prior`` is uniform. (``open_spiel.python.algorithms.mcts.Evaluator`` protocol.)
    """

    def __init__(self, n_rollouts: int = 1, seed: int = 0) -> None:
        self.n_rollouts = n_rollouts
        self._rng = random.Random(seed)

    def evaluate(self, state: TicketToRideState) -> np.ndarray[Any, np.dtype[np.float64]]:
        total = np.zeros(state.num_players())
        for _ in range(self.n_rollouts):
            start = state.engine_state or state._game.deal(self._rng.randrange(state._game.deals))
            world, _ = finish(start, uniform(self._rng))
            total += returns(world)
        out: np.ndarray[Any, np.dtype[np.float64]] = total / self.n_rollouts
        return out

    def prior(self, state: TicketToRideState) -> list[tuple[int, float]]:
        codes = state.legal_actions()
        return [(code, 1.0 / len(codes)) for code in codes]


pyspiel.register_game(_GAME_TYPE, TicketToRideGame)
