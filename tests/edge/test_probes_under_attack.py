"""Probes outside the work: during each attack every /healthz and gRPC health probe, and a GetCatalog over
gRPC and over HTTP, answers within 1 s; the process's peak memory stays under the Deployment's limit."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import pytest

from tests.edge.support import (
    PROBE_SECONDS,
    deployment_memory_limit_mib,
    frame,
    http_port,
    http_post,
    maximal_simulate,
    open_idle_connections,
    peak_rss_mib,
    probing,
    raise_open_files,
    trickle,
)
from tests.ops.support import Server, stub

pytestmark = pytest.mark.e2e

ATTACK_CONNECTIONS = 1_010
FLOOD_BODIES = 400
FLOOD_BODY_BYTES = 500_000
ATTACK_SECONDS = 3.0  # how long the probes run during each attack


@pytest.fixture(scope="module")
def server() -> Iterator[Server]:
    raise_open_files(4 * ATTACK_CONNECTIONS)  # the clients' sockets here, the server's there (it inherits)
    with Server() as running:
        yield running
        assert running.stop() == 0


def assert_probes_answered(times: object) -> None:
    from tests.edge.support import ProbeTimes

    assert isinstance(times, ProbeTimes)
    assert times.failures == {}, times.failures
    assert set(times.seconds) == {"healthz", "grpc_health", "grpc_catalog", "http_catalog"}
    assert min(len(runs) for runs in times.seconds.values()) >= 3, "the probes must have run during the attack"
    assert max(times.worst().values()) < PROBE_SECONDS, times.worst()


@pytest.mark.parametrize("kind", ["idle", "trickling"])
def test_probes_answer_during_1010_idle_or_trickling_connections(server: Server, kind: str) -> None:
    sockets = open_idle_connections(http_port(server), ATTACK_CONNECTIONS)
    stop = threading.Event()
    trickler = threading.Thread(target=trickle, args=(sockets, stop), daemon=True)
    try:
        if kind == "trickling":
            trickler.start()
        with probing(server) as times:
            time.sleep(ATTACK_SECONDS)
    finally:
        stop.set()
        if trickler.is_alive():
            trickler.join(timeout=10)
        for sock in sockets:
            sock.close()
    assert_probes_answered(times)


def test_probes_answer_during_four_maximal_http_simulate_calls(server: Server) -> None:
    body = frame(maximal_simulate().SerializeToString())
    with ThreadPoolExecutor(4) as pool:
        calls = [
            pool.submit(http_post, http_port(server), "Simulate", body, "application/grpc-web+proto") for _ in range(4)
        ]
        with probing(server) as times:
            time.sleep(ATTACK_SECONDS)
        answers = [call.result(timeout=60) for call in calls]
    assert_probes_answered(times)
    # One runs (in the process's expensive slot, within its time budget); the others are refused at once.
    statuses = sorted(answer.grpc_status() for answer in answers)
    assert statuses.count("8") == 3 and statuses[0] in {"0", "4"}, statuses


def test_probes_answer_during_six_grpc_simulate_calls(server: Server) -> None:
    """Over gRPC the expensive calls queue on a lane of their own: the cheap ones never wait behind them."""
    channel = server.channel()
    calls = [stub(channel).Simulate.future(maximal_simulate(), timeout=60) for _ in range(6)]
    try:
        with probing(server) as times:
            time.sleep(ATTACK_SECONDS)
        assert sum(call.running() for call in calls) == 6, "the six must be in flight (one running, five queued)"
    finally:
        for call in calls:
            call.cancel()
        channel.close()
    assert_probes_answered(times)


def test_probes_answer_and_memory_stays_under_the_limit_during_a_flood_of_large_bodies() -> None:
    raise_open_files(4 * FLOOD_BODIES)
    with Server() as server:
        port = http_port(server)
        body = b'{"config": {}, "pad": "' + b"x" * (FLOOD_BODY_BYTES - 30) + b'"}'

        def upload() -> int:
            with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
                head = (
                    "POST /splendor.v1.EngineService/CreateGame HTTP/1.1\r\nHost: x\r\n"
                    f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n"
                )
                try:
                    sock.sendall(head.encode() + body)
                    return len(sock.recv(64))
                except OSError:
                    return 0  # refused and closed before the body was sent in full

        sent: list[int] = []
        with ThreadPoolExecutor(200) as pool, probing(server) as times:
            deadline = time.monotonic() + ATTACK_SECONDS
            while len(sent) < FLOOD_BODIES or time.monotonic() < deadline:  # 400 bodies, for 3 s at least
                sent += pool.map(lambda _: upload(), range(FLOOD_BODIES))
        peak = peak_rss_mib(server.process.pid)
        assert server.stop() == 0
    assert len(sent) >= FLOOD_BODIES
    assert_probes_answered(times)
    assert peak < deployment_memory_limit_mib(), f"peak RSS {peak:.0f} MiB"
