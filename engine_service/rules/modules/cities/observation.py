"""The Cities' slices of the observation vector: the cities on the table, and how many each seat holds."""

from __future__ import annotations

from typing import Final

from ...observation import ObservationPart, register_part, seat_order
from ...views import GameView
from .components import CITIES, CITIES_IN_PLAY
from .rules import NAME
from .state import STATE, CitiesState

CITY_FEATURES: Final = 8


def _slices(num_players: int) -> list[tuple[str, int, str]]:
    return [
        (
            "available",
            CITIES_IN_PLAY * CITY_FEATURES,
            "city slots: present, prestige required, bonuses required (five colours), same-colour bonuses required",
        ),
        ("held", num_players, "cities held, seat-relative"),
    ]


def _encode(view: GameView, seat: int) -> list[float]:
    own = view.module_states[STATE.index]
    assert isinstance(own, CitiesState)
    out: list[float] = []
    for slot in range(CITIES_IN_PLAY):
        if slot < len(own.available):
            city = CITIES[own.available[slot]]
            out += [1.0, city.prestige, *city.requirement, city.same_color]
        else:
            out += [0.0] * CITY_FEATURES
    out += [len(own.held[other]) for other in seat_order(seat, view.num_players)]
    return out


register_part(NAME, ObservationPart(_slices, _encode))
