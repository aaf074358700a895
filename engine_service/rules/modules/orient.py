"""Cities of Splendor, module "The Orient" (being written)."""

from __future__ import annotations

from typing import Final, NamedTuple

from ..plugin import Module

NAME: Final = "orient"


class OrientState(NamedTuple):
    """What the Orient cards changed beyond the base holdings."""

    pairs: tuple[tuple[tuple[int, int], ...], ...]  # per seat, (paired card, the owned card it is attached to)
    reserved_nobles: tuple[tuple[int, ...], ...]  # per seat, nobles only that seat can be visited by
    discarded: tuple[tuple[int, ...], ...]  # per seat, its cards back in the box: spent gold cards, sacrificed cards


MODULE: Final = Module(name=NAME)
