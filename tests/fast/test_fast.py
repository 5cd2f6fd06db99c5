"""The compiled core against the reference: the same deals, legal moves in the same order, the
same states after every move, the same whole random games and the same typed errors.

- every map, variant, player count and option: setup, then seeded random games compared move
  by move (legal lists and states), and many more compared by their final states;
- hand-built edge positions: an empty pile, resets that fail or cannot help, tunnels that run
  the pile out, an empty ticket deck, the last round, a forced pass; every legal move of each;
- hostile input: near-miss and malformed actions get the reference's error class and rule;
  positions beyond the core's limits are refused with ``BadArgumentError``.

The core is optional: without a build (``python -m ttr_europe.fast.build``) these tests skip with
that reason; CI builds it, and fails on any skip.
"""

from __future__ import annotations

import contextlib
import random
from typing import Any

import attrs
import pytest

from ttr_europe import fast
from ttr_europe.actions import (
    Action,
    BuildStation,
    ClaimRoute,
    DrawBlind,
    DrawFaceUp,
    KeepTickets,
    Pass,
    PayTunnel,
)
from ttr_europe.cards import Cards
from ttr_europe.errors import (
    BadArgumentError,
    IllegalActionError,
    ScoreMismatchError,
    SetupError,
)
from ttr_europe.maps import load_map
from ttr_europe.rules import apply, is_terminal, legal_actions, new_game, why_illegal
from ttr_europe.scoring import outcome, score
from ttr_europe.state import GameState, PendingTunnel, Phase
from ttr_europe.testing import cards, finished, scenario
from ttr_europe.testing.play import configs, near_miss_action

pytestmark = pytest.mark.skipif(
    not fast.available(), reason="the compiled core is not built (python -m ttr_europe.fast.build)"
)
# An installed wheel's core works without a compiler; only the tests that build one need it.

OPTIONS: tuple[dict[str, Any], ...] = (
    {},
    {"reset_cap": 0},
    {"reset_cap": 1, "second_card_optional": True},
    {"second_card_optional": True, "tiebreak_path_length": True, "bonus_at_zero": True},
    {"max_long_kept": 0},
    {"max_long_kept": 1, "reset_cap": 2},
)


def setups() -> list[tuple[str, str, int]]:
    """Every map, variant and player count shipped."""
    out = []
    for map_id, variant in configs():
        v = load_map(map_id).variants[variant]
        out += [(map_id, variant, n) for n in range(v.min_players, v.max_players + 1)]
    return out


SETUPS = setups()


def assert_same_step(state: GameState, game: fast.FastGame, action: Action) -> GameState:
    """Apply ``action`` to both engines; the successors must be equal (or both refuse it)."""
    expected = why_illegal(state, action)
    if expected is not None:
        with pytest.raises(IllegalActionError) as caught:
            game.apply(action)
        assert (type(caught.value), caught.value.rule) == (type(expected), expected.rule), action
        assert game.to_state() == state, "a refused action changed the compiled game"
        return state
    after = apply(state, action)
    game.apply(action)
    assert game.to_state() == after, action
    return after


def assert_every_move_same(state: GameState) -> None:
    """The same legal list, and equal successors after each of its moves."""
    game = fast.FastGame.from_state(state)
    assert game.to_state() == state
    listed = list(legal_actions(state))
    assert game.legal_actions() == listed
    assert game.legal_count() == len(listed)
    for action in listed:
        copy = game.copy()
        assert_same_step(state, copy, action)


# --------------------------------------------------------------------------- setup and play


def test_available_and_built() -> None:
    assert fast.available()
    assert fast.library_path().exists()


@pytest.mark.parametrize(("map_id", "variant", "players"), SETUPS)
def test_setup_deals_the_same(map_id: str, variant: str, players: int) -> None:
    for seed, chosen in zip(range(12), OPTIONS * 2, strict=True):
        options = {} if "max_long_kept" in chosen and variant != "mega" else chosen
        first = None if seed % 3 else seed % players
        state = new_game(map_id, variant, players, seed, first_player=first, **options)
        game = fast.new_game(map_id, variant, players, seed, first_player=first, **options)
        assert game.to_state() == state
        assert fast.FastGame.from_state(state).to_state() == state


