"""The Trading Posts module's events."""

from __future__ import annotations

from typing import NamedTuple

from ...records import distinct_kind


@distinct_kind
class PowerGemTaken(NamedTuple):
    """Trading Posts: a power (post 0 after a purchase, post 1 with two of a colour) gave a gem."""

    seat: int
    color: int
    post_id: int


@distinct_kind
class ShieldPlaced(NamedTuple):
    """Trading Posts: a player met a post's requirements and placed a shield on it."""

    seat: int
    post_id: int
    prestige_gained: int  # posts 3 and 4 score when placed, and post 4 for every later shield
