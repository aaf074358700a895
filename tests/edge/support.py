"""The attack suite's tools: probes that time themselves, attackers on loopback, the process's peak memory.

Every client here talks to 127.0.0.1 only. Each probe opens what a real probe opens (the kubelet's
HTTP probe: a new connection; its gRPC probe: a Health/Check on a channel) and reports its time.
"""

from __future__ import annotations

import http.client
import json
import re
import resource
import socket
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import grpc
import yaml
from grpc_health.v1 import health_pb2, health_pb2_grpc
from splendor.v1 import bots_pb2, config_pb2, engine_service_pb2

from engine_service.codec import state_to_proto
from tests.http.support import unframe
from tests.ops.support import ENGINE, ROOT, Server, stub
from tests.server.positions import dealt

SERVICE_PATH = f"/{ENGINE}"
PROBE_SECONDS = 1.0  # what every probe must answer within, whatever the attack
REFUSAL_SECONDS = 0.2  # how fast a call over the limit must be refused
DEPLOYMENT = ROOT / "deploy" / "kubernetes" / "deployment.yaml"
_UNITS = {"Ki": 1 / 1024, "Mi": 1.0, "Gi": 1024.0}


def deployment_memory_limit_mib() -> float:
    """The engine container's memory limit in the Deployment, in MiB."""
    deployment = yaml.safe_load(DEPLOYMENT.read_text())
    (container,) = deployment["spec"]["template"]["spec"]["containers"]
    limit = str(container["resources"]["limits"]["memory"])
    number, unit = re.fullmatch(r"(\d+)(Ki|Mi|Gi)", limit).groups()  # type: ignore[union-attr]
    return int(number) * _UNITS[unit]


def peak_rss_mib(pid: int) -> float:
    """The process's peak resident set size so far (the kernel's high-water mark, VmHWM)."""
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    raise AssertionError("no VmHWM in /proc status")


def raise_open_files(needed: int) -> None:
    """Let this process (and the server it starts) hold ``needed`` sockets."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < needed:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(needed, hard), hard))


def http_port(server: Server) -> int:
    assert server.http_address is not None
    return int(server.http_address.rsplit(":", 1)[1])


# Requests.


def maximal_simulate() -> engine_service_pb2.SimulateRequest:
    """A small request for a lot of work: 1,000 greedy 4-player playouts (seconds of CPU; the server's budget
    stops it)."""
    return engine_service_pb2.SimulateRequest(
        state=state_to_proto(dealt(4, seed=1)),
        policies=[bots_pb2.BotChoice(policy="greedy", seed=1)],
        playouts=1000,
        max_actions=200,
    )


def ismcts_move(iterations: int = 1000) -> engine_service_pb2.ApplyActionRequest:
    """A server-side search move at the iteration cap (seconds of CPU without a deadline)."""
    return engine_service_pb2.ApplyActionRequest(
        state=state_to_proto(dealt(4, seed=3)), bot=bots_pb2.BotChoice(policy="ismcts", iterations=iterations, seed=5)
    )


def frame(payload: bytes) -> bytes:
    return bytes([0]) + len(payload).to_bytes(4, "big") + payload


@dataclass
class HttpAnswer:
    status: int
    headers: dict[str, str]
    body: bytes
    seconds: float

    def json(self) -> Any:
        return json.loads(self.body)

    def grpc_status(self) -> str:
        """A gRPC-Web answer's status: in its headers (trailers-only) or its trailers frame."""
        _, trailers = unframe(self.body)
        return {**self.headers, **trailers}.get("grpc-status", "missing")


def http_post(
    port: int,
    method: str,
    body: bytes,
    content_type: str,
    *,
    headers: dict[str, str] | None = None,
    timeout: float = 30,
) -> HttpAnswer:
    started = time.monotonic()
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        conn.request("POST", f"{SERVICE_PATH}/{method}", body, {"Content-Type": content_type, **(headers or {})})
        response = conn.getresponse()
        answer = HttpAnswer(response.status, {k.lower(): v for k, v in response.getheaders()}, response.read(), 0.0)
    finally:
        conn.close()
    answer.seconds = time.monotonic() - started
    return answer


def headers_only(port: int, method: str, content_type: str, content_length: int) -> HttpAnswer:
    """Send a request's headers and no body, and read the answer: only a server that decides from the
    headers alone answers at all (the body never comes)."""
    started = time.monotonic()
    head = (
        f"POST {SERVICE_PATH}/{method} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: {content_type}\r\n"
        f"Content-Length: {content_length}\r\n\r\n"
    )
    with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
        sock.sendall(head.encode())
        response = http.client.HTTPResponse(sock)
        response.begin()
        body = response.read()
        answer = HttpAnswer(response.status, {k.lower(): v for k, v in response.getheaders()}, body, 0.0)
    answer.seconds = time.monotonic() - started
    return answer


