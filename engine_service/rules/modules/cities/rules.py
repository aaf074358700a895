"""Cities of Splendor, module "The Cities": city tiles replace the nobles and decide the end.

* Setup: no nobles; three of the seven double-sided tiles are drawn at random and
  each shows a random side, whatever the number of players.
* End of turn (after the noble step, which has no nobles here): a player meeting a
  city's prestige and bonus requirements takes it; one city per turn, the player
  chooses when several qualify (a CHOOSE_CITY decision).
* Taking a city triggers the final round; reaching 15 prestige no longer does.
* Ranking: city holders before everyone else; among them most prestige, then
  fewest purchased cards, then a shared place.
"""

from __future__ import annotations

from typing import Final

from ...colors import GEM_COLORS
from ...ending import rank_by_prestige
from ...errors import Reason
from ...events import Event
from ...rng import Stream, shuffled, stream
from ...state import GameState, PlayerState, Standing
from ...turn import AwardOne
from .actions import ChooseCity
from .components import CITIES, CITIES_IN_PLAY, TILES, City
from .decisions import CHOOSE_CITY
from .events import CityClaimed
from .state import STATE, CitiesState

NAME: Final = "cities"


def qualifies(city: City, player: PlayerState) -> bool:
    """Whether the player meets the city's prestige and bonus requirements."""
    bonuses = player.bonuses
    if player.prestige < city.prestige:
        return False
    if any(have < need for have, need in zip(bonuses, city.requirement)):
        return False
    if not city.same_color:
        return True
    candidates = [color for color in GEM_COLORS if not (city.same_color_excludes_listed and city.requirement[color])]
    return any(bonuses[color] >= city.same_color for color in candidates)


def setup(state: GameState) -> GameState:
    """No nobles; three random tiles, each on a random side."""
    seed = state.config.seed
    tiles = shuffled(TILES, stream(seed, Stream.CITIES))[:CITIES_IN_PLAY]
    sides = stream(seed, Stream.CITY_SIDES)
    available = tuple(2 * (tile - 1) + sides.below(2) for tile in tiles)
    held: tuple[tuple[int, ...], ...] = ((),) * state.config.num_players
    return STATE.put(state._replace(nobles=()), CitiesState(available, held))


def qualifying_cities(state: GameState, seat: int) -> tuple[int, ...]:
    player = state.players[seat]
    return tuple(city_id for city_id in STATE.of(state).available if qualifies(CITIES[city_id], player))


def take_city(state: GameState, seat: int, city_id: int, events: list[Event]) -> GameState:
    cities = STATE.of(state)
    held = cities.held[:seat] + (cities.held[seat] + (city_id,),) + cities.held[seat + 1 :]
    available = tuple(other for other in cities.available if other != city_id)
    events.append(CityClaimed(seat, city_id))
    return STATE.put(state, CitiesState(available, held))


# End of turn: at most one city, chosen by the player when several qualify.
CLAIM_CITY: Final = AwardOne(
    CHOOSE_CITY,
    answer=ChooseCity,
    qualifying=qualifying_cities,
    award=take_city,
    refused=Reason.CITY_NOT_AVAILABLE,
    noun="city",
)


def holds_a_city(state: GameState, seat: int) -> bool:
    """Taking a city triggers the final round (15 prestige no longer does)."""
    return bool(STATE.of(state).held[seat])


def rank(state: GameState) -> tuple[Standing, ...]:
    """City holders first, each group by most prestige then fewest purchased cards."""
    holders = tuple(seat for seat, held in enumerate(STATE.of(state).held) if held)
    return rank_by_prestige(state, holders or None)
