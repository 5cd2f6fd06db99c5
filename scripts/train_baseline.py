"""Train the shipped baseline policy (``ttr_europe/players/weights/baseline.npz``): imitation,
or MaskablePPO.

Needs the ``sb3`` extra (``pip install 'ttr_europe[sb3]'`` with a CPU build of torch, e.g.
``pip install torch==2.13.0``). One process, one core: ``nice python scripts/train_baseline.py``.
The network is the one ``NumpyPolicy`` runs: observations normalised by their mean and
variance, two tanh layers (64, 32), one logit per action code (about 220k weights).

``--method imitate`` (the default, the shipped policy): ``--games`` seeded 2-player Europe games
of the teacher (``GreedyBot``) against itself and against ``saver``, every teacher decision
recorded as the environments observe it (``CodeGame``: the encoding with the memory of public
hands) with its code and mask; then ``--epochs`` passes of Adam on the masked cross-entropy
(logits outside the mask left out of the softmax).

``--method ppo``: MaskablePPO (sb3-contrib) on the Gymnasium environment, one seat against the
ladder (two greedy seats, one saver, one claimer, one environment each), rewarded by the change
of its lead in points (``reward="score_diff"``, scaled by 1/20), observations normalised by
``VecNormalize``, for ``--minutes`` of processor time or ``--steps`` steps.

Both stop at ``--minutes`` of processor time (25 by default, evaluations included;
``time.process_time``, so a busy machine takes longer but trains as much) and, after every
epoch (imitation) or ``--eval-every`` steps (PPO), write the policy and its win rate against
each rung (``--eval-games`` games, the most likely legal move) to the log and to ``--curve``
(CSV): the learning curves of docs/rl.md. ``--seed`` (0) seeds torch, the games and the
evaluations; torch runs on one thread, and imitation within its budget is reproducible.
"""

from __future__ import annotations

import argparse
import csv
import itertools
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

try:
    import torch
    from sb3_contrib import MaskablePPO
    from sb3_contrib.common.wrappers import ActionMasker
    from stable_baselines3.common.callbacks import BaseCallback
    from stable_baselines3.common.vec_env import DummyVecEnv, VecNormalize
except ImportError as exc:  # pragma: no cover - the train extra is optional
    sys.exit(f"training needs the sb3 extra (sb3-contrib and a CPU torch): {exc}")

import gymnasium as gym

from ttr_europe.envs.game import CodeGame
from ttr_europe.envs.gymnasium_env import TicketToRideGymEnv
from ttr_europe.players import make_bot, seat_rng
from ttr_europe.players.baseline import BASELINE_PATH, NumpyPolicy

OPPONENTS = ("greedy", "greedy", "saver", "claimer")
EVAL_OPPONENTS = ("claimer", "saver", "greedy")
REWARD_SCALE = 20.0  # points; a 6-route scores 15, a long ticket 20-21
NET = [64, 32]  # the policy's hidden layers: about 220k weights, under 1 MB as float32


def make_env(opponent: str, seed: int) -> gym.Env[Any, Any]:
    env = TicketToRideGymEnv(opponents=(opponent,), reward="score_diff")
    env = gym.wrappers.TransformReward(env, lambda r: r / REWARD_SCALE)
    env = ActionMasker(env, lambda e: e.unwrapped.action_masks())
    env.reset(seed=seed)
    return env


def export(model: MaskablePPO, norm: VecNormalize, path: Path) -> NumpyPolicy:
    """The policy network's weights and the observation statistics as numpy arrays (the value
    network is left behind)."""
    policy = model.policy
    layers = [m for m in policy.mlp_extractor.policy_net if isinstance(m, torch.nn.Linear)]
    layers.append(policy.action_net)
    arrays: dict[str, np.ndarray[Any, Any]] = {}
    for i, layer in enumerate(layers):
        arrays[f"w{i}"] = layer.weight.detach().numpy().T.astype(np.float32)
        arrays[f"b{i}"] = layer.bias.detach().numpy().astype(np.float32)
    arrays["mean"] = norm.obs_rms.mean.astype(np.float32)
    arrays["var"] = norm.obs_rms.var.astype(np.float32)
    np.savez_compressed(path, **arrays)
    exported = NumpyPolicy.load(path)
    sample = np.stack([norm.observation_space.sample() for _ in range(8)])
    with torch.no_grad():
        torch_obs = torch.as_tensor(norm.normalize_obs(sample), dtype=torch.float32)
        want = policy.get_distribution(torch_obs).distribution.logits.numpy()
    got = np.stack([exported.logits(o) for o in sample])
    got -= np.log(np.exp(got - got.max(1, keepdims=True)).sum(1, keepdims=True)) + got.max(
        1, keepdims=True
    )
    assert np.allclose(got, want, atol=1e-3), "the numpy policy differs from the trained one"
    return exported