# Probes.


@dataclass
class ProbeTimes:
    """How long each kind of probe took, every time it ran; failures (timeouts, errors) by kind."""

    seconds: dict[str, list[float]] = field(default_factory=dict)
    failures: dict[str, list[str]] = field(default_factory=dict)

    def record(self, kind: str, probe: Callable[[], object]) -> None:
        started = time.monotonic()
        try:
            probe()
        except Exception as error:  # a probe that fails or times out is recorded, not raised
            self.failures.setdefault(kind, []).append(f"{type(error).__name__}: {error}"[:200])
        self.seconds.setdefault(kind, []).append(time.monotonic() - started)

    def rounds(self) -> int:
        """The rounds every kind of probe has run so far."""
        return min((len(self.seconds.get(kind, ())) for kind in PROBES), default=0)

    def worst(self) -> dict[str, float]:
        return {kind: max(times) for kind, times in self.seconds.items()}

    def answered_within(self, seconds: float) -> dict[str, float]:
        """The share of each kind's probes that answered, without failing, within ``seconds``."""
        shares = {}
        for kind, times in self.seconds.items():
            failed = len(self.failures.get(kind, ()))
            fast = sum(1 for taken in times if taken < seconds) - failed
            shares[kind] = max(fast, 0) / len(times)
        return shares


CREATE_GAME_JSON = b'{"config":{"numPlayers":2}}'  # the smallest Connect CreateGame a client sends: 27 bytes
PROBES = ("healthz", "grpc_health", "grpc_create_game", "http_create_game")


def probe_round(port: int, channel: grpc.Channel, times: ProbeTimes) -> None:
    """One round of cheap probes: /healthz over a new connection (as the kubelet does), gRPC health, CreateGame
    over gRPC and over Connect (a small body: what every move of a game sends); ``port`` is the HTTP one,
    ``channel`` reaches the gRPC one."""

    def healthz() -> None:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=PROBE_SECONDS)
        try:
            conn.request("GET", "/healthz")
            response = conn.getresponse()
            assert response.status == 200 and response.read() == b"SERVING\n"
        finally:
            conn.close()

    def grpc_health() -> None:
        health: Any = health_pb2_grpc.HealthStub(channel)
        reply = health.Check(health_pb2.HealthCheckRequest(service=ENGINE), timeout=PROBE_SECONDS)
        assert reply.status == health_pb2.HealthCheckResponse.SERVING

    def grpc_create_game() -> None:
        request = engine_service_pb2.CreateGameRequest(config=config_pb2.GameConfig(num_players=2))
        stub(channel).CreateGame(request, timeout=PROBE_SECONDS)

    def http_create_game() -> None:
        answer = http_post(port, "CreateGame", CREATE_GAME_JSON, "application/json", timeout=PROBE_SECONDS)
        assert answer.status == 200, (answer.status, answer.body[:120])

    times.record("healthz", healthz)
    times.record("grpc_health", grpc_health)
    times.record("grpc_create_game", grpc_create_game)
    times.record("http_create_game", http_create_game)


@contextmanager
def probing(server: Server, interval: float = 0.25) -> Iterator[ProbeTimes]:
    """Probe the server in the background, round after round, until the block ends."""
    with probing_ports(http_port(server), server.channel(), interval) as times:
        yield times


@contextmanager
def probing_ports(port: int, channel: grpc.Channel, interval: float = 0.25) -> Iterator[ProbeTimes]:
    """``probe_round`` of the HTTP ``port`` and the gRPC ``channel`` in the background, round after round, until the
    block ends; the channel is closed with it."""
    times = ProbeTimes()
    stop = threading.Event()
    grpc.channel_ready_future(channel).result(timeout=5)

    def run() -> None:
        while not stop.is_set():
            probe_round(port, channel, times)
            stop.wait(interval)

    prober = threading.Thread(target=run, daemon=True)
    prober.start()
    try:
        yield times
    finally:
        stop.set()
        prober.join(timeout=30)
        channel.close()


def started_calls(server: Server, method: str) -> float:
    """The calls of ``method`` started so far (gRPC and HTTP alike count in grpc_server_started_total)."""
    samples = server.scrape()
    return sum(
        v
        for (name, labels), v in samples.items()
        if name == "grpc_server_started_total" and ("grpc_method", method) in labels
    )


def wait_for_started(server: Server, method: str, count: float, timeout: float = 20) -> None:
    """Until ``count`` calls of ``method`` have started."""
    server.wait_for(lambda: started_calls(server, method) >= count, timeout=timeout)
