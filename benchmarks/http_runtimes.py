"""Which HTTP server runs the service's Connect application best: calls/s of Connect JSON ApplyAction.

Every candidate serves the service's own HTTP application (``engine_service.http.server.HttpApp``:
the edge, the Connect runtime, the endpoints on their threads, metrics and logs) in a server process
of its own, beside the gRPC server, the way the product runs it; the baseline is the HTTP listener of
an earlier commit (``--baseline``, by default the last one with waitress and its hand-written edge),
exported with ``git archive`` and served from its own tree. The client sends the same pre-serialized
mid-game requests over keep-alive HTTP/1.1 connections from several threads; the candidates are
interleaved (the order alternating each repeat), and each reports its median, min and max calls/s and
the server's CPU per call. Ratios are against the baseline.

- ``baseline``: waitress (threads) with the hand-written edge, WSGI (``--baseline``'s tree);
- ``hypercorn``: hypercorn (asyncio, h11/h2), the product's server (``HttpServer``);
- ``uvicorn``: uvicorn (asyncio, httptools) with the same capped listener;
- ``granian``: granian's embedded server (Rust I/O), which binds its own socket.

Candidates that are not installed are skipped (only hypercorn is a dependency)::

    pip install waitress uvicorn httptools granian   # the baseline's server and the other candidates
    python benchmarks/http_runtimes.py [--duration 3] [--repeats 5] [--concurrency 8] [--codec json]

The attack suite of the same candidates: ``benchmarks/edge_attacks.py``.
"""

from __future__ import annotations

import argparse
import http.client
import importlib.util
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run from a checkout without installing
sys.path.insert(0, str(Path(__file__).resolve().parent))

from google.protobuf import json_format
from load_phase import process_cpu_seconds, run_load
from service_bench import sample_requests
from splendor.v1 import engine_service_pb2

ROOT = Path(__file__).resolve().parent.parent
CANDIDATES = ("baseline", "hypercorn", "uvicorn", "granian")
MODULES = {"baseline": "waitress", "hypercorn": "hypercorn", "uvicorn": "uvicorn", "granian": "granian"}
# The last commit whose HTTP listener was waitress with the hand-written edge.
DEFAULT_BASELINE = "26d4551"
PATH = "/splendor.v1.EngineService/ApplyAction"
CONTENT_TYPES = {"json": "application/json", "proto": "application/proto"}


def serve(candidate: str) -> None:
    """Child process: gRPC and the candidate's HTTP on free loopback ports, print both, stop when stdin closes."""
    from engine_service.runtime.admission import process_admission
    from engine_service.runtime.settings import Settings
    from engine_service.sealing import KeyRing
    from engine_service.server.app import build_server, start

    settings = Settings(address="127.0.0.1:0", http_address="127.0.0.1:0")
    key_ring = KeyRing.generate()
    admission = process_admission(settings)
    server, grpc_port, health = build_server(settings, key_ring=key_ring, admission=admission)
    start(server, health)
    http_port = _start_http(candidate, settings, key_ring, admission)
    print(grpc_port, http_port, flush=True)
    sys.stdin.read()
    os._exit(0)  # the candidates' threads are daemons; nothing to flush


