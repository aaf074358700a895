"""Metrics and one log line per call, as a ``grpc.ServerInterceptor``.

The interceptor wraps each method's behaviour: it sees the response or the abort, the
status code and the time. It is generic: for each unary call it binds an API ``Call``
(``engine_service.api.call``) for the handler to fill in with the call's public facts
(seat, turn, action kind, rejection reason, players, module, end reason, state size),
and afterwards turns those into metrics and log fields; it never reads requests or error
statuses. It is on the hot path (ApplyAction takes a few hundred microseconds), so
everything per method is looked up once and cached.

What is logged never includes hidden information: the ``Call`` holds only public facts,
and no error message is logged (a malformed state's message may quote its cards).

Admission (``admission.py``): the interceptor applies the limit on concurrent engine calls
when a call is dispatched, counting and logging the calls it refuses; health and reflection
are never refused, and their unary calls run on a lane of threads of their own.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator
from typing import Any, Final

import grpc
import structlog

from engine_service.api import SERVICE, Call, bind, tracing, unbind
from engine_service.api.limits import EXPENSIVE_METHODS
from engine_service.runtime.admission import (
    ADMITTED,
    EXPENSIVE,
    EXPENSIVE_BUSY_MESSAGE,
    EXPENSIVE_CALLS,
    LIGHT,
    REFUSAL_MESSAGE,
    REFUSED,
    Admission,
    Behavior,
    on_lane,
)
from engine_service.runtime.call_outcome import LEVELS, OK, GameMetrics, level_for
from engine_service.runtime.deadlines import CALLER, queue_cause, record_deadline_exceeded
from engine_service.runtime.logs import ACCESS_LOGGER, REQUEST_ID_KEY, access_line, correlation_ids
from engine_service.runtime.metrics import Metrics, grpc_type
from engine_service.runtime.not_served import record_not_served

# Methods logged at debug level when they succeed: probes and tooling, not game traffic.
DEADLINE_EXCEEDED: Final = "DEADLINE_EXCEEDED"
QUIET_SERVICES: Final = frozenset({"grpc.health.v1.Health", "grpc.reflection.v1alpha.ServerReflection"})

Fields = dict[str, object]


class _Method:
    """A method's labels and metric children, resolved once."""

    __slots__ = (
        "grpc_type",
        "handled",
        "handler",
        "histogram",
        "labels",
        "name",
        "quiet",
        "received",
        "sent",
        "service",
        "started",
    )

    def __init__(self, full_name: str, handler: grpc.RpcMethodHandler[Any, Any], metrics: Metrics) -> None:
        _, service, name = full_name.split("/", 2) if full_name.count("/") >= 2 else ("", "unknown", full_name)
        self.handler = handler
        self.service = service
        self.name = name
        self.grpc_type = grpc_type(handler.request_streaming, handler.response_streaming)
        self.labels = (self.grpc_type, service, name)
        self.started = metrics.started.labels(*self.labels)
        self.received = metrics.msg_received.labels(*self.labels)
        self.sent = metrics.msg_sent.labels(*self.labels)
        self.histogram = metrics.handling_seconds.labels(*self.labels)
        self.handled: dict[str, Any] = {}
        self.quiet = service in QUIET_SERVICES


class _Outcome:
    """How one call ended, filled by the wrapper."""

    __slots__ = ("call", "code", "context", "failed", "span")

    def __init__(self, context: grpc.ServicerContext, call: Call | None, span: tracing.ServerSpan | None) -> None:
        self.context = context
        self.call = call
        self.span = span
        self.failed = False
        self.code = OK


