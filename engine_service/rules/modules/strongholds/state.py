"""The Strongholds module's part of the game state."""

from __future__ import annotations

from typing import Final, NamedTuple

from ...module_state import ModuleStateSlot


class StrongholdsState(NamedTuple):
    """Where each seat's strongholds stand; the others are in the seat's supply."""

    placed: tuple[tuple[int, ...], ...]  # per seat, the face-up card under each placed stronghold (repeats: stacked)


STATE: Final = ModuleStateSlot(2, StrongholdsState, "strongholds", "a Strongholds game must carry its strongholds")


def new_strongholds_state(*, placed: tuple[tuple[int, ...], ...]) -> StrongholdsState:
    """A ``StrongholdsState`` (see ``engine_service/rules/records.py``, "Building records")."""
    return tuple.__new__(StrongholdsState, (placed,))
