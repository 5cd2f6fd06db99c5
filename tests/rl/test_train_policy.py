"""The ``bc-ppo`` recipe (scripts/train_policy.py): a short run learns, logs, resumes, exports."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

import pytest

from ttr_europe import fast

np = pytest.importorskip("numpy")
pytest.importorskip("torch", reason="the recipe needs the train extra (a CPU build of torch)")
pytestmark = pytest.mark.skipif(
    not fast.available(), reason="the compiled core is not built (python -m ttr_europe.fast.build)"
)

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "train_policy.py"
SMALL = ["--games", "8", "--rollout", "16", "--mix-updates", "2", "--sgd-steps", "8",
         "--eval-every", "4", "--eval-games", "4", "--snapshot-every", "2",
         "--no-plot"]  # fmt: skip


def _recipe() -> ModuleType:
    spec = importlib.util.spec_from_file_location("train_policy", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["train_policy"] = module
    spec.loader.exec_module(module)
    return module


def _log(out: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in (out / "log.jsonl").read_text().splitlines()]


def test_a_short_run_learns_resumes_and_exports_a_numpy_policy(tmp_path: Path) -> None:
    from ttr_europe.players.baseline import NumpyPolicy
    from ttr_europe.players.policy_bot import PolicyBot
    from ttr_europe.testing import check_bot

    recipe = _recipe()
    out = tmp_path / "run"
    # a few hundred positions a step: 6 imitation updates, then 2 of PPO
    recipe.main(["--out", str(out), "--imitate-updates", "6", "--ppo-updates", "2", *SMALL])
    rows = _log(out)
    losses = [r["loss"] for r in rows if r.get("phase") == "imitate"]
    assert len(losses) == 6 and losses[-1] < 0.8 * losses[0]  # the imitation loss falls
    ppo = [r for r in rows if r.get("phase") == "ppo"]
    assert len(ppo) == 2 and all(np.isfinite(r["policy_loss"]) for r in ppo)
    evals = [r for r in rows if "eval" in r]
    assert {r["eval"] for r in evals} == {"claimer", "saver", "greedy"}
    assert all(r["lo"] <= r["rate"] <= r["hi"] for r in evals)
    # the checkpoint reloads: a resumed run goes on from update 8, not from the start
    recipe.main(["--out", str(out), "--imitate-updates", "6", "--ppo-updates", "3", "--resume",
                 *SMALL])  # fmt: skip
    again = _log(out)
    assert len(again) > len(rows) and again[: len(rows)] == rows
    assert [r["update"] for r in again[len(rows) :] if "phase" in r] == [8]
    policy = NumpyPolicy.load(out / "bc_ppo.npz")
    assert check_bot(PolicyBot(policy, name="bc-ppo"), games=1) == []


def test_ppo_goes_on_from_exported_weights_against_a_chosen_league(tmp_path: Path) -> None:
    from ttr_europe.players.baseline import NumpyPolicy

    recipe = _recipe()
    first, second = tmp_path / "first", tmp_path / "second"
    recipe.main(["--out", str(first), "--imitate-updates", "2", "--ppo-updates", "0", *SMALL])
    start = NumpyPolicy.load(first / "bc_ppo.npz")
    recipe.main(["--out", str(second), "--init", str(first / "bc_ppo.npz"), "--imitate-updates",
                 "2", "--ppo-updates", "3", "--league", "greedy,past", "--value-warmup", "1",
                 "--ppo-lr", "1e-3", "--ppo-lr-end", "1e-4", *SMALL])  # fmt: skip
    rows = _log(second)
    assert "phase" not in rows[0] and rows[0]["update"] == 2  # evaluated before any PPO
    ppo = [r for r in rows if r.get("phase") == "ppo"]
    assert [r["update"] for r in ppo] == [2, 3, 4]  # no imitation: PPO from the weights
    assert [r["policy_trained"] for r in ppo] == [False, True, True]
    assert [r["lr"] for r in ppo] == pytest.approx([1e-3, 5.5e-4, 1e-4])
    assert {k for r in ppo for k in r if k.startswith("reward_")} <= {"reward_greedy",
                                                                      "reward_past"}  # fmt: skip
    assert (second / "weights" / "update-4.npz").exists()
    # PPO starts from the exported weights: while only the value network learns they stay
    # exactly those, and they move once the policy trains
    obs = np.random.default_rng(1).uniform(0, 1, start.sizes[0]).astype(np.float32)
    trained = NumpyPolicy.load(second / "bc_ppo.npz")
    assert not np.allclose(start.logits(obs), trained.logits(obs), atol=1e-3)
    still = tmp_path / "still"
    recipe.main(["--out", str(still), "--init", str(first / "bc_ppo.npz"), "--imitate-updates",
                 "2", "--ppo-updates", "1", "--value-warmup", "1", *SMALL])  # fmt: skip
    assert np.array_equal(start.logits(obs), NumpyPolicy.load(still / "bc_ppo.npz").logits(obs))
    with pytest.raises(SystemExit):
        recipe.main(["--out", str(tmp_path / "bad"), "--league", "greedy,oracle", *SMALL])


def test_the_figures_are_drawn_from_the_log(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib", reason="the figures need the train extra (matplotlib)")
    recipe = _recipe()
    out = tmp_path / "run"
    recipe.main(["--out", str(out), "--imitate-updates", "2", "--ppo-updates", "2", *SMALL])
    recipe.main(["--out", str(out), "--plot-only"])
    for name in ("win_rate.png", "training.png"):
        assert (out / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.slow
def test_the_search_curve_plays_the_kept_weights_against_mcts(tmp_path: Path) -> None:
    recipe = _recipe()
    out = tmp_path / "run"
    recipe.main(["--out", str(out), "--imitate-updates", "2", "--ppo-updates", "4", *SMALL,
                 "--eval-every", "2"])  # fmt: skip
    kept = sorted(int(p.stem.split("-")[1]) for p in (out / "weights").glob("update-*.npz"))
    assert len(kept) >= 3
    recipe.main(["--out", str(out), "--plot-only", "--mcts-games", "1", "--mcts-every", "2"])
    rows = _log(out)
    search = [r for r in rows if r.get("eval") == "mcts"]
    greedy = {r["update"]: r for r in rows if r.get("eval") == "greedy"}
    # every second kept update and the last, each at its training steps and processor time
    assert [r["update"] for r in search] == sorted({*kept[::2], kept[-1]})
    for r in search:
        assert (r["steps"], r["cpu_s"]) == (greedy[r["update"]]["steps"],
                                            greedy[r["update"]]["cpu_s"])  # fmt: skip
        assert r["games"] == 1 and r["lo"] <= r["rate"] <= r["hi"]
    assert (out / "win_rate.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    # a second call plays nothing again: the curve goes on where it stopped
    recipe.main(["--out", str(out), "--plot-only", "--no-plot", "--mcts-games", "1",
                 "--mcts-every", "2"])  # fmt: skip
    assert [r for r in _log(out) if r.get("eval") == "mcts"] == search


def test_the_reward_is_the_share_above_the_fair_one_and_sums_to_zero() -> None:
    recipe = _recipe()
    # two players: the recipe's +1, -1 and 0 for a shared win, exactly
    assert [recipe.reward(s, 2) for s in (1.0, 0.0, 0.5)] == [1.0, -1.0, 0.0]
    assert recipe.reward(1.0, 4) == pytest.approx(1.0)
    assert recipe.reward(0.0, 4) == pytest.approx(-1 / 3)  # a loss: -1/(n-1)
    for n in (3, 4, 5):
        for shares in ([1.0] + [0.0] * (n - 1), [0.5, 0.5] + [0.0] * (n - 2)):
            assert sum(recipe.reward(s, n) for s in shares) == pytest.approx(0.0)
    assert 0.0 < recipe.reward(0.5, 3) < recipe.reward(1.0, 3)  # a shared win, in between


def test_a_table_rotates_the_learner_and_stops_only_at_its_seat() -> None:
    recipe = _recipe()
    table = recipe.Table(3, 40, ["greedy"] * 3, players=4)
    assert list(table.seat) == [0, 1, 2]
    table.advance()
    assert list(table.batch.seats) == list(table.seat)  # the core bots moved up to the learner
    assert all(g.rules.players == 4 for g in table.batch.games)
    table.redeal(2)
    table.redeal(2)
    assert table.seat[2] == 0  # 2 -> 3 -> 0: every seat in turn


def test_a_multi_player_run_trains_evaluates_at_each_count_and_resumes(tmp_path: Path) -> None:
    recipe = _recipe()
    out = tmp_path / "multi"
    args = ["--out", str(out), "--players", "3,4,5", "--imitate-updates", "2", *SMALL,
            "--games", "6", "--eval-games", "3"]  # fmt: skip
    recipe.main([*args, "--ppo-updates", "2"])
    rows = _log(out)
    assert [r["phase"] for r in rows if "phase" in r] == ["imitate"] * 2 + ["ppo"] * 2
    assert [r["steps"] for r in rows if r.get("phase") == "imitate"] == [96, 192]  # 2 games a count
    evals = [(r["eval"], r["players"]) for r in rows if "eval" in r]
    each = [(o, n) for n in (3, 4, 5) for o in ("claimer", "saver", "greedy")]
    assert evals == each * 2  # before training and after it
    assert all(0 <= r["won"] <= r["games"] == 3 for r in rows if "eval" in r)
    recipe.main([*args, "--ppo-updates", "3", "--resume"])
    again = _log(out)
    assert again[: len(rows)] == rows
    assert [r["update"] for r in again[len(rows) :] if "phase" in r] == [4]
    for bad in ("1,3", "3,3", "6", "three"):
        with pytest.raises(SystemExit):
            recipe.main(["--out", str(tmp_path / "bad"), "--players", bad, *SMALL])
