"""Closed-loop load generator for a running engine: calls/s and latency percentiles.

    python benchmarks/loadgen.py --address 127.0.0.1:50051 --concurrency 16 --channels 8 \\
        --duration 10 --rpc apply [--processes 2] [--warmup 2] [--json]

First it plays a few random games through the API (CreateGame, then ListLegalActions
and ApplyAction until each game ends) to collect realistic requests: mid-game states
with a legal action (``apply``), states (``legal``), states with the last move's
events for a seat (``view``), configs (``create``) and whole games (``replay``).
Then ``--concurrency`` calls are kept in flight (each thread sends its next call as
soon as the last one returns) for ``--warmup`` + ``--duration`` seconds; only calls
that complete after the warm-up count.

``--channels`` client channels are opened, each on its own TCP connection (a local
subchannel pool: by default gRPC Python shares one connection between channels to
the same address). The server spreads *connections* over its processes (SO_REUSEPORT)
or a proxy spreads them over replicas, so use at least as many channels as server
processes, better a few times more. Calls go over pre-serialized bytes, so the client
spends little CPU per call, but a Python client still needs about as much CPU as the
server: ``--processes`` splits the threads and channels over client processes.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import random
import sys
import threading
import time
from array import array
from collections import Counter
from dataclasses import dataclass, field
from multiprocessing.sharedctypes import Synchronized, SynchronizedArray
from pathlib import Path
from typing import Any

import grpc

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run from a checkout without installing

from splendor.v1 import config_pb2, engine_service_pb2, engine_service_pb2_grpc

SERVICE = "splendor.v1.EngineService"
RPCS = {
    "apply": "ApplyAction",
    "legal": "ListLegalActions",
    "view": "GetPlayerView",
    "create": "CreateGame",
    "replay": "ReplayGame",
}
MAX_MOVES = 400  # per sampled game; random games end long before


# Requests.


def collect_requests(address: str, rpc: str, games: int, seed: int) -> list[bytes]:
    """Serialized requests for ``rpc``, from ``games`` random games played through the API."""
    rng = random.Random(seed)
    if rpc == "create":
        return [
            engine_service_pb2.CreateGameRequest(
                config=config_pb2.GameConfig(num_players=rng.randint(2, 4), seed=rng.randrange(1 << 32))
            ).SerializeToString()
            for _ in range(256)
        ]
    requests: list[bytes] = []
    with grpc.insecure_channel(address) as channel:
        grpc.channel_ready_future(channel).result(timeout=10)
        engine: Any = engine_service_pb2_grpc.EngineServiceStub(channel)
        for number in range(games):
            config = config_pb2.GameConfig(num_players=2 + number % 3, seed=rng.randrange(1 << 32))
            created = engine.CreateGame(engine_service_pb2.CreateGameRequest(config=config), timeout=10)
            state, events, played = created.state, list(created.events), []
            while not state.end_reason and len(played) < MAX_MOVES:
                legal = engine.ListLegalActions(engine_service_pb2.ListLegalActionsRequest(state=state), timeout=10)
                action = rng.choice(legal.actions).action
                if rpc == "apply":
                    requests.append(_serialize(engine_service_pb2.ApplyActionRequest(state=state, action=action)))
                elif rpc == "legal":
                    requests.append(_serialize(engine_service_pb2.ListLegalActionsRequest(state=state)))
                elif rpc == "view":
                    view = engine_service_pb2.GetPlayerViewRequest(state=state, events=events)
                    view.seat = rng.randrange(config.num_players)
                    requests.append(_serialize(view))
                applied = engine.ApplyAction(
                    engine_service_pb2.ApplyActionRequest(state=state, action=action), timeout=10
                )
                state, events = applied.state, list(applied.events)
                played.append(action)
            if rpc == "replay":
                requests.append(_serialize(engine_service_pb2.ReplayGameRequest(config=config, actions=played)))
    rng.shuffle(requests)
    return requests


def _serialize(message: Any) -> bytes:
    data: bytes = message.SerializeToString()
    return data


# The load, in each client process.


@dataclass
class Share:
    """One client process's part of the load."""

    index: int
    address: str
    method: str
    requests: list[bytes]
    channels: int
    concurrency: int
    warmup: float
    duration: float
    timeout: float


