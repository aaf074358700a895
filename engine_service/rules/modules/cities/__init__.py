"""Cities of Splendor, module "The Cities": its descriptor, and what tests and adapters may use of it."""

from __future__ import annotations

from typing import Final

from ...plugin import Module
from . import observation as _observation  # noqa: F401  (registers its slices of the observation vector)
from .actions import ACTION_IDS, CITY_ID_SPACE, ChooseCity
from .components import CITIES, CITIES_IN_PLAY, TILES, City
from .decisions import CHOOSE_CITY
from .events import CityClaimed
from .rules import CLAIM_CITY, NAME, holds_a_city, qualifies, qualifying_cities, rank, setup
from .state import STATE, CitiesState
from .validation import validate

MODULE: Final[Module] = Module(
    name=NAME,
    state=STATE,
    decisions=(CHOOSE_CITY,),
    actions=(ChooseCity,),
    action_ids=ACTION_IDS,
    events=(CityClaimed,),
    setup=setup,
    end_of_turn=(CLAIM_CITY,),
    triggers_final_round=holds_a_city,
    rank=rank,
    validate=validate,
)

__all__ = [
    "CHOOSE_CITY",
    "CITIES",
    "CITIES_IN_PLAY",
    "CITY_ID_SPACE",
    "MODULE",
    "NAME",
    "STATE",
    "TILES",
    "CitiesState",
    "ChooseCity",
    "City",
    "CityClaimed",
    "qualifies",
    "qualifying_cities",
]
