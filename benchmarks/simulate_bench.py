"""Steps per second of random playouts: through the Simulate RPC against the rules core in this process, one run.

Both play random playouts from the same freshly dealt 2-player games: in-process with
``legal_actions`` + a uniform choice + ``apply``; remotely with one Simulate call of
``--playouts`` playouts (policy ``random``) to a server in its own process. Interleaved
round by round; steps/s by wall-clock time; median, min and max over the rounds, and the
ratio Simulate/core (the goal is at least 0.5).

Also the cost of ReplayGame per action against the moves themselves: one game's log replayed
with state digests, without (skip_state_digests), and the moves alone in this process.

    python benchmarks/simulate_bench.py [--rounds 5] [--playouts 40]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run from a checkout without installing

from splendor.v1 import bots_pb2, engine_service_pb2

from benchmarks.bench_server import BenchServer
from engine_service.codec import action_to_proto, config_from_proto, state_to_proto
from engine_service.rules import GameConfig, GameState, apply, legal_actions, new_game


def core_steps_per_second(state: GameState, playouts: int, seed: int) -> float:
    rng = random.Random(seed)
    steps = 0
    start = time.perf_counter()
    for _ in range(playouts):
        current = state
        while current.end_reason is None:
            actions = legal_actions(current)
            current = apply(current, actions[rng.randrange(len(actions))])[0]
            steps += 1
    return steps / (time.perf_counter() - start)


def simulate_steps_per_second(server: BenchServer, state: GameState, playouts: int, seed: int) -> float:
    request = engine_service_pb2.SimulateRequest(state=state_to_proto(state), playouts=playouts, seed=seed)
    request.policies.append(bots_pb2.BotChoice(policy="random"))
    start = time.perf_counter()
    response = server.client.simulate(request)
    return response.summary.total_actions / (time.perf_counter() - start)


def replay_seconds_per_action(server: BenchServer, seed: int) -> tuple[float, float, float]:
    """(with digests, without, the moves alone in-process), seconds per action of one random game."""
    config = GameConfig(2, seed)
    state = new_game(config)[0]
    rng = random.Random(seed)
    actions = []
    while state.end_reason is None:
        legal = legal_actions(state)
        action = legal[rng.randrange(len(legal))]
        actions.append(action)
        state = apply(state, action)[0]
    request = engine_service_pb2.ReplayGameRequest(actions=[action_to_proto(a) for a in actions])
    request.config.num_players, request.config.seed = 2, seed
    stub = server.client._stub
    timings = []
    for skip in (False, True):
        request.skip_state_digests = skip
        start = time.perf_counter()
        stub.ReplayGame(request)
        timings.append((time.perf_counter() - start) / len(actions))
    start = time.perf_counter()
    state = new_game(config_from_proto(request.config))[0]
    for action in actions:
        state = apply(state, action)[0]
    timings.append((time.perf_counter() - start) / len(actions))
    return timings[0], timings[1], timings[2]


def summary(values: list[float], unit: str = "", scale: float = 1.0) -> str:
    scaled = [value * scale for value in values]
    return f"median {statistics.median(scaled):9.1f}{unit}  min {min(scaled):9.1f}  max {max(scaled):9.1f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--playouts", type=int, default=40)
    args = parser.parse_args()
    core: list[float] = []
    remote: list[float] = []
    replays: list[tuple[float, float, float]] = []
    with BenchServer() as server:
        start = new_game(GameConfig(2, 99))[0]
        simulate_steps_per_second(server, start, 2, 0)  # warm-up
        for round_index in range(args.rounds):
            state = new_game(GameConfig(2, round_index))[0]
            core.append(core_steps_per_second(state, args.playouts, round_index))
            remote.append(simulate_steps_per_second(server, state, args.playouts, round_index))
            replays.append(replay_seconds_per_action(server, round_index))
    print(f"rules core  steps/s {summary(core)}")
    print(f"Simulate    steps/s {summary(remote)}")
    print(f"ratio Simulate/core {summary([r / c for r, c in zip(remote, core)], scale=1.0)}")
    with_digests, without, moves = zip(*replays)
    print(f"ReplayGame with digests    µs/action {summary(list(with_digests), scale=1e6)}")
    print(f"ReplayGame skip digests    µs/action {summary(list(without), scale=1e6)}")
    print(f"moves alone (in-process)   µs/action {summary(list(moves), scale=1e6)}")
    print(f"ratio with digests / moves  {summary([a / m for a, m in zip(with_digests, moves)])}")
    print(f"ratio skip digests / moves  {summary([b / m for b, m in zip(without, moves)])}")


if __name__ == "__main__":
    main()
