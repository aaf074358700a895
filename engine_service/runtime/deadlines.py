"""Whose fault a DEADLINE_EXCEEDED is: the caller's own short deadline, or the server's.

A call that ends DEADLINE_EXCEEDED is counted in ``splendor_deadline_exceeded_total{transport,
method, cause}`` (and its ``rpc`` line says ``deadline_cause``), by why its time ran out:

- ``server_budget``: the server's own budget for the call (``--max-call-seconds``) ran out first;
- ``server_queue``: the caller's deadline passed while the call still waited in the server (for a
  thread or an expensive slot), and that deadline was a reasonable one
  (``MIN_BLAMED_DEADLINE_SECONDS`` or more): the server was too busy to start it in time;
- ``caller``: everything else: a deadline too short for the work the caller asked for (a search
  move cut short, a Simulate of more playouts than fit), or too short to wait at all.

Only the ``server_*`` causes count against the availability objective
(``deploy/prometheus/splendor-engine-rules.yaml``): a caller cannot burn the service's error budget
by sending calls with 20 ms deadlines.
"""

from __future__ import annotations

from typing import Final

from prometheus_client import Counter

from engine_service.api import METHODS
from engine_service.api.call import MIN_BLAMED_DEADLINE_SECONDS

CALLER: Final = "caller"
SERVER_BUDGET: Final = "server_budget"
SERVER_QUEUE: Final = "server_queue"
CAUSES: Final = (CALLER, SERVER_BUDGET, SERVER_QUEUE)
TRANSPORTS: Final = ("grpc", "http")

_counter: list[Counter] = []


def deadline_exceeded() -> Counter:
    """``splendor_deadline_exceeded_total``, created on first use with its series at zero."""
    if not _counter:
        counter = Counter(
            "splendor_deadline_exceeded_total",
            "EngineService calls that ended DEADLINE_EXCEEDED, by transport, method and cause (caller, "
            "server_budget, server_queue; see docs/operations.md).",
            ("transport", "method", "cause"),
        )
        for transport in TRANSPORTS:
            for method in METHODS:
                for cause in CAUSES:
                    counter.labels(transport, method.name, cause)
        _counter.append(counter)
    return _counter[0]


def record_deadline_exceeded(transport: str, method: str, cause: str) -> None:
    deadline_exceeded().labels(transport, method, cause).inc()


def queue_cause(allowed_seconds: float | None) -> str:
    """The cause of a deadline that passed while the call queued, from how long the caller allowed."""
    return SERVER_QUEUE if allowed_seconds is not None and allowed_seconds >= MIN_BLAMED_DEADLINE_SECONDS else CALLER
