"""Limits: concurrent calls, message size, deadlines, connection age."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc
from splendor.v1 import config_pb2, engine_service_pb2

from tests.ops.support import ENGINE, Server, codes, delta, outcome, replay_request, stub
from tests.ops.test_shutdown import slow_view_request
from tests.polling import tcp_connections, wait_until

pytestmark = pytest.mark.e2e

BURST = 24
# Servers whose tests load them with slow calls of up to ~3 MB (many events to redact), over the default request limit.
BIG_REQUESTS = ("--max-request-bytes", str(8 << 20))


@pytest.fixture(scope="module")
def tight() -> Iterator[Server]:
    """A server admitting 2 calls at once, with 200 kB messages."""
    limits = ("--max-response-bytes", "200000", "--max-request-bytes", "200000")
    with Server("--threads", "2", "--max-concurrent-rpcs", "2", *limits) as server:
        yield server
        assert server.stop() == 0


def test_overload_is_refused_with_resource_exhausted_and_the_server_stays_responsive(tight: Server) -> None:
    request = replay_request()
    assert len(request.actions) > 200  # a long game: tens of milliseconds per replay
    channels = [tight.channel() for _ in range(4)]
    for channel in channels:
        grpc.channel_ready_future(channel).result(timeout=5)
    engines = [stub(channel) for channel in channels]
    before = tight.scrape()
    futures = [engines[n % len(engines)].ReplayGame.future(request, timeout=30) for n in range(BURST)]
    outcomes = codes(future.exception() for future in futures)
    refused = outcomes.count("RESOURCE_EXHAUSTED")
    assert refused > 0 and outcomes.count("OK") >= 2, outcomes
    assert set(outcomes) == {"OK", "RESOURCE_EXHAUSTED"}

    # Still serving, and the next call works.
    health: Any = health_pb2_grpc.HealthStub(channels[0])
    assert health.Check(health_pb2.HealthCheckRequest(service=ENGINE), timeout=5).status == 1
    game = engines[1].CreateGame(
        engine_service_pb2.CreateGameRequest(config=config_pb2.GameConfig(num_players=2)), timeout=5
    )
    assert game.state.players

    # Refused calls never reach a handler, yet they are counted and logged.
    after = tight.scrape()
    replay = {"grpc_method": "ReplayGame", "grpc_service": ENGINE}
    assert delta(before, after, "grpc_server_handled_total", **replay, grpc_code="RESOURCE_EXHAUSTED") == refused
    assert delta(before, after, "grpc_server_handled_total", **replay, grpc_code="OK") == outcomes.count("OK")
    assert delta(before, after, "grpc_server_started_total", **replay) == BURST
    assert delta(before, after, "grpc_server_handling_seconds_count", **replay) == outcomes.count("OK")
    lines = tight.wait_for(lambda: calls if len(calls := tight.calls("ReplayGame")) >= BURST else None)
    exhausted = [line for line in lines if line["code"] == "RESOURCE_EXHAUSTED"]
    assert len(exhausted) == refused
    # ReplayGame is expensive: beyond its places (1 running, 4 waiting), refused for want of one.
    assert all(line["level"] == "warning" and line["reason"] == "MAX_EXPENSIVE_CALLS" for line in exhausted)
    for channel in channels:
        channel.close()


def test_messages_above_the_limit_are_refused(tight: Server) -> None:
    with tight.channel() as channel:
        engine = stub(channel)
        with pytest.raises(grpc.RpcError) as refused:
            engine.GetPlayerView(slow_view_request(events=30_000), timeout=10)  # ~350 kB
        assert refused.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
        assert engine.GetCatalog(engine_service_pb2.GetCatalogRequest(), timeout=5).catalog.cards


@pytest.fixture(scope="module")
def aging() -> Iterator[Server]:
    """Connections closed after about a second; debug logs, which name each call's peer (client address)."""
    with Server(
        "--threads",
        "2",
        "--max-connection-age-seconds",
        "1",
        "--max-connection-age-grace-seconds",
        "5",
        "--log-level",
        "debug",
        *BIG_REQUESTS,
    ) as server:
        yield server
        assert server.stop() == 0


def test_connections_are_renewed_after_the_maximum_age(aging: Server) -> None:
    with aging.channel() as channel:
        engine = stub(channel)

        def peer_of_a_call(name: str) -> str:
            request, metadata = engine_service_pb2.GetCatalogRequest(), [("x-request-id", name)]
            engine.GetCatalog(request, metadata=metadata, timeout=5, wait_for_ready=True)
            return str(aging.call_log(name)["peer"])

        first = peer_of_a_call("first")
        # Past the age (1 s, +-10% jitter) the server sends GOAWAY and closes the connection; the client reconnects.
        first_port = int(first.rsplit(":", 1)[1])
        wait_until(lambda: tcp_connections(aging.port, first_port) == 0, what="the aged connection to close")
        second = peer_of_a_call("second")
    assert first.startswith("ipv4:127.0.0.1:") and second.startswith("ipv4:127.0.0.1:")
    assert first != second, "the second call must come over a new connection"


