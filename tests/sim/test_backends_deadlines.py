"""A referee nothing can stop (``sim/backends.py``, ``sim/games.py``): on the serial backend, as
on the process pool, a game whose bot hangs, stops its referee or kills it ends as a forfeit of
that seat, and the run goes on; in-process bots under a clock (``GameSpec.clock``) are timed,
interrupted at their limit where Python can be, and killed with their worker where it cannot.
The Ray backend's deadlines are tested in sim/test_ray.py, a killed driver in
bots/test_sandbox.py."""

from __future__ import annotations

import contextlib
import random
import re
import shlex
import signal
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import pytest

from ttr_europe.actions import Action, parse
from ttr_europe.cli import main
from ttr_europe.players.protocol import TimeControl
from ttr_europe.rules import apply, new_game
from ttr_europe.scoring import score
from ttr_europe.sim import GameSpec, SimulationError, backends, play_game, simulate
from ttr_europe.sim.backends import DIED, OVERDUE
from ttr_europe.views import View

HOSTILE = Path(__file__).resolve().parents[1] / "players" / "hostile_bot.py"


def trusted(mode: str, arg: str = "-", move: float = 1) -> str:
    """A hostile program run without the sandbox: it can reach the process that hosts it."""
    return f"cmd[move={move},sandbox=off]:{shlex.quote(sys.executable)} {HOSTILE} {mode} {arg}"


def gone(token: str, seconds: float = 10.0) -> bool:
    """Whether, within ``seconds``, no live process has ``token`` on its command line."""
    end = time.monotonic() + seconds
    while True:
        alive = []
        for entry in Path("/proc").iterdir():
            try:
                if token.encode() in (entry / "cmdline").read_bytes():
                    alive += [] if "State:\tZ" in (entry / "status").read_text() else [entry]
            except OSError:
                continue
        if not alive:
            return True
        if time.monotonic() > end:
            return False
        time.sleep(0.1)


@pytest.fixture
def short_grace(monkeypatch: pytest.MonkeyPatch) -> None:
    """Half a second of grace past a turn's clocks (the workers are forked: they have it)."""
    monkeypatch.setattr(backends, "GRACE", 0.5)


@pytest.mark.parametrize(
    ("mode", "error"),
    [("hang", "timed out: no move answer within 1 s (move time)"),  # its own clock
     ("stop", OVERDUE),  # SIGSTOP to the process that hosts it
     ("killparent", DIED)],  # SIGKILL to it
)  # fmt: skip
def test_on_the_serial_backend_a_bot_that_hangs_stops_or_kills_its_referee_forfeits(
    short_grace: None, mode: str, error: str
) -> None:
    bot = trusted(mode)
    run = simulate([bot, "greedy"], games=2, map="usa", backend="serial", record=True)
    assert run.finished == 2 and not run.failures and run.retried == 0
    forfeits = [r.forfeit for r in run.results]
    assert [(f.seat, f.bot, f.error) for f in forfeits if f is not None] == [
        (0, bot, error),  # game g's seats are rotated by g
        (1, bot, error),
    ]
    for row, forfeit in zip(run.results, forfeits, strict=True):
        assert forfeit is not None and row.winners == (1 - forfeit.seat,)
        assert row.record is not None and len(row.record) == row.actions == forfeit.action
        assert row.dealt is not None and row.dealt != row.seed  # a cmd: seat: dealt in secret
        state = new_game("usa", players=2, seed=row.deal_seed, first_player=0)  # as sim deals
        for text in row.record:  # the game as it stood, kept from the worker's notes
            state = apply(state, parse(text))
        assert state.current == forfeit.seat
        assert row.scores == tuple(p.total for p in score(state).players)  # as it stood


