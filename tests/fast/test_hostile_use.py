"""The compiled core used carelessly or with hostile arguments: every misuse a user can reach from
Python gets a typed error or the reference's answer, never a crash or a different game.

- ``policy_playout``'s log sized by its caller, key words and streams wider than the core reads,
  ints that are no move key;
- threads calling one game at once, and threads walking searches in games of their own;
- boards that pass the map schema but lie beyond the core (a route longer than it holds, a deal
  of more tickets than a search key names): the search bots and simulations play them in Python
  where they promise to, and ``compiled=True`` or ``engine="fast"`` refuse them in one line.

A crash is checked in a child process, so the suite survives it.
"""

from __future__ import annotations

import gc
import random
import subprocess
import sys
import textwrap
import threading
from typing import Any

import attrs
import pytest

from ttr_europe import fast
from ttr_europe.errors import BadArgumentError, BotError, MalformedActionError, SimulationError
from ttr_europe.loop import MAX_ACTIONS
from ttr_europe.maps import build_map
from ttr_europe.players import play
from ttr_europe.players.mcts import CoreMctsBot, MctsBot
from ttr_europe.rules import new_game
from ttr_europe.scoring import score
from ttr_europe.sim import simulate
from ttr_europe.sim.games import GameSpec, play_game

pytestmark = pytest.mark.skipif(
    not fast.available(), reason="the compiled core is not built (python -m ttr_europe.fast.build)"
)


def _child(code: str) -> subprocess.CompletedProcess[str]:
    """``code`` run in a fresh interpreter with this one's environment (and core)."""
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True,
                          text=True, timeout=300, check=False)  # fmt: skip


def _board(long_route: int = 3, **variant: Any) -> Any:
    """A six-city board for two or three; ``long_route`` the length of its last route, and
    ``variant`` what changes in its one variant."""
    names = ["Alder", "Birch", "Cedar", "Dale", "Elm", "Fir"]
    links = [(0, 1, 2, "red"), (0, 3, 2, "blue"), (1, 2, 2, "green"), (1, 5, 3, "yellow"),
             (2, 3, 2, "black"), (2, 4, 2, "white"), (2, 5, 2, "orange"), (3, 4, 3, "pink"),
             (4, 5, 3, "gray"), (0, 2, long_route, "gray")]  # fmt: skip
    pairs = [(a, b) for a in range(6) for b in range(a + 1, 6)] * 2  # 30 tickets
    doc = {
        "format": "ttr_europe/map", "version": 1, "id": "hostile", "name": "Hostile",
        "route_points": {"1": 1, "2": 2, "3": 4, str(long_route): 10}, "big_cities": [],
        "cities": [{"id": c, "name": c, "lat": 60.0, "lon": 5.0 + i} for i, c in enumerate(names)],
        "routes": [{"id": f"R{i}", "a": names[a], "b": names[b], "length": n, "color": colour,
                    "tunnel": False, "ferry_locomotives": 0, "double": None}
                   for i, (a, b, n, colour) in enumerate(links)],
        "tickets": [{"id": f"T{i}", "a": names[a], "b": names[b], "points": 3 + i % 7,
                     "long": False, "big_cities": False, "deck": "base"}
                    for i, (a, b) in enumerate(pairs)],
        "variants": {"base": {
            "name": "Hostile", "players": {"min": 2, "max": 3}, "trains": 12, "stations": 0,
            "station_points": 0, "hand": 4, "face_up": 5, "reset_locomotives": 3,
            "long_pool": [], "regular_pool": [{"deck": "base"}], "deal_long": 0,
            "deal_regular": 3, "keep_initial": 1, "max_long_kept": None,
            "initial_rejects": "bottom", "draw_tickets": 3, "keep_drawn": 1,
            "double_routes_min_players": 4,
            "longest_path_bonus": {"name": "Longest", "points": 5}, "tiebreaks": [],
        } | variant},
    }  # fmt: skip
    return build_map(doc)


# --------------------------------------------------------------------------- arguments


