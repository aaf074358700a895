"""EngineClient builds the right requests and unwraps the responses (over a fake channel)."""

from __future__ import annotations

from collections.abc import Callable
from concurrent import futures
from typing import Any

import grpc
import pytest
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_status import rpc_status
from splendor.v1 import (
    actions_pb2,
    catalog_pb2,
    config_pb2,
    engine_service_pb2,
    engine_service_pb2_grpc,
    events_pb2,
    state_pb2,
    view_pb2,
)
from splendor_client import (
    EngineClient,
    EngineError,
    GameResult,
    RuleRejected,
    actions,
    connect,
    game_config,
    module_value,
)

from tests.client.client_fakes import FakeChannel, rich_status, sample_catalog

SERVICE = "/splendor.v1.EngineService/"
STARTED = events_pb2.Event(game_started=events_pb2.GameStarted(first_seat=1, num_players=3))


def client_with(handlers: dict[str, Callable[[Any], Any]], **kwargs: Any) -> tuple[EngineClient, FakeChannel]:
    channel = FakeChannel({SERVICE + name: handler for name, handler in handlers.items()})
    return EngineClient(channel, **kwargs), channel


def sample_state(turn: int = 0) -> state_pb2.GameState:
    return state_pb2.GameState(turn=turn, seat=1, players=[state_pb2.PlayerState() for _ in range(3)])


def test_get_catalog() -> None:
    client, channel = client_with(
        {"GetCatalog": lambda request: engine_service_pb2.GetCatalogResponse(catalog=sample_catalog())}
    )
    catalog = client.get_catalog()
    assert isinstance(catalog, catalog_pb2.Catalog)
    assert catalog == sample_catalog()
    method, request, options = channel.calls[0]
    assert method == SERVICE + "GetCatalog"
    assert request == engine_service_pb2.GetCatalogRequest()
    assert options["timeout"] == 10.0


def test_create_game_returns_state_and_events() -> None:
    config = game_config(num_players=3, seed=7)

    def create(request: engine_service_pb2.CreateGameRequest) -> engine_service_pb2.CreateGameResponse:
        state = sample_state()
        state.config.CopyFrom(request.config)
        return engine_service_pb2.CreateGameResponse(state=state, events=[STARTED])

    client, _ = client_with({"CreateGame": create})
    result = client.create_game(config)
    assert isinstance(result, GameResult)
    assert result.state.config == config
    assert result.events == [STARTED]
    assert isinstance(result.events, list)
    assert not result.finished


def test_new_game_builds_the_config() -> None:
    client, channel = client_with(
        {"CreateGame": lambda request: engine_service_pb2.CreateGameResponse(state=sample_state())}
    )
    client.new_game()
    client.new_game(num_players=4, seed=2**40, first_seat=0, modules=["cities", "MODULE_ORIENT", 2], turn_limit=80)
    first, second = (request.config for _, request, _ in channel.calls)
    assert first == config_pb2.GameConfig(num_players=2, seed=0)
    assert not first.HasField("first_seat")
    assert second.num_players == 4
    assert second.seed == 2**40
    assert second.HasField("first_seat")
    assert second.first_seat == 0
    assert list(second.modules) == [config_pb2.MODULE_CITIES, config_pb2.MODULE_ORIENT, config_pb2.MODULE_TRADING_POSTS]
    assert second.turn_limit == 80


def test_module_names() -> None:
    assert module_value("trading-posts") == config_pb2.MODULE_TRADING_POSTS
    assert module_value("Strongholds") == config_pb2.MODULE_STRONGHOLDS
    with pytest.raises(ValueError, match="cities"):
        module_value("dragons")


def test_legal_actions() -> None:
    legal = [
        actions_pb2.LegalAction(action_id=25, action=actions.take_two("white")),
        actions_pb2.LegalAction(action_id=276, action=actions.pass_turn()),
    ]
    client, channel = client_with(
        {"ListLegalActions": lambda request: engine_service_pb2.ListLegalActionsResponse(actions=legal, seat=2)}
    )
    assert client.legal_actions(sample_state(5)) == legal
    assert client.list_legal_actions(sample_state(5)).seat == 2
    assert channel.calls[0][1].state == sample_state(5)


