"""gRPC errors become EngineError subclasses with the rich details parsed."""

from __future__ import annotations

import grpc
import pytest
from google.rpc import status_pb2
from splendor.v1 import state_pb2
from splendor_client import EngineClient, EngineError, InvalidRequest, RuleRejected, actions, from_rpc_error

from tests.client.client_fakes import FakeChannel, FakeRpcError, rich_error, rich_status

APPLY = "/splendor.v1.EngineService/ApplyAction"


def test_failed_precondition_is_rule_rejected_with_error_info() -> None:
    error = rich_error(
        grpc.StatusCode.FAILED_PRECONDITION,
        "the red pile holds 3, fewer than 4",
        reason="PILE_BELOW_FOUR",
        metadata={"seat": "1", "color": "COLOR_RED"},
        violations=[("action.take_two_gems.color", "the bank holds 3 red")],
    )
    converted = from_rpc_error(error)
    assert type(converted) is RuleRejected
    assert isinstance(converted, EngineError)
    assert converted.code == grpc.StatusCode.FAILED_PRECONDITION
    assert converted.code_name == "FAILED_PRECONDITION"
    assert converted.message == "the red pile holds 3, fewer than 4"
    assert converted.reason == "PILE_BELOW_FOUR"
    assert converted.domain == "splendor.v1"
    assert converted.metadata == {"seat": "1", "color": "COLOR_RED"}
    assert converted.field_violations == [("action.take_two_gems.color", "the bank holds 3 red")]
    assert isinstance(converted.status, status_pb2.Status)
    text = str(converted)
    assert "FAILED_PRECONDITION" in text
    assert "PILE_BELOW_FOUR" in text
    assert "fewer than 4" in text
    assert "action.take_two_gems.color" in text
    assert "PILE_BELOW_FOUR" in repr(converted)


def test_invalid_argument_is_invalid_request_with_field_violations() -> None:
    error = rich_error(
        grpc.StatusCode.INVALID_ARGUMENT,
        "5 players asked for; 2 to 4 play",
        reason="INVALID_PLAYER_COUNT",
        violations=[("config.num_players", "must be 2 to 4"), ("config.seed", "also wrong")],
    )
    converted = from_rpc_error(error)
    assert type(converted) is InvalidRequest
    assert converted.reason == "INVALID_PLAYER_COUNT"
    assert converted.metadata == {}
    assert converted.field_violations == [("config.num_players", "must be 2 to 4"), ("config.seed", "also wrong")]


def test_bad_request_alone_still_gives_the_violations() -> None:
    converted = from_rpc_error(
        rich_error(grpc.StatusCode.INVALID_ARGUMENT, "no state", violations=[("state", "required")])
    )
    assert isinstance(converted, InvalidRequest)
    assert converted.reason == ""
    assert converted.domain == ""
    assert converted.field_violations == [("state", "required")]


@pytest.mark.parametrize(
    "code",
    [
        grpc.StatusCode.UNAVAILABLE,
        grpc.StatusCode.DEADLINE_EXCEEDED,
        grpc.StatusCode.RESOURCE_EXHAUSTED,
        grpc.StatusCode.INTERNAL,
        grpc.StatusCode.UNIMPLEMENTED,
    ],
)
def test_other_codes_are_plain_engine_errors(code: grpc.StatusCode) -> None:
    converted = from_rpc_error(FakeRpcError(code, "something went wrong", trailing=None))
    assert type(converted) is EngineError
    assert converted.code == code
    assert converted.message == "something went wrong"
    assert converted.reason == ""
    assert converted.domain == ""
    assert converted.metadata == {}
    assert converted.field_violations == []
    assert converted.status is None


def test_resource_exhausted_with_error_info_keeps_the_reason() -> None:
    converted = from_rpc_error(
        rich_error(grpc.StatusCode.RESOURCE_EXHAUSTED, "slow down", reason="RATE_LIMITED", domain="example.com")
    )
    assert type(converted) is EngineError
    assert (converted.reason, converted.domain) == ("RATE_LIMITED", "example.com")


def test_status_that_disagrees_with_the_call_keeps_the_call_code_and_the_details() -> None:
    status = rich_status(grpc.StatusCode.INVALID_ARGUMENT, "other words", reason="INVALID_STATE")
    error = FakeRpcError(
        grpc.StatusCode.FAILED_PRECONDITION,
        "the call's own message",
        (("grpc-status-details-bin", status.SerializeToString()),),
    )
    converted = from_rpc_error(error)
    assert type(converted) is RuleRejected
    assert converted.message == "the call's own message"
    assert converted.reason == "INVALID_STATE"


def test_garbage_details_are_ignored() -> None:
    error = FakeRpcError(
        grpc.StatusCode.FAILED_PRECONDITION, "bad", (("other-key", "x"), ("grpc-status-details-bin", b"\xff\xff\xff"))
    )
    converted = from_rpc_error(error)
    assert type(converted) is RuleRejected
    assert converted.reason == ""
    assert converted.status is None


def test_an_error_without_the_call_methods_becomes_unknown() -> None:
    converted = from_rpc_error(grpc.RpcError("bare"))
    assert type(converted) is EngineError
    assert converted.code == grpc.StatusCode.UNKNOWN


def test_client_calls_convert_errors_and_chain_the_original() -> None:
    original = rich_error(
        grpc.StatusCode.FAILED_PRECONDITION, "seat 0 must act", reason="NOT_YOUR_TURN", metadata={"seat": "1"}
    )

    def refuse(request: object) -> object:
        raise original

    client = EngineClient(FakeChannel({APPLY: refuse}))
    with pytest.raises(RuleRejected) as caught:
        client.apply(state_pb2.GameState(), actions.pass_turn(), seat=1)
    assert caught.value.reason == "NOT_YOUR_TURN"
    assert caught.value.metadata == {"seat": "1"}
    assert caught.value.__cause__ is original


def test_unimplemented_method_is_an_engine_error() -> None:
    client = EngineClient(FakeChannel())
    with pytest.raises(EngineError) as caught:
        client.get_catalog()
    assert caught.value.code == grpc.StatusCode.UNIMPLEMENTED
    assert not isinstance(caught.value, (RuleRejected, InvalidRequest))


def test_message_text_does_not_repeat_a_violation_that_only_echoes_it() -> None:
    converted = from_rpc_error(
        rich_error(
            grpc.StatusCode.INVALID_ARGUMENT,
            "a game has 2 to 4 players, not 5",
            reason="INVALID_PLAYER_COUNT",
            violations=[("config.num_players", "a game has 2 to 4 players, not 5")],
        )
    )
    assert (
        str(converted) == "INVALID_ARGUMENT INVALID_PLAYER_COUNT: a game has 2 to 4 players, not 5 (config.num_players)"
    )
