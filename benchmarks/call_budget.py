"""Where one ApplyAction call's server CPU goes: the per-call budget, and the latency objective's check.

Two measurements, in one run:

1. Over gRPC (``load_phase``): a server process of its own serving, like ``serve`` does,
   the EngineService with its per-call interceptor, log lines (JSON, batched, to
   /dev/null) and metrics (in memory, as one process serves even in the container; with
   ``--multiprocess``, file-backed as each worker of ``--processes`` > 1), and on the same process an echo (parse an
   ApplyActionRequest, answer its state) three ways: ``echo-bare`` on a second gRPC server
   with no interceptor at all (gRPC and protobuf alone: the floor), ``echo-icpt`` on a third
   with only the ``ObservabilityInterceptor`` (its metrics and log line; no admission, lanes
   or server options), and ``echo`` registered on the product server, so that everything a
   call meets sees it (the targets' floor). Phases interleaved, their order rotating;
   server CPU per call from the server process's CPU time. The requests are 24 mid-game
   positions sent over and over, so after their first pass the server's memo of states already
   checked (``--state-memo-entries``) knows them, as in play it knows the state a game's previous
   call wrote (the same lookup; each call also remembers the state it writes);
   ``--trial-memo-entries 0`` gives every call's full check side by side.
2. In this process (``budget_parts``): each part of a call timed alone, interleaved,
   CPU time per call.
3. With ``--served`` (``served_parts``): each handler part run inside an echo of its own on a
   bare gRPC server, its server CPU per call beyond the echo's: what the part costs a serving
   process, whose caches the gRPC machinery between calls has evicted (1.5-3x the time alone).

The report gives each part's microseconds per call, median (min-max) over the repeats, and
the ratios of ApplyAction (plain, sealed) to each echo in server CPU and calls/s, against the
cost targets of issue 26 (``CPU_TARGETS``, ``RATE_TARGET``: pass/FAIL, informative). It then
checks the latency objective of docs/operations.md on this machine: with ``--concurrency``
calls in flight at the process's full ApplyAction pace, p99 (median over the repeats) within
``LATENCY_BOUND_MS``; the objective then holds up to ``LOAD_SHARE`` of that pace, the
calls/s per process it prints. An operator measures it on their own hardware with:

    make compiled
    PYTHONPATH=build/compiled-core .venv/bin/python -P benchmarks/call_budget.py --repeats 5

``--pin`` runs the servers on the last CPU and the client on the others, so that they stop taking
turns on the same CPUs: every figure is lower and the spread between repeats tighter (the
ratios stay), which suits comparing two builds side by side.

A trial (``--trial-in-memory``, ``--trial-switch-interval``, ``--trial-workers``, ``--trial-env``,
``--trial-memo-entries``) serves from a second process with one setting changed; its phases (starred)
interleave with the others and the report gives the trial's ratios to the product server's, repeat by repeat.

Exit status 1 when the objective does not hold. Other work on the machine shifts everything:
compare rows of one run only (the report gives the load average).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Final

import grpc

# Appended: a checkout runs without installing, and a compiled copy first on PYTHONPATH still wins.
sys.path.append(str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from budget_parts import in_process_budget
from load_phase import Phase
from served_parts import report_served, served_budget
from service_bench import APPLY_METHOD, BENCH_KEYS, ECHO_METHOD, _raw, echo_handler, run_phase, sample_requests

from engine_service.core_info import core_kind
from engine_service.runtime.settings import Settings
from engine_service.sealing import parse_key_ring

# Issue 26's cost targets: ApplyAction's server CPU per call within these multiples of the echo's
# through the product server, and at least this share of its calls/s, measured side by side.
CPU_TARGETS: Final = {"apply": 1.5, "sealed": 1.6}
RATE_TARGET: Final = 0.65
# The latency objective (docs/operations.md): p99 of ApplyAction within this bound (a bucket of
# grpc_server_handling_seconds) at full pace, stated for up to this share of that pace per process.
LATENCY_BOUND_MS: Final = 10.0
LOAD_SHARE: Final = 0.7
# A served part's phase, as a share of --duration: there are 21 of them, each followed by an echo.
PART_DURATION_SHARE: Final = 0.75


def serve(
    workers: int, multiprocess: bool, switch_interval: float | None = None, memo_entries: int | None = None
) -> None:
    """Child process: the product server (echo included) and a bare echo server; prints both ports.

    ``switch_interval``: this process's GIL switch interval (``sys.setswitchinterval``), for a trial;
    ``memo_entries``: the size of its memo of states already checked (``--state-memo-entries``), for a trial.
    """
    if switch_interval is not None:
        sys.setswitchinterval(switch_interval)
    from engine_service.runtime.logs import configure_logging
    from engine_service.runtime.metrics import get_metrics, use_multiprocess_dir
    from engine_service.server.app import build_server, start
    from engine_service.server.interceptors import ObservabilityInterceptor

    with tempfile.TemporaryDirectory(prefix="call-budget-") as metrics_dir:
        if multiprocess:
            use_multiprocess_dir(metrics_dir)
        configure_logging("info", "json", stream=open(os.devnull, "w"))  # noqa: SIM115 (open while serving)
        server, port, health = build_server(
            Settings(
                address="127.0.0.1:0",
                threads=workers,
                state_memo_entries=Settings().state_memo_entries if memo_entries is None else memo_entries,
            ),
            extra_generic_handlers=(echo_handler(),),
            key_ring=parse_key_ring(BENCH_KEYS),
            access_log=True,
        )
        # The echo with no interceptor, and with only the interceptor (no admission, lanes or server options).
        bare = grpc.server(ThreadPoolExecutor(max_workers=workers))
        interceptor = ObservabilityInterceptor(get_metrics(), access_log=True)
        intercepted = grpc.server(ThreadPoolExecutor(max_workers=workers), interceptors=[interceptor])
        ports = [port]
        for extra in (bare, intercepted):
            extra.add_generic_rpc_handlers((echo_handler(),))
            ports.append(extra.add_insecure_port("127.0.0.1:0"))
            extra.start()
        start(server, health)
        print(*ports, flush=True)
        sys.stdin.read()
        for running in (bare, intercepted, server):
            running.stop(0).wait()


def _start_child(
    args: argparse.Namespace,
    switch_interval: float | None,
    multiprocess: bool,
    workers: int,
    env: dict[str, str] | None = None,
    *,
    memo_entries: int | None = None,
) -> subprocess.Popen[str]:
    command = [sys.executable, __file__, "--serve", "--threads", str(workers)]
    if memo_entries is not None:
        command += ["--memo-entries", str(memo_entries)]
    if multiprocess:
        command.append("--multiprocess")
    if switch_interval is not None:
        command += ["--switch-interval", repr(switch_interval)]
    return _popen(command, args.server_cpus, env)


def _popen(command: list[str], cpus: set[int] | None, env: dict[str, str] | None = None) -> subprocess.Popen[str]:
    """A serving child, on ``cpus`` (all its threads: it inherits this thread's CPUs) or anywhere."""
    environment = {**os.environ, **env} if env else None
    options = {"stdin": subprocess.PIPE, "stdout": subprocess.PIPE, "text": True, "env": environment}
    if cpus is None:
        return subprocess.Popen(command, **options)  # type: ignore[call-overload, no-any-return]
    mine = os.sched_getaffinity(0)
    os.sched_setaffinity(0, cpus)
    try:
        return subprocess.Popen(command, **options)  # type: ignore[call-overload, no-any-return]
    finally:
        os.sched_setaffinity(0, mine)


def split_cpus(pin: bool) -> tuple[set[int] | None, set[int] | None]:
    """``--pin``: (the servers' CPU, the client's CPUs): the last CPU this process may use for the servers,
    the others for the client; (None, None) otherwise."""
    if not pin:
        return None, None
    cpus = sorted(os.sched_getaffinity(0))
    if len(cpus) < 2:
        raise SystemExit("--pin needs at least 2 CPUs: one for the server, the others for the client")
    return {cpus[-1]}, set(cpus[:-1])


def _assignment(entry: str) -> tuple[str, str]:
    name, equals, value = entry.partition("=")
    if not name or not equals:
        raise SystemExit(f"--trial-env wants NAME=VALUE, not {entry!r}")
    return name, value


def _channels(args: argparse.Namespace, child: subprocess.Popen[str]) -> list[list[grpc.Channel]]:
    assert child.stdout is not None
    return [
        [grpc.insecure_channel(f"127.0.0.1:{port}") for _ in range(args.channels)]
        for port in child.stdout.readline().split()
    ]


def over_grpc(args: argparse.Namespace, plain: list[bytes], sealed: list[bytes]) -> dict[str, list[Phase]]:
    children = [_start_child(args, None, args.multiprocess, args.workers)]
    trial_options = (
        args.trial_switch_interval,
        args.trial_in_memory,
        args.trial_workers,
        args.trial_env,
        args.trial_memo_entries,
    )
    if trial_options != (None, False, None, [], None):  # a second server process, its phases starred
        multiprocess = args.multiprocess and not args.trial_in_memory
        env = dict(_assignment(entry) for entry in args.trial_env)
        workers = args.trial_workers or args.workers
        trial_memo = args.trial_memo_entries
        trial = _start_child(args, args.trial_switch_interval, multiprocess, workers, env, memo_entries=trial_memo)
        children.append(trial)
    try:
        product, bare, intercepted = _channels(args, children[0])
        phases: tuple[tuple[str, list[grpc.Channel], str, list[bytes]], ...] = (
            ("echo-bare", bare, ECHO_METHOD, plain),
            ("echo-icpt", intercepted, ECHO_METHOD, plain),
            ("echo", product, ECHO_METHOD, plain),
            ("apply", product, APPLY_METHOD, plain),
            ("sealed", product, APPLY_METHOD, sealed),
        )
        opened = [*product, *bare, *intercepted]
        if len(children) > 1:
            trial, trial_bare, trial_icpt = _channels(args, children[1])
            opened += [*trial, *trial_bare, *trial_icpt]
            phases += (
                ("echo*", trial, ECHO_METHOD, plain),
                ("apply*", trial, APPLY_METHOD, plain),
                ("sealed*", trial, APPLY_METHOD, sealed),
            )
        for _, channels, method, requests in phases:  # each RPC works before it is timed
            for request in requests:
                _raw(channels[0], method)(request, timeout=10)
            run_phase("warm-up", channels, method, requests, concurrency=args.concurrency, duration=1.0)
        results: dict[str, list[Phase]] = {phase[0]: [] for phase in phases}
        for repeat in range(args.repeats):
            shift = repeat % len(phases)  # rotate which goes first: drifting load favours none
            for name, channels, method, requests in phases[shift:] + phases[:shift]:
                options = {"concurrency": args.concurrency, "duration": args.duration}
                results[name].append(run_phase(name, channels, method, requests, **options))
        for channel in opened:
            channel.close()
    finally:
        for child in children:
            if child.stdin is not None:
                child.stdin.close()
            child.wait(timeout=30)
    return results


def _spread(values: list[float], digits: int = 1) -> str:
    return f"{statistics.median(values):.{digits}f} ({min(values):.{digits}f}-{max(values):.{digits}f})"


def report_grpc(results: dict[str, list[Phase]]) -> bool:
    print(f"{'rpc':<11}{'calls/s median (min-max)':<27}{'p50 ms':>8}{'p99 ms':>8}  server CPU us/call (min-max)")
    for name, phases in results.items():
        rates = [phase.calls_per_second for phase in phases]
        p50 = statistics.median(phase.p50_ms for phase in phases)
        p99 = statistics.median(phase.p99_ms for phase in phases)
        print(f"{name:<11}{_spread(rates, 0):<27}{p50:>8.2f}{p99:>8.2f}  {_spread([p.server_cpu_us for p in phases])}")
    for floor in ("echo", "echo-bare"):
        for name in ("apply", "sealed"):
            pairs = list(zip(results[floor], results[name]))
            cpu = [mine.server_cpu_us / base.server_cpu_us for base, mine in pairs]
            rate = [mine.calls_per_second / base.calls_per_second for base, mine in pairs]
            line = f"{name}/{floor}: server CPU x{_spread(cpu, 2)}, calls/s x{_spread(rate, 2)}"
            if floor == "echo":  # the targets' floor: the echo through everything a call meets
                target = CPU_TARGETS[name]
                line += f"  [target CPU <= x{target}: {'pass' if statistics.median(cpu) <= target else 'FAIL'}"
                if name == "apply":
                    rate_ok = statistics.median(rate) >= RATE_TARGET
                    line += f"; calls/s >= x{RATE_TARGET}: {'pass' if rate_ok else 'FAIL'}"
                line += "]"
            print(line)
    for name in ("echo", "apply", "sealed"):
        if f"{name}*" in results:  # the trial server against the product server, repeat by repeat
            pairs = list(zip(results[name], results[f"{name}*"]))
            cpu = [trial.server_cpu_us / base.server_cpu_us for base, trial in pairs]
            rate = [trial.calls_per_second / base.calls_per_second for base, trial in pairs]
            print(f"trial {name}*/{name}: server CPU x{_spread(cpu, 2)}, calls/s x{_spread(rate, 2)}")
    if "echo*" in results:
        for name in ("apply", "sealed"):
            pairs = list(zip(results["echo*"], results[f"{name}*"]))
            cpu = [mine.server_cpu_us / base.server_cpu_us for base, mine in pairs]
            rate = [mine.calls_per_second / base.calls_per_second for base, mine in pairs]
            print(f"trial {name}*/echo*: server CPU x{_spread(cpu, 2)}, calls/s x{_spread(rate, 2)}")
    p99 = statistics.median(phase.p99_ms for phase in results["apply"])
    pace = statistics.median(phase.calls_per_second for phase in results["apply"])
    held = p99 <= LATENCY_BOUND_MS
    print(
        f"latency objective (docs/operations.md, Objectives): ApplyAction p99 {p99:.1f} ms at full pace "
        f"({pace:.0f} calls/s), bound {LATENCY_BOUND_MS:g} ms: {'holds' if held else 'does NOT hold'}"
        + (f"; stated here for up to {LOAD_SHARE * pace:.0f} ApplyAction calls/s per process" if held else "")
    )
    return held


def report_parts(parts: dict[str, list[float]], results: dict[str, list[Phase]] | None) -> None:
    print(f"{'part (in process, alone)':<44}us/call median (min-max)")
    for name, values in parts.items():
        print(f"{name:<44}{_spread(values)}")
    bare = statistics.median(parts["echo behaviour alone"])
    print("derived: interceptor = observed echo - echo behaviour alone")
    for name, values in parts.items():
        if name.startswith("observed"):
            print(f"  interceptor, {name.removeprefix('observed: '):<38}{statistics.median(values) - bare:.1f}")
    if results is not None:
        cpu = {name: statistics.median(p.server_cpu_us for p in phases) for name, phases in results.items()}
        print(
            f"derived over gRPC: interceptor alone (echo-icpt - echo-bare) {cpu['echo-icpt'] - cpu['echo-bare']:.0f}, "
            f"the rest of the product server (echo - echo-icpt) {cpu['echo'] - cpu['echo-icpt']:.0f}, "
            f"plain call beyond the echo {cpu['apply'] - cpu['echo']:.0f}, "
            f"sealed beyond the echo {cpu['sealed'] - cpu['echo']:.0f} us/call"
        )


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--duration", type=float, default=2.0, help="seconds per gRPC phase")
    parser.add_argument("--repeats", type=int, default=5, help="rounds of phases, and of in-process timings")
    parser.add_argument("--concurrency", type=int, default=8, help="client threads with a call in flight each")
    parser.add_argument("--channels", type=int, default=4, help="client channels (shared round-robin by threads)")
    parser.add_argument(
        "--threads", "--workers", dest="workers", type=int, default=Settings().threads, help="server handler threads"
    )
    parser.add_argument("--rounds", type=int, default=40, help="in process: passes over the requests per repeat")
    parser.add_argument(
        "--multiprocess",
        action="store_true",
        help="server metrics in multiprocess mode (files), as each worker of --processes > 1",
    )
    parser.add_argument("--parts-only", action="store_true", help="only the in-process parts")
    parser.add_argument("--grpc-only", action="store_true", help="only the phases over gRPC")
    parser.add_argument(
        "--served",
        action="store_true",
        help="also each handler part served, inside an echo on a bare gRPC server (served_parts.py)",
    )
    parser.add_argument(
        "--pin",
        action="store_true",
        help="servers on the last CPU, this process (the client) on the others: a tighter spread between repeats",
    )
    parser.add_argument(
        "--trial-switch-interval",
        type=float,
        help="also serve from a second process with this GIL switch interval (seconds), its phases starred",
    )
    parser.add_argument(
        "--trial-env",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="also serve from a second process with this environment variable (repeatable)",
    )
    parser.add_argument("--trial-workers", type=int, help="also serve from a second process with this many threads")
    parser.add_argument(
        "--trial-in-memory", action="store_true", help="also serve from a second process with metrics in memory"
    )
    parser.add_argument(
        "--trial-memo-entries",
        type=int,
        help="also serve from a second process with this --state-memo-entries (0: every state checked in full)",
    )
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)  # the child process
    parser.add_argument("--switch-interval", type=float, help=argparse.SUPPRESS)  # the child's
    parser.add_argument("--memo-entries", type=int, help=argparse.SUPPRESS)  # the child's
    return parser


