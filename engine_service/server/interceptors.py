"""Metrics and one log line per call, as a ``grpc.ServerInterceptor``.

The interceptor wraps each method's behaviour: it sees the request, the response or
the abort, the status code and the time. It is on the hot path (ApplyAction takes a
few hundred microseconds), so everything per method is looked up once and cached;
the costly parts happen only when needed (the rich error status is parsed only for
refusals, the action-kind table is built on first use).

What is logged never includes hidden information: no state, no deck, no card drawn
blind, no seed, no error message (a malformed state's message may quote its cards).
Only the method, status, timing, correlation ids, seat, turn, action kind, rejection
reason and, for game creation, the player count and module.

Calls the server refuses because ``maximum_concurrent_rpcs`` is reached never reach a
handler; gRPC decides that just before it asks the interceptor for the handler, in the
same thread and under the same lock, so the interceptor reads the same figures (from
the server's private state, when present) to count and log them.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any, Final

import grpc
import structlog
from google.rpc import error_details_pb2, status_pb2  # type: ignore[import-untyped]
from splendor.v1 import config_pb2, engine_service_pb2, state_pb2

from .logs import ACCESS_LOGGER, REQUEST_ID_KEY, correlation_ids
from .metrics import Metrics

ENGINE_SERVICE: Final = "splendor.v1.EngineService"
# Methods logged at debug level when they succeed: probes and tooling, not game traffic.
QUIET_SERVICES: Final = frozenset({"grpc.health.v1.Health", "grpc.reflection.v1alpha.ServerReflection"})
_STATUS_DETAILS_KEY: Final = "grpc-status-details-bin"
_LEVELS: Final = {"debug": 10, "info": 20, "warning": 30, "error": 40}
_ERROR_CODES: Final = frozenset({"UNKNOWN", "INTERNAL", "DATA_LOSS", "UNIMPLEMENTED"})
_WARNING_CODES: Final = frozenset({"RESOURCE_EXHAUSTED", "DEADLINE_EXCEEDED", "CANCELLED", "UNAVAILABLE"})
_REJECTION_CODES: Final = frozenset({"INVALID_ARGUMENT", "FAILED_PRECONDITION"})
_OK: Final = "OK"

Fields = dict[str, object]


class _Method:
    """A method's labels and metric children, resolved once."""

    __slots__ = (
        "domain",
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
        self.grpc_type = _grpc_type(handler)
        self.labels = (self.grpc_type, service, name)
        self.started = metrics.started.labels(*self.labels)
        self.received = metrics.msg_received.labels(*self.labels)
        self.sent = metrics.msg_sent.labels(*self.labels)
        self.histogram = metrics.handling_seconds.labels(*self.labels)
        self.handled: dict[str, Any] = {}
        self.quiet = service in QUIET_SERVICES
        self.domain: Callable[[_Call], None] | None = _DOMAIN.get(name) if service == ENGINE_SERVICE else None


def _grpc_type(handler: grpc.RpcMethodHandler[Any, Any]) -> str:
    if handler.request_streaming:
        return "bidi_stream" if handler.response_streaming else "client_stream"
    return "server_stream" if handler.response_streaming else "unary"


class _Counted:
    """A labelled counter whose children are looked up once per label set."""

    __slots__ = ("children", "counter")

    def __init__(self, counter: Any) -> None:
        self.counter = counter
        self.children: dict[tuple[str, ...], Any] = {}

    def inc(self, *labels: str) -> None:
        child = self.children.get(labels)
        if child is None:
            child = self.children[labels] = self.counter.labels(*labels)
        child.inc()


class _Game:
    """The game's metrics."""

    def __init__(self, metrics: Metrics) -> None:
        self.games_created = _Counted(metrics.games_created)
        self.actions_applied = _Counted(metrics.actions_applied)
        self.rejections = _Counted(metrics.rejections)
        self.games_finished = _Counted(metrics.games_finished)
        self.state_size_bytes = metrics.state_size_bytes


class _Call:
    """What one call's record needs; filled by the wrapper and the method's domain hook."""

    __slots__ = ("code", "context", "error", "fields", "metrics", "request", "response")

    def __init__(self, metrics: _Game, request: Any, context: grpc.ServicerContext) -> None:
        self.metrics = metrics
        self.request = request
        self.context = context
        self.response: Any = None
        self.error: BaseException | None = None
        self.code = _OK
        self.fields: Fields = {}

    def rejection(self) -> tuple[str | None, str | None]:
        """The ErrorInfo reason and ``acting_seat`` of a refusal, from the rich status the handler sent."""
        if self.code not in _REJECTION_CODES:
            return None, None
        for key, value in self.context.trailing_metadata() or ():
            if key == _STATUS_DETAILS_KEY and isinstance(value, bytes):
                try:
                    status = status_pb2.Status.FromString(value)
                    for detail in status.details:
                        if detail.Is(error_details_pb2.ErrorInfo.DESCRIPTOR):
                            info = error_details_pb2.ErrorInfo()
                            detail.Unpack(info)
                            return str(info.reason), info.metadata.get("acting_seat")
                except Exception:  # a malformed status is not the log's problem
                    return None, None
        return None, None


class ObservabilityInterceptor(grpc.ServerInterceptor):
    """Counts and times every call, and logs one line for it.

    ``access_log``: write the per-call lines (at ``log_level`` and above). Metrics are always kept.
    """

    def __init__(self, metrics: Metrics, *, access_log: bool = True, log_level: str = "info") -> None:
        self._metrics = metrics
        self._game = _Game(metrics)
        self._methods: dict[str, _Method] = {}
        self._server_state: Any = None
        self._min_level = _LEVELS[log_level] if access_log else 100
        self._log: Any = structlog.get_logger(ACCESS_LOGGER).bind() if access_log else None
        self._pid = os.getpid()

    def attach(self, server: grpc.Server) -> None:
        """Let the interceptor see the server's call count, to count calls refused for concurrency."""
        state = getattr(server, "_state", None)
        if hasattr(state, "active_rpc_count") and hasattr(state, "maximum_concurrent_rpcs"):
            self._server_state = state

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
        state = self._server_state
        if (
            state is not None
            and state.maximum_concurrent_rpcs is not None
            and state.active_rpc_count >= state.maximum_concurrent_rpcs
        ):
            self._refused(method, handler_call_details)
            return handler  # gRPC answers RESOURCE_EXHAUSTED without running it
        return self._wrap(method, handler, dispatched)

    def _wrap(
        self, method: _Method, handler: grpc.RpcMethodHandler[Any, Any], dispatched: float
    ) -> grpc.RpcMethodHandler[Any, Any]:
        deserializer = handler.request_deserializer
        serializer = handler.response_serializer
        if handler.unary_unary is not None:
            behavior = handler.unary_unary

            def unary_unary(request: Any, context: grpc.ServicerContext) -> Any:
                return self._unary(method, behavior, request, context, dispatched=dispatched)

            return grpc.unary_unary_rpc_method_handler(unary_unary, deserializer, serializer)
        if handler.unary_stream is not None:
            streamer = handler.unary_stream

            def unary_stream(request: Any, context: grpc.ServicerContext) -> Iterator[Any]:
                return self._streaming(
                    method, lambda: streamer(request, context), request, context, dispatched=dispatched
                )

            return grpc.unary_stream_rpc_method_handler(unary_stream, deserializer, serializer)
        if handler.stream_unary is not None:
            consumer = handler.stream_unary

            def stream_unary(requests: Iterator[Any], context: grpc.ServicerContext) -> Any:
                counted = _counting(requests, method.received)
                return self._unary(
                    method, lambda _r, c: consumer(counted, c), None, context, dispatched=dispatched, received=0
                )

            return grpc.stream_unary_rpc_method_handler(stream_unary, deserializer, serializer)
        if handler.stream_stream is not None:
            bidi = handler.stream_stream

            def stream_stream(requests: Iterator[Any], context: grpc.ServicerContext) -> Iterator[Any]:
                counted = _counting(requests, method.received)
                return self._streaming(
                    method, lambda: bidi(counted, context), None, context, dispatched=dispatched, received=0
                )

            return grpc.stream_stream_rpc_method_handler(stream_stream, deserializer, serializer)
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
        call = _Call(self._game, request, context)
        try:
            call.response = behavior(request, context)
            return call.response
        except BaseException as error:
            call.error = error
            raise
        finally:
            self._finish_safely(method, call, dispatched, sent=1)

    def _streaming(
        self,
        method: _Method,
        start: Callable[[], Iterator[Any]],
        request: Any,
        context: grpc.ServicerContext,
        *,
        dispatched: float,
        received: int = 1,
    ) -> Iterator[Any]:
        method.started.inc()
        if received:
            method.received.inc()
        call = _Call(self._game, request, context)
        try:
            for response in start():
                method.sent.inc()
                yield response
        except GeneratorExit:  # the call ended (cancelled) while the server was streaming
            call.code = "CANCELLED"
            raise
        except BaseException as error:
            call.error = error
            raise
        finally:
            self._finish_safely(method, call, dispatched, sent=0)

    def _finish_safely(self, method: _Method, call: _Call, dispatched: float, *, sent: int) -> None:
        try:
            self._finish(method, call, dispatched, sent=sent)
        except Exception:  # observability must never fail a call
            if self._log is not None:
                self._log.exception("call_observation_failed", method=method.name)

    def _finish(self, method: _Method, call: _Call, dispatched: float, *, sent: int) -> None:
        context = call.context
        duration = time.perf_counter() - dispatched
        code = call.code
        if call.error is not None:
            set_code = context.code()  # type: ignore[attr-defined]  # the server context has it; the stubs don't
            code = set_code.name if set_code is not None else "UNKNOWN"
        elif code == _OK:
            set_code = context.code()  # type: ignore[attr-defined]
            if set_code is not None:
                code = set_code.name
            if not context.is_active():  # the client went away or the deadline passed: nothing was sent
                remaining = context.time_remaining()
                code = "DEADLINE_EXCEEDED" if remaining is not None and remaining <= 0 else "CANCELLED"
        call.code = code
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
        if sent and code == _OK:
            method.sent.inc()
        if code in _REJECTION_CODES:
            reason, seat = call.rejection()
            if reason is not None:
                self._game.rejections.inc(reason)
                call.fields["reason"] = reason
                if seat is not None:
                    call.fields["seat"] = int(seat) if seat.isdigit() else seat
        if method.domain is not None:
            method.domain(call)

        level = _level(code, method.quiet)
        if _LEVELS[level] >= self._min_level:
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
            if self._min_level <= _LEVELS["debug"]:  # costly (a call into gRPC's core): only when debugging
                fields["peer"] = context.peer()
            fields.update(call.fields)
            getattr(self._log, level)("rpc", **fields)

    def _refused(self, method: _Method, details: grpc.HandlerCallDetails) -> None:
        """A call gRPC refuses (RESOURCE_EXHAUSTED) before any handler runs."""
        code = "RESOURCE_EXHAUSTED"
        method.started.inc()
        handled = method.handled.get(code)
        if handled is None:
            handled = self._metrics.handled.labels(*method.labels, code)
            method.handled[code] = handled
        handled.inc()
        if _LEVELS["warning"] >= self._min_level:
            request_id, trace_id = correlation_ids(details.invocation_metadata or ())
            fields: Fields = {
                "pid": self._pid,
                "method": method.name,
                "service": method.service,
                "code": code,
                "duration_ms": 0.0,
                "request_id": request_id,
                "reason": "MAX_CONCURRENT_RPCS",
            }
            if trace_id is not None:
                fields["trace_id"] = trace_id
            self._log.warning("rpc", **fields)


def _level(code: str, quiet: bool) -> str:
    if code in _ERROR_CODES:
        return "error"
    if code in _WARNING_CODES:
        return "warning"
    return "debug" if quiet else "info"


def _counting(requests: Iterator[Any], counter: Any) -> Iterator[Any]:
    for request in requests:
        counter.inc()
        yield request


# The game's metrics and log fields, by EngineService method. Each runs after the call, with
# call.code set; it reads only public parts of the request and response.


def _acting_seat(state: state_pb2.GameState) -> int:
    return state.pending_decision.seat if state.HasField("pending_decision") else state.seat


def _module_label(modules: Any) -> str:
    """``base``, or the modules' names (``cities``); an unknown value (refused by the call) as its number."""
    if not modules:
        return "base"
    names = []
    for value in modules:
        try:
            names.append(config_pb2.Module.Name(value).removeprefix("MODULE_").lower())
        except ValueError:
            names.append(str(value))
    return "+".join(sorted(names))


_KINDS_BY_ID: list[str] = []
_kinds_lock = threading.Lock()


def _action_kind(action: Any) -> str:
    """The Action oneof field; for an action given by id, the kind the id stands for."""
    kind = action.WhichOneof("kind")
    if kind != "action_id":
        return str(kind) if kind is not None else "none"
    if not _KINDS_BY_ID:
        with _kinds_lock:
            if not _KINDS_BY_ID:
                from engine_service.rules import ACTION_ID_COUNT, action_from_id  # noqa: PLC0415

                from .convert import action_to_proto  # noqa: PLC0415 (only when ids are used)

                _KINDS_BY_ID.extend(
                    str(action_to_proto(action_from_id(value)).WhichOneof("kind")) for value in range(ACTION_ID_COUNT)
                )
    value = action.action_id
    return _KINDS_BY_ID[value] if 0 <= value < len(_KINDS_BY_ID) else "action_id"


def _create_game(call: _Call) -> None:
    request: engine_service_pb2.CreateGameRequest = call.request
    module = _module_label(request.config.modules)
    players = request.config.num_players
    call.fields["players"] = players
    call.fields["module"] = module
    if call.code == _OK:
        call.metrics.games_created.inc(module, str(players))
        call.metrics.state_size_bytes.observe(call.response.state.ByteSize())


def _apply_action(call: _Call) -> None:
    request: engine_service_pb2.ApplyActionRequest = call.request
    kind = _action_kind(request.action)
    fields = call.fields
    fields["action"] = kind
    if request.HasField("state"):
        before = request.state
        fields.setdefault("seat", _acting_seat(before))
        fields["turn"] = before.turn
    validate_only = request.validate_only
    if validate_only:
        fields["validate_only"] = True
    if call.code != _OK:
        return
    after = call.response.state
    call.metrics.state_size_bytes.observe(after.ByteSize())
    if validate_only:
        return
    call.metrics.actions_applied.inc(kind)
    if after.end_reason != state_pb2.END_REASON_UNSPECIFIED:
        end_reason = state_pb2.EndReason.Name(after.end_reason).removeprefix("END_REASON_")
        call.metrics.games_finished.inc(end_reason)
        fields["end_reason"] = end_reason


def _list_legal_actions(call: _Call) -> None:
    request: engine_service_pb2.ListLegalActionsRequest = call.request
    if call.code == _OK:
        call.fields["seat"] = call.response.seat
    if request.HasField("state"):
        call.fields["turn"] = request.state.turn


def _get_player_view(call: _Call) -> None:
    request: engine_service_pb2.GetPlayerViewRequest = call.request
    call.fields["viewer"] = request.seat if request.HasField("seat") else "spectator"
    if request.HasField("state"):
        call.fields["turn"] = request.state.turn


def _replay_game(call: _Call) -> None:
    request: engine_service_pb2.ReplayGameRequest = call.request
    call.fields["players"] = request.config.num_players
    call.fields["module"] = _module_label(request.config.modules)
    call.fields["actions"] = len(request.actions)
    if call.code == _OK:
        call.metrics.state_size_bytes.observe(call.response.state.ByteSize())


_DOMAIN: Final[dict[str, Callable[[_Call], None]]] = {
    "CreateGame": _create_game,
    "ApplyAction": _apply_action,
    "ListLegalActions": _list_legal_actions,
    "GetPlayerView": _get_player_view,
    "ReplayGame": _replay_game,
}
