"""Worker-process mode: a supervisor forks N servers that share one port with SO_REUSEPORT.

Python runs one handler at a time per process (the GIL), so one process uses about one
core. With ``--processes N`` the parent:

1. reserves the port (resolving port 0) and, when metrics are on, prepares the
   prometheus-client multiprocess directory (stale ``*.db`` files removed);
2. forks the N workers *before* any gRPC server or channel exists in it (gRPC is not
   fork-safe once initialised); each worker builds its own server bound to the same
   port with ``grpc.so_reuseport`` and serves until told to stop;
3. serves /metrics, summing every worker's files (``MultiProcessCollector``);
4. forwards SIGTERM/SIGINT to the workers (each drains: NOT_SERVING, then finishes the
   calls in flight), reaps them (``mark_process_dead``), and exits 0 once all have
   stopped, or non-zero if a worker died unexpectedly (the others are then drained too,
   so the orchestrator restarts the whole unit) or failed.

The kernel spreads *connections* over the listening sockets, not calls: one client
channel is one TCP connection and stays on one worker.

Workers run in their own process group, so a terminal's Ctrl-C reaches only the parent
(which forwards it once), and each checks every second that the parent still exists,
draining if it was killed.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import tempfile
import time
from collections.abc import Callable
from dataclasses import replace
from types import FrameType
from typing import Final, NoReturn

import structlog

from engine_service.runtime.logs import flush_std_streams
from engine_service.runtime.metrics import (
    MetricsServer,
    clean_multiprocess_dir,
    exposition_registry,
    mark_process_dead,
    metrics_host,
    multiprocess_dir,
    use_multiprocess_dir,
)
from engine_service.runtime.settings import Settings

from .banner import GRPC, HTTP, METRICS, report_bind_failure

log = structlog.get_logger(__name__)

# A worker still running this long after the drain should have ended is killed.
KILL_MARGIN_SECONDS: Final = 5.0
_POLL_SECONDS: Final = 0.05

Worker = Callable[[Settings, int, int], int]
"""A worker's body: (settings, index, parent pid) -> exit status."""


def split_address(address: str) -> tuple[str, int]:
    """``host:port`` -> (host as written, port); ``[::]:50051`` -> (``[::]``, 50051)."""
    host, _, port = address.rpartition(":")
    if not host or not port.isdigit():
        raise ValueError(f"address must be host:port, not {address!r}")
    return host, int(port)


def reserve_port(host: str, port: int) -> tuple[socket.socket, int]:
    """A bound (not listening) SO_REUSEPORT socket on ``host:port``, and its port.

    Port 0 is resolved here, so that every worker binds the same port. The socket stays
    open in the parent: it receives no connections (only listening sockets do) but keeps
    the port from being taken. A port already held by a listening socket is refused up
    front, rather than silently shared with another server.
    """
    bare = host.strip("[]")
    family, kind, proto, _, sockaddr = socket.getaddrinfo(
        bare or None, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
    )[0]
    if port != 0:
        with socket.socket(family, kind, proto) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind(sockaddr)
    reservation = socket.socket(family, kind, proto)
    try:
        reservation.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        reservation.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        reservation.bind(sockaddr)
    except OSError:
        reservation.close()
        raise
    return reservation, int(reservation.getsockname()[1])


def supervise(settings: Settings, worker: Worker) -> int:
    """Fork ``settings.processes`` workers running ``worker`` and supervise them. Returns the exit status."""
    try:
        host, port = split_address(settings.address)
        reservation, port = reserve_port(host, port)
    except (OSError, ValueError) as error:
        return report_bind_failure(GRPC, settings.address, error)
    http_reservation = None
    if settings.http_address:  # the HTTP port too: resolved once, shared by the workers
        try:
            http_host, http_port = split_address(settings.http_address)
            http_reservation, http_port = reserve_port(http_host, http_port)
        except (OSError, ValueError) as error:
            reservation.close()
            return report_bind_failure(HTTP, settings.http_address, error)
        settings = replace(settings, http_address=f"{http_host}:{http_port}")
    temp_dir: str | None = None
    metrics_dir = multiprocess_dir()
    if settings.metrics_port and metrics_dir is None:
        metrics_dir = temp_dir = tempfile.mkdtemp(prefix="splendor-engine-prometheus-")
    if metrics_dir is not None:
        use_multiprocess_dir(metrics_dir)
        clean_multiprocess_dir(metrics_dir)
    supervisor = _Supervisor(replace(settings, address=f"{host}:{port}"), worker)
    previous = {sig: signal.signal(sig, supervisor.on_signal) for sig in (signal.SIGTERM, signal.SIGINT)}
    try:
        return supervisor.run(reservation, metrics_dir)
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        reservation.close()
        if http_reservation is not None:
            http_reservation.close()
        if temp_dir is not None:
            shutil.rmtree(temp_dir, ignore_errors=True)


