"""The OpenSpiel game: pyspiel's random simulation test, observations, resampling, pickling."""

from __future__ import annotations

import pickle
import random
import re
from pathlib import Path

import pytest

np = pytest.importorskip("numpy")
pyspiel = pytest.importorskip("pyspiel")

import ttr_europe.envs.openspiel as tos  # noqa: E402
from ttr_europe import Phase, SetupError, new_game  # noqa: E402
from ttr_europe.rl import encode, layout_for  # noqa: E402
from ttr_europe.scoring import returns  # noqa: E402
from ttr_europe.views import observe  # noqa: E402

DOC = Path(__file__).resolve().parents[2] / "docs" / "openspiel.md"


def _advance(state, steps: int, seed: int = 0):
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    return state


@pytest.mark.slow
@pytest.mark.parametrize(("map_id", "players"), [("europe", 2), ("europe", 3), ("usa", 4)])
def test_pyspiel_random_simulation_test(map_id: str, players: int) -> None:
    params = {"map": map_id, "players": players, "seed": players}
    game = pyspiel.load_game(tos.SHORT_NAME, params)
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def test_game_type_and_info() -> None:
    game = pyspiel.load_game(tos.SHORT_NAME, {"players": 4, "map": "usa"})
    kind = game.get_type()
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert not kind.provides_information_state_tensor
    assert not kind.provides_information_state_string
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert kind.utility == pyspiel.GameType.Utility.CONSTANT_SUM
    assert game.num_players() == 4
    assert game.utility_sum() == 1.0
    assert game.num_distinct_actions() == game.codec.size
    assert game.observation_tensor_shape() == [layout_for("usa", "base").size]
    assert game.max_chance_outcomes() == tos.DEALS
    with pytest.raises(Exception, match="R1"):
        pyspiel.load_game(tos.SHORT_NAME, {"players": 6})


def _dealt(game, outcome: int):
    state = game.new_initial_state()
    state.apply_action(outcome)
    return state


def test_the_deal_is_one_explicit_chance_move_following_the_seed_parameter() -> None:
    a = pyspiel.load_game(tos.SHORT_NAME, {"seed": 3, "deals": 10})
    b = pyspiel.load_game(tos.SHORT_NAME, {"seed": 3, "deals": 10})
    c = pyspiel.load_game(tos.SHORT_NAME, {"seed": 4, "deals": 10})
    state = a.new_initial_state()
    assert state.is_chance_node() and state.engine_state is None
    assert state.chance_outcomes() == [(k, 0.1) for k in range(10)]
    assert state.legal_actions() == list(range(10))
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 7) == "deal 7"
    assert not np.asarray(state.observation_tensor(0)).any()
    first = _dealt(a, 7).engine_state
    assert first == _dealt(b, 7).engine_state == new_game("europe", "base", 2, seed=3 * 10 + 7)
    assert first != _dealt(a, 8).engine_state and first != _dealt(c, 7).engine_state
    assert not _dealt(a, 7).is_chance_node()
    with pytest.raises(Exception, match="no deal 10"):
        state.apply_action(10)


def test_a_played_game_returns_one_shared_by_the_winners() -> None:
    game = pyspiel.load_game(tos.SHORT_NAME, {"players": 3})
    state = _advance(game.new_initial_state(), 5000, seed=1)
    assert state.is_terminal() and state.current_player() == pyspiel.PlayerId.TERMINAL
    assert state.engine_state.phase is Phase.GAME_OVER
    assert sum(state.returns()) == pytest.approx(1.0)
    assert state.returns() == list(returns(state.engine_state))
    assert state.legal_actions() == []


def test_max_moves_ends_a_game_with_provisional_returns() -> None:
    game = pyspiel.load_game(tos.SHORT_NAME, {"max_moves": 12})
    state = _advance(game.new_initial_state(), 100)
    assert state.is_terminal() and len(state.history()) == 1 + 12  # the deal, then 12 moves
    assert state.engine_state.phase is not Phase.GAME_OVER
    assert sum(state.returns()) == pytest.approx(1.0)


def test_tensors_are_the_encoding_with_the_memory() -> None:
    game = pyspiel.load_game(tos.SHORT_NAME, {"players": 2})
    state = _advance(game.new_initial_state(), 60, seed=2)
    for player in (0, 1):
        expected = encode(state.engine_state, player, state.memory)
        assert np.array_equal(np.asarray(state.observation_tensor(player)), expected)
    assert state.observation_string(0) != state.observation_string(1)


