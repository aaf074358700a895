"""The edge of an engine call over HTTP: what is decided before the Connect runtime sees its request.

The HTTP server (hypercorn) holds what it owns: a request's headers are at most ``HEADER_BYTES``
and must arrive within ``HEADER_SECONDS`` of the connection's idle start, and the listening socket
caps open connections (``connections.py``). The guard, an ASGI layer, owns the body of each engine
call (``Guard.serve``):

- refused before a byte of the body is read, in the words of the caller's protocol (Connect: HTTP
  413/429 and a ``resource_exhausted`` error; gRPC-Web: ``grpc-status: 8``): a ``Content-Length``
  over ``--max-request-bytes``, or a process already at its limit of cheap calls;
- read here, whole, before the runtime parses it: within ``BODY_SECONDS`` of its start and, after a
  grace of 2 to 4 s (``BODY_GRACE_SECONDS``), at ``MIN_BODY_BYTES_PER_SECOND`` on average at least,
  so stalled and trickling bodies are dropped within seconds (HTTP 408 / ``deadline_exceeded``);
- memory for bodies is counted from the bytes received, never from the bytes announced: beyond its
  first ``SMALL_BODY_BYTES`` (a move or a new game takes a few hundred), the bodies being read hold
  at most ``BODY_BYTES_IN_FLIGHT`` together, and at most ``MAX_READERS`` bodies are read at once.
  Over the bytes, the large body received at the lowest average rate is dropped to make room; over
  the readers, the least-progressed one (lowest rate, then oldest). Either gets HTTP 429 /
  ``resource_exhausted``: a flood of large or slow uploads cannot keep a small request out;
- a refused body is read and dropped (at most ``LINGER_SECONDS``) after its refusal, so a client still
  sending reads the refusal instead of a reset;
- then the runtime gets the body at once, and a hang-up while the call runs: over HTTP/1.1 only for an
  expensive call (a half-closed request, ``shutdown(SHUT_WR)`` after sending, looks the same as a
  hang-up there, and a cheap call is answered rather than cancelled); over HTTP/2 always.

Every drop is counted and logged (``engine_service/runtime/not_served.py``).
"""

from __future__ import annotations

import asyncio
import json
import random
import time
from collections.abc import Awaitable, Callable, MutableMapping
from contextvars import ContextVar
from typing import Any, Final

from engine_service.runtime.admission import REFUSAL_MESSAGE, Admission
from engine_service.runtime.not_served import method_label, record_not_served

from .connections import CappedListener, Peer

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
App = Callable[[Scope, Receive, Send], Awaitable[None]]

SERVICE_PREFIX: Final = "/splendor.v1.EngineService/"
GRPC_WEB: Final = "application/grpc-web"
GRPC_WEB_ENVELOPE_BYTES: Final = 5  # a gRPC-Web body is the message behind a 5-byte frame header
_GRPC_RESOURCE_EXHAUSTED: Final = "8"
_GRPC_DEADLINE_EXCEEDED: Final = "4"
# The request bytes held at once by bodies being read, over every connection, beyond each one's first
# SMALL_BODY_BYTES (so the bodies being read hold at most BODY_BYTES_IN_FLIGHT + MAX_READERS x SMALL_BODY_BYTES).
BODY_BYTES_IN_FLIGHT: Final = 32 * 1024 * 1024
SMALL_BODY_BYTES: Final = 16 * 1024
MAX_READERS: Final = 1024  # bodies being read at once
BODY_SECONDS: Final = 30.0  # a body must arrive within this of its request's start (1 MiB at ~35 KB/s)
# And, after its grace, at the rate below on average. The grace is drawn per body between these two, so that a
# crowd of stalled bodies opened together is dropped over a while, not in one burst (that its attacker would
# answer with a burst of new connections).
BODY_GRACE_SECONDS: Final = (2.0, 4.0)
MIN_BODY_BYTES_PER_SECOND: Final = 4096.0
# How long a connection whose request was refused unread keeps reading (and dropping) its body.
LINGER_SECONDS: Final = 2.0


class Exchange:
    """One engine call's request, as the edge and the endpoint share it (``current_exchange``)."""

    __slots__ = ("cancellable", "peer")

    def __init__(self, peer: Peer | None, http2: bool) -> None:
        self.peer = peer
        # Set once a hang-up may cancel the call: over HTTP/2 (a hang-up is a stream reset) at once; over
        # HTTP/1.1 once the endpoint finds the call expensive (``cancel_on_hang_up``).
        self.cancellable = asyncio.Event()
        if http2:
            self.cancellable.set()

    def cancel_on_hang_up(self) -> None:
        self.cancellable.set()


current_exchange: ContextVar[Exchange | None] = ContextVar("splendor_http_exchange", default=None)