def test_a_log_narrower_than_the_cores_is_refused_not_overrun() -> None:
    """``policy_playout`` sized its log by the caller's ``words`` while the core writes five
    ints an action: one word ran past the buffer (a heap overflow, a crash)."""
    done = _child("""
        from ttr_europe import fast
        from ttr_europe.errors import BadArgumentError
        game = fast.new_game("europe", players=2, seed=1)
        for words in (1, 4, 6):
            try:
                game.policy_playout([5, 5], [1, 2], 400, words)
            except BadArgumentError as exc:
                print("refused", words, exc)
        print(game.policy_playout([5, 5], [1, 2], 400, 5)[0] > 0)
    """)
    assert done.returncode == 0, done.stderr[-2000:]
    lines = done.stdout.splitlines()
    assert [line.split()[:2] for line in lines[:3]] == [["refused", "1"], ["refused", "4"],
                                                        ["refused", "6"]]  # fmt: skip
    assert "5 ints an action" in lines[0] and lines[3] == "True"


@pytest.mark.parametrize("max_actions", [MAX_ACTIONS + 1, 10**12, 2**70])
def test_a_playout_longer_than_the_loops_cap_is_refused_before_its_log_is_made(
    max_actions: int,
) -> None:
    """The log is made for ``max_actions`` actions at once: a huge one raised an untyped
    ``MemoryError`` or ``OverflowError`` (the loop's own cap, ``MAX_ACTIONS``, is the most)."""
    game = fast.new_game("europe", players=2, seed=1)
    with pytest.raises(BadArgumentError, match=f"0 to {MAX_ACTIONS}"):
        game.policy_playout([5, 5], [1, 2], max_actions, 5)
    assert game.to_state() == new_game("europe", players=2, seed=1)  # nothing was played
    assert game.policy_playout([5, 5], [1, 2], MAX_ACTIONS, 5)[0] > 0


@pytest.mark.parametrize(
    ("keys", "streams"),
    [([[1 << 32], [1]], [1, 2]), ([[-1], [1]], [1, 2]), ([[1], [1]], [1 << 64, 2]),
     ([[1], [1]], [-1, 2])],
)  # fmt: skip
def test_key_words_and_streams_wider_than_the_core_reads_are_refused(
    keys: list[list[int]], streams: list[int]
) -> None:
    """A word cut to 32 bits (a stream to 64) on its way in seeded another game than asked."""
    game = fast.new_game("europe", players=2, seed=1)
    with pytest.raises(BadArgumentError):
        game.policy_playout([0, 0], streams, 10, 5, keys)
    if streams == [1, 2]:
        with pytest.raises(BadArgumentError):
            game.play_bots(["random", "random"], keys, 10)
    assert game.to_state() == new_game("europe", players=2, seed=1)  # nothing was played


@pytest.mark.parametrize("key", [9, 15, -1, 2 | 999 << 4, 5 | 999 << 4, 7 | 1 << 4 | 255 << 7,
                                 1 << 63, 1.5, "0"])  # fmt: skip
def test_an_int_that_is_no_move_key_is_refused_as_malformed(key: Any) -> None:
    """A kind past the last action, a route, city or ticket past the map's: ``apply_key`` and
    ``key_action`` raised ``KeyError`` or ``IndexError`` (or ctypes' own error)."""
    game = fast.new_game("europe", players=2, seed=1)
    before = game.to_state()
    with pytest.raises(MalformedActionError):
        game.key_action(key)
    with pytest.raises(MalformedActionError):
        game.apply_key(key)
    assert game.to_state() == before


def test_a_refused_position_leaves_the_game_as_it_was() -> None:
    """``load`` read a position into the game until a value was refused: a caller that caught
    the ``BadArgumentError`` and went on played a half-loaded game (its pile written past its
    end under AddressSanitizer)."""
    done = _child("""
        import attrs
        from ttr_europe import fast
        from ttr_europe.errors import BadArgumentError
        from ttr_europe.rules import new_game
        state = new_game("europe", players=2, seed=1)
        game = fast.FastGame.from_state(state)
        other = new_game("europe", players=2, seed=5)
        far = attrs.evolve(other.players[1], score=2**21)  # read last: all else is loaded
        try:
            game.load(attrs.evolve(other, players=(other.players[0], far)))
        except BadArgumentError:
            print("refused", game.to_state() == state)
        final, steps = fast.reference_playout(state, 4)
        print(game.playout(4) == steps and game.to_state() == final)
    """)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split() == ["refused", "True", "True"]


