"""ttr_europe: an exact, fast, immutable rules engine for Ticket to Ride: Europe (and USA)."""

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
from .data import available_maps, load_map
from .errors import (
    ActionParseError,
    DataError,
    GameOverError,
    IllegalActionError,
    MalformedActionError,
    NotYourTurnError,
    SetupError,
    TTRError,
)
from .rules import (
    LegalActions,
    apply,
    current_player,
    is_legal,
    is_terminal,
    legal_actions,
    new_game,
    why_illegal,
)
from .state import GameState, PendingTunnel, Phase, PlayerState, Rules

__version__ = "0.1.0"

__all__ = [
    "LOCOMOTIVE",
    "Action",
    "ActionParseError",
    "BuildStation",
    "Cards",
    "City",
    "ClaimRoute",
    "Color",
    "DataError",
    "DrawBlind",
    "DrawFaceUp",
    "DrawTickets",
    "GameOverError",
    "GameState",
    "IllegalActionError",
    "KeepTickets",
    "LegalActions",
    "MalformedActionError",
    "Map",
    "NotYourTurnError",
    "Pass",
    "PayTunnel",
    "PendingTunnel",
    "Phase",
    "PlayerState",
    "Route",
    "Rules",
    "SetupError",
    "TTRError",
    "Ticket",
    "Variant",
    "WithdrawTunnel",
    "__version__",
    "apply",
    "available_maps",
    "current_player",
    "is_legal",
    "is_terminal",
    "legal_actions",
    "load_map",
    "new_game",
    "why_illegal",
]
