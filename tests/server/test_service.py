"""Handlers called directly, for cases a well-behaved client never sends, and the gRPC adapter's errors."""

from __future__ import annotations

from typing import NoReturn

import grpc
import pytest
from splendor.v1 import engine_service_pb2

from engine_service.api import METHODS_BY_NAME, ApiError, Call, Code, Method, default_config, handlers, invoke
from engine_service.codec import state_to_proto
from engine_service.rules import DecisionKind, PendingDecision
from tests.server.positions import dealt, give_tokens


def _call(method: str = "test") -> Call:
    return Call(method)


def test_a_return_no_turn_can_require_is_refused_not_crashed() -> None:
    # 14 tokens: more than a turn can reach, so some answers have no action id.
    state = give_tokens(dealt(2, seed=1), 0, (3, 3, 3, 3, 2, 0))
    state = state._replace(pending=PendingDecision(DecisionKind.RETURN_TOKENS, 0, amount=4))
    request = engine_service_pb2.ListLegalActionsRequest(state=state_to_proto(state))
    with pytest.raises(ApiError) as caught:
        handlers.list_legal_actions(request, _call())
    assert caught.value.code is Code.INVALID_ARGUMENT


def test_a_bug_becomes_internal_without_details() -> None:
    def broken(request: engine_service_pb2.GetCatalogRequest, call: Call) -> NoReturn:
        raise ZeroDivisionError("secret detail")

    method = Method("GetCatalog", broken, engine_service_pb2.GetCatalogRequest, engine_service_pb2.GetCatalogResponse)
    call = _call()
    with pytest.raises(ApiError) as caught:
        invoke(method, engine_service_pb2.GetCatalogRequest(), call)
    assert caught.value.code is Code.INTERNAL and caught.value.reason is None
    assert "secret" not in caught.value.message and not caught.value.metadata
    assert call.reason is None


def test_a_refusal_names_its_reason_on_the_call() -> None:
    call = _call()
    request = engine_service_pb2.ApplyActionRequest()  # no state at all
    with pytest.raises(ApiError) as caught:
        invoke(METHODS_BY_NAME["ApplyAction"], request, call)
    assert caught.value.code is Code.INVALID_ARGUMENT
    assert call.reason == "INVALID_STATE"
    assert call.seat is None and call.turn is None  # there is no state to take them from


def test_an_invalid_state_records_no_seat_or_turn() -> None:
    request = engine_service_pb2.ApplyActionRequest(state=state_to_proto(dealt(2, seed=1)))
    request.state.turn = 5
    request.state.players[0].tokens.red = 99  # tokens not conserved
    call = _call()
    with pytest.raises(ApiError):
        invoke(METHODS_BY_NAME["ApplyAction"], request, call)
    assert call.reason == "INVALID_STATE" and call.seat is None and call.turn is None


def test_the_grpc_adapter_sends_a_refusal_as_the_call_status() -> None:
    from engine_service.server.service import _grpc_handler

    class Aborted(Exception):
        pass

    class Context:
        """Just enough of grpc.ServicerContext for the adapter."""

        status: grpc.Status | None = None

        def is_active(self) -> bool:
            return True

        def time_remaining(self) -> float | None:
            return None

        def abort_with_status(self, status: grpc.Status) -> NoReturn:
            self.status = status
            raise Aborted

    behavior = _grpc_handler(METHODS_BY_NAME["ApplyAction"], default_config()).unary_unary
    assert behavior is not None
    context = Context()
    with pytest.raises(Aborted):
        behavior((engine_service_pb2.ApplyActionRequest(), b""), context)  # type: ignore[arg-type]
    assert context.status is not None and context.status.code == grpc.StatusCode.INVALID_ARGUMENT


def test_legal_action_list_matches_the_core() -> None:
    from engine_service.rules import action_id, legal_actions

    state = dealt(3, seed=6)
    call = _call()
    response = handlers.list_legal_actions(
        engine_service_pb2.ListLegalActionsRequest(state=state_to_proto(state)), call
    )
    assert [legal.action_id for legal in response.actions] == [action_id(a) for a in legal_actions(state)]
    assert response.seat == state.acting_seat
    assert (call.seat, call.turn) == (state.acting_seat, state.turn)


def test_malformed_events_to_redact_name_their_index() -> None:
    request = engine_service_pb2.GetPlayerViewRequest(state=state_to_proto(dealt(2, seed=1)), seat=0)
    request.events.add().passed.seat = 1
    request.events.add()  # no kind
    with pytest.raises(ApiError) as caught:
        handlers.get_player_view(request, _call())
    assert caught.value.code is Code.INVALID_ARGUMENT
    assert [violation.field for violation in caught.value.field_violations] == ["events[1]"]


def test_a_response_is_serialized_once_and_sent_as_those_bytes() -> None:
    """encoding.encoded: ApplyAction's, a batch's, a view's and a replay's finished response is serialized once (to
    measure it, and to read the memo key of each new state in it), and Method.encode sends those very bytes; a
    response that is not the one encoded is serialized."""
    state = state_to_proto(dealt(2, seed=3))
    item = engine_service_pb2.ApplyActionRequest(state=state, include_legal_action_ids=True)
    item.action.action_id = (
        handlers.list_legal_actions(engine_service_pb2.ListLegalActionsRequest(state=state), _call())
        .actions[0]
        .action_id
    )
    batch_method = METHODS_BY_NAME["BatchApplyActions"]
    call = _call()
    response = invoke(batch_method, engine_service_pb2.BatchApplyActionsRequest(requests=[item] * 3), call)
    assert call.encoded_response is not None
    sent = batch_method.encode(response, call)
    assert sent is call.encoded_response[1] and sent == response.SerializeToString()
    sizes = [result.response.state.ByteSize() for result in response.results]
    assert [item_call.state_bytes for item_call in call.item_calls] == sizes  # read from those bytes
    assert batch_method.encode(engine_service_pb2.BatchApplyActionsResponse(), call) == b""  # another: serialized
    apply_method = METHODS_BY_NAME["ApplyAction"]
    single = _call()
    answer = invoke(apply_method, item, single)
    assert single.encoded_response is not None and apply_method.encode(answer, single) is single.encoded_response[1]
    assert single.state_bytes == answer.state.ByteSize() == sizes[0]
