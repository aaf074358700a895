"""Cities of Splendor, module "The Trading Posts": its descriptor, and what tests and adapters may use of it."""

from __future__ import annotations

from typing import Final

from ...plugin import Module, PaymentRules
from . import observation as _observation  # noqa: F401  (registers its slices of the observation vector)
from .actions import ACTION_IDS, TakeGem
from .components import POSTS, Post
from .decisions import TAKE_GEM
from .events import PowerGemTaken, ShieldPlaced
from .rules import (
    NAME,
    GemPowers,
    PlaceShields,
    affordable,
    can_afford,
    extra_holdings,
    give_up,
    meets,
    post_prestige,
    price,
    setup,
)
from .state import STATE, TradingPostsState
from .validation import validate

MODULE: Final[Module] = Module(
    name=NAME,
    state=STATE,
    decisions=(TAKE_GEM,),
    actions=(TakeGem,),
    action_ids=ACTION_IDS,
    events=(PowerGemTaken, ShieldPlaced),
    setup=setup,
    payment=PaymentRules(affordable=affordable, price=price, give_up=give_up),
    after_main_action=GemPowers(),
    end_of_turn=(PlaceShields(),),
    extra_holdings=extra_holdings,
    validate=validate,
)

__all__ = [
    "MODULE",
    "NAME",
    "POSTS",
    "STATE",
    "TAKE_GEM",
    "Post",
    "PowerGemTaken",
    "ShieldPlaced",
    "TakeGem",
    "TradingPostsState",
    "can_afford",
    "meets",
    "post_prestige",
    "price",
]
