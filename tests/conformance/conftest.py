"""The vectors, and this engine serving them on loopback ports in this process: gRPC and HTTP (Connect)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from splendor_client.conformance import Corpus, load

from engine_service.http import HttpServer
from engine_service.runtime.settings import Settings
from engine_service.sealing import KeyRing
from engine_service.server.app import build_server, start

VECTORS = Path(__file__).resolve().parents[2] / "conformance"


@dataclass(frozen=True)
class Addresses:
    grpc: str
    http: str


@pytest.fixture(scope="session")
def corpus() -> Corpus:
    return load(VECTORS)


@pytest.fixture(scope="session")
def addresses() -> Iterator[Addresses]:
    settings = Settings(address="127.0.0.1:0", http_address="127.0.0.1:0", threads=4)
    key_ring = KeyRing.generate()
    server, port, health = build_server(settings, key_ring=key_ring)
    http_server = HttpServer(settings, key_ring)
    start(server, health)
    http_server.start()
    try:
        yield Addresses(f"127.0.0.1:{port}", f"127.0.0.1:{http_server.port}")
    finally:
        http_server.stop()
        server.stop(0).wait()
