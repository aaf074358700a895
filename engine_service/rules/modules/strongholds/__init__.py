"""Cities of Splendor, module "The Strongholds": its descriptor, and what tests and adapters may use of it."""

from __future__ import annotations

from typing import Final

from ...plugin import Module
from . import observation as _observation  # noqa: F401  (registers its slices of the observation vector)
from .actions import ACTION_IDS, MOVE_STRONGHOLD, STRONGHOLD_CARDS, PlaceStronghold, RemoveStronghold
from .decisions import CONQUER, PLACE_STRONGHOLD
from .events import CardConquered, StrongholdPlaced, StrongholdRemoved, StrongholdsReturned
from .rules import NAME, STRONGHOLD_STEP, STRONGHOLDS_PER_PLAYER, check_main_action, forbidden_cards, setup
from .state import STATE, StrongholdsState
from .validation import validate

MODULE: Final[Module] = Module(
    name=NAME,
    state=STATE,
    decisions=(PLACE_STRONGHOLD, CONQUER),
    actions=(PlaceStronghold, RemoveStronghold),
    action_ids=ACTION_IDS,
    events=(StrongholdPlaced, StrongholdRemoved, StrongholdsReturned, CardConquered),
    setup=setup,
    check_main_action=check_main_action,
    forbidden_cards=forbidden_cards,
    after_main_action=STRONGHOLD_STEP,
    validate=validate,
)

__all__ = [
    "CONQUER",
    "MODULE",
    "MOVE_STRONGHOLD",
    "NAME",
    "PLACE_STRONGHOLD",
    "STATE",
    "STRONGHOLDS_PER_PLAYER",
    "STRONGHOLD_CARDS",
    "CardConquered",
    "PlaceStronghold",
    "RemoveStronghold",
    "StrongholdPlaced",
    "StrongholdRemoved",
    "StrongholdsReturned",
    "StrongholdsState",
]
