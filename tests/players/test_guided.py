"""The guided search (players.guided): legal moves, its budget, its network's file, a game."""

from __future__ import annotations

import random
import time
from pathlib import Path
from typing import Any

import pytest

from ttr_europe.codec import legal_action_mask_bytes
from ttr_europe.errors import DataError, SetupError
from ttr_europe.players import GreedyBot, play
from ttr_europe.rules import legal_actions, new_game
from ttr_europe.state import Phase
from ttr_europe.views import observe

np = pytest.importorskip("numpy")

from ttr_europe.players.guided import GUIDED_PATH, GuidedBot, GuidedNet  # noqa: E402


def _arrays(seed: int = 0, hidden: int = 16) -> dict[str, Any]:
    """A small random network of the Europe observation and codes."""
    from ttr_europe.codec import codec_for
    from ttr_europe.maps import load_map
    from ttr_europe.rl.encoding import layout_for

    board = load_map("europe")
    size, codes = layout_for(board, "base").size, codec_for(board, "base").size
    gen = np.random.default_rng(seed)

    def layer(a: int, b: int) -> tuple[Any, Any]:
        return gen.normal(0, 1 / np.sqrt(a), (a, b)).astype(np.float32), np.zeros(b, np.float32)

    (w0, b0), (w1, b1), (vw0, vb0), (vw1, vb1) = (
        layer(size, hidden), layer(hidden, codes), layer(hidden, 8), layer(8, 1)
    )  # fmt: skip
    high = layout_for(board, "base").high
    return {"w0": w0, "b0": b0, "w1": w1, "b1": b1, "vw0": vw0, "vb0": vb0, "vw1": vw1,
            "vb1": vb1, "mean": np.zeros(size, np.float32),
            "var": (np.maximum(high, 1.0) ** 2).astype(np.float32)}  # fmt: skip


def _positions(count: int) -> list[Any]:
    """States of a greedy game at its first ``count`` decisions with a choice."""
    states = play(new_game(players=2, seed=5), [GreedyBot(), GreedyBot()], seed=5)
    return [s for s in states if len(legal_actions(s)) > 1][::7][:count]


def test_the_search_plays_only_legal_moves_within_its_walks() -> None:
    bot = GuidedBot(GuidedNet(_arrays()), iterations=12)
    positions = _positions(6)
    assert {s.phase for s in positions} >= {Phase.INITIAL_TICKETS, Phase.TURN}
    for state in positions:
        legal = legal_actions(state)
        move = bot.choose(observe(state, state.current), legal, random.Random(1))
        assert move in legal
        assert bot.last_playouts == 12
        assert sum(bot.last_visits.values()) == 12  # every walk leaves the root by one code
        mask = np.frombuffer(legal_action_mask_bytes(state), bool)
        assert all(mask[code] for code in bot.last_visits)  # the root visits legal codes only


def test_the_same_randomness_gives_the_same_move_and_seconds_cap_the_search() -> None:
    net = GuidedNet(_arrays())
    state = _positions(3)[-1]
    view, legal = observe(state, state.current), legal_actions(state)
    first = GuidedBot(net, iterations=20)
    second = GuidedBot(net, iterations=20)
    moves = [bot.choose(view, legal, random.Random(3)) for bot in (first, second)]
    assert moves[0] == moves[1]
    assert first.last_visits == second.last_visits
    timed = GuidedBot(net, iterations=None, seconds=0.05)
    start = time.process_time()
    timed.choose(view, legal, random.Random(3))
    spent = time.process_time() - start
    assert timed.last_playouts >= 1 and spent < 0.05 + 0.1


def test_the_value_head_alone_and_noise_still_play_legal_moves() -> None:
    bot = GuidedBot(GuidedNet(_arrays(1)), iterations=8, playout=0.0, noise=0.25)
    for state in _positions(4):
        legal = legal_actions(state)
        assert bot.choose(observe(state, state.current), legal, random.Random(2)) in legal


def test_the_root_value_is_the_mean_of_what_the_walks_backed_up() -> None:
    arrays = _arrays(2)
    arrays["vw1"] = np.zeros_like(arrays["vw1"])
    arrays["vb1"] = np.full_like(arrays["vb1"], np.arctanh(0.3))  # every leaf is worth 0.3
    bot = GuidedBot(GuidedNet(arrays), iterations=10, playout=0.0)
    state = _positions(3)[-1]  # far from the end: no walk of ten reaches it
    bot.choose(observe(state, state.current), legal_actions(state), random.Random(4))
    assert bot.last_value == pytest.approx(0.3, abs=1e-6)
    one = [a for a in legal_actions(state)][:1]  # a single legal move is played unsearched
    bot.choose(observe(state, state.current), one, random.Random(4))
    assert bot.last_value is None and bot.last_playouts == 0


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"iterations": None}, "needs a budget"),
        ({"iterations": 0}, "positive int"),
        ({"seconds": -1.0}, "positive number"),
        ({"playout": 1.5}, "playout must be"),
        ({"noise": -0.1}, "noise must be"),
        ({"exploration": float("nan")}, "exploration must be"),
        ({"exploration": float("inf")}, "exploration must be"),
    ],
)
def test_bad_settings_are_refused(options: dict[str, Any], words: str) -> None:
    with pytest.raises(SetupError, match=words):
        GuidedBot(GuidedNet(_arrays()), **options)


