"""The API's method table as Connect endpoints, run on threads of their own, with the response size limit.

The Connect runtime parses a request on the event loop and awaits its endpoint; the endpoint runs
the API handler with the ``Call`` the observer bound (``observe.py``) on a thread, so the event loop
stays free for health checks, other connections and refusals:

- a cheap call takes one of the process's ``--max-concurrent-rpcs`` places (shared with gRPC) and
  runs on one of ``--threads`` threads; none free: RESOURCE_EXHAUSTED at once;
- an expensive call (by name or by content: ``engine_service.api.limits.is_expensive``) takes a
  place among the expensive calls instead (shared with gRPC: ``--expensive-calls`` running,
  ``--expensive-queue`` waiting) and runs on threads of its own, where it waits for a slot; no place
  free: RESOURCE_EXHAUSTED at once;
- the place is given back when the thread's work ends, however it ends; a call whose caller left
  (or whose deadline passed) is told to stop at its next check (``Call.cancel``), and one still
  waiting for a thread never runs (counted: ``cancelled_in_queue``, ``expired_in_queue``).

An ``ApiError`` becomes a Connect error (a ``HandlerError``: the observer tells the handler's errors
from the runtime's). Requests are parsed with the ``google.protobuf`` codecs (binary and JSON, unknown
JSON fields refused), so a message means the same over every transport.
"""

from __future__ import annotations

import asyncio
import contextvars
from collections.abc import Awaitable, Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, Final

from connectrpc.code import Code as ConnectCode
from connectrpc.method import IdempotencyLevel, MethodInfo, StreamType
from connectrpc.request import RequestContext
from connectrpc.server import Endpoint

from engine_service.api import METHODS, SERVICE, ApiConfig, ApiError, Call, Method, current_call
from engine_service.api.errors import abandoned
from engine_service.api.limits import EXPENSIVE_METHODS, is_expensive
from engine_service.runtime.admission import (
    EXPENSIVE_CALLS,
    REFUSAL_MESSAGE,
    Admission,
    expensive_busy,
    invoke_admitted,
)
from engine_service.runtime.not_served import record_not_served

from .codecs import Encoded, Undecoded
from .errors import HandlerError, connect_error
from .guard import current_exchange

SERVICE_PATH: Final = f"/{SERVICE}"
MAX_CONCURRENT_RPCS: Final = "MAX_CONCURRENT_RPCS"

Handler = Callable[[Any, RequestContext[Any, Any]], Awaitable[Any]]


class Lanes:
    """Where HTTP calls run: ``threads`` threads for cheap calls, one per expensive place for expensive ones."""

    def __init__(self, admission: Admission, threads: int) -> None:
        self.admission = admission
        self.cheap = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="http")
        places = admission.expensive + admission.expensive_queue
        self.expensive = ThreadPoolExecutor(max_workers=places, thread_name_prefix="http-expensive")

    def shutdown(self) -> None:
        """Stop the threads; work not yet started is dropped (its places given back)."""
        self.cheap.shutdown(wait=True, cancel_futures=True)
        self.expensive.shutdown(wait=True, cancel_futures=True)


def method_info(method: Method[Any, Any]) -> MethodInfo[Any, Any]:
    return MethodInfo(
        name=method.name,
        service_name=SERVICE,
        input=method.request_type,
        output=method.response_type,
        idempotency_level=IdempotencyLevel.UNKNOWN,  # POST only: a state does not fit in a URL
        stream_type=StreamType.UNARY,
    )


# The runtime's unary endpoint (``Endpoint.unary`` returns it; its class lives in a private module).
UnaryEndpoint = Any


def endpoints(max_response_bytes: int, config: ApiConfig, lanes: Lanes) -> dict[str, UnaryEndpoint]:
    """``/splendor.v1.EngineService/ApplyAction`` -> its endpoint, for every method, with the server's config
    and the process's lanes."""
    return {method.full_name: _endpoint(method, max_response_bytes, config, lanes) for method in METHODS}


def _endpoint(method: Method[Any, Any], max_response_bytes: int, config: ApiConfig, lanes: Lanes) -> UnaryEndpoint:
    handler: Handler = _Endpoint(method, max_response_bytes, config, lanes).serve
    return Endpoint.unary(method_info(method), handler)


