"""Building and running the gRPC server: EngineService, health, reflection, metrics, graceful shutdown.

A synchronous ``grpc.server`` on a thread pool: every handler is CPU-bound Python
that holds the GIL. Measured on the 2-core reference machine (client in another
process, 8 client threads): a trivial call ~8.9k calls/s sync against ~5.0k with
``grpc.aio``; ApplyAction ~3.6k against ~2.9k. To use more than one core, run
several processes (``--processes``, see ``workers.py``) or several replicas.
"""

from __future__ import annotations

import os
import signal
import threading
from collections.abc import Sequence
from functools import partial
from types import FrameType
from typing import Final

import grpc
import structlog
from google.protobuf.internal import api_implementation
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection, reflection_pb2
from splendor.v1 import engine_service_pb2

from engine_service.sealing import EXAMPLE_KEYS, KeyRing, load_key_ring

from .admission import Admission, LaneExecutor
from .interceptors import ObservabilityInterceptor
from .metrics import (
    MetricsServer,
    clean_multiprocess_dir,
    exposition_registry,
    get_metrics,
    initialise_series,
    method_labels,
    metrics_host,
    multiprocess_dir,
)
from .not_served import not_served
from .service import add_engine_service
from .settings import Settings, grpc_server_options
from .telemetry import otlp_endpoint, start_tracing
from .workers import supervise

log = structlog.get_logger(__name__)

SERVICE_NAME: Final = engine_service_pb2.DESCRIPTOR.services_by_name["EngineService"].full_name
# Every service the server serves, for the metrics' series at zero.
SERVED_SERVICES: Final = (
    engine_service_pb2.DESCRIPTOR.services_by_name["EngineService"],
    health_pb2.DESCRIPTOR.services_by_name["Health"],
    reflection_pb2.DESCRIPTOR.services_by_name["ServerReflection"],
)
# Health answers for the whole server ("") and for the engine service by name.
HEALTH_SERVICES: Final = ("", SERVICE_NAME)
# How often a worker process checks that its parent is still there.
PARENT_CHECK_SECONDS: Final = 1.0


def protobuf_backend() -> str:
    """``upb`` normally; ``python`` (pure Python, many times slower) means a broken install."""
    return str(api_implementation.Type())


def build_server(
    settings: Settings,
    extra_generic_handlers: Sequence[grpc.GenericRpcHandler] = (),
    *,
    reuse_port: bool = False,
    access_log: bool | None = None,
    key_ring: KeyRing | None = None,
    admission: Admission | None = None,
) -> tuple[grpc.Server, int, health.HealthServicer]:
    """A bound, not yet started server, the port it bound and its health servicer.

    ``key_ring`` seals and opens game tokens; by default the one ``settings`` configure (a
    generated one without configuration: ``serve`` loads it once instead, before forking).
    ``extra_generic_handlers`` lets tests and benchmarks add RPCs (an echo) to the same server.
    ``reuse_port``: bind with SO_REUSEPORT (worker processes sharing the port).
    ``access_log``: one log line per call; by default only once structlog is configured (the
    ``serve`` command does), so library users (tests, benchmarks) get metrics but no log lines.
    """
    if access_log is None:
        access_log = structlog.is_configured()
    metrics = get_metrics()
    initialise_series(metrics, method_labels(SERVED_SERVICES))
    not_served()  # its series at zero from start-up, like every other
    # The concurrency limit is the interceptor's, not gRPC's: gRPC's would count health checks too.
    if admission is None:
        admission = process_admission(settings)
    interceptor = ObservabilityInterceptor(
        metrics,
        admission=admission,
        access_log=access_log,
        log_level=settings.log_level,
        max_call_seconds=settings.max_call_seconds,
    )
    server = grpc.server(
        # Expensive calls run on threads of their own (the EXPENSIVE lane): the cheap ones keep --threads.
        LaneExecutor(settings.workers, admission),
        interceptors=[interceptor],
        options=grpc_server_options(settings, reuse_port=reuse_port),
    )
    if key_ring is None:
        key_ring = load_key_ring(settings.sealing_keys, settings.sealing_keys_file)
    add_engine_service(server, settings.api_config(key_ring), admission)
    health_servicer = health.HealthServicer()
    for service in HEALTH_SERVICES:
        health_servicer.set(service, health_pb2.HealthCheckResponse.NOT_SERVING)
    admission.on_saturation = partial(_report_saturation, health_servicer)
    health_pb2_grpc.add_HealthServicer_to_server(health_servicer, server)
    if extra_generic_handlers:
        server.add_generic_rpc_handlers(tuple(extra_generic_handlers))
    reflection.enable_server_reflection((SERVICE_NAME, health.SERVICE_NAME, reflection.SERVICE_NAME), server)
    port = server.add_insecure_port(settings.address)
    return server, port, health_servicer


