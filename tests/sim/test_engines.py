"""Simulations in the compiled core: the same rows as the reference, field for field.

The core plays ``random``, ``greedy``, ``claimer``, ``saver`` and ``ambitious`` move for move
as ``bots.RandomBot``, ``bots.GreedyBot``, ``styles.ClaimerBot``, ``styles.SaverBot`` and
``styles.AmbitiousBot`` play on the reference (their ``random.Random`` streams included), so a game
played by ``engine="fast"`` has the row ``engine="python"`` gives it, its actions included: on
every map, variant and player count, under the rule options, at the loop's cap, on the process
pool and when a run is resumed. ``auto`` picks the core only when it plays every seat, and
``fast`` refuses in one line when it cannot.
"""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import attrs
import pytest

from ttr_europe import fast
from ttr_europe._seeds import seat_rng, seat_seed, twister_key
from ttr_europe.errors import SimulationError
from ttr_europe.maps import load_map
from ttr_europe.players import GreedyBot, RandomBot
from ttr_europe.players.styles import AmbitiousBot, ClaimerBot, SaverBot
from ttr_europe.sim import (
    GameResult,
    GameSpec,
    core_bot,
    core_playable,
    engine_for,
    play_core_game,
    play_game,
    simulate,
)
from ttr_europe.sim import games as sim_games
from ttr_europe.testing.play import configs

pytestmark = pytest.mark.skipif(
    not fast.available(), reason="the compiled core is not built (python -m ttr_europe.fast.build)"
)

ROOT = Path(__file__).resolve().parents[2]


def setups() -> list[tuple[str, str, int]]:
    """Every map, variant and player count shipped."""
    out = []
    for map_id, variant in configs():
        v = load_map(map_id).variants[variant]
        out += [(map_id, variant, n) for n in range(v.min_players, v.max_players + 1)]
    return out


def both(bots: list[Any], **settings: Any) -> tuple[tuple[GameResult, ...], tuple[Any, ...]]:
    """The rows of the same run played by the reference and by the core."""
    python = simulate(bots, backend="serial", engine="python", record=True, **settings)
    core = simulate(bots, backend="serial", engine="fast", record=True, **settings)
    assert (python.engine, core.engine) == ("python", "fast")
    assert python.finished == core.finished == settings["games"] and not core.failures
    return python.results, core.results


@pytest.mark.parametrize(("map_id", "variant", "players"), setups())
def test_the_core_gives_the_reference_rows_everywhere(
    map_id: str, variant: str, players: int
) -> None:
    bots = ["greedy", "random", "saver"] if players % 2 else ["random", "greedy", "claimer"]
    bots = bots[:players]
    python, core = both(bots, games=2, map=map_id, variant=variant, players=players,
                        seed=100 * players)  # fmt: skip
    assert python == core
    assert all(r.record and len(r.record) == r.actions for r in core)


@pytest.mark.parametrize(
    "options",
    [
        {"reset_cap": 0},
        {"reset_cap": 1, "second_card_optional": True},
        {"second_card_optional": True, "tiebreak_path_length": True, "bonus_at_zero": True},
        {"max_long_kept": 0},
        {"max_long_kept": 1, "reset_cap": 2},
    ],
)
def test_the_core_gives_the_reference_rows_under_every_option(options: dict[str, Any]) -> None:
    python, core = both(["greedy", "random", "claimer", "saver"], games=4, options=options,
                        seed=7)  # fmt: skip
    assert python == core


def test_each_bot_against_itself() -> None:
    for bots in (["greedy"], ["random"], ["claimer"], ["saver"], ["ambitious"]):
        python, core = both(bots, games=3, players=3, map="usa", seed=40)
        assert python == core


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_the_ambitious_bot_plays_in_the_core_as_in_the_reference(players: int) -> None:
    bots = ["ambitious", "greedy", "random", "saver", "claimer"][:players]
    python, core = both(bots, games=6, players=players, seed=300 + players)
    assert python == core
    keeps = [a for r in core for a in r.record if a.startswith("keep ")]
    assert keeps  # ticket choices were part of what was compared


def test_at_the_loops_cap_both_engines_forfeit_alike(monkeypatch: pytest.MonkeyPatch) -> None:
    """A game cut off by the cap is a forfeit of the seat to act, with provisional scores."""
    monkeypatch.setattr(sim_games, "MAX_ACTIONS", 40)
    python, core = both(["greedy", "random", "saver"], games=3, seed=3)
    assert python == core
    assert all(r.forfeit is not None and r.actions == 40 for r in core)
    assert all("no end after 40 actions" in r.forfeit.error for r in core if r.forfeit)


def test_the_core_draws_each_seat_from_that_seats_generator() -> None:
    """``twister_key`` gives the words ``random.Random`` seeds itself with: a generator seeded
    from them by hand (CPython's init_by_array, written out here) draws what ``seat_rng``
    draws."""
    text = seat_seed(12, 1)
    key = twister_key(text)
    mt = _init_by_array(key)
    expected = seat_rng(12, 1).getstate()[1]
    assert (*mt, 624) == expected


