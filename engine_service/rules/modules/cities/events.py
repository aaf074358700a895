"""The Cities module's event."""

from __future__ import annotations

from typing import NamedTuple

from ...records import distinct_kind


@distinct_kind
class CityClaimed(NamedTuple):
    """The Cities: a player took a city tile."""

    seat: int
    city_id: int
