"""The API's CPU per step of a bot loop: three calls a move against one, side by side in one run.

- ``three calls``: ListLegalActions, then ApplyAction, then GetPlayerView of the next seat (as splendor-play does);
- ``one call``: ApplyAction with include_legal_actions, whose response carries the next seat's legal
  actions and view.

Both play the same random games (same seeds, same choices) against one server in its own
process, interleaved round by round. Client CPU is this process's (time.process_time), server
CPU the server process's (/proc/<pid>/stat); both per step (move). Prints median, min and max
over the rounds, and the rules core's own time per step in this process for scale.

With ``--memo-off``, a second server checks every state in full (``--state-memo-entries 0``) and plays
the same games, interleaved: the memo's share of the server's CPU in play, where each call carries the
state the previous call returned.

    python benchmarks/bot_loop_bench.py [--rounds 5] [--games 4] [--memo-off]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run from a checkout without installing

from splendor.v1 import engine_service_pb2, state_pb2
from splendor_client import EngineClient

from benchmarks.bench_server import BenchServer
from engine_service.rules import GameConfig, apply, legal_actions, new_game

Loop = Callable[[EngineClient, state_pb2.GameState, random.Random], int]


def three_calls(client: EngineClient, state: state_pb2.GameState, rng: random.Random) -> int:
    steps = 0
    stub = client._stub
    while True:
        listed = stub.ListLegalActions(engine_service_pb2.ListLegalActionsRequest(state=state))
        if not listed.actions:
            return steps
        chosen = listed.actions[rng.randrange(len(listed.actions))]
        request = engine_service_pb2.ApplyActionRequest(state=state)
        request.action.action_id = chosen.action_id
        state = stub.ApplyAction(request).state
        stub.GetPlayerView(engine_service_pb2.GetPlayerViewRequest(state=state, seat=state.seat))
        steps += 1


def one_call(client: EngineClient, state: state_pb2.GameState, rng: random.Random) -> int:
    steps = 0
    stub = client._stub
    actions = list(stub.ListLegalActions(engine_service_pb2.ListLegalActionsRequest(state=state)).actions)
    while actions:
        chosen = actions[rng.randrange(len(actions))]
        request = engine_service_pb2.ApplyActionRequest(state=state, include_legal_actions=True)
        request.action.action_id = chosen.action_id
        response = stub.ApplyAction(request)
        state, actions = response.state, list(response.legal_actions)
        steps += 1
    return steps


def core_step_seconds(seeds: list[int]) -> float:
    steps = 0
    start = time.process_time()
    for seed in seeds:
        state = new_game(GameConfig(2, seed))[0]
        rng = random.Random(seed)
        while state.end_reason is None:
            actions = legal_actions(state)
            state = apply(state, actions[rng.randrange(len(actions))])[0]
            steps += 1
    return (time.process_time() - start) / steps


def measure(server: BenchServer, loop: Loop, seeds: list[int]) -> tuple[float, float]:
    """Client and server CPU seconds per step over the games of ``seeds``."""
    client_start, server_start = time.process_time(), server.cpu()
    steps = 0
    for seed in seeds:
        state = server.client.new_game(num_players=2, seed=seed).state
        steps += loop(server.client, state, random.Random(seed))
    return (time.process_time() - client_start) / steps, (server.cpu() - server_start) / steps


def summary(values: list[float]) -> str:
    micro = [value * 1e6 for value in values]
    return f"median {statistics.median(micro):7.0f} µs  min {min(micro):7.0f}  max {max(micro):7.0f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--games", type=int, default=4, help="games per loop and round")
    parser.add_argument("--memo-off", action="store_true", help="also a server without the memo, interleaved")
    args = parser.parse_args()
    loops: dict[str, Loop] = {"three calls": three_calls, "one call": one_call}
    servers = {"": BenchServer()}
    if args.memo_off:
        servers[", memo off"] = BenchServer(options=("--state-memo-entries", "0"))
    runs = [(name + suffix, loop, server) for suffix, server in servers.items() for name, loop in loops.items()]
    results: dict[str, tuple[list[float], list[float]]] = {name: ([], []) for name, _, _ in runs}
    core: list[float] = []
    try:
        for server in servers.values():
            measure(server, one_call, [0])  # warm-up
        for round_index in range(args.rounds):
            seeds = [round_index * 1000 + game for game in range(args.games)]
            shift = round_index % len(runs)  # rotate which goes first
            for name, loop, server in runs[shift:] + runs[:shift]:
                client_cpu, server_cpu = measure(server, loop, seeds)
                results[name][0].append(client_cpu)
                results[name][1].append(server_cpu)
            core.append(core_step_seconds(seeds))
    finally:
        for server in servers.values():
            server.__exit__()
    for name, (client_cpu, server_cpu) in results.items():
        print(f"{name:23s} client CPU/step {summary(client_cpu)}")
        print(f"{'':23s} server CPU/step {summary(server_cpu)}")
        print(f"{'':23s} total  CPU/step {summary([a + b for a, b in zip(client_cpu, server_cpu)])}")
    if args.memo_off:
        for name in loops:
            ratios = [on / off for on, off in zip(results[name][1], results[name + ", memo off"][1])]
            print(f"{name:23s} server CPU/step with the memo / without: x{ratio_summary(ratios)}")
    print(f"{'rules core':23s}        CPU/step {summary(core)}")


def ratio_summary(values: list[float]) -> str:
    return f"{statistics.median(values):.2f} ({min(values):.2f}-{max(values):.2f})"


if __name__ == "__main__":
    main()
