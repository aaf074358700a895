"""Metrics, traces and the per-call log line for HTTP calls, as a Connect interceptor.

A metadata interceptor at the front of the chain: the runtime calls ``on_start`` once it knows the
method, before it parses the request (its body already read by the edge, ``guard.py``), and
``on_end`` with the call's error, if any, parse errors included. So an HTTP call is observed exactly
like a gRPC one (``engine_service/server/interceptors.py``):

- admission is the endpoint's (``endpoints.py``): a cheap or an expensive place, refused
  ``resource_exhausted`` with the reason in the log line;
- deadlines and cancellation: the call's ``Call`` carries the caller's deadline
  (``Connect-Timeout-Ms``, gRPC-Web's ``grpc-timeout``) and the server's budget
  (``--max-call-seconds``, counted from here: the time the call waits for a thread is the
  server's); the endpoint cancels it when its caller leaves;
- framing: an error of the runtime before the handler ran (a gRPC-Web body that is no frame,
  an unknown compression) is the caller's: ``invalid_argument``, reason ``MALFORMED_FRAMING``;
- metrics: the same ``grpc_server_*`` series and labels (an HTTP call is the same RPC, so the
  dashboard and the alerts count both transports), the game's series from the API ``Call``,
  and ``splendor_http_calls_total{protocol, codec}`` for the transport split;
- the same ``rpc`` log line, plus ``protocol`` and ``codec``; the request id (the client's
  ``x-request-id``, else a new one) comes back as the ``x-request-id`` response header.
"""

from __future__ import annotations

import os
import threading
import time
from contextvars import Token
from dataclasses import dataclass
from typing import Any, Final

import structlog
from connectrpc.code import Code as ConnectCode
from connectrpc.errors import ConnectError
from connectrpc.request import RequestContext
from prometheus_client import Counter

from engine_service.api import METHODS, SERVICE, Call, bind, tracing, unbind
from engine_service.runtime.call_outcome import LEVELS, OK, GameMetrics, level_for
from engine_service.runtime.deadlines import record_deadline_exceeded
from engine_service.runtime.logs import ACCESS_LOGGER, REQUEST_ID_KEY, correlation_ids
from engine_service.runtime.metrics import Metrics
from engine_service.runtime.not_served import record_not_served

from .errors import HandlerError, grpc_name

PROTOCOLS: Final = ("connect", "grpc_web")
CODECS: Final = ("json", "proto")
MALFORMED_FRAMING: Final = "MALFORMED_FRAMING"
# The runtime's codes for a request it could not read: the caller's fault, answered invalid_argument.
_FRAMING_CODES: Final = frozenset({ConnectCode.INTERNAL, ConnectCode.UNIMPLEMENTED, ConnectCode.INVALID_ARGUMENT})

_calls_counter: list[Counter] = []


def http_calls() -> Counter:
    """``splendor_http_calls_total``, created on first use (every series at zero)."""
    if not _calls_counter:
        counter = Counter(
            "splendor_http_calls_total",
            "EngineService calls served over HTTP, by protocol (connect, grpc_web) and codec (json, proto).",
            ("protocol", "codec"),
        )
        for protocol in PROTOCOLS:
            for codec in CODECS:
                counter.labels(protocol, codec)
        _calls_counter.append(counter)
    return _calls_counter[0]


def protocol_and_codec(content_type: str) -> tuple[str, str]:
    """``application/grpc-web+json`` -> (``grpc_web``, ``json``); Connect unary: ``application/json``."""
    media = content_type.split(";", 1)[0].strip().lower()
    if media.startswith("application/grpc-web"):
        return "grpc_web", "json" if media.endswith("+json") else "proto"
    return "connect", "json" if media == "application/json" else "proto"


class _Method:
    """A method's metric children, resolved once."""

    __slots__ = ("handled", "histogram", "labels", "name", "received", "sent", "started")

    def __init__(self, name: str, metrics: Metrics) -> None:
        self.name = name
        self.labels = ("unary", SERVICE, name)
        self.started = metrics.started.labels(*self.labels)
        self.received = metrics.msg_received.labels(*self.labels)
        self.sent = metrics.msg_sent.labels(*self.labels)
        self.histogram = metrics.handling_seconds.labels(*self.labels)
        names = [OK, *(grpc_name(code) for code in ConnectCode)]
        self.handled = {name: metrics.handled.labels(*self.labels, name) for name in names}


@dataclass(slots=True, kw_only=True)
class _Started:
    """What ``on_start_sync`` hands to ``on_end_sync``."""

    method: _Method
    dispatched: float
    call: Call
    token: Token[Call | None]
    protocol: str
    codec: str
    span: tracing.ServerSpan | None
    framing_error: bool = False  # the runtime could not read the request: logged with MALFORMED_FRAMING


