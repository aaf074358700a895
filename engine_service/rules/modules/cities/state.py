"""The Cities module's part of the game state."""

from __future__ import annotations

from typing import Final, NamedTuple

from ...module_state import ModuleStateSlot


class CitiesState(NamedTuple):
    """The cities on the table and the cities each seat has taken."""

    available: tuple[int, ...]  # city ids on the table
    held: tuple[tuple[int, ...], ...]  # per seat, city ids taken


STATE: Final = ModuleStateSlot(0, CitiesState, "cities", "a Cities game must carry its cities")
