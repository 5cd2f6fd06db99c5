"""The bot protocol: bots see views only, play legal complete games, and fail with BotError."""

from __future__ import annotations

import itertools
import random
import sys
from collections.abc import Sequence

import attrs
import pytest

from ttr_europe import apply, new_game
from ttr_europe.actions import Action, ClaimRoute, KeepTickets
from ttr_europe.cards import Cards
from ttr_europe.errors import BotError, SetupError, TTRError
from ttr_europe.players import Bot, GreedyBot, RandomBot, decide, play, tell
from ttr_europe.rules import legal_actions
from ttr_europe.scoring import score
from ttr_europe.state import GameState, Phase
from ttr_europe.views import View, observe


@pytest.mark.parametrize(("map_id", "players"), [("europe", 2), ("europe", 4), ("usa", 3)])
def test_bots_finish_games_with_legal_moves(map_id: str, players: int) -> None:
    state = new_game(map_id, players=players, seed=11)
    bots: list[Bot] = [GreedyBot() if s % 2 == 0 else RandomBot() for s in range(players)]
    history = play(state, bots, seed=3)
    assert history[0] is state
    assert history[-1].phase is Phase.GAME_OVER
    assert all(s.phase is not Phase.GAME_OVER for s in history[:-1])
    assert all(after != before for before, after in itertools.pairwise(history))


def test_a_game_is_fixed_by_its_seed() -> None:
    state = new_game("europe", players=3, seed=4)
    bots = [RandomBot(), GreedyBot(), RandomBot()]
    assert play(state, bots, seed=9) == play(state, bots, seed=9)
    assert play(state, bots, seed=9)[-1] != play(state, bots, seed=10)[-1]


