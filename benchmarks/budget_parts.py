"""The parts of one ApplyAction call's server CPU, each timed alone in this process (``call_budget.py``).

Every part is the product's own function on the same sample requests as the gRPC phases:
the handler's steps (decode, state in, token opening, seat key, the move, state out, events,
the applied action and next move, view, sealing, encode) and the interceptor's work around
a call (an echo behaviour wrapped by the ``ObservabilityInterceptor``, with a fake gRPC
context), once with each piece switched off: no log line, metrics stubbed, metrics in
prometheus-client's multiprocess mode (file-backed values, as in the container), and one
call's log line alone, rendered as the interceptor does and through structlog. The parts
run round-robin, one request of each in turn, so that drifting machine load spreads over
all of them; each repeat gives a mean CPU time per call (``time.process_time_ns``).
"""

from __future__ import annotations

import os
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import grpc
import structlog
from prometheus_client import CollectorRegistry, values
from splendor.v1 import engine_service_pb2, state_pb2

from engine_service.api import METHODS_BY_NAME, SERVICE, ApiConfig, Call, invoke, tracing
from engine_service.api.next_move import fill_applied, fill_next_move
from engine_service.api.sealed import fill_sealed, open_state, seal_message
from engine_service.api.source import game_of
from engine_service.api.state_memo import StateMemo
from engine_service.codec import action_from_proto, fill_events, fill_view_of_state, state_from_proto, update_state
from engine_service.rules import apply
from engine_service.runtime.logs import ACCESS_LOGGER, access_line, configure_logging
from engine_service.runtime.metrics import MULTIPROC_ENV, Metrics, create_metrics
from engine_service.sealing import KeyRing, check_seat_key
from engine_service.server.interceptors import ObservabilityInterceptor

Part = Callable[[int], object]  # runs the part on sample request i

ECHO = "/splendor.bench.Echo/EchoApplyAction"


class _Details(grpc.HandlerCallDetails):
    def __init__(self, method: str) -> None:
        self.method = method
        self.invocation_metadata = (("user-agent", "bench"),)


class _Context:
    """What the interceptor reads of a gRPC server context, for a call that succeeds."""

    def __init__(self) -> None:
        self._trailing: tuple[tuple[str, str], ...] = ()

    def is_active(self) -> bool:
        return True

    def time_remaining(self) -> float | None:
        return None

    def code(self) -> None:
        return None

    def invocation_metadata(self) -> tuple[tuple[str, str], ...]:
        return (("user-agent", "bench"),)

    def trailing_metadata(self) -> tuple[tuple[str, str], ...]:
        return self._trailing

    def set_trailing_metadata(self, metadata: tuple[tuple[str, str], ...]) -> None:
        self._trailing = metadata

    def peer(self) -> str:
        return "ipv4:127.0.0.1:1"


class _NoMetric:
    """A metric that does nothing: the interceptor's metrics switched off."""

    def labels(self, *labels: str) -> _NoMetric:
        return self

    def inc(self, amount: float = 1) -> None:
        return None

    def observe(self, value: float) -> None:
        return None


def stub_metrics() -> Metrics:
    stub: Any = _NoMetric()
    return Metrics(*(stub for _ in Metrics.__dataclass_fields__))


@contextmanager
def file_backed(path: str, value_class: type) -> Iterator[None]:
    """Metrics created inside are file-backed (prometheus-client's multiprocess mode) with ``value_class``,
    as with PROMETHEUS_MULTIPROC_DIR; the process's own metrics stay as they are."""
    saved_class, saved_env = values.ValueClass, os.environ.get(MULTIPROC_ENV)
    os.makedirs(path, exist_ok=True)
    os.environ[MULTIPROC_ENV] = path
    values.ValueClass = value_class
    try:
        yield
    finally:
        values.ValueClass = saved_class
        if saved_env is None:
            os.environ.pop(MULTIPROC_ENV, None)
        else:
            os.environ[MULTIPROC_ENV] = saved_env


