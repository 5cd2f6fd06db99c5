"""`ttr-europe tournament`: seeded games between bots, ranked by win rate, score and rating.

The same arguments and runner as `simulate`; a bot that raises or plays an illegal action
forfeits that game (a loss, listed in the summary) without failing the tournament.
"""

from __future__ import annotations

import argparse

from .common import Command
from .simulate import configure_games, run_games


def run_tournament(args: argparse.Namespace) -> int:
    return run_games(args, forfeits_fail=False)


COMMAND = Command(
    "tournament",
    "seeded games between bots: win rates with 95% intervals, mean scores, Elo-style ratings",
    configure_games,
    run_tournament,
)
