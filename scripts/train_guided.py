"""Train the ``guided`` search's network by expert iteration: self-play, then fit the search.

    pip install 'ttr_europe[train]'   # with the CPU build of torch: pip install torch==2.13.0
    PYTHONPATH=src python scripts/train_guided.py --out runs/guided            # docs/rl.md
    PYTHONPATH=src python scripts/train_guided.py --out runs/guided --resume   # goes on

Two-player Europe in the Python engine. Every iteration:

1. ``--games`` self-play games, both seats ``GuidedBot`` with the current network at
   ``--playouts`` walks a move (Dirichlet noise ``--noise`` at the root; the first
   ``--sample-moves`` decisions of each seat drawn in proportion to the root's visits, the rest
   the most visited). Every decision with more than one legal move gives a sample: the seat's
   observation, its mask, the root's visit counts (the policy's target), the root's mean
   value for the seat (``q``) and, once the game ends, the seat's reward
   (``guided.reward_target``, ``z``). The value's target is ``(1 - w) z + w q``, ``w`` the
   ``--q-weight`` (0: the result alone).
2. ``--epochs`` passes of Adam over the samples of the last ``--window`` iterations: the masked
   cross-entropy against the visit distribution plus ``--value-weight`` times the squared error
   of the value. The log gives the value's error against the result on the new games too
   (``value_z_before``), beside saying 0 everywhere (``value_zero``), whatever the target.

The network starts from the shipped ``bc-ppo`` policy (``--init``; ``none`` starts from
random weights) with a fresh value head. Every iteration appends a JSON line to
``OUT/log.jsonl`` (the loss on the iteration's new samples before and after its training, the
loss of every epoch, the games' lengths, processor seconds, and with ``--eval-games`` the
win rate of the network's search against ``greedy`` on seeds from 1,000,000 on, never trained
on) and writes ``OUT/checkpoint.pt`` (network, optimiser, the samples of the window, the
counters) and ``OUT/guided.npz``, the numpy weights ``GuidedBot`` plays with (float16, as
shipped in ``players/weights/guided.npz``). ``--resume`` goes on from the checkpoint and gives
what an uninterrupted run gives. Seeds are fixed (``--seed``); torch runs on one thread. The
budget is ``--iterations`` and ``--cpu-minutes`` of processor time (no iteration starts past it).
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

try:
    import torch
except ImportError as exc:  # pragma: no cover - the train extra is optional
    sys.exit(f"training needs the train extra (a CPU build of torch): {exc}")

from ttr_europe._seeds import seat_rng
from ttr_europe.codec import codec_for
from ttr_europe.loop import MAX_ACTIONS
from ttr_europe.maps import load_map
from ttr_europe.players.bots import GreedyBot, decide
from ttr_europe.players.guided import GuidedBot, GuidedNet, reward_target
from ttr_europe.rl.encoding import Encoder, layout_for
from ttr_europe.rl.mask import action_mask
from ttr_europe.rules import apply, legal_actions, new_game
from ttr_europe.scoring import outcome
from ttr_europe.sim.stats import wilson
from ttr_europe.state import Phase
from ttr_europe.views import observe

ROOT = Path(__file__).resolve().parents[1]
BC_PPO = ROOT / "src/ttr_europe/players/weights/bc_ppo.npz"
EVAL_SEED = 1_000_000
VALUE_HIDDEN = 64

Arr = np.ndarray[Any, Any]


# --------------------------------------------------------------------------- the network


class Net(torch.nn.Module):  # type: ignore[misc]
    """``GuidedNet`` in torch: inputs scaled, tanh trunk, policy logits and a tanh value."""

    def __init__(self, scale: Arr, codes: int, hidden: tuple[int, ...] = (128, 128)) -> None:
        super().__init__()
        sizes = [len(scale), *hidden]
        self.trunk = torch.nn.ModuleList(
            torch.nn.Linear(a, b) for a, b in itertools.pairwise(sizes)
        )
        self.policy = torch.nn.Linear(hidden[-1], codes)
        self.value = torch.nn.Sequential(
            torch.nn.Linear(hidden[-1], VALUE_HIDDEN), torch.nn.Tanh(),
            torch.nn.Linear(VALUE_HIDDEN, 1), torch.nn.Tanh(),
        )  # fmt: skip
        self.register_buffer("scale", torch.as_tensor(scale, dtype=torch.float32))

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        x = torch.clamp(x * self.scale, -10.0, 10.0)
        for layer in self.trunk:
            x = torch.tanh(layer(x))
        return self.policy(x), self.value(x)[:, 0]

    def arrays(self, dtype: type = np.float32) -> dict[str, Arr]:
        """The ``GuidedNet`` arrays (``w0, b0, ...``, ``mean``, ``var``, ``vw0, vb0, ...``)."""
        out: dict[str, Arr] = {}
        layers = [*self.trunk, self.policy]
        for i, layer in enumerate(layers):
            out[f"w{i}"] = layer.weight.detach().cpu().numpy().T.astype(dtype)
            out[f"b{i}"] = layer.bias.detach().cpu().numpy().astype(dtype)
        for i, layer in enumerate((self.value[0], self.value[2])):
            out[f"vw{i}"] = layer.weight.detach().cpu().numpy().T.astype(dtype)
            out[f"vb{i}"] = layer.bias.detach().cpu().numpy().astype(dtype)
        scale = self.scale.cpu().numpy().astype(np.float64)
        out["mean"] = np.zeros_like(scale, np.float32)
        out["var"] = (1.0 / scale**2 - 1e-8).astype(np.float32)
        return out

    def init_from(self, path: Path) -> None:
        """The trunk and policy of an exported ``NumpyPolicy`` (``bc-ppo``); the value head
        keeps its fresh weights."""
        with np.load(path) as data:
            count = sum(1 for name in data.files if name.startswith("w"))
            layers = [*self.trunk, self.policy]
            if count != len(layers):
                sys.exit(f"{path}: {count} layers, not {len(layers)}")
            with torch.no_grad():
                for i, layer in enumerate(layers):
                    w = torch.as_tensor(data[f"w{i}"].astype(np.float32).T)
                    if w.shape != layer.weight.shape:
                        sys.exit(f"{path}: layer {i} is {tuple(w.shape)}")
                    layer.weight.copy_(w)
                    layer.bias.copy_(torch.as_tensor(data[f"b{i}"].astype(np.float32)))
                var = data["var"].astype(np.float64)
                self.scale.copy_(torch.as_tensor(1.0 / np.sqrt(var + 1e-8), dtype=torch.float32))


def value_target(batch: dict[str, Arr], q_weight: float) -> Arr:
    """The value's target: the result ``z`` mixed with the root's mean value ``q``."""
    z = batch["z"]
    return z if not q_weight else (1 - q_weight) * z + q_weight * batch.get("q", z)


def loss_parts(
    net: Net, batch: dict[str, Arr], value_weight: float, q_weight: float = 0.0
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """(total, policy cross-entropy, value squared error) of a batch of samples."""
    obs = torch.as_tensor(batch["obs"].astype(np.float32))
    codes = net.policy.out_features
    mask = torch.as_tensor(np.unpackbits(batch["mask"], axis=1, count=codes).astype(bool))
    target = torch.zeros((len(obs), codes))
    rows, cols = np.nonzero(batch["pi_codes"] >= 0)
    target[rows, batch["pi_codes"][rows, cols]] = torch.as_tensor(
        batch["pi_probs"][rows, cols], dtype=torch.float32
    )
    logits, value = net(obs)
    logp = torch.log_softmax(logits.masked_fill(~mask, -1e9), -1)
    policy = -(target * logp).sum(-1).mean()
    mse = ((value - torch.as_tensor(value_target(batch, q_weight))) ** 2).mean()
    return policy + value_weight * mse, policy, mse


# --------------------------------------------------------------------------- self-play


def self_play(net: GuidedNet, seed: int, args: argparse.Namespace) -> tuple[dict[str, Arr], int]:
    """One self-play game from deal ``seed``: its samples and its length in actions."""
    state = new_game("europe", players=2, seed=seed)
    codec = codec_for(state.rules.map, state.rules.variant.id)
    encoder = Encoder(layout_for(state.rules.map, state.rules.variant.id))
    bot = GuidedBot(net, iterations=args.playouts, playout=args.playout, noise=args.noise)
    rngs = [seat_rng(seed, s) for s in range(2)]
    decided = [0, 0]
    rows: list[tuple[int, Arr, Arr, list[int], list[float], float]] = []
    steps = 0
    while state.phase is not Phase.GAME_OVER and steps < MAX_ACTIONS:
        seat = state.current
        legal = legal_actions(state)
        view = observe(state, seat)
        action = bot.choose(view, legal, rngs[seat])
        visits = bot.last_visits
        if visits:
            codes = sorted(visits)
            counts = np.array([visits[c] for c in codes], np.float64)
            if decided[seat] < args.sample_moves:
                pick = rngs[seat].choices(codes, weights=counts.tolist())[0]
                action = codec.decode(pick, state)
            decided[seat] += 1
            obs = encoder.encode(state, seat)
            q = bot.last_value if bot.last_value is not None else 0.0
            rows.append((seat, obs, action_mask(state, codec), codes,
                         (counts / counts.sum()).tolist(), q))  # fmt: skip
        state = apply(state, action)
        steps += 1
    result = outcome(state)
    width = args.playouts
    m = len(rows)
    out = {
        "obs": np.zeros((m, len(rows[0][1]) if rows else 0), np.float16),
        "mask": np.zeros((m, (codec.size + 7) // 8), np.uint8),
        "pi_codes": np.full((m, width), -1, np.int32),
        "pi_probs": np.zeros((m, width), np.float32),
        "z": np.zeros(m, np.float32),
        "q": np.zeros(m, np.float32),
    }
    for i, (seat, obs, mask, codes, probs, q) in enumerate(rows):
        out["obs"][i] = obs
        out["mask"][i] = np.packbits(mask)
        out["pi_codes"][i, : len(codes)] = codes
        out["pi_probs"][i, : len(probs)] = probs
        out["z"][i] = reward_target(result, seat)
        out["q"][i] = q
    return out, steps


def evaluate(net: GuidedNet, games: int, playouts: int) -> int:
    """Games won (a shared win counts half, rounded down) by the search against ``greedy``,
    seats alternating, on seeds from ``EVAL_SEED`` on."""
    won = 0.0
    for g in range(games):
        seed = EVAL_SEED + g
        me = g % 2
        bots: list[Any] = [GreedyBot(), GreedyBot()]
        bots[me] = GuidedBot(net, iterations=playouts)
        state = new_game("europe", players=2, seed=seed)
        rngs = [seat_rng(seed, s) for s in range(2)]
        steps = 0
        while state.phase is not Phase.GAME_OVER and steps < MAX_ACTIONS:
            state = apply(state, decide(bots[state.current], state, rngs[state.current]))
            steps += 1
        winners = outcome(state).winners
        won += (1.0 / len(winners)) if me in winners else 0.0
    return int(won)


# --------------------------------------------------------------------------- the run


def concat(parts: list[dict[str, Arr]]) -> dict[str, Arr]:
    return {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}


class Run:
    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        torch.set_num_threads(1)
        torch.manual_seed(args.seed)
        board = load_map("europe")
        layout = layout_for(board, "base")
        codes = codec_for(board, "base").size
        self.net = Net(1.0 / np.maximum(layout.high, 1.0), codes)
        if args.init != "none":
            self.net.init_from(Path(args.init))
        self.opt = torch.optim.Adam(self.net.parameters(), lr=args.lr)
        self.iteration = 0
        self.cpu = 0.0
        self.window: list[dict[str, Arr]] = []
        self.out: Path = args.out
        self.out.mkdir(parents=True, exist_ok=True)
        self.started = time.process_time()

    def cpu_seconds(self) -> float:
        return self.cpu + time.process_time() - self.started

    def save(self) -> None:
        state = {"net": self.net.state_dict(), "opt": self.opt.state_dict(),
                 "iteration": self.iteration, "cpu": self.cpu_seconds(),
                 "window": self.window}  # fmt: skip
        torch.save(state, self.out / "checkpoint.tmp")
        (self.out / "checkpoint.tmp").replace(self.out / "checkpoint.pt")
        np.savez_compressed(self.out / "guided.npz", **self.net.arrays(np.float16))

    def load(self) -> None:
        state = torch.load(self.out / "checkpoint.pt", weights_only=False)
        self.net.load_state_dict(state["net"])
        self.opt.load_state_dict(state["opt"])
        self.iteration, self.cpu, self.window = state["iteration"], state["cpu"], state["window"]
        for part in self.window:  # a checkpoint from before q was kept: its q is its z
            part.setdefault("q", part["z"].copy())

    def log(self, row: dict[str, Any]) -> None:
        with open(self.out / "log.jsonl", "a") as f:
            f.write(json.dumps(row) + "\n")
        print(json.dumps(row), flush=True)

    def step(self) -> None:
        """One iteration: self-play with the current network, then train on the window."""
        args, it = self.args, self.iteration
        played = GuidedNet(self.net.arrays())
        parts, lengths = [], []
        for g in range(args.games):
            samples, length = self_play(played, args.seed * 1_000_003 + it * 1_000 + g, args)
            parts.append(samples)
            lengths.append(length)
        fresh = concat(parts)
        self.window = [*self.window, fresh][-args.window :]
        data = concat(self.window)
        weight, qw = args.value_weight, args.q_weight
        with torch.no_grad():
            before = [float(x) for x in loss_parts(self.net, fresh, weight, qw)]
            value_z = float(loss_parts(self.net, fresh, weight)[2])
        gen = np.random.default_rng([args.seed, it])
        epochs = []
        for _ in range(args.epochs):
            order = gen.permutation(len(data["z"]))
            total = 0.0
            for at in range(0, len(order), args.batch):
                take = order[at : at + args.batch]
                batch = {k: v[take] for k, v in data.items()}
                loss, _, _ = loss_parts(self.net, batch, weight, qw)
                self.opt.zero_grad()
                loss.backward()
                self.opt.step()
                total += loss.item() * len(take)
            epochs.append(round(total / len(order), 4))
        with torch.no_grad():
            after = [float(x) for x in loss_parts(self.net, fresh, weight, qw)]
        self.iteration += 1
        row: dict[str, Any] = {
            "iteration": self.iteration, "games": args.games, "samples": len(fresh["z"]),
            "window_samples": len(data["z"]), "mean_length": round(float(np.mean(lengths)), 1),
            "loss_before": round(before[0], 4), "policy_before": round(before[1], 4),
            "value_before": round(before[2], 4), "loss_after": round(after[0], 4),
            "policy_after": round(after[1], 4), "value_after": round(after[2], 4),
            "value_z_before": round(value_z, 4),
            "value_zero": round(float(np.mean(fresh["z"] ** 2)), 4), "epochs": epochs,
        }  # fmt: skip
        if args.eval_games:
            won = evaluate(GuidedNet(self.net.arrays()), args.eval_games, args.playouts)
            lo, hi = wilson(won, args.eval_games)
            row.update(eval="greedy", won=won, of=args.eval_games, lo=round(lo, 3),
                       hi=round(hi, 3))  # fmt: skip
        row["cpu_s"] = round(self.cpu_seconds(), 1)
        self.save()
        self.log(row)

    def train(self) -> None:
        while self.iteration < self.args.iterations:
            if self.cpu_seconds() >= 60 * self.args.cpu_minutes:
                print(f"the budget of {self.args.cpu_minutes} processor minutes is spent")
                break
            self.step()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("runs/guided"))
    parser.add_argument("--resume", action="store_true")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--iterations", type=int, default=20)
    parser.add_argument("--cpu-minutes", type=float, default=15.0)
    parser.add_argument("--games", type=int, default=8, help="self-play games an iteration")
    parser.add_argument("--playouts", type=int, default=32, help="search walks a move")
    parser.add_argument("--playout", type=float, default=0.5,
                        help="weight of a greedy playout in a leaf's value")  # fmt: skip
    parser.add_argument("--noise", type=float, default=0.25, help="Dirichlet share at the root")
    parser.add_argument(
        "--sample-moves",
        type=int,
        default=8,
        help="decisions a seat draws by visits before playing the most visited",
    )
    parser.add_argument("--window", type=int, default=4, help="iterations of samples trained on")
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--batch", type=int, default=128)
    parser.add_argument("--lr", type=float, default=3e-4)
    parser.add_argument("--value-weight", type=float, default=1.0)
    parser.add_argument(
        "--q-weight",
        type=float,
        default=0.0,
        help="share of the root's mean value in the value's target",
    )
    parser.add_argument("--init", default=str(BC_PPO), help="NumpyPolicy weights, or none")
    parser.add_argument("--eval-games", type=int, default=0, help="against greedy, per iteration")
    args = parser.parse_args(argv)
    if not 0 <= args.q_weight <= 1:
        parser.error(f"--q-weight must be from 0 to 1, not {args.q_weight}")
    run = Run(args)
    if args.resume:
        if not (args.out / "checkpoint.pt").exists():
            sys.exit(f"nothing to resume in {args.out}")
        run.load()
        run.started = time.process_time()
    elif (args.out / "log.jsonl").exists():
        sys.exit(f"{args.out} holds a run: --resume it or choose another --out")
    random.seed(args.seed)
    run.train()


if __name__ == "__main__":
    main()
