"""The HTTP edge: what waitress decides on its event-loop thread, before any handler thread is involved.

waitress reads requests on one event-loop thread and runs the WSGI application on a few handler
threads. Engine calls hold those threads for as long as they compute, so anything that must
answer whatever the load is decided here, on the loop thread, in microseconds:

- ``/healthz`` is answered on the loop thread (``EdgeServer.add_task``), never queued behind calls;
- admission is decided once a request's headers are read, before its body: over the process's
  limit, or with a ``Content-Length`` over the cap, the call is refused at once in its protocol's
  words (Connect: HTTP 429/413 and a ``resource_exhausted`` JSON error; gRPC-Web: status 8) and
  the connection closed, the body unread. Bodies being read share a budget of bytes
  (``BODY_BYTES_IN_FLIGHT``, reserved from ``Content-Length``, the cap for a chunked body): a
  flood of large bodies is refused once it is spent, while small requests (a GetCatalog, a
  move) still fit;
- a request whose headers (or body) are not read within ``header_seconds`` (``body_seconds``) of
  its first byte is dropped, so trickling clients cannot hold connections; at the connection cap,
  the oldest idle connection is closed to make room, else the one reading its headers the longest,
  and a new one is refused only when every connection has a call (or its body) in flight;
- a connection closed after a refusal with its body unread is closed gently: its sending side is
  shut once the answer is out, and what the client still sends is read and dropped until it
  closes too, for at most ``LINGER_SECONDS``. Closing a socket with unread bytes makes the kernel
  reset the connection, and a client still sending its body would often get that reset instead
  of the answer (a 413 became "connection reset" for most bodies over 1 MiB);

Every refusal is counted and logged (``engine_service/runtime/not_served.py``).
"""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Callable
from typing import Any, Final

from waitress.channel import HTTPChannel
from waitress.parser import HTTPRequestParser
from waitress.server import TcpWSGIServer
from waitress.utilities import Error, RequestEntityTooLarge

from engine_service.runtime.admission import REFUSAL_MESSAGE, Admission
from engine_service.runtime.not_served import NO_METHOD, method_label, record_not_served

from .cors import CorsPolicy
from .front import HEALTH_PATH, media_type

_SERVICE_PREFIX: Final = "/splendor.v1.EngineService/"
_GRPC_WEB: Final = "application/grpc-web"
_GRPC_RESOURCE_EXHAUSTED: Final = "8"
# The request bytes being read at once, over every connection: memory for bodies not yet admitted.
BODY_BYTES_IN_FLIGHT: Final = 32 * 1024 * 1024
ACCEPT_BATCH: Final = 64  # connections taken in per loop turn
# How long a connection closed after a refusal still reads (and drops) what its client sends.
LINGER_SECONDS: Final = 2.0
GRPC_WEB_ENVELOPE_BYTES: Final = 5  # a gRPC-Web body is the message behind a 5-byte frame header


class Refusal(Error):
    """An engine call refused before its body is read, written in the words of the caller's protocol."""

    def __init__(self, code: int, reason: str, message: str, content_type: str, cors: list[tuple[str, str]]) -> None:
        super().__init__(message)
        self.code = code
        self.reason = reason
        self.message = message
        self.content_type = content_type
        self.cors = cors

    def to_response(self, ident: str | None = None) -> Any:  # waitress writes the body's bytes as they are
        if media_type(self.content_type).startswith(_GRPC_WEB):  # gRPC-Web: status in a trailers-only answer
            headers = [
                ("Content-Type", media_type(self.content_type)),
                ("grpc-status", _GRPC_RESOURCE_EXHAUSTED),
                ("grpc-message", self.message.replace(" ", "%20")),
            ]
            return "200 OK", headers + self.cors, b""
        body = json.dumps({"code": "resource_exhausted", "message": self.message}).encode()
        return f"{self.code} {self.reason}", [("Content-Type", "application/json"), *self.cors], body


