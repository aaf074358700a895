"""The Orient module's part of the game state."""

from __future__ import annotations

from typing import Final, NamedTuple

from ...module_state import ModuleStateSlot


class OrientState(NamedTuple):
    """What the Orient cards changed beyond the base holdings."""

    pairs: tuple[tuple[tuple[int, int], ...], ...]  # per seat, (paired card, the owned card it is attached to)
    reserved_nobles: tuple[tuple[int, ...], ...]  # per seat, nobles only that seat can be visited by
    discarded: tuple[tuple[int, ...], ...]  # per seat, its cards back in the box: spent gold cards, sacrificed cards


STATE: Final = ModuleStateSlot(3, OrientState, "orient", "an Orient game must carry its Orient state")
