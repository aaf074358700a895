"""/metrics after real calls: the standard gRPC metrics and the game's, with their exact names and labels."""

from __future__ import annotations

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc
from splendor.v1 import actions_pb2, common_pb2, config_pb2, engine_service_pb2, state_pb2

from tests.ops.support import ENGINE, Samples, Server, delta, stub, value

pytestmark = pytest.mark.e2e

OK_APPLY = {"grpc_method": "ApplyAction", "grpc_code": "OK"}


def take_gems(*colors: int) -> actions_pb2.Action:
    return actions_pb2.Action(take_gems=actions_pb2.TakeGems(colors=colors))  # type: ignore[arg-type]


def take_two(color: int) -> actions_pb2.Action:
    return actions_pb2.Action(take_two_gems=actions_pb2.TakeTwoGems(color=color))  # type: ignore[arg-type]


def test_apply_action_calls_are_counted_once_each(server: Server) -> None:
    engine = stub(server.channel())
    before = server.scrape()
    state = engine.CreateGame(
        engine_service_pb2.CreateGameRequest(config=config_pb2.GameConfig(num_players=3, seed=5)), timeout=5
    ).state
    kinds: dict[str, int] = {}
    applied = 9
    for _ in range(applied):
        legal = engine.ListLegalActions(engine_service_pb2.ListLegalActionsRequest(state=state), timeout=5).actions
        chosen = legal[len(legal) // 2]
        kind = chosen.action.WhichOneof("kind")
        kinds[kind] = kinds.get(kind, 0) + 1
        # Every other move by id: counted by the kind the id stands for.
        request = engine_service_pb2.ApplyActionRequest(state=state, action=chosen.action)
        if len(kinds) % 2:
            request.action.CopyFrom(actions_pb2.Action(action_id=chosen.action_id))
        state = engine.ApplyAction(request, timeout=5).state
    # validate_only is not an applied action (but it is an ApplyAction call).
    legal = engine.ListLegalActions(engine_service_pb2.ListLegalActionsRequest(state=state), timeout=5).actions
    engine.ApplyAction(
        engine_service_pb2.ApplyActionRequest(state=state, action=legal[0].action, validate_only=True), timeout=5
    )
    after = server.scrape()

    labels = {"grpc_service": ENGINE, "grpc_method": "ApplyAction", "grpc_type": "unary"}
    assert delta(before, after, "grpc_server_started_total", **labels) == applied + 1
    assert delta(before, after, "grpc_server_handled_total", **labels, grpc_code="OK") == applied + 1
    assert delta(before, after, "grpc_server_handled_total", **labels) == applied + 1  # no other code
    assert delta(before, after, "grpc_server_msg_received_total", **labels) == applied + 1
    assert delta(before, after, "grpc_server_msg_sent_total", **labels) == applied + 1
    assert delta(before, after, "grpc_server_handling_seconds_count", **labels) == applied + 1
    assert delta(before, after, "grpc_server_handling_seconds_bucket", **labels, le="+Inf") == applied + 1
    assert delta(before, after, "grpc_server_handled_total", grpc_method="ListLegalActions", grpc_code="OK") == (
        applied + 1
    )
    assert delta(before, after, "grpc_server_handled_total", grpc_method="CreateGame", grpc_code="OK") == 1
    for kind, count in kinds.items():
        assert delta(before, after, "splendor_actions_applied_total", kind=kind) == count, kind
    assert delta(before, after, "splendor_actions_applied_total") == applied
    assert delta(before, after, "splendor_actions_applied_total", kind="action_id") == 0
    assert delta(before, after, "splendor_games_created_total", module="base", players="3") == 1
    # A state in the CreateGame response and in each ApplyAction response.
    assert delta(before, after, "splendor_state_size_bytes_count") == 1 + applied + 1
    assert 100 * (applied + 2) < delta(before, after, "splendor_state_size_bytes_sum") < 2000 * (applied + 2)


def test_refusals_count_as_rejections_with_their_code(server: Server) -> None:
    engine = stub(server.channel())
    state = engine.CreateGame(
        engine_service_pb2.CreateGameRequest(config=config_pb2.GameConfig(num_players=2, seed=8)), timeout=5
    ).state
    red, blue, green = common_pb2.COLOR_RED, common_pb2.COLOR_BLUE, common_pb2.COLOR_GREEN
    state = engine.ApplyAction(
        engine_service_pb2.ApplyActionRequest(state=state, action=take_gems(red, blue, green)), timeout=5
    ).state
    before = server.scrape()
    with pytest.raises(grpc.RpcError) as refused:  # 3 red left in the bank: two red needs 4
        engine.ApplyAction.with_call(
            engine_service_pb2.ApplyActionRequest(state=state, action=take_two(red)),
            metadata=[("x-request-id", "pile-below-four")],
            timeout=5,
        )
    assert refused.value.code() == grpc.StatusCode.FAILED_PRECONDITION
    with pytest.raises(grpc.RpcError) as invalid:
        engine.CreateGame(engine_service_pb2.CreateGameRequest(config=config_pb2.GameConfig(num_players=7)), timeout=5)
    assert invalid.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    after = server.scrape()

    assert delta(before, after, "splendor_rejections_total", reason="PILE_BELOW_FOUR") == 1
    assert delta(before, after, "splendor_rejections_total", reason="INVALID_PLAYER_COUNT") == 1
    assert delta(before, after, "splendor_rejections_total") == 2
    apply_labels = {"grpc_method": "ApplyAction", "grpc_service": ENGINE}
    assert delta(before, after, "grpc_server_handled_total", **apply_labels, grpc_code="FAILED_PRECONDITION") == 1
    assert delta(before, after, "grpc_server_handled_total", **apply_labels, grpc_code="OK") == 0
    assert delta(before, after, "grpc_server_msg_received_total", **apply_labels) == 1
    assert delta(before, after, "grpc_server_msg_sent_total", **apply_labels) == 0  # an error is not a message
    assert delta(before, after, "splendor_actions_applied_total") == 0
    assert (
        delta(before, after, "grpc_server_handled_total", grpc_method="CreateGame", grpc_code="INVALID_ARGUMENT") == 1
    )
    assert delta(before, after, "splendor_games_created_total") == 0

    line = server.call_log("pile-below-four")
    assert line["code"] == "FAILED_PRECONDITION" and line["reason"] == "PILE_BELOW_FOUR"
    assert line["action"] == "take_two_gems" and line["seat"] == state.seat and line["turn"] == 1


def test_finished_games_are_counted_by_end_reason(server: Server) -> None:
    engine = stub(server.channel())
    before = server.scrape()
    config = config_pb2.GameConfig(num_players=2, seed=4, turn_limit=2)
    state = engine.CreateGame(engine_service_pb2.CreateGameRequest(config=config), timeout=5).state
    red, blue, green, white = (
        common_pb2.COLOR_RED,
        common_pb2.COLOR_BLUE,
        common_pb2.COLOR_GREEN,
        common_pb2.COLOR_WHITE,
    )
    for colors in ((red, blue, green), (blue, green, white)):
        state = engine.ApplyAction(
            engine_service_pb2.ApplyActionRequest(state=state, action=take_gems(*colors)), timeout=5
        ).state
    assert state.end_reason == state_pb2.END_REASON_TURN_LIMIT_REACHED
    after = server.scrape()
    assert delta(before, after, "splendor_games_finished_total", end_reason="TURN_LIMIT_REACHED") == 1
    assert delta(before, after, "splendor_games_finished_total") == 1
    assert delta(before, after, "splendor_games_created_total", module="base", players="2") == 1
    # Replaying the finished game is not another finished game, nor more applied actions.
    engine.ReplayGame(
        engine_service_pb2.ReplayGameRequest(config=config, actions=[take_gems(red, blue, green)] * 1), timeout=5
    )
    again = server.scrape()
    assert delta(after, again, "splendor_games_finished_total") == 0
    assert delta(after, again, "splendor_actions_applied_total") == 0
    assert delta(after, again, "grpc_server_handled_total", grpc_method="ReplayGame", grpc_code="OK") == 1


def test_health_and_streaming_calls_have_their_grpc_type(server: Server) -> None:
    channel = server.channel()
    health: object = health_pb2_grpc.HealthStub(channel)
    before = server.scrape()
    for _ in range(3):
        assert health.Check(health_pb2.HealthCheckRequest(service=ENGINE), timeout=5).status == 1  # type: ignore[attr-defined]
    with pytest.raises(grpc.RpcError):
        health.Check(health_pb2.HealthCheckRequest(service="no.such.Service"), timeout=5)  # type: ignore[attr-defined]
    watch = health.Watch(health_pb2.HealthCheckRequest(service=ENGINE))  # type: ignore[attr-defined]
    assert next(watch).status == health_pb2.HealthCheckResponse.SERVING
    watch.cancel()

    def watch_ended() -> Samples | None:  # the server learns of the cancellation asynchronously
        samples = server.scrape()
        ended = delta(before, samples, "grpc_server_handled_total", grpc_method="Watch", grpc_code="CANCELLED")
        return samples if ended == 1 else None

    after = server.wait_for(watch_ended)
    check = {"grpc_service": "grpc.health.v1.Health", "grpc_method": "Check", "grpc_type": "unary"}
    assert delta(before, after, "grpc_server_handled_total", **check, grpc_code="OK") == 3
    assert delta(before, after, "grpc_server_handled_total", **check, grpc_code="NOT_FOUND") == 1
    watch_labels = {"grpc_service": "grpc.health.v1.Health", "grpc_method": "Watch", "grpc_type": "server_stream"}
    assert delta(before, after, "grpc_server_started_total", **watch_labels) == 1
    assert delta(before, after, "grpc_server_msg_sent_total", **watch_labels) == 1


def test_the_exposition_has_every_dashboard_metric_with_its_labels(server: Server) -> None:
    engine = stub(server.channel())
    engine.GetCatalog(engine_service_pb2.GetCatalogRequest(), timeout=5)
    samples = server.scrape()
    grpc_labels = {"grpc_type", "grpc_service", "grpc_method"}
    expected = {
        "grpc_server_started_total": grpc_labels,
        "grpc_server_handled_total": grpc_labels | {"grpc_code"},
        "grpc_server_msg_received_total": grpc_labels,
        "grpc_server_msg_sent_total": grpc_labels,
        "grpc_server_handling_seconds_bucket": grpc_labels | {"le"},
        "grpc_server_handling_seconds_count": grpc_labels,
        "grpc_server_handling_seconds_sum": grpc_labels,
        "splendor_games_created_total": {"module", "players"},
        "splendor_actions_applied_total": {"kind"},
        "splendor_rejections_total": {"reason"},
        "splendor_games_finished_total": {"end_reason"},
        "splendor_state_size_bytes_bucket": {"le"},
        "splendor_state_size_bytes_count": set(),
        "splendor_state_size_bytes_sum": set(),
    }
    for name, labels in expected.items():
        label_sets = [{key for key, _ in sample_labels} for sample, sample_labels in samples if sample == name]
        assert label_sets, f"{name} is missing"
        assert all(found == labels for found in label_sets), (name, label_sets)
    assert value(samples, "grpc_server_handled_total", grpc_method="GetCatalog", grpc_code="OK") >= 1
    # No *_created series next to the counters (they double the series for nothing here).
    assert not [
        sample for sample, _ in samples if sample.startswith(("grpc_", "splendor_")) and sample.endswith("_created")
    ]


def test_a_batch_is_one_call_and_one_log_line_its_items_counted_as_their_apply_actions(server: Server) -> None:
    engine = stub(server.channel())
    state = engine.CreateGame(
        engine_service_pb2.CreateGameRequest(config=config_pb2.GameConfig(num_players=2, seed=8)), timeout=5
    ).state
    legal = engine.ListLegalActions(engine_service_pb2.ListLegalActionsRequest(state=state), timeout=5).actions
    kinds = [legal[0].action.WhichOneof("kind"), legal[-1].action.WhichOneof("kind")]
    batch = engine_service_pb2.BatchApplyActionsRequest()
    batch.requests.add(state=state, action=legal[0].action)
    batch.requests.add(state=state, action=actions_pb2.Action(action_id=legal[-1].action_id))
    batch.requests.add(state=state, action=legal[0].action, validate_only=True)  # answered, not applied
    batch.requests.add(state=state, action=take_two(common_pb2.COLOR_RED), seat=1 - state.seat)  # NOT_YOUR_TURN
    batch.requests.add(action=legal[0].action)  # no state: INVALID_STATE
    before = server.scrape()
    results = engine.BatchApplyActions(batch, metadata=[("x-request-id", "batch-5")], timeout=5).results
    after = server.scrape()
    assert [result.WhichOneof("outcome") for result in results] == ["response"] * 3 + ["error"] * 2

    line = server.call_log("batch-5")
    assert (line["method"], line["code"], line["items"], line["items_refused"]) == ("BatchApplyActions", "OK", 5, 2)
    assert "seat" not in line and "action" not in line  # an item's facts are its own, in the metrics
    labels = {"grpc_service": ENGINE, "grpc_method": "BatchApplyActions", "grpc_type": "unary"}
    assert delta(before, after, "grpc_server_handled_total", **labels, grpc_code="OK") == 1
    assert delta(before, after, "splendor_batch_items_total", outcome="answered") == 3
    assert delta(before, after, "splendor_batch_items_total", outcome="refused") == 2
    assert delta(before, after, "splendor_actions_applied_total") == 2
    for kind in set(kinds):
        assert delta(before, after, "splendor_actions_applied_total", kind=kind) == kinds.count(kind)
    assert delta(before, after, "splendor_rejections_total", reason="NOT_YOUR_TURN") == 1
    assert delta(before, after, "splendor_rejections_total", reason="INVALID_STATE") == 1
    assert delta(before, after, "splendor_state_size_bytes_count") == 3
