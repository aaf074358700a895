"""A real server on a free loopback port, in this process, and a ``splendor_client`` talking to it."""

from __future__ import annotations

from collections.abc import Iterator

import grpc
import pytest
from splendor_client import EngineClient, connect

from engine_service.runtime.settings import Settings
from engine_service.server.app import build_server, start
from tests.e2e.support import E2E_RING


@pytest.fixture(scope="session")
def address() -> Iterator[str]:
    server, port, health = build_server(Settings(address="127.0.0.1:0", threads=4), key_ring=E2E_RING)
    assert port > 0
    start(server, health)
    yield f"127.0.0.1:{port}"
    server.stop(0).wait()


@pytest.fixture(scope="session")
def client(address: str) -> Iterator[EngineClient]:
    with connect(address) as engine:
        engine.wait_until_ready(5)
        yield engine


@pytest.fixture(scope="session")
def channel(address: str) -> Iterator[grpc.Channel]:
    with grpc.insecure_channel(address) as opened:
        yield opened
