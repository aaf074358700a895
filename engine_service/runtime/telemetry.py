"""Trace export: OpenTelemetry spans over OTLP (gRPC) when an endpoint is configured; off otherwise.

The endpoint is ``--otlp-endpoint`` (``SPLENDOR_OTLP_ENDPOINT``), else the standard
``OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`` or ``OTEL_EXPORTER_OTLP_ENDPOINT``. The exporter
reads the other standard variables itself (``OTEL_EXPORTER_OTLP_HEADERS``, ``..._TIMEOUT``,
``..._CERTIFICATE``...), and the sampler ``OTEL_TRACES_SAMPLER`` (default: follow the
caller's decision, sample every new trace). The SDK and the exporter are imported only
when tracing is on. Each process sets its own up (worker processes after the fork: the
exporter's gRPC channel must not cross it).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from typing import Final

from engine_service.api import tracing

from .settings import Settings

ENDPOINT_VARIABLES: Final = ("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "OTEL_EXPORTER_OTLP_ENDPOINT")
DEFAULT_SERVICE_NAME: Final = "splendor-engine"


def otlp_endpoint(settings: Settings, environ: Mapping[str, str] | None = None) -> str | None:
    """Where spans go, or None: tracing off."""
    env = os.environ if environ is None else environ
    if env.get("OTEL_SDK_DISABLED", "").lower() == "true":
        return None
    if settings.otlp_endpoint:
        return settings.otlp_endpoint
    return next((env[name] for name in ENDPOINT_VARIABLES if env.get(name)), None)


def start_tracing(settings: Settings) -> Callable[[], None] | None:
    """Export this process's spans to the configured endpoint. Returns the function that flushes
    and stops the export, or None when tracing is off."""
    endpoint = otlp_endpoint(settings)
    if endpoint is None:
        return None
    from opentelemetry.exporter.otlp.proto.grpc.trace_exporter import OTLPSpanExporter  # noqa: PLC0415
    from opentelemetry.sdk.resources import Resource  # noqa: PLC0415
    from opentelemetry.sdk.trace import TracerProvider  # noqa: PLC0415
    from opentelemetry.sdk.trace.export import BatchSpanProcessor  # noqa: PLC0415

    service_name = os.environ.get("OTEL_SERVICE_NAME") or DEFAULT_SERVICE_NAME
    provider = TracerProvider(resource=Resource.create({"service.name": service_name, "process.pid": os.getpid()}))
    provider.add_span_processor(BatchSpanProcessor(OTLPSpanExporter(endpoint=endpoint)))
    tracing.enable(provider)

    def stop() -> None:
        tracing.disable()
        provider.shutdown()

    return stop