class HttpObserver:
    """The interceptor (``connectrpc`` ``MetadataInterceptor``)."""

    def __init__(
        self,
        metrics: Metrics,
        *,
        access_log: bool,
        log_level: str,
        max_call_seconds: float = 0.0,
    ) -> None:
        self._game = GameMetrics(metrics)
        self._budget = max_call_seconds or None
        self._running: set[Call] = set()  # for cancel_all
        self._running_lock = threading.Lock()
        self._methods = {method.name: _Method(method.name, metrics) for method in METHODS}
        self._calls = http_calls()
        self._min_level = LEVELS[log_level] if access_log else 100
        self._log: Any = structlog.get_logger(ACCESS_LOGGER).bind() if access_log else None
        self._pid = os.getpid()

    async def on_start(self, ctx: RequestContext[Any, Any]) -> _Started:
        dispatched = time.perf_counter()
        method = self._methods[ctx.method.name]
        headers = ctx.request_headers
        protocol, codec = protocol_and_codec(headers.get("content-type", ""))
        self._calls.labels(protocol, codec).inc()
        call = _call(method.name, ctx, self._budget)
        method.started.inc()
        method.received.inc()
        span = None
        if tracing.enabled():
            span = tracing.server_span(SERVICE, method.name, headers.allitems())
        with self._running_lock:
            self._running.add(call)
        return _Started(
            method=method, dispatched=dispatched, call=call, token=bind(call), protocol=protocol, codec=codec, span=span
        )

    async def on_end(self, started: _Started, ctx: RequestContext[Any, Any], error: Exception | None) -> None:
        unbind(started.token)
        with self._running_lock:
            self._running.discard(started.call)
        replacement = None
        if isinstance(error, ConnectError) and not isinstance(error, HandlerError) and error.code in _FRAMING_CODES:
            replacement = ConnectError(ConnectCode.INVALID_ARGUMENT, error.message)
            started.framing_error = True
            record_not_served("http", started.method.name, "malformed_framing", logged=False)  # the rpc line logs it
            error = replacement
        try:
            self._finish(started, ctx, error)
        except Exception:  # observability must never fail a call
            if self._log is not None:
                self._log.exception("call_observation_failed", method=started.method.name)
        if replacement is not None:
            raise replacement  # the runtime answers this one instead

    def cancel_all(self) -> None:
        """Tell every call still running to stop at its next check (the server is stopping)."""
        with self._running_lock:
            running = list(self._running)
        for call in running:
            call.cancel()

    def _finish(self, started: _Started, ctx: RequestContext[Any, Any], error: Exception | None) -> None:
        method = started.method
        duration = time.perf_counter() - started.dispatched
        if error is None:
            code = OK
        elif isinstance(error, ConnectError):
            code = grpc_name(error.code)
        else:
            code = "UNKNOWN"
        method.handled[code].inc()
        method.histogram.observe(duration)
        call = started.call
        self._game.record(call, code)
        cause = None
        if code == "DEADLINE_EXCEEDED":
            cause = call.deadline_cause()
            record_deadline_exceeded("http", method.name, cause)
        if code == OK:
            method.sent.inc()
        request_id, trace_id = self._echo_request_id(ctx)
        if started.span is not None:
            started.span.end(code, {"rpc.system": "connect_rpc", "rpc.connect_rpc.error_code": code.lower()}, call)
        level = level_for(code)
        if LEVELS[level] >= self._min_level:
            fields: dict[str, object] = {
                "pid": self._pid,
                "method": method.name,
                "service": SERVICE,
                "code": code,
                "duration_ms": int(duration * 1_000_000) / 1000,
                "request_id": request_id,
                "protocol": started.protocol,
                "codec": started.codec,
            }
            if trace_id is not None:
                fields["trace_id"] = trace_id
            if self._min_level <= LEVELS["debug"] and ctx.client_address is not None:
                fields["peer"] = ctx.client_address
            fields.update(call.log_fields())
            if started.framing_error:
                fields["reason"] = MALFORMED_FRAMING
            if cause is not None:
                fields["deadline_cause"] = cause
            getattr(self._log, level)("rpc", **fields)

    def _echo_request_id(self, ctx: RequestContext[Any, Any]) -> tuple[str, str | None]:
        request_id, trace_id = correlation_ids(ctx.request_headers.allitems())
        ctx.response_headers[REQUEST_ID_KEY] = request_id
        return request_id, trace_id


def _call(method: str, ctx: RequestContext[Any, Any], budget: float | None) -> Call:
    """The call's ``Call``: the caller's deadline from its protocol's header, the server's budget."""

    def remaining() -> float | None:
        milliseconds = ctx.timeout_ms
        return None if milliseconds is None else milliseconds / 1000

    def active() -> bool:
        milliseconds = ctx.timeout_ms
        return milliseconds is None or milliseconds > 0

    return Call(method, is_active=active, time_remaining=remaining, budget_seconds=budget)