def test_a_call_past_its_deadline_is_recorded_as_such(aging: Server) -> None:
    """gRPC answers DEADLINE_EXCEEDED on time, but a sync handler runs to its end regardless."""
    with aging.channel() as channel:
        engine = stub(channel)
        before = aging.scrape()
        with pytest.raises(grpc.RpcError) as late:
            engine.GetPlayerView(slow_view_request(), timeout=0.1, metadata=[("x-request-id", "late")])
        assert late.value.code() == grpc.StatusCode.DEADLINE_EXCEEDED
        line = aging.call_log("late", timeout=10)
    assert line["code"] == "DEADLINE_EXCEEDED" and line["level"] == "warning"
    assert line["duration_ms"] > 100  # the handler went on after the deadline
    after = aging.scrape()
    assert (
        delta(before, after, "grpc_server_handled_total", grpc_method="GetPlayerView", grpc_code="DEADLINE_EXCEEDED")
        == 1
    )
    assert delta(before, after, "grpc_server_msg_sent_total", grpc_method="GetPlayerView") == 0


@pytest.fixture(scope="module")
def saturable() -> Iterator[Server]:
    """A server admitting 2 engine calls at once on 2 threads (and 2 expensive slots: the slow views below are
    expensive, and over gRPC they run on the cheap threads, in those slots)."""
    with Server("--threads", "2", "--max-concurrent-rpcs", "2", "--expensive-calls", "2", *BIG_REQUESTS) as server:
        yield server
        assert server.stop() == 0


def test_health_is_answered_while_engine_calls_are_shed(saturable: Server) -> None:
    """A saturated process still answers its liveness probe: health never counts against the limit."""
    channels = [saturable.channel() for _ in range(3)]
    for channel in channels:
        grpc.channel_ready_future(channel).result(timeout=5)
    # Over a second of CPU each (~4 MB; the answer, ~3.9 MB, stays under the 4 MiB a channel takes): the probes
    # and the shed calls below fit in that window even where the light lane waits for the GIL on a loaded machine.
    slow = slow_view_request(events=350_000)
    before = saturable.scrape()
    busy = [stub(channels[n]).GetPlayerView.future(slow, timeout=60) for n in range(2)]
    view = {"grpc_method": "GetPlayerView", "grpc_service": ENGINE}

    def both_running() -> bool:
        return delta(before, saturable.scrape(), "grpc_server_started_total", **view) == 2

    saturable.wait_for(both_running, timeout=30)
    health: Any = health_pb2_grpc.HealthStub(channels[2])
    engine = stub(channels[2])
    probes = []
    readiness = []
    shed = []
    for n in range(3):
        probes.append(health.Check(health_pb2.HealthCheckRequest(service=""), timeout=5).status)
        readiness.append(health.Check(health_pb2.HealthCheckRequest(service=ENGINE), timeout=5).status)
        shed.append(
            outcome(
                lambda n=n: engine.GetCatalog(
                    engine_service_pb2.GetCatalogRequest(), metadata=[("x-request-id", f"shed-{n}")], timeout=5
                )
            )
        )
    during = saturable.scrape()
    assert delta(before, during, "grpc_server_handled_total", **view) == 0, "the busy calls must still be running"
    # Liveness ("", the process) stays SERVING; readiness (the engine) is NOT_SERVING once the process
    # refuses calls for its limit (after the first refusal), so new calls go to other replicas.
    serving, not_serving = health_pb2.HealthCheckResponse.SERVING, health_pb2.HealthCheckResponse.NOT_SERVING
    assert probes == [serving] * 3
    assert readiness == [serving, not_serving, not_serving]
    assert codes(shed) == ["RESOURCE_EXHAUSTED"] * 3
    assert [future.result().view.num_players for future in busy] == [4, 4]

    # Shed calls are counted and logged as before; the probes count as answered health checks.
    after = saturable.scrape()
    catalog = {"grpc_method": "GetCatalog", "grpc_service": ENGINE}
    assert delta(before, after, "grpc_server_handled_total", **catalog, grpc_code="RESOURCE_EXHAUSTED") == 3
    assert delta(before, after, "grpc_server_started_total", **catalog) == 3
    check = {"grpc_service": "grpc.health.v1.Health", "grpc_method": "Check"}
    assert delta(before, after, "grpc_server_handled_total", **check, grpc_code="OK") == 6
    assert delta(before, after, "grpc_server_handled_total", **check, grpc_code="RESOURCE_EXHAUSTED") == 0
    for n in range(3):
        line = saturable.call_log(f"shed-{n}")
        assert (line["code"], line["level"], line["reason"]) == ("RESOURCE_EXHAUSTED", "warning", "MAX_CONCURRENT_RPCS")
    # The places of the busy calls are free again, and the engine is ready again.
    assert engine.GetCatalog(engine_service_pb2.GetCatalogRequest(), timeout=5).catalog.cards
    assert health.Check(health_pb2.HealthCheckRequest(service=ENGINE), timeout=5).status == serving
    for channel in channels:
        channel.close()
