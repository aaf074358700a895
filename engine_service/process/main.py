"""One serving process: the gRPC server and the HTTP listener side by side, metrics, tracing, signals, drain.

The layer above both transports: ``engine_service.server`` (gRPC) and
``engine_service.http`` (Connect, gRPC-Web) are adapters that know neither each other
nor this module. Here one process gets one admission (its limits hold across both
listeners), one key ring (loaded before any worker forks) and one life: start, wait for
SIGTERM/SIGINT (or, in a worker, the parent's exit), drain, stop.
"""

from __future__ import annotations

import os
import signal
import threading
import time
from functools import partial
from types import FrameType
from typing import Final

import grpc
import structlog
from google.protobuf.internal import api_implementation
from grpc_health.v1 import health

from engine_service.api.state_memo import StateMemo
from engine_service.http import HttpServer
from engine_service.runtime.admission import Admission, process_admission
from engine_service.runtime.metrics import (
    MetricsServer,
    clean_multiprocess_dir,
    exposition_registry,
    get_metrics,
    keep_values_in_memory,
    metrics_host,
    multiprocess_dir,
    report_key_ring,
)
from engine_service.runtime.settings import Settings
from engine_service.runtime.telemetry import otlp_endpoint, start_tracing
from engine_service.sealing import EXAMPLE_KEYS, KeyRing, load_key_ring
from engine_service.server.app import build_server, drain, start

from .banner import GRPC, HTTP, METRICS, print_banner, report_bind_failure
from .collector import tune_collector
from .workers import supervise

log = structlog.get_logger(__name__)

# How often a worker process checks that its parent is still there.
PARENT_CHECK_SECONDS: Final = 1.0


def protobuf_backend() -> str:
    """``upb`` normally; ``python`` (pure Python, many times slower) means a broken install."""
    return str(api_implementation.Type())


def warn_about_key_ring(key_ring: KeyRing) -> None:
    """Warn when the ring cannot protect games: generated (other replicas and a restart cannot open its
    tokens) or holding the published example key (anyone can read and forge tokens)."""
    if key_ring.generated:
        log.warning("sealing_key_generated", key_id=key_ring.current_id, pid=os.getpid())
    if key_ring.uses_example_key:
        example = sorted(key_id for key_id, key in key_ring.keys.items() if key in EXAMPLE_KEYS)
        log.warning("sealing_example_key", key_ids=example, pid=os.getpid())


def bound_address(address: str, port: int) -> str:
    """``address`` with its port replaced by the one actually bound (for port 0)."""
    host = address.rsplit(":", 1)[0] if ":" in address else address
    return f"{host}:{port}"


def drain_both(
    server: grpc.Server,
    health_servicer: health.HealthServicer,
    http_server: HttpServer | None,
    admission: Admission,
    grace_seconds: float,
) -> None:
    """Drain both listeners at once: health NOT_SERVING, no new call accepted, the calls in flight given
    ``grace_seconds`` to finish. Logs ``server_stopped``: how long it took, and how many calls were still
    running when the grace ran out and had to be cancelled (0 in a drain that lost nothing)."""
    began = time.monotonic()
    stopped = drain(server, health_servicer, grace_seconds)
    if http_server is not None:
        http_server.drain(grace_seconds)  # returns once its calls are done, or at the end of the grace
    in_time = stopped.wait(max(0.0, grace_seconds - (time.monotonic() - began)))
    cancelled = 0 if in_time and not admission.active else admission.active
    stopped.wait()
    level = log.warning if cancelled else log.info
    level("server_stopped", drain_seconds=round(time.monotonic() - began, 3), cancelled=cancelled, pid=os.getpid())


def serve(settings: Settings, key_ring: KeyRing | None = None) -> int:
    """Run until SIGTERM or SIGINT, then drain gracefully. Returns the exit status.

    One process, or with ``settings.processes`` > 1 a supervisor and its worker processes.
    The key ring (``key_ring``, else the configured one) is loaded here, once, before any
    worker is forked, so that every worker seals with the same keys.
    """
    if key_ring is None:
        key_ring = load_key_ring(settings.sealing_keys, settings.sealing_keys_file)
    warn_about_key_ring(key_ring)
    if settings.processes > 1:
        return supervise(settings, partial(run_worker, key_ring=key_ring))
    metrics_server = None
    path = multiprocess_dir()
    if path is not None and settings.metrics_port:  # set for the container even with one process: keep it clean
        clean_multiprocess_dir(path)
    keep_values_in_memory()  # no other process reads them: file-backed values would only cost each call
    if settings.metrics_port:
        try:
            metrics_server = MetricsServer(metrics_host(settings.address), settings.metrics_port, exposition_registry())
        except OSError as error:
            return report_bind_failure(METRICS, f"{metrics_host(settings.address)}:{settings.metrics_port}", error)
    try:
        return run_server(settings, key_ring)
    finally:
        if metrics_server is not None:
            metrics_server.stop()


