"""Train the shipped ``bc-ppo`` policy: imitate ``greedy`` with the core's labels, then PPO.

    pip install 'ttr_europe[train]'   # with the CPU build of torch: pip install torch==2.13.0
    PYTHONPATH=src python scripts/train_policy.py --out runs/bc-ppo     # the recipe of docs/rl.md
    PYTHONPATH=src python scripts/train_policy.py --out runs/bc-ppo --resume
    PYTHONPATH=src python scripts/train_policy.py --out runs/bc-ppo --plot-only

Two-player Europe in the compiled core (``rl.batch.BatchGames``; ``FastGame.play_bots`` plays
the core's copies of the ladder bots move for move). One network: observations scaled by
``layout.high``, two tanh layers, one logit per action code, illegal codes masked out; it is
exported as the ``NumpyPolicy`` weights ``players/weights/bc_ppo.npz`` (float16; numpy at play
time).

1. ``--imitate-updates`` updates of imitation with expert relabelling (DAgger): the games are
   played by a mix of the teacher (``greedy`` in the core) and the network, the mix moving
   from all teacher to all network over ``--mix-updates``; every position met is labelled with
   the code the teacher plays there, and each update takes Adam steps on the masked
   cross-entropy over a replay of the last ``--buffer`` labelled positions. Relabelling the
   positions the network itself reaches is what plain imitation lacks.
2. ``--ppo-updates`` updates of PPO (clipped, masked, GAE) with a separate value network, the
   learner in one seat (alternating) against a league: ``greedy``, ``saver``, ``claimer`` in
   the core and a past self (a snapshot every ``--snapshot-every`` updates); reward 1 for a
   win, -1 for a loss, 0 for a draw, at the end.

Every update prints one line and appends a JSON line to ``OUT/log.jsonl``; every
``--eval-every`` updates the most-likely-move policy plays ``--eval-games`` games against each
of ``claimer``, ``saver``, ``greedy`` (seats alternating, seeds from 1,000,000 on, unseen in
training) and the win rates go to the log. ``OUT/checkpoint.pt`` (network, optimiser, counters,
random states; not the replay) is written after every update and ``--resume`` goes on from it.
At the end, and with ``--plot-only``, the PNG figures are drawn from the log.

``--players 3,4,5`` (2 alone by default) trains at several player counts at once: ``--games`` is
split between one table of games a count, all stepped in every update, the learner's seat
moving to the next seat with every deal and every other seat of a game played by that game's
league member (the same network observes every count: ``rl.encoding``'s layout is sized for
five). The reward generalises the two-player one: ``n/(n-1) * (share - 1/n)`` with ``share`` the
learner's part of the win (1 alone, ``1/k`` when ``k`` share it), so +1 for a win, ``-1/(n-1)`` for
a loss, zero-sum over the seats; at two players it is the +1/-1/0 above, and a two-player run is
unchanged. Evaluation plays each opponent in every other seat at each count (``"players"`` in the
log), and ``--ship`` writes ``bc_ppo_multi.npz``. Seeds are fixed
(``--seed``); torch runs on one thread, on the GPU when there is one. The budget is in processor
seconds (``--cpu-minutes``), so a busy machine takes longer but trains as much.
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

from ttr_europe.actions import Action, KeepTickets
from ttr_europe.envs.batch import BatchGames
from ttr_europe.fast import FastGame
from ttr_europe.players.baseline import NumpyPolicy
from ttr_europe.scoring import returns
from ttr_europe.sim.stats import wilson

TEACHER = "greedy"
LEAGUE = ("greedy", "saver", "claimer", "past")
EVAL_OPPONENTS = ("claimer", "saver", "greedy")
EVAL_SEED = 1_000_000
HIDDEN = (128, 128)
SHIPPED = Path(__file__).resolve().parents[1] / "src/ttr_europe/players/weights/bc_ppo.npz"
SHIPPED_MULTI = SHIPPED.with_name("bc_ppo_multi.npz")  # --ship of a run at 3-5 players

Arr = np.ndarray[Any, Any]


# --------------------------------------------------------------------------- the network


class Net(torch.nn.Module):  # type: ignore[misc]
    """``NumpyPolicy``'s network: inputs scaled by ``1 / high``, tanh layers, one logit a code."""

    def __init__(self, high: Arr, codes: int, hidden: tuple[int, ...] = HIDDEN) -> None:
        super().__init__()
        sizes = [len(high), *hidden, codes]
        self.layers = torch.nn.ModuleList(
            torch.nn.Linear(a, b) for a, b in itertools.pairwise(sizes)
        )
        self.register_buffer(
            "scale", torch.as_tensor(1.0 / np.maximum(high, 1.0), dtype=torch.float32)
        )

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x * self.scale
        for i, layer in enumerate(self.layers):
            x = layer(x)
            if i < len(self.layers) - 1:
                x = torch.tanh(x)
        return x

    def export(self, path: Path) -> NumpyPolicy:
        """Write the ``NumpyPolicy`` weights (float16) and check numpy computes the same."""
        arrays: dict[str, Arr] = {}
        for i, layer in enumerate(self.layers):
            arrays[f"w{i}"] = layer.weight.detach().cpu().numpy().T.astype(np.float16)
            arrays[f"b{i}"] = layer.bias.detach().cpu().numpy().astype(np.float16)
        scale = self.scale.cpu().numpy().astype(np.float64)
        arrays["mean"] = np.zeros_like(scale, np.float32)
        arrays["var"] = (1.0 / scale**2 - 1e-8).astype(np.float32)
        path.parent.mkdir(parents=True, exist_ok=True)
        np.savez_compressed(path, **arrays)
        exported = NumpyPolicy.load(path)
        high = 1.0 / scale
        sample = np.random.default_rng(0).uniform(0, 1, (4, len(scale))) * high
        with torch.no_grad():
            want = self(torch.as_tensor(sample, dtype=torch.float32, device=self.scale.device))
        got = np.stack([exported.logits(o.astype(np.float32)) for o in sample])
        assert np.allclose(got, want.cpu().numpy(), atol=0.05), "numpy differs from torch"
        return exported


