"""What both transports share at run time, below the process that starts them.

``settings.py`` (the server's options), ``admission.py`` (one process's limits and lanes),
``logs.py`` (structlog, the per-call line), ``metrics.py`` and ``call_outcome.py``
(Prometheus), ``not_served.py`` (calls refused before a handler), ``telemetry.py``
(OpenTelemetry). ``engine_service.server`` (gRPC) and ``engine_service.http`` import
from here, never from each other.
"""
