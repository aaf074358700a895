"""A real engine on a free loopback port, for tournaments played through the API."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from engine_service.runtime.settings import Settings
from engine_service.server.app import build_server, start


@pytest.fixture(scope="module")
def address() -> Iterator[str]:
    server, port, health = build_server(Settings(address="127.0.0.1:0", threads=4))
    start(server, health)
    yield f"127.0.0.1:{port}"
    server.stop(0).wait()
