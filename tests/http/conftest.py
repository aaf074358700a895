"""A real server on loopback ports, in this process: gRPC and, beside it, HTTP (Connect and gRPC-Web)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import grpc
import pytest
from splendor.v1 import engine_service_pb2_grpc

from engine_service.http import HttpServer
from engine_service.runtime.admission import Admission
from engine_service.runtime.settings import Settings
from engine_service.sealing import KeyRing
from engine_service.server.app import build_server, start

ALLOWED_ORIGIN = "https://play.example.com"
MAX_MESSAGE_BYTES = 256 * 1024


@dataclass
class Ports:
    grpc: int
    http: int


def serve(settings: Settings) -> Iterator[tuple[Ports, HttpServer]]:
    key_ring = KeyRing.generate()  # one ring for both transports, as serve() loads it once
    admission = Admission(settings.max_concurrent_rpcs or None)  # and one limit on concurrent calls
    server, port, health = build_server(settings, key_ring=key_ring, admission=admission)
    http_server = HttpServer(settings, key_ring, admission=admission)
    start(server, health)
    http_server.start()
    try:
        yield Ports(port, http_server.port), http_server
    finally:
        http_server.stop()
        server.stop(0).wait()


@pytest.fixture(scope="session")
def served() -> Iterator[tuple[Ports, HttpServer]]:
    settings = Settings(
        address="127.0.0.1:0",
        http_address="127.0.0.1:0",
        http_cors_origins=(ALLOWED_ORIGIN,),
        max_response_bytes=MAX_MESSAGE_BYTES,
        max_request_bytes=MAX_MESSAGE_BYTES,
        threads=4,
    )
    yield from serve(settings)


@pytest.fixture(scope="session")
def ports(served: tuple[Ports, HttpServer]) -> Ports:
    return served[0]


@pytest.fixture(scope="session")
def http_port(ports: Ports) -> int:
    return ports.http


@pytest.fixture(scope="session")
def engine(ports: Ports) -> Iterator[engine_service_pb2_grpc.EngineServiceStub]:
    with grpc.insecure_channel(f"127.0.0.1:{ports.grpc}") as channel:
        yield engine_service_pb2_grpc.EngineServiceStub(channel)
