"""The HTTP listener: the Connect application under hypercorn, on an event loop of its own beside the gRPC server.

hypercorn (an ASGI server on asyncio) was chosen by ``benchmarks/http_runtimes.py``, against
waitress with the former hand-written edge, uvicorn and granian: the attack suite
(``tests/edge``) held on each of the asyncio servers, and of those hypercorn alone answers a
request whose client half-closed its connection after sending it, serves HTTP/2 without TLS
(h2c), and closes a connection whose headers do not arrive within its keep-alive time. Its
calls/s, side by side: ``docs/performance.md``. Its documented settings hold what it owns:

- headers: at most ``HEADER_BYTES`` (HTTP/1.1 and HTTP/2), complete within ``HEADER_SECONDS``
  of the connection's idle start (``keep_alive_timeout``: an idle keep-alive connection closes
  then too);
- connections: the listening socket caps them (``connections.py``);
- HTTP/2: at most ``H2_STREAMS`` requests at once on a connection.

The edge (``guard.py``) owns engine calls' bodies; the endpoints (``endpoints.py``) run calls on
threads of their own, so the event loop never waits on an engine call: ``/healthz`` answers at
once whatever the load. With ``--processes``, every worker serves HTTP on the shared port
(``SO_REUSEPORT``).
"""

from __future__ import annotations

import asyncio
import logging
import socket
import threading
from typing import Any, Final

import structlog
from connectrpc.server import ConnectASGIApplication
from hypercorn.asyncio import serve as hypercorn_serve
from hypercorn.config import Config, Sockets

from engine_service.api.state_memo import StateMemo
from engine_service.codec.modules import check_adapters
from engine_service.runtime.admission import Admission, process_admission
from engine_service.runtime.metrics import get_metrics
from engine_service.runtime.settings import Settings
from engine_service.sealing import KeyRing, load_key_ring

from .codecs import codecs
from .connections import CONNECTION_LIMIT, CappedListener
from .cors import CorsPolicy
from .endpoints import SERVICE_PATH, Lanes, endpoints
from .front import front
from .guard import Guard
from .observe import HttpObserver

log = structlog.get_logger(__name__)

BACKLOG: Final = 1024
HEADER_BYTES: Final = 16 * 1024  # a Connect or gRPC-Web request's headers take a few hundred bytes
HEADER_SECONDS: Final = 10.0  # a request's headers must arrive within this of the connection's idle start
H2_STREAMS: Final = 64  # concurrent requests on one HTTP/2 connection
# Liveness fails when calls are admitted and none has ended for this long: far above --max-call-seconds.
STUCK_SECONDS: Final = 60.0
# After the drain, calls still running are cancelled and given this long to notice before the sockets close.
_STOP_SECONDS: Final = 5.0
_JOIN_SECONDS: Final = 10.0


class _EngineServiceApp(ConnectASGIApplication[None]):
    @property
    def path(self) -> str:
        return SERVICE_PATH


class _ServerConfig(Config):
    """hypercorn's settings, serving the socket bound here (``create_sockets``: its documented hook)."""

    def __init__(self, listener: socket.socket) -> None:
        super().__init__()
        self._listener = listener

    def create_sockets(self) -> Sockets:
        return Sockets(secure_sockets=[], insecure_sockets=[self._listener], quic_sockets=[])


class _ToStructlog(logging.Handler):
    """hypercorn's error lines (an application error, a protocol failure) as the server's own log lines."""

    def emit(self, record: logging.LogRecord) -> None:
        log.error("http_server_error", message=record.getMessage(), exc_info=record.exc_info or False)


