"""The gRPC server: EngineService, health, reflection and the per-call interceptor, built, started and drained.

The process around it (signals, workers, the HTTP listener, the metrics endpoint) is
``engine_service.process``.

A synchronous ``grpc.server`` on a thread pool: every handler is CPU-bound Python
that holds the GIL. Measured on the 2-core reference machine (client in another
process, 8 client threads): a trivial call ~8.9k calls/s sync against ~5.0k with
``grpc.aio``; ApplyAction ~3.6k against ~2.9k. To use more than one core, run
several processes (``--processes``, see ``engine_service/process/workers.py``) or several replicas.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from functools import partial
from typing import Final

import grpc
import structlog
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection, reflection_pb2
from splendor.v1 import engine_service_pb2

from engine_service.api.state_memo import StateMemo
from engine_service.codec.modules import check_adapters
from engine_service.runtime.admission import Admission, LaneExecutor, process_admission
from engine_service.runtime.deadlines import deadline_exceeded
from engine_service.runtime.metrics import get_metrics, initialise_series, method_labels
from engine_service.runtime.not_served import not_served
from engine_service.runtime.settings import Settings, grpc_server_options
from engine_service.sealing import KeyRing, load_key_ring

from .interceptors import ObservabilityInterceptor
from .service import add_engine_service

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


def build_server(
    settings: Settings,
    extra_generic_handlers: Sequence[grpc.GenericRpcHandler] = (),
    *,
    reuse_port: bool = False,
    access_log: bool | None = None,
    key_ring: KeyRing | None = None,
    admission: Admission | None = None,
    memo: StateMemo | None = None,
) -> tuple[grpc.Server, int, health.HealthServicer]:
    """A bound, not yet started server, the port it bound and its health servicer.

    ``key_ring`` seals and opens game tokens; by default the one ``settings`` configure (a
    generated one without configuration: ``serve`` loads it once instead, before forking).
    ``extra_generic_handlers`` lets tests and benchmarks add RPCs (an echo) to the same server.
    ``reuse_port``: bind with SO_REUSEPORT (worker processes sharing the port).
    ``access_log``: one log line per call; by default only once structlog is configured (the
    ``serve`` command does), so library users (tests, benchmarks) get metrics but no log lines.
    ``admission`` and ``memo`` (the states already checked): the process's, shared with its HTTP server
    (``serve`` passes them); by default ones of its own. Raises ``ModuleWithoutAdapter`` (nothing bound) when a
    module the rules registered has no protobuf adapter.
    """
    check_adapters()  # every module the rules play must travel in the contract before anything is bound
    if access_log is None:
        access_log = structlog.is_configured()
    metrics = get_metrics()
    initialise_series(metrics, method_labels(SERVED_SERVICES))
    not_served()  # its series at zero from start-up, like every other
    deadline_exceeded()
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
        LaneExecutor(settings.threads, admission),
        interceptors=[interceptor],
        options=grpc_server_options(settings, reuse_port=reuse_port),
    )
    if key_ring is None:
        key_ring = load_key_ring(settings.sealing_keys, settings.sealing_keys_file)
    add_engine_service(server, settings.api_config(key_ring, memo), admission)
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