def main() -> int:
    parser = _parser()
    args = parser.parse_args()
    if args.serve:
        serve(args.workers, args.multiprocess, args.switch_interval, args.memo_entries)
        return 0
    if args.repeats < 1 or args.duration <= 0 or args.rounds < 1:
        parser.error("--repeats and --rounds must be at least 1 and --duration positive")
    args.server_cpus, client_cpus = split_cpus(args.pin)
    if client_cpus is not None:
        os.sched_setaffinity(0, client_cpus)  # before any client thread starts: they inherit it
    plain, sealed = sample_requests()
    load = [os.getloadavg()[0]]
    results = None if args.parts_only else over_grpc(args, plain, sealed)
    load.append(os.getloadavg()[0])
    parts = None
    if not args.grpc_only:
        parts = in_process_budget(plain, sealed, parse_key_ring(BENCH_KEYS), args.repeats, args.rounds)
        load.append(os.getloadavg()[0])
    served = None
    if args.served:
        served = served_budget(
            lambda command: _popen(command, args.server_cpus),
            plain,
            workers=args.workers,
            repeats=args.repeats,
            duration=args.duration * PART_DURATION_SHARE,
            concurrency=args.concurrency,
        )
        load.append(os.getloadavg()[0])
    metrics = "multiprocess (files)" if args.multiprocess else "in memory"
    pinned = f"; servers pinned to CPU {min(args.server_cpus)}" if args.server_cpus else ""
    print(
        f"call budget: {core_kind()} rules core, {args.repeats} repeats; over gRPC {args.concurrency} client "
        f"threads, {args.duration:g} s per phase, server 1 process x {args.workers} threads, log lines on, "
        f"metrics {metrics}{pinned}"
    )
    held = True
    if results is not None:
        held = report_grpc(results)
    if parts is not None:
        report_parts(parts, results)
    if served is not None:
        report_served(served, parts)
    loads = "/".join(f"{value:.1f}" for value in load)
    print(f"load average (1 min) at start/after each measurement: {loads} on {os.cpu_count()} CPUs")
    return 0 if held else 1


if __name__ == "__main__":
    sys.exit(main())
