"""The parts of one ApplyAction call's server CPU as a serving process pays them (``call_budget.py --served``).

Timed alone in a tight loop (``budget_parts``), a part runs with its code and data in the CPU's
caches. Served, it runs between calls of gRPC's machinery, which evicts them, and costs several
times as much (docs/performance.md, *The cost of a call*). Here each handler part of
``budget_parts.handler_parts`` runs inside an echo of its own on a bare gRPC server (a child
process, no interceptor): the echo parses an ApplyActionRequest, runs the part on the next of
the sample requests and answers the request's state. A part's served cost is the server CPU per
call of its echo minus that of the plain echo, timed right after it (the floor drifts); phases
rotate their order from repeat to repeat. The parts run on the product's functions and the same
24 mid-game requests as ``call_budget``'s other measurements.
"""

from __future__ import annotations

import itertools
import statistics
import subprocess
import sys
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import grpc

# Appended: a checkout runs without installing, and a compiled copy first on PYTHONPATH still wins.
sys.path.append(str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from budget_parts import handler_parts
from service_bench import BENCH_KEYS, ECHO_METHOD, ECHO_SERVICE, echo_handler, run_phase, sample_requests
from splendor.v1 import engine_service_pb2

from engine_service.sealing import parse_key_ring

PART_METHOD = "Part{}"  # the echo running part number i, on ECHO_SERVICE
# Each part's phase is followed by an echo phase this much shorter: the floor it is compared with.
ECHO_SHARE = 0.5


def _part_echo(part: Callable[[int], object], count: int) -> grpc.RpcMethodHandler[object, object]:
    """The echo's behaviour (``service_bench.echo_handler``) with ``part`` run first, on the next sample request."""
    indices = itertools.count()

    def echo(
        request: engine_service_pb2.ApplyActionRequest, context: grpc.ServicerContext
    ) -> engine_service_pb2.ApplyActionResponse:
        part(next(indices) % count)
        return engine_service_pb2.ApplyActionResponse(state=request.state)

    return grpc.unary_unary_rpc_method_handler(
        echo,
        request_deserializer=engine_service_pb2.ApplyActionRequest.FromString,
        response_serializer=engine_service_pb2.ApplyActionResponse.SerializeToString,
    )


def serve(workers: int) -> None:
    """Child process: the benchmarks' echo (and its CPU probe) and one echo per handler part on a bare gRPC
    server; prints its port and the parts' names, serves until stdin closes."""
    plain, sealed = sample_requests()
    parts = handler_parts(plain, sealed, parse_key_ring(BENCH_KEYS))
    table = {PART_METHOD.format(number): _part_echo(part, len(plain)) for number, part in enumerate(parts.values())}
    server = grpc.server(ThreadPoolExecutor(max_workers=workers))
    server.add_generic_rpc_handlers((echo_handler(), grpc.method_handlers_generic_handler(ECHO_SERVICE, table)))
    port = server.add_insecure_port("127.0.0.1:0")
    server.start()
    print(port, "|".join(parts), flush=True)
    sys.stdin.read()
    server.stop(0).wait()


def served_budget(
    start_child: Callable[[list[str]], subprocess.Popen[str]],
    plain: list[bytes],
    *,
    workers: int,
    repeats: int,
    duration: float,
    concurrency: int,
) -> dict[str, list[float]]:
    """Each part's server CPU microseconds per call beyond the echo's, one entry per repeat.

    ``start_child`` starts a command (this module as the serving child) the way the benchmark
    starts its servers (pinned to a CPU or not)."""
    child = start_child([sys.executable, "-P", __file__, "--serve", str(workers)])
    assert child.stdin is not None and child.stdout is not None
    try:
        port, names = child.stdout.readline().split(" ", 1)
        parts = names.strip().split("|")
        channel = grpc.insecure_channel(f"127.0.0.1:{port}")
        method = f"/{ECHO_SERVICE}/" + PART_METHOD
        phases = [(name, method.format(number)) for number, name in enumerate(parts)]
        options = {"concurrency": concurrency}
        for _, path in [("echo", ECHO_METHOD), *phases]:  # every echo answers before it is timed
            run_phase("warm-up", [channel], path, plain, duration=0.3, **options)
        extra: dict[str, list[float]] = {name: [] for name in parts}
        for repeat in range(repeats):
            shift = repeat % len(phases)
            for name, path in phases[shift:] + phases[:shift]:
                part = run_phase(name, [channel], path, plain, duration=duration, **options)
                floor = run_phase("echo", [channel], ECHO_METHOD, plain, duration=duration * ECHO_SHARE, **options)
                extra[name].append(part.server_cpu_us - floor.server_cpu_us)
        channel.close()
    finally:
        child.stdin.close()
        child.wait(timeout=30)
    return extra


def report_served(served: dict[str, list[float]], in_process: dict[str, list[float]] | None) -> None:
    """The served parts, beside each part's in-process time when that was measured too."""
    header = "part (served: server CPU beyond the echo)"
    print(f"{header:<44}us/call median (min-max)" + ("   x in process" if in_process else ""))
    for name, values in served.items():
        line = f"{name:<44}{statistics.median(values):.1f} ({min(values):.1f}-{max(values):.1f})"
        if in_process and name in in_process:
            alone = statistics.median(in_process[name])
            line += f"   x{statistics.median(values) / alone:.1f}" if alone > 0 else ""
        print(line)


if __name__ == "__main__":
    if sys.argv[1:2] != ["--serve"] or len(sys.argv) != 3:
        raise SystemExit("served_parts.py is call_budget.py's serving child: run call_budget.py --served")
    serve(int(sys.argv[2]))
