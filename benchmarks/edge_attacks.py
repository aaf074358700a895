"""The attack suite against each candidate HTTP server: do the probes still answer, and what memory does it take?

Each candidate is served as ``benchmarks/http_runtimes.py`` serves it (the service's HTTP application
beside its gRPC server, one process; the baseline from an earlier commit's tree), a fresh process for
every attack, so its peak resident set (``VmHWM``) is the attack's. During each attack, from the
attackers of ``tests/edge/attackers.py`` (another process) or load threads here, a probe round runs every
0.25 s: ``/healthz`` on a new connection, a Connect ``CreateGame``, gRPC health and a gRPC ``CreateGame``.
Reported per attack and candidate: the slowest probe, how many probes failed or took over 1 s, the peak
RSS; and how many of 20 half-closed requests were answered.

    python benchmarks/edge_attacks.py [--candidates baseline hypercorn uvicorn granian] [--seconds 3]
"""

from __future__ import annotations

import argparse
import http.client
import os
import socket
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import AbstractContextManager, contextmanager, nullcontext
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run from a checkout without installing
sys.path.insert(0, str(Path(__file__).resolve().parent))

import grpc
from http_runtimes import CANDIDATES, DEFAULT_BASELINE, MODULES, export_baseline, start_child

from tests.edge.attackers import ANNOUNCED_BODY, HEADER_FLOOD, IDLE, STALLED_BODY, TRICKLING, Kind, holding
from tests.edge.support import CREATE_GAME_JSON, frame, maximal_simulate, peak_rss_mib, probing_ports

SERVICE = "/splendor.v1.EngineService"
PROBE_SECONDS = 1.0
HALF_CLOSED_TRIES = 20


@contextmanager
def simulate_calls(http_port: int) -> Iterator[None]:
    body = frame(maximal_simulate().SerializeToString())

    def call() -> None:
        conn = http.client.HTTPConnection("127.0.0.1", http_port, timeout=60)
        try:
            conn.request("POST", f"{SERVICE}/Simulate", body, {"Content-Type": "application/grpc-web+proto"})
            conn.getresponse().read()
        except OSError:
            pass
        finally:
            conn.close()

    with ThreadPoolExecutor(4) as pool:
        for _ in range(4):
            pool.submit(call)
        yield


@contextmanager
def body_flood(http_port: int) -> Iterator[None]:
    body = b'{"config": {}, "pad": "' + b"x" * (500_000 - 30) + b'"}'
    head = (
        f"POST {SERVICE}/CreateGame HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(body)}\r\n\r\n"
    ).encode()
    stop = threading.Event()

    def upload() -> None:
        while not stop.is_set():
            try:
                with socket.create_connection(("127.0.0.1", http_port), timeout=30) as sock:
                    sock.sendall(head + body)
                    sock.recv(64)
            except OSError:
                pass

    with ThreadPoolExecutor(200) as pool:
        for _ in range(200):
            pool.submit(upload)
        try:
            yield
        finally:
            stop.set()


def half_closed_answers(http_port: int) -> int:
    answered = 0
    request = f"POST {SERVICE}/CreateGame HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
    request += f"Content-Length: {len(CREATE_GAME_JSON)}\r\n\r\n"
    for _ in range(HALF_CLOSED_TRIES):
        try:
            with socket.create_connection(("127.0.0.1", http_port), timeout=5) as sock:
                sock.sendall(request.encode() + CREATE_GAME_JSON)
                sock.shutdown(socket.SHUT_WR)
                answered += sock.recv(12).startswith(b"HTTP/1.1 200")
        except OSError:
            pass
    return answered


Attack = Callable[[int], AbstractContextManager[object]]


def held(kind: Kind, count: int, *, reopen: bool = True) -> Attack:
    return lambda port: holding(port, kind, count, reopen=reopen)


ATTACKS: dict[str, Attack] = {
    "none": lambda port: nullcontext(),
    "1,010 idle": held(IDLE, 1_010),
    "1,010 trickling": held(TRICKLING, 1_010),
    "1,000 stalled bodies": held(STALLED_BODY, 1_000),
    "32 announced 1 MiB": held(ANNOUNCED_BODY, 32),
    "1,000 x 250 KB headers": held(HEADER_FLOOD, 1_000, reopen=False),
    "4 HTTP Simulate": simulate_calls,
    "400 x 500 KB bodies": body_flood,
}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--candidates", nargs="*", default=list(CANDIDATES), choices=CANDIDATES)
    parser.add_argument("--baseline", default=DEFAULT_BASELINE)
    parser.add_argument("--seconds", type=float, default=3.0, help="how long the probes run during each attack")
    parser.add_argument("--attacks", nargs="*", default=list(ATTACKS), choices=list(ATTACKS), metavar="ATTACK")
    args = parser.parse_args()
    import importlib.util
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(max(soft, 16_384), hard), hard))
    candidates = [name for name in args.candidates if importlib.util.find_spec(MODULES[name])]
    rows: list[tuple[str, str, str]] = []
    with tempfile.TemporaryDirectory(prefix="edge-attacks-") as scratch:
        baseline_tree = export_baseline(args.baseline, Path(scratch)) if "baseline" in candidates else None
        for attack_name in args.attacks:
            attack = ATTACKS[attack_name]
            for name in candidates:
                child, grpc_port, http_port = start_child(name, baseline_tree)
                channel = grpc.insecure_channel(f"127.0.0.1:{grpc_port}")
                try:
                    with attack(http_port) as attacking, probing_ports(http_port, channel) as times:
                        time.sleep(args.seconds)
                    peak = peak_rss_mib(child.pid)
                    half_closed = half_closed_answers(http_port) if attack_name == "none" else None
                finally:
                    assert child.stdin is not None
                    child.stdin.close()
                    child.wait(timeout=60)
                runs = sum(len(kind_times) for kind_times in times.seconds.values())
                shares = times.answered_within(PROBE_SECONDS)
                slow = runs - round(sum(shares[kind] * len(taken) for kind, taken in times.seconds.items()))
                worst = max(times.worst().values())
                result = f"worst {worst:.2f} s, {slow}/{runs} failed or > 1 s, peak {peak:.0f} MiB"
                refused = getattr(attacking, "refused", 0)  # attack connections the server never took
                if refused:
                    result += f", {refused} attack connections not taken"
                if half_closed is not None:
                    result += f", half-closed answered {half_closed}/{HALF_CLOSED_TRIES}"
                rows.append((attack_name, name, result))
                print(f"{attack_name:<24}{name:<11}{result}", flush=True)
    print(f"load average (1 min): {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
