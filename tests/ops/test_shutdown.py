"""SIGTERM under load: health turns NOT_SERVING first, every accepted call finishes, new calls are refused."""

from __future__ import annotations

import signal
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc
from splendor.v1 import config_pb2, engine_service_pb2

from engine_service.codec import fill_events, state_to_proto
from engine_service.rules import CardReserved, GemsTaken
from tests.ops.support import ENGINE, Server, stub, value
from tests.server.positions import dealt

pytestmark = pytest.mark.e2e

SLOW_CALLS = 4
LOAD_THREADS = 3


def slow_view_request(events: int = 100_000) -> engine_service_pb2.GetPlayerViewRequest:
    """A GetPlayerView call of a few hundred milliseconds: many events to redact."""
    request = engine_service_pb2.GetPlayerViewRequest(state=state_to_proto(dealt(4, seed=1)), seat=1)
    moves = [
        CardReserved(n % 4, 5, 0, True, None) if n % 2 else GemsTaken(n % 4, (1, 1, 1, 0, 0, 0)) for n in range(events)
    ]
    fill_events(request.events, moves)
    return request


@pytest.mark.timing
def test_sigterm_during_load_drains_every_accepted_call() -> None:
    # A thread for every call: the slow ones, the load, the health watch (a stream holds a thread), one spare.
    # Slow calls of ~2.3 MB: over the default request limit (1 MiB).
    big_requests = ("--max-request-bytes", str(8 << 20))
    # The slow views are expensive (many events): each takes an expensive slot, so there are as many slots as calls.
    threads = ("--threads", str(SLOW_CALLS + LOAD_THREADS + 2), "--expensive-calls", str(SLOW_CALLS))
    with Server(*threads, "--grace-seconds", "20", *big_requests) as server:
        channels = [server.channel() for _ in range(LOAD_THREADS + 2)]
        watch: Any = health_pb2_grpc.HealthStub(channels[0]).Watch(health_pb2.HealthCheckRequest(service=ENGINE))
        assert next(watch).status == health_pb2.HealthCheckResponse.SERVING
        request = slow_view_request(events=200_000)  # ~0.5 s of CPU each, ~2.3 MB
        engine = stub(channels[1])
        finished_at: dict[int, float] = {}
        stop_load = threading.Event()
        load_outcomes: list[str] = []

        def slow(index: int) -> int:
            response = engine.GetPlayerView(request, timeout=60)
            finished_at[index] = time.monotonic()
            return len(response.events)

        def load(channel: grpc.Channel) -> None:  # short calls back to back until the server refuses them
            calls = stub(channel)
            config = config_pb2.GameConfig(num_players=2, seed=1)
            while not stop_load.is_set():
                try:
                    calls.CreateGame(engine_service_pb2.CreateGameRequest(config=config), timeout=10)
                    load_outcomes.append("OK")
                except grpc.RpcError as error:
                    load_outcomes.append(error.code().name)
                    return

        with ThreadPoolExecutor(SLOW_CALLS + LOAD_THREADS + 1) as pool:
            try:
                slow_calls = [pool.submit(slow, index) for index in range(SLOW_CALLS)]
                loaders = [pool.submit(load, channel) for channel in channels[2:]]
                server.wait_for(
                    lambda: (
                        value(server.scrape(), "grpc_server_started_total", grpc_method="GetPlayerView") == SLOW_CALLS
                    ),
                    timeout=30,
                )
                assert not any(call.done() for call in slow_calls), "the slow calls must be in flight at SIGTERM"
                server.process.send_signal(signal.SIGTERM)
                signalled = time.monotonic()
                assert pool.submit(next, watch).result(timeout=10).status == health_pb2.HealthCheckResponse.NOT_SERVING
                not_serving_at = time.monotonic()
                watch.cancel()  # a watch is a call in flight too
                results = [call.result(timeout=30) for call in slow_calls]
            finally:
                stop_load.set()
                watch.cancel()
            for loader in loaders:
                loader.result(timeout=30)
        assert results == [200_000] * SLOW_CALLS
        assert not_serving_at < max(finished_at.values()), "health must turn NOT_SERVING while calls still run"
        with pytest.raises(grpc.RpcError) as refused:
            stub(channels[1]).GetCatalog(engine_service_pb2.GetCatalogRequest(), timeout=5)
        assert refused.value.code() == grpc.StatusCode.UNAVAILABLE
        assert server.process.wait(timeout=30) == 0
        assert time.monotonic() - signalled < 20  # within the grace
        for channel in channels:
            channel.close()
        server.stop()

        # The load ran until the server stopped taking calls, and only then failed, with UNAVAILABLE.
        assert load_outcomes.count("OK") > 0
        # UNAVAILABLE once the server stopped accepting; CANCELLED for a call already queued inside
        # gRPC's core but not yet handed to the server at that moment. Neither ran: both can be retried.
        assert set(load_outcomes) <= {"OK", "UNAVAILABLE", "CANCELLED"}
        # Every call the server accepted finished: its log has as many OK CreateGame lines as the clients
        # saw answers, and no other code; the slow calls all logged OK.
        create_lines = server.calls("CreateGame")
        assert {line["code"] for line in create_lines} == {"OK"}
        assert len(create_lines) == load_outcomes.count("OK")
        assert [line["code"] for line in server.calls("GetPlayerView")] == ["OK"] * SLOW_CALLS
        events = [entry["event"] for entry in server.logs if entry["event"] not in ("rpc", "rules_core_hint")]
        assert events == ["rules_core", "sealing_key_generated", "server_started", "server_draining", "server_stopped"]
        (draining,) = server.events("server_draining")
        assert draining["signal"] == "SIGTERM"
        # NOT_SERVING (set right after this line is logged) came before any slow call ended.
        assert draining["timestamp"] < min(line["timestamp"] for line in server.calls("GetPlayerView"))