def test_apply_sends_only_what_is_given() -> None:
    def apply(request: engine_service_pb2.ApplyActionRequest) -> engine_service_pb2.ApplyActionResponse:
        state = state_pb2.GameState()
        state.CopyFrom(request.state)
        if not request.validate_only:
            state.turn += 1
        return engine_service_pb2.ApplyActionResponse(
            state=state, events=[STARTED] if not request.validate_only else []
        )

    client, channel = client_with({"ApplyAction": apply}, timeout=2.5, metadata=[("x-player", "alice")])
    result = client.apply(sample_state(3), actions.take_gems("red", "blue", "green"))
    assert result.state.turn == 4
    assert result.events == [STARTED]
    _, request, options = channel.calls[-1]
    assert request.action == actions.take_gems("red", "blue", "green")
    assert not request.HasField("seat")
    assert not request.HasField("expected_turn")
    assert not request.validate_only
    assert options == {"timeout": 2.5, "metadata": (("x-player", "alice"),)}

    checked = client.apply(sample_state(3), 276, seat=0, validate_only=True, expected_turn=0)
    assert checked.state.turn == 3
    assert checked.events == []
    _, request, _ = channel.calls[-1]
    assert request.action == actions_pb2.Action(action_id=276)
    assert request.HasField("seat")
    assert request.seat == 0
    assert request.HasField("expected_turn")
    assert request.expected_turn == 0
    assert request.validate_only

    legal = actions_pb2.LegalAction(action_id=186, action=actions.purchase(30))
    client.apply(sample_state(3), legal)
    assert channel.calls[-1][1].action == actions.purchase(30)


def test_view_for_a_seat_and_for_a_spectator() -> None:
    def view(request: engine_service_pb2.GetPlayerViewRequest) -> engine_service_pb2.GetPlayerViewResponse:
        game_view = view_pb2.GameView(num_players=3, turn=request.state.turn)
        if request.HasField("seat"):
            game_view.viewer_seat = request.seat
        return engine_service_pb2.GetPlayerViewResponse(view=game_view, events=request.events)

    client, channel = client_with({"GetPlayerView": view})
    seen = client.view(sample_state(9), seat=0, events=[STARTED])
    assert seen.view.HasField("viewer_seat")
    assert seen.view.viewer_seat == 0
    assert seen.view.turn == 9
    assert seen.events == [STARTED]
    spectator = client.view(sample_state(9))
    assert not spectator.view.HasField("viewer_seat")
    assert spectator.events == []
    assert not channel.calls[-1][1].HasField("seat")


def test_replay() -> None:
    def replay(request: engine_service_pb2.ReplayGameRequest) -> engine_service_pb2.ReplayGameResponse:
        return engine_service_pb2.ReplayGameResponse(
            state=sample_state(len(request.actions)),
            events=[STARTED],
            state_digests=[f"{index:064x}" for index in range(len(request.actions))],
        )

    client, channel = client_with({"ReplayGame": replay})
    config = game_config(num_players=3, seed=1)
    log = [actions.take_gems("red", "blue", "green"), 25, actions_pb2.LegalAction(action=actions.pass_turn())]
    result = client.replay(config, log)
    assert result.state.turn == 3
    assert result.events == [STARTED]
    assert result.state_digests == [f"{index:064x}" for index in range(3)]
    request = channel.calls[0][1]
    assert request.config == config
    assert list(request.actions) == [log[0], actions_pb2.Action(action_id=25), actions.pass_turn()]
    assert not request.skip_state_digests and not request.skip_events  # both asked for by default
    client.replay(config, log, digests=False, events=False)
    lean = channel.calls[1][1]
    assert lean.skip_state_digests and lean.skip_events and list(lean.actions) == list(request.actions)


