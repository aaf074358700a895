"""Rule: the action-id layout has one source, and conversion fails loudly on a kind the contract lacks."""

from __future__ import annotations

import pytest
from splendor.v1 import actions_pb2, engine_service_pb2

from engine_service.codec import action_from_proto, catalog, fill_action, fill_events
from engine_service.rules import ACTION_ID_COUNT, Reason, RuleViolation, id_layout, registered
from tests.rules.test_registry_plugin import BEACONS_MODULE, BeaconLit, LightBeacon


def test_the_catalog_action_id_ranges_are_the_layout() -> None:
    ranges = [(r.kind, r.offset, r.count, r.index_rule) for r in catalog().action_id_ranges]
    assert ranges == [(r.kind, r.offset, r.size, r.rule) for r in id_layout().ranges]
    assert sum(count for _, _, count, _ in ranges) == catalog().action_id_count == ACTION_ID_COUNT


def test_the_built_in_layout_leaves_no_gap() -> None:
    layout = id_layout()
    assert layout.gaps == 0 and layout.count == ACTION_ID_COUNT


def test_a_record_the_contract_does_not_name_fails_loudly_when_written() -> None:
    with registered(BEACONS_MODULE):
        with pytest.raises(TypeError, match="LightBeacon"):
            fill_action(actions_pb2.Action(), LightBeacon(0))
        with pytest.raises(TypeError, match="BeaconLit"):
            fill_events(engine_service_pb2.ApplyActionResponse().events, [BeaconLit(0, 1)])


def test_an_action_message_of_no_known_kind_is_unknown_action() -> None:
    with pytest.raises(RuleViolation) as caught:
        action_from_proto(actions_pb2.Action())
    assert caught.value.reason is Reason.UNKNOWN_ACTION