def interceptor_parts(plain: list[bytes], metrics_dir: str) -> dict[str, Part]:
    """An echo through the interceptor: bare, and observed with each piece of observability on or off."""
    # Rendered and batched like `serve`'s lines (the batches' writes, on another thread, count too).
    configure_logging("info", "json", stream=open(os.devnull, "w"))  # noqa: SIM115 (open for the process)
    requests = [engine_service_pb2.ApplyActionRequest.FromString(data) for data in plain]

    def echo(request: engine_service_pb2.ApplyActionRequest, context: object) -> Any:
        return engine_service_pb2.ApplyActionResponse(state=request.state)

    handler: grpc.RpcMethodHandler[Any, Any] = grpc.unary_unary_rpc_method_handler(echo)
    with file_backed(metrics_dir, values.MultiProcessValue()):  # type: ignore[no-untyped-call]
        files = create_metrics(CollectorRegistry())
    in_memory = create_metrics(CollectorRegistry())
    variants = {
        "observed: log + metrics (multiprocess)": ObservabilityInterceptor(files),
        "observed: log + metrics (in memory)": ObservabilityInterceptor(in_memory),
        "observed: metrics (in memory), no log": ObservabilityInterceptor(in_memory, access_log=False),
        "observed: no log, metrics stubbed": ObservabilityInterceptor(stub_metrics(), access_log=False),
    }
    details = _Details(ECHO)

    def observed(interceptor: ObservabilityInterceptor) -> Part:
        def run(index: int) -> object:
            wrapped = interceptor.intercept_service(lambda _details: handler, details)
            assert wrapped is not None and wrapped.unary_unary is not None
            return wrapped.unary_unary(requests[index], _Context())  # type: ignore[arg-type]

        return run

    parts: dict[str, Part] = {"echo behaviour alone": lambda index: echo(requests[index], None)}
    parts.update({name: observed(interceptor) for name, interceptor in variants.items()})
    # One call's log line alone: as the interceptor writes it, and through structlog as it did before.
    direct, bound = access_line(), structlog.get_logger(ACCESS_LOGGER).bind()
    assert direct is not None
    line = {"pid": 1, "method": "ApplyAction", "service": SERVICE, "code": "OK", "duration_ms": 1.25}
    line |= {"request_id": "0" * 32, "seat": 1, "action": "take_three", "turn": 12}
    parts["log line, rendered directly"] = lambda _index: direct("info", dict(line))
    parts["log line, through structlog"] = lambda _index: bound.info("rpc", **line)
    return parts


