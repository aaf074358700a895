"""The engine over gRPC and HTTP in this process, on loopback ports, with whatever the test registered: what the
checklist tests (docs/architecture.md) serve a test policy from. Run as a module, it serves the test policy
``lowest_id`` for the TypeScript client's tests:

    .venv/bin/python -m tests.checklists.servers
    # prints {"event": "server_started", "port": N, "http_address": "127.0.0.1:M"}, then serves until SIGTERM
"""

from __future__ import annotations

import json
import signal
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import NamedTuple

from engine_service.bots import registered_policy
from engine_service.http import HttpServer
from engine_service.runtime.admission import Admission
from engine_service.runtime.settings import Settings
from engine_service.sealing import KeyRing
from engine_service.server.app import build_server, start
from tests.checklists.lowest_id import LOWEST_ID


class Addresses(NamedTuple):
    grpc: str  # 127.0.0.1:port
    http: str


@contextmanager
def serving() -> Iterator[Addresses]:
    """A gRPC and an HTTP listener sharing one key ring and one admission, as ``splendor-engine serve`` runs them."""
    settings = Settings(address="127.0.0.1:0", http_address="127.0.0.1:0", metrics_port=0)
    key_ring = KeyRing.generate()
    admission = Admission(settings.max_concurrent_rpcs or None)
    server, port, health = build_server(settings, key_ring=key_ring, admission=admission)
    http_server = HttpServer(settings, key_ring, admission=admission)
    start(server, health)
    http_server.start()
    try:
        yield Addresses(f"127.0.0.1:{port}", f"127.0.0.1:{http_server.port}")
    finally:
        http_server.stop()
        server.stop(0).wait()


def main() -> int:
    stopped = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stopped.set())
    signal.signal(signal.SIGINT, lambda *_: stopped.set())
    with registered_policy(LOWEST_ID), serving() as addresses:
        port = int(addresses.grpc.rpartition(":")[2])
        print(json.dumps({"event": "server_started", "port": port, "http_address": addresses.http}), flush=True)
        stopped.wait()
    return 0


if __name__ == "__main__":
    sys.exit(main())