@pytest.mark.parametrize(("map_id", "variant", "players"), SETUPS)
def test_random_games_agree_move_by_move(map_id: str, variant: str, players: int) -> None:
    """Legal lists compared in full and states after every move, over two seeded games."""
    for seed in range(2):
        options = OPTIONS[(seed + players) % len(OPTIONS)]
        state = new_game(map_id, variant, players, seed, **options)
        game = fast.new_game(map_id, variant, players, seed, **options)
        rng = random.Random(seed)
        while not is_terminal(state):
            listed = list(legal_actions(state))
            assert game.legal_actions() == listed
            state = assert_same_step(state, game, listed[rng.randrange(len(listed))])
        assert game.is_terminal()
        assert game.legal_actions() == []


@pytest.mark.parametrize(("map_id", "variant", "players"), SETUPS)
def test_whole_playouts_agree(map_id: str, variant: str, players: int) -> None:
    """Compiled playouts end where the reference, replaying the same choices, ends: 150 seeded
    games a setup, 3,000 in all (the long run is scripts/fast_differential.py)."""
    for seed in range(150):
        options = OPTIONS[seed % len(OPTIONS)]
        if "max_long_kept" in options and variant != "mega":
            options = {"reset_cap": 0}
        start = new_game(map_id, variant, players, seed, **options)
        expected, steps = fast.reference_playout(start, seed + 1000)
        game = fast.FastGame.from_state(start)
        assert game.playout(seed + 1000) == steps
        assert game.to_state() == expected


def test_playout_from_the_middle_and_with_a_step_limit() -> None:
    state = new_game("europe", players=3, seed=5)
    rng = random.Random(5)
    for _ in range(150):
        options = legal_actions(state)
        state = apply(state, options[rng.randrange(len(options))])
    assert fast.playout(state, 9) == fast.reference_playout(state, 9)[0]
    game = fast.FastGame.from_state(state)
    assert game.playout(9, max_steps=3) == 3
    assert not game.is_terminal()
    with pytest.raises(BadArgumentError):
        game.playout(9, max_steps=-1)


# --------------------------------------------------------------------------- edge positions


def _tunnel_route(map_id: str = "europe") -> str:
    return next(r.id for r in load_map(map_id).routes if r.tunnel and r.colour is not None)


EDGES: dict[str, GameState] = {}


def _edges() -> dict[str, GameState]:
    if EDGES:
        return EDGES
    tunnel = _tunnel_route()
    route = load_map("europe").route(tunnel)
    assert route.colour is not None
    EDGES.update(
        {
            "empty pile, discard to reshuffle": scenario(
                hands={0: "2red+1loco"}, pile="", row="red blue green pink white",
                discard="3red+2loco+1black",
            ),
            "empty pile and discard, partial row": scenario(
                hands={0: "2red"}, pile="", row=["red", "loco", None, None, None], discard="none",
            ),
            "second draw from a partial row": scenario(
                phase=Phase.SECOND_DRAW, hands={0: "2red"}, pile="",
                row=["loco", "blue", None, None, None], discard="none",
            ),
            "a reset that repeats up to the cap": scenario(
                hands={0: "1red"}, pile="loco loco loco loco loco red loco loco",
                row="loco loco red blue green", discard="2loco", reset_cap=2,
            ),
            "a reset that cannot help, no cap": scenario(
                hands={0: "1red"}, pile="loco loco loco", row="loco loco red loco blue",
                discard="none", reset_cap=0,
            ),
            "a reset with nothing to refill": scenario(
                hands={0: "1red"}, pile="loco", row="loco loco red blue green", discard="none",
            ),
            "a tunnel with one card in the pile": scenario(
                hands={0: "6red+3loco"}, pile="red", row="blue blue green pink white",
                discard="2red+1loco",
            ),
            "a tunnel that runs the pile out": scenario(
                hands={0: "6red+3loco"}, pile="loco", row="blue blue green pink white",
                discard="none",
            ),
            "the tunnel's answer": scenario(
                phase=Phase.TUNNEL, hands={0: Cards.of({route.colour: 3, 8: 2})},
                tunnel=PendingTunnel(
                    route.index, Cards.of({route.colour: route.length}),
                    (route.colour, 8, (route.colour + 1) % 8), route.colour, 2,
                ),
            ),
            "the tunnel's answer with empty slots": scenario(
                phase=Phase.TUNNEL, hands={0: "3loco"}, pile="", discard="1blue",
                row=["red", None, None, None, None],
                tunnel=PendingTunnel(route.index, Cards.of({8: route.length}), (8,), 8, 1),
            ),
            "an empty ticket deck": scenario(hands={0: "1red"}, ticket_deck=()),
            "nothing to do but pass": scenario(
                hands={0: "none"}, pile="", row=[None] * 5, discard="none", ticket_deck=(),
                stations={0: ["Berlin", "Paris", "London"]},
            ),
            "the last round begins": scenario(hands={0: "2red+4loco"}, trains={0: 3}),
            "the last turn": scenario(hands={0: "2red"}, final_turns=1, current=1),
            "three stations to pay": scenario(
                hands={0: "5red+4loco"}, stations={0: ["Berlin", "Paris"]}
            ),
        }
    )  # fmt: skip
    return EDGES


