"""The HTTP listener: the Connect application under waitress, on a thread beside the gRPC server.

waitress (a threaded WSGI server) was chosen by ``benchmarks/http_runtimes.py``: against
uvicorn (ASGI) it served more Connect-binary ApplyAction calls/s on the 2-core machine; the
faster granian serves ASGI in-process only through an embedded mode its authors call
experimental, and binds its own sockets. waitress serves a socket bound here, so worker
processes share the port with SO_REUSEPORT as the gRPC side does, and drains cleanly.

The edge (``edge.py``) decides on waitress's event-loop thread what must not wait for a
handler thread: ``/healthz``, refusals before the body is read (over the concurrency limit,
or a ``Content-Length`` over ``--max-request-bytes``), slow header and body reads, the
connection cap. Handler threads: ``--threads`` for cheap calls plus one per expensive slot.
Keep-alive connections idle for ``IDLE_SECONDS`` are closed.
"""

from __future__ import annotations

import logging
import socket
import threading
import time
from typing import Any, Final

import structlog
from connectrpc.server import ConnectWSGIApplication
from waitress import wasyncore
from waitress.adjustments import Adjustments
from waitress.task import ThreadedTaskDispatcher

from engine_service.api.state_memo import StateMemo
from engine_service.runtime.admission import Admission
from engine_service.runtime.metrics import get_metrics
from engine_service.runtime.settings import Settings
from engine_service.sealing import KeyRing, load_key_ring

from .codecs import codecs
from .cors import CorsPolicy
from .edge import GRPC_WEB_ENVELOPE_BYTES, EdgePolicy, EdgeServer
from .endpoints import SERVICE_PATH, endpoints
from .front import front
from .observe import HttpObserver

log = structlog.get_logger(__name__)

IDLE_SECONDS: Final = 120
# Open connections per process; at the cap the oldest idle one is closed, else the new one is refused.
CONNECTION_LIMIT: Final = 1000
BACKLOG: Final = 1024
# Liveness fails when calls are admitted and none has ended for this long: far above --max-call-seconds.
STUCK_SECONDS: Final = 60.0
HEADER_SECONDS: Final = 10.0  # a request's headers must arrive within this of its first byte
BODY_SECONDS: Final = 30.0  # and its body within this (1 MiB at ~35 KB/s)
_DRAIN_POLL_SECONDS: Final = 0.02
_LOOP_TIMEOUT_SECONDS: Final = 0.5
# After the drain, calls still running are cancelled and given this long to notice before the sockets close.
_STOP_SECONDS: Final = 5.0


class _EngineServiceApp(ConnectWSGIApplication):
    @property
    def path(self) -> str:
        return SERVICE_PATH


def parse_address(address: str) -> tuple[str, int]:
    """``localhost:8080`` -> (``localhost``, 8080); ``[::1]:0`` -> (``::1``, 0)."""
    host, sep, port = address.rpartition(":")
    if not sep or not port.isdigit():
        raise ValueError(f"HTTP address {address!r} is not host:port")
    return host.strip("[]") or "0.0.0.0", int(port)


def bind_socket(address: str, *, reuse_port: bool) -> socket.socket:
    """A listening TCP socket on ``address`` (SO_REUSEPORT for worker processes sharing it)."""
    host, port = parse_address(address)
    family, kind, proto, _, sockaddr = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if reuse_port:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)  # accepted sockets inherit it
        sock.bind(sockaddr)
        sock.listen(BACKLOG)
    except OSError:
        sock.close()
        raise
    return sock


