"""Operations: health, reflection, draining, and SIGTERM on the real command."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha.proto_reflection_descriptor_database import ProtoReflectionDescriptorDatabase
from splendor.v1 import engine_service_pb2, engine_service_pb2_grpc
from splendor_client import connect

from engine_service.api import METHODS
from engine_service.codec import fill_events, state_to_proto
from engine_service.rules import CardReserved, GemsTaken
from engine_service.runtime.metrics import get_metrics
from engine_service.runtime.settings import Settings
from engine_service.server.app import SERVICE_NAME, build_server, drain, start
from tests.http.support import connect_json, connect_refusal
from tests.ops.support import free_port
from tests.polling import wait_until
from tests.server.positions import dealt

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
SERVING = health_pb2.HealthCheckResponse.SERVING
NOT_SERVING = health_pb2.HealthCheckResponse.NOT_SERVING
# Events of a GetPlayerView that takes a few hundred milliseconds, within the largest request (~0.9 MB of 1 MiB).
SLOW_EVENTS = 80_000


def test_health_is_serving_for_the_server_and_the_engine(channel: grpc.Channel) -> None:
    stub: Any = health_pb2_grpc.HealthStub(channel)  # the stubs package leaves its methods undeclared
    for service in ("", SERVICE_NAME):
        assert stub.Check(health_pb2.HealthCheckRequest(service=service), timeout=5).status == SERVING
    with pytest.raises(grpc.RpcError) as caught:
        stub.Check(health_pb2.HealthCheckRequest(service="no.such.Service"), timeout=5)
    assert caught.value.code() == grpc.StatusCode.NOT_FOUND


def test_reflection_lists_the_services(channel: grpc.Channel) -> None:
    database = ProtoReflectionDescriptorDatabase(channel)
    services = set(database.get_services())
    assert {SERVICE_NAME, "grpc.health.v1.Health", "grpc.reflection.v1alpha.ServerReflection"} <= services
    from google.protobuf.descriptor_pool import DescriptorPool

    methods = {method.name for method in DescriptorPool(database).FindServiceByName(SERVICE_NAME).methods}
    assert methods == {method.name for method in METHODS}


def _slow_view_request(events: int = SLOW_EVENTS) -> engine_service_pb2.GetPlayerViewRequest:
    """A GetPlayerView call that takes a few hundred milliseconds: many events to redact."""
    request = engine_service_pb2.GetPlayerViewRequest(state=state_to_proto(dealt(4, seed=1)), seat=1)
    moves = [
        CardReserved(n % 4, 5, 0, True, None) if n % 2 else GemsTaken(n % 4, (1, 1, 1, 0, 0, 0)) for n in range(events)
    ]
    fill_events(request.events, moves)
    return request


def _views_started(metrics_port: int) -> float:
    """The server's count of GetPlayerView calls started, read from its /metrics endpoint."""
    with urllib.request.urlopen(f"http://127.0.0.1:{metrics_port}/metrics", timeout=5) as answer:
        text = answer.read().decode()
    for line in text.splitlines():
        if line.startswith("grpc_server_started_total{") and 'grpc_method="GetPlayerView"' in line:
            return float(line.rsplit(" ", 1)[1])
    return 0.0


def test_draining_reports_not_serving_and_finishes_calls_in_flight() -> None:
    server, port, health = build_server(Settings(address="127.0.0.1:0", threads=4))
    start(server, health)
    with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
        health_stub: Any = health_pb2_grpc.HealthStub(channel)
        watch = health_stub.Watch(health_pb2.HealthCheckRequest(service=SERVICE_NAME))
        assert next(watch).status == SERVING
        stub = engine_service_pb2_grpc.EngineServiceStub(channel)
        views_started = get_metrics().started.labels("unary", SERVICE_NAME, "GetPlayerView")
        before = views_started._value.get()
        slow = stub.GetPlayerView.future(_slow_view_request(), timeout=30)
        wait_until(lambda: views_started._value.get() > before, what="the call to reach its handler")
        assert not slow.done()
        stopped = drain(server, health, grace_seconds=20)
        assert next(watch).status == NOT_SERVING
        watch.cancel()  # a watch is a call in flight too: let the server stop
        assert len(slow.result(timeout=20).events) == SLOW_EVENTS
        with pytest.raises(grpc.RpcError) as caught:
            stub.GetCatalog(engine_service_pb2.GetCatalogRequest(), timeout=5)
        assert caught.value.code() == grpc.StatusCode.UNAVAILABLE
    assert stopped.wait(timeout=20)