class EdgePolicy:
    """What the edge checks, with the process's admission and the CORS policy (for refusals' headers)."""

    def __init__(
        self,
        admission: Admission,
        waiting: Callable[[], int],
        cors: CorsPolicy,
        *,
        max_message_bytes: int,
        header_seconds: float,
        body_seconds: float,
    ) -> None:
        self.admission = admission
        self.waiting = waiting
        self.cors = cors
        self.max_message_bytes = max_message_bytes
        self.header_seconds = header_seconds
        self.body_seconds = body_seconds
        self.reading_bytes = 0  # reserved by the bodies being read (changed on the loop thread only)

    def full(self) -> bool:
        limit = self.admission.limit
        return limit is not None and self.admission.active + self.waiting() >= limit

    def check(self, request: Any) -> None:
        """Refuse ``request`` (headers read, body not) when it is too large or the process is full."""
        path = request.path or ""
        if request.command != "POST" or not path.startswith(_SERVICE_PREFIX):
            return
        method = method_label(path.removeprefix(_SERVICE_PREFIX))
        headers = request.headers
        cors = self.cors.response_headers(headers.get("ORIGIN"))
        content_type = headers.get("CONTENT_TYPE", "")
        framing = GRPC_WEB_ENVELOPE_BYTES if media_type(content_type).startswith(_GRPC_WEB) else 0
        too_large = request.content_length > self.max_message_bytes + framing
        if isinstance(request.error, RequestEntityTooLarge) or too_large:
            message = f"the request is larger than the server's limit of {self.max_message_bytes} bytes"
            request.error = Refusal(413, "Payload Too Large", message, content_type, cors)
            request.completed = True
            record_not_served("http", method, "request_too_large")
        elif request.error is not None:
            return
        elif self.full():
            request.error = Refusal(429, "Too Many Requests", REFUSAL_MESSAGE, content_type, cors)
            request.completed = True
            record_not_served("http", method, "max_concurrent_rpcs")
            self.admission.refused()  # readiness: the process is saturated
        else:
            reserved = self.max_message_bytes + framing if request.chunked else request.content_length
            if self.reading_bytes + reserved > BODY_BYTES_IN_FLIGHT:
                message = "the server is reading as many request bytes as it holds: retry later"
                request.error = Refusal(429, "Too Many Requests", message, content_type, cors)
                request.completed = True
                record_not_served("http", method, "bodies_in_flight")
                return
            request.reserved_bytes = reserved
            self.reading_bytes += reserved

    def done_reading(self, request: Any) -> None:
        """``request``'s body is read (or never will be): its bytes no longer count as being read."""
        reserved = getattr(request, "reserved_bytes", 0)
        if reserved:
            request.reserved_bytes = 0
            self.reading_bytes -= reserved


class EdgeChannel(HTTPChannel):
    """A connection: its current request checked once its headers are read, and timed from its first byte."""

    request_began = 0.0
    # A probe or a refusal to answer on the loop thread once ``received`` lets go of the requests' lock.
    answer_here = False
    # A request was refused with its body unread: close gently (the module's docstring).
    linger_on_close = False
    linger_until: float | None = None  # while closing gently: when to close anyway

    def received(self, data: bytes) -> bool:
        if self.linger_until is not None:
            return True  # the rest of a refused body: dropped
        if self.request is None and data:
            self.request_began = time.monotonic()
        more = bool(super().received(data))
        if any(request.error is not None for request in self.requests):
            self.linger_on_close = True
        while self.answer_here:  # service() may queue the next request here again
            self.answer_here = False
            self.service()
        return more

    def readable(self) -> bool:
        return self.linger_until is not None or bool(super().readable())

    def writable(self) -> bool:
        return self.linger_until is None and bool(super().writable())

    def handle_close(self) -> None:
        if self.linger_on_close and self.linger_until is None and self.connected and not self.total_outbufs_len:
            self._linger()
            return
        server: Any = self.server
        server.lingering.discard(self)
        if self.request is not None:  # a body cut short: it no longer holds a place
            server.policy.done_reading(self.request)
        super().handle_close()

    def close_now(self) -> None:
        """Close at once, even a connection that would close gently (to make room, or its time is up)."""
        self.linger_on_close = False
        self.handle_close()

    def _linger(self) -> None:
        """The answer is out: shut the sending side, then read and drop until the client closes (EOF makes
        wasyncore call handle_close again) or ``LINGER_SECONDS`` pass (``EdgeServer.readable``)."""
        sock = self.socket
        try:
            if sock is None:
                raise OSError("closed")
            sock.shutdown(socket.SHUT_WR)
        except OSError:  # the peer is gone already
            self.close_now()
            return
        self.will_close = self.close_when_flushed = False
        self.linger_until = time.monotonic() + LINGER_SECONDS
        server: Any = self.server
        server.lingering.add(self)

    def parser_class(self, adj: Any) -> HTTPRequestParser:  # type: ignore[override]
        server: Any = self.server
        return _EdgeParser(adj, server.policy)


class _EdgeParser(HTTPRequestParser):
    def __init__(self, adj: Any, policy: EdgePolicy) -> None:
        super().__init__(adj)
        self._policy = policy
        self._checked = False

    def received(self, data: bytes) -> int:
        consumed = int(super().received(data))
        if self.headers_finished and not self._checked:
            self._checked = True
            self._policy.check(self)
            if isinstance(self.error, Refusal):
                consumed = len(data)  # the body that came with the headers is not a request of its own
        if self.completed:
            self._policy.done_reading(self)
        return consumed