class Spinner:
    """Thinks without end, in Python."""

    name = "spinner"

    def choose(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        while True:
            pass


class Stubborn:
    """Never returns, and takes the clock's interruption for its own: only killing its
    process ends it."""

    name = "stubborn"

    def choose(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        while True:
            with contextlib.suppress(BaseException):  # the point: it swallows the interruption
                time.sleep(10)


class Late:
    """Ignores the interruption and answers a while after its limit."""

    name = "late"

    def choose(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        end = time.monotonic() + 0.6
        while time.monotonic() < end:
            with contextlib.suppress(BaseException):
                time.sleep(max(0.0, end - time.monotonic()))
        return legal[0]


class Sleeper:
    """Takes 20 ms a move: inside any move limit, but not inside a game of 0.2 s."""

    name = "sleeper"

    def choose(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        time.sleep(0.02)
        return legal[0]


def spec(bot: object, clock: TimeControl | None) -> GameSpec:
    return GameSpec("usa", "base", 1, (bot, "greedy"), engine="python", clock=clock)  # type: ignore[arg-type]


def test_an_in_process_bot_is_interrupted_at_its_move_limit() -> None:
    started = time.monotonic()
    row = play_game(spec(Spinner(), TimeControl(move=0.3)))
    assert time.monotonic() - started < 5
    assert row.forfeit is not None and row.forfeit.seat == 0
    assert row.forfeit.error == "timed out: interrupted at the limit of 0.3 s (move time)"


def test_an_in_process_bot_that_answers_late_forfeits_by_its_measured_time() -> None:
    row = play_game(spec(Late(), TimeControl(move=0.3)))
    assert row.forfeit is not None and row.forfeit.seat == 0
    took = re.fullmatch(r"timed out: took ([\d.]+) s, over the limit of 0\.3 s \(move time\)",
                        row.forfeit.error)  # fmt: skip
    assert took is not None and float(took[1]) >= 0.6


def test_an_in_process_bot_runs_out_of_game_time() -> None:
    row = play_game(spec(Sleeper(), TimeControl(move=1, game=0.2)))
    assert row.forfeit is not None and row.forfeit.seat == 0
    assert "(game time)" in row.forfeit.error and row.forfeit.error.startswith("timed out: ")
    assert 4 <= row.forfeit.action <= 25  # about ten of its moves, then it is out of time


def test_an_in_process_bot_that_cannot_be_interrupted_is_killed_with_its_worker(
    short_grace: None,
) -> None:
    started = time.monotonic()
    run = simulate([Stubborn(), "greedy"], games=2, map="usa", backend="serial",
                   clock=TimeControl(move=0.3))  # fmt: skip
    assert time.monotonic() - started < 30
    assert run.finished == 2 and not run.failures
    assert [(r.forfeit.seat, r.forfeit.error) for r in run.results if r.forfeit] == [
        (0, OVERDUE),
        (1, OVERDUE),
    ]


def test_bots_within_their_clocks_play_the_same_games() -> None:
    clocked = simulate(["greedy", "random"], games=3, map="usa", backend="serial",
                       engine="python", clock=TimeControl(move=5))  # fmt: skip
    free = simulate(["greedy", "random"], games=3, map="usa", backend="serial", engine="python")
    assert clocked.results == free.results and not clocked.forfeits


def test_a_batch_that_cannot_travel_is_timed_in_this_process() -> None:
    class Local(Spinner):  # a class made in a function does not pickle: it stays here
        name = "local"

    run = simulate([Local(), "greedy"], games=1, map="usa", backend="serial",
                   clock=TimeControl(move=0.3))  # fmt: skip
    (row,) = run.results
    assert row.forfeit is not None and row.forfeit.error.startswith("timed out: interrupted")


def test_the_clock_puts_back_an_alarm_already_set() -> None:
    rang: list[int] = []

    def theirs(signum: int, frame: object) -> None:
        rang.append(signum)

    previous = signal.signal(signal.SIGALRM, theirs)
    signal.setitimer(signal.ITIMER_REAL, 50)
    try:
        play_game(spec(Spinner(), TimeControl(move=0.2)))
        assert signal.getsignal(signal.SIGALRM) is theirs
        assert 40 < signal.getitimer(signal.ITIMER_REAL)[0] < 50
        assert rang == []  # the bot's alarm was not theirs
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


@pytest.mark.parametrize("clock", [TimeControl(move=0), TimeControl(game=-1), "5", 5.0])
def test_a_clock_is_checked_before_any_game(clock: object) -> None:
    with pytest.raises(SimulationError, match="a clock is a TimeControl of positive seconds"):
        simulate(["greedy"], games=1, players=2, backend="serial", clock=clock)  # type: ignore[arg-type]


def test_the_command_line_takes_a_clock(capsys: pytest.CaptureFixture[str]) -> None:
    line = ["simulate", "--bots", "greedy,random", "--games", "2", "--map", "usa",
            "--backend", "serial", "--engine", "python", "--json"]  # fmt: skip
    assert main([*line, "--clock", "5,60"]) == 0
    assert '"forfeited": 0' in capsys.readouterr().out
    for bad in ("0", "x", "1,2,3", "inf", "-1,5"):
        with pytest.raises(SystemExit) as stop:
            main([*line, f"--clock={bad}"])
        assert stop.value.code == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "a clock is MOVE or MOVE,GAME in seconds" in err