def handler_parts(plain: list[bytes], sealed: list[bytes], ring: KeyRing) -> dict[str, Part]:
    """The handler's steps, each alone, on prepared inputs."""
    method = METHODS_BY_NAME["ApplyAction"]
    # Each state and token checked in full (no memo), and remembered once checked (the memo, as served).
    config, remembering = ApiConfig(ring, memo=StateMemo(0)), ApiConfig(ring)
    requests = [engine_service_pb2.ApplyActionRequest.FromString(data) for data in plain]
    sealed_requests = [engine_service_pb2.ApplyActionRequest.FromString(data) for data in sealed]
    sealed_tokens = [request.sealed_state for request in sealed_requests]

    def new_call(api_config: ApiConfig = config) -> Call:
        call = Call("ApplyAction")
        call.config = api_config
        return call

    def game_in(request: engine_service_pb2.ApplyActionRequest) -> object:
        return game_of(request, new_call(remembering))

    states = [state_from_proto(request.state) for request in requests]
    actions = [action_from_proto(request.action) for request in requests]
    moves = [apply(state, action) for state, action in zip(states, actions)]
    opened = [open_state(request.sealed_state, new_call()) for request in sealed_requests]
    responses = [invoke(method, request, new_call()) for request in requests]
    sealed_responses = [invoke(method, request, new_call()) for request in sealed_requests]

    def state_out(index: int) -> object:
        out = state_pb2.GameState()
        out.CopyFrom(requests[index].state)
        update_state(out, states[index], moves[index][0])
        return out.ByteSize()

    def events(index: int) -> object:
        response = engine_service_pb2.ApplyActionResponse()
        fill_events(response.events, moves[index][1])
        return response

    def next_move(index: int) -> object:
        response = engine_service_pb2.ApplyActionResponse()
        fill_applied(response.applied, actions[index], requests[index].action)
        fill_next_move(response, moves[index][0], legal=False, observation=False)
        return response

    def view(index: int) -> object:
        response = engine_service_pb2.ApplyActionResponse()
        fill_view_of_state(response.view, opened[index].msg, opened[index].state, sealed_requests[index].seat)
        return response

    def sealing(index: int) -> object:
        binding = opened[index].binding
        item = opened[index]
        return seal_message(item.msg, item.state, binding._replace(step=binding.step + 1), item.game_secret, new_call())

    def sealed_out(index: int) -> object:  # view, events and the token written into a response
        response = engine_service_pb2.ApplyActionResponse()
        token, item = sealed_requests[index].sealed_state, opened[index]
        fill_sealed(response, token, item.binding, item.state, item.msg, viewer=sealed_requests[index].seat)
        return response

    def seat_key(index: int) -> None:
        request = sealed_requests[index]
        check_seat_key(ring, opened[index].binding.game_id, opened[index].game_secret, request.seat, request.seat_key)

    def spans(_index: int) -> None:  # the handler's three child spans while tracing is off
        for name in (tracing.CONVERT_REQUEST, tracing.RULES, tracing.BUILD_RESPONSE):
            with tracing.span(name):
                pass

    return {
        "decode (plain request)": lambda index: method.decode(plain[index]),
        "decode (sealed request)": lambda index: method.decode(sealed[index]),
        "state in (read + validate)": lambda index: state_from_proto(requests[index].state),
        "token open (AEAD + read + validate)": lambda index: open_state(sealed_tokens[index], new_call()),
        "state in, remembered (memo hit)": lambda index: game_in(requests[index]),
        "token open, remembered (memo hit)": lambda index: game_in(sealed_requests[index]),
        "seat key check": seat_key,
        "the move (rules core)": lambda index: apply(states[index], actions[index]),
        "state out (copy + patch + size)": state_out,
        "events": events,
        "applied action + next move": next_move,
        "view (sealed)": view,
        "sealing (serialize + AEAD)": sealing,
        "sealed response (view + events + token)": sealed_out,
        "tracing, off (3 child spans)": spans,
        "encode (plain response)": lambda index: responses[index].SerializeToString(),
        "encode (sealed response)": lambda index: sealed_responses[index].SerializeToString(),
        "handler, plain (decoded request)": lambda index: invoke(method, requests[index], new_call()),
        "handler, sealed (decoded request)": lambda index: invoke(method, sealed_requests[index], new_call()),
        "handler, plain, state remembered": lambda index: invoke(method, requests[index], new_call(remembering)),
        "handler, sealed, token remembered": lambda index: invoke(
            method, sealed_requests[index], new_call(remembering)
        ),
    }


def time_parts(parts: dict[str, Part], count: int, repeats: int, rounds: int) -> dict[str, list[float]]:
    """Mean CPU microseconds per call of each part, one list entry per repeat; the parts interleaved."""
    for part in parts.values():  # warm-up
        for index in range(count):
            part(index)
    results: dict[str, list[float]] = {name: [] for name in parts}
    items = list(parts.items())
    clock = time.process_time_ns
    for repeat in range(repeats):
        totals = dict.fromkeys(parts, 0)
        for step in range(rounds * count):
            index = step % count
            shift = (step + repeat) % len(items)
            for name, part in items[shift:] + items[:shift]:
                start = clock()
                part(index)
                totals[name] += clock() - start
        for name, total in totals.items():
            results[name].append(total / (rounds * count) / 1000)
    return results


def in_process_budget(
    plain: list[bytes], sealed: list[bytes], ring: KeyRing, repeats: int, rounds: int
) -> dict[str, list[float]]:
    with tempfile.TemporaryDirectory(prefix="call-budget-metrics-") as metrics_dir:
        parts = interceptor_parts(plain, metrics_dir) | handler_parts(plain, sealed, ring)
        results = time_parts(parts, len(plain), repeats, rounds)
    structlog.reset_defaults()
    return results
