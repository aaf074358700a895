"""The listening socket: a connection cap (the least-progressed connection makes room), bounded reads.

The HTTP server (hypercorn, on asyncio) accepts from the socket it is given, so the cap lives in that
socket: ``CappedListener.accept`` hands out ``Connection`` sockets and keeps count of those still open
(a ``Connection`` leaves the count when the server closes it). At the cap, a new connection is always
taken in (a probe is never left waiting in the backlog, nor refused) and the least-progressed open
connection is shut down instead: the one that has gone longest without progress among those with no
call running (idle keep-alive connections, connections still sending headers, bodies stalled or
trickling). Progress is what the application (``front.py``, ``guard.py``) reports for a connection's
peer address: a request started, body bytes received, an answer sent. A connection with a call running is never shut
down: there are at most ``--max-concurrent-rpcs`` (plus the expensive places) of those, far below the
cap. Each shutdown is counted (``splendor_calls_not_served_total``, reason ``connection_limit``), and
so is each connection the server closes with a request's headers unfinished: ``header_timeout`` (not
complete within the server's header time) or ``headers_incomplete`` (refused as too large or
malformed, or the client left).

What a connection can make the process hold is bounded too: its kernel receive buffer is
``RECEIVE_BUFFER_BYTES``, and a read takes at most ``READ_BYTES`` of it (the event loop would take
256 KiB), so 1,000 connections pouring headers in hold ~50 KiB each, not ~100 (docs/operations.md,
"Memory").

Every method here runs on the server's event-loop thread, except ``close``, which the server may call
from it too; the table is only changed there.
"""

from __future__ import annotations

import contextlib
import socket
import time
from typing import Final

from engine_service.runtime.not_served import NO_METHOD, record_not_served

Peer = tuple[str, int]
# The kernel's receive buffer of each connection (it doubles it for its own bookkeeping): a window of this much
# serves a 1 MiB request in ~16 round trips, and bounds what a client can make the server hold before it reads.
RECEIVE_BUFFER_BYTES: Final = 32 * 1024
# The most a connection's read takes from the kernel at a time (see Connection.recv).
READ_BYTES: Final = 16 * 1024


class Connection(socket.socket):
    """An accepted connection that leaves its listener's table when it is closed."""

    listener: CappedListener | None = None
    peer: Peer = ("", 0)
    progressed = 0.0  # time.monotonic() of its last progress
    requests = 0  # requests the application is answering on it (HTTP/2 may run several at once)
    calls = 0  # engine calls running on it, their bodies read
    unanswered_bytes = 0  # received while no request was being answered: a request's headers, so far
    unanswered_since = 0.0

    def recv(self, bufsize: int, flags: int = 0) -> bytes:
        # At most READ_BYTES at a time, whatever the event loop asks (256 KiB): a connection pouring bytes in
        # gets its turn like the others, and the server never holds more of it than it has looked at.
        data = super().recv(min(bufsize, READ_BYTES), flags)
        if data and not self.requests:
            if not self.unanswered_bytes:
                self.unanswered_since = time.monotonic()
            self.unanswered_bytes += len(data)
        return data

    def close(self) -> None:
        listener, self.listener = self.listener, None
        if listener is not None:
            listener.forget(self)
            if self.unanswered_bytes:  # closed with a request's headers unfinished: the server dropped them
                waited = time.monotonic() - self.unanswered_since
                timed_out = waited >= listener.header_seconds * _TIMED_OUT_SHARE
                record_not_served("http", NO_METHOD, "header_timeout" if timed_out else "headers_incomplete")
        super().close()


class CappedListener(socket.socket):
    """A listening socket that keeps at most ``limit`` accepted connections open (see the module's docstring)."""

    limit: int = 0
    header_seconds: float = 0.0  # the server's time for a request's headers (to tell a timeout from the rest)
    _open: dict[Peer, Connection]

    @classmethod
    def listen_on(cls, sock: socket.socket, limit: int, header_seconds: float) -> CappedListener:
        """Take over the bound and listening socket ``sock`` (closed here)."""
        listener = cls(sock.family, sock.type, sock.proto, fileno=sock.detach())
        # Accepted connections inherit it: what a client can push before the server reads is bounded (a flood
        # of headers costs each connection this much, not the 256 KB the event loop reads at a time).
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, RECEIVE_BUFFER_BYTES)
        listener.limit = limit
        listener.header_seconds = header_seconds
        listener._open = {}
        return listener

    def accept(self) -> tuple[socket.socket, object]:
        conn, address = super().accept()
        connection = Connection(conn.family, conn.type, conn.proto, fileno=conn.detach())
        if len(self._open) >= self.limit:
            self._make_room()
        connection.listener = self
        connection.peer = _peer(address)
        connection.progressed = time.monotonic()
        self._open[connection.peer] = connection
        return connection, address

    def forget(self, connection: Connection) -> None:
        if self._open.get(connection.peer) is connection:
            del self._open[connection.peer]

    def open_connections(self) -> int:
        """The connections taken in and not yet closed."""
        return len(self._open)

    def progressed(self, peer: Peer | None) -> None:
        """The connection of ``peer`` made progress (a request, body bytes, an answer)."""
        connection = self._connection(peer)
        if connection is not None:
            connection.progressed = time.monotonic()

    def request_started(self, peer: Peer | None) -> None:
        """The application answers a request of ``peer``'s connection: its headers came whole."""
        connection = self._connection(peer)
        if connection is not None:
            connection.requests += 1
            connection.unanswered_bytes = 0
            connection.progressed = time.monotonic()

    def request_ended(self, peer: Peer | None) -> None:
        self._count(peer, "requests", -1)

    def call_started(self, peer: Peer | None) -> None:
        self._count(peer, "calls", 1)

    def call_ended(self, peer: Peer | None) -> None:
        self._count(peer, "calls", -1)

    def _connection(self, peer: Peer | None) -> Connection | None:
        return self._open.get(peer) if peer is not None else None

    def _count(self, peer: Peer | None, what: str, change: int) -> None:
        connection = self._connection(peer)
        if connection is not None:
            setattr(connection, what, getattr(connection, what) + change)
            connection.progressed = time.monotonic()

    def _make_room(self) -> None:
        idle = [connection for connection in self._open.values() if not connection.calls]
        if not idle:  # every connection runs a call: the limits on calls keep this from happening
            return
        victim = min(idle, key=_progressed)
        del self._open[victim.peer]
        victim.listener = None
        record_not_served("http", NO_METHOD, "connection_limit")
        with contextlib.suppress(OSError):  # already gone
            victim.shutdown(socket.SHUT_RDWR)  # the server reads the end of the stream and closes it


# A connection closed with unfinished headers after this share of the header time timed out (the server checks
# its timers a little late, never early); before it, its headers were refused (too large, malformed) or it left.
_TIMED_OUT_SHARE: Final = 0.9


def _progressed(connection: Connection) -> float:
    return connection.progressed


def _peer(address: object) -> Peer:
    if isinstance(address, tuple) and len(address) >= 2:
        return (str(address[0]), int(address[1]))
    return (str(address), 0)


# How many connections a process keeps open: far above what calls can use (--max-concurrent-rpcs), so
# the cap only bites on connections that idle, trickle or stall; low enough that their memory is bounded
# (docs/operations.md, "Memory").
CONNECTION_LIMIT: Final = 1024
