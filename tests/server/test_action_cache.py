"""Rule: the process's action cache answers exactly what ``action_from_proto`` does, and stays bounded."""

from __future__ import annotations

import pytest
from splendor.v1 import actions_pb2, config_pb2, engine_service_pb2

from engine_service.api import ApiError
from engine_service.codec import action_from_proto, action_to_proto
from engine_service.codec.action_cache import ACTIONS, LONGEST_KEPT, ActionCache
from engine_service.rules import Reason, RuleViolation, registered
from tests.rules.test_registry_plugin import BEACONS_MODULE
from tests.sealing.api import call
from tests.server.positions import random_game


@pytest.mark.parametrize("modules", [frozenset(), frozenset({"strongholds"}), frozenset({"orient"})])
def test_a_cached_action_is_the_converted_action_of_the_same_kind(modules: frozenset[str]) -> None:
    cache = ActionCache(capacity=1000)
    for _ in range(2):  # converted, then looked up
        for _, action, _, _ in random_game(3, seed=11, modules=modules):
            msg = action_to_proto(action)
            cached = cache.action(msg)
            assert cached == action_from_proto(msg) == action and type(cached) is type(action)


def test_a_message_that_does_not_convert_raises_and_is_not_kept() -> None:
    cache = ActionCache(capacity=10)
    bad = actions_pb2.Action()
    bad.take_gems.colors.append(99)
    for _ in range(2):
        with pytest.raises(RuleViolation) as caught:
            cache.action(bad)
        assert caught.value.reason is Reason.INVALID_COLOR
    assert len(cache) == 0


def test_the_cache_is_emptied_when_full() -> None:
    cache = ActionCache(capacity=2)
    for card in (1, 2, 3):
        cache.action(actions_pb2.Action(reserve_card=actions_pb2.ReserveCard(card_id=card)))
    assert len(cache) == 1


def test_a_long_message_is_converted_but_not_kept() -> None:
    cache = ActionCache(capacity=10)
    msg = actions_pb2.Action(reserve_card=actions_pb2.ReserveCard(card_id=3))
    unknown_field = b"\x82\x7f" + bytes([LONGEST_KEPT]) + b"x" * LONGEST_KEPT  # field 2032, length-delimited
    padded = actions_pb2.Action.FromString(msg.SerializeToString() + unknown_field)
    assert len(padded.SerializeToString()) > LONGEST_KEPT  # the unknown field travels with the message
    assert cache.action(padded) == action_from_proto(msg)
    assert len(cache) == 0


def test_a_change_of_the_registered_modules_empties_the_process_cache() -> None:
    ACTIONS.action(actions_pb2.Action(reserve_card=actions_pb2.ReserveCard(card_id=3)))
    assert len(ACTIONS) > 0
    with registered(BEACONS_MODULE):
        assert len(ACTIONS) == 0


def test_apply_action_converts_its_action_through_the_process_cache() -> None:
    """An action ApplyAction converted is kept; one that does not convert is refused the same way each time
    (INVALID_ARGUMENT, pointing at the action) and kept by no one."""
    created = call("CreateGame", engine_service_pb2.CreateGameRequest(config=config_pb2.GameConfig(num_players=2)))
    listed = call("ListLegalActions", engine_service_pb2.ListLegalActionsRequest(state=created.state))
    ACTIONS.clear()
    good = listed.actions[0].action
    applied = call("ApplyAction", engine_service_pb2.ApplyActionRequest(state=created.state, action=good))
    assert applied.state.turn == 1
    assert len(ACTIONS) == 1
    bad = actions_pb2.Action()
    bad.take_gems.colors.append(99)
    refusals = []
    for _ in range(2):
        with pytest.raises(ApiError) as refused:
            call("ApplyAction", engine_service_pb2.ApplyActionRequest(state=created.state, action=bad))
        error = refused.value
        refusals.append((error.code, error.reason, error.message, error.field_violations))
    assert refusals[0] == refusals[1]
    assert refusals[0][1] == "INVALID_COLOR"
    assert len(ACTIONS) == 1
