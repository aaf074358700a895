"""Observations and their layouts as protobuf (``splendor.v1.Observation``, ``ObservationLayout``)."""

from __future__ import annotations

from splendor.v1 import config_pb2, observation_pb2

from engine_service.rules import Observation, ObservationLayout

from .common import MODULE_VALUES


def fill_observation(out: observation_pb2.Observation, observation: Observation) -> None:
    out.seat = observation.seat
    out.layout = observation.layout
    out.values.extend(observation.values)
    out.legal_action_mask.extend(observation.legal_action_mask)


def fill_observation_layout(out: observation_pb2.ObservationLayout, layout: ObservationLayout) -> None:
    out.name = layout.name
    out.num_players = layout.num_players
    out.length = layout.length
    if layout.module is not None:
        out.module = config_pb2.Module.ValueType(MODULE_VALUES[layout.module])
    for item in layout.slices:
        out.slices.add(name=item.name, offset=item.offset, length=item.length, meaning=item.meaning)