def evaluate(policy: NumpyPolicy, games: int, seed: int) -> dict[str, float]:
    """Win share of ``policy`` (greedy with the mask) against each rung, seats alternating."""
    rates = {}
    for opponent in EVAL_OPPONENTS:
        won = 0.0
        for g in range(games):
            env = TicketToRideGymEnv(opponents=(opponent,), seat=g % 2)
            obs, info = env.reset(seed=seed + g)
            done, reward = False, 0.0
            while not done:
                obs, reward, term, trunc, info = env.step(policy(obs, info["action_mask"]))
                done = term or trunc
            won += float(reward)
        rates[opponent] = won / games
    return rates


# --------------------------------------------------------------------------- imitation


def teacher_games(games: int, seed: int) -> tuple[np.ndarray[Any, Any], ...]:
    """Observations, codes and packed masks of every GreedyBot decision in ``games`` games."""
    from ttr_europe.players import decide

    obs, codes, masks = [], [], []
    for g in range(games):
        game = CodeGame("europe", "base", 2)
        game.reset(seed + g)
        lineup = ["greedy", "greedy" if g % 2 == 0 else "saver"]
        if g % 4 >= 2:
            lineup.reverse()
        bots = [make_bot(name) for name in lineup]
        rngs = [seat_rng(seed + g, s) for s in range(2)]
        while not game.over:
            seat = game.state.current
            action = decide(bots[seat], game.state, rngs[seat])
            if lineup[seat] == "greedy":
                obs.append(game.observe(seat).astype(np.float16))  # counts: exact
                codes.append(game.codec.encode(action, game.state))
                masks.append(np.packbits(game.mask()))
            game.play(action)
    return np.stack(obs), np.asarray(codes, np.int64), np.stack(masks)


class Net(torch.nn.Module):  # type: ignore[misc]
    """The network of ``NumpyPolicy``: normalise, tanh layers, logits."""

    def __init__(self, mean: np.ndarray[Any, Any], var: np.ndarray[Any, Any], codes: int) -> None:
        super().__init__()
        sizes = [len(mean), *NET, codes]
        self.layers = torch.nn.ModuleList(
            torch.nn.Linear(a, b) for a, b in itertools.pairwise(sizes)
        )
        self.mean = torch.as_tensor(mean, dtype=torch.float32)
        self.var = torch.as_tensor(var, dtype=torch.float32)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = torch.clamp((x - self.mean) / torch.sqrt(self.var + 1e-8), -10.0, 10.0)
        for i, layer in enumerate(self.layers):
            x = layer(x)
            if i < len(self.layers) - 1:
                x = torch.tanh(x)
        return x

    def save(self, path: Path) -> NumpyPolicy:
        arrays: dict[str, np.ndarray[Any, Any]] = {}
        for i, layer in enumerate(self.layers):
            arrays[f"w{i}"] = layer.weight.detach().numpy().T.astype(np.float32)
            arrays[f"b{i}"] = layer.bias.detach().numpy().astype(np.float32)
        arrays["mean"] = self.mean.numpy()
        arrays["var"] = self.var.numpy()
        np.savez_compressed(path, **arrays)
        exported = NumpyPolicy.load(path)
        sample = np.random.default_rng(0).uniform(0, 5, (4, len(self.mean))).astype(np.float32)
        with torch.no_grad():
            want = self(torch.as_tensor(sample)).numpy()
        got = np.stack([exported.logits(o) for o in sample])
        assert np.allclose(got, want, atol=1e-3), "the numpy policy differs from the trained one"
        return exported