@dataclass
class Result:
    latencies: bytes  # array('d') of seconds, calls completed OK in the measured window
    errors: dict[str, int] = field(default_factory=dict)  # status code -> calls (measured window)
    elapsed: float = 0.0


def run_share(
    share: Share, ready: Any, start_at: Synchronized[float], progress: SynchronizedArray[int], out: Any
) -> None:
    """Client process body: open the channels, wait for the start, run the threads, report."""
    options = [("grpc.use_local_subchannel_pool", 1), ("grpc.max_receive_message_length", 64 * 1024 * 1024)]
    channels = [grpc.insecure_channel(share.address, options=options) for _ in range(share.channels)]
    for channel in channels:
        grpc.channel_ready_future(channel).result(timeout=10)
    calls = [channel.unary_unary(share.method) for channel in channels]
    latencies = [array("d") for _ in range(share.concurrency)]
    errors: list[Counter[str]] = [Counter() for _ in range(share.concurrency)]
    done = [0] * share.concurrency
    ready.set()
    while start_at.value == 0.0:
        time.sleep(0.005)
    begin = start_at.value
    measure_from = begin + share.warmup
    end = measure_from + share.duration

    def worker(slot: int) -> None:
        call = calls[slot % len(calls)]
        requests = share.requests
        position = (slot * 7919) % len(requests)
        mine, failed = latencies[slot], errors[slot]
        while time.monotonic() < begin:
            time.sleep(0.001)
        while True:
            sent = time.perf_counter()
            now = time.monotonic()
            if now >= end:
                return
            try:
                call(requests[position], timeout=share.timeout)
                if now >= measure_from:
                    mine.append(time.perf_counter() - sent)
            except grpc.RpcError as error:
                if now >= measure_from:
                    failed[error.code().name] += 1
            done[slot] += 1
            position = (position + 1) % len(requests)

    threads = [threading.Thread(target=worker, args=(slot,), daemon=True) for slot in range(share.concurrency)]
    for thread in threads:
        thread.start()
    while any(thread.is_alive() for thread in threads):
        progress[2 * share.index] = sum(done)
        progress[2 * share.index + 1] = sum(sum(counter.values()) for counter in errors)
        time.sleep(0.1)
    progress[2 * share.index] = sum(done)
    merged = array("d")
    for part in latencies:
        merged.extend(part)
    total: Counter[str] = Counter()
    for counter in errors:
        total.update(counter)
    out.put(Result(merged.tobytes(), dict(total), time.monotonic() - measure_from))
    for channel in channels:
        channel.close()


def split(total: int, parts: int, index: int) -> int:
    return total // parts + (1 if index < total % parts else 0)