class _Endpoint:
    """One method over HTTP: its calls admitted, run on their lane's threads, decoded and encoded there."""

    def __init__(self, method: Method[Any, Any], max_response_bytes: int, config: ApiConfig, lanes: Lanes) -> None:
        self.method = method
        self.max_response_bytes = max_response_bytes
        self.config = config
        self.lanes = lanes
        self.admission = lanes.admission
        self.expensive_by_name = method.name in EXPENSIVE_METHODS

    async def serve(self, undecoded: Undecoded[Any], ctx: RequestContext[Any, Any]) -> Encoded:
        call = current_call() or Call(self.method.name)
        call.config = self.config  # the key ring and bounds the gRPC side uses too
        try:
            if self.expensive_by_name:
                encoded: Encoded = await self._on_expensive_lane(call, self._run, undecoded, call, True)
                return encoded
            if not self.admission.try_admit():
                call.reason = MAX_CONCURRENT_RPCS
                raise HandlerError(ConnectCode.RESOURCE_EXHAUSTED, REFUSAL_MESSAGE)
            outcome = await self._on_lane(
                call, self.lanes.cheap, self.admission.release, self._run, undecoded, call, False
            )
            if isinstance(outcome, _FoundExpensive):  # its cheap place given back; now an expensive one
                encoded = await self._on_expensive_lane(call, self._run_decoded, undecoded, outcome.request, call)
                return encoded
            assert isinstance(outcome, Encoded)
            return outcome
        except ApiError as error:
            raise connect_error(error) from None
        except _TooLarge as error:
            raise HandlerError(ConnectCode.RESOURCE_EXHAUSTED, str(error)) from None

    # On the call's thread.

    def _run(self, undecoded: Undecoded[Any], call: Call, expensive: bool) -> Encoded | _FoundExpensive:
        """Decode the request, run it, encode the answer; on a cheap thread, hand a request found expensive by its
        content back, to move it to the expensive lane."""
        self._check_waited(call)
        request = undecoded.decode()
        if not expensive and is_expensive(self.method.name, request):
            return _FoundExpensive(request)
        return self._answer(undecoded, request, call, expensive)

    def _run_decoded(self, undecoded: Undecoded[Any], request: Any, call: Call) -> Encoded:
        self._check_waited(call)
        return self._answer(undecoded, request, call, True)

    def _check_waited(self, call: Call) -> None:
        if not call.is_active():  # its caller left, or its deadline passed, while it waited for a thread
            expired = call.deadline_passed()
            record_not_served("http", self.method.name, "expired_in_queue" if expired else "cancelled_in_queue")
            raise abandoned(expired)

    def _answer(self, undecoded: Undecoded[Any], request: Any, call: Call, expensive: bool) -> Encoded:
        call.request_bytes = undecoded.wire_bytes
        response = invoke_admitted(self.method, request, call, self.admission, entered=expensive)
        wire = self.method.encode(response, call)  # the handler's own bytes when it serialized its answer
        if len(wire) > self.max_response_bytes:
            message = f"the response is larger than the server's limit of {self.max_response_bytes} bytes"
            raise _TooLarge(message)
        return undecoded.encode(response, wire)

    # On the event loop.

    async def _on_expensive_lane(self, call: Call, work: Callable[..., Any], *args: Any) -> Any:
        if not self.admission.try_enter_expensive():
            raise expensive_busy(self.admission, call)
        exchange = current_exchange.get()
        if exchange is not None:
            exchange.cancel_on_hang_up()  # worth cancelling on a hang-up: its CPU is saved
        return await self._on_lane(call, self.lanes.expensive, self.admission.leave_expensive, work, *args)

    async def _on_lane(
        self,
        call: Call,
        pool: ThreadPoolExecutor,
        release: Callable[[object], None],
        work: Callable[..., Any],
        *args: Any,
    ) -> Any:
        """``work(*args)`` on one of ``pool``'s threads, in this call's context; its place (``release``) given back
        when the work ends, however; a call cancelled here is told to stop, or never starts."""
        future: Future[Any] = pool.submit(contextvars.copy_context().run, work, *args)
        future.add_done_callback(release)
        try:
            return await asyncio.wrap_future(future)
        except asyncio.CancelledError:
            call.cancel()  # running: it stops at its next check; not yet running: it never will
            if future.cancel():
                record_not_served("http", self.method.name, "cancelled_in_queue")
            raise


class _FoundExpensive:
    """A request a cheap thread decoded and found expensive by its content."""

    __slots__ = ("request",)

    def __init__(self, request: Any) -> None:
        self.request = request


class _TooLarge(Exception):
    """A response over the server's limit (gRPC's max_send_message_length)."""


__all__ = ["EXPENSIVE_CALLS", "SERVICE_PATH", "Lanes", "endpoints", "method_info"]
