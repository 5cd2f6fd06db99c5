"""The guided search's recipe (scripts/train_guided.py): its loss falls, it resumes exactly,
and its checkpoint plays a whole game through the registry."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("torch", reason="the recipe needs the train extra (a CPU build of torch)")

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "train_guided.py"
TINY = ["--games", "1", "--playouts", "4", "--epochs", "3", "--batch", "64", "--seed", "7"]


def _recipe() -> ModuleType:
    spec = importlib.util.spec_from_file_location("train_guided", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["train_guided"] = module
    spec.loader.exec_module(module)
    return module


def _log(out: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in (out / "log.jsonl").read_text().splitlines()]


def _weights(out: Path) -> dict[str, object]:
    with np.load(out / "guided.npz") as data:
        return {name: data[name] for name in data.files}


def test_a_few_iterations_lower_the_loss_and_the_checkpoint_plays_a_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from ttr_europe.players import guided, make_bot
    from ttr_europe.testing import check_bot

    out = tmp_path / "run"
    _recipe().main(["--out", str(out), "--iterations", "3", *TINY])
    rows = _log(out)
    assert [r["iteration"] for r in rows] == [1, 2, 3]
    for row in rows:
        assert row["samples"] > 50  # a whole self-play game's decisions
        # the loss on the iteration's own samples falls with its training, policy and value
        assert row["loss_after"] < row["loss_before"]  # type: ignore[operator]
        assert row["policy_after"] < row["policy_before"]  # type: ignore[operator]
        assert row["value_after"] < row["value_before"]  # type: ignore[operator]
        epochs = row["epochs"]
        assert isinstance(epochs, list) and epochs[-1] < epochs[0]
    # the checkpoint, found where the registry looks, plays a whole legal, fair game
    monkeypatch.setattr(guided, "GUIDED_PATH", out / "guided.npz")
    monkeypatch.setattr(guided.GuidedBot, "DEFAULT_ITERATIONS", 4)
    bot = make_bot("guided")
    assert isinstance(bot, guided.GuidedBot) and bot.iterations == 4
    assert check_bot(bot, games=1) == []


def test_a_resumed_run_ends_where_an_uninterrupted_one_does(tmp_path: Path) -> None:
    recipe = _recipe()
    straight, halves = tmp_path / "straight", tmp_path / "halves"
    recipe.main(["--out", str(straight), "--iterations", "2", *TINY])
    recipe.main(["--out", str(halves), "--iterations", "1", *TINY])
    with pytest.raises(SystemExit, match="holds a run"):
        recipe.main(["--out", str(halves), "--iterations", "2", *TINY])
    recipe.main(["--out", str(halves), "--iterations", "2", "--resume", *TINY])

    def steady(rows: list[dict[str, object]]) -> list[dict[str, object]]:
        return [{k: v for k, v in r.items() if k != "cpu_s"} for r in rows]

    assert steady(_log(halves)) == steady(_log(straight))
    a, b = _weights(straight), _weights(halves)
    assert a.keys() == b.keys() and all(np.array_equal(a[k], b[k]) for k in a)


def test_the_root_value_can_be_the_values_target_and_the_result_is_still_reported(
    tmp_path: Path,
) -> None:
    import torch

    recipe = _recipe()
    out = tmp_path / "q"
    recipe.main(["--out", str(out), "--iterations", "1", "--q-weight", "1", *TINY])
    (row,) = _log(out)
    # the loss trained is against the root's values; the error against the results is logged
    assert row["value_after"] < row["value_before"]  # type: ignore[operator]
    assert row["value_z_before"] != row["value_before"]
    assert 0 < row["value_zero"] <= 1  # type: ignore[operator]
    (part,) = torch.load(out / "checkpoint.pt", weights_only=False)["window"]
    q, z = part["q"], part["z"]
    assert len(q) == len(z) == row["samples"]
    assert np.all(np.abs(q) <= 1) and len(np.unique(q)) > 10  # a search's value, per decision
    assert not np.array_equal(q, z)
    # each sample's target is the mix asked for
    half = recipe.value_target(part, 0.5)
    assert np.allclose(half, (q + z) / 2)
    assert recipe.value_target(part, 0.0) is z
    with pytest.raises(SystemExit):
        recipe.main(["--out", str(tmp_path / "bad"), "--q-weight", "1.5", *TINY])