@pytest.mark.parametrize("name", list(_edges()))
def test_edge_positions_agree_on_every_move(name: str) -> None:
    assert_every_move_same(_edges()[name])


def test_edge_positions_include_the_ticket_phases() -> None:
    start = new_game("europe", "mega", players=3, seed=4, max_long_kept=1)
    assert_every_move_same(start)
    state = apply(start, legal_actions(start)[0])
    state = apply(state, legal_actions(state)[-1])
    state = apply(state, legal_actions(state)[3])
    assert state.phase is Phase.TURN
    drawn = apply(state, next(a for a in legal_actions(state) if str(a) == "tickets"))
    assert drawn.phase is Phase.CHOOSE_TICKETS
    assert_every_move_same(drawn)


# --------------------------------------------------------------------------- hostile input


@pytest.mark.parametrize("seed", range(6))
def test_near_miss_actions_get_the_reference_errors(seed: int) -> None:
    map_id, n = ("europe", 2 + seed % 4) if seed % 3 else ("usa", 2)
    state = new_game(map_id, players=n, seed=seed, second_card_optional=seed % 2 == 0)
    game = fast.FastGame.from_state(state)
    rng = random.Random(seed)
    while not is_terminal(state):
        for _ in range(8):  # usually refused; a legal one is played by both
            state = assert_same_step(state, game, near_miss_action(rng, state))
            if is_terminal(state):
                break
        if is_terminal(state):
            break
        options = legal_actions(state)
        state = assert_same_step(state, game, options[rng.randrange(len(options))])
    for _ in range(20):  # the game is over: every action is refused the same way
        assert_same_step(state, game, near_miss_action(rng, state))


MALFORMED: tuple[object, ...] = (
    DrawFaceUp(-1), DrawFaceUp(99), DrawFaceUp(True), DrawFaceUp("1"),  # type: ignore[arg-type]
    ClaimRoute("Nowhere-Else", cards("1red")), ClaimRoute(7, cards("1red")),  # type: ignore[arg-type]
    ClaimRoute("Amsterdam-Bruxelles", (1, 0, 0, 0, 0, 0, 0, 0, 0)),  # type: ignore[arg-type]
    ClaimRoute("Amsterdam-Bruxelles", Cards((10**30, 0, 0, 0, 0, 0, 0, 0, 10**30))),
    BuildStation("atlantis", cards("1red")), BuildStation("Berlin", "1red"),  # type: ignore[arg-type]
    BuildStation("Berlin", Cards((0,) * 8 + (10**40,))), PayTunnel(cards("1red")),
    PayTunnel(None),  # type: ignore[arg-type]
    KeepTickets(["nope"]), KeepTickets([]), KeepTickets(["Brest-Petrograd", "Brest-Petrograd"]),
    KeepTickets([3]),  # type: ignore[list-item]
    "claim Paris-Dieppe with 2red", None, Pass(), DrawBlind(),
)  # fmt: skip


@pytest.mark.parametrize("phase", [Phase.TURN, Phase.SECOND_DRAW, Phase.INITIAL_TICKETS])
def test_malformed_actions_get_the_reference_errors(phase: Phase) -> None:
    starting = {0: ["Brest-Petrograd", "Lisboa-Danzig"], 1: ["Palermo-Moskva", "Cadiz-Stockholm"]}
    offers = starting if phase is Phase.INITIAL_TICKETS else None
    state = scenario(phase=phase, hands={0: "2red+2loco"}, offers=offers)
    game = fast.FastGame.from_state(state)
    for action in MALFORMED:
        assert_same_step(state, game, action)  # type: ignore[arg-type]


def test_wrong_seat_is_refused_as_the_reference_does() -> None:
    state = new_game("europe", seed=3)
    game = fast.FastGame.from_state(state)
    action = legal_actions(state)[0]
    other = 1 - state.current
    with pytest.raises(IllegalActionError) as theirs:
        apply(state, action, player=other)
    with pytest.raises(IllegalActionError) as ours:
        game.apply(action, player=other)
    assert (type(ours.value), ours.value.rule) == (type(theirs.value), theirs.value.rule)
    game.apply(action, player=state.current)
    assert game.to_state() == apply(state, action)


