"""Cities of Splendor, module "The Trading Posts" (being written)."""

from __future__ import annotations

from typing import Final, NamedTuple

from ..plugin import Module

NAME: Final = "trading_posts"


class TradingPostsState(NamedTuple):
    """The shields on the Route to the Orient board."""

    shields: tuple[tuple[int, ...], ...]  # per seat, the posts (0-4) holding one of its shields, in placement order


MODULE: Final = Module(name=NAME)
