"""Cities of Splendor, module "The Orient": its descriptor, and what tests and adapters may use of it."""

from __future__ import annotations

from typing import Final

from ...catalog import ORIENT_DECKS
from ...plugin import DeckSpec, Module
from . import observation as _observation  # noqa: F401  (registers its slices of the observation vector)
from .abilities import RESOLVE_ABILITY
from .actions import ACTION_IDS, PairCard, ReserveNoble, TakeFreeCard
from .decisions import PAIR_CARD, RESERVE_NOBLE, TAKE_FREE_CARD
from .events import CardPaired, CardsDiscarded, FreeCardTaken, NobleReserved
from .payment import ORIENT_PAYMENT
from .rules import (
    NAME,
    ORIENT_SLOTS,
    VISIT_NOBLE,
    check_main_action,
    extra_holdings,
    forbidden_cards,
    out_of_play,
    rank,
    setup,
)
from .state import STATE, OrientState
from .validation import validate

MODULE: Final[Module] = Module(
    name=NAME,
    state=STATE,
    decisions=(PAIR_CARD, TAKE_FREE_CARD, RESERVE_NOBLE),
    actions=(PairCard, TakeFreeCard, ReserveNoble),
    action_ids=ACTION_IDS,
    events=(CardPaired, FreeCardTaken, NobleReserved, CardsDiscarded),
    setup=setup,
    decks=tuple(DeckSpec(deck, ORIENT_SLOTS) for deck in ORIENT_DECKS),
    check_main_action=check_main_action,
    forbidden_cards=forbidden_cards,
    payment=ORIENT_PAYMENT,
    after_main_action=RESOLVE_ABILITY,
    noble_visit=VISIT_NOBLE,
    extra_holdings=extra_holdings,
    out_of_play=out_of_play,
    rank=rank,
    validate=validate,
)

__all__ = [
    "MODULE",
    "NAME",
    "PAIR_CARD",
    "RESERVE_NOBLE",
    "STATE",
    "TAKE_FREE_CARD",
    "CardPaired",
    "CardsDiscarded",
    "FreeCardTaken",
    "NobleReserved",
    "OrientState",
    "PairCard",
    "ReserveNoble",
    "TakeFreeCard",
    "rank",
]