class ObservabilityInterceptor(grpc.ServerInterceptor):
    """Counts and times every call, and logs one line for it.

    ``access_log``: write the per-call lines (at ``log_level`` and above). Metrics are always kept.
    """

    def __init__(
        self,
        metrics: Metrics,
        *,
        admission: Admission | None = None,
        access_log: bool = True,
        log_level: str = "info",
        max_call_seconds: float = 0.0,
    ) -> None:
        self._metrics = metrics
        self._game = GameMetrics(metrics)
        self._methods: dict[str, _Method] = {}
        self._admission = admission or Admission(None)
        # The server's budget for each engine call (--max-call-seconds; None: the caller's deadline only).
        self._budget = max_call_seconds or None
        self._min_level = LEVELS[log_level] if access_log else 100
        self._log: Any = structlog.get_logger(ACCESS_LOGGER).bind() if access_log else None
        self._line = access_line() if access_log else None  # the per-call line rendered without structlog
        self._pid = os.getpid()

    # The gRPC side.

    def intercept_service(
        self,
        continuation: Callable[[grpc.HandlerCallDetails], grpc.RpcMethodHandler[Any, Any] | None],
        handler_call_details: grpc.HandlerCallDetails,
    ) -> grpc.RpcMethodHandler[Any, Any] | None:
        dispatched = time.perf_counter()
        handler = continuation(handler_call_details)
        if handler is None:
            return None  # UNIMPLEMENTED, answered by gRPC
        full_name = handler_call_details.method
        method = self._methods.get(full_name)
        if method is None or method.handler is not handler:
            method = _Method(full_name, handler, self._metrics)
            self._methods[full_name] = method
        if method.quiet:  # health and reflection: never refused; unary probes on the light lane
            return self._wrap(method, handler, dispatched, LIGHT if method.grpc_type == "unary" else None)
        # Expensive by name: a place among the expensive calls, never a cheap call's place.
        expensive = method.name in EXPENSIVE_METHODS and method.service == SERVICE
        if expensive and not self._admission.try_enter_expensive():
            message = EXPENSIVE_BUSY_MESSAGE.format(
                slots=self._admission.expensive, queue=self._admission.expensive_queue
            )
            self._refused(method, handler_call_details, EXPENSIVE_CALLS)
            return _refusal(handler, message)
        if not expensive and not self._admission.try_admit():
            self._refused(method, handler_call_details, "MAX_CONCURRENT_RPCS")
            return _refusal(handler, REFUSAL_MESSAGE)
        ran = [False]

        arrived = time.time()

        def unserved(deadline: float | None) -> None:  # gRPC dropped the call before its behaviour ran
            if not ran[0]:
                expired = deadline is not None and time.time() >= deadline
                record_not_served("grpc", method.name, "expired_in_queue" if expired else "cancelled_in_queue")
                if expired:
                    allowed = None if deadline is None else deadline - arrived
                    record_deadline_exceeded("grpc", method.name, queue_cause(allowed))

        lane = EXPENSIVE if expensive else ADMITTED
        return self._wrap(method, handler, dispatched, lane, ran=ran, unserved=unserved)

    def _wrap(
        self,
        method: _Method,
        handler: grpc.RpcMethodHandler[Any, Any],
        dispatched: float,
        lane: str | None,
        *,
        ran: list[bool] | None = None,
        unserved: Callable[[float | None], None] | None = None,
    ) -> grpc.RpcMethodHandler[Any, Any]:
        deserializer = handler.request_deserializer
        serializer = handler.response_serializer
        if handler.unary_unary is not None:
            behavior = handler.unary_unary

            def unary_unary(request: Any, context: grpc.ServicerContext) -> Any:
                if ran is not None:
                    ran[0] = True
                return self._unary(method, behavior, request, context, dispatched=dispatched)

            laned = _laned(unary_unary, lane, unserved)
            return grpc.unary_unary_rpc_method_handler(laned, deserializer, serializer)
        if handler.unary_stream is not None:
            streamer = handler.unary_stream

            def unary_stream(request: Any, context: grpc.ServicerContext) -> Iterator[Any]:
                return self._streaming(method, lambda: streamer(request, context), context, dispatched=dispatched)

            return grpc.unary_stream_rpc_method_handler(_laned(unary_stream, lane), deserializer, serializer)
        if handler.stream_unary is not None:
            consumer = handler.stream_unary

            def stream_unary(requests: Iterator[Any], context: grpc.ServicerContext) -> Any:
                counted = _counting(requests, method.received)
                return self._unary(
                    method, lambda _r, c: consumer(counted, c), None, context, dispatched=dispatched, received=0
                )

            return grpc.stream_unary_rpc_method_handler(_laned(stream_unary, lane), deserializer, serializer)
        if handler.stream_stream is not None:
            bidi = handler.stream_stream

            def stream_stream(requests: Iterator[Any], context: grpc.ServicerContext) -> Iterator[Any]:
                counted = _counting(requests, method.received)
                return self._streaming(
                    method, lambda: bidi(counted, context), context, dispatched=dispatched, received=0
                )

            return grpc.stream_stream_rpc_method_handler(_laned(stream_stream, lane), deserializer, serializer)
        return handler

    # One call.

    def _unary(
        self,
        method: _Method,
        behavior: Callable[[Any, grpc.ServicerContext], Any],
        request: Any,
        context: grpc.ServicerContext,
        *,
        dispatched: float,
        received: int = 1,
    ) -> Any:
        method.started.inc()
        if received:
            method.received.inc()
        call = Call(
            method.name,
            is_active=context.is_active,
            time_remaining=context.time_remaining,
            budget_seconds=None if method.quiet else self._budget,
            # The budget counts from dispatch: the time a call queued for a thread or a slot is the server's.
            budget_from=time.monotonic() - (time.perf_counter() - dispatched),
        )
        span = (
            tracing.server_span(method.service, method.name, context.invocation_metadata())
            if tracing.enabled()
            else None
        )
        outcome = _Outcome(context, call, span)
        token = bind(call)
        try:
            return behavior(request, context)
        except BaseException:
            outcome.failed = True
            raise
        finally:
            unbind(token)
            self._finish_safely(method, outcome, dispatched, sent=1)

    def _streaming(
        self,
        method: _Method,
        start: Callable[[], Iterator[Any]],
        context: grpc.ServicerContext,
        *,
        dispatched: float,
        received: int = 1,
    ) -> Iterator[Any]:
        method.started.inc()
        if received:
            method.received.inc()
        span = None
        if tracing.enabled():
            span = tracing.server_span(method.service, method.name, context.invocation_metadata(), current=False)
        outcome = _Outcome(context, None, span)
        try:
            for response in start():
                method.sent.inc()
                yield response
        except GeneratorExit:  # the call ended (cancelled) while the server was streaming
            outcome.code = "CANCELLED"
            raise
        except BaseException:
            outcome.failed = True
            raise
        finally:
            self._finish_safely(method, outcome, dispatched, sent=0)

    def _finish_safely(self, method: _Method, outcome: _Outcome, dispatched: float, *, sent: int) -> None:
        try:
            self._finish(method, outcome, dispatched, sent=sent)
            if outcome.span is not None:
                outcome.span.end(outcome.code, _span_attributes(outcome.code), outcome.call)
        except Exception:  # observability must never fail a call
            if self._log is not None:
                self._log.exception("call_observation_failed", method=method.name)

    def _finish(self, method: _Method, outcome: _Outcome, dispatched: float, *, sent: int) -> None:
        context = outcome.context
        duration = time.perf_counter() - dispatched
        code = outcome.code
        if outcome.failed:
            set_code = context.code()  # type: ignore[attr-defined]  # the server context has it; the stubs don't
            code = set_code.name if set_code is not None else "UNKNOWN"
        elif code == OK:
            set_code = context.code()  # type: ignore[attr-defined]
            if set_code is not None:
                code = set_code.name
            if not context.is_active():  # the client went away or the deadline passed: nothing was sent
                remaining = context.time_remaining()
                code = "DEADLINE_EXCEEDED" if remaining is not None and remaining <= 0 else "CANCELLED"
        outcome.code = code
        request_id, trace_id = correlation_ids(context.invocation_metadata())
        trailing = context.trailing_metadata()
        echo = ((REQUEST_ID_KEY, request_id),)
        context.set_trailing_metadata(tuple(trailing) + echo if trailing else echo)

        handled = method.handled.get(code)
        if handled is None:
            handled = self._metrics.handled.labels(*method.labels, code)
            method.handled[code] = handled
        handled.inc()
        method.histogram.observe(duration)
        if sent and code == OK:
            method.sent.inc()
        call = outcome.call
        if call is not None:
            self._game.record(call, code)
        cause = None
        if code == DEADLINE_EXCEEDED and not method.quiet:
            cause = call.deadline_cause() if call is not None else CALLER
            record_deadline_exceeded("grpc", method.name, cause)

        level = level_for(code, method.quiet)
        if LEVELS[level] >= self._min_level:
            fields: Fields = {
                "pid": self._pid,
                "method": method.name,
                "service": method.service,
                "code": code,
                "duration_ms": int(duration * 1_000_000) / 1000,  # microsecond precision; round() is slower
                "request_id": request_id,
            }
            if trace_id is not None:
                fields["trace_id"] = trace_id
            if self._min_level <= LEVELS["debug"]:  # costly (a call into gRPC's core): only when debugging
                fields["peer"] = context.peer()
            if call is not None:
                fields.update(call.log_fields())
            if cause is not None:
                fields["deadline_cause"] = cause
            self._write_line(level, fields)

    def _refused(self, method: _Method, details: grpc.HandlerCallDetails, reason: str) -> None:
        """A call refused (RESOURCE_EXHAUSTED) for a limit (``reason``): its handler never runs."""
        code = "RESOURCE_EXHAUSTED"
        method.started.inc()
        handled = method.handled.get(code)
        if handled is None:
            handled = self._metrics.handled.labels(*method.labels, code)
            method.handled[code] = handled
        handled.inc()
        if tracing.enabled():
            span = tracing.server_span(method.service, method.name, details.invocation_metadata or (), current=False)
            if span is not None:
                span.end(code, _span_attributes(code), None)
        if LEVELS["warning"] >= self._min_level:
            request_id, trace_id = correlation_ids(details.invocation_metadata or ())
            fields: Fields = {
                "pid": self._pid,
                "method": method.name,
                "service": method.service,
                "code": code,
                "duration_ms": 0.0,
                "request_id": request_id,
                "reason": reason,
            }
            if trace_id is not None:
                fields["trace_id"] = trace_id
            self._write_line("warning", fields)

    def _write_line(self, level: str, fields: Fields) -> None:
        if self._line is not None:
            self._line(level, fields)
        else:
            getattr(self._log, level)("rpc", **fields)