def _report_saturation(health_servicer: health.HealthServicer, saturated: bool) -> None:
    """Readiness: the engine service is NOT_SERVING while the process refuses calls for its limit, so
    the orchestrator sends new calls elsewhere; "" (the process, for start-up) stays SERVING. Ignored
    once the server drains."""
    status = health_pb2.HealthCheckResponse.NOT_SERVING if saturated else health_pb2.HealthCheckResponse.SERVING
    health_servicer.set(SERVICE_NAME, status)


def process_admission(settings: Settings) -> Admission:
    """The limits of one process, for its gRPC and HTTP servers together: engine calls admitted, expensive slots."""
    return Admission(settings.max_concurrent_rpcs or None, settings.expensive_calls)


def warn_about_key_ring(key_ring: KeyRing) -> None:
    """Warn when the ring cannot protect games: generated (other replicas and a restart cannot open its
    tokens) or holding the published example key (anyone can read and forge tokens)."""
    if key_ring.generated:
        log.warning("sealing_key_generated", key_id=key_ring.current_id, pid=os.getpid())
    if key_ring.uses_example_key:
        example = sorted(key_id for key_id, key in key_ring.keys.items() if key in EXAMPLE_KEYS)
        log.warning("sealing_example_key", key_ids=example, pid=os.getpid())


def start(server: grpc.Server, health_servicer: health.HealthServicer) -> None:
    """Start serving and report SERVING."""
    server.start()
    for service in HEALTH_SERVICES:
        health_servicer.set(service, health_pb2.HealthCheckResponse.SERVING)


def drain(server: grpc.Server, health_servicer: health.HealthServicer, grace_seconds: float) -> threading.Event:
    """Report NOT_SERVING, refuse new calls and give in-flight ones ``grace_seconds`` to finish.

    Returns the event set once the server has fully stopped.
    """
    health_servicer.enter_graceful_shutdown()
    return server.stop(grace_seconds)


def bound_address(address: str, port: int) -> str:
    """``address`` with its port replaced by the one actually bound (for port 0)."""
    host = address.rsplit(":", 1)[0] if ":" in address else address
    return f"{host}:{port}"


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
    if settings.metrics_port:
        path = multiprocess_dir()
        if path is not None:  # set for the container even with one process: keep it clean
            clean_multiprocess_dir(path)
        try:
            metrics_server = MetricsServer(metrics_host(settings.address), settings.metrics_port, exposition_registry())
        except OSError as error:
            log.error("metrics_bind_failed", port=settings.metrics_port, error=str(error))
            return 1
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
    backend = protobuf_backend()
    if backend != "upb":
        log.warning("slow_protobuf_backend", backend=backend, expected="upb")
    # One limit on the engine calls of this process, whichever transport brings them.
    admission = process_admission(settings)
    try:
        server, port, health_servicer = build_server(
            settings, reuse_port=reuse_port, access_log=True, key_ring=key_ring, admission=admission
        )
    except RuntimeError as error:  # grpc raises RuntimeError when the address cannot be bound
        log.error("bind_failed", address=settings.address, error=str(error), pid=os.getpid())
        return 1
    http_server = None
    if settings.http_address:  # Connect and gRPC-Web on their own listener (engine_service/http)
        from engine_service.http import HttpServer  # noqa: PLC0415 (only when serving HTTP)

        try:
            http_server = HttpServer(settings, key_ring, reuse_port=reuse_port, access_log=True, admission=admission)
        except (OSError, ValueError) as error:
            log.error("bind_failed", address=settings.http_address, error=str(error), pid=os.getpid())
            server.stop(0)
            return 1
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
            "threads": settings.workers,
            "max_concurrent_rpcs": settings.max_concurrent_rpcs,
        }
        if http_server is not None:
            started["http_address"] = bound_address(settings.http_address, http_server.port)
        if worker is None:
            started["metrics_port"] = settings.metrics_port
        else:
            started["worker"] = worker
        log.info("server_started", **started)
        while not stop_requested.wait(PARENT_CHECK_SECONDS if parent_pid is not None else None):
            if parent_pid is not None and os.getppid() != parent_pid:
                received.append("parent_exited")
                break
        log.info("server_draining", signal=received[0], grace_seconds=settings.grace_seconds, pid=os.getpid())
        stopped = drain(server, health_servicer, settings.grace_seconds)
        if http_server is not None:
            http_server.drain(settings.grace_seconds)
        stopped.wait()
        log.info("server_stopped", pid=os.getpid())
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        if stop_tracing is not None:
            stop_tracing()  # flushes the spans still waiting
    return 0
