"""OpenTelemetry spans for any transport, at about no cost while tracing is off.

Off by default: ``span`` then returns one shared do-nothing context manager (a global
read and two empty calls). ``enable`` (done by the server when an OTLP endpoint is
configured, or by tests with an in-memory exporter) gives it a tracer.

A transport opens a SERVER span per call with ``server_span``, continuing the caller's
W3C ``traceparent``; the handlers open child spans for the request's conversion, the
rules core and the response. Spans never record exceptions (a refusal's message may
quote a hidden card) and carry only the call's public facts as attributes.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from contextlib import AbstractContextManager
from types import TracebackType
from typing import Any, Final

from opentelemetry import context as otel_context
from opentelemetry import trace
from opentelemetry.trace.propagation.tracecontext import TraceContextTextMapPropagator

from .call import Call

INSTRUMENTATION: Final = "engine_service"
# Child spans of a call.
CONVERT_REQUEST: Final = "splendor.convert_request"
RULES: Final = "splendor.rules"
BUILD_RESPONSE: Final = "splendor.build_response"
# gRPC status names a server span counts as errors (OpenTelemetry's gRPC conventions).
_SERVER_ERRORS: Final = frozenset(
    {"UNKNOWN", "DEADLINE_EXCEEDED", "UNIMPLEMENTED", "INTERNAL", "UNAVAILABLE", "DATA_LOSS"}
)
_PROPAGATOR: Final = TraceContextTextMapPropagator()

_tracer: trace.Tracer | None = None


class _NoSpan:
    __slots__ = ()

    def __enter__(self) -> None:
        return None

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, traceback: TracebackType | None
    ) -> None:
        return None


_NO_SPAN: Final = _NoSpan()


def enable(provider: trace.TracerProvider) -> None:
    """Trace with ``provider`` from now on (this process)."""
    global _tracer  # noqa: PLW0603 (one tracer per process, switched on at start-up)
    _tracer = provider.get_tracer(INSTRUMENTATION)


def disable() -> None:
    global _tracer  # noqa: PLW0603
    _tracer = None


def enabled() -> bool:
    return _tracer is not None


def span(name: str) -> AbstractContextManager[object]:
    """A child span of the current one, or nothing while tracing is off."""
    tracer = _tracer
    if tracer is None:
        return _NO_SPAN
    return tracer.start_as_current_span(name, record_exception=False, set_status_on_exception=False)


class ServerSpan:
    """A call's SERVER span, current (for the handler's child spans) until ``end``."""

    __slots__ = ("_span", "_token")

    def __init__(
        self, tracer: trace.Tracer, service: str, method: str, headers: Mapping[str, str], *, current: bool
    ) -> None:
        parent = _PROPAGATOR.extract(headers)
        self._span = tracer.start_span(
            f"{service}/{method}",
            context=parent,
            kind=trace.SpanKind.SERVER,
            attributes={"rpc.service": service, "rpc.method": method},
            record_exception=False,
            set_status_on_exception=False,
        )
        self._token = otel_context.attach(trace.set_span_in_context(self._span)) if current else None

    def end(self, code: str, attributes: Mapping[str, Any], call: Call | None) -> None:
        """Close the span with the call's status code (a name: ``OK``, ``INVALID_ARGUMENT``...) and facts."""
        if self._token is not None:
            otel_context.detach(self._token)
        current = self._span
        current.set_attributes(attributes)
        current.set_attribute("rpc.response.status_code", code)
        if call is not None:
            for name, value in call.log_fields().items():
                current.set_attribute(f"splendor.{name}", value if isinstance(value, bool | int | str) else str(value))
        if code in _SERVER_ERRORS:
            current.set_status(trace.StatusCode.ERROR)
        current.end()


def server_span(
    service: str, method: str, headers: Iterable[tuple[str, str | bytes]], *, current: bool = True
) -> ServerSpan | None:
    """Open the SERVER span of a call, continuing the ``traceparent`` among ``headers``; None while off.

    ``current``: make it the current span of this thread (the parent of the handler's spans)
    until it ends; not for a streaming call, whose handler runs in steps.
    """
    tracer = _tracer
    if tracer is None:
        return None
    carrier = {key: value for key, value in headers if isinstance(value, str)}
    return ServerSpan(tracer, service, method, carrier, current=current)
