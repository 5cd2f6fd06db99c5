"""examples/python_bot.py: a bot class of the Python protocol plays whole games as a ``cmd:``
program, in the sandbox (the engine's folder named on its command line) and out of it."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

import ttr_europe
from ttr_europe.sim import tournament

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "python_bot.py"
SOURCE = Path(ttr_europe.__file__).resolve().parent.parent  # shown: an editable install's too
CITY_BOT = '''
from ttr_europe.actions import ClaimRoute
from ttr_europe.players import GreedyBot, board_of


class CityLover:
    """Claims a route into Paris first, else plays as greedy."""

    name = "city-lover"

    def __init__(self):
        self.fallback = GreedyBot()

    def choose(self, view, legal, rng):
        board = board_of(view)
        paris = board.city_index["Paris"]
        for action in legal:
            if isinstance(action, ClaimRoute):
                route = board.route(action.route)
                if paris in (route.a, route.b):
                    return action
        return self.fallback.choose(view, legal, rng)
'''


def _spec(bot_file: Path, settings: str) -> str:
    words = [sys.executable, str(EXAMPLE), str(bot_file), "CityLover", "-", str(SOURCE)]
    return f"cmd{settings}:" + " ".join(shlex.quote(w) for w in words)


def test_a_python_bot_class_plays_whole_games_as_a_program(tmp_path: Path) -> None:
    bot_file = tmp_path / "mybots.py"
    bot_file.write_text(CITY_BOT)
    sandboxed = ("",) if sys.platform.startswith("linux") else ()  # as test_sandbox.py
    for settings in (*sandboxed, "[sandbox=off]"):
        run = tournament([_spec(bot_file, settings), "greedy"], games=2, backend="serial")
        assert run.finished == 2 and run.forfeits == () and run.failures == (), settings
        assert all(row.actions > 40 for row in run.results)
