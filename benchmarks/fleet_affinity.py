"""Round robin against affinity: 3 replicas behind the shipped nginx configuration, side by side in one run.

Bots play sealed games of 2, 3 and 4 players (a third each) through nginx, each move the mix a platform
makes: the acting seat lists its legal actions and applies one, then every other seat gets its view of
the new position; a game dealt when one ends. Phases alternate, their order swapped each round:

- **round robin**: the calls carry no routing key, so nginx spreads them over the replicas and a game's
  next call meets the replica that served its previous one 1 time in 3;
- **affinity**: every call about a game carries its id (``splendor-game-id``, as the clients send it),
  which nginx hashes on (``hash ... consistent``): a game's calls all meet one replica, whose memo of
  states already checked knows the token the previous call wrote.

Per phase: the replicas' server CPU per call (their CPU time over the calls they handled, from /proc and
their metrics), the memo's hit rate on tokens (``splendor_state_memo_lookups_total``), the calls' p50 and
p99 as the bots saw them (through nginx) and calls/s. The report gives each as median (min-max) over the
rounds, and affinity's ratio to round robin round by round. Run with the compiled core, as replicas run::

    make bench-affinity        # PYTHONPATH=build/compiled-core .venv/bin/python -P benchmarks/fleet_affinity.py

The bots share the machine with the replicas and nginx: calls/s and latency are the machine's, not a
replica's; server CPU per call and the hit rate are what carries to other hardware.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import grpc
from splendor.v1 import config_pb2, engine_service_pb2, engine_service_pb2_grpc

# The checkout after whatever comes first on the path (a compiled core, which the replicas inherit).
sys.path.append(str(Path(__file__).resolve().parent.parent))

from engine_service.sealing import new_key_line
from tests.fleet.proxy import Nginx
from tests.fleet.replicas import Replica, Samples, value

ENGINE = "splendor.v1.EngineService"
ROUTING_KEY = "splendor-game-id"
MODES = ("round robin", "affinity")


@dataclass
class Game:
    token: bytes
    keys: list[str]
    acting: int
    game_id: str


@dataclass
class Bots:
    """Threads playing games through one address; ``affinity`` decides whether calls carry the game id."""

    address: str
    threads: int
    games_per_thread: int
    affinity: bool = False
    latencies: list[float] = field(default_factory=list)
    stop: threading.Event = field(default_factory=threading.Event)
    errors: list[str] = field(default_factory=list)

    def run(self) -> list[threading.Thread]:
        workers = [threading.Thread(target=self._play, args=(n,), daemon=True) for n in range(self.threads)]
        for worker in workers:
            worker.start()
        return workers

    def take_latencies(self) -> list[float]:
        taken, self.latencies = self.latencies, []
        return taken

    def _call(self, method: Any, request: Any, game_id: str) -> Any:
        metadata = ((ROUTING_KEY, game_id),) if self.affinity and game_id else None
        began = time.perf_counter()
        response = method(request, timeout=30, metadata=metadata)
        self.latencies.append(time.perf_counter() - began)
        return response

    def _deal(self, engine: Any, rng: random.Random) -> Game:
        config = config_pb2.GameConfig(num_players=rng.choice((2, 3, 4)))
        dealt = self._call(engine.CreateGame, engine_service_pb2.CreateGameRequest(config=config, sealed=True), "")
        return Game(dealt.sealed_state, list(dealt.seat_keys), _acting(dealt.view), dealt.sealed_state_binding.game_id)

    def _move(self, engine: Any, game: Game, rng: random.Random) -> bool:
        """One move and every other seat's view of it; False once the game is over."""
        seat, key = game.acting, game.keys[game.acting]
        ask = engine_service_pb2.ListLegalActionsRequest(sealed_state=game.token, seat=seat, seat_key=key)
        legal = self._call(engine.ListLegalActions, ask, game.game_id).actions
        act = engine_service_pb2.ApplyActionRequest(
            sealed_state=game.token, action=rng.choice(legal).action, seat=seat, seat_key=key
        )
        applied = self._call(engine.ApplyAction, act, game.game_id)
        game.token, game.acting = applied.sealed_state, _acting(applied.view)
        for other in range(len(game.keys)):
            if other != seat:
                look = engine_service_pb2.GetPlayerViewRequest(
                    sealed_state=game.token, seat=other, seat_key=game.keys[other]
                )
                self._call(engine.GetPlayerView, look, game.game_id)
        return not applied.view.end_reason

    def _play(self, number: int) -> None:
        rng = random.Random(number)
        with grpc.insecure_channel(self.address) as channel:
            engine = engine_service_pb2_grpc.EngineServiceStub(channel)
            games = [self._deal(engine, rng) for _ in range(self.games_per_thread)]
            while not self.stop.is_set():
                for index, game in enumerate(games):
                    try:
                        if not self._move(engine, game, rng):
                            games[index] = self._deal(engine, rng)
                    except grpc.RpcError as error:
                        self.errors.append(f"{error.code().name}: {error.details()}")
                        games[index] = self._deal(engine, rng)


def _acting(view: Any) -> int:
    return int(view.pending_decision.seat if view.HasField("pending_decision") else view.seat)