def percentile(ordered: list[float], fraction: float) -> float:
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, int(len(ordered) * fraction))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--address", default="127.0.0.1:50051", help="the engine's host:port")
    parser.add_argument("--rpc", choices=sorted(RPCS), default="apply", help="what to call")
    parser.add_argument("--concurrency", type=int, default=16, help="calls kept in flight (client threads)")
    parser.add_argument("--channels", type=int, default=8, help="client channels, one TCP connection each")
    parser.add_argument("--duration", type=float, default=10.0, help="measured seconds")
    parser.add_argument("--warmup", type=float, default=2.0, help="seconds of load before measuring")
    parser.add_argument("--processes", type=int, default=1, help="client processes sharing the threads and channels")
    parser.add_argument("--games", type=int, default=6, help="random games played to collect requests")
    parser.add_argument("--seed", type=int, default=1, help="seed of the sampled games")
    parser.add_argument("--timeout", type=float, default=30.0, help="deadline of each call, seconds")
    parser.add_argument("--json", action="store_true", help="print the result as one JSON object too")
    parser.add_argument("--quiet", action="store_true", help="no progress display")
    args = parser.parse_args()
    if min(args.concurrency, args.channels, args.processes) < 1 or args.processes > min(
        args.concurrency, args.channels
    ):
        parser.error("need 1 <= --processes <= --channels and --concurrency, all positive")

    method = f"/{SERVICE}/{RPCS[args.rpc]}"
    requests = collect_requests(args.address, args.rpc, args.games, args.seed)
    if not requests:
        parser.error("collected no requests")
    context = multiprocessing.get_context("spawn")  # never fork a process that has used gRPC
    ready = [context.Event() for _ in range(args.processes)]
    start_at = context.Value("d", 0.0)
    progress = context.Array("q", 2 * args.processes, lock=False)
    out = context.Queue()
    shares = [
        Share(
            index,
            args.address,
            method,
            requests,
            split(args.channels, args.processes, index),
            split(args.concurrency, args.processes, index),
            args.warmup,
            args.duration,
            args.timeout,
        )
        for index in range(args.processes)
    ]
    processes = [
        context.Process(target=run_share, args=(share, ready[share.index], start_at, progress, out), daemon=True)
        for share in shares
    ]
    for process in processes:
        process.start()
    for event in ready:
        if not event.wait(timeout=60):
            print("loadgen: a client process did not connect", file=sys.stderr)
            return 1
    header = (
        f"loadgen: {RPCS[args.rpc]} on {args.address}, {args.concurrency} calls in flight over {args.channels} "
        f"channels, {args.processes} client process{'es' if args.processes > 1 else ''}, "
        f"{args.warmup:g} s warm-up + {args.duration:g} s, {len(requests)} sampled requests"
    )
    print(header, file=sys.stderr)
    begin = time.monotonic() + 0.05
    start_at.value = begin
    results = _show_progress(
        processes,
        progress,
        out,
        begin=begin,
        warmup=args.warmup,
        total=args.warmup + args.duration,
        quiet=args.quiet,
        count=len(shares),
    )
    return _report(results, args)


def _show_progress(
    processes: list[Any], progress: Any, out: Any, *, begin: float, warmup: float, total: float, quiet: bool, count: int
) -> list[Result]:
    interactive = sys.stderr.isatty()
    last_calls, last_time = 0, begin
    results: list[Result] = []
    next_line = begin + 1.0
    while len(results) < count:
        try:
            results.append(out.get(timeout=0.2))
            continue
        except Exception:  # queue.Empty
            pass
        if not any(process.is_alive() for process in processes) and out.empty():
            raise SystemExit("loadgen: a client process failed")
        now = time.monotonic()
        if quiet or now < next_line:
            continue
        calls = sum(progress[2 * index] for index in range(count))
        errors = sum(progress[2 * index + 1] for index in range(count))
        rate = (calls - last_calls) / (now - last_time)
        phase = "warm-up" if now - begin < warmup else "measuring"
        line = (
            f"  {min(now - begin, total):5.1f}/{total:g} s {phase:9}  {calls:8d} calls  {rate:8.0f} calls/s  "
            f"{errors} errors"
        )
        print(f"\r{line}" if interactive else line, end="" if interactive else "\n", file=sys.stderr, flush=True)
        last_calls, last_time, next_line = calls, now, next_line + 1.0
    if interactive and not quiet:
        print(file=sys.stderr)
    for process in processes:
        process.join(timeout=10)
    return results


def _report(results: list[Result], args: argparse.Namespace) -> int:
    latencies: list[float] = []
    errors: Counter[str] = Counter()
    for result in results:
        part = array("d")
        part.frombytes(result.latencies)
        latencies.extend(part)
        errors.update(result.errors)
    latencies.sort()
    rate = len(latencies) / args.duration
    summary = {
        "rpc": RPCS[args.rpc],
        "calls_per_second": round(rate, 1),
        "calls": len(latencies),
        "errors": dict(errors),
        "p50_ms": round(percentile(latencies, 0.50) * 1000, 3),
        "p95_ms": round(percentile(latencies, 0.95) * 1000, 3),
        "p99_ms": round(percentile(latencies, 0.99) * 1000, 3),
        "concurrency": args.concurrency,
        "channels": args.channels,
        "processes": args.processes,
        "duration": args.duration,
    }
    print(
        f"{summary['rpc']}: {rate:.0f} calls/s  p50 {summary['p50_ms']:.2f} ms  p95 {summary['p95_ms']:.2f} ms  "
        f"p99 {summary['p99_ms']:.2f} ms  ({len(latencies)} calls OK"
        + (f", errors {dict(errors)})" if errors else ", no errors)")
    )
    if args.json:
        print(json.dumps(summary))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
