"""Refusals over HTTP carry what they carry over gRPC (code, ErrorInfo reason, domain and metadata,
BadRequest fields), and bad HTTP input gets a clear error, never a crash or a stall."""

from __future__ import annotations

import http.client
from collections.abc import Iterator
from typing import Any

import grpc
import pytest
from grpc_status import rpc_status
from splendor.v1 import actions_pb2, common_pb2, config_pb2, engine_service_pb2, engine_service_pb2_grpc

from engine_service.runtime.settings import Settings
from tests.http.conftest import MAX_MESSAGE_BYTES, Ports, serve
from tests.http.support import (
    ENGINE,
    Refusal,
    connect_json,
    connect_proto,
    connect_refusal,
    frame,
    grpc_web,
    post,
    refusal_from_status,
    request,
)

pytestmark = pytest.mark.e2e
pb = engine_service_pb2


def over_grpc(engine: Any, method: str, message: Any) -> Refusal:
    with pytest.raises(grpc.RpcError) as raised:
        getattr(engine, method)(message, timeout=10)
    status = rpc_status.from_call(raised.value)
    assert status is not None
    return refusal_from_status(status)


def refusals(http_port: int, engine: Any, method: str, message: Any, response_type: Any) -> list[Refusal]:
    """The refusal of ``message`` over gRPC, Connect binary and gRPC-Web."""
    return [
        over_grpc(engine, method, message),
        connect_proto(http_port, method, message, response_type),  # type: ignore[list-item]
        grpc_web(http_port, method, message, response_type),  # type: ignore[list-item]
    ]


def test_an_illegal_move_is_refused_alike_over_every_transport(http_port: int, engine: Any) -> None:
    state = engine.CreateGame(pb.CreateGameRequest(config=config_pb2.GameConfig(num_players=2, seed=1))).state
    take_two = actions_pb2.Action(take_two_gems=actions_pb2.TakeTwoGems(color=common_pb2.COLOR_RED))
    state = engine.ApplyAction(pb.ApplyActionRequest(state=state, action=take_two)).state
    request_ = pb.ApplyActionRequest(state=state, action=take_two)
    grpc_refusal, *http_refusals = refusals(http_port, engine, "ApplyAction", request_, pb.ApplyActionResponse)
    assert grpc_refusal.code == "FAILED_PRECONDITION"
    assert grpc_refusal.reason == "PILE_BELOW_FOUR" and grpc_refusal.domain == "splendor.v1"
    assert set(grpc_refusal.metadata) >= {"acting_seat", "turn"} and grpc_refusal.fields == [
        "action.take_two_gems.color"
    ]
    for refusal in http_refusals:
        assert refusal == grpc_refusal


def test_a_malformed_state_is_refused_alike_over_every_transport(http_port: int, engine: Any) -> None:
    request_ = pb.ListLegalActionsRequest()  # no state at all
    grpc_refusal, *http_refusals = refusals(
        http_port, engine, "ListLegalActions", request_, pb.ListLegalActionsResponse
    )
    assert grpc_refusal.code == "INVALID_ARGUMENT" and grpc_refusal.reason == "INVALID_STATE"
    assert http_refusals == [grpc_refusal, grpc_refusal]


def test_connect_json_errors_carry_the_details_and_an_http_status(http_port: int) -> None:
    reply = connect_json(http_port, "CreateGame", {"config": {"numPlayers": 7}}, {"x-request-id": "seven"})
    assert reply.status == 400  # invalid_argument
    assert reply.headers["x-request-id"] == "seven"
    refusal = connect_refusal(reply)
    assert refusal.code == "INVALID_ARGUMENT" and refusal.reason == "INVALID_PLAYER_COUNT"
    assert refusal.metadata == {"num_players": "7"} and refusal.fields == ["config.num_players"]
    stale = connect_json(http_port, "ApplyAction", {"state": {}, "action": {"pass": {}}})
    assert stale.status == 400 and connect_refusal(stale).reason == "INVALID_STATE"


def test_an_unknown_path_is_404(http_port: int) -> None:
    for path in (f"{ENGINE}/NoSuchMethod", "/splendor.v1.Other/CreateGame", "/", "/metrics"):
        assert post(http_port, path, b"{}", "application/json").status == 404, path


