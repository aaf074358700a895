"""The Splendor rules core: pure, deterministic, immutable.

    state, events = new_game(GameConfig(num_players=2, seed=7))
    actions = legal_actions(state)
    state, events = apply(state, actions[0])

No I/O, no logging, no gRPC or protobuf here: the service wraps this package.
"""

from .action_ids import ACTION_ID_COUNT, action_from_id, action_id
from .actions import (
    Action,
    ChooseCity,
    ChooseNoble,
    DecisionAction,
    MainAction,
    Pass,
    PurchaseCard,
    ReserveCard,
    ReserveFromDeck,
    ReturnTokens,
    TakeGems,
    TakeTwoGems,
)
from .catalog import CARDS, NOBLES, Card, Noble
from .colors import COLOR_NAMES, GOLD, Color
from .config import GameConfig
from .digest import state_digest
from .engine import apply
from .errors import Reason, RuleViolation
from .events import Event
from .game_setup import new_game
from .integrity import validate_state
from .legal import legal_actions
from .state import DecisionKind, EndReason, GameState, PendingDecision, PlayerState, Standing
from .views import SPECTATOR, GameView, events_for, view_for

__all__ = [
    "ACTION_ID_COUNT",
    "CARDS",
    "COLOR_NAMES",
    "GOLD",
    "NOBLES",
    "SPECTATOR",
    "Action",
    "Card",
    "ChooseCity",
    "ChooseNoble",
    "Color",
    "DecisionAction",
    "DecisionKind",
    "EndReason",
    "Event",
    "GameConfig",
    "GameState",
    "GameView",
    "MainAction",
    "Noble",
    "Pass",
    "PendingDecision",
    "PlayerState",
    "PurchaseCard",
    "Reason",
    "ReserveCard",
    "ReserveFromDeck",
    "ReturnTokens",
    "RuleViolation",
    "Standing",
    "TakeGems",
    "TakeTwoGems",
    "action_from_id",
    "action_id",
    "apply",
    "events_for",
    "legal_actions",
    "new_game",
    "state_digest",
    "validate_state",
    "view_for",
]
