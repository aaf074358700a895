"""Probes outside the work, whatever one client does: during each attack every /healthz, gRPC health, gRPC
CreateGame and small Connect CreateGame probe answers within 1 s, on a server with its default settings (as
``make serve`` runs it); the process's peak memory stays under the Deployment's limit (half of it for a flood
of headers), and a flood of expensive calls never takes the cheap calls' places.

The attacks: connections held idle, trickling their headers, stalling their body, announcing a 1 MiB or chunked
body they never send, or flooding a header (1,000 to 1,010 of them, reopened as soon as the server drops one);
four maximal Simulate calls over HTTP; six, and 110 callers re-sending them, over gRPC; 400 bodies of 500 KB."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import grpc
import pytest

from engine_service.http.guard import BODY_GRACE_SECONDS
from tests.edge.attackers import (
    ANNOUNCED_BODY,
    ANNOUNCED_CHUNKED,
    HEADER_FLOOD,
    IDLE,
    STALLED_BODY,
    TRICKLING,
    Kind,
    holding,
)
from tests.edge.support import (
    PROBE_SECONDS,
    PROBES,
    ProbeTimes,
    deployment_memory_limit_mib,
    frame,
    http_port,
    http_post,
    maximal_simulate,
    peak_rss_mib,
    probing,
    raise_open_files,
)
from tests.ops.support import Server, delta, stub
from tests.polling import wait_until

pytestmark = pytest.mark.e2e

ATTACK_ROUNDS = 12  # rounds of probes run during each attack (about 3 s, a round every 0.25 s)
FLOOD_BODIES = 400
FLOOD_BODY_BYTES = 500_000
SIMULATE_CALLERS = 110
NOT_SERVED = "splendor_calls_not_served_total"
CHEAP_SHARE = 0.9  # of cheap probes served within PROBE_SECONDS while expensive calls flood the server


@pytest.fixture(scope="module")
def server() -> Iterator[Server]:
    raise_open_files(8 * 1_010)  # the clients' sockets here, the server's there (it inherits)
    with Server() as running:
        yield running
        assert running.stop() == 0


def probed_during_the_attack(times: ProbeTimes, rounds: int) -> None:
    """Let the attack go on until every kind of probe has run ``rounds`` times (about 0.25 s a round)."""
    wait_until(lambda: times.rounds() >= rounds, timeout=rounds * 5, what=f"{rounds} rounds of probes")


def assert_probes_answered(times: ProbeTimes) -> None:
    assert times.failures == {}, times.failures
    assert set(times.seconds) == set(PROBES)
    assert min(len(runs) for runs in times.seconds.values()) >= 3, "the probes must have run during the attack"
    assert max(times.worst().values()) < PROBE_SECONDS, times.worst()


@pytest.mark.parametrize(
    ("kind", "count"),
    [
        (IDLE, 1_010),
        (TRICKLING, 1_010),
        (STALLED_BODY, 1_000),
        (ANNOUNCED_BODY, 32),
        (ANNOUNCED_CHUNKED, 32),
    ],
    ids=lambda value: value.name if isinstance(value, Kind) else str(value),
)
def test_probes_answer_within_1s_while_connections_are_held(server: Server, kind: Kind, count: int) -> None:
    with holding(http_port(server), kind, count) as attack, probing(server) as times:
        probed_during_the_attack(times, ATTACK_ROUNDS)
    assert attack.opened >= count
    assert_probes_answered(times)


def test_stalled_bodies_are_dropped_within_their_grace(server: Server) -> None:
    # Rule: a body must keep coming (after a grace of 2 to 4 s, at a minimum rate). The attacker reopens every
    # connection the server drops, and the probes still pass (above); here, that each is dropped in time.
    before = server.scrape()

    def dropped() -> float:
        return delta(before, server.scrape(), NOT_SERVED, transport="http", method="CreateGame", reason="body_timeout")

    with holding(http_port(server), STALLED_BODY, 50) as attack:
        wait_until(lambda: dropped() >= 50, timeout=2 * max(BODY_GRACE_SECONDS), what="50 bodies dropped in time")
    assert attack.reopened >= 50, attack


def test_a_flood_of_unfinished_250kb_headers_stays_under_half_the_memory_limit() -> None:
    raise_open_files(8 * 1_000)
    with Server() as fresh:
        # 1,000 connections each sending 250 KB of one header line, and waiting: the server reads at most
        # HEADER_BYTES of each (then answers 431 and closes), so they cost it no memory to speak of.
        with holding(http_port(fresh), HEADER_FLOOD, 1_000, reopen=False) as attack, probing(fresh) as times:
            probed_during_the_attack(times, ATTACK_ROUNDS)
        peak = peak_rss_mib(fresh.process.pid)
        assert fresh.stop() == 0
    assert attack.opened >= 1_000
    assert_probes_answered(times)
    print(f"peak RSS {peak:.0f} MiB")
    assert peak < deployment_memory_limit_mib() / 2, f"peak RSS {peak:.0f} MiB"


def test_probes_answer_during_four_maximal_http_simulate_calls(server: Server) -> None:
    body = frame(maximal_simulate().SerializeToString())
    with ThreadPoolExecutor(4) as pool:
        calls = [
            pool.submit(http_post, http_port(server), "Simulate", body, "application/grpc-web+proto") for _ in range(4)
        ]
        with probing(server) as times:
            probed_during_the_attack(times, ATTACK_ROUNDS)
        answers = [call.result(timeout=60) for call in calls]
    assert_probes_answered(times)
    # One runs in the process's expensive slot and the others wait in its queue (4 places): each ends within its
    # budget, which counts the wait (OK, or DEADLINE_EXCEEDED once the budget is spent).
    assert all(answer.grpc_status() in {"0", "4"} for answer in answers), [a.grpc_status() for a in answers]


def test_expensive_calls_beyond_their_places_are_refused_at_once_over_grpc(server: Server) -> None:
    """Over gRPC the expensive calls queue on a lane of their own (1 running, 4 waiting by default): the sixth is
    refused at once, and the cheap ones never wait behind them."""
    channel = server.channel()
    calls = [stub(channel).Simulate.future(maximal_simulate(), timeout=60) for _ in range(6)]
    try:
        server.wait_for(lambda: sum(call.done() for call in calls) >= 1, timeout=5)
        refused = [call for call in calls if call.done()]
        assert len(refused) == 1 and refused[0].code() == grpc.StatusCode.RESOURCE_EXHAUSTED
        with probing(server) as times:
            probed_during_the_attack(times, ATTACK_ROUNDS)
        assert sum(call.running() for call in calls) == 5, "five in flight: one running, four queued"
    finally:
        for call in calls:
            call.cancel()
        channel.close()
    assert_probes_answered(times)


def test_110_callers_resending_maximal_simulate_calls_leave_the_cheap_calls_served(server: Server) -> None:
    stop = threading.Event()
    outcomes: dict[str, int] = {}
    lock = threading.Lock()
    channel = server.channel()
    engine = stub(channel)
    request = maximal_simulate()

    def caller() -> None:
        while not stop.is_set():
            try:
                engine.Simulate(request, timeout=30)
                code = "OK"
            except grpc.RpcError as error:
                code = error.code().name
            with lock:
                outcomes[code] = outcomes.get(code, 0) + 1

    callers = [threading.Thread(target=caller, daemon=True) for _ in range(SIMULATE_CALLERS)]
    for thread in callers:
        thread.start()
    try:
        with probing(server) as times:
            probed_during_the_attack(times, 2 * ATTACK_ROUNDS)
    finally:
        stop.set()
        for thread in callers:
            thread.join(timeout=30)
        channel.close()
    shares = times.answered_within(PROBE_SECONDS)
    assert min(shares.values()) >= CHEAP_SHARE, (shares, times.failures)
    assert outcomes.get("RESOURCE_EXHAUSTED", 0) > 0, outcomes  # the callers beyond the places were refused


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
                    return 0  # dropped to make room before the body was sent in full

        sent: list[int] = []
        with ThreadPoolExecutor(200) as pool, probing(server) as times:
            while len(sent) < FLOOD_BODIES or times.rounds() < ATTACK_ROUNDS:  # 400 bodies at least, and the probes
                sent += pool.map(lambda _: upload(), range(FLOOD_BODIES))
        peak = peak_rss_mib(server.process.pid)
        assert server.stop() == 0
    assert len(sent) >= FLOOD_BODIES
    assert_probes_answered(times)
    print(f"peak RSS {peak:.0f} MiB")
    assert peak < deployment_memory_limit_mib(), f"peak RSS {peak:.0f} MiB"