def _start_http(candidate: str, settings: Any, key_ring: Any, admission: Any) -> int:
    if candidate in ("baseline", "hypercorn"):  # each tree's own HttpServer
        from engine_service.http import HttpServer

        http_server = HttpServer(settings, key_ring, admission=admission)
        http_server.start()
        return int(http_server.port)
    import asyncio

    from engine_service.http.connections import CONNECTION_LIMIT, CappedListener
    from engine_service.http.server import HEADER_SECONDS, HttpApp, bind_socket

    if candidate == "uvicorn":
        import uvicorn

        listener = CappedListener.listen_on(
            bind_socket("127.0.0.1:0", reuse_port=False), CONNECTION_LIMIT, HEADER_SECONDS
        )
        app = HttpApp(settings, key_ring, access_log=False, admission=admission, memo=None, listener=listener)
        config = uvicorn.Config(
            app.asgi, http="httptools", loop="asyncio", lifespan="off", access_log=False, log_level="warning"
        )
        threading.Thread(target=uvicorn.Server(config).run, kwargs={"sockets": [listener]}, daemon=True).start()
        app.serving = True
        return int(listener.getsockname()[1])
    if candidate == "granian":
        from granian.constants import Interfaces
        from granian.server.embed import Server as Granian

        probe = bind_socket("127.0.0.1:0", reuse_port=False)  # a free port for granian to bind
        port = int(probe.getsockname()[1])
        probe.close()
        app = HttpApp(settings, key_ring, access_log=False, admission=admission, memo=None, listener=None)
        granian = Granian(app.asgi, address="127.0.0.1", port=port, interface=Interfaces.ASGI, log_enabled=False)
        threading.Thread(target=lambda: asyncio.run(granian.serve()), daemon=True).start()
        app.serving = True
        _wait_for_port(port)
        return port
    raise SystemExit(f"unknown candidate {candidate}")


def _wait_for_port(port: int) -> None:
    import socket
    import time

    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"nothing listens on {port}")


def _post(conn: http.client.HTTPConnection, body: bytes, content_type: str) -> bytes:
    conn.request("POST", PATH, body, {"Content-Type": content_type})
    response = conn.getresponse()
    data = response.read()
    if response.status != 200:
        raise RuntimeError(f"HTTP {response.status}: {data[:200]!r}")
    return data


def run_phase(
    port: int, pid: int, requests: list[bytes], content_type: str, *, concurrency: int, duration: float
) -> tuple[float, float]:
    """calls/s and server CPU µs per call for ``concurrency`` threads calling back to back."""
    conns = [http.client.HTTPConnection("127.0.0.1", port, timeout=30) for _ in range(concurrency)]
    senders: list[Callable[[int], object]] = [
        lambda position, conn=conn: _post(conn, requests[position % len(requests)], content_type) for conn in conns
    ]
    try:
        phase = run_load(senders, duration, lambda: process_cpu_seconds(pid))
    finally:
        for conn in conns:
            conn.close()
    return phase.calls_per_second, phase.server_cpu_us


def start_child(candidate: str, baseline_tree: Path | None) -> tuple[subprocess.Popen[str], int, int]:
    """A server process for ``candidate`` (the baseline runs from its own tree), its gRPC and its HTTP port."""
    env = dict(os.environ)
    if candidate == "baseline":
        assert baseline_tree is not None
        env["PYTHONPATH"] = str(baseline_tree)
        script = baseline_tree / "benchmarks" / "bench_http_child.py"
    else:
        script = Path(__file__)
    child = subprocess.Popen(
        [sys.executable, "-P", str(script), "--serve", candidate],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env=env,
        cwd=str(ROOT if candidate != "baseline" else baseline_tree),
    )
    assert child.stdout is not None
    for line in child.stdout:  # a candidate may print a banner first
        words = line.split()
        if len(words) == 2 and all(word.isdigit() for word in words):
            return child, int(words[0]), int(words[1])
    raise RuntimeError(f"the {candidate} server exited before listening")


def export_baseline(commit: str, folder: Path) -> Path:
    """``commit``'s tree in ``folder``, with this script beside it (run there against that tree's engine)."""
    archive = subprocess.run(["git", "archive", commit], cwd=ROOT, check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(folder)], input=archive, check=True)
    (folder / "benchmarks" / "bench_http_child.py").write_text(Path(__file__).read_text())
    return folder