def test_health_uses_the_standard_health_service() -> None:
    def check(request: health_pb2.HealthCheckRequest) -> health_pb2.HealthCheckResponse:
        serving = request.service in ("", "splendor.v1.EngineService")
        status = health_pb2.HealthCheckResponse.SERVING if serving else health_pb2.HealthCheckResponse.NOT_SERVING
        return health_pb2.HealthCheckResponse(status=status)

    channel = FakeChannel({"/grpc.health.v1.Health/Check": check})
    client = EngineClient(channel)
    assert client.health() == "SERVING"
    assert client.health("splendor.v1.EngineService") == "SERVING"
    assert client.health("other") == "NOT_SERVING"


def test_context_manager_closes_only_an_owned_channel() -> None:
    borrowed = FakeChannel()
    with EngineClient(borrowed) as client:
        assert client.channel is borrowed
    assert not borrowed.closed
    owned = FakeChannel()
    with EngineClient(owned, owns_channel=True):
        pass
    assert owned.closed


def test_connect_to_nothing_is_unavailable() -> None:
    with connect("127.0.0.1:1", timeout=5) as client:
        assert isinstance(client, EngineClient)
        with pytest.raises(EngineError) as caught:
            client.get_catalog()
    assert caught.value.code == grpc.StatusCode.UNAVAILABLE
    assert type(caught.value) is EngineError


def test_wait_until_ready_gives_up_with_unavailable() -> None:
    with connect("127.0.0.1:1") as client, pytest.raises(EngineError) as caught:
        client.wait_until_ready(0.2)
    assert caught.value.code == grpc.StatusCode.UNAVAILABLE


class _TinyEngine(engine_service_pb2_grpc.EngineServiceServicer):
    """Just enough of a servicer to send real rich errors over a real channel."""

    def GetCatalog(self, request: Any, context: grpc.ServicerContext) -> engine_service_pb2.GetCatalogResponse:  # noqa: N802
        return engine_service_pb2.GetCatalogResponse(catalog=sample_catalog())

    def ApplyAction(self, request: Any, context: grpc.ServicerContext) -> engine_service_pb2.ApplyActionResponse:  # noqa: N802
        status = rich_status(
            grpc.StatusCode.FAILED_PRECONDITION,
            "the red pile holds 3, fewer than 4",
            reason="PILE_BELOW_FOUR",
            metadata={"seat": str(request.seat)},
            violations=[("action.take_two_gems.color", "fewer than 4 red in the bank")],
        )
        context.abort_with_status(rpc_status.to_status(status))
        raise AssertionError("abort_with_status returns only by raising")


def test_rich_errors_survive_a_real_channel() -> None:
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=2))
    engine_service_pb2_grpc.add_EngineServiceServicer_to_server(_TinyEngine(), server)
    health_servicer = health.HealthServicer()
    health_pb2_grpc.add_HealthServicer_to_server(health_servicer, server)
    port = server.add_insecure_port("127.0.0.1:0")
    server.start()
    try:
        with connect(f"127.0.0.1:{port}", timeout=5) as client:
            client.wait_until_ready(5)
            assert client.get_catalog() == sample_catalog()
            assert client.health() == "SERVING"
            health_servicer.set("", health_pb2.HealthCheckResponse.NOT_SERVING)
            assert client.health() == "NOT_SERVING"
            with pytest.raises(RuleRejected) as caught:
                client.apply(sample_state(), actions.take_two("red"), seat=1)
            with pytest.raises(EngineError) as unknown:
                client.health("no.such.Service")
    finally:
        server.stop(grace=None)
    error = caught.value
    assert error.code == grpc.StatusCode.FAILED_PRECONDITION
    assert error.reason == "PILE_BELOW_FOUR"
    assert error.domain == "splendor.v1"
    assert error.metadata == {"seat": "1"}
    assert error.field_violations == [("action.take_two_gems.color", "fewer than 4 red in the bank")]
    assert error.message == "the red pile holds 3, fewer than 4"
    assert unknown.value.code == grpc.StatusCode.NOT_FOUND