def _init_by_array(key: tuple[int, ...]) -> list[int]:
    mask = 0xFFFFFFFF
    mt = [19650218]
    for i in range(1, 624):
        mt.append((1812433253 * (mt[-1] ^ (mt[-1] >> 30)) + i) & mask)
    i, j = 1, 0
    for _ in range(max(624, len(key))):
        mt[i] = ((mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1664525)) + key[j] + j) & mask
        i, j = i + 1, j + 1
        if i >= 624:
            mt[0], i = mt[623], 1
        if j >= len(key):
            j = 0
    for _ in range(623):
        mt[i] = ((mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1566083941)) - i) & mask
        i += 1
        if i >= 624:
            mt[0], i = mt[623], 1
    mt[0] = 0x80000000
    return mt


def test_auto_plays_in_the_core_only_when_it_plays_every_seat() -> None:
    class Subclassed(RandomBot):
        name = "subclassed"

    assert engine_for("auto", ["random", "greedy", "claimer", "saver"]) == "fast"
    assert engine_for("auto", ["random", "mcts"]) == "python"
    assert engine_for("python", ["random"]) == "python"
    assert simulate(["random", "greedy"], games=2, backend="serial").engine == "fast"
    assert simulate(["random", Subclassed()], games=2, backend="serial").engine == "python"
    assert core_playable(["greedy", " random "]) and not core_playable(["greedy", "mcts"])


def test_bot_objects_the_core_plays_are_the_unaltered_builtin_ones() -> None:
    class Subclassed(RandomBot):
        pass

    renamed = GreedyBot()
    renamed.name = "my-greedy"  # type: ignore[misc]
    altered = RandomBot()
    altered.choose = lambda view, legal, rng: legal[0]  # type: ignore[method-assign]
    assert (core_bot(RandomBot()), core_bot(renamed)) == ("random", "greedy")
    assert (core_bot(ClaimerBot()), core_bot(SaverBot())) == ("claimer", "saver")
    assert core_bot(AmbitiousBot()) == "ambitious"
    assert core_bot(Subclassed()) is None and core_bot(altered) is None
    assert core_bot("cmd:python bot.py") is None
    python, core = both([renamed, RandomBot()], games=2, seed=5)
    assert python == core and core[0].bots == ("my-greedy", "random")


def test_fast_refuses_in_one_line_what_it_cannot_play() -> None:
    with pytest.raises(SimulationError, match="plays only the bots random, greedy, claimer, "
                                              "saver, ambitious, not 'mcts-fast'"):  # fmt: skip
        simulate(["random", "mcts-fast"], games=1, engine="fast")
    with pytest.raises(SimulationError, match="unknown engine 'rust'"):
        simulate(["random"], games=1, players=2, engine="rust")
    spec = GameSpec("europe", "base", 1, ("random", "mcts"))
    with pytest.raises(SimulationError, match="not 'mcts'"):
        play_core_game(spec)


def test_play_game_follows_the_specs_engine() -> None:
    spec = GameSpec("usa", "base", 9, ("greedy", "random", "greedy"), record=True)
    assert play_game(spec) == play_game(attrs.evolve(spec, engine="python"))
    assert play_core_game(spec) == play_game(attrs.evolve(spec, engine="python"))


def test_the_process_pool_and_a_resumed_run_give_the_same_rows(tmp_path: Path) -> None:
    settings: dict[str, Any] = {"games": 24, "seed": 11, "players": 2}
    reference = simulate(["random", "greedy"], backend="serial", engine="python", **settings)
    out = tmp_path / "rows.jsonl"
    first = simulate(["random", "greedy"], backend="process", workers=2, out=str(out),
                     engine="fast", **{**settings, "games": 10})  # fmt: skip
    assert first.engine == "fast" and first.played == 10
    rest = simulate(["random", "greedy"], backend="process", workers=2, out=str(out),
                    resume=True, **settings)  # fmt: skip
    assert (rest.resumed, rest.played, rest.engine) == (10, 14, "fast")
    assert rest.results == reference.results


def test_the_command_line_takes_an_engine() -> None:
    def run(*argv: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "ttr_europe", *argv], capture_output=True,
                              text=True, timeout=120, check=False)  # fmt: skip

    fast_run = run("simulate", "--games", "4", "--bots", "random,greedy", "--engine", "fast",
                   "--backend", "serial", "--json")  # fmt: skip
    python_run = run("tournament", "--games", "4", "--bots", "random,greedy", "--engine",
                     "python", "--backend", "serial", "--json")  # fmt: skip
    assert fast_run.returncode == python_run.returncode == 0, fast_run.stderr + python_run.stderr
    assert '"engine": "fast"' in fast_run.stdout and '"engine": "python"' in python_run.stdout
    refused = run("simulate", "--games", "1", "--bots", "random,mcts", "--engine", "fast")
    assert refused.returncode == 2
    assert refused.stderr.strip().count("\n") == 0 and "not 'mcts'" in refused.stderr


def test_random_bot_rows_do_not_depend_on_the_process_generator() -> None:
    random.seed(1)
    one = play_core_game(GameSpec("europe", "base", 3, ("random", "random")))
    random.seed(2)
    two = play_core_game(GameSpec("europe", "base", 3, ("random", "random")))
    assert one == two