def imitate(args: argparse.Namespace, log: Curve) -> None:
    started = time.process_time()
    obs, codes, packed = teacher_games(args.games, args.seed)
    size = CodeGame("europe", "base", 2).codec.size
    print(f"{len(codes)} decisions from {args.games} games in "
          f"{(time.process_time() - started) / 60:.1f} processor minutes", flush=True)  # fmt: skip
    as32 = obs.astype(np.float32)
    # a part never seen non-zero (a missing seat) gets unit scale, not a huge one
    net = Net(as32.mean(0), np.maximum(as32.var(0), 1e-2), size)
    del as32
    optimiser = torch.optim.Adam(net.parameters(), lr=args.lr)
    x_all, y_all = torch.as_tensor(obs), torch.as_tensor(codes)  # float16 rows, cast per batch
    generator = torch.Generator().manual_seed(args.seed)
    for epoch in range(1, args.epochs + 1):
        order = torch.randperm(len(codes), generator=generator)
        total = 0.0
        for start in range(0, len(order), args.batch):
            batch = order[start : start + args.batch]
            mask = np.unpackbits(packed[batch.numpy()], axis=1, count=size).astype(bool)
            logits = net(x_all[batch].float()).masked_fill(~torch.as_tensor(mask), -1e9)
            loss = torch.nn.functional.cross_entropy(logits, y_all[batch])
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            total += float(loss.detach()) * len(batch)
        elapsed = time.process_time() - started
        policy = net.save(args.out)
        log.add({"epoch": epoch, "loss": round(total / len(codes), 4)}, policy, elapsed)
        if elapsed > args.minutes * 60:
            break


# --------------------------------------------------------------------------- PPO


class Curve:
    """The learning curve: a row per checkpoint, win rates against the ladder."""

    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.rows: list[dict[str, Any]] = []

    def add(self, row: dict[str, Any], policy: NumpyPolicy, elapsed: float) -> None:
        rates = evaluate(policy, self.args.eval_games, 10_000 + self.args.seed)
        row = {**row, "minutes": round(elapsed / 60, 1), **rates}
        self.rows.append(row)
        print("eval", row, flush=True)
        with open(self.args.curve, "w", newline="") as f:
            writer = csv.DictWriter(f, fieldnames=list(row))
            writer.writeheader()
            writer.writerows(self.rows)


class Progress(BaseCallback):  # type: ignore[misc]
    """Logs, evaluates and exports every ``every`` steps; stops at the time budget."""

    def __init__(self, args: argparse.Namespace, started: float, log: Curve) -> None:
        super().__init__()
        self.args = args
        self.started = started
        self.next_eval = args.eval_every
        self.log = log

    def _on_step(self) -> bool:
        elapsed = time.process_time() - self.started
        if self.num_timesteps >= self.next_eval:
            self.next_eval += self.args.eval_every
            self.checkpoint(elapsed)
        return elapsed < self.args.minutes * 60

    def checkpoint(self, elapsed: float) -> None:
        policy = export(self.model, self.model.get_env(), self.args.out)
        self.log.add({"steps": self.num_timesteps}, policy, elapsed)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--method", choices=("imitate", "ppo"), default="imitate")
    parser.add_argument("--minutes", type=float, default=25.0)
    parser.add_argument("--games", type=int, default=800, help="teacher games (imitate)")
    parser.add_argument("--epochs", type=int, default=10, help="passes over them (imitate)")
    parser.add_argument("--batch", type=int, default=256)
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument("--steps", type=int, default=10_000_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--eval-every", type=int, default=50_000)
    parser.add_argument("--eval-games", type=int, default=40)
    parser.add_argument("--out", type=Path, default=BASELINE_PATH)
    parser.add_argument("--curve", type=Path, default=Path("baseline_curve.csv"))
    args = parser.parse_args()
    torch.manual_seed(args.seed)
    torch.set_num_threads(1)
    log = Curve(args)
    if args.method == "imitate":
        wall = time.time()
        imitate(args, log)
        print(f"done in {(time.time() - wall) / 60:.1f} wall minutes")
        return
    venv = VecNormalize(
        DummyVecEnv(
            [lambda o=o, i=i: make_env(o, args.seed * 100 + i) for i, o in enumerate(OPPONENTS)]
        ),
        norm_obs=True,
        norm_reward=False,
        clip_obs=10.0,
    )
    model = MaskablePPO(
        "MlpPolicy",
        venv,
        n_steps=512,
        batch_size=512,
        n_epochs=8,
        learning_rate=1e-3,
        gamma=0.99,
        ent_coef=0.003,
        policy_kwargs={"net_arch": {"pi": NET, "vf": [64, 64]}},
        seed=args.seed,
        verbose=1,
    )
    started, wall = time.process_time(), time.time()
    progress = Progress(args, started, log)
    model.learn(total_timesteps=args.steps, callback=progress)
    progress.checkpoint(time.process_time() - started)
    print(
        f"done: {progress.num_timesteps} steps in {(time.process_time() - started) / 60:.1f} "
        f"processor minutes ({(time.time() - wall) / 60:.1f} wall minutes)"
    )


if __name__ == "__main__":
    main()