def run_worker(settings: Settings, index: int, parent_pid: int, *, key_ring: KeyRing) -> int:
    """The body of worker process ``index`` (forked by ``workers.supervise``), with the parent's key ring."""
    return run_server(settings, key_ring, reuse_port=True, worker=index, parent_pid=parent_pid)


def run_server(  # noqa: PLR0915 (a process's whole life: build, start, wait, drain)
    settings: Settings,
    key_ring: KeyRing,
    *,
    reuse_port: bool = False,
    worker: int | None = None,
    parent_pid: int | None = None,
) -> int:
    """Serve in this process until SIGTERM or SIGINT (or, in a worker, the parent's exit), then drain."""
    tune_collector()
    backend = protobuf_backend()
    if backend != "upb":
        log.warning("slow_protobuf_backend", backend=backend, expected="upb")
    # One limit on the engine calls of this process, whichever transport brings them.
    admission = process_admission(settings)
    metrics = get_metrics()
    report_key_ring(metrics, key_ring.current_id, key_ring.keys, key_ring.retired)
    # One memo of states already checked, whichever transport brings a game's next call; its hit rate is
    # what affinity (a game's calls sent to one replica) buys.
    memo = StateMemo(settings.state_memo_entries)
    try:
        server, port, health_servicer = build_server(
            settings, reuse_port=reuse_port, access_log=True, key_ring=key_ring, admission=admission, memo=memo
        )
    except RuntimeError as error:  # grpc raises RuntimeError when the address cannot be bound
        return report_bind_failure(GRPC, settings.address, error, pid=os.getpid())
    http_server = None
    if settings.http_address:  # Connect and gRPC-Web on their own listener (engine_service/http)
        try:
            http_server = HttpServer(
                settings, key_ring, reuse_port=reuse_port, access_log=True, admission=admission, memo=memo
            )
        except (OSError, ValueError) as error:
            server.stop(0)
            return report_bind_failure(HTTP, settings.http_address, error, pid=os.getpid())
    stop_tracing = start_tracing(settings)
    if stop_tracing is not None:
        log.info("tracing_enabled", otlp_endpoint=otlp_endpoint(settings), pid=os.getpid())
    stop_requested = threading.Event()
    received: list[str] = []

    def on_signal(signum: int, frame: FrameType | None) -> None:
        if stop_requested.is_set():  # a second signal: stop at once
            server.stop(0)
        received.append(signal.Signals(signum).name)
        stop_requested.set()

    previous = {sig: signal.signal(sig, on_signal) for sig in (signal.SIGTERM, signal.SIGINT)}
    try:
        start(server, health_servicer)
        if http_server is not None:
            http_server.start()
        started = {
            "address": bound_address(settings.address, port),
            "port": port,
            "pid": os.getpid(),
            "protobuf_backend": backend,
            "threads": settings.threads,
            "max_concurrent_rpcs": settings.max_concurrent_rpcs,
            # What a key rotation's checks compare across replicas (deploy/README.md, "Sealing keys").
            "sealing_key": key_ring.current_id,
            "opening_keys": sorted(key_ring.keys),
            "retired_keys": sorted(key_ring.retired),
        }
        if http_server is not None:
            started["http_address"] = bound_address(settings.http_address, http_server.port)
        if worker is None:
            started["metrics_port"] = settings.metrics_port
        else:
            started["worker"] = worker
        log.info("server_started", **started)
        if worker in (None, 0):  # for a person at a terminal: where to go, which core, which key
            print_banner(settings, str(started["address"]), started.get("http_address"), key_ring.generated)
        while not stop_requested.wait(PARENT_CHECK_SECONDS if parent_pid is not None else None):
            if parent_pid is not None and os.getppid() != parent_pid:
                received.append("parent_exited")
                break
        log.info(
            "server_draining",
            signal=received[0],
            grace_seconds=settings.grace_seconds,
            in_flight=admission.active,
            pid=os.getpid(),
        )
        drain_both(server, health_servicer, http_server, admission, settings.grace_seconds)
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        if stop_tracing is not None:
            stop_tracing()  # flushes the spans still waiting
    return 0
