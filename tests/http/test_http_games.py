"""A whole random game over each HTTP encoding: Connect JSON (raw JSON POSTs, as curl sends
them), Connect binary and gRPC-Web, every RPC of the service, the same results as over gRPC."""

from __future__ import annotations

import random
from typing import Any

import grpc
import pytest
from google.protobuf import json_format
from splendor.v1 import config_pb2, engine_service_pb2, engine_service_pb2_grpc, state_pb2

from tests.http.conftest import Ports
from tests.http.support import Refusal, connect_json, connect_proto, frame, grpc_web, post, unframe

pytestmark = pytest.mark.e2e

MAX_STEPS = 2000
pb = engine_service_pb2


def test_a_random_game_over_connect_json(http_port: int) -> None:
    rng = random.Random(3)
    # seed is a uint64: a string in proto3 JSON; numPlayers as original field name works too.
    created = connect_json(http_port, "CreateGame", {"config": {"num_players": 3, "seed": "18446744073709551615"}})
    assert created.status == 200, created.body
    assert created.headers["content-type"] == "application/json"
    game = created.json()
    state = game["state"]
    assert state["config"]["seed"] == "18446744073709551615"
    assert "turn" not in state  # turn 0: a zero value, left out
    assert game["events"]
    replayed: list[dict[str, Any]] = []
    for _ in range(MAX_STEPS):
        if state.get("endReason"):
            break
        listed = connect_json(http_port, "ListLegalActions", {"state": state}).json()
        choice = rng.choice(listed["actions"])
        # LegalAction.actionId 0 is a zero value, left out of the output; in the Action oneof
        # a member is kept even at zero, so it is sent as {"actionId": 0}.
        action = {"actionId": choice.get("actionId", 0)}
        reply = connect_json(http_port, "ApplyAction", {"state": state, "action": action})
        assert reply.status == 200, reply.body
        state = reply.json()["state"]
        replayed.append(choice["action"])
        seat = listed.get("seat", 0)  # seat 0 is omitted
        view = connect_json(http_port, "GetPlayerView", {"state": state, "seat": seat}).json()["view"]
        assert view["viewerSeat"] == seat  # an optional field keeps its zero: seat 0 is written
        assert "seed" not in view
    assert state["endReason"].startswith("END_REASON_")
    spectator = connect_json(http_port, "GetPlayerView", {"state": state}).json()
    assert "viewerSeat" not in spectator["view"]
    replay = connect_json(
        http_port, "ReplayGame", {"config": {"numPlayers": 3, "seed": "18446744073709551615"}, "actions": replayed}
    ).json()
    assert replay["state"] == state
    assert len(replay["stateDigests"]) == len(replayed)
    catalog = connect_json(http_port, "GetCatalog", {}).json()["catalog"]
    assert catalog["actionIdCount"] == 8920


def _play(call: Any, rng: random.Random, config: config_pb2.GameConfig) -> state_pb2.GameState:
    created = call("CreateGame", pb.CreateGameRequest(config=config), pb.CreateGameResponse)
    state = created.state
    for _ in range(MAX_STEPS):
        if state.end_reason != state_pb2.END_REASON_UNSPECIFIED:
            break
        listed = call("ListLegalActions", pb.ListLegalActionsRequest(state=state), pb.ListLegalActionsResponse)
        choice = rng.choice(list(listed.actions))
        applied = call("ApplyAction", pb.ApplyActionRequest(state=state, action=choice.action), pb.ApplyActionResponse)
        state = applied.state
        view = call("GetPlayerView", pb.GetPlayerViewRequest(state=state, seat=listed.seat), pb.GetPlayerViewResponse)
        assert view.view.HasField("viewer_seat") and view.view.viewer_seat == listed.seat
    return state


