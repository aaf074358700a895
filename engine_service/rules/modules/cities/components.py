"""The Cities module's printed components: the fourteen sides of the seven city tiles, from ``data/cities.csv``.

City ids are the row order of the file (0-13): tile ``t`` has sides ``2(t-1)`` (A)
and ``2(t-1)+1`` (B).
"""

from __future__ import annotations

import csv
import io
from importlib import resources
from typing import Final, NamedTuple

from ...colors import COLOR_NAMES, GEM_COLORS

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
