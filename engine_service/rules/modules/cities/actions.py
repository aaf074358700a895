"""The Cities module's answer and its action ids."""

from __future__ import annotations

from typing import Final, NamedTuple

from ...action_ids import IdRange, id_range
from ...records import distinct_kind

CITY_ID_SPACE: Final = 14  # the seven double-sided tiles


@distinct_kind
class ChooseCity(NamedTuple):
    """The Cities: answer to CHOOSE_CITY, the city to take."""

    city_id: int


ACTION_IDS: Final[tuple[IdRange, ...]] = (
    id_range(370, ChooseCity, CITY_ID_SPACE, "city_id", "the city id (the Cities module)"),
)
