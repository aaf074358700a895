"""Which HTTP runtime serves Connect fastest in-process: calls/s of Connect-binary ApplyAction.

Every candidate serves the same ``connectrpc`` application (the official Connect runtime,
``google.protobuf`` codecs, the service's own ApplyAction handler) in a server process of
its own, inside the process the way the product runs it (a thread beside the gRPC
server, not a process manager). The client sends the same pre-serialized requests over
keep-alive HTTP/1.1 connections from several threads, the candidates interleaved, and
reports the median, min and max calls/s and the server CPU per call.

Candidates (those not installed are skipped; only the chosen one is a project dependency):

- ``waitress``: connectrpc WSGI app, waitress (pure Python, a thread pool);
- ``cheroot``: connectrpc WSGI app, cheroot (pure Python, a thread pool); not in the default
  list: with 8 keep-alive connections on 2 threads it stalled (calls waited past the timeout);
- ``uvicorn``: connectrpc ASGI app, uvicorn with httptools, an event loop on one thread;
- ``granian``: connectrpc ASGI app, granian's embedded server (Rust I/O, an event loop).

    pip install waitress cheroot uvicorn httptools granian   # the candidates, in the venv
    python benchmarks/http_runtimes.py [--duration 3] [--repeats 3] [--concurrency 8]
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import importlib.util
import os
import socket
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run from a checkout without installing
sys.path.insert(0, str(Path(__file__).resolve().parent))

from load_phase import process_cpu_seconds, run_load
from service_bench import sample_requests
from splendor.v1 import engine_service_pb2

RUNTIMES = ("waitress", "cheroot", "uvicorn", "granian")
DEFAULT_RUNTIMES = ("waitress", "uvicorn", "granian")
MODULES = {"waitress": "waitress", "cheroot": "cheroot", "uvicorn": "uvicorn", "granian": "granian"}
PATH = "/splendor.v1.EngineService/ApplyAction"
HANDLER_THREADS = 2  # the gRPC side's default (--threads)


def _method() -> Any:
    from connectrpc.method import IdempotencyLevel, MethodInfo, StreamType

    return MethodInfo(
        name="ApplyAction",
        service_name="splendor.v1.EngineService",
        input=engine_service_pb2.ApplyActionRequest,
        output=engine_service_pb2.ApplyActionResponse,
        idempotency_level=IdempotencyLevel.NO_SIDE_EFFECTS,
        stream_type=StreamType.UNARY,
    )


def _apply() -> Callable[[Any], Any]:
    from engine_service.api import METHODS_BY_NAME, Call, invoke

    method = METHODS_BY_NAME["ApplyAction"]
    return lambda request: invoke(method, request, Call(method.name))


def wsgi_app() -> Any:
    from connectrpc.compat import google_protobuf_codecs
    from connectrpc.server import ConnectWSGIApplication, EndpointSync

    apply = _apply()

    class App(ConnectWSGIApplication):
        @property
        def path(self) -> str:
            return "/splendor.v1.EngineService"

    endpoint = EndpointSync.unary(method=_method(), function=lambda request, ctx: apply(request))
    return App(endpoints={PATH: endpoint}, codecs=google_protobuf_codecs())


def asgi_app() -> Any:
    from connectrpc.compat import google_protobuf_codecs
    from connectrpc.server import ConnectASGIApplication, Endpoint

    apply = _apply()

    class App(ConnectASGIApplication):
        @property
        def path(self) -> str:
            return "/splendor.v1.EngineService"

    async def function(request: Any, ctx: Any) -> Any:
        return apply(request)  # CPU-bound and GIL-bound: run it on the loop, no thread hop

    endpoints = {PATH: Endpoint.unary(_method(), function)}
    return App(service=None, endpoints=lambda _service: endpoints, codecs=google_protobuf_codecs())


def _listening_socket() -> socket.socket:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    # Accepted sockets inherit it: without it a response written in two parts (head, body)
    # waits for the client's delayed ACK (~40 ms).
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    sock.bind(("127.0.0.1", 0))
    sock.listen(1024)
    return sock


def serve(runtime: str) -> None:
    """Child process: serve on a free loopback port, print it, stop when stdin closes."""
    sock = _listening_socket()
    port = sock.getsockname()[1]
    if runtime == "waitress":
        import logging

        from waitress.server import create_server

        logging.getLogger("waitress.queue").setLevel(logging.ERROR)  # a line per queued request otherwise

        server: Any = create_server(wsgi_app(), sockets=[sock], threads=HANDLER_THREADS, ident=None)
        threading.Thread(target=server.run, daemon=True).start()
    elif runtime == "cheroot":
        from cheroot.wsgi import Server

        sock.close()
        server = Server(("127.0.0.1", port), wsgi_app(), numthreads=HANDLER_THREADS)
        server.prepare()
        threading.Thread(target=server.serve, daemon=True).start()
    elif runtime == "uvicorn":
        import uvicorn

        config = uvicorn.Config(
            asgi_app(), http="httptools", loop="asyncio", lifespan="off", access_log=False, log_level="warning"
        )
        server = uvicorn.Server(config)
        threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True).start()
    elif runtime == "granian":
        sock.close()
        from granian.constants import Interfaces
        from granian.server.embed import Server as Granian

        server = Granian(asgi_app(), address="127.0.0.1", port=port, interface=Interfaces.ASGI)

        def run() -> None:
            asyncio.run(server.serve())

        threading.Thread(target=run, daemon=True).start()
    else:
        raise SystemExit(f"unknown runtime {runtime}")
    time.sleep(0.5)  # after any banner the runtime prints
    print(port, flush=True)
    sys.stdin.read()


def _post(conn: http.client.HTTPConnection, body: bytes) -> bytes:
    conn.request("POST", PATH, body, {"Content-Type": "application/proto"})
    response = conn.getresponse()
    data = response.read()
    if response.status != 200:
        raise RuntimeError(f"HTTP {response.status}: {data[:200]!r}")
    return data


def run_phase(port: int, pid: int, requests: list[bytes], concurrency: int, duration: float) -> tuple[float, float]:
    """calls/s and server CPU µs per call for ``concurrency`` threads calling back to back."""
    conns = [http.client.HTTPConnection("127.0.0.1", port, timeout=10) for _ in range(concurrency)]
    senders = [lambda position, conn=conn: _post(conn, requests[position % len(requests)]) for conn in conns]
    try:
        phase = run_load(senders, duration, lambda: process_cpu_seconds(pid))
    finally:
        for conn in conns:
            conn.close()
    return phase.calls_per_second, phase.server_cpu_us


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--duration", type=float, default=3.0, help="seconds per phase")
    parser.add_argument("--repeats", type=int, default=3, help="phases per runtime, interleaved")
    parser.add_argument("--concurrency", type=int, default=8, help="client threads, one connection each")
    parser.add_argument("--runtimes", nargs="*", default=list(DEFAULT_RUNTIMES), choices=RUNTIMES)
    parser.add_argument("--serve", choices=RUNTIMES, help=argparse.SUPPRESS)  # the child process
    args = parser.parse_args()
    if args.serve:
        serve(args.serve)
        return 0
    runtimes = [name for name in args.runtimes if importlib.util.find_spec(MODULES[name]) is not None]
    skipped = sorted(set(args.runtimes) - set(runtimes))
    requests, _ = sample_requests(24)  # plain requests (no tokens)
    children: dict[str, subprocess.Popen[str]] = {}
    ports: dict[str, int] = {}
    try:
        for name in runtimes:
            child = subprocess.Popen(
                [sys.executable, __file__, "--serve", name], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
            )
            children[name] = child
            assert child.stdout is not None
            line = child.stdout.readline()
            while line and not line.strip().isdigit():  # a runtime may print a banner first
                line = child.stdout.readline()
            ports[name] = int(line)
        for name in runtimes:
            conn = http.client.HTTPConnection("127.0.0.1", ports[name], timeout=10)
            for request in requests:  # every request must succeed before timing: a failure would look fast
                engine_service_pb2.ApplyActionResponse.FromString(_post(conn, request))
            conn.close()
            run_phase(ports[name], children[name].pid, requests, args.concurrency, 1.0)  # warm-up
        results: dict[str, list[tuple[float, float]]] = {name: [] for name in runtimes}
        for repeat in range(args.repeats):
            order = runtimes if repeat % 2 == 0 else runtimes[::-1]
            for name in order:
                results[name].append(
                    run_phase(ports[name], children[name].pid, requests, args.concurrency, args.duration)
                )
    finally:
        for child in children.values():
            if child.stdin is not None:
                child.stdin.close()
        for child in children.values():
            child.wait(timeout=30)
    print(
        f"Connect binary ApplyAction, {args.concurrency} client threads (keep-alive HTTP/1.1), "
        f"{args.repeats} x {args.duration:g} s per runtime, interleaved; server: one process, "
        f"{HANDLER_THREADS} handler threads for the thread-pool servers"
    )
    print(f"{'runtime':<10}{'median calls/s':>15}{'min':>8}{'max':>8}{'server CPU us/call':>20}")
    for name, phases in results.items():
        rates = [rate for rate, _ in phases]
        cpu = statistics.median(cpu for _, cpu in phases)
        print(f"{name:<10}{statistics.median(rates):>15.0f}{min(rates):>8.0f}{max(rates):>8.0f}{cpu:>20.0f}")
    if skipped:
        print(f"not installed, skipped: {', '.join(skipped)}")
    print(f"load average (1 min): {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
