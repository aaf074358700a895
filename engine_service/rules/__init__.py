"""The Splendor rules core: pure, deterministic, immutable. Its public face, for the service and other adapters.

    state, events = new_game(GameConfig(num_players=2, seed=7))
    actions = legal_actions(state)
    state, events = apply(state, actions[0])

No I/O, no logging, no gRPC or protobuf here: the service wraps this package.
Modules (``modules/<name>/``) register with ``registry``; their own records
and states are reached through their packages or ``registered_modules()``.
"""

from typing import Final

from . import modules as _built_in_modules  # noqa: F401  (registers the four modules: last)
from . import registry
from .action_ids import MAX_DECKS, IdLayout, IdRange, id_range, single_id, snake_case
from .actions import (
    Action,
    ChooseNoble,
    DecisionAction,
    Decline,
    MainAction,
    Pass,
    PurchaseCard,
    ReserveCard,
    ReserveFromDeck,
    ReturnTokens,
    TakeGems,
    TakeTwoGems,
)
from .catalog import BASE_CARDS, BASE_DECKS, CARDS, NOBLES, Card, CardKind, Noble
from .colors import COLOR_NAMES, GOLD, Color
from .config import GameConfig, new_game_config
from .decisions import DecisionKind, decision_kind
from .digest import IncrementalDigest, state_digest
from .engine import apply
from .errors import Reason, RuleViolation
from .events import (
    CardPurchased,
    CardReserved,
    CardRevealed,
    CardSource,
    DecisionRequired,
    Event,
    FinalRoundTriggered,
    GameEnded,
    GameStarted,
    GemsReturned,
    GemsTaken,
    GoldReceived,
    MarketSlotEmptied,
    NobleVisited,
    Passed,
    TurnEnded,
)
from .game_setup import new_game
from .integrity import validate_state
from .legal import legal_actions
from .market import MARKET_SLOTS
from .module_state import ModuleStateSlot
from .observation import (
    Observation,
    ObservationLayout,
    ObservationSlice,
    encode_view,
    legal_action_ids,
    legal_action_mask,
    observation_layout,
    observation_layouts,
    observation_values,
    observe,
)
from .plugin import DeckSpec, FollowUp, Module, PaymentRules, Price
from .records import distinct_kind
from .registry import (
    action_from_id,
    action_id,
    id_layout,
    known_modules,
    module_named,
    modules_using,
    registered,
    registered_modules,
)
from .ruleset import ruleset_for
from .state import EndReason, GameState, PendingDecision, PlayerState, Standing, new_pending_decision, new_player_state
from .turn import AwardOne, TurnStep, ask, wrong_answer
from .views import SPECTATOR, GameView, PlayerView, ReservedCardView, actions_seen_by, events_for, view_for

# The number of action ids of the built-in rules (the contract's ``action_id_count``).
ACTION_ID_COUNT: Final = id_layout().count

__all__ = [
    "new_game_config",
    "new_pending_decision",
    "new_player_state",
    "actions_seen_by",
    "ACTION_ID_COUNT",
    "BASE_CARDS",
    "BASE_DECKS",
    "CARDS",
    "COLOR_NAMES",
    "GOLD",
    "MARKET_SLOTS",
    "MAX_DECKS",
    "NOBLES",
    "SPECTATOR",
    "Action",
    "AwardOne",
    "Card",
    "CardKind",
    "CardPurchased",
    "CardReserved",
    "CardRevealed",
    "CardSource",
    "ChooseNoble",
    "Color",
    "DecisionAction",
    "DecisionKind",
    "DecisionRequired",
    "DeckSpec",
    "Decline",
    "EndReason",
    "Event",
    "FinalRoundTriggered",
    "FollowUp",
    "GameConfig",
    "GameEnded",
    "GameStarted",
    "GameState",
    "GameView",
    "GemsReturned",
    "GemsTaken",
    "IncrementalDigest",
    "GoldReceived",
    "IdLayout",
    "IdRange",
    "MainAction",
    "MarketSlotEmptied",
    "Module",
    "ModuleStateSlot",
    "Noble",
    "Observation",
    "ObservationLayout",
    "ObservationSlice",
    "NobleVisited",
    "Pass",
    "Passed",
    "PaymentRules",
    "PendingDecision",
    "PlayerState",
    "PlayerView",
    "Price",
    "PurchaseCard",
    "Reason",
    "ReserveCard",
    "ReserveFromDeck",
    "ReservedCardView",
    "ReturnTokens",
    "RuleViolation",
    "Standing",
    "TakeGems",
    "TakeTwoGems",
    "TurnEnded",
    "TurnStep",
    "action_from_id",
    "action_id",
    "apply",
    "ask",
    "decision_kind",
    "distinct_kind",
    "encode_view",
    "events_for",
    "id_layout",
    "id_range",
    "known_modules",
    "legal_action_ids",
    "legal_action_mask",
    "legal_actions",
    "module_named",
    "modules_using",
    "new_game",
    "observation_layout",
    "observation_layouts",
    "observation_values",
    "observe",
    "registered",
    "registered_modules",
    "registry",
    "ruleset_for",
    "single_id",
    "snake_case",
    "state_digest",
    "validate_state",
    "view_for",
    "wrong_answer",
]
