"""Cities of Splendor, module "The Strongholds" (being written)."""

from __future__ import annotations

from typing import Final, NamedTuple

from ..plugin import Module

NAME: Final = "strongholds"
STRONGHOLDS_PER_PLAYER: Final = 3


class StrongholdsState(NamedTuple):
    """Where each seat's strongholds stand; the others are in the seat's supply."""

    placed: tuple[tuple[int, ...], ...]  # per seat, the face-up card under each placed stronghold (repeats: stacked)


MODULE: Final = Module(name=NAME)
