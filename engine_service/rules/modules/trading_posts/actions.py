"""The Trading Posts module's answer and its action ids."""

from __future__ import annotations

from typing import Final, NamedTuple

from ...action_ids import COLOR_RULE, IdRange, id_range
from ...records import distinct_kind


@distinct_kind
class TakeGem(NamedTuple):
    """Trading Posts: answer to TAKE_GEM, the colour of the gem a power grants."""

    color: int


ACTION_IDS: Final[tuple[IdRange, ...]] = (
    id_range(384, TakeGem, 5, "color", "the colour index (the Trading Posts); " + COLOR_RULE),
)