def test_only_post_is_served(http_port: int) -> None:
    reply = request(http_port, "GET", f"{ENGINE}/GetCatalog")
    assert reply.status == 405 and reply.headers["allow"] == "POST"


@pytest.mark.parametrize(
    "content_type",
    ["text/plain", "application/grpc", "application/grpc+proto", "application/connect+json", "application/xml", ""],
)
def test_other_content_types_are_415(http_port: int, content_type: str) -> None:
    reply = post(http_port, f"{ENGINE}/GetCatalog", b"{}", content_type)
    assert reply.status == 415
    assert "application/json" in reply.headers["accept-post"]


def test_malformed_bodies_are_invalid_argument_with_the_reason(http_port: int) -> None:
    for body in (b"{not json", b"[]", b'{"config": {"numPlayers": "two"}}'):
        reply = post(http_port, f"{ENGINE}/CreateGame", body, "application/json")
        refusal = connect_refusal(reply)
        assert reply.status == 400 and refusal.code == "INVALID_ARGUMENT", body
        assert refusal.message.startswith("unmarshal message"), refusal.message
    misspelt = connect_refusal(connect_json(http_port, "CreateGame", {"config": {"numPlayer": 2}}))
    assert misspelt.code == "INVALID_ARGUMENT" and "numPlayer" in misspelt.message  # unknown fields are refused
    garbage = post(http_port, f"{ENGINE}/CreateGame", b"\xff\xff\xff\xff", "application/proto")
    assert connect_refusal(garbage).code == "INVALID_ARGUMENT"
    truncated = post(http_port, f"{ENGINE}/CreateGame", frame(b"\x0a\x05")[:-1], "application/grpc-web+proto")
    assert truncated.headers.get("grpc-status") == "3" or b"grpc-status:3" in truncated.body.replace(b" ", b"")


def test_a_body_over_the_message_limit_is_resource_exhausted(http_port: int) -> None:
    padding = "x" * MAX_MESSAGE_BYTES
    reply = post(
        http_port, f"{ENGINE}/CreateGame", f'{{"config": {{}}, "pad": "{padding}"}}'.encode(), "application/json"
    )
    refusal = connect_refusal(reply)
    assert refusal.code == "RESOURCE_EXHAUSTED" and str(MAX_MESSAGE_BYTES) in refusal.message
    # Far over the limit: refused by the HTTP server from the announced length, before any body is read
    # (a client that sends it anyway gets the same answer: tests/http/test_http_edge.py).
    conn = http.client.HTTPConnection("127.0.0.1", http_port, timeout=10)
    try:
        conn.putrequest("POST", f"{ENGINE}/CreateGame")
        conn.putheader("Content-Type", "application/json")
        conn.putheader("Content-Length", str(3 * MAX_MESSAGE_BYTES))
        conn.endheaders()
        assert conn.getresponse().status == 413
    finally:
        conn.close()
    assert connect_json(http_port, "GetCatalog", {}).status == 200  # and the server still serves


@pytest.fixture(scope="module")
def small_limit() -> Iterator[Ports]:
    """A server whose message limit (4 KiB) is below the catalog's size."""
    settings = Settings(address="127.0.0.1:0", http_address="127.0.0.1:0", max_response_bytes=4096)
    for ports, _ in serve(settings):
        yield ports


def test_a_response_over_the_message_limit_is_resource_exhausted_as_over_grpc(small_limit: Ports) -> None:
    with grpc.insecure_channel(f"127.0.0.1:{small_limit.grpc}") as channel:
        engine = engine_service_pb2_grpc.EngineServiceStub(channel)
        with pytest.raises(grpc.RpcError) as raised:
            engine.GetCatalog(pb.GetCatalogRequest(), timeout=10)
    assert raised.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
    refusal = connect_refusal(connect_json(small_limit.http, "GetCatalog", {}))
    assert refusal.code == "RESOURCE_EXHAUSTED" and "4096" in refusal.message
    assert connect_json(small_limit.http, "CreateGame", {"config": {"numPlayers": 2}}).status == 200
