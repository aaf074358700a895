"""The same property through a real gRPC server on loopback: responses and error statuses with their details
are identical, apart from the token, for positions the caller cannot tell apart."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator

import grpc
import pytest
from google.protobuf.message import Message
from splendor.v1 import actions_pb2, bots_pb2, engine_service_pb2_grpc

from engine_service.rules import action_id, legal_actions
from engine_service.runtime.settings import Settings
from engine_service.server.app import build_server, start
from tests.noninterference.twins import (
    KEEP_TOP,
    RULESETS,
    SealedPair,
    pb,
    pinned_entropy,
    random_position,
    sealed_pair,
    twin,
)
from tests.sealing.api import CONFIG

pytestmark = pytest.mark.e2e
POSITIONS_PER_RULESET = 8


@pytest.fixture(scope="module")
def stub() -> Iterator[engine_service_pb2_grpc.EngineServiceStub]:
    settings = Settings(address="127.0.0.1:0", threads=2, metrics_port=0, http_address="")
    server, port, health = build_server(settings, key_ring=CONFIG.key_ring)
    start(server, health)
    with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
        yield engine_service_pb2_grpc.EngineServiceStub(channel)
    server.stop(0).wait()


def over_grpc(stub: engine_service_pb2_grpc.EngineServiceStub, method: str, request: Message) -> tuple[object, ...]:
    try:
        response = getattr(stub, method)(request, timeout=30)
    except grpc.RpcError as error:
        call: grpc.Call = error  # type: ignore[assignment]  # the RpcError of a unary call is also its Call
        details = [value for key, value in call.trailing_metadata() or () if key == "grpc-status-details-bin"]
        return ("refused", call.code(), call.details(), details)
    if hasattr(response, "sealed_state"):
        response.ClearField("sealed_state")
    for result in getattr(response, "results", ()):  # a batch: each item's token
        if result.HasField("response"):
            result.response.ClearField("sealed_state")
    return ("answered", response.SerializeToString(deterministic=True))


def alike(
    stub: engine_service_pb2_grpc.EngineServiceStub, pair: SealedPair, method: str, build: Callable[[bytes], Message]
) -> None:
    first = over_grpc(stub, method, build(pair.first))
    assert first == over_grpc(stub, method, build(pair.second)), f"{method} over gRPC tells the pair apart"


def compare_position(
    stub: engine_service_pb2_grpc.EngineServiceStub, rng: random.Random, ruleset: str, players: int
) -> None:
    state = random_position(rng, RULESETS[ruleset], players)
    seat = rng.randrange(players)
    pair = sealed_pair(state, twin(state, seat, rng))
    key = pair.keys[seat]
    alike(
        stub,
        pair,
        "GetPlayerView",
        lambda t: pb.GetPlayerViewRequest(sealed_state=t, seat=seat, seat_key=key, include_observation=True),
    )
    alike(stub, pair, "ListLegalActions", lambda t: pb.ListLegalActionsRequest(sealed_state=t, seat=seat, seat_key=key))
    alike(stub, pair, "GetPlayerView", lambda t: pb.GetPlayerViewRequest(sealed_state=t, seat=seat, seat_key=""))
    with pinned_entropy():
        alike(
            stub, pair, "Determinize", lambda t: pb.DeterminizeRequest(sealed_state=t, seat=seat, count=2, seat_key=key)
        )
    acting = state.acting_seat
    moves = sealed_pair(state, twin(state, acting, rng, keep_top=KEEP_TOP))
    move = action_id(rng.choice(legal_actions(state)))
    mine = moves.keys[acting]
    alike(
        stub,
        moves,
        "ApplyAction",
        lambda t: pb.ApplyActionRequest(
            sealed_state=t,
            action=actions_pb2.Action(action_id=move),
            seat=acting,
            seat_key=mine,
            include_legal_actions=True,
        ),
    )
    alike(
        stub,
        moves,
        "ApplyAction",
        lambda t: pb.ApplyActionRequest(sealed_state=t, action=actions_pb2.Action(action_id=8000), seat_key=mine),
    )
    with pinned_entropy():
        alike(
            stub,
            moves,
            "ApplyAction",
            lambda t: pb.ApplyActionRequest(
                sealed_state=t, bot=bots_pb2.BotChoice(policy="ismcts", iterations=5), seat_key=mine
            ),
        )
        # The same moves in one batch, with a refused and a malformed item among them.
        alike(
            stub,
            moves,
            "BatchApplyActions",
            lambda t: pb.BatchApplyActionsRequest(
                requests=[
                    pb.ApplyActionRequest(
                        sealed_state=t,
                        action=actions_pb2.Action(action_id=move),
                        seat_key=mine,
                        include_observation=True,
                    ),
                    pb.ApplyActionRequest(sealed_state=t, action=actions_pb2.Action(action_id=move)),
                    pb.ApplyActionRequest(sealed_state=t[:-7], action=actions_pb2.Action(action_id=move)),
                    pb.ApplyActionRequest(
                        sealed_state=t, bot=bots_pb2.BotChoice(policy="ismcts", iterations=5), seat_key=mine
                    ),
                ]
            ),
        )


@pytest.mark.parametrize("ruleset", RULESETS)
def test_answers_over_grpc_are_the_same_for_positions_the_caller_cannot_tell_apart(
    stub: engine_service_pb2_grpc.EngineServiceStub, ruleset: str
) -> None:
    rng = random.Random(ruleset)
    for index in range(POSITIONS_PER_RULESET):
        compare_position(stub, rng, ruleset, 2 + index % 3)
