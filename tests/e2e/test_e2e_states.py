"""Malformed or impossible states are refused as INVALID_ARGUMENT naming the field, by every RPC that reads one."""

from __future__ import annotations

import grpc
import pytest
from splendor.v1 import state_pb2
from splendor_client import EngineClient, InvalidRequest

from engine_service.api.errors import proto_field
from tests.e2e.support import BLUE, GREEN, RED, refusal, take_gems
from tests.server.test_convert import MALFORMED, _base

pytestmark = pytest.mark.e2e


def _corrupt(case: str) -> state_pb2.GameState:
    message = _base()
    MALFORMED[case][0](message)
    return message


@pytest.mark.parametrize("case", sorted(MALFORMED))
def test_apply_refuses_a_malformed_state(client: EngineClient, case: str) -> None:
    error = refusal(lambda: client.apply(_corrupt(case), take_gems(RED, BLUE, GREEN)))
    assert isinstance(error, InvalidRequest) and error.code == grpc.StatusCode.INVALID_ARGUMENT
    assert error.reason == "INVALID_STATE"
    assert [field for field, _ in error.field_violations] == ["state." + proto_field(MALFORMED[case][1])]


@pytest.mark.parametrize("case", ["a card in two places", "reserved card without id", "unknown decision kind"])
def test_every_state_reading_call_refuses_it(client: EngineClient, case: str) -> None:
    state = _corrupt(case)
    for call in (lambda: client.legal_actions(state), lambda: client.view(state), lambda: client.view(state, seat=0)):
        error = refusal(call)
        assert (error.code, error.reason) == (grpc.StatusCode.INVALID_ARGUMENT, "INVALID_STATE")
        assert error.field_violations and error.field_violations[0][0].startswith("state.")


def test_the_same_state_unbroken_is_accepted(client: EngineClient) -> None:
    state = _base()
    assert client.legal_actions(state)
    assert client.apply(state, take_gems(RED, BLUE, GREEN)).state.turn == state.turn + 1
