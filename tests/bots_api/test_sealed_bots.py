"""Bots, Simulate and Determinize on sealed games through a real server: nothing leaks to the request's seat."""

from __future__ import annotations

from collections.abc import Iterator

import grpc
import pytest
from splendor.v1 import bots_pb2, config_pb2, engine_service_pb2, engine_service_pb2_grpc

from engine_service.runtime.settings import Settings
from engine_service.server.app import build_server, start

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def stub() -> Iterator[engine_service_pb2_grpc.EngineServiceStub]:
    server, port, health = build_server(Settings(address="127.0.0.1:0", threads=2, metrics_port=0))
    start(server, health)
    with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
        yield engine_service_pb2_grpc.EngineServiceStub(channel)
    server.stop(0).wait()


def _sealed(stub: engine_service_pb2_grpc.EngineServiceStub, seat: int) -> tuple[bytes, list[str]]:
    """A sealed 2-player game dealt from a server-drawn seed: its token and seat keys."""
    config = config_pb2.GameConfig(num_players=2, first_seat=0)
    created = stub.CreateGame(engine_service_pb2.CreateGameRequest(config=config, sealed=True, seat=seat))
    return bytes(created.sealed_state), list(created.seat_keys)


def test_a_bot_moves_in_a_sealed_game_and_only_the_next_seats_own_request_lists_its_actions(
    stub: engine_service_pb2_grpc.EngineServiceStub,
) -> None:
    token, keys = _sealed(stub, 0)
    bot = bots_pb2.BotChoice(policy="greedy", seed=1)
    mine = stub.ApplyAction(
        engine_service_pb2.ApplyActionRequest(
            sealed_state=token, seat=0, bot=bot, include_legal_actions=True, seat_key=keys[0]
        )
    )
    assert mine.applied.HasField("action") and mine.acting_seat == 1
    assert not mine.legal_actions  # seat 1 acts next: its options stay hidden from seat 0
    assert mine.view.viewer_seat == 0 and not mine.HasField("state")
    theirs = stub.ApplyAction(
        engine_service_pb2.ApplyActionRequest(
            sealed_state=mine.sealed_state,
            seat=1,
            bot=bot,
            include_legal_actions=True,
            include_observation=True,
            seat_key=keys[1],
        )
    )
    assert theirs.acting_seat == 0 and not theirs.legal_actions
    assert theirs.observation.seat == 1 and not any(theirs.observation.legal_action_mask)
    view = stub.GetPlayerView(
        engine_service_pb2.GetPlayerViewRequest(
            sealed_state=theirs.sealed_state, seat=0, include_observation=True, seat_key=keys[0]
        )
    )
    listed = stub.ListLegalActions(
        engine_service_pb2.ListLegalActionsRequest(sealed_state=theirs.sealed_state, seat=0, seat_key=keys[0])
    )
    mask = view.observation.legal_action_mask
    assert {index for index, flag in enumerate(mask) if flag} == {action.action_id for action in listed.actions}


def test_simulate_needs_a_seat_for_a_sealed_game_and_determinize_samples_it_in_the_clear(
    stub: engine_service_pb2_grpc.EngineServiceStub,
) -> None:
    token, keys = _sealed(stub, 0)
    request = engine_service_pb2.SimulateRequest(sealed_state=token, playouts=3, seed=1)
    request.policies.add(policy="random")
    with pytest.raises(grpc.RpcError) as caught:
        stub.Simulate(request)
    assert caught.value.code() is grpc.StatusCode.INVALID_ARGUMENT
    request.seat = 0
    request.seat_key = keys[0]
    assert stub.Simulate(request).summary.playouts == 3
    sampling = engine_service_pb2.DeterminizeRequest(sealed_state=token, seat=1, count=4, seed=2, seat_key=keys[1])
    samples = stub.Determinize(sampling)
    assert len(samples.states) == 4
    assert len({tuple(sample.decks[0].card_ids) for sample in samples.states}) == 4
    # The server mixes in entropy the caller never sees: the same request samples afresh.
    again = stub.Determinize(sampling)
    assert [sample.decks[0].card_ids for sample in again.states] != [s.decks[0].card_ids for s in samples.states]


@pytest.mark.parametrize("with_key", ["none", "other seat's"])
def test_sealed_bots_and_samples_need_the_seats_own_key(
    stub: engine_service_pb2_grpc.EngineServiceStub, with_key: str
) -> None:
    token, keys = _sealed(stub, 0)
    key = "" if with_key == "none" else keys[1]
    bot = bots_pb2.BotChoice(policy="random", seed=1)
    simulate = engine_service_pb2.SimulateRequest(sealed_state=token, playouts=1, seat=0, seat_key=key)
    simulate.policies.add(policy="random")
    sample = engine_service_pb2.DeterminizeRequest(sealed_state=token, seat=0, count=1, seat_key=key)
    calls = [
        lambda: stub.ApplyAction(engine_service_pb2.ApplyActionRequest(sealed_state=token, bot=bot, seat_key=key)),
        lambda: stub.Determinize(sample),
        lambda: stub.Simulate(simulate),
    ]
    for attempt in calls:
        with pytest.raises(grpc.RpcError) as caught:
            attempt()
        assert caught.value.code() is grpc.StatusCode.PERMISSION_DENIED
        expected = "SEAT_KEY_MISSING" if with_key == "none" else "SEAT_KEY_INVALID"
        assert expected in str(caught.value.trailing_metadata())