class _Supervisor:
    def __init__(self, settings: Settings, worker: Worker) -> None:
        self.settings = settings
        self.worker = worker
        self.pid = os.getpid()
        self.children: dict[int, int] = {}  # pid -> worker index
        self.stop_at: float | None = None  # when stopping began
        self.exit_status = 0

    def on_signal(self, signum: int, frame: FrameType | None) -> None:
        if os.getpid() != self.pid:  # a worker before it installed its own handlers
            os._exit(128 + signum)
        if self.stop_at is None:
            log.info("supervisor_stopping", signal=signal.Signals(signum).name, workers=sorted(self.children))
        self.stop(signum)

    def stop(self, signum: int = signal.SIGTERM) -> None:
        if self.stop_at is None:
            self.stop_at = time.monotonic()
        for pid in self.children:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signum)

    def run(self, reservation: socket.socket, metrics_dir: str | None) -> int:
        settings = self.settings
        flush_std_streams()  # nothing buffered may be written twice
        for index in range(settings.processes):
            if self.stop_at is not None:  # told to stop while starting: start no more
                break
            pid = os.fork()
            if pid == 0:
                _worker_main(self.worker, settings, index, self.pid, reservation)
            self.children[pid] = index
        metrics_server = None
        if settings.metrics_port:
            try:
                registry = exposition_registry()
                metrics_server = MetricsServer(metrics_host(settings.address), settings.metrics_port, registry)
            except OSError as error:
                address = f"{metrics_host(settings.address)}:{settings.metrics_port}"
                self.exit_status = report_bind_failure(METRICS, address, error)
                self.stop()
        log.info(
            "supervisor_started",
            address=settings.address,
            port=split_address(settings.address)[1],
            pid=self.pid,
            processes=settings.processes,
            workers=sorted(self.children),
            metrics_port=settings.metrics_port,
            multiproc_dir=metrics_dir,
        )
        try:
            self.reap()
        finally:
            if metrics_server is not None:
                metrics_server.stop()
        log.info("supervisor_stopped", pid=self.pid, exit_status=self.exit_status)
        return self.exit_status

    def reap(self) -> None:
        """Wait for every worker; stop the rest when one dies first; kill any that outlive the drain."""
        kill_after = self.settings.grace_seconds + KILL_MARGIN_SECONDS
        killed = False
        while self.children:
            pid, status = os.waitpid(-1, os.WNOHANG)
            if pid == 0:
                if self.stop_at is not None and not killed and time.monotonic() - self.stop_at > kill_after:
                    log.error("workers_killed", workers=sorted(self.children), after_seconds=kill_after)
                    self.stop(signal.SIGKILL)
                    killed = True
                    self.exit_status = 1
                time.sleep(_POLL_SECONDS)
                continue
            index = self.children.pop(pid, None)
            if index is None:
                continue
            code = os.waitstatus_to_exitcode(status)
            mark_process_dead(pid)
            if self.stop_at is None:
                log.error("worker_died", worker=index, worker_pid=pid, exit_code=code, workers=sorted(self.children))
                self.exit_status = 1
                self.stop()
            elif code != 0:
                log.error("worker_failed", worker=index, worker_pid=pid, exit_code=code)
                self.exit_status = 1
            else:
                log.info("worker_exited", worker=index, worker_pid=pid, exit_code=code)


def _worker_main(worker: Worker, settings: Settings, index: int, parent: int, reservation: socket.socket) -> NoReturn:
    """In the forked child: run the worker and exit without returning into the parent's code."""
    status = 1
    try:
        os.setpgid(0, 0)  # a terminal's Ctrl-C goes to the parent only, which forwards it once
        for sig in (signal.SIGTERM, signal.SIGINT):
            signal.signal(sig, signal.SIG_DFL)  # until the server installs its own handlers
        reservation.close()
        status = worker(settings, index, parent)
    except BaseException:
        log.exception("worker_crashed", worker=index, pid=os.getpid())
    finally:
        flush_std_streams()
        os._exit(status)
