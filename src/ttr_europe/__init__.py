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
from .codec import ActionCodec, legal_action_mask
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
from .jsonio import dumps, from_json, loads, to_json
from .notation import parse_action
from .records import GameRecord, playthrough, random_game, replay
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
from .views import PlayerView, View, determinize, observe

__version__ = "0.1.0"

__all__ = [
    "LOCOMOTIVE",
    "Action",
    "ActionCodec",
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
    "GameRecord",
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
    "PlayerView",
    "Route",
    "Rules",
    "SetupError",
    "TTRError",
    "Ticket",
    "Variant",
    "View",
    "WithdrawTunnel",
    "__version__",
    "apply",
    "available_maps",
    "current_player",
    "determinize",
    "dumps",
    "from_json",
    "is_legal",
    "is_terminal",
    "legal_action_mask",
    "legal_actions",
    "load_map",
    "loads",
    "new_game",
    "observe",
    "parse_action",
    "playthrough",
    "random_game",
    "replay",
    "to_json",
    "why_illegal",
]