def _loop_error(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
    """An error no task handled, as a log line; a connection's task cancelled when the server stops is no error
    (asyncio reports one for each, from its stream callback)."""
    error = context.get("exception")
    if isinstance(error, asyncio.CancelledError):
        return
    log.error("http_loop_error", message=context.get("message", ""), exc_info=error or False)


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


def server_config(listener: socket.socket, settings: Settings) -> Config:
    """hypercorn's settings for ``listener`` (see the module's docstring)."""
    config = _ServerConfig(listener)
    config.backlog = BACKLOG
    config.h11_max_incomplete_size = HEADER_BYTES
    config.h2_max_header_list_size = HEADER_BYTES
    config.h2_max_concurrent_streams = H2_STREAMS
    config.keep_alive_timeout = HEADER_SECONDS
    config.graceful_timeout = settings.grace_seconds
    config.include_server_header = False
    config.accesslog = None  # the per-call line is the server's own (observe.py)
    errors = logging.getLogger("splendor.http.server")
    errors.propagate = False
    if not errors.handlers:
        errors.addHandler(_ToStructlog(logging.WARNING))
    config.errorlog = errors
    return config


class HttpApp:
    """The ASGI application of one process's HTTP listener and what it runs on: the edge, the Connect runtime,
    the threads of the endpoints. ``serving``: what /healthz says (False once the server drains).

    ``listener``: the listening socket whose connections the edge reports progress of (None: not capped).
    """

    def __init__(
        self,
        settings: Settings,
        key_ring: KeyRing,
        *,
        access_log: bool,
        admission: Admission,
        memo: StateMemo | None,
        listener: CappedListener | None,
    ) -> None:
        self.serving = False
        self.observer = HttpObserver(
            get_metrics(),
            access_log=access_log,
            log_level=settings.log_level,
            max_call_seconds=settings.max_call_seconds,
        )
        self.lanes = Lanes(admission, settings.threads)
        table = endpoints(settings.max_response_bytes, settings.api_config(key_ring, memo), self.lanes)
        connect_app = _EngineServiceApp(
            service=None,
            endpoints=lambda _service: table,
            interceptors=[self.observer],
            read_max_bytes=settings.max_request_bytes,
            codecs=codecs(),
        )
        self.guard = Guard(admission, max_request_bytes=settings.max_request_bytes, listener=listener)
        self.asgi = front(
            connect_app,
            table,
            CorsPolicy(settings.http_cors_origins),
            self.guard,
            serving=lambda: self.serving,
            stuck=lambda: admission.stuck(STUCK_SECONDS),
        )

    def close(self) -> None:
        """Tell the calls still running to stop, then stop the endpoints' threads."""
        self.observer.cancel_all()
        self.lanes.shutdown()


class HttpServer:
    """The HTTP server for ``settings.http_address``, bound, not yet started, sealing with ``key_ring``:
    ``start`` it, then ``drain`` it.

    ``admission``: the limits on engine calls, shared with the gRPC server of the same process (``serve``
    passes one); by default one of its own. ``memo``: the states already checked, likewise shared
    (``api/state_memo.py``); by default one of its own. Raises ``ModuleWithoutAdapter`` (nothing bound) when a
    module the rules registered has no protobuf adapter.
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
        check_adapters()  # every module the rules play must travel in the contract before anything is bound
        if key_ring is None:  # the gRPC side must share it: pass the one the server loaded
            key_ring = load_key_ring(settings.sealing_keys, settings.sealing_keys_file)
        self.listener = CappedListener.listen_on(
            bind_socket(settings.http_address, reuse_port=reuse_port), CONNECTION_LIMIT, HEADER_SECONDS
        )
        self.port: int = self.listener.getsockname()[1]
        self.app = HttpApp(
            settings,
            key_ring,
            access_log=structlog.is_configured() if access_log is None else access_log,
            admission=admission or process_admission(settings),
            memo=memo,
            listener=self.listener,
        )
        self._config = server_config(self.listener, settings)
        self._loop = asyncio.new_event_loop()
        self._shutdown: asyncio.Event | None = None
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._run, name="http", daemon=True)

    @property
    def guard(self) -> Guard:
        return self.app.guard

    def _run(self) -> None:
        asyncio.set_event_loop(self._loop)
        self._loop.set_exception_handler(_loop_error)
        try:
            self._loop.run_until_complete(self._serve())
        finally:
            self._finish_tasks()
            self._ready.set()  # a start() waiting on a server that failed to start returns
            self._loop.close()

    def _finish_tasks(self) -> None:
        """Cancel the tasks the server left (connections still closing when it returned) and let them end, as
        ``asyncio.run`` does: a loop closed under a pending task reports it destroyed, as an error."""
        pending = asyncio.all_tasks(self._loop)
        for task in pending:
            task.cancel()
        if pending:
            self._loop.run_until_complete(asyncio.gather(*pending, return_exceptions=True))
        self._loop.run_until_complete(self._loop.shutdown_asyncgens())

    async def _serve(self) -> None:
        shutdown = self._shutdown = asyncio.Event()
        self._loop.call_soon(self._ready.set)  # once hypercorn listens: it starts before the loop runs again
        app: Any = self.app.asgi
        await hypercorn_serve(app, self._config, shutdown_trigger=shutdown.wait, mode="asgi")

    def start(self) -> None:
        self._thread.start()
        self._ready.wait(_JOIN_SECONDS)
        self.app.serving = True

    def drain(self, grace_seconds: float) -> None:
        """Turn /healthz NOT_SERVING, stop accepting connections, give requests in flight ``grace_seconds``
        to finish, then close every connection."""
        self.app.serving = False
        self._stop(grace_seconds)

    def stop(self) -> None:
        """Cancel the calls still running, give them a moment to notice, close every connection."""
        self.app.serving = False
        self.app.observer.cancel_all()
        self._stop(_STOP_SECONDS)

    def _stop(self, grace_seconds: float) -> None:
        self._config.graceful_timeout = grace_seconds
        shutdown = self._shutdown
        if shutdown is not None and self._thread.is_alive():
            self._loop.call_soon_threadsafe(shutdown.set)
            self._thread.join(grace_seconds + _JOIN_SECONDS)
        self.app.close()  # what the grace did not see end stops at its next check
        self.listener.close()