def test_a_game_made_from_rules_alone_is_the_deal_of_seed_0() -> None:
    """``FastGame(rules)`` was a block of zeros: seat 0 owned every route, the one legal move
    kept no ticket, and its scores raised ``ScoreMismatchError``."""
    state = new_game("europe", "base", 3, 0, second_card_optional=True)
    game = fast.FastGame(state.rules)
    assert game.to_state() == state
    assert game.legal_actions() == fast.FastGame.from_state(state).legal_actions()
    assert list(game.scores()) == [fast.SeatScore.of(p) for p in score(state).players]


# --------------------------------------------------------------------------- threads


def test_threads_calling_one_game_at_once_take_turns() -> None:
    """The core releases the GIL: a thread playing a game out while another read and walked
    the same game changed it under the reader (a division by zero, SIGFPE, or scores of a
    half-dealt game)."""
    done = _child("""
        import threading
        from ttr_europe import fast
        game = fast.new_game("europe", players=5, seed=1)
        stop = []
        def player():
            seed = 0
            while not stop:
                game.deal(seed)
                game.playout(seed)
                seed += 1
        faults = []
        def reader():
            for _ in range(1500):
                try:
                    game.to_state()
                    game.legal_actions()
                    game.scores()
                    game.search_step(game.current)
                except Exception as exc:  # a half-changed game: a score mismatch, say
                    faults.append(type(exc).__name__)
        threads = [threading.Thread(target=player), threading.Thread(target=reader)]
        threads[0].start(); threads[1].start(); threads[1].join(); stop.append(1)
        threads[0].join()
        print("survived", sorted(set(faults)))
    """)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == "survived []"


def _walk(seed: int) -> list[tuple[int, ...]]:
    """The keys of a search walk's steps in one game (every fifth step fresh)."""
    game = fast.new_game("europe", players=3, seed=seed)
    out = []
    for i in range(60):
        keys = game.search_step(game.current, fresh=i % 5 == 0)
        if not keys:
            break
        out.append(tuple(keys))
        game.apply_key(keys[-1] if i % 2 else keys[0])
    return out


