"""Calls the server never served: counted and logged by why, for every transport.

The per-call ``rpc`` line and ``grpc_server_*`` series count the calls a handler saw. These are
the others, which would otherwise leave no trace:

- ``expired_in_queue``: the caller's deadline passed while the call waited for a thread;
  ``cancelled_in_queue``: it hung up first (or gRPC refused its message, over
  ``--max-request-bytes``, before reading it);
- refused before the request was read: ``max_concurrent_rpcs``, ``request_too_large``;
- a connection closed for reading too slowly (``header_timeout``, ``body_timeout``), with a request's
  headers unfinished otherwise (``headers_incomplete``: too large, malformed, or the client left), or
  over the connection cap (``connection_limit``); a body dropped to make room for others
  (``bodies_in_flight``: the bytes being read are at their budget; ``readers_limit``: so are the
  bodies), or whose client left before it was whole (``client_closed``);
- ``malformed_framing``: a body that is not a request of the transport's framing, a client error
  (INVALID_ARGUMENT) kept out of the availability objective.

``splendor_calls_not_served_total{transport, method, reason}``, one ``call_not_served`` warning line each.
"""

from __future__ import annotations

import os
from typing import Final

import structlog
from prometheus_client import Counter

from engine_service.api import METHODS

TRANSPORTS: Final = ("grpc", "http")
REASONS: Final = (
    "expired_in_queue",
    "cancelled_in_queue",
    "max_concurrent_rpcs",
    "request_too_large",
    "bodies_in_flight",
    "header_timeout",
    "headers_incomplete",
    "body_timeout",
    "readers_limit",
    "client_closed",
    "connection_limit",
    "malformed_framing",
)
# The method label for a refusal before the path is known (a connection, a header read).
NO_METHOD: Final = "unknown"

log = structlog.get_logger(__name__)

_counter: list[Counter] = []
_METHOD_NAMES: Final = frozenset(method.name for method in METHODS)


def method_label(name: str) -> str:
    """``name`` if it is a method of the service, else ``unknown`` (a path is the caller's to choose)."""
    return name if name in _METHOD_NAMES else NO_METHOD


def not_served() -> Counter:
    """``splendor_calls_not_served_total``, created on first use with its known series at zero."""
    if not _counter:
        counter = Counter(
            "splendor_calls_not_served_total",
            "Calls that never reached a handler, by transport, method and why (see docs/operations.md).",
            ("transport", "method", "reason"),
        )
        for transport in TRANSPORTS:
            for method in (*(method.name for method in METHODS), NO_METHOD):
                for reason in REASONS:
                    counter.labels(transport, method, reason)
        _counter.append(counter)
    return _counter[0]


def record_not_served(transport: str, method: str, reason: str, *, logged: bool = True) -> None:
    """Count one call not served and, when ``logged``, write its ``call_not_served`` line."""
    not_served().labels(transport, method, reason).inc()
    if logged:
        log.warning("call_not_served", pid=os.getpid(), transport=transport, method=method, reason=reason)
