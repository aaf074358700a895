"""Cities of Splendor, module "The Cities": city tiles replace the nobles and decide the end.

* Setup: no nobles; three of the seven double-sided tiles are drawn at random and
  each shows a random side, whatever the number of players.
* End of turn (after the noble step, which has no nobles here): a player meeting a
  city's prestige and bonus requirements takes it; one city per turn, the player
  chooses when several qualify (a CHOOSE_CITY decision).
* Taking a city triggers the final round; reaching 15 prestige no longer does.
* Ranking: city holders before everyone else; among them most prestige, then
  fewest purchased cards, then a shared place.

City ids are the row order of ``data/cities.csv`` (0-13): tile ``t`` has sides
``2(t-1)`` (A) and ``2(t-1)+1`` (B).
"""

from __future__ import annotations

import csv
import io
from importlib import resources
from typing import Final, NamedTuple

from ..actions import ChooseCity
from ..colors import COLOR_NAMES, GEM_COLORS
from ..ending import rank_by_prestige
from ..errors import Reason, RuleViolation
from ..events import CityClaimed, Event
from ..plugin import Module
from ..rng import Stream, shuffled, stream
from ..state import DecisionKind, GameState, PlayerState, Standing
from ..turn import AwardOne

NAME: Final = "cities"
CITIES_IN_PLAY: Final = 3


class City(NamedTuple):
    """One side of a city tile as printed."""

    id: int
    tile: int  # 1-7
    side: str  # "A" or "B"
    prestige: int  # prestige required
    requirement: tuple[int, ...]  # five bonus counts required
    same_color: int  # plus this many bonuses of one colour of the player's choice (0: none)
    same_color_excludes_listed: bool  # that colour must differ from the listed ones


class CitiesState(NamedTuple):
    """The cities on the table and the cities each seat has taken."""

    available: tuple[int, ...]  # city ids on the table
    held: tuple[tuple[int, ...], ...]  # per seat, city ids taken


def _load() -> tuple[City, ...]:
    text = resources.files("engine_service.rules").joinpath("data", "cities.csv").read_text(encoding="utf-8")
    cities = []
    for expected_id, row in enumerate(csv.DictReader(io.StringIO(text))):
        if int(row["id"]) != expected_id:
            raise ValueError(f"cities.csv: ids must be consecutive, got {row['id']} at row {expected_id}")
        cities.append(
            City(
                id=expected_id,
                tile=int(row["tile"]),
                side=row["side"],
                prestige=int(row["prestige"]),
                requirement=tuple(int(row[COLOR_NAMES[color]]) for color in GEM_COLORS),
                same_color=int(row["same_color_count"]),
                same_color_excludes_listed=row["same_color_excludes_listed"] == "yes",
            )
        )
    return tuple(cities)


CITIES: Final[tuple[City, ...]] = _load()
TILES: Final[tuple[int, ...]] = tuple(sorted({city.tile for city in CITIES}))


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
    return state._replace(nobles=(), cities=CitiesState(available, held))


def _cities(state: GameState) -> CitiesState:
    if state.cities is None:
        raise RuleViolation(Reason.INVALID_STATE, "a Cities game must carry its cities", field="cities")
    return state.cities


def qualifying_cities(state: GameState, seat: int) -> tuple[int, ...]:
    player = state.players[seat]
    return tuple(city_id for city_id in _cities(state).available if qualifies(CITIES[city_id], player))


def take_city(state: GameState, seat: int, city_id: int, events: list[Event]) -> GameState:
    cities = _cities(state)
    held = cities.held[:seat] + (cities.held[seat] + (city_id,),) + cities.held[seat + 1 :]
    available = tuple(other for other in cities.available if other != city_id)
    events.append(CityClaimed(seat, city_id))
    return state._replace(cities=CitiesState(available, held))


# End of turn: at most one city, chosen by the player when several qualify.
CLAIM_CITY: Final = AwardOne(
    DecisionKind.CHOOSE_CITY,
    answer=ChooseCity,
    qualifying=qualifying_cities,
    award=take_city,
    refused=Reason.CITY_NOT_AVAILABLE,
    noun="city",
)


def holds_a_city(state: GameState, seat: int) -> bool:
    """Taking a city triggers the final round (15 prestige no longer does)."""
    return bool(_cities(state).held[seat])


def rank(state: GameState) -> tuple[Standing, ...]:
    """City holders first, each group by most prestige then fewest purchased cards."""
    holders = tuple(seat for seat, held in enumerate(_cities(state).held) if held)
    return rank_by_prestige(state, holders or None)


def validate(state: GameState) -> None:
    """A client's Cities state: known, distinct cities; one list of held cities per seat; no nobles."""
    cities = state.cities
    if cities is None:
        raise RuleViolation(Reason.INVALID_STATE, "a Cities game must carry its cities", field="cities")
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
    if pending is not None and pending.kind == DecisionKind.CHOOSE_CITY:
        options = set(pending.options)
        if len(options) < 2 or options != set(qualifying_cities(state, pending.seat)):
            raise RuleViolation(
                Reason.INVALID_STATE,
                "the city options must be the two or more qualifying cities",
                field="pending_decision.options",
            )


MODULE: Final = Module(
    name=NAME,
    setup=setup,
    end_of_turn=(CLAIM_CITY,),
    triggers_final_round=holds_a_city,
    rank=rank,
    validate=validate,
)