def seat0(state: GameState, **changes: Any) -> GameState:
    """``state`` with seat 0 changed."""
    return attrs.evolve(state, players=(attrs.evolve(state.players[0], **changes),
                                        *state.players[1:]))  # fmt: skip


def _hostile_states() -> list[GameState]:
    base = scenario(hands={0: "2red"})
    routes = len(base.owners)
    return [
        attrs.evolve(base, owners=(7,) * routes),
        attrs.evolve(base, rng=-1),
        attrs.evolve(base, rng=1 << 64),
        attrs.evolve(base, closed=(1 << 300, 0)),
        attrs.evolve(base, row=(0, 1, 2, 3, 99)),
        attrs.evolve(base, phase=Phase.TUNNEL),
        attrs.evolve(base, ticket_deck=(1000,)),
        attrs.evolve(base, ticket_deck=base.ticket_deck * 20),
        attrs.evolve(base, discard=Cards((10**6,) * 9)),
        seat0(base, trains=10**30),
        seat0(base, stations=(1, 2, 3, 4)),
        seat0(base, offer=tuple(range(17))),
        attrs.evolve(base, current=5),
        attrs.evolve(base, pile=("red",)),  # type: ignore[arg-type]
    ]


@pytest.mark.parametrize("index", range(len(_hostile_states())))
def test_positions_beyond_the_core_are_refused(index: int) -> None:
    with pytest.raises(BadArgumentError):
        fast.FastGame.from_state(_hostile_states()[index])


def test_setup_errors_are_the_reference_errors() -> None:
    bad: list[dict[str, Any]] = [
        {"map": "mars"}, {"variant": "huge"}, {"players": 9}, {"players": "2"},
        {"seed": 1.5}, {"reset_cap": -1}, {"depots": True}, {"first_player": 4},
        {"second_card_optional": 1},
    ]  # fmt: skip
    for arguments in bad:
        with pytest.raises(Exception) as theirs:
            new_game(**arguments)
        with pytest.raises(Exception) as ours:
            fast.new_game(**arguments)
        assert type(ours.value) is type(theirs.value), arguments
        assert isinstance(ours.value, SetupError | type(theirs.value))


def test_not_a_state_is_refused() -> None:
    with pytest.raises(BadArgumentError):
        fast.FastGame.from_state("europe")  # type: ignore[arg-type]
    game = fast.new_game(seed=1)
    with pytest.raises(BadArgumentError):
        game.load(new_game("usa", seed=1))


def test_deal_is_new_game_in_place() -> None:
    game = fast.new_game("usa", players=3, seed=1, reset_cap=1)
    for seed, first in ((5, None), (6, 2), (2**70, 0)):
        game.playout(seed % 100)
        game.deal(seed, first)
        assert game.to_state() == new_game("usa", players=3, seed=seed, first_player=first,
                                           reset_cap=1)  # fmt: skip
    for bad in ((1.5, None), (1, 3), (1, True)):
        with pytest.raises(SetupError):
            game.deal(*bad)  # type: ignore[arg-type]


@pytest.mark.parametrize("seed", range(4))
def test_mutated_positions_are_refused_or_played_safely(seed: int) -> None:
    """Random values written into a position's flat layout: the core refuses the position with
    ``BadArgumentError`` or plays on from it; it never crashes (run under ASan, docs/fast.md)."""
    from ttr_europe.fast import _state_array

    rng = random.Random(seed)
    state = new_game("europe", players=3, seed=seed)
    state = fast.playout(state, seed) if seed % 2 else state
    layout = _state_array(state)
    extremes = (-(2**63), -(2**31), -2, -1, 0, 1, 2, 3, 5, 8, 9, 15, 16, 17, 100, 255, 256,
                1023, 1024, 2**20, 2**31, 2**63 - 1)  # fmt: skip
    accepted = 0
    for _ in range(300):
        values = list(layout)
        for _ in range(rng.randrange(1, 4)):
            values[rng.randrange(len(values))] = rng.choice(extremes)
        if rng.random() < 0.2:
            values = values[: rng.randrange(len(values))]
        game = fast.FastGame(state.rules)
        code = game._core.load(values)
        if code:
            continue
        accepted += 1
        game.legal_actions()
        with contextlib.suppress(ScoreMismatchError):  # a mutated score or owner
            game.scores()
        game.playout(rng.randrange(100), max_steps=400)
        game.legal_actions()
        game.to_state()
    assert accepted > 0


