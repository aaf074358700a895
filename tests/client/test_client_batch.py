"""EngineClient.apply_batch against a real server: for each request, what apply_request returns or raises.

Rule: an item's result is its ApplyActionResponse, or the EngineError (the same class, reason, metadata and
fields) its own ApplyAction call raises, returned in its place; only a refusal of the whole call raises.
"""

from __future__ import annotations

from collections.abc import Iterator

import grpc
import pytest
from splendor.v1 import actions_pb2, bots_pb2, engine_service_pb2
from splendor_client import (
    BatchTooLarge,
    EngineClient,
    EngineError,
    InvalidRequest,
    PermissionDenied,
    RuleRejected,
    TokenRefused,
    connect,
    outcome,
)

from engine_service.runtime.settings import Settings
from engine_service.sealing import KeyRing
from engine_service.server.app import build_server, start

pb = engine_service_pb2
LIMIT = 8


@pytest.fixture(scope="module")
def client() -> Iterator[EngineClient]:
    settings = Settings(address="127.0.0.1:0", metrics_port=0, http_address="", max_batch_items=LIMIT)
    server, port, health = build_server(settings, key_ring=KeyRing.generate())
    start(server, health)
    with connect(f"127.0.0.1:{port}") as engine:
        yield engine
    server.stop(0).wait()


def _requests(client: EngineClient) -> list[pb.ApplyActionRequest]:
    plain = client.new_game(num_players=2, seed=3).state
    sealed = client.new_game(num_players=2, sealed=True)
    move = client.legal_actions(plain)[0].action
    acting = sealed.acting_seat
    sealed_move = client.legal_actions(sealed, seat=acting)[0].action
    return [
        pb.ApplyActionRequest(state=plain, action=move, include_legal_actions=True),
        pb.ApplyActionRequest(state=plain, action=actions_pb2.Action(take_two_gems=actions_pb2.TakeTwoGems())),
        pb.ApplyActionRequest(state=plain, action=move, seat=1 - plain.seat),
        pb.ApplyActionRequest(sealed_state=sealed.token, action=sealed_move, seat_key=sealed.seat_keys[acting]),
        pb.ApplyActionRequest(sealed_state=sealed.token, action=sealed_move),
        pb.ApplyActionRequest(sealed_state=sealed.token[:-1], action=sealed_move),
        pb.ApplyActionRequest(state=plain, bot=bots_pb2.BotChoice(policy="greedy", seed=2)),
    ]


def _alone(client: EngineClient, request: pb.ApplyActionRequest) -> pb.ApplyActionResponse | EngineError:
    try:
        return client.apply_request(request)
    except EngineError as error:
        return error


def test_each_result_is_what_its_own_call_returns_or_raises(client: EngineClient) -> None:
    requests = _requests(client)
    results = client.apply_batch(requests)
    assert len(results) == len(requests)
    kinds = []
    for request, result in zip(requests, results):
        alone = _alone(client, request)
        assert type(result) is type(alone)
        if isinstance(alone, EngineError):
            assert isinstance(result, EngineError)
            assert (result.code, result.reason, result.domain) == (alone.code, alone.reason, alone.domain)
            assert (result.metadata, result.field_violations, result.message) == (
                alone.metadata,
                alone.field_violations,
                alone.message,
            )
            assert str(result) == str(alone)
        else:
            assert isinstance(result, pb.ApplyActionResponse)
            if not request.HasField("sealed_state"):  # a token is sealed afresh at every call
                assert result == alone
        kinds.append(type(result))
    assert kinds == [
        pb.ApplyActionResponse,
        InvalidRequest,
        RuleRejected,
        pb.ApplyActionResponse,
        PermissionDenied,
        TokenRefused,
        pb.ApplyActionResponse,
    ]


def test_a_batch_built_in_place_reads_back_through_outcome(client: EngineClient) -> None:
    state = client.new_game(num_players=3, seed=4).state
    batch = pb.BatchApplyActionsRequest()
    for legal in client.legal_actions(state)[:3]:
        batch.requests.add(state=state, action=legal.action)
    batch.requests.add(state=state)  # no move
    results = [outcome(result) for result in client.batch_request(batch).results]
    assert all(isinstance(result, pb.ApplyActionResponse) for result in results[:3])
    assert isinstance(results[3], InvalidRequest) and results[3].reason == "UNKNOWN_ACTION"


def test_more_items_than_the_server_takes_raise_batch_too_large(client: EngineClient) -> None:
    assert client.get_catalog().limits.max_batch_items == LIMIT
    state = client.new_game(num_players=2, seed=5).state
    request = pb.ApplyActionRequest(state=state, action=client.legal_actions(state)[0].action)
    assert len(client.apply_batch([request] * LIMIT)) == LIMIT
    with pytest.raises(BatchTooLarge) as caught:
        client.apply_batch([request] * (LIMIT + 1))
    error = caught.value
    assert error.code == grpc.StatusCode.INVALID_ARGUMENT and error.reason == "BATCH_TOO_LARGE"
    assert error.metadata == {"items": str(LIMIT + 1), "limit": str(LIMIT)}