def test_search_walks_in_threads_of_their_own_are_the_walks_alone() -> None:
    """The search's key buffer and paths memory were one a process: bots deciding at once in a
    web server's threads read each other's moves (an illegal keep, here)."""
    alone = {seed: _walk(seed) for seed in range(4)}
    wrong: list[object] = []

    def walker(seed: int) -> None:
        for _ in range(15):
            try:
                if _walk(seed) != alone[seed]:
                    wrong.append(seed)
            except Exception as exc:  # the race showed as a refused key
                wrong.append(exc)

    threads = [threading.Thread(target=walker, args=(seed,)) for seed in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert wrong == []


# --------------------------------------------------------------------------- boards


def test_compiled_rules_are_freed_with_the_last_game_that_reads_them(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A process that loads board after board (a worker handed a pickled map per task) keeps
    no compiled rules of a board it is done with."""
    lib = fast._binding._lib()
    freed: list[int] = []
    real = lib.fg_rules_free
    monkeypatch.setattr(lib, "fg_rules_free", lambda ptr: (freed.append(ptr), real(ptr))[1])
    gc.collect()
    before = len(fast._RULES)
    games = [fast.FastGame.from_state(new_game(_board(), "base", 2, seed)) for seed in range(5)]
    ptrs = [g._core._rules._ptr for g in games]
    assert len(fast._RULES) == before + 5 and len(set(ptrs)) == 5  # five boards, five rules
    freed.clear()  # an address freed before may be one of these five again
    del games[1:]
    gc.collect()
    assert sorted(p for p in freed if p in ptrs) == sorted(ptrs[1:])
    assert len(fast._RULES) == before + 1
    games[0].apply(games[0].legal_actions()[0])  # the rules of a game still playing stay
    del games
    gc.collect()
    assert sorted(p for p in freed if p in ptrs) == sorted(ptrs)
    assert len(fast._RULES) == before


def test_a_board_beyond_the_core_is_not_taken() -> None:
    assert fast.takes(new_game(_board(), "base", 2, 1).rules)
    long_route = new_game(_board(70), "base", 2, 1)
    assert not fast.takes(long_route.rules)
    with pytest.raises(BadArgumentError, match="beyond the compiled core's limits"):
        fast.FastGame.from_state(long_route)
    many = new_game(_board(draw_tickets=8), "base", 2, 1).rules
    assert fast.takes(many) and not fast.takes(many, search=True)


def test_a_search_step_whose_keys_cannot_name_the_keeps_is_refused_by_name() -> None:
    """A keep of eight tickets or more has no key: the step used to fail as 'a fault'."""
    game = fast.FastGame.from_state(new_game(_board(deal_regular=8), "base", 2, 1))
    with pytest.raises(BadArgumentError, match="more than 7 tickets"):
        game.search_step(0)


def _moves(bots: list[Any], board: Any, seed: int = 3) -> list[Any]:
    return play(new_game(board, "base", 2, seed), bots, seed=seed)


@pytest.mark.parametrize("bot", [MctsBot, CoreMctsBot])
@pytest.mark.parametrize("board", [{"long_route": 70}, {"deal_regular": 8}])
def test_the_search_bots_play_a_board_beyond_the_core_in_python(
    bot: type[MctsBot], board: dict[str, Any]
) -> None:
    """``compiled=None`` (the default) uses the core where it takes the board: beyond it the
    search raised ``BadArgumentError`` mid-game; it now plays the game ``compiled=False``
    plays."""
    m = _board(**board)
    found = _moves([bot(iterations=12), bot(iterations=12)], m)
    assert found == _moves([bot(iterations=12, compiled=False) for _ in range(2)], m)
    assert found[-1].phase.name == "GAME_OVER"


def test_compiled_true_refuses_a_board_beyond_the_core() -> None:
    with pytest.raises(BotError, match="beyond the compiled core's limits"):
        _moves([MctsBot(iterations=4, compiled=True)] * 2, _board(70))


def test_simulations_play_a_board_beyond_the_core_in_python_or_refuse_it() -> None:
    """``engine="auto"`` plays such a board in Python (the same row as ``python``'s);
    ``fast`` refuses it in one line. Both raised ``BadArgumentError`` from the core."""
    board = _board(70)
    spec = GameSpec(board, "base", 5, ("greedy", "random"))
    assert play_game(spec) == play_game(attrs.evolve(spec, engine="python"))
    with pytest.raises(SimulationError, match="cannot play this board"):
        play_game(attrs.evolve(spec, engine="fast"))
    run = simulate(["greedy", "random"], games=2, map=board, backend="serial")
    assert run.engine == "python"  # what played, not what was asked for
    with pytest.raises(SimulationError, match="cannot play this board"):
        simulate(["greedy", "random"], games=2, map=board, backend="serial", engine="fast")


def test_a_small_board_dealt_from_huge_seeds_plays_the_references_games() -> None:
    """Empty hands, a handful of trains and seeds far beyond 64 bits, both player counts."""
    rng = random.Random(0)
    for players in (2, 3):
        state = new_game(_board(trains=5, hand=0), "base", players, rng.randint(-(10**20), 10**20))
        final, steps = fast.reference_playout(state, 9)
        game = fast.FastGame.from_state(state)
        assert game.playout(9) == steps and game.to_state() == final


# --------------------------------------------------------------------------- copies


def test_copied_games_are_games_of_their_own_and_pickles_are_refused() -> None:
    """``copy.deepcopy`` and ``pickle`` copied the handle: two games on one block of memory,
    used after the first was freed (a heap use-after-free, a crash)."""
    done = _child("""
        import copy, gc, pickle
        from ttr_europe import fast
        game = fast.new_game("europe", players=2, seed=1)
        start = game.to_state()
        deep, shallow = copy.deepcopy(game), copy.copy(game)
        del game
        gc.collect()
        deep.playout(1)
        print(deep.is_terminal(), shallow.to_state() == start)
        try:
            pickle.dumps(shallow)
        except TypeError as exc:
            print("refused", "FastGame.copy()" in str(exc))
    """)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split() == ["True", "True", "refused", "True"]