class _Dropped(Exception):
    """A body the guard stopped reading: its answer, its not-served reason."""

    def __init__(self, status: int, code: str, message: str, reason: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.reason = reason


class _Reader:
    """A body being read."""

    __slots__ = ("dropped", "grace", "received", "started", "timeout")

    def __init__(self, started: float) -> None:
        self.started = started
        self.grace = random.uniform(*BODY_GRACE_SECONDS)
        self.received = 0
        self.timeout: asyncio.Timeout | None = None
        self.dropped: _Dropped | None = None  # set by another request that made room

    def counted(self) -> int:
        """Its bytes that count against BODY_BYTES_IN_FLIGHT: those beyond SMALL_BODY_BYTES."""
        return max(0, self.received - SMALL_BODY_BYTES)

    def rate(self, now: float) -> float:
        return self.received / max(now - self.started, 1e-3)

    def deadline(self, loop_now: float, now: float) -> float:
        """The event-loop time by which its next bytes must come: its rate, or its total time, runs out."""
        due = self.started + min(BODY_SECONDS, self.grace + self.received / MIN_BODY_BYTES_PER_SECOND)
        return loop_now + (due - now)


class Guard:
    """The edge's decisions for the engine calls of one process (see the module's docstring).

    ``max_request_bytes``: the largest request message (``--max-request-bytes``); ``admission``: the
    process's limits, shared with gRPC; ``listener``: where connections' progress is reported.
    """

    def __init__(self, admission: Admission, *, max_request_bytes: int, listener: CappedListener | None) -> None:
        self.admission = admission
        self.max_request_bytes = max_request_bytes
        self.listener = listener
        self._readers: dict[_Reader, None] = {}  # in arrival order
        self.reading_bytes = 0  # held by the bodies being read

    def bodies_being_read(self) -> int:
        """The request bodies being read now (at most MAX_READERS)."""
        return len(self._readers)

    async def serve(self, scope: Scope, receive: Receive, send: Send, app: App) -> None:
        """Read the body of the engine call ``scope``, then run ``app`` on it (or refuse it). ``send`` adds the
        CORS headers the caller's origin gets."""
        method = method_label(scope["path"].removeprefix(SERVICE_PREFIX))
        headers = _headers(scope)
        content_type = headers.get("content-type", "")
        grpc_web = content_type.split(";", 1)[0].strip().lower().startswith(GRPC_WEB)
        limit = self.max_request_bytes + (GRPC_WEB_ENVELOPE_BYTES if grpc_web else 0)
        peer = peer_of(scope)
        if self.listener is not None:
            self.listener.progressed(peer)
        announced = _content_length(headers)
        refusal = None
        if announced is not None and announced > limit:
            message = f"the request is larger than the server's limit of {self.max_request_bytes} bytes"
            refusal = _Dropped(413, "resource_exhausted", message, "request_too_large")
        elif self.admission.full():
            self.admission.refused()  # readiness: the process is saturated
            refusal = _Dropped(429, "resource_exhausted", REFUSAL_MESSAGE, "max_concurrent_rpcs")
        if refusal is None:
            try:
                body = await self._read(receive, limit, peer)
            except _Dropped as dropped:
                refusal = dropped
        if refusal is not None:
            record_not_served("http", method, refusal.reason)
            # A body refused unread is read and dropped after the answer; a slow or dropped one is not waited for.
            linger = refusal.reason in ("request_too_large", "max_concurrent_rpcs")
            await _refuse(send, receive, grpc_web, refusal, linger=linger)
            return
        exchange = Exchange(peer, scope.get("http_version") == "2")
        token = current_exchange.set(exchange)
        if self.listener is not None:
            self.listener.call_started(peer)
        try:
            await app(scope, _Replay(body, receive, exchange), send)
        finally:
            current_exchange.reset(token)
            if self.listener is not None:
                self.listener.call_ended(peer)

    async def _read(self, receive: Receive, limit: int, peer: Peer | None) -> bytes:
        loop = asyncio.get_running_loop()
        now = time.monotonic()
        reader = _Reader(now)
        if len(self._readers) >= MAX_READERS:  # the least-progressed: lowest rate, then oldest
            self._drop(min(self._readers, key=lambda other: (other.rate(now), other.started)), "readers_limit")
        self._readers[reader] = None
        chunks: list[bytes] = []
        try:
            async with asyncio.timeout_at(reader.deadline(loop.time(), now)) as timeout:
                reader.timeout = timeout
                while True:
                    message = await receive()
                    if message["type"] != "http.request":  # the client left
                        raise _Dropped(499, "canceled", "the client closed the connection", "client_closed")
                    chunk = message.get("body", b"")
                    if chunk:
                        self._take(reader, chunk, limit)
                        chunks.append(chunk)
                        if self.listener is not None:
                            self.listener.progressed(peer)
                    if not message.get("more_body", False):
                        break
                    timeout.reschedule(reader.deadline(loop.time(), time.monotonic()))
        except TimeoutError:
            if reader.dropped is not None:  # made room for another body
                raise reader.dropped from None
            late = "the request body did not arrive in time (too slow, or stalled)"
            raise _Dropped(408, "deadline_exceeded", late, "body_timeout") from None
        finally:
            if reader.dropped is None:  # a dropped reader left the table when it was dropped
                del self._readers[reader]
                self.reading_bytes -= reader.counted()
        return b"".join(chunks)

    def _take(self, reader: _Reader, chunk: bytes, limit: int) -> None:
        """Count ``chunk`` against the reader's limit and the bytes in flight, making room if needed."""
        if reader.dropped is not None:  # dropped while this chunk was on its way: its read ends here
            raise reader.dropped
        if reader.received + len(chunk) > limit:
            message = f"the request is larger than the server's limit of {self.max_request_bytes} bytes"
            raise _Dropped(413, "resource_exhausted", message, "request_too_large")
        counted_before = reader.counted()
        reader.received += len(chunk)
        self.reading_bytes += reader.counted() - counted_before
        now = time.monotonic()
        while self.reading_bytes > BODY_BYTES_IN_FLIGHT:
            large = [other for other in self._readers if other.counted()]  # the current reader among them
            victim = min(large, key=lambda other: (other.rate(now), other.started))
            self._drop(victim, "bodies_in_flight")
            if victim is reader:
                raise reader.dropped  # type: ignore[misc]  # set just now

    def _drop(self, victim: _Reader, reason: str) -> None:
        """Stop reading ``victim`` to make room: its bytes leave the count now, its task stops at its next step."""
        message = "the server is reading as many request bodies as it holds, and this one the slowest: retry later"
        victim.dropped = _Dropped(429, "resource_exhausted", message, reason)
        del self._readers[victim]
        self.reading_bytes -= victim.counted()
        if victim.timeout is not None:
            victim.timeout.reschedule(asyncio.get_running_loop().time())  # its read ends at once


class _Replay:
    """The request's ``receive`` for the runtime: the body read by the guard, then the connection's own events,
    a hang-up passed on only once the call may be cancelled by one (``Exchange.cancellable``)."""

    __slots__ = ("_body", "_exchange", "_receive")

    def __init__(self, body: bytes, receive: Receive, exchange: Exchange) -> None:
        self._body: bytes | None = body
        self._receive = receive
        self._exchange = exchange

    async def __call__(self) -> Message:
        body = self._body
        if body is not None:
            self._body = None
            return {"type": "http.request", "body": body, "more_body": False}
        message = await self._receive()
        if message["type"] == "http.disconnect":
            # Passed on once the call may be cancelled by a hang-up; until then the call is answered (the watcher
            # waiting here is cancelled when the call ends).
            await self._exchange.cancellable.wait()
        return message


async def _refuse(send: Send, receive: Receive, grpc_web: bool, refusal: _Dropped, *, linger: bool) -> None:
    """Answer a request the guard refused, in its protocol's words. With ``linger``, what the client still sends
    of its body is read and dropped (for at most LINGER_SECONDS) between the answer and its end: a server
    that closes with bytes unread makes the kernel reset the connection, and a client still sending its body
    would read that reset instead of the answer."""
    status, code, message = refusal.status, refusal.code, refusal.message
    headers: list[tuple[bytes, bytes]] = []
    if grpc_web:  # a trailers-only answer: the status in the headers
        grpc_status = _GRPC_DEADLINE_EXCEEDED if code == "deadline_exceeded" else _GRPC_RESOURCE_EXHAUSTED
        headers += [
            (b"content-type", b"application/grpc-web+proto"),
            (b"grpc-status", grpc_status.encode()),
            (b"grpc-message", message.replace(" ", "%20").encode("latin-1")),
        ]
        body = b""
        status = 200
    else:
        headers.append((b"content-type", b"application/json"))
        body = json.dumps({"code": code, "message": message}).encode()
    headers += [(b"content-length", str(len(body)).encode()), (b"connection", b"close")]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body, "more_body": linger})  # all of it, at once
    if linger:
        try:
            async with asyncio.timeout(LINGER_SECONDS):
                while (await receive()).get("more_body", False):
                    pass
        except TimeoutError:
            pass
        await send({"type": "http.response.body", "body": b""})


def _headers(scope: Scope) -> dict[str, str]:
    return {name.decode("latin-1").lower(): value.decode("latin-1") for name, value in scope.get("headers", ())}


def _content_length(headers: dict[str, str]) -> int | None:
    value = headers.get("content-length")
    if value is None or not value.strip().isdigit():
        return None  # chunked (or malformed, which the server refuses itself)
    return int(value)


def peer_of(scope: Scope) -> Peer | None:
    client = scope.get("client")
    if not client:
        return None
    return (str(client[0]), int(client[1]))