def value_net(size: int) -> torch.nn.Module:
    return torch.nn.Sequential(torch.nn.Linear(size, 64), torch.nn.Tanh(), torch.nn.Linear(64, 1))


def masked(logits: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    return logits.masked_fill(~mask, -1e9)


def entropy(logits: torch.Tensor) -> torch.Tensor:
    logp = torch.log_softmax(logits, -1)
    return -(logp.exp() * logp).sum(-1)


# --------------------------------------------------------------------------- games in the core


def code_of(batch: BatchGames, game: FastGame, action: Action) -> int:
    """The code of ``action`` where ``game`` stands (a ticket keep counts places in the offer)."""
    if isinstance(action, KeepTickets):
        ids = [game._board.tickets[t].id for t in game._offer()]
        return batch.codec.keep_code(sum(1 << i for i, t in enumerate(ids) if t in action.tickets))
    return batch.codec.encode(action)


def teacher_code(batch: BatchGames, i: int, key: list[int], bot: str = TEACHER) -> int:
    """The code the core's ``bot`` plays in game ``i`` (played on a copy)."""
    game = batch.games[i]
    trial = game.copy()
    _, actions = trial.play_bots([bot] * game.rules.players, [key] * game.rules.players, 1, True)
    assert actions, "the core's bot found no move"
    code = code_of(batch, game, actions[0])
    assert batch.masks[i, code], "the teacher's move is not in the mask"
    return code


def reward(share: float, players: int) -> float:
    """The learner's reward from its share of the win (``scoring.returns``: 1 alone, ``1/k``
    shared by ``k``, else 0): ``n/(n-1) * (share - 1/n)``, so +1 for a sole win and
    ``-1/(n-1)`` for a loss, a shared win in between; the seats' rewards sum to zero, so the
    fair share earns nothing, and at two players it is +1, -1 and 0 for a shared win."""
    return players / (players - 1) * (share - 1.0 / players)


def result(game: FastGame, seat: int) -> float:
    """The learner's reward for an ended game (``reward``)."""
    return reward(returns(game.to_state())[seat], game.rules.players)


class Table:
    """``n`` games of ``players`` seats, the learner in one seat of each (the next seat with
    every new deal), the other seats played by a core bot or by a past network; ``advance``
    plays the core bots until the learner or the past network is to move."""

    def __init__(self, n: int, seed: int, opponents: list[str], players: int = 2) -> None:
        self.batch = BatchGames(n, "europe", "base", players, seed, autoreset=False)
        self.players = players
        self.opponents = opponents
        self.seat = np.arange(n) % players
        self.next_seed = seed + n
        self.moves = 0
        self.finished: list[tuple[int, float]] = []  # (game, learner's reward)

    def key(self, i: int) -> list[int]:
        self.moves += 1
        return [self.moves & 0xFFFFFFFF, i, self.next_seed & 0xFFFFFFFF]

    def redeal(self, i: int) -> None:
        self.batch.deal(i, self.next_seed)
        self.next_seed += 1
        self.seat[i] = (self.seat[i] + 1) % self.players

    def advance(self) -> None:
        batch = self.batch
        for i, opponent in enumerate(self.opponents):
            game = batch.games[i]
            moved = False
            while True:
                if game.is_terminal():
                    self.finished.append((i, result(game, int(self.seat[i]))))
                    self.redeal(i)
                    moved = False
                    continue
                if opponent == "past" or game.current == self.seat[i]:
                    break
                key = self.key(i)
                game.play_bots([opponent] * self.players, [key] * self.players, 1)
                moved = True
            if moved:
                batch._observe(i)

    def step(self, codes: Arr) -> None:
        batch = self.batch
        batch.step(codes)
        for i in np.flatnonzero(batch.done):
            share = float(batch.returns[i, self.seat[i]])
            self.finished.append((int(i), reward(share, self.players)))
            self.redeal(int(i))


def act(net: Net, obs: Arr, mask: Arr, device: torch.device, sample: bool,
        gen: torch.Generator | None = None) -> tuple[Arr, Arr, torch.Tensor]:  # fmt: skip
    with torch.no_grad():
        logits = masked(
            net(torch.as_tensor(obs, device=device)), torch.as_tensor(mask, device=device)
        )
        if sample:
            codes = torch.multinomial(torch.softmax(logits, -1).cpu(), 1, generator=gen)[:, 0]
        else:
            codes = logits.argmax(-1).cpu()
        logp = torch.log_softmax(logits, -1).cpu()[torch.arange(len(codes)), codes]
    return codes.numpy(), logp.numpy(), logits


def evaluate(net: Net, opponent: str, games: int, device: torch.device, players: int = 2) -> float:
    """Sum of the learner's returns (a win 1, a win shared by ``k`` 1/k) in ``games`` games
    against ``opponent`` in every other seat, the learner's seat rotating, the most likely
    legal move."""
    table = Table(games, EVAL_SEED, [opponent] * games, players)
    won, seen = 0.0, np.zeros(games, bool)
    while not seen.all():
        table.advance()
        for i, got in table.finished:
            if not seen[i]:
                seen[i] = True
                won += got * (players - 1) / players + 1.0 / players  # the share again
        table.finished.clear()
        if seen.all():
            break
        codes, _, _ = act(net, table.batch.observations, table.batch.masks, device, False)
        table.step(codes)
    return round(won, 6)  # a share of 1/3 summed again from rewards carries rounding


def tables(games: int, seed: int, opponents: list[str], counts: tuple[int, ...]) -> list[Table]:
    """One ``Table`` a player count, the ``games`` split between them (all at one count),
    the opponents dealt to each count's games in turn, the counts' seeds 100,000 apart."""
    each = max(1, games // len(counts))
    return [
        Table(each, seed + 100_000 * k, [opponents[i % len(opponents)] for i in range(each)], n)
        for k, n in enumerate(counts)
    ]


# --------------------------------------------------------------------------- the run


class Run:
    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        probe = BatchGames(1)
        self.high = probe.layout.high.astype(np.float32)
        self.codes = probe.codec.size
        self.size = probe.layout.size
        torch.manual_seed(args.seed)
        self.net = Net(self.high, self.codes).to(self.device)
        self.value = value_net(self.size).to(self.device)
        self.value.register_buffer("scale", self.net.scale.clone())
        self.opt = torch.optim.Adam(self.net.parameters(), lr=args.lr)
        self.vopt = torch.optim.Adam(self.value.parameters(), lr=args.lr)
        self.update = 0
        self.started_ppo = args.imitate_updates  # the first PPO update (later with --init)
        self.evaluated = -1  # the last update evaluated
        self.steps = 0  # learner decisions trained on
        self.cpu = 0.0  # processor seconds before this process
        self.past: list[dict[str, torch.Tensor]] = []
        self.gen = torch.Generator().manual_seed(args.seed)
        self.rng = np.random.default_rng(args.seed)
        self.out: Path = args.out
        self.out.mkdir(parents=True, exist_ok=True)
        self.started = time.process_time()
        # the replay of labelled positions (imitation)
        cap = args.buffer
        self.obs = np.zeros((cap, self.size), np.float16)
        self.mask = np.zeros((cap, (self.codes + 7) // 8), np.uint8)
        self.label = np.zeros(cap, np.int64)
        self.filled = 0
        self.head = 0

    # ------------------------------------------------------------------ bookkeeping
    def cpu_seconds(self) -> float:
        return self.cpu + time.process_time() - self.started

    def log(self, row: dict[str, Any]) -> None:
        row = {"update": self.update, "steps": self.steps, "cpu_s": round(self.cpu_seconds(), 1),
               **row}  # fmt: skip
        with open(self.out / "log.jsonl", "a") as f:
            f.write(json.dumps(row) + "\n")
        print(" ".join(f"{k}={v}" for k, v in row.items()), flush=True)

    def save(self) -> None:
        state = {
            "net": self.net.state_dict(), "value": self.value.state_dict(),
            "opt": self.opt.state_dict(), "vopt": self.vopt.state_dict(),
            "update": self.update, "steps": self.steps, "cpu": self.cpu_seconds(),
            "past": self.past, "gen": self.gen.get_state(), "rng": self.rng.bit_generator.state,
            "torch": torch.get_rng_state(), "started_ppo": self.started_ppo,
        }  # fmt: skip
        torch.save(state, self.out / "checkpoint.tmp")
        (self.out / "checkpoint.tmp").replace(self.out / "checkpoint.pt")

    def init_from(self, path: Path) -> None:
        """Start the PPO phase from exported ``NumpyPolicy`` weights (a fresh value network)."""
        policy = NumpyPolicy.load(path)
        if policy.sizes != (self.size, self.codes) or len(policy.weights) != len(self.net.layers):
            sys.exit(f"{path}: a network of another shape than {HIDDEN}")
        with torch.no_grad():
            for layer, w, b in zip(self.net.layers, policy.weights, policy.biases, strict=True):
                layer.weight.copy_(torch.as_tensor(w.T))
                layer.bias.copy_(torch.as_tensor(b))
        self.update = self.args.imitate_updates
        self.started_ppo = self.update

    def load(self) -> None:
        state = torch.load(self.out / "checkpoint.pt", map_location=self.device, weights_only=False)
        self.net.load_state_dict(state["net"])
        self.value.load_state_dict(state["value"])
        self.opt.load_state_dict(state["opt"])
        self.vopt.load_state_dict(state["vopt"])
        self.update, self.steps, self.cpu = state["update"], state["steps"], state["cpu"]
        self.started_ppo = state.get("started_ppo", self.args.imitate_updates)
        self.past = state["past"]
        self.gen.set_state(state["gen"])
        self.rng.bit_generator.state = state["rng"]
        torch.set_rng_state(state["torch"])
        log = (self.out / "log.jsonl").read_text().splitlines()
        evals = [row["update"] for row in map(json.loads, log) if "eval" in row]
        self.evaluated = evals[-1] if evals else -1

    def evaluate(self) -> None:
        """``--eval-games`` games against each evaluation bot at each player count (a line of
        the log each, with the count when training is not at two players alone)."""
        self.evaluated = self.update
        counts = self.args.players
        for n in counts:
            for opponent in EVAL_OPPONENTS:
                games = self.args.eval_games
                won = evaluate(self.net, opponent, games, self.device, n)
                lo, hi = wilson(won, games)
                at = {} if counts == (2,) else {"players": n}
                self.log({"eval": opponent, **at, "won": won, "games": games,
                          "rate": round(won / games, 4), "lo": round(lo, 4),
                          "hi": round(hi, 4)})  # fmt: skip

    # ------------------------------------------------------------------ imitation (DAgger)
    def remember(self, obs: Arr, mask: Arr, labels: Arr) -> None:
        cap = len(self.label)
        for o, m, y in zip(obs, mask, labels, strict=True):
            self.obs[self.head] = o
            self.mask[self.head] = np.packbits(m)
            self.label[self.head] = y
            self.head = (self.head + 1) % cap
            self.filled = min(self.filled + 1, cap)

    def imitate_update(self, sides: list[Table]) -> None:
        args = self.args
        mix = max(0.0, 1.0 - self.update / max(args.mix_updates, 1))  # chance the teacher plays
        for _ in range(args.rollout):
            for table in sides:
                batch = table.batch
                table.advance()
                table.finished.clear()
                labels = np.array([teacher_code(batch, i, table.key(i)) for i in range(len(batch))])
                self.remember(batch.observations, batch.masks, labels)
                mine, _, _ = act(
                    self.net, batch.observations, batch.masks, self.device, True, self.gen
                )
                teach = self.rng.random(len(batch)) < mix
                table.step(np.where(teach, labels, mine))
        losses, ents, hits = [], [], []
        for _ in range(args.sgd_steps):
            idx = self.rng.integers(0, self.filled, args.batch)
            x = torch.as_tensor(self.obs[idx].astype(np.float32), device=self.device)
            m = np.unpackbits(self.mask[idx], axis=1, count=self.codes).astype(bool)
            y = torch.as_tensor(self.label[idx], device=self.device)
            logits = masked(self.net(x), torch.as_tensor(m, device=self.device))
            loss = torch.nn.functional.cross_entropy(logits, y)
            self.opt.zero_grad()
            loss.backward()
            self.opt.step()
            losses.append(float(loss.detach()))
            ents.append(float(entropy(logits.detach()).mean()))
            hits.append(float((logits.argmax(-1) == y).float().mean()))
        self.steps += args.rollout * sum(len(table.batch) for table in sides)
        self.log({"phase": "imitate", "mix": round(mix, 3), "loss": round(np.mean(losses), 4),
                  "entropy": round(np.mean(ents), 4),
                  "agree": round(np.mean(hits), 4)})  # fmt: skip

    # ------------------------------------------------------------------ PPO against a league
    def ppo_rollout(
        self, sides: list[Table], past: Net
    ) -> tuple[list[list[dict[str, Any]]], dict[str, list[float]]]:
        """``--rollout`` moves in every game of every table: the learner's moves per game, and
        the rewards of the games that ended, by opponent (and by player count when the tables
        are not all of two players)."""
        trajs = [[[] for _ in range(len(table.batch))] for table in sides]
        by_opponent: dict[str, list[float]] = {}
        counted = any(table.players != 2 for table in sides)

        def collect(table: Table, traj: list[list[dict[str, Any]]]) -> None:
            for i, got in table.finished:
                self.close(traj[i], got)
                name = table.opponents[i]
                key = f"{name}@{table.players}" if counted else name
                by_opponent.setdefault(key, []).append(got)
            table.finished.clear()

        for _ in range(self.args.rollout):
            for table, traj in zip(sides, trajs, strict=True):
                batch = table.batch
                table.advance()
                collect(table, traj)
                obs, msk = batch.observations, batch.masks
                seats = np.array(batch.seats)
                mine = seats == table.seat
                codes, logp, _ = act(self.net, obs, msk, self.device, True, self.gen)
                if (~mine).any():
                    theirs, _, _ = act(past, obs[~mine], msk[~mine], self.device, True, self.gen)
                    codes[~mine] = theirs
                with torch.no_grad():
                    values = self.value(torch.as_tensor(obs, device=self.device) * self.value.scale)
                for i in np.flatnonzero(mine):
                    traj[i].append({"obs": obs[i].astype(np.float16),
                                    "mask": np.packbits(msk[i]), "code": int(codes[i]),
                                    "logp": float(logp[i]), "value": float(values[i, 0]),
                                    "reward": 0.0, "done": False})  # fmt: skip
                table.step(codes)
                collect(table, traj)
        return [moves for traj in trajs for moves in traj], by_opponent

    def advantages(self, traj: list[list[dict[str, Any]]]) -> list[dict[str, Any]]:
        """GAE over each game's moves; an unfinished tail bootstraps from its own value."""
        gamma, lam = self.args.gamma, self.args.lam
        rows: list[dict[str, Any]] = []
        for moves in traj:
            advantage, following = 0.0, None
            for move in reversed(moves):
                if move["done"]:
                    advantage = move["reward"] - move["value"]
                elif following is None:
                    advantage = 0.0
                else:
                    delta = gamma * following - move["value"]
                    advantage = delta + gamma * lam * advantage
                move["adv"], move["ret"] = advantage, advantage + move["value"]
                following = move["value"]
            rows.extend(moves)
        return rows

    def ppo_update(self, sides: list[Table], past: Net) -> None:
        args = self.args
        traj, by_opponent = self.ppo_rollout(sides, past)
        done_rewards = [r for rewards in by_opponent.values() for r in rewards]
        rows = self.advantages(traj)
        x_all = np.stack([r["obs"] for r in rows]).astype(np.float32)
        m_all = np.unpackbits(np.stack([r["mask"] for r in rows]), axis=1, count=self.codes)
        c_all = np.array([r["code"] for r in rows])
        lp_all = np.array([r["logp"] for r in rows], np.float32)
        adv_all = np.array([r["adv"] for r in rows], np.float32)
        ret_all = np.array([r["ret"] for r in rows], np.float32)
        adv_all = (adv_all - adv_all.mean()) / (adv_all.std() + 1e-8)
        stats: dict[str, list[float]] = {"pl": [], "vl": [], "ent": [], "kl": []}
        done = self.update - self.started_ppo  # PPO updates so far
        warm = done >= args.value_warmup  # before that only the value network learns
        span = max(args.imitate_updates + args.ppo_updates - self.started_ppo - 1, 1)
        lr = args.ppo_lr + (args.ppo_lr_end - args.ppo_lr) * min(done / span, 1.0)
        for group in self.opt.param_groups:
            group["lr"] = lr
        for _ in range(args.epochs):
            order = self.rng.permutation(len(rows))
            for start in range(0, len(order), args.batch):
                idx = order[start : start + args.batch]
                x = torch.as_tensor(x_all[idx], device=self.device)
                m = torch.as_tensor(m_all[idx].astype(bool), device=self.device)
                c = torch.as_tensor(c_all[idx], device=self.device)
                logits = masked(self.net(x), m)
                logp = torch.log_softmax(logits, -1).gather(1, c[:, None])[:, 0]
                ratio = torch.exp(logp - torch.as_tensor(lp_all[idx], device=self.device))
                adv = torch.as_tensor(adv_all[idx], device=self.device)
                clipped = torch.clamp(ratio, 1 - args.clip, 1 + args.clip)
                ent = entropy(logits).mean()
                policy_loss = -torch.min(ratio * adv, clipped * adv).mean() - args.ent_coef * ent
                if warm:
                    self.opt.zero_grad()
                    policy_loss.backward()
                    torch.nn.utils.clip_grad_norm_(self.net.parameters(), 0.5)
                    self.opt.step()
                v = self.value(x * self.value.scale)[:, 0]
                value_loss = ((v - torch.as_tensor(ret_all[idx], device=self.device)) ** 2).mean()
                self.vopt.zero_grad()
                value_loss.backward()
                self.vopt.step()
                stats["pl"].append(float(policy_loss.detach()))
                stats["vl"].append(float(value_loss.detach()))
                stats["ent"].append(float(ent.detach()))
                stats["kl"].append(
                    float((torch.as_tensor(lp_all[idx]) - logp.detach().cpu()).mean())
                )
        self.steps += len(rows)
        self.log({"phase": "ppo", "moves": len(rows), "games": len(done_rewards),
                  "reward": round(float(np.mean(done_rewards)), 4) if done_rewards else None,
                  "policy_loss": round(np.mean(stats["pl"]), 4),
                  "value_loss": round(np.mean(stats["vl"]), 4),
                  "entropy": round(np.mean(stats["ent"]), 4),
                  "kl": round(np.mean(stats["kl"]), 5), "lr": lr,
                  **{f"reward_{k}": round(float(np.mean(v)), 4) for k, v in by_opponent.items()},
                  "policy_trained": warm})  # fmt: skip

    @staticmethod
    def close(moves: list[dict[str, Any]], reward: float) -> None:
        """Give a finished game's reward to the learner's last move in it."""
        if moves and not moves[-1]["done"]:
            moves[-1]["reward"] = reward
            moves[-1]["done"] = True

    # ------------------------------------------------------------------ the whole run
    def train(self) -> None:
        args = self.args
        total = args.imitate_updates + args.ppo_updates
        imitation = None
        if self.update < args.imitate_updates:
            # self-play: every seat the network or the teacher
            imitation = tables(args.games, args.seed * 1_000_000 + 7, ["past"], args.players)
        ppo = tables(args.games, args.seed * 1_000_000 + 500_000, list(args.league), args.players)
        past = Net(self.high, self.codes).to(self.device)
        if self.evaluated < 0:
            self.evaluate()
        while self.update < total and self.cpu_seconds() < args.cpu_minutes * 60:
            if imitation is not None and self.update < args.imitate_updates:
                self.imitate_update(imitation)
            else:
                if not self.past or (self.update - self.started_ppo) % args.snapshot_every == 0:
                    self.past = (
                        [*self.past, {k: v.clone() for k, v in self.net.state_dict().items()}]
                    )[-4:]
                past.load_state_dict(self.past[int(self.rng.integers(len(self.past)))])
                self.ppo_update(ppo, past)
            self.update += 1
            if self.update % args.eval_every == 0 or self.update == total:
                self.evaluate()
                self.net.export(self.out / "bc_ppo.npz")
                self.net.export(self.out / "weights" / f"update-{self.update}.npz")
            self.save()
        if self.evaluated != self.update:  # stopped by the budget, or a shorter resumed run
            self.evaluate()
        self.net.export(self.out / "bc_ppo.npz")
        self.save()


def evaluate_search(out: Path, games: int, every: int) -> None:
    """The search curve: the weights kept at every ``every``-th evaluated update
    (``OUT/weights``) play ``games`` games against ``mcts`` (seats alternating, the evaluation's
    seeds), and each result joins the log as an ``"eval": "mcts"`` line at that update's steps
    and processor time. Played after training, since a search game costs seconds."""
    from ttr_europe.players.policy_bot import PolicyBot
    from ttr_europe.sim import simulate

    log = out / "log.jsonl"
    rows = [json.loads(line) for line in log.read_text().splitlines() if line]
    done = {r["update"] for r in rows if r.get("eval") == "mcts"}
    at = {r["update"]: r for r in rows if r.get("eval") == "greedy"}
    kept = sorted(int(p.stem.split("-")[1]) for p in (out / "weights").glob("update-*.npz"))
    for k, update in enumerate(kept):
        if update in done or update not in at or (k % every and update != kept[-1]):
            continue
        bot = PolicyBot(NumpyPolicy.load(out / "weights" / f"update-{update}.npz"), name="learner")
        run = simulate([bot, "mcts"], games=games, seed=EVAL_SEED, backend="serial")
        won = next(line.wins for line in run.bot_lines() if line.name == "learner")
        lo, hi = wilson(won, games)
        line = {"update": update, "steps": at[update]["steps"], "cpu_s": at[update]["cpu_s"],
                "eval": "mcts", "won": won, "games": games, "rate": round(won / games, 4),
                "lo": round(lo, 4), "hi": round(hi, 4)}  # fmt: skip
        with log.open("a") as f:
            f.write(json.dumps(line) + "\n")
        print(f"update {update}: {won:g} of {games} against mcts ({lo:.0%}-{hi:.0%})", flush=True)


# --------------------------------------------------------------------------- figures


def plot(out: Path) -> list[Path]:
    """The win-rate, reward and entropy figures drawn from ``out/log.jsonl``."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = [json.loads(line) for line in (out / "log.jsonl").read_text().splitlines() if line]
    evals = [r for r in rows if "eval" in r]
    train = [r for r in rows if "phase" in r]
    switch = next((r for r in train if r["phase"] == "ppo"), None)
    made = []
    fig, axes = plt.subplots(1, 2, figsize=(11, 4), sharey=True)
    for ax, x, label in ((axes[0], "steps", "learner decisions trained on"),
                         (axes[1], "cpu_s", "processor minutes")):  # fmt: skip
        scale = 60.0 if x == "cpu_s" else 1.0
        counts = sorted({r.get("players", 2) for r in evals})
        for opponent, n in itertools.product((*EVAL_OPPONENTS, "mcts"), counts):
            pts = [r for r in evals if r["eval"] == opponent and r.get("players", 2) == n]
            if not pts:  # the search curve is drawn once --mcts-games has played it
                continue
            xs = [r[x] / scale for r in pts]
            name = f"vs {opponent}" if counts == [2] else f"vs {opponent}, {n} players"
            ax.plot(xs, [r["rate"] for r in pts], marker="o", ms=3, label=name)
            ax.fill_between(xs, [r["lo"] for r in pts], [r["hi"] for r in pts], alpha=0.2)
        if switch is not None:
            ax.axvline(switch[x] / scale, color="grey", ls="--", lw=1)
            ax.text(switch[x] / scale, 0.97, " PPO", va="top", color="grey")
        if counts == [2]:
            ax.axhline(0.55, color="black", ls=":", lw=1)
        for n in counts if counts != [2] else []:  # the fair share at each count
            ax.axhline(1 / n, color="black", ls=":", lw=1)
        ax.set_xlabel(label)
        ax.grid(alpha=0.3)
    axes[0].set_ylabel("win rate (95 % Wilson interval)")
    axes[0].set_ylim(0, 1)
    axes[0].legend(loc="upper left")
    fig.suptitle("bc-ppo: win rate of the most likely move against the ladder bots")
    fig.tight_layout()
    made.append(out / "win_rate.png")
    fig.savefig(made[-1], dpi=90)
    plt.close(fig)
    fig, axes = plt.subplots(1, 2, figsize=(11, 3.6))
    for phase, style in (("imitate", "tab:blue"), ("ppo", "tab:orange")):
        pts = [r for r in train if r["phase"] == phase]
        if not pts:  # a run started from weights (--init) has no imitation
            continue
        axes[0].plot([r["update"] for r in pts], [r["entropy"] for r in pts], color=style,
                     label=phase)  # fmt: skip
    axes[0].set_xlabel("update")
    axes[0].set_ylabel("policy entropy (nats, legal moves)")
    axes[0].legend()
    axes[0].grid(alpha=0.3)
    imit = [r for r in train if r["phase"] == "imitate"]
    ax = axes[1]
    if imit:
        ax.plot([r["update"] for r in imit], [r["loss"] for r in imit], label="imitation loss")
        ax.plot([r["update"] for r in imit], [r["agree"] for r in imit],
                label="agrees with greedy")  # fmt: skip
    ppo = [r for r in train if r["phase"] == "ppo" and r["reward"] is not None]
    ax.plot([r["update"] for r in ppo], [r["reward"] for r in ppo],
            label="PPO reward (win 1, loss -1) vs league")  # fmt: skip
    for opponent in ("greedy", "saver"):  # the rungs, smoothed over 20 updates
        pts = [(r["update"], r[f"reward_{opponent}"]) for r in ppo if f"reward_{opponent}" in r]
        if len(pts) >= 20:
            xs, ys = zip(*pts, strict=True)
            smooth = np.convolve(ys, np.ones(20) / 20, mode="valid")
            ax.plot(xs[19:], smooth, lw=1, label=f"PPO reward vs {opponent} (mean of 20)")
    ax.set_xlabel("update")
    ax.legend(fontsize=8)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    made.append(out / "training.png")
    fig.savefig(made[-1], dpi=90)
    plt.close(fig)
    return made


def _counts(text: str) -> tuple[int, ...]:
    """``--players``: distinct player counts of Europe (2-5), in the order given."""
    try:
        counts = tuple(int(part) for part in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"player counts are integers: {text!r}") from None
    if not counts or len(set(counts)) != len(counts) or not all(2 <= n <= 5 for n in counts):
        raise argparse.ArgumentTypeError(f"distinct counts from 2 to 5: {text!r}")
    return counts


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("runs/bc-ppo"))
    parser.add_argument("--resume", action="store_true")
    parser.add_argument("--plot-only", action="store_true")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--cpu-minutes", type=float, default=30.0)
    parser.add_argument("--players", type=_counts, default=(2,),
                        help="player counts, comma-separated (2-5): games at each count side "
                        "by side, --games split between them, evaluated at each")  # fmt: skip
    parser.add_argument("--games", type=int, default=64, help="games played side by side")
    parser.add_argument("--rollout", type=int, default=64, help="moves per game per update")
    parser.add_argument("--imitate-updates", type=int, default=80)
    parser.add_argument("--mix-updates", type=int, default=25)
    parser.add_argument("--sgd-steps", type=int, default=64, help="Adam steps per imitation update")
    parser.add_argument("--buffer", type=int, default=200_000)
    parser.add_argument("--ppo-updates", type=int, default=240)
    parser.add_argument("--league", type=lambda text: tuple(text.split(",")), default=LEAGUE,
                        help="PPO opponents, dealt to the games in turn (a name twice weighs "
                        "it twice); past is a past self")  # fmt: skip
    parser.add_argument("--snapshot-every", type=int, default=10)
    parser.add_argument("--epochs", type=int, default=2, help="PPO passes per update")
    parser.add_argument("--batch", type=int, default=256)
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument("--ppo-lr", type=float, default=1e-4)
    parser.add_argument(
        "--ppo-lr-end",
        type=float,
        default=None,
        help="PPO's learning rate at the last update (linear; --ppo-lr alone)",
    )
    parser.add_argument(
        "--value-warmup",
        type=int,
        default=0,
        help="first PPO updates that train the value network alone",
    )
    parser.add_argument(
        "--init",
        type=Path,
        default=None,
        help="start PPO from these exported weights (a .npz), skipping imitation",
    )
    parser.add_argument("--gamma", type=float, default=1.0)
    parser.add_argument("--lam", type=float, default=0.95)
    parser.add_argument("--clip", type=float, default=0.1)
    parser.add_argument("--ent-coef", type=float, default=0.003)
    parser.add_argument("--eval-every", type=int, default=10)
    parser.add_argument("--eval-games", type=int, default=100)
    parser.add_argument("--mcts-games", type=int, default=0,
                        help="after training, the kept weights' games against mcts")  # fmt: skip
    parser.add_argument("--mcts-every", type=int, default=5,
                        help="every N-th kept weights (and the last) in that curve")  # fmt: skip
    parser.add_argument("--no-plot", action="store_true", help="leave the figures out")
    parser.add_argument("--ship", action="store_true",
                        help=f"copy the weights to {SHIPPED.name} ({SHIPPED_MULTI.name} when "
                        "--players is not 2 alone)")  # fmt: skip
    args = parser.parse_args(argv)
    if args.ppo_lr_end is None:
        args.ppo_lr_end = args.ppo_lr
    unknown = set(args.league) - {"greedy", "saver", "claimer", "past"}
    if unknown:
        parser.error(f"--league: unknown opponents {sorted(unknown)}")
    if not args.plot_only:
        torch.set_num_threads(1)
        random.seed(args.seed)
        run = Run(args)
        if args.resume and (args.out / "checkpoint.pt").exists():
            run.load()
        else:
            if (args.out / "log.jsonl").exists():
                (args.out / "log.jsonl").unlink()
            if args.init is not None:
                run.init_from(args.init)
        run.train()
        if args.ship:
            target = SHIPPED if args.players == (2,) else SHIPPED_MULTI
            target.write_bytes((args.out / "bc_ppo.npz").read_bytes())
    if args.mcts_games:
        evaluate_search(args.out, args.mcts_games, args.mcts_every)
    if not args.no_plot:
        for path in plot(args.out):
            print("figure", path)


if __name__ == "__main__":
    main()
