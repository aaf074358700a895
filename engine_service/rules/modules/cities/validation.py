"""Checks of the Cities module's part of a state sent by a client."""

from __future__ import annotations

from ...errors import Reason, RuleViolation
from ...state import GameState
from .components import CITIES, CITIES_IN_PLAY
from .decisions import CHOOSE_CITY
from .rules import qualifying_cities
from .state import STATE


def validate(state: GameState) -> None:
    """A client's Cities state: known, distinct cities; one list of held cities per seat; no nobles."""
    cities = STATE.of(state)
    if len(cities.held) != state.config.num_players:
        raise RuleViolation(Reason.INVALID_STATE, "one list of held cities per seat", field="cities.held")
    every = list(cities.available) + [city for held in cities.held for city in held]
    if any(not 0 <= city < len(CITIES) for city in every):
        raise RuleViolation(Reason.INVALID_STATE, "unknown city id", field="cities")
    tiles = [CITIES[city].tile for city in every]
    if len(set(tiles)) != len(tiles) or len(every) > CITIES_IN_PLAY:
        raise RuleViolation(Reason.INVALID_STATE, f"at most {CITIES_IN_PLAY} cities of different tiles", field="cities")
    if state.nobles or any(player.nobles for player in state.players):
        raise RuleViolation(Reason.INVALID_STATE, "a Cities game has no nobles", field="noble_ids")
    pending = state.pending
    if pending is not None and pending.kind is CHOOSE_CITY:
        options = set(pending.options)
        if len(options) < 2 or options != set(qualifying_cities(state, pending.seat)):
            raise RuleViolation(
                Reason.INVALID_STATE,
                "the city options must be the two or more qualifying cities",
                field="pending_decision.options",
            )