@pytest.mark.parametrize("encoding", ["connect_proto", "grpc_web"])
def test_a_random_game_over_binary_encodings_ends_as_over_grpc(encoding: str, http_port: int, engine: Any) -> None:
    def over_http(method: str, request: Any, response_type: Any) -> Any:
        send = connect_proto if encoding == "connect_proto" else grpc_web
        response = send(http_port, method, request, response_type)
        assert not isinstance(response, Refusal), response
        return response

    def over_grpc(method: str, request: Any, response_type: Any) -> Any:
        return getattr(engine, method)(request, timeout=10)

    config = config_pb2.GameConfig(num_players=4, seed=77, modules=[config_pb2.MODULE_CITIES])
    final = _play(over_http, random.Random(5), config)
    assert final.end_reason != state_pb2.END_REASON_UNSPECIFIED
    assert final == _play(over_grpc, random.Random(5), config)  # same engine, same seed, same choices
    catalog = over_http("GetCatalog", pb.GetCatalogRequest(), pb.GetCatalogResponse)
    assert catalog == engine.GetCatalog(pb.GetCatalogRequest(), timeout=10)


def test_grpc_web_with_json_messages(http_port: int) -> None:
    body = frame(b'{"config": {"numPlayers": 2, "seed": "5"}}')
    reply = post(http_port, "/splendor.v1.EngineService/CreateGame", body, "application/grpc-web+json")
    assert reply.status == 200
    assert reply.headers["content-type"] == "application/grpc-web+json"
    (message,), trailers = unframe(reply.body)
    assert trailers["grpc-status"] == "0"
    created = json_format.Parse(message, pb.CreateGameResponse())
    assert created.state.config.seed == 5


def test_a_token_sealed_over_grpc_is_played_over_connect_and_back(ports: Ports) -> None:
    """Sealed games cross transports: both listeners of a process share the one key ring (tokens and seat keys)."""
    with grpc.insecure_channel(f"127.0.0.1:{ports.grpc}") as channel:
        stub = engine_service_pb2_grpc.EngineServiceStub(channel)
        config = config_pb2.GameConfig(num_players=2, first_seat=0)
        created = stub.CreateGame(pb.CreateGameRequest(config=config, sealed=True, seat=0))
        assert created.sealed_state and not created.HasField("state")
        key = created.seat_keys[0]
        listed = connect_proto(
            ports.http,
            "ListLegalActions",
            pb.ListLegalActionsRequest(sealed_state=created.sealed_state, seat=0, seat_key=key),
            pb.ListLegalActionsResponse,
        )
        assert isinstance(listed, pb.ListLegalActionsResponse), listed
        request = pb.ApplyActionRequest(sealed_state=created.sealed_state, seat=0, seat_key=key)
        request.action.action_id = listed.actions[0].action_id
        applied = connect_proto(ports.http, "ApplyAction", request, pb.ApplyActionResponse)
        assert isinstance(applied, pb.ApplyActionResponse), applied
        assert applied.sealed_state_binding.step == 1
        back = stub.GetPlayerView(pb.GetPlayerViewRequest(sealed_state=applied.sealed_state, seat=0, seat_key=key))
        assert back.view.turn == 1 or back.view.HasField("pending")


def test_a_batch_answers_alike_over_every_encoding_its_refused_item_with_its_status(
    http_port: int, engine: Any
) -> None:
    state = engine.CreateGame(pb.CreateGameRequest(config=config_pb2.GameConfig(num_players=2, seed=12))).state
    legal = engine.ListLegalActions(pb.ListLegalActionsRequest(state=state)).actions
    batch = pb.BatchApplyActionsRequest()
    batch.requests.add(state=state, action=legal[0].action, include_observation=True, observation_legal_ids=True)
    batch.requests.add(state=state).action.action_id = 9_000  # not an action id: refused alone
    expected = engine.BatchApplyActions(batch)
    for call in (connect_proto, grpc_web):
        assert call(http_port, "BatchApplyActions", batch, pb.BatchApplyActionsResponse) == expected
    reply = connect_json(http_port, "BatchApplyActions", json_format.MessageToDict(batch))
    assert reply.status == 200, reply.body
    answered, refused = reply.json()["results"]
    assert json_format.ParseDict(answered, pb.BatchApplyActionsResult()) == expected.results[0]
    error = refused["error"]
    assert error["code"] == grpc.StatusCode.INVALID_ARGUMENT.value[0]
    assert error["details"][0]["@type"] == "type.googleapis.com/google.rpc.ErrorInfo"
    assert error["details"][0]["reason"] == "UNKNOWN_ACTION"
    assert error["details"][1]["fieldViolations"][0]["field"] == "action.action_id"