def _is_probe(request: Any) -> bool:
    return request.path == HEALTH_PATH and request.command in ("GET", "HEAD")


class EdgeServer(TcpWSGIServer):
    """waitress's TCP server with the edge's decisions on its loop thread (see the module's docstring)."""

    channel_class = EdgeChannel

    def __init__(self, application: Any, policy: EdgePolicy, **kwargs: Any) -> None:
        self.policy = policy
        self.lingering: set[EdgeChannel] = set()  # connections closing gently
        self._trigger_lock = threading.Lock()
        self._closed = False
        super().__init__(application, **kwargs)

    def pull_trigger(self) -> None:
        # A handler thread that finishes after the server closed must not write to the closed wake-up
        # pipe: that was the "Bad file descriptor" traceback at SIGTERM (or, its number reused, a write
        # into another file).
        with self._trigger_lock:
            if not self._closed:
                super().pull_trigger()

    def close(self) -> None:
        with self._trigger_lock:
            self._closed = True
        super().close()

    loop_thread: int | None = None  # the event loop's thread, once it runs

    def add_task(self, task: Any) -> None:
        request = task.requests[0]
        on_loop = threading.get_ident() == self.loop_thread
        if on_loop and (request.error is not None or _is_probe(request)):
            task.answer_here = True  # microseconds, on this thread: never queued behind engine calls
            return
        super().add_task(task)

    active_channels: Any  # fileno -> channel (waitress's stubs type it as one channel)

    def handle_accept(self) -> None:
        # Many at a time: one accept per loop turn (each turn walks every connection) made a burst of a
        # thousand connections take seconds to take in, and a probe behind it waited as long.
        for _ in range(ACCEPT_BATCH):
            if not self._accept_one():
                return

    def _accept_one(self) -> bool:
        """Take in one waiting connection (False: none waits); at the cap, make room or refuse it at once."""
        try:
            accepted = self.accept()
        except OSError:
            return False
        if accepted is None:
            return False
        conn, addr = accepted
        if len(self.active_channels) >= self.adj.connection_limit and not self._make_room():
            record_not_served("http", NO_METHOD, "connection_limit")
            conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
            conn.close()  # a reset, at once, rather than a wait in the backlog
            return True
        try:
            self.set_socket_options(conn)
        except OSError:  # the peer is already gone
            conn.close()
            return True
        self.channel_class(self, conn, self.fix_addr(addr), self.adj, map=self._map)  # type: ignore[attr-defined]
        return True

    def readable(self) -> bool:
        # Always accept: the cap is applied in handle_accept, with a fast refusal, never by leaving
        # connections (probes included) waiting in the backlog.
        if self.lingering:
            clock = time.monotonic()
            for channel in [channel for channel in self.lingering if (channel.linger_until or 0.0) <= clock]:
                channel.close_now()
        now = time.time()
        if now >= self.next_channel_cleanup:
            self.next_channel_cleanup = int(now) + self.adj.cleanup_interval
            self.maintenance(int(now))
        return bool(self.accepting)

    def _make_room(self) -> bool:
        """Close the oldest idle connection, else the one reading its headers the longest; False if none."""
        channels = list(self.active_channels.values())
        idle = [channel for channel in channels if _idle(channel)]
        if idle:
            min(idle, key=lambda channel: channel.last_activity).close_now()
            return True
        slow = [channel for channel in channels if _reading_headers(channel)]
        if slow:
            record_not_served("http", NO_METHOD, "connection_limit")
            min(slow, key=lambda channel: channel.request_began).close_now()
            return True
        return False

    def maintenance(self, now: int) -> None:
        super().maintenance(now)
        clock = time.monotonic()
        policy = self.policy
        for channel in list(self.active_channels.values()):
            request = channel.request
            if request is None or channel.will_close:
                continue
            waited = clock - channel.request_began
            if not request.headers_finished and waited > policy.header_seconds:
                record_not_served("http", NO_METHOD, "header_timeout")
                channel.will_close = True
            elif request.headers_finished and not request.completed and waited > policy.body_seconds:
                method = method_label((request.path or "").removeprefix(_SERVICE_PREFIX))
                record_not_served("http", method, "body_timeout")
                channel.will_close = True


def _reading_headers(channel: Any) -> bool:
    return not channel.requests and channel.request is not None and not channel.request.headers_finished


def _idle(channel: Any) -> bool:
    """Kept alive between requests: nothing read, nothing running, nothing to send."""
    return not channel.requests and channel.request is None and not channel.total_outbufs_len
