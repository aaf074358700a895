"""ReplayGame's CPU per action against the bare moves, side by side in one run.

Phases, each replaying the same action logs of random games (2-4 players, base game and each
module), interleaved round by round (their order rotating), timed in CPU time:

- ``moves``: the rules core alone, ``new_game`` then ``apply`` on each action (the floor);
- ``handler``: the ReplayGame API function called in-process: with events and without state digests,
  with both, and with neither (``bare``: ``skip_events`` and ``skip_state_digests``);
- ``grpc``: the same requests through a loopback gRPC server in this process (client and server
  CPU together: the framing of a response of every event is part of it).

The service converts actions through a per-process cache (games repeat most of them). Before each
timed run it is emptied and filled again by replaying other games (as many, another seed), so no
phase is timed on games the cache already holds: a server that has seen other games, never these.

Prints, per phase, the CPU per action as median (min-max) over the rounds, and each phase's
ratio to ``moves`` (the issue's target: a replay costs at most 1.5x the moves).

    python benchmarks/replay_bench.py [--rounds 5] [--games 3]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from concurrent import futures
from pathlib import Path

import grpc

# Run from a checkout without installing; appended, so that a compiled core put first on PYTHONPATH
# (`make compiled`, then PYTHONPATH=build/compiled-core) is the one measured.
sys.path.append(str(Path(__file__).resolve().parent.parent))

from splendor.v1 import engine_service_pb2

from engine_service.api import Call
from engine_service.api.config import default_config
from engine_service.api.replay import replay_game
from engine_service.codec import action_to_proto, fill_config
from engine_service.codec.action_cache import ACTIONS
from engine_service.rules import Action, GameConfig, apply, legal_actions, new_game
from engine_service.rules import engine as rules_engine
from engine_service.server.service import add_engine_service

MODULE_SETS = (
    frozenset(),
    frozenset({"cities"}),
    frozenset({"trading_posts"}),
    frozenset({"strongholds"}),
    frozenset({"orient"}),
)


def random_logs(games: int, seed: int) -> list[tuple[GameConfig, list[Action]]]:
    """``games`` random games of each module set and player count, played to their end."""
    rng = random.Random(seed)
    logs = []
    for modules in MODULE_SETS:
        for players in (2, 3, 4):
            for _ in range(games):
                config = GameConfig(players, rng.randrange(1 << 32), modules=modules)
                state, _ = new_game(config)
                actions: list[Action] = []
                while state.end_reason is None and len(actions) < 2000:
                    action = rng.choice(legal_actions(state))
                    actions.append(action)
                    state, _ = apply(state, action)
                logs.append((config, actions))
    return logs


def requests_of(logs: list[tuple[GameConfig, list[Action]]], digests: bool, events: bool = True) -> list[bytes]:
    out = []
    for config, actions in logs:
        request = engine_service_pb2.ReplayGameRequest(skip_state_digests=not digests, skip_events=not events)
        fill_config(request.config, config)
        request.actions.extend([action_to_proto(action) for action in actions])
        out.append(request.SerializeToString())
    return out


def moves(logs: list[tuple[GameConfig, list[Action]]]) -> Callable[[], None]:
    def run() -> None:
        for config, actions in logs:
            state, _ = new_game(config)
            for action in actions:
                state, _ = apply(state, action)

    return run


def handler(requests: list[bytes]) -> Callable[[], None]:
    """The API function on the parsed request, its response serialized: what the server's handler does."""

    def run() -> None:
        for data in requests:
            replay_game(engine_service_pb2.ReplayGameRequest.FromString(data), Call("ReplayGame")).SerializeToString()

    return run


def caches_warmed_on(other_games: list[bytes]) -> None:
    """The process's action cache as a server's that replayed ``other_games`` and nothing else."""
    ACTIONS.clear()
    handler(other_games)()


def through_grpc(channel: grpc.Channel, requests: list[bytes]) -> Callable[[], None]:
    call = channel.unary_unary("/splendor.v1.EngineService/ReplayGame")

    def run() -> None:
        for data in requests:
            call(data, timeout=60)

    return run


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=5, help="rounds of every phase")
    parser.add_argument("--games", type=int, default=3, help="games of each module set and player count")
    args = parser.parse_args()

    logs = random_logs(args.games, seed=17)
    count = sum(len(actions) for _, actions in logs)
    plain, digested = requests_of(logs, digests=False), requests_of(logs, digests=True)
    bare = requests_of(logs, digests=False, events=False)
    other_games = requests_of(random_logs(args.games, seed=18), digests=False)
    server = grpc.server(
        futures.ThreadPoolExecutor(max_workers=1), options=[("grpc.max_send_message_length", 64 << 20)]
    )
    add_engine_service(server, default_config())
    port = server.add_insecure_port("127.0.0.1:0")
    server.start()
    channel = grpc.insecure_channel(f"127.0.0.1:{port}", options=[("grpc.max_receive_message_length", 64 << 20)])
    phases: list[tuple[str, Callable[[], None]]] = [
        ("moves", moves(logs)),
        ("handler", handler(plain)),
        ("handler+digests", handler(digested)),
        ("handler bare", handler(bare)),
        ("grpc", through_grpc(channel, plain)),
        ("grpc+digests", through_grpc(channel, digested)),
        ("grpc bare", through_grpc(channel, bare)),
    ]
    try:
        for _, run in phases:  # warm-up, and every phase must work before it is timed
            run()
        per_action: dict[str, list[float]] = {name: [] for name, _ in phases}
        for round_ in range(args.rounds):
            shift = round_ % len(phases)
            for name, run in phases[shift:] + phases[:shift]:
                caches_warmed_on(other_games)
                began = time.process_time()
                run()
                per_action[name].append((time.process_time() - began) / count * 1e6)
    finally:
        channel.close()
        server.stop(0).wait()
    core = "pure-Python core" if rules_engine.__file__.endswith(".py") else "compiled core"
    print(f"ReplayGame vs the bare moves: {len(logs)} games, {count} actions, {args.rounds} rounds, CPU time, {core}")
    print(f"{'phase':<18}{'us/action median (min-max)':<30}{'x moves (min-max)':>20}")
    floor = per_action["moves"]
    for name, values in per_action.items():
        ratios = [value / base for value, base in zip(values, floor)]
        spread = f"{statistics.median(values):.1f} ({min(values):.1f}-{max(values):.1f})"
        ratio = f"{statistics.median(ratios):.2f} ({min(ratios):.2f}-{max(ratios):.2f})"
        print(f"{name:<18}{spread:<30}{ratio:>20}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
