"""Handlers called directly, for cases a well-behaved client never sends."""

from __future__ import annotations

from typing import NoReturn

import grpc
import pytest
from splendor.v1 import engine_service_pb2

from engine_service.codec import state_to_proto
from engine_service.rules import DecisionKind, PendingDecision
from engine_service.server import service
from engine_service.server.errors import Rejected
from tests.server.positions import dealt, give_tokens


class _Aborted(Exception):
    pass


class _Context:
    """Just enough of grpc.ServicerContext for ``service._run``."""

    status: grpc.Status | None = None

    def abort_with_status(self, status: grpc.Status) -> NoReturn:
        self.status = status
        raise _Aborted


def test_a_return_no_turn_can_require_is_refused_not_crashed() -> None:
    # 14 tokens: more than a turn can reach, so some answers have no action id.
    state = give_tokens(dealt(2, seed=1), 0, (3, 3, 3, 3, 2, 0))
    state = state._replace(pending=PendingDecision(DecisionKind.RETURN_TOKENS, 0, amount=4))
    request = engine_service_pb2.ListLegalActionsRequest(state=state_to_proto(state))
    with pytest.raises(Rejected) as caught:
        service.list_legal_actions(request)
    assert caught.value.status.code == grpc.StatusCode.INVALID_ARGUMENT


def test_a_bug_becomes_internal_without_details(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(request: engine_service_pb2.GetCatalogRequest) -> NoReturn:
        raise ZeroDivisionError("secret detail")

    context = _Context()
    with pytest.raises(_Aborted):
        service._run(context, broken, engine_service_pb2.GetCatalogRequest())  # type: ignore[arg-type]
    assert context.status is not None and context.status.code == grpc.StatusCode.INTERNAL
    assert "secret" not in context.status.details


def test_a_refusal_becomes_the_call_status() -> None:
    context = _Context()
    request = engine_service_pb2.ApplyActionRequest()  # no state at all
    with pytest.raises(_Aborted):
        service._run(context, service.apply_action, request)  # type: ignore[arg-type]
    assert context.status is not None and context.status.code == grpc.StatusCode.INVALID_ARGUMENT


def test_legal_action_list_matches_the_core() -> None:
    from engine_service.rules import action_id, legal_actions

    state = dealt(3, seed=6)
    response = service.list_legal_actions(engine_service_pb2.ListLegalActionsRequest(state=state_to_proto(state)))
    assert [legal.action_id for legal in response.actions] == [action_id(a) for a in legal_actions(state)]
    assert response.seat == state.acting_seat


def test_malformed_events_to_redact_name_their_index() -> None:
    request = engine_service_pb2.GetPlayerViewRequest(state=state_to_proto(dealt(2, seed=1)), seat=0)
    request.events.add().passed.seat = 1
    request.events.add()  # no kind
    with pytest.raises(Rejected) as caught:
        service.get_player_view(request)
    status = caught.value.status
    assert status.code == grpc.StatusCode.INVALID_ARGUMENT
    assert "events[1]" in status.trailing_metadata[0][1].decode("latin-1")
