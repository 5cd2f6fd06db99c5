"""ttr_europe: an exact, fast, immutable rules engine for Ticket to Ride: Europe (and USA)."""

from typing import TYPE_CHECKING

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
from .board import City, Map, Route, Ticket, Variant
from .cards import LOCOMOTIVE, Cards, Color
from .codec import ActionCodec, legal_action_mask
from .data import available_maps, load_map
from .errors import (
    ActionParseError,
    CardsError,
    DataError,
    GameOverError,
    IllegalActionError,
    MalformedActionError,
    NotYourTurnError,
    ScoreMismatchError,
    ScoringError,
    SetupError,
    TTRError,
)
from .jsonio import dumps, from_json, loads, to_json
from .notation import parse_action
from .records import GameRecord, playthrough, random_game, replay
from .rules import (
    LegalActions,
    apply,
    apply_with_events,
    current_player,
    is_legal,
    is_terminal,
    legal_actions,
    new_game,
    why_illegal,
)
from .state import GameState, PendingTunnel, Phase, PlayerState, Rules
from .views import PlayerView, View, determinize, observe

if TYPE_CHECKING:
    from .scoring import (
        Outcome,
        PlayerScore,
        Scoreboard,
        format_scoreboard,
        outcome,
        returns,
        score,
    )

__version__ = "0.1.0"

_SCORING = frozenset(
    ("Outcome", "PlayerScore", "Scoreboard", "format_scoreboard", "outcome", "returns", "score")
)  # fmt: skip


def __getattr__(name: str) -> object:
    """Scoring names load on first use, so that importing the package does not load networkx."""
    if name in _SCORING:
        from . import scoring

        value = getattr(scoring, name)
        globals()[name] = value  # found directly from now on, like the eager names
        return value
    raise AttributeError(f"module 'ttr_europe' has no attribute {name!r}")


__all__ = [
    "LOCOMOTIVE",
    "Action",
    "ActionCodec",
    "ActionParseError",
    "BuildStation",
    "Cards",
    "CardsError",
    "City",
    "ClaimRoute",
    "Color",
    "DataError",
    "DrawBlind",
    "DrawFaceUp",
    "DrawTickets",
    "GameOverError",
    "GameRecord",
    "GameState",
    "IllegalActionError",
    "KeepTickets",
    "LegalActions",
    "MalformedActionError",
    "Map",
    "NotYourTurnError",
    "Outcome",
    "Pass",
    "PayTunnel",
    "PendingTunnel",
    "Phase",
    "PlayerScore",
    "PlayerState",
    "PlayerView",
    "Route",
    "Rules",
    "ScoreMismatchError",
    "Scoreboard",
    "ScoringError",
    "SetupError",
    "TTRError",
    "Ticket",
    "Variant",
    "View",
    "WithdrawTunnel",
    "__version__",
    "apply",
    "apply_with_events",
    "available_maps",
    "current_player",
    "determinize",
    "dumps",
    "format_scoreboard",
    "from_json",
    "is_legal",
    "is_terminal",
    "legal_action_mask",
    "legal_actions",
    "load_map",
    "loads",
    "new_game",
    "observe",
    "outcome",
    "parse_action",
    "playthrough",
    "random_game",
    "replay",
    "returns",
    "score",
    "to_json",
    "why_illegal",
]