def test_a_network_without_its_value_head_or_of_another_size_is_refused(tmp_path: Path) -> None:
    arrays = _arrays()
    del arrays["vw1"]
    with pytest.raises(DataError, match="lacks"):
        GuidedNet(arrays)
    arrays = _arrays()
    arrays["vw0"] = arrays["vw0"][:3]
    with pytest.raises(DataError, match="value head"):
        GuidedNet(arrays)
    with pytest.raises(DataError, match="cannot read"):
        GuidedNet.load(tmp_path / "none.npz")
    arrays = _arrays()
    arrays["w0"], arrays["mean"], arrays["var"] = arrays["w0"][:40], arrays["mean"][:40], \
        arrays["var"][:40]  # fmt: skip
    state = _positions(1)[0]
    with pytest.raises(SetupError, match="inputs"):
        GuidedBot(GuidedNet(arrays), iterations=2).choose(
            observe(state, state.current), legal_actions(state), random.Random(0)
        )


def test_the_saved_network_reloads_and_plays_a_fair_game(tmp_path: Path) -> None:
    from ttr_europe.testing import check_bot

    path = tmp_path / "net.npz"
    np.savez(path, **_arrays())
    net = GuidedNet.load(path)
    assert net.sizes == GuidedNet(_arrays()).sizes
    assert check_bot(GuidedBot(net, iterations=3), games=1) == []


def test_the_registry_builds_the_shipped_guided_search() -> None:
    from ttr_europe.players import make_bot

    assert GUIDED_PATH.exists()
    bot = make_bot("guided")
    assert isinstance(bot, GuidedBot) and bot.iterations == GuidedBot.DEFAULT_ITERATIONS
    assert bot.net.sizes == GuidedNet(_arrays()).sizes
    state = _positions(2)[-1]
    legal = legal_actions(state)
    assert bot.choose(observe(state, state.current), legal, random.Random(0)) in legal


def _formula(arrays: dict[str, Any], obs: Any, row: int | None) -> tuple[Any, Any]:
    """The network's formula written out from its raw arrays: normalise, tanh trunk, the policy
    layer on row ``row``, the value head on every row (all in float32, as at play)."""
    layers = sum(1 for name in arrays if name.startswith("w"))
    weights = [np.asarray(arrays[f"w{i}"], np.float32) for i in range(layers)]
    biases = [np.asarray(arrays[f"b{i}"], np.float32) for i in range(layers)]
    mean = np.asarray(arrays["mean"], np.float32)
    scale = (1.0 / np.sqrt(np.asarray(arrays["var"], np.float64) + 1e-8)).astype(np.float32)
    x = np.clip((np.atleast_2d(obs) - mean) * scale, -10.0, 10.0)
    for w, b in zip(weights[:-1], biases[:-1], strict=True):
        x = np.tanh(x @ w + b)
    vw0, vb0, vw1, vb1 = (np.asarray(arrays[n], np.float32) for n in ("vw0", "vb0", "vw1", "vb1"))
    values = np.tanh(np.tanh(x @ vw0 + vb0) @ vw1 + vb1)[:, 0]
    return (None if row is None else x[row] @ weights[-1] + biases[-1]), values


def test_the_shipped_network_gives_exactly_its_formula() -> None:
    from ttr_europe.maps import load_map
    from ttr_europe.rl.encoding import Encoder, layout_for

    with np.load(GUIDED_PATH) as data:
        arrays = {name: data[name] for name in data.files}
    net = GuidedNet.load()
    encoder = Encoder(layout_for(load_map("europe"), "base"))
    states = _positions(4)
    obs = np.stack([encoder.encode(s, seat) for s in states for seat in (0, 1)])
    assert obs.dtype == np.float32 and len(obs) == 8
    for row in (None, 0, 3, 7):
        logits, values = net.evaluate(obs, policy_row=row)
        want_logits, want_values = _formula(arrays, obs, row)
        assert values.dtype == np.float32 and np.array_equal(values, want_values)
        if row is None:
            assert logits is None
        else:
            assert logits is not None and logits.dtype == np.float32
            assert np.array_equal(logits, want_logits)
    logits, values = net.evaluate(obs[5])  # one observation, not a batch
    want_logits, want_values = _formula(arrays, obs[5], 0)
    assert logits is not None and np.array_equal(logits, want_logits)
    assert values.shape == (1,) and np.array_equal(values, want_values)
    assert len(set(np.round(net.evaluate(obs, None)[1], 4))) > 1  # the rows are not all alike


@pytest.mark.parametrize("name", ["vw0", "vb0", "vw1", "vb1", "mean", "var", "b1"])
def test_a_network_missing_an_array_is_refused_by_its_name(tmp_path: Path, name: str) -> None:
    arrays = _arrays()
    del arrays[name]
    with pytest.raises(DataError, match=f"lack.*'{name}'"):
        GuidedNet(arrays)
    np.savez(tmp_path / "net.npz", **arrays)
    with pytest.raises(DataError, match=rf"net\.npz: .*'{name}'"):
        GuidedNet.load(tmp_path / "net.npz")


@pytest.mark.parametrize(
    ("name", "shape"),
    [("vw0", (16,)), ("vw0", (15, 8)), ("vb0", (9,)), ("vw1", (8, 2)), ("vw1", (7, 1)),
     ("vb1", (2,)), ("vb1", ())],
)  # fmt: skip
def test_a_mis_shaped_value_head_is_refused_by_its_name(
    tmp_path: Path, name: str, shape: tuple[int, ...]
) -> None:
    arrays = _arrays()  # a hidden layer of 16, a value head of 8 units
    arrays[name] = np.zeros(shape, np.float32)
    with pytest.raises(DataError, match=rf"value head's {name} is \({shape[0] if shape else ''}"):
        GuidedNet(arrays)
    np.savez(tmp_path / "net.npz", **arrays)
    with pytest.raises(DataError, match=rf"net\.npz: .*{name}"):
        GuidedNet.load(tmp_path / "net.npz")
