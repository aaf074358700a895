"""The Trading Posts module's part of the game state."""

from __future__ import annotations

from typing import Final, NamedTuple

from ...module_state import ModuleStateSlot


class TradingPostsState(NamedTuple):
    """The shields on the Route to the Orient board."""

    shields: tuple[tuple[int, ...], ...]  # per seat, the posts (0-4) holding one of its shields, in placement order


STATE: Final = ModuleStateSlot(1, TradingPostsState, "trading_posts", "a Trading Posts game must carry its shields")