# --------------------------------------------------------------------------- scoring


def assert_same_scores(state: GameState) -> None:
    """``FastGame.scores``/``outcome`` against ``scoring.score``/``outcome``, every figure."""
    expected = tuple(fast.SeatScore.of(p) for p in score(state).players)
    game = fast.FastGame.from_state(state)
    assert game.scores() == expected
    assert game.outcome() == outcome(state)


@pytest.mark.parametrize(("map_id", "variant", "players"), SETUPS)
def test_scores_of_random_games_agree(map_id: str, variant: str, players: int) -> None:
    """Final scores (and provisional ones halfway) of seeded random games."""
    for seed in range(15):
        options = OPTIONS[seed % len(OPTIONS)]
        if "max_long_kept" in options and variant != "mega":
            options = {"tiebreak_path_length": True}
        start = new_game(map_id, variant, players, seed, **options)
        game = fast.FastGame.from_state(start)
        game.playout(seed, max_steps=120)
        assert_same_scores(game.to_state())
        game.playout(seed)
        assert_same_scores(game.to_state())


def hand_scored() -> dict[str, GameState]:
    """Positions of tests/scoring/test_scoring_by_hand.py and a few like them: stations that borrow
    (one route for several tickets, chains of stations), ties decided by each criterion."""
    from positions import FOUR_DISJOINT_THREES, worked

    chained = {"Munchen-Zurich": 0, "Munchen-Wien": 1, "Budapest-Wien-red": 1}
    routes = load_map("europe").routes
    return {
        "a dense network (25 routes)": finished(
            dict.fromkeys([r.id for r in routes[:25]], 0), check=False
        ),
        "a denser one, beyond the C search's budget": finished(
            dict.fromkeys([r.id for r in routes[:40]], 1), check=False
        ),
        "worked example (three stations borrow)": worked(),
        "worked example, path option": attrs.evolve(
            worked(), rules=attrs.evolve(worked().rules, tiebreak_path_length=True)
        ),
        "bonus to three tied seats": finished(
            {
                "Brest-Pamplona": 0,
                "Berlin-Danzig": 1,
                "Amsterdam-Frankfurt": 2,
                "Frankfurt-Munchen": 2,
                "Cadiz-Madrid": 3,
            },
            players=4,
        ),
        "nobody has track": finished({}, players=3),
        "nobody has track, bonus at zero": finished({}, players=3, bonus_at_zero=True),
        "tie on total, the card decides": finished(
            {"Brest-Pamplona": 0, **FOUR_DISJOINT_THREES}, players=2
        ),
        "tie on total, path option": finished(
            {"Brest-Pamplona": 0, **FOUR_DISJOINT_THREES}, players=2, tiebreak_path_length=True
        ),
        "tie, fewer stations decide": finished(
            {
                "Petrograd-Stockholm": 0,
                "Budapest-Kyiv": 1,
                "Athina-Sarajevo": 1,
                "Cadiz-Madrid": 1,
                "Amsterdam-Bruxelles": 1,
            },
            players=2,
            stations={0: ["Lisboa"]},
        ),
        "tie, completed tickets decide": finished(
            {
                "Petrograd-Stockholm": 0,
                "Athina-Smyrna": 1,
                "Angora-Smyrna": 1,
                "Budapest-Kyiv": 1,
                "Cadiz-Madrid": 1,
                "Amsterdam-Bruxelles": 1,
            },
            players=2,
            tickets={1: ["Athina-Angora"]},
        ),
        "a chain of stations": finished(
            chained,
            players=3,
            stations={2: ["Zurich", "Munchen", "Budapest"]},
            tickets={2: ["Zurich-Budapest"]},
        ),
        "two stations, one needed": finished(
            chained,
            players=3,
            stations={2: ["Zurich", "Wien"]},
            tickets={2: ["Zurich-Budapest", "Paris-Wien"]},
        ),
    }


@pytest.mark.parametrize("name", list(hand_scored()))
def test_scores_of_hand_built_positions_agree(name: str) -> None:
    assert_same_scores(hand_scored()[name])


