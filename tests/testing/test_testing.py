"""The scenario builder and the refusal checker that the other tests stand on."""

from __future__ import annotations

import random
import subprocess
import sys
import time
from collections.abc import Sequence

import pytest

from ttr_europe import (
    Action,
    Cards,
    ClaimRoute,
    DrawBlind,
    DrawFaceUp,
    SetupError,
    View,
    loads,
)
from ttr_europe.jsonio import dumps
from ttr_europe.players import RandomBot
from ttr_europe.testing import card_total, check_bot, refusal, scenario


def test_refusal_returns_the_error_and_rejects_accepted_actions() -> None:
    s = scenario(row="loco red red red red")
    assert refusal(s, DrawFaceUp(7)).rule == "input"
    with pytest.raises(AssertionError, match="was accepted"):
        refusal(s, DrawBlind())


def test_scenario_keeps_every_card_and_ticket_so_it_round_trips() -> None:
    """Unplaced cards go to the pile and unplaced tickets to the box: the state is complete."""
    s = scenario(
        hands={0: "2red+1loco"},
        row="red blue loco red green",
        owners={"Berlin-Wien": 1},
        stations={0: ["Paris"]},
        tickets={0: ["Berlin-Roma"]},
    )
    assert card_total(s).total == 110
    pools = s.rules.variant.long_pool + s.rules.variant.regular_pool
    placed = [*s.ticket_deck, *s.box, *(t for p in s.players for t in (*p.tickets, *p.offer))]
    assert sorted(placed) == sorted(pools)
    assert loads(dumps(s)) == s


def test_scenario_refuses_unknown_tickets() -> None:
    with pytest.raises(SetupError, match="Nowhere-Else"):
        scenario(ticket_deck=["Nowhere-Else"])
    with pytest.raises(SetupError, match="Atlantis"):
        scenario(tickets={0: ["Atlantis-Paris"]})


# --------------------------------------------------------------------------- public strategies


class _IllegalBot:
    """Always claims a route it cannot pay for."""

    name = "illegal"

    def choose(self, view: object, legal: object, rng: object) -> object:
        return ClaimRoute("Berlin-Wien", Cards.parse("9red"))


class _CrashingBot:
    name = "crash"

    def choose(self, view: object, legal: object, rng: object) -> object:
        raise RuntimeError("boom")


class _SlowBot(RandomBot):
    def choose(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        time.sleep(0.02)
        return super().choose(view, legal, rng)


def test_check_bot_passes_a_sound_bot_and_names_each_bad_move() -> None:
    assert check_bot(RandomBot(), games=2) == []
    (illegal,) = check_bot(_IllegalBot(), games=1, seed=5)
    assert illegal.kind == "illegal" and illegal.seed == 5 and illegal.move >= 0
    assert "Berlin-Wien" in str(illegal)
    faults = check_bot(_CrashingBot(), games=3)
    assert [f.kind for f in faults] == ["crash"] * 3
    assert "boom" in faults[0].detail
    slow = check_bot(_SlowBot(), games=1, max_seconds=0.01, max_actions=3)
    assert [f.kind for f in slow] == ["slow"] * 3


class _QuittingBot:
    name = "quit"

    def choose(self, view: object, legal: object, rng: object) -> object:
        raise KeyboardInterrupt


def test_check_bot_lets_an_interrupt_from_the_bots_thread_go_on_up() -> None:
    """Each decision is asked in a thread of its own; an interrupt there is not a crash to
    report but the checker's own stop, raised in the caller's thread as it would be."""
    with pytest.raises(KeyboardInterrupt):
        check_bot(_QuittingBot(), games=1)
    with pytest.raises(KeyboardInterrupt):
        check_bot(_QuittingBot(), games=1, worlds=0)


def test_check_bot_against_opponents_reports_only_the_bot_under_test() -> None:
    faults = check_bot(RandomBot(), games=2, opponents=[_CrashingBot()])
    assert faults == []


class _SilentBot:
    """Answers None, as a bot whose ``choose`` forgot its ``return`` does."""

    name = "silent"

    def choose(self, view: object, legal: object, rng: object) -> object:
        return None


def test_check_bot_reports_a_bot_answering_none_as_an_illegal_move() -> None:
    """None is an answer (a wrong one), not the checker's own mark of no answer yet."""
    for worlds in (1, 0):
        faults = check_bot(_SilentBot(), games=2, worlds=worlds)
        assert [(f.kind, f.move) for f in faults] == [("illegal", 0)] * 2
        assert "None" in faults[0].detail


class _ExitingBot:
    name = "exits"

    def choose(self, view: object, legal: object, rng: object) -> object:
        raise SystemExit("bye")


def test_check_bot_reports_a_bot_calling_exit_as_a_crash() -> None:
    """``exit()`` in a bot is its crash to report, not the end of the checker's program."""
    for worlds in (1, 0):
        faults = check_bot(_ExitingBot(), games=2, worlds=worlds)
        assert [(f.kind, f.move) for f in faults] == [("crash", 0)] * 2
        assert faults[0].detail == "SystemExit('bye')"


class _Watcher(RandomBot):
    """Counts the moves it is shown (``see``) and refuses to choose again without having been
    shown the moves since its last choice, as a bot keeping the public hands in memory needs."""

    name = "watcher"

    def __init__(self, see_fails: bool = False) -> None:
        self.seen = self.chosen = 0
        self.see_fails = see_fails

    def see(self, view: View, move: Action | None) -> None:
        if self.see_fails:
            raise ValueError("cannot follow")
        self.seen += 1

    def choose(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        if self.seen < self.chosen:
            raise RuntimeError(f"shown {self.seen} moves after {self.chosen} choices")
        self.chosen += 1
        return super().choose(view, legal, rng)


def test_check_bot_shows_every_move_to_a_bot_that_watches_as_the_drivers_do() -> None:
    """``see`` is part of a bot as the game drivers run it (``tell``): checked without it, a
    bot keeping memory would crash, and one whose ``see`` fails would pass."""
    assert check_bot(_Watcher(), games=2) == []
    assert check_bot(_Watcher(), games=1, opponents=[RandomBot()], worlds=0) == []
    faults = check_bot(_Watcher(see_fails=True), games=2)
    assert [(f.kind, f.move) for f in faults] == [("crash", 0)] * 2
    assert faults[0].detail == "see raised ValueError: cannot follow"


class _GlobalRandomBot:
    """Draws from the ``random`` module instead of the generator it is handed."""

    name = "global-random"

    def choose(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        return legal[random.randrange(len(legal))]


def test_check_bot_tells_a_bot_ignoring_its_generator_from_one_that_peeks() -> None:
    """Its answers differ in another world as a peeking bot's do, but also when it is asked
    again in the same one: that is what it is told, not that it reads hidden cards."""
    faults = check_bot(_GlobalRandomBot(), games=2)
    assert [f.kind for f in faults] == ["unrepeatable"] * 2
    assert "asked again in the same world" in faults[0].detail
    assert "rng" in faults[0].detail


def test_testing_imports_without_hypothesis() -> None:
    """The scenario builder works where hypothesis is not installed; strategies then fail."""
    code = (
        "import sys; sys.modules['hypothesis'] = None\n"
        "import ttr_europe.testing as t\n"
        "assert t.scenario(hands={0: '2red'}).players[0].hand.total == 2\n"
        "try:\n    t.states\nexcept ImportError:\n    print('no hypothesis')\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "no hypothesis"