class Spy:
    """Records what it is given and plays uniformly."""

    name = "spy"

    def __init__(self) -> None:
        self.seen: list[tuple[View, list[Action]]] = []

    def choose(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        self.seen.append((view, list(legal)))
        return legal[rng.randrange(len(legal))]


def test_a_bot_gets_its_seats_view_and_the_legal_actions_only() -> None:
    spy = Spy()
    history = play(new_game("europe", players=2, seed=2), [spy, GreedyBot()], seed=1)
    asked = [s for s in history[:-1] if s.current == 0]
    assert len(spy.seen) == len(asked) > 20
    for state, (view, legal) in zip(asked, spy.seen, strict=True):
        assert view == observe(state, 0)
        assert view.players[1].hand is None and view.players[1].tickets is None
        assert legal == list(legal_actions(state))
    assert not any(isinstance(x, GameState) for view, _ in spy.seen for x in attrs.astuple(view))


def test_greedy_reads_no_hidden_cards() -> None:
    """Worlds that differ only in what seat 0 cannot see get the same decision from it."""
    from ttr_europe.views import determinize

    state = new_game("europe", players=3, seed=5)
    for _ in range(60):  # into the middle of a game
        state = apply(state, decide(GreedyBot(), state, random.Random(0)))
    for k in range(4):
        world = determinize(state, state.current, random.Random(k))
        assert observe(world, state.current) == observe(state, state.current)
        assert decide(GreedyBot(), world, random.Random(7)) == decide(
            GreedyBot(), state, random.Random(7)
        )


def test_greedy_beats_random_most_of_the_time() -> None:
    """The greedy bot connects its tickets, so it should win against a random player."""
    wins = 0
    for seed in range(10):
        final = play(
            new_game("europe", players=2, seed=seed), [GreedyBot(), RandomBot()], seed=seed
        )
        wins += score(final[-1]).winners == (0,)
    assert wins >= 9


# --------------------------------------------------------------------------- bad bots


ROUTE = "Amsterdam-Bruxelles"


class Illegal:
    name = "cheater"

    def choose(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        return ClaimRoute(ROUTE, Cards())


class Raises:
    name = "crasher"

    def choose(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        raise KeyError("lost my map")


class Nonsense:
    def choose(self, view: View, legal: Sequence[Action], rng: random.Random) -> object:
        return "claim everything"


def test_an_illegal_answer_names_the_bot_seat_and_action() -> None:
    state = new_game("europe", players=2, seed=1)
    with pytest.raises(BotError, match=r"bot 'cheater' \(seat 0\): illegal action claim") as info:
        decide(Illegal(), state, random.Random(0))
    assert info.value.bot == "cheater" and info.value.seat == 0
    assert info.value.action == ClaimRoute(ROUTE, Cards())
    assert "R9" in str(info.value)  # the starting tickets come first


def test_a_bot_that_raises_is_named_and_the_cause_kept() -> None:
    state = new_game("europe", players=2, seed=1)
    with pytest.raises(BotError, match=r"bot 'crasher' \(seat 0\): raised KeyError") as info:
        decide(Raises(), state, random.Random(0))
    assert isinstance(info.value.__cause__, KeyError)
    assert info.value.action is None


def test_a_nameless_bot_answering_nonsense_is_named_by_its_class() -> None:
    state = new_game("europe", players=2, seed=1)
    with pytest.raises(BotError, match=r"bot 'Nonsense'.*not an action"):
        decide(Nonsense(), state, random.Random(0))  # type: ignore[arg-type]


class Answers:
    """Answers ``answer`` to every question: the wrong kinds of thing a bot may return."""

    def __init__(self, answer: object) -> None:
        self.name = "answers"
        self.answer = answer

    def choose(self, view: View, legal: Sequence[Action], rng: random.Random) -> object:
        return self.answer


@pytest.mark.parametrize(
    ("answer", "said"),
    [
        (None, "answered None, which is not an action: choose must return one of its legal list"),
        ("draw blind", "answered 'draw blind' (a str), which is not an action: choose must"),
        (0, "answered 0 (an int), which is not an action: choose must return one of its legal"),
    ],
)
def test_an_answer_that_is_no_action_says_what_was_answered_not_that_it_was_illegal(
    answer: object, said: str
) -> None:
    """A bot that forgot its ``return``, or answered a notation or an index, is told what it
    answered and what is wanted, not that the move "None" or "draw blind" broke a rule."""
    state = new_game("europe", players=2, seed=1)
    with pytest.raises(BotError) as info:
        decide(Answers(answer), state, random.Random(0))  # type: ignore[arg-type]
    assert str(info.value).startswith(f"bot 'answers' (seat 0): {said}")
    assert "illegal action" not in str(info.value) and info.value.action == answer


class Exits:
    """Calls ``sys.exit``, as a script turned into a bot may; ``see`` too when ``watching``."""

    name = "exits"

    def __init__(self, watching: bool = False) -> None:
        self.watching = watching

    def choose(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        raise SystemExit("bye")

    def see(self, view: View, move: Action | None) -> None:
        if self.watching:
            sys.exit(3)


def test_a_bot_calling_exit_fails_its_decision_and_not_the_program() -> None:
    """``exit()`` in a bot ends its game (a BotError: a forfeit, a stand-in), not the run."""
    state = new_game("europe", players=2, seed=1)
    with pytest.raises(BotError, match=r"^bot 'exits' \(seat 0\): raised SystemExit: bye$"):
        decide(Exits(), state, random.Random(0))
    action = legal_actions(state)[0]
    with pytest.raises(BotError, match=r"^bot 'exits' \(seat 1\): see raised SystemExit: 3$"):
        tell([None, Exits(watching=True)], state, action)


def test_an_interrupt_in_a_bot_still_stops_the_program() -> None:
    class Interrupted(Exits):
        def choose(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        decide(Interrupted(), new_game("europe", players=2, seed=1), random.Random(0))


class Meddles:
    """Tries to change what it is handed, in the way ``part`` names."""

    name = "meddles"

    def __init__(self, part: str) -> None:
        self.part = part

    def choose(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        if self.part == "view":
            view.players[0].trains = 0  # type: ignore[misc]
        elif self.part == "item":
            legal[0] = legal[-1]  # type: ignore[index]
        else:
            legal.sort()  # type: ignore[attr-defined]
        return legal[0]


@pytest.mark.parametrize(
    ("part", "raised"),
    [("view", "FrozenInstanceError"), ("item", "TypeError"), ("sort", "AttributeError")],
)
def test_a_bot_cannot_change_its_view_or_its_legal_list(part: str, raised: str) -> None:
    """docs/bots.md: what a bot is handed is frozen, so meddling raises and changes nothing."""
    state = new_game("europe", players=2, seed=1)
    legal = legal_actions(state)
    before = (observe(state, 0), list(legal))
    with pytest.raises(BotError, match=rf"bot 'meddles' \(seat 0\): raised {raised}"):
        decide(Meddles(part), state, random.Random(0))
    assert (observe(state, 0), list(legal_actions(state))) == before


class Unprintable:
    def __str__(self) -> str:
        raise RuntimeError("no")


class AnswersUnprintable:
    name = "odd"

    def choose(self, view: View, legal: Sequence[Action], rng: random.Random) -> object:
        return Unprintable()


def test_an_unprintable_answer_is_still_reported() -> None:
    state = new_game("europe", players=2, seed=1)
    with pytest.raises(BotError, match=r"bot 'odd' \(seat 0\): answered <.*Unprintable"):
        decide(AnswersUnprintable(), state, random.Random(0))  # type: ignore[arg-type]


def test_play_needs_one_bot_per_seat() -> None:
    with pytest.raises(SetupError, match="1 bots for 2 seats"):
        play(new_game("europe", players=2, seed=1), [GreedyBot()])


def test_no_decision_after_the_end() -> None:
    final = play(new_game("europe", players=2, seed=1), [GreedyBot(), GreedyBot()])[-1]
    with pytest.raises(BotError, match="after the game ended"):
        decide(GreedyBot(), final, random.Random(0))


def test_a_failing_bot_leaves_the_game_usable() -> None:
    state = new_game("europe", players=2, seed=1)
    with pytest.raises(TTRError):
        decide(Raises(), state, random.Random(0))
    action = decide(GreedyBot(), state, random.Random(0))
    assert isinstance(action, KeepTickets)
    assert apply(state, action).phase is Phase.INITIAL_TICKETS