def test_a_perfect_recall_information_state_is_refused_not_faked() -> None:
    game = pyspiel.load_game(tos.SHORT_NAME)
    state = _advance(game.new_initial_state(), 20)
    recall = pyspiel.IIGObservationType(
        perfect_recall=True, public_info=True, private_info=pyspiel.PrivateInfoType.SINGLE_PLAYER
    )
    with pytest.raises(SetupError, match="no perfect recall"):
        game.make_py_observer(recall)
    with pytest.raises(SetupError, match="no perfect recall"):
        state.information_state_string(0)
    with pytest.raises(SetupError, match="no perfect recall"):
        state.information_state_tensor(0)


def test_games_and_states_pickle_and_serialize() -> None:
    game = pyspiel.load_game(tos.SHORT_NAME, {"players": 3, "seed": 5})
    assert str(pickle.loads(pickle.dumps(game))) == str(game)
    for state in (game.new_initial_state(), _advance(game.new_initial_state(), 70, seed=3)):
        for copy in (
            pickle.loads(pickle.dumps(state)),
            pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))[1],
        ):
            assert isinstance(copy, tos.TicketToRideState)
            assert copy.history() == state.history()
            assert copy.engine_state == state.engine_state and copy.memory == state.memory
            assert str(copy) == str(state) and copy.legal_actions() == state.legal_actions()
            if not state.is_chance_node():
                assert copy.observation_string(1) == state.observation_string(1)
            code = copy.legal_actions()[0]
            copy.apply_action(code)  # the copy plays on; the original is untouched
            assert len(copy.history()) == len(state.history()) + 1


def test_public_observer_leaves_out_the_private_parts() -> None:
    game = pyspiel.load_game(tos.SHORT_NAME)
    state = _advance(game.new_initial_state(), 10)
    public = pyspiel.IIGObservationType(
        perfect_recall=False, public_info=True, private_info=pyspiel.PrivateInfoType.NONE
    )
    observer = game.make_py_observer(public)
    observer.set_from(state, 0)
    assert not observer.dict["hand"].any()
    assert observer.dict["hand_sizes"][0] == state.engine_state.players[0].hand.total


def test_resampled_states_agree_with_the_player_information() -> None:
    game = pyspiel.load_game(tos.SHORT_NAME, {"players": 3})
    state = _advance(game.new_initial_state(), 80, seed=4)
    player = state.current_player()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    worlds = [state.resample_from_infostate(player, sampler) for _ in range(4)]
    view = observe(state.engine_state, player)
    for world in worlds:
        assert observe(world.engine_state, player) == view
        assert world.observation_string(player) == state.observation_string(player)
        assert world.legal_actions() == state.legal_actions()
        for seat, known in enumerate(state.memory.cards):
            assert world.engine_state.players[seat].hand.covers(known)
    hidden = {(w.engine_state.draw_pile, w.engine_state.ticket_deck) for w in worlds}
    assert len(hidden) == len(worlds)  # what the player cannot see really is resampled


def test_clone_keeps_history_and_position() -> None:
    game = pyspiel.load_game(tos.SHORT_NAME)
    state = _advance(game.new_initial_state(), 30)
    copy = state.clone()
    assert copy.history() == state.history()
    assert copy.engine_state == state.engine_state
    code = copy.legal_actions()[0]
    copy.apply_action(code)
    assert len(state.history()) == 30


def test_wrapping_a_position_and_coding_engine_actions() -> None:
    game = pyspiel.load_game(tos.SHORT_NAME)
    position = new_game("europe", "base", 2, seed=9)
    state = game.new_initial_state(position)
    assert state.engine_state is position
    code = state.legal_actions()[0]
    action = game.codec.decode(code, position)
    assert state.code_of(action) == code
    assert state.action_to_string(state.current_player(), code) == str(action)


@pytest.mark.slow
def test_the_documented_example_runs() -> None:
    pytest.importorskip("open_spiel.python.algorithms.ismcts")
    blocks = re.findall(r"```python\n(.*?)```", DOC.read_text("utf-8"), re.DOTALL)
    assert len(blocks) == 2
    for block in blocks:
        exec(compile(block, str(DOC), "exec"), {"__name__": "docs_example"})


def test_bad_positions_parameters_and_codes_are_refused() -> None:
    game = pyspiel.load_game(tos.SHORT_NAME)
    with pytest.raises(SetupError, match="3-player europe/base game, not 2-player"):
        game.new_initial_state(new_game("europe", "base", 3, seed=1))
    with pytest.raises(Exception, match="max_moves"):
        pyspiel.load_game(tos.SHORT_NAME, {"max_moves": 0})
    state = _dealt(game, 0)
    before, memory = state.engine_state, state.memory
    illegal = next(c for c in range(game.num_distinct_actions()) if c not in state.legal_actions())
    with pytest.raises(Exception, match="R9"):
        state.apply_action(illegal)
    assert state.engine_state is before and state.memory is memory and state.history() == [0]
    with pytest.raises(Exception, match="deals"):
        pyspiel.load_game(tos.SHORT_NAME, {"deals": 0})