@dataclass
class Reading:
    """The replicas' counters at one moment."""

    cpu: float
    calls: float
    token_hits: float
    token_misses: float

    @classmethod
    def of(cls, replicas: Sequence[Replica]) -> Reading:
        samples: list[Samples] = [replica.scrape() for replica in replicas]
        return cls(
            cpu=sum(replica.cpu_seconds() for replica in replicas),
            calls=sum(value(s, "grpc_server_handled_total", grpc_service=ENGINE) for s in samples),
            token_hits=sum(value(s, "splendor_state_memo_lookups_total", kind="token", result="hit") for s in samples),
            token_misses=sum(
                value(s, "splendor_state_memo_lookups_total", kind="token", result="miss") for s in samples
            ),
        )


def phase(bots: Bots, replicas: Sequence[Replica], mode: str, seconds: float, settle: float) -> dict[str, float]:
    bots.affinity = mode == "affinity"
    time.sleep(settle)  # every game's next call meets the new routing before the phase counts
    bots.take_latencies()
    before, began = Reading.of(replicas), time.monotonic()
    time.sleep(seconds)
    after, elapsed = Reading.of(replicas), time.monotonic() - began
    latencies = sorted(bots.take_latencies())
    calls = after.calls - before.calls
    lookups = (after.token_hits - before.token_hits) + (after.token_misses - before.token_misses)
    return {
        "cpu_us_per_call": (after.cpu - before.cpu) / calls * 1e6,
        "token_hit_rate": (after.token_hits - before.token_hits) / lookups,
        "p50_ms": latencies[len(latencies) // 2] * 1e3,
        "p99_ms": latencies[int(len(latencies) * 0.99)] * 1e3,
        "calls_per_s": calls / elapsed,
    }


def spread(values: Sequence[float], digits: int) -> str:
    return f"{statistics.median(values):,.{digits}f} ({min(values):,.{digits}f}-{max(values):,.{digits}f})"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=8.0, help="length of each phase")
    parser.add_argument("--settle", type=float, default=1.5, help="wait after switching modes")
    parser.add_argument("--threads", type=int, default=8)
    parser.add_argument("--games-per-thread", type=int, default=6)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    root = Path(tempfile.mkdtemp(prefix="splendor-affinity-"))
    keys = root / "keys"
    keys.write_text(new_key_line("bench") + "\n", encoding="utf-8")
    replicas = [Replica(f"engine-{n}", keys, log_dir=root, read_logs=False) for n in range(1, 4)]
    nginx = None
    results: dict[str, list[dict[str, float]]] = {mode: [] for mode in MODES}
    load = os.getloadavg()
    try:
        for replica in replicas:
            replica.start()
        core = {
            dict(labels)["core"] for (name, labels), _ in replicas[0].scrape().items() if name == "splendor_engine_info"
        }
        nginx = Nginx(root / "nginx", [r.grpc_address for r in replicas], [r.http_address for r in replicas])
        bots = Bots(nginx.grpc_address, args.threads, args.games_per_thread)
        workers = bots.run()
        time.sleep(args.settle)
        for number in range(args.rounds):
            order = MODES if number % 2 == 0 else MODES[::-1]
            for mode in order:
                results[mode].append(phase(bots, replicas, mode, args.seconds, args.settle))
        bots.stop.set()
        for worker in workers:
            worker.join(timeout=30)
    finally:
        if nginx is not None:
            nginx.stop()
        for replica in replicas:
            replica.stop()
    load = (*load, *os.getloadavg())
    ratios = {
        "cpu_us_per_call": [
            a["cpu_us_per_call"] / r["cpu_us_per_call"]
            for a, r in zip(results["affinity"], results["round robin"], strict=True)
        ],
        "p99_ms": [a["p99_ms"] / r["p99_ms"] for a, r in zip(results["affinity"], results["round robin"], strict=True)],
        "calls_per_s": [
            a["calls_per_s"] / r["calls_per_s"]
            for a, r in zip(results["affinity"], results["round robin"], strict=True)
        ],
    }
    if args.json:
        print(
            json.dumps(
                {"core": sorted(core), "results": results, "ratios": ratios, "errors": bots.errors[:5]}, indent=2
            )
        )
        return 1 if bots.errors else 0
    print(f"core: {', '.join(sorted(core))}; {args.rounds} rounds of {args.seconds:g} s a mode; load average before "
          f"{load[0]:.1f}, after {load[3]:.1f}; errors: {len(bots.errors)}")  # fmt: skip
    print("| routing | server CPU µs/call | memo hits (tokens) | p50 ms | p99 ms | calls/s |")
    print("| --- | --- | --- | --- | --- | --- |")
    for mode in MODES:
        rows = results[mode]
        print(
            f"| {mode} | {spread([r['cpu_us_per_call'] for r in rows], 0)} | "
            f"{spread([r['token_hit_rate'] * 100 for r in rows], 0)} % | {spread([r['p50_ms'] for r in rows], 1)} | "
            f"{spread([r['p99_ms'] for r in rows], 1)} | {spread([r['calls_per_s'] for r in rows], 0)} |"
        )
    print(
        f"affinity / round robin, round by round: server CPU per call {spread(ratios['cpu_us_per_call'], 2)}, "
        f"p99 {spread(ratios['p99_ms'], 2)}, calls/s {spread(ratios['calls_per_s'], 2)}"
    )
    return 1 if bots.errors else 0


if __name__ == "__main__":
    raise SystemExit(main())