def _span_attributes(code: str) -> dict[str, object]:
    """A gRPC server span's attributes (OpenTelemetry's RPC conventions) for a call that ended with ``code``."""
    return {"rpc.system": "grpc", "rpc.grpc.status_code": grpc.StatusCode[code].value[0]}


def _laned(behavior: Behavior, lane: str | None, unserved: Callable[[float | None], None] | None = None) -> Behavior:
    return on_lane(behavior, lane, unserved=unserved) if lane is not None else behavior


def _refusal(handler: grpc.RpcMethodHandler[Any, Any], message: str) -> grpc.RpcMethodHandler[Any, Any]:
    """A handler of the same shape that answers RESOURCE_EXHAUSTED (``message``) on the refusals' lane, the request
    unread (no deserializer: a refused call costs no parsing)."""

    def refuse(request: Any, context: grpc.ServicerContext) -> Any:
        context.abort(grpc.StatusCode.RESOURCE_EXHAUSTED, message)

    def refuse_streaming(request: Any, context: grpc.ServicerContext) -> Iterator[Any]:
        context.abort(grpc.StatusCode.RESOURCE_EXHAUSTED, message)
        yield  # a generator, as a streaming handler must be

    behavior = on_lane(refuse_streaming if handler.response_streaming else refuse, REFUSED)
    if handler.request_streaming:
        if handler.response_streaming:
            return grpc.stream_stream_rpc_method_handler(behavior)
        return grpc.stream_unary_rpc_method_handler(behavior)
    if handler.response_streaming:
        return grpc.unary_stream_rpc_method_handler(behavior)
    return grpc.unary_unary_rpc_method_handler(behavior)


def _counting(requests: Iterator[Any], counter: Any) -> Iterator[Any]:
    for request in requests:
        counter.inc()
        yield request
