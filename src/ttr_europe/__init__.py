"""ttr_europe: an exact, fast, immutable rules engine for Ticket to Ride: Europe (and USA).

The top level is what a user needs (docs/architecture.md, "The public face"): playing a game,
the actions, the cards and maps, the main errors, scores, views, JSON, records and the codes and
mask for learning. Everything else lives in its module (``ttr_europe.errors``,
``ttr_europe.state``, ...); the names that used to be here as well still resolve, from there.
"""

from typing import TYPE_CHECKING

from . import _moved
from .actions import (
    Action,
    BuildStation,
    ClaimRoute,
    DrawBlind,
    DrawFaceUp,
    DrawTickets,
    KeepTickets,
    Pass,
    PayTunnel,
    WithdrawTunnel,
)
from .board import Map
from .cards import LOCOMOTIVE, Cards, Color
from .codec import ActionCodec, legal_action_mask_bytes
from .errors import DataError, IllegalActionError, SetupError, TTRError
from .jsonio import dumps, loads
from .maps import available_maps, load_map
from .notation import parse_action
from .records import GameRecord, random_game, replay
from .rules import (
    apply,
    apply_with_events,
    current_player,
    is_legal,
    is_terminal,
    legal_actions,
    new_game,
    why_illegal,
)
from .state import GameState, Phase
from .views import View, determinize, observe

if TYPE_CHECKING:
    from .scoring import Scoreboard, outcome, returns, score

__version__ = "0.1.0"

_moved.install()  # the old import paths of moved modules still work, with a warning

_SCORING = frozenset(("Scoreboard", "outcome", "returns", "score"))
"""Loaded on first use, so that importing the package does not load networkx."""

_ELSEWHERE = {
    "City": "board", "Route": "board", "Ticket": "board", "Variant": "board",
    "ActionParseError": "errors", "CardsError": "errors", "GameOverError": "errors",
    "MalformedActionError": "errors", "NotYourTurnError": "errors",
    "ScoreMismatchError": "errors", "ScoringError": "errors",
    "legal_action_mask": "codec", "from_json": "jsonio", "to_json": "jsonio",
    "playthrough": "records", "LegalActions": "legal",
    "PendingTunnel": "state", "PlayerState": "state", "Rules": "state", "PlayerView": "views",
    "Outcome": "scoring", "PlayerScore": "scoring", "format_scoreboard": "scoring",
}  # fmt: skip
"""Names that were at the top level before it was made small, and the module that holds them."""


def __getattr__(name: str) -> object:
    """Scoring names load on first use; the names of ``_ELSEWHERE`` come from their modules."""
    home = "scoring" if name in _SCORING else _ELSEWHERE.get(name)
    if home is None:
        raise AttributeError(f"module 'ttr_europe' has no attribute {name!r}")
    from importlib import import_module

    value = getattr(import_module(f"{__name__}.{home}"), name)
    globals()[name] = value  # found directly from now on, like the eager names
    return value


__all__ = [
    "LOCOMOTIVE",
    "Action",
    "ActionCodec",
    "BuildStation",
    "Cards",
    "ClaimRoute",
    "Color",
    "DataError",
    "DrawBlind",
    "DrawFaceUp",
    "DrawTickets",
    "GameRecord",
    "GameState",
    "IllegalActionError",
    "KeepTickets",
    "Map",
    "Pass",
    "PayTunnel",
    "Phase",
    "Scoreboard",
    "SetupError",
    "TTRError",
    "View",
    "WithdrawTunnel",
    "__version__",
    "apply",
    "apply_with_events",
    "available_maps",
    "current_player",
    "determinize",
    "dumps",
    "is_legal",
    "is_terminal",
    "legal_action_mask_bytes",
    "legal_actions",
    "load_map",
    "loads",
    "new_game",
    "observe",
    "outcome",
    "parse_action",
    "random_game",
    "replay",
    "returns",
    "score",
    "why_illegal",
]
