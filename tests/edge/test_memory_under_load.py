"""Memory: the worst load the limits admit stays under the Deployment's memory limit. 100 calls of
~1 MiB admitted at once over gRPC (2 slow calls hold the threads, 98 more wait for them, every request
held in memory) while 1,000 HTTP connections each pour 250 KB of headers in, measured as the server
process's peak resident set (VmHWM)."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import grpc
import pytest
from splendor.v1 import engine_service_pb2

from tests.edge.attackers import HEADER_FLOOD, holding
from tests.edge.support import (
    deployment_memory_limit_mib,
    http_port,
    peak_rss_mib,
    raise_open_files,
    wait_for_started,
)
from tests.ops.support import Server, stub
from tests.ops.test_shutdown import slow_view_request

pytestmark = pytest.mark.e2e

ADMITTED = 100  # the default --max-concurrent-rpcs
BUSY = 2  # the default --threads
REQUEST_BYTES = 1_000_000  # just under the default --max-request-bytes (1 MiB)
UNKNOWN_FIELD = 1000
HEADER_FLOOD_CONNECTIONS = 1_000  # a field number no request has: kept as unknown bytes, as a client may send


def varint(value: int) -> bytes:
    out = bytearray()
    while True:
        byte, value = value & 0x7F, value >> 7
        out.append(byte | (0x80 if value else 0))
        if not value:
            return bytes(out)


def padded_catalog_request() -> bytes:
    """A GetCatalog request of ~1 MiB: the empty message and one unknown length-delimited field."""
    payload = b"x" * (REQUEST_BYTES - 8)
    return varint(UNKNOWN_FIELD << 3 | 2) + varint(len(payload)) + payload


def test_100_admitted_1_mib_grpc_calls_and_a_header_flood_stay_under_the_memory_limit() -> None:
    raise_open_files(8 * HEADER_FLOOD_CONNECTIONS)
    # The slow views are expensive (by content): over gRPC each runs on a cheap thread in an expensive slot.
    with Server("--expensive-calls", str(BUSY)) as server:
        channels = [server.channel() for _ in range(10)]
        raw = padded_catalog_request()
        calls = [
            channel.unary_unary(
                "/splendor.v1.EngineService/GetCatalog",
                request_serializer=lambda data: data,
                response_deserializer=engine_service_pb2.GetCatalogResponse.FromString,
            )
            for channel in channels
        ]
        engine = stub(channels[0])
        busy = [engine.GetPlayerView.future(slow_view_request(events=80_000), timeout=60) for _ in range(BUSY)]
        wait_for_started(server, "GetPlayerView", BUSY)
        with (
            holding(http_port(server), HEADER_FLOOD, HEADER_FLOOD_CONNECTIONS, reopen=False),
            ThreadPoolExecutor(ADMITTED - BUSY) as pool,
        ):
            answers = list(pool.map(lambda n: calls[n % len(calls)](raw, timeout=60), range(ADMITTED - BUSY)))
        views = [future.result() for future in busy]
        peak = peak_rss_mib(server.process.pid)
        for channel in channels:
            channel.close()
        assert server.stop() == 0
    assert len(answers) == ADMITTED - BUSY and all(answer.HasField("catalog") for answer in answers)
    assert all(view.view.num_players == 4 for view in views)
    print(f"peak RSS {peak:.0f} MiB")
    assert peak < deployment_memory_limit_mib(), f"peak RSS {peak:.0f} MiB"


def test_the_request_limit_refuses_larger_grpc_requests_unread() -> None:
    with Server() as server, server.channel() as channel:
        call = channel.unary_unary("/splendor.v1.EngineService/GetCatalog", request_serializer=lambda data: data)
        with pytest.raises(grpc.RpcError) as refused:
            call(padded_catalog_request() + b"x" * (1 << 20), timeout=10)
        assert server.stop() == 0
    assert refused.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
