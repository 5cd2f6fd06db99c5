"""A search guided by a learned evaluation: PUCT over determinized worlds, numpy at play time.

``GuidedNet`` is a policy-and-value network: the ``bc-ppo`` shape (observations scaled by
``layout.high``, two tanh layers, one logit per action code) with a value head on the last
hidden layer (one tanh layer, then a tanh output: the seat's expected reward, from -1 to 1).
``GuidedBot`` searches with it as AlphaZero does, but over the worlds the seat cannot tell
apart from its view (``views.Sampler``, the sampler ``MctsBot`` uses, which never reads a
hidden card): every iteration samples a world and walks one shared tree keyed by action codes,
every seat's move chosen by PUCT (the policy head's priors over the codes legal in that world,
the mean value for the seat to move); a new leaf is judged by the value head for every seat,
mixed with ``playout`` times the reward of the greedy policy's game from there (the compiled
core's playout when it is built). The move played is the root's most visited code.

``scripts/train_guided.py`` trains it by expert iteration: the search's visit counts at the
root are the policy's targets and the games' rewards the value's. The shipped weights are
``weights/guided.npz``; the recipe and its curves are in docs/rl.md.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from .. import fast
from ..actions import Action
from ..codec import ActionCodec, codec_for
from ..errors import DataError, SetupError
from ..rl.encoding import Encoder, layout_for
from ..rl.mask import Mask, action_mask
from ..rules import apply, is_legal
from ..scoring import Outcome, outcome
from ..state import GameState, Phase
from ..views import Sampler, View
from ._routing import board_of
from .baseline import NumpyPolicy, read_arrays
from .mcts import _MAX_PLAYOUT, Playout, _reward_of

__all__ = ["GUIDED_PATH", "GuidedBot", "GuidedNet", "guided_bot", "reward_target"]

GUIDED_PATH = Path(__file__).with_name("weights") / "guided.npz"
"""The shipped weights of ``make_bot("guided")`` (``scripts/train_guided.py``)."""

Array = np.ndarray[Any, np.dtype[np.float32]]
MARGIN_SCALE = 20.0  # the search bots' squashing of a margin (mcts.MctsBot's default)
_VALUE_HEAD = ("vw0", "vb0", "vw1", "vb1")


def reward_target(result: Outcome, seat: int) -> float:
    """The value head's target: the search bots' reward (half the win share, half the squashed
    margin over the best other seat) moved from [0, 1] to [-1, 1]."""
    return 2.0 * _reward_of(result, seat, MARGIN_SCALE) - 1.0


class GuidedNet:
    """The policy-and-value network in numpy: ``evaluate(obs) -> (logits, values)``.

    The ``.npz`` holds ``w0, b0, w1, b1, ...``, ``mean`` and ``var``: the policy network, read
    and run by ``policy`` (a ``NumpyPolicy``, so the policy alone also loads as one), and
    ``vw0, vb0, vw1, vb1``, the value head on its last hidden layer, read here.
    """

    def __init__(self, arrays: dict[str, Array]) -> None:
        for name in ("mean", "var"):  # optional to a NumpyPolicy; the training always writes them
            if name not in arrays:
                raise DataError(f"a guided network lacks {name!r}")
        self.policy = NumpyPolicy.from_arrays(arrays)
        if len(self.policy.weights) < 2:
            raise DataError("a guided network needs a hidden layer and a policy layer")
        try:
            self.value = [np.asarray(arrays[name], np.float32) for name in _VALUE_HEAD]
        except KeyError as exc:
            raise DataError(f"a guided network lacks {exc} of its value head") from exc
        hidden = self.policy.weights[-1].shape[0]
        vw0 = self.value[0]
        if vw0.ndim != 2 or vw0.shape[0] != hidden:
            raise DataError(f"the value head's vw0 is {vw0.shape}, not ({hidden}, units): it "
                            f"reads the last hidden layer, of {hidden}")  # fmt: skip
        width = vw0.shape[1]
        expected = ((width,), (width, 1), (1,))
        for name, array, shape in zip(_VALUE_HEAD[1:], self.value[1:], expected, strict=True):
            if array.shape != shape:
                raise DataError(f"the value head's {name} is {array.shape}, not {shape}")

    @classmethod
    def load(cls, path: Path | str = GUIDED_PATH) -> GuidedNet:
        arrays = read_arrays(path, "guided")
        try:
            return cls(arrays)
        except DataError as exc:
            raise DataError(exc.reason, source=str(path)) from exc  # the file that is wrong

    @property
    def sizes(self) -> tuple[int, int]:
        """(observation size, number of codes) the network expects."""
        return self.policy.sizes

    def evaluate(self, obs: Array, policy_row: int | None = 0) -> tuple[Array | None, Array]:
        """The logits of row ``policy_row`` of ``obs`` (rows are observations; None: no
        logits) and the value of every row."""
        x = self.policy.hidden(np.atleast_2d(obs))
        vw0, vb0, vw1, vb1 = self.value
        values: Array = np.tanh(np.tanh(x @ vw0 + vb0) @ vw1 + vb1)[:, 0]
        if policy_row is None:
            return None, values
        return self.policy.head(x[policy_row]), values


class _Node:
    """A node of the shared tree: the codes played from the root in the worlds walked."""

    __slots__ = ("children", "logits", "totals", "visits")

    def __init__(self, seats: int) -> None:
        self.children: dict[int, _Node] = {}
        self.visits = 0
        self.totals = [0.0] * seats  # the summed value of every seat
        self.logits: Array | None = None  # the mover's policy logits, once evaluated


class GuidedBot:
    """PUCT search with a ``GuidedNet``'s priors and values, over determinized worlds.

    ``iterations`` caps the walks of one decision, ``seconds`` its processor time (no walk is
    started that would end past it); with both, whichever comes first. ``exploration`` is
    PUCT's constant, ``playout`` the weight of a greedy playout's reward in a leaf's value
    (0: the value head alone; 1: the playout alone). ``noise`` mixes Dirichlet noise
    (``alpha`` 0.3) into the root's priors, for self-play. Only the randomness handed to
    ``choose`` is used, so with an iteration budget a game is reproducible. After each
    search, ``last_visits`` maps the root's codes to their visits, ``last_playouts`` counts
    the walks and ``last_value`` is the root's mean value for the seat (a training target).
    """

    name = "guided"
    DEFAULT_ITERATIONS = 200

    def __init__(
        self,
        net: GuidedNet,
        iterations: int | None = DEFAULT_ITERATIONS,
        seconds: float | None = None,
        *,
        exploration: float = 1.5,
        playout: float = 0.5,
        noise: float = 0.0,
    ) -> None:
        if not isinstance(net, GuidedNet):
            raise SetupError(f"a guided bot needs a GuidedNet, not {net!r}")
        if iterations is None and seconds is None:
            raise SetupError("a GuidedBot needs a budget: iterations, seconds or both")
        if iterations is not None and (type(iterations) is not int or iterations < 1):
            raise SetupError(f"iterations must be a positive int, not {iterations!r}")
        if seconds is not None and not (isinstance(seconds, int | float) and seconds > 0):
            raise SetupError(f"seconds must be a positive number, not {seconds!r}")
        for label, number, top in (("exploration", exploration, math.inf),
                                   ("playout", playout, 1.0), ("noise", noise, 1.0)):  # fmt: skip
            if not (isinstance(number, int | float) and 0 <= number <= top and number < math.inf):
                raise SetupError(f"{label} must be a number from 0 to {top}, not {number!r}")
        self.net = net
        self.iterations = iterations
        self.seconds = seconds
        self.exploration = float(exploration)
        self.playout = float(playout)
        self.noise = float(noise)
        self.last_visits: dict[int, int] = {}
        self.last_playouts = 0
        self.last_value: float | None = None
        self._encoders: dict[tuple[str, str], Encoder] = {}

    def _encoder(self, view: View) -> Encoder:
        key = (view.map, view.variant)
        if key not in self._encoders:
            board = board_of(view)
            layout = layout_for(board, view.variant)
            codes = codec_for(board, view.variant).size
            if self.net.sizes != (layout.size, codes):
                raise SetupError(f"the network reads {self.net.sizes[0]} inputs and gives "
                                 f"{self.net.sizes[1]} codes; {view.map}/{view.variant} has "
                                 f"{layout.size} inputs and {codes} codes")  # fmt: skip
            self._encoders[key] = Encoder(layout)
        return self._encoders[key]

    def choose(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        seat = view.observer
        if seat is None:
            raise SetupError("a bot needs the view of its own seat, not a spectator's")
        self.last_visits = {}
        self.last_playouts = 0
        self.last_value = None
        if len(legal) == 1:
            return legal[0]
        board = board_of(view)
        encoder = self._encoder(view)
        codec = codec_for(board, view.variant)
        sampler = Sampler(view, seat, map=board)
        world = sampler.sample(rng)
        visits = self.search(view, encoder, codec, sampler, rng)
        code = max(visits, key=lambda c: (visits[c], -c))
        move = codec.decode(code, world)
        return move if is_legal(world, move) else legal[0]

    def search(
        self,
        view: View,
        encoder: Encoder,
        codec: ActionCodec,
        sampler: Sampler,
        rng: random.Random,
    ) -> dict[int, int]:
        """The root's visits by code after the walks of the budget (at least one)."""
        seat = view.observer
        assert seat is not None
        seats = len(view.players)
        root = _Node(seats)
        logits, _ = self.net.evaluate(encoder.encode_view(view))
        assert logits is not None
        if self.noise:
            noise = (
                np.random.default_rng(rng.getrandbits(63))
                .dirichlet([0.3] * len(logits))
                .astype(np.float32)
            )
            probs = np.exp(logits - logits.max())
            probs /= probs.sum()
            logits = np.log((1 - self.noise) * probs + self.noise * noise + 1e-12)
        root.logits = logits
        clock = time.process_time
        start = clock()
        done = 0
        while True:
            self._walk(root, sampler.sample(rng), encoder, codec)
            done += 1
            if self.iterations is not None and done >= self.iterations:
                break
            if self.seconds is not None:
                spent = clock() - start
                if spent + spent / done > self.seconds:
                    break
        self.last_playouts = done
        self.last_visits = {c: n.visits for c, n in root.children.items() if n.visits}
        self.last_value = root.totals[seat] / root.visits
        return self.last_visits

    def _walk(self, root: _Node, state: GameState, encoder: Encoder, codec: ActionCodec) -> None:
        """One walk: down by PUCT to a new node or the game's end, then back up its values."""
        node, path = root, [root]
        while True:
            if state.phase is Phase.GAME_OVER:
                result = outcome(state)
                values = [reward_target(result, s) for s in range(len(node.totals))]
                break
            if node.logits is None:
                values = self._evaluate(node, state, encoder)
                break
            mask = action_mask(state, codec)
            code = self._select(node, mask, state.current)
            child = node.children.get(code)
            if child is None:
                child = node.children[code] = _Node(len(node.totals))
            state = apply(state, codec.decode(code, state))
            node = child
            path.append(node)
        for visited in path:
            visited.visits += 1
            totals = visited.totals
            for s, v in enumerate(values):
                totals[s] += v

    def _select(self, node: _Node, mask: Mask, mover: int) -> int:
        """PUCT over the codes legal here: priors from the logits over these codes, values
        as the mover's mean (0, an even game, where untried)."""
        legal = np.flatnonzero(mask)
        assert node.logits is not None
        logits = node.logits[legal]
        priors = np.exp(logits - logits.max())
        priors /= priors.sum()
        children = node.children
        root_n = math.sqrt(max(node.visits, 1))
        c = self.exploration
        best, best_score = int(legal[0]), -math.inf
        for i, code in enumerate(legal.tolist()):
            child = children.get(code)
            if child is None or not child.visits:
                score = c * float(priors[i]) * root_n
            else:
                n = child.visits
                score = child.totals[mover] / n + c * float(priors[i]) * root_n / (1 + n)
            if score > best_score:
                best, best_score = code, score
        return best

    def _evaluate(self, node: _Node, state: GameState, encoder: Encoder) -> list[float]:
        """A new leaf: the mover's logits and every seat's value (with the playout's share)."""
        seats = len(node.totals)
        obs = np.stack([encoder.encode(state, s) for s in range(seats)])
        logits, values = self.net.evaluate(obs, policy_row=state.current)
        node.logits = logits
        mixed: list[float] = [float(v) for v in values]
        if self.playout:
            result = self._playout(state)
            w = self.playout
            mixed = [(1 - w) * v + w * reward_target(result, s) for s, v in enumerate(mixed)]
        return mixed

    @staticmethod
    def _playout(state: GameState) -> Outcome:
        """The outcome of the greedy policy's game from ``state`` (in the core when built and
        the board is within its limits)."""
        if fast.takes(state.rules):
            game = fast.FastGame.from_state(state)
            game.greedy_playout(_MAX_PLAYOUT)
            return game.outcome()
        playout = Playout(state.rules.map)
        return outcome(playout.finish(state))


def guided_bot(path: Path | str | None = None, **options: Any) -> GuidedBot:
    """The guided search with the weights of ``path`` (``make_bot("guided")``: those at
    ``GUIDED_PATH``, read when called, at ``GuidedBot.DEFAULT_ITERATIONS`` walks a move)."""
    options.setdefault("iterations", GuidedBot.DEFAULT_ITERATIONS)
    return GuidedBot(GuidedNet.load(GUIDED_PATH if path is None else path), **options)
