"""Observations and their layouts as protobuf (``splendor.v1.Observation``, ``ObservationLayout``).

An observation's two vectors are written as their packed wire bytes and merged in one parse
(``wire.py``): set value by value, the mask alone has one flag per action id (8,920). Packed is
how proto3 encodes every repeated number, so the message is the one the field-by-field writes of
the core's ``observe`` would build (``tests/server/test_observation_codec.py``).
"""

from __future__ import annotations

import struct
from typing import Final

from splendor.v1 import config_pb2, observation_pb2

from engine_service.rules import (
    GameState,
    ObservationLayout,
    id_layout,
    legal_action_ids,
    observation_values,
)

from .common import MODULE_VALUES
from .wire import entry, packed_varints, tag

_VALUES: Final = tag(observation_pb2.Observation, "values")
_MASK: Final = tag(observation_pb2.Observation, "legal_action_mask")
_IDS: Final = tag(observation_pb2.Observation, "legal_action_ids")


def fill_observation(out: observation_pb2.Observation, state: GameState, seat: int, *, ids: bool = False) -> None:
    """``seat``'s observation of ``state`` into ``out``: its legal actions as the mask's flags, or with ``ids`` as
    their ids (``legal_action_ids``, the mask left empty)."""
    layout, values = observation_values(state, seat)
    out.seat = seat
    out.layout = layout
    legal = legal_action_ids(state, seat)
    if ids:
        tail = entry(_IDS, packed_varints(legal)) if legal else b""
    else:
        mask = bytearray(id_layout().count)
        for value in legal:
            mask[value] = 1
        tail = entry(_MASK, mask)
    out.MergeFromString(_packed_values(values) + tail)


def _packed_values(values: tuple[float, ...]) -> bytes:
    data = struct.pack(f"<{len(values)}f", *values)
    return entry(_VALUES, data) if data else b""


def fill_observation_layout(out: observation_pb2.ObservationLayout, layout: ObservationLayout) -> None:
    out.name = layout.name
    out.num_players = layout.num_players
    out.length = layout.length
    if layout.module is not None:
        out.module = config_pb2.Module.ValueType(MODULE_VALUES[layout.module])
    for item in layout.slices:
        out.slices.add(name=item.name, offset=item.offset, length=item.length, meaning=item.meaning)