class HttpServer:
    """The HTTP server for ``settings.http_address``, bound, not yet started, sealing with ``key_ring``:
    ``start`` it, then ``drain`` it.

    ``admission``: the limit on concurrent engine calls, shared with the gRPC server of the same
    process (``serve`` passes one); by default one of its own, of ``settings.max_concurrent_rpcs``.
    ``memo``: the states already checked, likewise shared (``api/state_memo.py``); by default one of its own.
    """

    def __init__(
        self,
        settings: Settings,
        key_ring: KeyRing | None = None,
        *,
        reuse_port: bool = False,
        access_log: bool | None = None,
        admission: Admission | None = None,
        memo: StateMemo | None = None,
    ) -> None:
        if key_ring is None:  # the gRPC side must share it: pass the one the server loaded
            key_ring = load_key_ring(settings.sealing_keys, settings.sealing_keys_file)
        config = settings.api_config(key_ring, memo)
        if access_log is None:
            access_log = structlog.is_configured()
        self._serving = False
        self._socket = bind_socket(settings.http_address, reuse_port=reuse_port)
        self.port: int = self._socket.getsockname()[1]
        if admission is None:
            admission = Admission(settings.max_concurrent_rpcs or None, settings.expensive_calls)
        self._observer = observer = HttpObserver(
            get_metrics(),
            admission=admission,
            waiting=self._waiting,
            access_log=access_log,
            log_level=settings.log_level,
            max_call_seconds=settings.max_call_seconds,
        )
        table = endpoints(settings.max_message_bytes, config, admission)
        connect_app = _EngineServiceApp(
            endpoints=table, interceptors=[observer], read_max_bytes=settings.max_request_bytes, codecs=codecs()
        )
        cors = CorsPolicy(settings.http_cors_origins)
        app = front(connect_app, table, cors, lambda: self._serving, lambda: admission.stuck(STUCK_SECONDS))
        logging.getLogger("waitress.queue").setLevel(logging.ERROR)  # queueing is normal under load
        max_body = settings.max_request_bytes + GRPC_WEB_ENVELOPE_BYTES
        adjustments = Adjustments(
            threads=settings.workers + settings.expensive_calls,
            connection_limit=CONNECTION_LIMIT,
            channel_timeout=IDLE_SECONDS,
            cleanup_interval=1,  # the header and body timeouts are checked this often
            max_request_body_size=max_body,
            inbuf_overflow=max_body,  # bodies stay in memory (bounded by the limit), never on disk
            channel_request_lookahead=1,  # keeps reading while a call runs, so a disconnect is seen
            asyncore_use_poll=True,  # select() cannot watch more than 1,024 sockets
            asyncore_loop_timeout=_LOOP_TIMEOUT_SECONDS,
            expose_tracebacks=False,
            ident="splendor-engine",
        )
        dispatcher = ThreadedTaskDispatcher()
        dispatcher.set_thread_count(adjustments.threads)
        policy = EdgePolicy(
            admission,
            self._waiting,
            cors,
            max_message_bytes=settings.max_request_bytes,
            header_seconds=HEADER_SECONDS,
            body_seconds=BODY_SECONDS,
        )
        sock = self._socket
        self._server: Any = EdgeServer(
            app,
            policy,
            map={},
            _sock=sock,
            dispatcher=dispatcher,
            adj=adjustments,
            bind_socket=False,
            sockinfo=(sock.family, sock.type, sock.proto, sock.getsockname()),
        )
        self._stopping = threading.Event()
        self._thread = threading.Thread(target=self._loop, name="http", daemon=True)

    def _loop(self) -> None:
        """waitress's event loop, until ``stop``: the sockets are closed only once it has ended."""
        server = self._server
        server.loop_thread = threading.get_ident()
        while not self._stopping.is_set():
            wasyncore.loop(timeout=_LOOP_TIMEOUT_SECONDS, map=server._map, use_poll=True, count=1)

    def _waiting(self) -> int:
        return len(self._server.task_dispatcher.queue)

    def _in_flight(self) -> int:
        dispatcher = self._server.task_dispatcher
        return len(dispatcher.queue) + int(dispatcher.active_count)

    def start(self) -> None:
        self._thread.start()
        self._serving = True

    def drain(self, grace_seconds: float) -> None:
        """Turn /healthz NOT_SERVING, stop accepting connections, give requests in flight
        ``grace_seconds`` to finish, then close every connection."""
        self._serving = False
        self._server.accepting = False
        self._server.pull_trigger()  # the loop notices at once
        deadline = time.monotonic() + grace_seconds
        while self._in_flight() and time.monotonic() < deadline:
            time.sleep(_DRAIN_POLL_SECONDS)
        self.stop()

    def stop(self) -> None:
        """Stop the loop, cancel the calls still running, wait for the handler threads, then close the sockets:
        in that order, so no thread touches a socket or the loop's wake-up pipe after it is closed."""
        self._serving = False
        self._stopping.set()
        self._server.pull_trigger()
        if self._thread.is_alive():
            self._thread.join(timeout=5)
        self._observer.cancel_all()
        self._server.task_dispatcher.shutdown(cancel_pending=True, timeout=_STOP_SECONDS)
        self._server.close()
        wasyncore.close_all(self._server._map)