@pytest.mark.timing
def test_sigterm_lets_calls_in_flight_complete() -> None:
    grace = 20.0
    env = {**os.environ, "PYTHONPATH": str(ROOT), "SPLENDOR_LOG_LEVEL": "info"}
    metrics_port = free_port()
    command = [sys.executable, "-m", "engine_service.cli", "serve", "--address", "127.0.0.1:0"]
    # The four calls run at once: four threads, and four expensive slots (a view of many events is expensive).
    command += ["--metrics-port", str(metrics_port), "--threads", "4", "--expensive-calls", "4"]
    process = subprocess.Popen(
        [*command, "--http-address", "127.0.0.1:0", "--grace-seconds", str(grace)],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stdout is not None  # the logs: JSON lines on stdout
        core = json.loads(process.stdout.readline())  # which rules core runs, before anything else
        assert core["event"] == "rules_core" and core["core"] in ("compiled", "pure")
        first = json.loads(process.stdout.readline())
        if first["event"] == "rules_core_hint":  # the pure core says how to get the compiled one
            first = json.loads(process.stdout.readline())
        # no key ring is configured: the server says so next
        assert first["event"] == "sealing_key_generated" and first["level"] == "warning"
        started = json.loads(process.stdout.readline())
        assert started["event"] == "server_started" and started["pid"] == process.pid
        assert started["protobuf_backend"] == "upb"
        address = started["address"]
        request = _slow_view_request()
        with connect(address, timeout=60) as client, ThreadPoolExecutor(4) as pool:
            client.wait_until_ready(10)
            assert client.health() == "SERVING"
            stub = engine_service_pb2_grpc.EngineServiceStub(client.channel)
            calls = [pool.submit(stub.GetPlayerView, request, timeout=60) for _ in range(4)]
            wait_until(lambda: _views_started(metrics_port) == 4, what="every call to reach its handler")
            assert not any(call.done() for call in calls), "the calls must still be in flight at SIGTERM"
            signalled = time.monotonic()
            process.send_signal(signal.SIGTERM)
            for call in calls:
                assert len(call.result(timeout=grace).events) == SLOW_EVENTS
        assert process.wait(timeout=grace) == 0
        assert time.monotonic() - signalled < grace
        log = [json.loads(line) for line in process.stdout.read().splitlines() if line.startswith("{")]
        assert [entry["event"] for entry in log if entry["event"] != "rpc"] == ["server_draining", "server_stopped"]
        assert [entry["code"] for entry in log if entry.get("method") == "GetPlayerView"] == ["OK"] * 4
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


def test_one_limit_on_concurrent_calls_covers_grpc_and_http() -> None:
    """``--max-concurrent-rpcs`` bounds the engine calls of a process, whichever transport brings them."""
    metrics_port = free_port()
    command = [sys.executable, "-m", "engine_service.cli", "serve", "--address", "127.0.0.1:0"]
    command += ["--http-address", "127.0.0.1:0", "--metrics-port", str(metrics_port), "--max-concurrent-rpcs", "1"]
    env = {**os.environ, "PYTHONPATH": str(ROOT), "SPLENDOR_LOG_LEVEL": "info"}
    process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.PIPE, text=True)
    try:
        assert process.stdout is not None
        lines = (json.loads(line) for line in process.stdout)
        started = next(line for line in lines if line["event"] == "server_started")
        http_port = int(started["http_address"].rsplit(":", 1)[1])
        with connect(started["address"], timeout=60) as client, ThreadPoolExecutor(1) as pool:
            client.wait_until_ready(10)
            stub = engine_service_pb2_grpc.EngineServiceStub(client.channel)
            slow = pool.submit(stub.GetPlayerView, _slow_view_request(), timeout=60)
            wait_until(lambda: _views_started(metrics_port) == 1, what="the gRPC call to hold the only place")
            refused = connect_json(http_port, "CreateGame", {"config": {"numPlayers": 2}})
            assert not slow.done(), "the gRPC call must still be in flight"
            refusal = connect_refusal(refused)
            assert refused.status == 429 and refusal.code == "RESOURCE_EXHAUSTED"
            assert len(slow.result(timeout=60).events) == SLOW_EVENTS
            again = connect_json(http_port, "CreateGame", {"config": {"numPlayers": 2}})
            assert again.status == 200  # the place is free again
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
