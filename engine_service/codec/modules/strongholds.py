"""The Strongholds module in the contract: ``StrongholdsState``."""

from __future__ import annotations

from typing import Final

from splendor.v1 import strongholds_pb2

from engine_service.rules.modules.strongholds import StrongholdsState

from .adapter import ModuleAdapter


def read(msg: strongholds_pb2.StrongholdsState) -> StrongholdsState:
    return StrongholdsState(tuple([tuple(seat.card_ids) for seat in msg.placed]))


def write(out: strongholds_pb2.StrongholdsState, strongholds: StrongholdsState) -> None:
    for placed in strongholds.placed:
        out.placed.add().card_ids.extend(placed)


ADAPTER: Final[ModuleAdapter] = ModuleAdapter(read, write)