def _ratios(values: list[float], baseline: list[float]) -> str:
    """``values[i] / baseline[i]``, repeat by repeat, as ``median (min-max)``."""
    ratios = [value / base for value, base in zip(values, baseline, strict=True)]
    return f"{statistics.median(ratios):.2f} ({min(ratios):.2f}-{max(ratios):.2f})"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--duration", type=float, default=3.0, help="seconds per phase")
    parser.add_argument("--repeats", type=int, default=5, help="phases per candidate, interleaved")
    parser.add_argument("--concurrency", type=int, default=8, help="client threads, one connection each")
    parser.add_argument("--codec", choices=sorted(CONTENT_TYPES), default="json")
    parser.add_argument("--candidates", nargs="*", default=list(CANDIDATES), choices=CANDIDATES)
    parser.add_argument("--baseline", default=DEFAULT_BASELINE, help="the commit whose HTTP listener is the baseline")
    parser.add_argument("--serve", choices=CANDIDATES, help=argparse.SUPPRESS)  # the child process
    args = parser.parse_args()
    if args.serve:
        serve(args.serve)
        return 0
    candidates = [name for name in args.candidates if name not in MODULES or importlib.util.find_spec(MODULES[name])]
    skipped = sorted(set(args.candidates) - set(candidates))
    plain, _ = sample_requests(24)
    if args.codec == "json":
        requests = [
            json.dumps(json_format.MessageToDict(engine_service_pb2.ApplyActionRequest.FromString(raw))).encode()
            for raw in plain
        ]
    else:
        requests = plain
    content_type = CONTENT_TYPES[args.codec]
    children: dict[str, subprocess.Popen[str]] = {}
    ports: dict[str, int] = {}
    with tempfile.TemporaryDirectory(prefix="http-runtimes-") as scratch:
        baseline_tree = export_baseline(args.baseline, Path(scratch)) if "baseline" in candidates else None
        try:
            for name in candidates:
                children[name], _, ports[name] = start_child(name, baseline_tree)
            for name in candidates:
                conn = http.client.HTTPConnection("127.0.0.1", ports[name], timeout=30)
                for request in requests:  # every request must succeed before timing: a failure would look fast
                    _post(conn, request, content_type)
                conn.close()
                run_phase(
                    ports[name], children[name].pid, requests, content_type, concurrency=args.concurrency, duration=1.0
                )  # warm-up
            results: dict[str, list[tuple[float, float]]] = {name: [] for name in candidates}
            for repeat in range(args.repeats):
                order = candidates if repeat % 2 == 0 else candidates[::-1]
                for name in order:
                    pid = children[name].pid
                    phase = run_phase(
                        ports[name], pid, requests, content_type, concurrency=args.concurrency, duration=args.duration
                    )
                    results[name].append(phase)
        finally:
            for child in children.values():
                if child.stdin is not None:
                    child.stdin.close()
            for child in children.values():
                child.wait(timeout=30)
    print(
        f"Connect {args.codec} ApplyAction, {args.concurrency} client threads (keep-alive HTTP/1.1), "
        f"{args.repeats} x {args.duration:g} s per candidate, interleaved; one server process each "
        f"(gRPC beside it), 2 handler threads; baseline: {args.baseline}"
    )
    # Ratios repeat by repeat (each candidate's phase beside the baseline's of the same repeat): median (min-max).
    print(
        f"{'server':<10}{'calls/s median':>15}{'min':>8}{'max':>8}{'CPU us/call':>13}"
        f"{'calls/s x baseline':>24}{'CPU/call x baseline':>24}"
    )
    base = results.get("baseline")
    for name, phases in results.items():
        rates = [rate for rate, _ in phases]
        cpu = statistics.median(cpu for _, cpu in phases)
        rate_ratio = _ratios([rate for rate, _ in phases], [rate for rate, _ in base]) if base else "-"
        cpu_ratio = _ratios([cpu for _, cpu in phases], [cpu for _, cpu in base]) if base else "-"
        print(
            f"{name:<10}{statistics.median(rates):>15.0f}{min(rates):>8.0f}{max(rates):>8.0f}{cpu:>13.0f}"
            f"{rate_ratio:>24}{cpu_ratio:>24}"
        )
    if skipped:
        print(f"not installed, skipped: {', '.join(skipped)}")
    print(f"load average (1 min): {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
