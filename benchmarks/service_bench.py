"""ApplyAction throughput and latency, plain and sealed, against an echo RPC on the same server.

The server runs in its own process (so client and server do not share a GIL)
with an extra ``EchoApplyAction`` RPC, registered here and not in the product,
that parses an ApplyActionRequest and returns an ApplyActionResponse carrying
the same state: the cost of gRPC and protobuf alone. The client sends the same
pre-serialized requests (mid-game states of random games, each with a legal
action) to the echo and to ApplyAction, and the same positions as game tokens
(sealed under the server's key ring, the acting seat named with its seat key) to
ApplyAction ("sealed"), and the same sealed requests to a second server that does not
check seat keys ("sealed-nokeys", one process: the cost of the seat-key check is the
difference of server CPU per call), from several threads and channels, the phases
interleaved (their order rotating), and reports the median, min and max over the
repetitions and the ratios to the echo.

    python benchmarks/service_bench.py [--duration 3] [--concurrency 8] [--repeats 3] [--processes 1]

Over gRPC the seat-key check is far below the noise of a shared machine, so
``--handler-cpu`` measures it where it runs: the sealed requests through the API's
ApplyAction handler in this process, with the check on and off in alternating
blocks (CPU time), and reports the check's share of the handler's CPU per call,
median (min-max) over the blocks.

    python benchmarks/service_bench.py --handler-cpu [--repeats 21]

Machine load from anything else shifts the ratio a lot (a busy machine slows the echo
more than the apply), so compare runs made in the same conditions: the report ends
with the load average and the ratio of each echo/apply pair.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

import grpc

# Appended: a checkout runs without installing, and a compiled copy first on PYTHONPATH still wins.
sys.path.append(str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from load_phase import Phase, Send, run_load
from splendor.v1 import engine_service_pb2

from engine_service.api.sealed import binding_of
from engine_service.codec import action_to_proto, state_to_proto
from engine_service.rules import Action, GameConfig, GameState, apply, legal_actions, new_game
from engine_service.runtime.settings import Settings
from engine_service.sealing import issue_seat_keys, new_game_id, new_game_secret, parse_key_ring, seal

ECHO_SERVICE = "splendor.bench.Echo"
ECHO_METHOD = f"/{ECHO_SERVICE}/EchoApplyAction"
CPU_METHOD = f"/{ECHO_SERVICE}/ProcessCpu"  # the server process's CPU seconds, to report CPU per call
APPLY_METHOD = "/splendor.v1.EngineService/ApplyAction"
TARGET_RATIO = 0.70
SEALED_TARGET_RATIO = 0.80
# The key ring of the benchmark's server, also used here to seal the requests' tokens.
BENCH_KEYS = "bench:" + "QkVOQ0hCRU5DSEJFTkNIQkVOQ0hCRU5DSEJFTkNIQkU="


def echo_handler() -> grpc.GenericRpcHandler:
    def echo(
        request: engine_service_pb2.ApplyActionRequest, context: grpc.ServicerContext
    ) -> engine_service_pb2.ApplyActionResponse:
        return engine_service_pb2.ApplyActionResponse(state=request.state)

    handler = grpc.unary_unary_rpc_method_handler(
        echo,
        request_deserializer=engine_service_pb2.ApplyActionRequest.FromString,
        response_serializer=engine_service_pb2.ApplyActionResponse.SerializeToString,
    )

    def process_cpu(request: bytes, context: grpc.ServicerContext) -> bytes:
        return repr(time.process_time()).encode()

    cpu: grpc.RpcMethodHandler[bytes, bytes] = grpc.unary_unary_rpc_method_handler(process_cpu)
    return grpc.method_handlers_generic_handler(ECHO_SERVICE, {"EchoApplyAction": handler, "ProcessCpu": cpu})


def run_server(workers: int, seat_keys: bool = True) -> None:
    """Child process: serve on a free loopback port, print it, stop when stdin closes."""
    from engine_service.server.app import build_server, start

    server, port, health = build_server(
        Settings(address="127.0.0.1:0", threads=workers, seat_keys=seat_keys),
        extra_generic_handlers=(echo_handler(),),
        key_ring=parse_key_ring(BENCH_KEYS),
    )
    start(server, health)
    print(port, flush=True)
    sys.stdin.read()
    server.stop(0).wait()


def sample_requests(count: int = 24, seed: int = 11) -> tuple[list[bytes], list[bytes]]:
    """Serialized ApplyActionRequests from mid-game positions of 2-4 player random games: plain, and the
    same positions and actions as game tokens with the acting seat named and its seat key."""
    rng = random.Random(seed)
    requests: list[bytes] = []
    sealed: list[bytes] = []
    ring = parse_key_ring(BENCH_KEYS)
    while len(requests) < count:
        players = 2 + len(requests) % 3
        state, _ = new_game(GameConfig(players, rng.randrange(1 << 32)))
        points = set(rng.sample(range(8, 60), 4))
        for turn in range(60):
            actions = legal_actions(state)
            if not actions:
                break
            action = rng.choice(actions)
            if turn in points and state.pending is None:
                requests.append(_request(state, action))
                game_id = new_game_id()
                binding = binding_of(state, game_id, turn, public_deal=False, expires_at=0)
                secret = new_game_secret()
                token = seal(ring, state_to_proto(state).SerializeToString(), binding, secret)
                seat = state.acting_seat
                sealed_request = engine_service_pb2.ApplyActionRequest(
                    sealed_state=token,
                    action=action_to_proto(action),
                    seat=seat,
                    seat_key=issue_seat_keys(secret, game_id, players)[seat],
                )
                sealed.append(sealed_request.SerializeToString())
            state, _ = apply(state, action)
    return requests[:count], sealed[:count]


def handler_cpu(sealed_requests: list[bytes], repeats: int, rounds: int = 20) -> int:
    """The seat-key check's share of the sealed ApplyAction handler's CPU: each request through the handler with
    the check on and off back to back (the order alternating), CPU time per call summed per repeat."""
    from engine_service.api import METHODS_BY_NAME, ApiConfig, Call, invoke

    method = METHODS_BY_NAME["ApplyAction"]
    ring = parse_key_ring(BENCH_KEYS)
    checked, unchecked = ApiConfig(ring), ApiConfig(ring, seat_keys=False)
    requests = [engine_service_pb2.ApplyActionRequest.FromString(data) for data in sealed_requests]

    def cpu_ns(request: engine_service_pb2.ApplyActionRequest, config: ApiConfig) -> int:
        call = Call("ApplyAction")
        call.config = config
        start = time.process_time_ns()
        invoke(method, request, call)
        return time.process_time_ns() - start

    for request in requests:  # warm-up
        cpu_ns(request, checked)
        cpu_ns(request, unchecked)
    per_call: dict[str, list[float]] = {"checked": [], "unchecked": []}
    for _ in range(repeats):
        sums = {"checked": 0, "unchecked": 0}
        for index in range(rounds * len(requests)):
            request = requests[index % len(requests)]
            order = ("checked", "unchecked") if index % 2 == 0 else ("unchecked", "checked")
            for name in order:
                sums[name] += cpu_ns(request, checked if name == "checked" else unchecked)
        for name, total in sums.items():
            per_call[name].append(total / (rounds * len(requests)) / 1000)
    shares = [1 - off / on for on, off in zip(per_call["checked"], per_call["unchecked"])]
    calls = f"{repeats} x {rounds * len(requests)}"
    print(f"sealed ApplyAction handler in process, {calls} calls per variant, each request on and off in turn (CPU)")
    for name, values in per_call.items():
        print(f"{name:<10} us/call {statistics.median(values):.1f} ({min(values):.1f}-{max(values):.1f})")
    print(
        f"seat-key check, share of the handler's CPU per call: {statistics.median(shares):+.2%} "
        f"({min(shares):+.2%} to {max(shares):+.2%})"
    )
    return 0


def _request(state: GameState, action: Action) -> bytes:
    request = engine_service_pb2.ApplyActionRequest(state=state_to_proto(state), action=action_to_proto(action))
    return request.SerializeToString()


def _raw(channel: grpc.Channel, method: str) -> grpc.UnaryUnaryMultiCallable[bytes, bytes]:
    """A callable sending and receiving serialized messages, so the client spends little CPU."""
    call: grpc.UnaryUnaryMultiCallable[bytes, bytes] = channel.unary_unary(method)
    return call


def run_phase(
    name: str,
    channels: list[grpc.Channel],
    method: str,
    requests: list[bytes],
    *,
    concurrency: int,
    duration: float,
    processes: int = 1,
) -> Phase:
    """``concurrency`` threads calling ``method`` back to back for ``duration`` seconds.

    Channel ``i`` goes to server process ``i % processes``; the CPU reported is theirs together.
    """
    calls = [_raw(channel, method) for channel in channels]

    def sender(index: int) -> Send:
        call = calls[index % len(calls)]
        return lambda position: call(requests[position % len(requests)], timeout=10)

    cpu_probes = [_raw(channel, CPU_METHOD) for channel in channels[:processes]]

    def server_cpu() -> float:
        return sum(float(probe(b"", timeout=10)) for probe in cpu_probes)

    return run_load([sender(index) for index in range(concurrency)], duration, server_cpu, label=name)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--duration", type=float, default=3.0, help="seconds per phase")
    parser.add_argument("--concurrency", type=int, default=8, help="client threads with a call in flight each")
    parser.add_argument("--repeats", type=int, default=3, help="echo/apply phase pairs")
    parser.add_argument("--channels", type=int, default=4, help="client channels (shared round-robin by threads)")
    parser.add_argument(
        "--threads", "--workers", dest="workers", type=int, default=Settings().threads, help="server handler threads"
    )
    parser.add_argument("--states", type=int, default=24, help="distinct requests (mid-game states) sent in turn")
    parser.add_argument(
        "--processes", type=int, default=1, help="server processes, each on its own port; channels spread over them"
    )
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)  # the child process
    parser.add_argument("--no-seat-keys", action="store_true", help=argparse.SUPPRESS)  # the child without the check
    parser.add_argument(
        "--handler-cpu", action="store_true", help="the seat-key check's share of the sealed handler's CPU, in process"
    )
    args = parser.parse_args()
    if args.serve:
        run_server(args.workers, seat_keys=not args.no_seat_keys)
        return 0
    if args.handler_cpu:
        return handler_cpu(sample_requests(args.states)[1], args.repeats)

    requests, sealed_requests = sample_requests(args.states)
    load_before = os.getloadavg()[0]
    processes = max(1, args.processes)
    child_flags: list[list[str]] = [[]] * processes + [["--no-seat-keys"]]
    children = [
        subprocess.Popen(
            [sys.executable, __file__, "--serve", "--threads", str(args.workers), *flags],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        for flags in child_flags
    ]
    try:
        ports = []
        for child in children:
            assert child.stdout is not None
            ports.append(int(child.stdout.readline()))
        count = max(processes, args.channels)
        channels = [grpc.insecure_channel(f"127.0.0.1:{ports[index % processes]}") for index in range(count)]
        unchecked = [grpc.insecure_channel(f"127.0.0.1:{ports[-1]}") for _ in range(args.channels)]
        for channel in channels + unchecked:
            grpc.channel_ready_future(channel).result(timeout=10)
        phases = (
            ("echo", ECHO_METHOD, requests, channels, processes),
            ("apply", APPLY_METHOD, requests, channels, processes),
            ("sealed", APPLY_METHOD, sealed_requests, channels, processes),
            ("sealed-nokeys", APPLY_METHOD, sealed_requests, unchecked, 1),
        )
        # Every RPC must work before timing it: a failing apply would look fast.
        for _, method, sent, group, serving in phases:
            for request in sent:
                for channel in group[:serving]:
                    _raw(channel, method)(request, timeout=10)
        for _, method, sent, group, serving in phases:
            run_phase("warm-up", group, method, sent, duration=1.0, concurrency=args.concurrency, processes=serving)
        results: dict[str, list[Phase]] = {phase[0]: [] for phase in phases}
        for repeat in range(args.repeats):
            # Rotate which goes first, so a drift in machine load favours none.
            shift = repeat % len(phases)
            for name, method, sent, group, serving in phases[shift:] + phases[:shift]:
                options = {"concurrency": args.concurrency, "processes": serving, "duration": args.duration}
                results[name].append(run_phase(name, group, method, sent, **options))
        for channel in channels + unchecked:
            channel.close()
    finally:
        for child in children:
            if child.stdin is not None:
                child.stdin.close()
        for child in children:
            child.wait(timeout=30)
    return _report(results, args, (load_before, os.getloadavg()[0]))


def _report(results: dict[str, list[Phase]], args: argparse.Namespace, load: tuple[float, float]) -> int:
    print(
        f"ApplyAction vs EchoApplyAction, {args.concurrency} client threads, {args.channels} channels, "
        f"server: {args.processes} process(es) of its own x {args.workers} threads, "
        f"{args.repeats} x {args.duration:g} s per phase, {args.states} states"
    )
    print(f"{'rpc':<14}{'calls/s median (min-max)':<26}{'p50 ms':>9}{'p99 ms':>9}{'server CPU us/call (min-max)':>30}")
    medians = {}
    for name, phases in results.items():
        rates = [phase.calls_per_second for phase in phases]
        median = statistics.median(rates)
        p50 = statistics.median(phase.p50_ms for phase in phases)
        p99 = statistics.median(phase.p99_ms for phase in phases)
        cpus = [phase.server_cpu_us for phase in phases]
        medians[name] = median
        spread = f"{median:.0f} ({min(rates):.0f}-{max(rates):.0f})"
        cpu = f"{statistics.median(cpus):.0f} ({min(cpus):.0f}-{max(cpus):.0f})"
        print(f"{name:<14}{spread:<26}{p50:>9.3f}{p99:>9.3f}{cpu:>30}")
    for name, target in (("apply", TARGET_RATIO), ("sealed", SEALED_TARGET_RATIO)):
        ratio = medians[name] / medians["echo"]
        pairs = [mine.calls_per_second / echo.calls_per_second for echo, mine in zip(results["echo"], results[name])]
        verdict = "meets" if ratio >= target else "BELOW"
        print(
            f"ratio {name}/echo: {ratio:.2f} ({verdict} the {target:.0%} target); per repeat: "
            f"{' '.join(f'{pair:.2f}' for pair in pairs)} (min {min(pairs):.2f}, max {max(pairs):.2f})"
        )
    print(f"ratio sealed/apply: {medians['sealed'] / medians['apply']:.2f}")
    # The seat-key check's share of a sealed ApplyAction's server CPU, from each repeat's pair of phases.
    shares = [
        1 - unchecked.server_cpu_us / checked.server_cpu_us
        for checked, unchecked in zip(results["sealed"], results["sealed-nokeys"])
    ]
    print(
        f"seat-key check, share of sealed server CPU per call: {statistics.median(shares):+.1%} "
        f"({min(shares):+.1%} to {max(shares):+.1%}) (sealed vs sealed-nokeys, per repeat)"
    )
    # Other work on the machine shifts both figures: a high load average means a noisy run.
    print(f"load average (1 min) before/after: {load[0]:.1f}/{load[1]:.1f} on {os.cpu_count()} CPUs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
