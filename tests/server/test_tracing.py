"""Traces: a SERVER span per call continuing the caller's trace, with the request's conversion, the rules
core and the response as child spans, public attributes only; nothing at all while tracing is off."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import grpc
import pytest
from opentelemetry.sdk.trace import ReadableSpan, TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from opentelemetry.trace import SpanKind, StatusCode
from splendor.v1 import config_pb2, engine_service_pb2, engine_service_pb2_grpc

from engine_service.api import tracing
from engine_service.api.call import LOG_FIELDS
from engine_service.runtime.settings import Settings
from engine_service.runtime.telemetry import otlp_endpoint, start_tracing
from engine_service.server.app import build_server, start
from tests.polling import wait_until

TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736"
CALLER_SPAN = "00f067aa0ba902b7"
TRACEPARENT = f"00-{TRACE_ID}-{CALLER_SPAN}-01"
SEED = 7_123_456_789
# Every attribute a span may carry: the RPC conventions' and the call's public facts (those of its log line).
ALLOWED_ATTRIBUTES = {
    "rpc.system",
    "rpc.service",
    "rpc.method",
    "rpc.grpc.status_code",
    "rpc.response.status_code",
} | {f"splendor.{name}" for name in LOG_FIELDS}


@pytest.fixture(scope="module")
def engine() -> Iterator[Any]:
    server, port, health = build_server(Settings(address="127.0.0.1:0", threads=2))
    start(server, health)
    with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
        yield engine_service_pb2_grpc.EngineServiceStub(channel)
    server.stop(0).wait()


@pytest.fixture
def spans() -> Iterator[InMemorySpanExporter]:
    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    tracing.enable(provider)
    yield exporter
    tracing.disable()
    provider.shutdown()


def finished(exporter: InMemorySpanExporter, count: int) -> list[ReadableSpan]:
    """The spans ended so far, once there are ``count`` (the server span ends just after the reply)."""

    def ended() -> list[ReadableSpan]:
        done = list(exporter.get_finished_spans())
        return done if len(done) >= count else []

    return wait_until(ended, what=f"{count} ended spans")


def test_a_call_continues_the_callers_trace_with_its_steps_as_children(
    engine: Any, spans: InMemorySpanExporter
) -> None:
    config = config_pb2.GameConfig(num_players=2, seed=SEED)
    state = engine.CreateGame(engine_service_pb2.CreateGameRequest(config=config), timeout=5).state
    legal = engine.ListLegalActions(engine_service_pb2.ListLegalActionsRequest(state=state), timeout=5).actions
    spans.clear()
    engine.ApplyAction(
        engine_service_pb2.ApplyActionRequest(state=state, action=legal[0].action),
        metadata=[("traceparent", TRACEPARENT)],
        timeout=5,
    )
    done = finished(spans, 4)
    (server,) = [span for span in done if span.kind is SpanKind.SERVER]
    assert server.name == "splendor.v1.EngineService/ApplyAction"
    assert server.context is not None and server.parent is not None
    assert f"{server.context.trace_id:032x}" == TRACE_ID
    assert f"{server.parent.span_id:016x}" == CALLER_SPAN and server.parent.is_remote
    attributes = dict(server.attributes or {})
    assert attributes["rpc.system"] == "grpc" and attributes["rpc.service"] == "splendor.v1.EngineService"
    assert attributes["rpc.method"] == "ApplyAction"
    assert attributes["rpc.grpc.status_code"] == 0 and attributes["rpc.response.status_code"] == "OK"
    assert attributes["splendor.seat"] == state.seat and attributes["splendor.turn"] == 0
    assert attributes["splendor.action"] == legal[0].action.WhichOneof("kind")
    children = [span for span in done if span is not server]
    assert [span.name for span in children] == [tracing.CONVERT_REQUEST, tracing.RULES, tracing.BUILD_RESPONSE]
    for child in children:
        assert child.parent is not None and child.parent.span_id == server.context.span_id
        assert child.context is not None and child.context.trace_id == server.context.trace_id
        assert child.start_time is not None and server.start_time is not None
        assert child.start_time >= server.start_time


def test_a_refusal_is_traced_with_its_reason_and_no_hidden_information(
    engine: Any, spans: InMemorySpanExporter
) -> None:
    config = config_pb2.GameConfig(num_players=2, seed=SEED)
    state = engine.CreateGame(engine_service_pb2.CreateGameRequest(config=config), timeout=5).state
    broken = type(state)()
    broken.CopyFrom(state)
    broken.decks[0].card_ids.append(state.decks[1].card_ids[0])  # a card in two places: its id is in the message
    spans.clear()
    with pytest.raises(grpc.RpcError) as refused:
        engine.ListLegalActions(engine_service_pb2.ListLegalActionsRequest(state=broken), timeout=5)
    assert refused.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    done = finished(spans, 2)
    (server,) = [span for span in done if span.kind is SpanKind.SERVER]
    attributes = dict(server.attributes or {})
    assert attributes["rpc.response.status_code"] == "INVALID_ARGUMENT" and attributes["rpc.grpc.status_code"] == 3
    assert attributes["splendor.reason"] == "INVALID_STATE"
    assert "splendor.seat" not in attributes and "splendor.turn" not in attributes  # no valid state, no seat
    assert server.status.status_code is StatusCode.UNSET  # the caller's error, not the server's
    for span in done:
        assert not span.events, "no exception (and its message, which may quote a card) is recorded"
        assert span.status.description is None
        assert set(span.attributes or {}) <= ALLOWED_ATTRIBUTES
        assert str(SEED) not in json.dumps({key: str(value) for key, value in (span.attributes or {}).items()})


def test_nothing_is_traced_while_tracing_is_off(engine: Any) -> None:
    assert not tracing.enabled()
    assert tracing.span(tracing.RULES) is tracing.span(tracing.BUILD_RESPONSE)  # the one do-nothing span
    assert tracing.server_span("s", "m", [("traceparent", TRACEPARENT)]) is None
    assert engine.GetCatalog(engine_service_pb2.GetCatalogRequest(), timeout=5).catalog.cards


def test_the_otlp_endpoint_comes_from_the_flag_or_the_standard_variables(monkeypatch: pytest.MonkeyPatch) -> None:
    assert otlp_endpoint(Settings(), {}) is None
    assert (
        otlp_endpoint(Settings(), {"OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:4317"}) == "http://127.0.0.1:4317"
    )
    assert otlp_endpoint(Settings(otlp_endpoint="http://127.0.0.1:1"), {"OTEL_EXPORTER_OTLP_ENDPOINT": "x"}) == (
        "http://127.0.0.1:1"
    )
    assert otlp_endpoint(Settings(otlp_endpoint="http://127.0.0.1:1"), {"OTEL_SDK_DISABLED": "true"}) is None
    for name in ("OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "OTEL_SDK_DISABLED"):
        monkeypatch.delenv(name, raising=False)
    assert start_tracing(Settings()) is None and not tracing.enabled()
    stop = start_tracing(Settings(otlp_endpoint="http://127.0.0.1:1"))  # nothing listens: no span is sent
    assert stop is not None and tracing.enabled()
    stop()
    assert not tracing.enabled()
