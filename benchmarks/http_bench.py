"""ApplyAction calls/s over Connect JSON, Connect binary and gRPC, on one server, in one run.

The server runs in its own process, as ``serve`` runs it: the gRPC server and, beside it,
the HTTP listener (``engine_service/http``), with the default 2 handler threads each. The
client sends the same mid-game ApplyAction requests, pre-serialized for each encoding
(protobuf bytes for gRPC and Connect binary, proto3 JSON for Connect JSON), from several
threads (one keep-alive HTTP/1.1 connection each; gRPC channels shared round-robin),
the three encodings interleaved, alternating their order. It reports, per encoding, the
median, min and max calls/s, the latency, the server's CPU per call, and the ratios.

    python benchmarks/http_bench.py [--duration 3] [--repeats 5] [--concurrency 8]
"""

from __future__ import annotations

import argparse
import http.client
import os
import statistics
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import grpc

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run from a checkout without installing
sys.path.insert(0, str(Path(__file__).resolve().parent))

from google.protobuf import json_format
from load_phase import Phase, Send, process_cpu_seconds, run_load
from service_bench import sample_requests
from splendor.v1 import engine_service_pb2

APPLY = "/splendor.v1.EngineService/ApplyAction"
ENCODINGS = ("connect_json", "connect_proto", "grpc")


def serve() -> None:
    """Child process: gRPC and HTTP on free loopback ports, print both, stop when stdin closes."""
    from engine_service.http import HttpServer
    from engine_service.runtime.settings import Settings
    from engine_service.server.app import build_server, start

    settings = Settings(address="127.0.0.1:0", http_address="127.0.0.1:0")
    server, port, health = build_server(settings)
    http_server = HttpServer(settings)
    start(server, health)
    http_server.start()
    print(port, http_server.port, flush=True)
    sys.stdin.read()
    http_server.stop()
    server.stop(0).wait()


def http_sender(port: int, bodies: list[bytes], content_type: str) -> Callable[[], Send]:
    """A factory of per-thread senders, each on its own keep-alive connection."""

    def make() -> Send:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        headers = {"Content-Type": content_type}

        def send(index: int) -> None:
            conn.request("POST", APPLY, bodies[index % len(bodies)], headers)
            response = conn.getresponse()
            body = response.read()
            if response.status != 200:
                raise RuntimeError(f"HTTP {response.status}: {body[:200]!r}")

        return send

    return make


def grpc_sender(channels: list[grpc.Channel], bodies: list[bytes]) -> Callable[[], Send]:
    counter = iter(range(1 << 30))

    def make() -> Send:
        call: grpc.UnaryUnaryMultiCallable[bytes, bytes] = channels[next(counter) % len(channels)].unary_unary(APPLY)

        def send(index: int) -> None:
            call(bodies[index % len(bodies)], timeout=10)

        return send

    return make


def run_phase(make: Callable[[], Send], pid: int, concurrency: int, duration: float) -> Phase:
    return run_load([make() for _ in range(concurrency)], duration, lambda: process_cpu_seconds(pid))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--duration", type=float, default=3.0, help="seconds per phase")
    parser.add_argument("--repeats", type=int, default=5, help="phases per encoding, interleaved")
    parser.add_argument("--concurrency", type=int, default=8, help="client threads with a call in flight each")
    parser.add_argument("--channels", type=int, default=4, help="gRPC channels (HTTP: one connection per thread)")
    parser.add_argument("--states", type=int, default=24, help="distinct requests (mid-game states) sent in turn")
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)  # the child process
    args = parser.parse_args()
    if args.serve:
        serve()
        return 0

    binary, _ = sample_requests(args.states)  # plain requests (no tokens)
    as_json = [
        json_format.MessageToJson(engine_service_pb2.ApplyActionRequest.FromString(body), indent=None).encode()
        for body in binary
    ]
    load_before = os.getloadavg()[0]
    child = subprocess.Popen(
        [sys.executable, __file__, "--serve"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    try:
        assert child.stdout is not None
        grpc_port, http_port = (int(token) for token in child.stdout.readline().split())
        channels = [grpc.insecure_channel(f"127.0.0.1:{grpc_port}") for _ in range(args.channels)]
        for channel in channels:
            grpc.channel_ready_future(channel).result(timeout=10)
        makers = {
            "connect_json": http_sender(http_port, as_json, "application/json"),
            "connect_proto": http_sender(http_port, binary, "application/proto"),
            "grpc": grpc_sender(channels, binary),
        }
        for make in makers.values():  # every request must succeed before timing: a failure would look fast
            send = make()
            for index in range(len(binary)):
                send(index)
            run_phase(make, child.pid, args.concurrency, 1.0)  # warm-up
        results: dict[str, list[Phase]] = {name: [] for name in ENCODINGS}
        for repeat in range(args.repeats):
            order = ENCODINGS if repeat % 2 == 0 else ENCODINGS[::-1]
            for name in order:
                results[name].append(run_phase(makers[name], child.pid, args.concurrency, args.duration))
        for channel in channels:
            channel.close()
    finally:
        if child.stdin is not None:
            child.stdin.close()
        child.wait(timeout=30)
    return report(results, args, (load_before, os.getloadavg()[0]))


def report(results: dict[str, list[Phase]], args: argparse.Namespace, load: tuple[float, float]) -> int:
    print(
        f"ApplyAction, one server process (gRPC + HTTP, 2 handler threads each), {args.concurrency} client threads, "
        f"{args.repeats} x {args.duration:g} s per encoding, interleaved, {args.states} states"
    )
    columns = f"{'median calls/s':>15}{'min':>8}{'max':>8}{'p50 ms':>9}{'p99 ms':>9}{'server CPU us/call':>20}"
    print(f"{'encoding':<15}{columns}")
    medians: dict[str, float] = {}
    for name, phases in results.items():
        rates = [phase.calls_per_second for phase in phases]
        medians[name] = statistics.median(rates)
        p50 = statistics.median(phase.p50_ms for phase in phases)
        p99 = statistics.median(phase.p99_ms for phase in phases)
        cpu = statistics.median(phase.server_cpu_us for phase in phases)
        print(f"{name:<15}{medians[name]:>15.0f}{min(rates):>8.0f}{max(rates):>8.0f}{p50:>9.2f}{p99:>9.2f}{cpu:>20.0f}")
    grpc_rate = medians["grpc"]
    print(
        f"ratios to gRPC (medians): Connect binary {medians['connect_proto'] / grpc_rate:.2f}, "
        f"Connect JSON {medians['connect_json'] / grpc_rate:.2f}; "
        f"JSON/binary {medians['connect_json'] / medians['connect_proto']:.2f}"
    )
    print(f"load average (1 min) before/after: {load[0]:.1f}/{load[1]:.1f} on {os.cpu_count()} CPUs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