def test_a_running_score_that_differs_is_refused_alike() -> None:
    state = finished({"Brest-Pamplona": 0}, players=2)
    wrong = seat0(state, score=3)
    with pytest.raises(ScoreMismatchError) as theirs:
        score(wrong)
    with pytest.raises(ScoreMismatchError) as ours:
        fast.FastGame.from_state(wrong).scores()
    assert str(ours.value) == str(theirs.value)


def test_the_long_differential_script_runs(capsys: pytest.CaptureFixture[str]) -> None:
    from repo_scripts import load_script

    script = load_script("fast_differential")
    assert script.main(["--games", "12", "--seed", "500"]) == 0
    assert "12 games over" in capsys.readouterr().out
    assert script.check_game(3, script.setups()) is None


# --------------------------------------------------------------------------- the greedy policy


@pytest.mark.parametrize(("map_id", "variant", "players"), SETUPS)
def test_greedy_playouts_are_mcts_playouts(map_id: str, variant: str, players: int) -> None:
    """``FastGame.greedy_playout`` plays move for move as ``mcts.Playout.finish``, from the
    deal and from positions reached by random play (the policy's remembered paths start empty
    in both)."""
    from ttr_europe.players.mcts import Playout

    for seed in range(4):
        options = OPTIONS[(seed + players) % len(OPTIONS)]
        if "max_long_kept" in options and variant != "mega":
            options = {"second_card_optional": True}
        state = new_game(map_id, variant, players, seed, **options)
        rng = random.Random(seed)
        for _ in range(rng.randrange(0, 160) if seed else 0):
            if is_terminal(state):
                break
            options_here = legal_actions(state)
            state = apply(state, options_here[rng.randrange(len(options_here))])
        expected = Playout(state.rules.map).finish(state)
        game = fast.FastGame.from_state(state)
        game.greedy_playout()
        assert game.to_state() == expected


def test_greedy_playout_stops_at_its_limit() -> None:
    game = fast.new_game("usa", players=2, seed=3)
    assert game.greedy_playout(max_steps=7) == 7
    assert not game.is_terminal()
    assert game.greedy_playout() > 0 and game.is_terminal()
    assert game.greedy_playout() == 0
    with pytest.raises(BadArgumentError):
        game.greedy_playout(max_steps=-2)


def test_mcts_with_the_core_grows_the_same_tree(monkeypatch: pytest.MonkeyPatch) -> None:
    """With an iteration budget, ``MctsBot(compiled=True)`` makes the same decisions from the
    same randomness as the pure-Python bot, its tree node for node: the compiled playouts are
    the same games with the same rewards."""
    from ttr_europe.players.mcts import MctsBot
    from ttr_europe.views import observe

    state = new_game("europe", players=2, seed=11)
    rng = random.Random(11)
    for _ in range(40):
        options = legal_actions(state)
        state = apply(state, options[rng.randrange(len(options))])
    while state.phase is not Phase.TURN:
        state = apply(state, legal_actions(state)[0])
    view = observe(state, state.current)
    trees = []
    for compiled in (True, False):
        bot = MctsBot(iterations=24, compiled=compiled)
        assert bot.compiled is compiled
        move = bot.choose(view, legal_actions(state), random.Random(5))
        root = bot.last_tree
        assert root is not None
        children = {str(m): (n.visits, n.total, n.squares) for m, n in root.children.items()}
        trees.append((move, children))
    assert trees[0] == trees[1]
    assert MctsBot(iterations=1).compiled  # built: used by default
    monkeypatch.setattr(fast, "available", lambda: False)
    assert not MctsBot(iterations=1).compiled
    with pytest.raises(SetupError, match="not built"):
        MctsBot(iterations=1, compiled=True)
    with pytest.raises(SetupError):
        MctsBot(iterations=1, compiled="yes")  # type: ignore[arg-type]


def test_a_large_offer_is_listed_in_one_walk() -> None:
    """Twelve tickets on offer: 4,083 keep choices, listed, masked and chosen from without a
    walk per choice (a quadratic listing would take minutes at the core's limit of 16)."""
    board = load_map("europe")
    offer = [t.id for t in board.tickets[:12]]
    state = scenario(phase=Phase.INITIAL_TICKETS, offers={0: offer}, hands={0: "2red"}, check=False)
    game = fast.FastGame.from_state(state)
    listed = game.legal_actions()
    assert listed == list(legal_actions(state)) and len(listed) == 2**12 - 1 - 12  # two or more
    from ttr_europe.players.mcts import Playout

    playout = Playout(board)
    game.greedy_playout(max_steps=1)
    assert game.to_state() == apply(state, playout.choose(state))
