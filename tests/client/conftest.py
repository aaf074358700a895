"""A real server on a free loopback port, for the tests that run the documentation's examples."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from engine_service.runtime.settings import Settings
from engine_service.sealing import KeyRing
from engine_service.server.app import build_server, start

DOC_ADDRESS = "127.0.0.1:50051"
"""The address the examples name; the tests' server listens elsewhere, and the tests swap it in."""


@pytest.fixture(scope="session")
def loopback_address() -> Iterator[str]:
    server, port, health = build_server(Settings(address="127.0.0.1:0"), key_ring=KeyRing.generate())
    start(server, health)
    try:
        yield f"127.0.0.1:{port}"
    finally:
        server.stop(0).wait()
