"""What a Gymnasium env step costs next to a bare rules-core step, in-process and remote, measured side by side.

    python benchmarks/env_bench.py [--module cities] [--players 2] [--steps 3000] [--remote-steps 1000]
                                   [--repeats 5] [--action-ids ruleset] [--batch-sizes 1,8,64,256] [--no-remote]
    python benchmarks/env_bench.py --against <commit> [--repeats 7] [--steps 6000] [--games 20]

The loops below run within each repeat (their order rotating from one repeat to the next),
each timed in CPU time:

- **core**: random games on the rules core, one step = ``legal_actions`` + ``apply``
  (what any bot or learner loop needs at the least);
- **in-process**: ``SplendorEnv`` on the core in this process (random opponents), one
  step = ``env.step`` (the learner's move, the opponents' moves, the next observation
  and mask) and, at an episode's end, ``env.reset``; the learner's random pick from the
  mask is left out of the timing (the core loop's pick is a ``randrange``);
- **remote**: the same env against a real engine this script starts on a loopback port
  (``python -m engine_service.cli serve --address 127.0.0.1:0``, the core it runs is the
  one this script imports: the same ``PYTHONPATH``; one process with its default handler
  threads, its access log on as deployed, no /metrics nor HTTP listener; the env speaks
  gRPC to it). Timed twice: the client's CPU
  (``time.process_time``, gRPC's threads included) and the client's plus the server
  process's (its threads' scheduler times, read before and after the loop); with ``--same-cpu``
  this process and the server share one CPU (``bench_server.share_one_cpu``: why);
- **remote xN**, for each batch size N of ``--batch-sizes``: ``SplendorVectorEnv`` of N games
  against the same server, one ``BatchApplyActions`` call a round (the learners' moves, then the
  opponents'); a step of it is N env steps, and it runs at least ``--remote-steps`` env steps
  and 8 vector steps. Timed like ``remote``, per env step (the N learners' random picks from
  their masks left out).

Printed per repeat and as median (min-max) over the repeats: microseconds per step and
env steps per CPU-second of each loop, the ratio of each env step to a core step, and
that ratio per core step the env step contains (an env step plays the learner's action
and every opponent's until the learner acts again, so a 2-player env step holds about two
core steps). Other work on the machine shifts every figure alike, the ratios least: the
report ends with the load average.

``--against <commit>`` compares the in-process paths of the working tree with an earlier
commit's, side by side: the commit is exported (``git archive``, as
``compare_commits.py`` does) and each repeat runs, once in each tree (alternating which
goes first), a fresh process that measures a core step, an in-process env step (as
above) and an in-process tournament game's CPU per action (``random`` against
``random``, ``splendor_client.tournament_games.play_game``). Printed: the working tree's
figure over the earlier one's, median (min-max) over the repeats; the env step also
relative to the core step of its own process.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import partial
from pathlib import Path

import numpy as np

# Appended, not prepended: a compiled core on PYTHONPATH (scripts/build_compiled_core.py) takes precedence.
sys.path.append(str(Path(__file__).resolve().parent.parent))

from splendor_client.envs import SplendorEnv, SplendorVectorEnv

from benchmarks.bench_server import share_one_cpu
from benchmarks.compare_commits import export
from benchmarks.load_phase import process_cpu_seconds
from engine_service.core_info import core_kind
from engine_service.rules import GameConfig, apply, legal_actions, new_game

ROOT = Path(__file__).resolve().parent.parent
# One tree's in-process figures (--against), run in a fresh process with that tree first on the path.
TREE_SNIPPET = """
import json, sys, time
tree = sys.argv[1]
sys.path[:0] = [tree + "/clients/python/src", tree + "/clients/python-proto/src", tree]  # stubs: either layout
from benchmarks.env_bench import core_steps, env_steps, no_server
from splendor_client.envs import SplendorEnv
from splendor_client.tournament_games import play_game, schedule
steps, games, seed = int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
env = SplendorEnv()
env_steps(env, 500, 0, no_server)  # warm caches
core = core_steps(steps, 2, frozenset(), seed)
env_step = env_steps(env, steps, seed, no_server)[0]
start, actions = time.process_time(), 0
for spec in schedule(["a", "b"], ["random", "random"], games, seed):
    actions += play_game(spec).actions
game_action = (time.process_time() - start) / actions
print(json.dumps({"core step": core, "env step": env_step, "tournament action": game_action}))
"""


def core_steps(steps: int, players: int, modules: frozenset[str], seed: int) -> float:
    """CPU seconds per core step over ``steps`` steps of random games."""
    rng = random.Random(seed)
    state = new_game(GameConfig(players, seed, modules=modules))[0]
    start = time.process_time()
    for _ in range(steps):
        if state.end_reason is not None:
            state = new_game(GameConfig(players, rng.getrandbits(32), modules=modules))[0]
        actions = legal_actions(state)
        state = apply(state, actions[rng.randrange(len(actions))])[0]
    return (time.process_time() - start) / steps


def env_steps(env: SplendorEnv, steps: int, seed: int, server_cpu: Callable[[], float]) -> tuple[float, float, float]:
    """CPU seconds per env step of this process and of the server's (``server_cpu``), and core steps per env step."""
    rng = np.random.default_rng(seed)
    observation, _ = env.reset(seed=seed)
    applied = -env.game.applied  # the opponents' moves before the learner's first
    elapsed = 0.0
    server_before = server_cpu()
    for _ in range(steps):
        legal = np.flatnonzero(observation["action_mask"])
        action = int(legal[rng.integers(len(legal))])
        start = time.process_time()
        observation, _, terminated, truncated, _ = env.step(action)
        if terminated or truncated:
            applied += env.game.applied
            observation, _ = env.reset()
            applied -= env.game.applied
        elapsed += time.process_time() - start
    server = server_cpu() - server_before
    applied += env.game.applied
    return elapsed / steps, server / steps, applied / steps


class VectorLoop:
    """A vector of games that plays on from one measurement to the next (its games dealt again as they end)."""

    def __init__(self, envs: SplendorVectorEnv) -> None:
        self.envs = envs
        self.observations = envs.reset(seed=0)[0]

    def steps(self, steps: int, seed: int, server_cpu: Callable[[], float]) -> tuple[float, float]:
        """CPU seconds per env step of this process and of the server's, over at least ``steps`` env steps and
        8 vector steps (one vector step is ``num_envs`` env steps)."""
        rng = np.random.default_rng(seed)
        count = self.envs.num_envs
        rounds = max(8, -(-steps // count))
        observations = self.observations
        elapsed = 0.0
        server_before = server_cpu()
        for _ in range(rounds):
            actions = np.array([rng.choice(np.flatnonzero(mask)) for mask in observations["action_mask"]])
            start = time.process_time()
            observations = self.envs.step(actions)[0]
            elapsed += time.process_time() - start
        server = server_cpu() - server_before
        self.observations = observations
        return elapsed / (rounds * count), server / (rounds * count)


def no_server() -> float:
    return 0.0


def process_cpu(pid: int) -> Callable[[], float]:
    """The CPU seconds (every thread) a process has used so far (``load_phase.process_cpu_seconds``)."""
    return partial(process_cpu_seconds, pid)


@contextmanager
def engine_server() -> Iterator[tuple[str, int, str]]:
    """A real engine on a loopback port, running the core this process imports: (address, pid, its core)."""
    path = os.pathsep.join(part for part in (os.environ.get("PYTHONPATH", ""), str(ROOT)) if part)
    command = [
        sys.executable,
        "-P",
        "-m",
        "engine_service.cli",
        "serve",
        "--address",
        "127.0.0.1:0",
        "--processes",
        "1",
    ]
    command += ["--http-address", "", "--metrics-port", "0", "--log-format", "json"]
    environment = {key: value for key, value in os.environ.items() if not key.startswith("SPLENDOR_")}
    environment.update({"PYTHONPATH": path, "PYTHONUNBUFFERED": "1"})
    process = subprocess.Popen(command, cwd=ROOT, env=environment, stdout=subprocess.PIPE, text=True)
    try:
        assert process.stdout is not None
        core = "?"
        for line in process.stdout:
            entry = json.loads(line)
            if entry.get("event") == "rules_core":
                core = entry["core"]
            if entry.get("event") == "server_started":
                break
        else:
            raise RuntimeError(f"the server exited ({process.wait()}) before it started")
        # Keep reading its log (one line per call) so a full pipe never blocks it.
        drain = threading.Thread(target=process.stdout.read, daemon=True)
        drain.start()
        try:
            yield entry["address"], entry["pid"], core
        finally:
            process.terminate()
            process.wait(30)
            drain.join(30)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


PHASES = ("core", "in-process", "remote client", "remote client+server")
BATCH_SIZES = (1, 8, 64, 256)


def vector_phases(size: int) -> tuple[str, str]:
    return f"remote x{size} client", f"remote x{size} client+server"


def phases(batch_sizes: tuple[int, ...]) -> list[str]:
    """Every phase's row name, in the report's order."""
    return [*PHASES, *(name for size in batch_sizes for name in vector_phases(size))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--module", default=None)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--steps", type=int, default=3000, help="steps of the core and in-process loops")
    parser.add_argument("--remote-steps", type=int, default=1000, help="steps of the remote loop")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--action-ids", default="all", choices=["all", "ruleset"])
    parser.add_argument("--no-remote", action="store_true", help="skip the remote loops (no server)")
    parser.add_argument(
        "--batch-sizes",
        type=lambda text: tuple(int(size) for size in text.split(",") if size),
        default=BATCH_SIZES,
        help="games of each remote vector environment, comma-separated (default: 1,8,64,256; empty: none)",
    )
    parser.add_argument("--against", metavar="COMMIT", help="compare the in-process paths with this commit's")
    parser.add_argument("--games", type=int, default=20, help="--against: tournament games per repeat")
    parser.add_argument("--same-cpu", action="store_true", help="this process and the server on one CPU")
    args = parser.parse_args()
    if args.same_cpu:
        print(f"on CPU {share_one_cpu()} alone, with the server")
    if args.against:
        compare_against(args)
        return
    load_before = os.getloadavg()[0]
    with engine_server() if not args.no_remote else _nothing() as server:
        rows = measure(args, server)
    report(args, rows, (load_before, os.getloadavg()[0]), server)


@contextmanager
def _nothing() -> Iterator[None]:
    yield None


def measure(args: argparse.Namespace, server: tuple[str, int, str] | None) -> list[dict[str, tuple[float, float]]]:
    """Per repeat: each phase's (CPU seconds per step, core steps per step)."""
    modules = frozenset() if args.module is None else frozenset({args.module})
    options = {"num_players": args.players, "module": args.module, "action_ids": args.action_ids}
    local = SplendorEnv(**options)
    remote = SplendorEnv(**options, address=server[0]) if server is not None else None
    sizes = args.batch_sizes if server is not None else ()
    address = server[0] if server is not None else ""
    vectors = {size: VectorLoop(SplendorVectorEnv(size, **options, address=address)) for size in sizes}
    server_cpu = process_cpu(server[1]) if server is not None else no_server
    core_steps(500, args.players, modules, 0)  # warm caches (and the connection) before the first timed repeat
    env_steps(local, 500, 0, no_server)
    if remote is not None:
        env_steps(remote, 200, 0, server_cpu)
    for vector in vectors.values():
        vector.steps(200, 0, server_cpu)
    rows = []
    for repeat in range(args.repeats):
        seed = repeat + 1
        row: dict[str, tuple[float, float]] = {}

        def run_core(seed: int = seed, row: dict[str, tuple[float, float]] = row) -> None:
            row["core"] = (core_steps(args.steps, args.players, modules, seed), 1.0)

        def run_local(seed: int = seed, row: dict[str, tuple[float, float]] = row) -> None:
            step, _, held = env_steps(local, args.steps, seed, no_server)
            row["in-process"] = (step, held)

        def run_remote(seed: int = seed, row: dict[str, tuple[float, float]] = row) -> None:
            assert remote is not None
            step, on_server, held = env_steps(remote, args.remote_steps, seed, server_cpu)
            row["remote client"] = (step, held)
            row["remote client+server"] = (step + on_server, held)

        vector_cpu: dict[int, tuple[float, float]] = {}

        def run_vector(size: int, seed: int = seed, measured: dict[int, tuple[float, float]] = vector_cpu) -> None:
            measured[size] = vectors[size].steps(args.remote_steps, seed, server_cpu)

        loops: list[Callable[[], None]] = [run_core, run_local] + ([run_remote] if remote is not None else [])
        loops += [partial(run_vector, size) for size in vectors]
        for index in range(len(loops)):
            loops[(index + repeat) % len(loops)]()
        held = row["in-process"][1]  # a vector plays as the in-process env does: its core steps per env step
        for size, (step, on_server) in vector_cpu.items():
            client, both = vector_phases(size)
            row[client] = (step, held)
            row[both] = (step + on_server, held)
        rows.append(row)
        core = row["core"][0]
        cells = [
            f"{name} {row[name][0] * 1e6:.1f} us ({row[name][0] / core:.2f}x)"
            for name in phases(tuple(vectors))
            if name in row
        ]
        print(f"repeat {seed}: " + ", ".join(cells), flush=True)
    local.close()
    if remote is not None:
        remote.close()
    for vector in vectors.values():
        vector.envs.close()
    return rows


def report(
    args: argparse.Namespace,
    rows: list[dict[str, tuple[float, float]]],
    load: tuple[float, float],
    server: tuple[str, int, str] | None,
) -> None:
    def spread(values: list[float], digits: int = 2) -> str:
        return f"{statistics.median(values):.{digits}f} ({min(values):.{digits}f}-{max(values):.{digits}f})"

    print(
        f"ruleset {args.module or 'base'}/{args.players}p, action ids {args.action_ids}, {args.repeats} repeats of "
        f"{args.steps} core and in-process steps, {args.remote_steps} remote steps; core {core_kind()} "
        f"(server: {server[2] if server is not None else 'none'}); median (min-max)"
    )
    header = f"  {'phase':<28} {'us/step':>24} {'steps/CPU-s':>26} {'x core step':>22} {'x per core step held':>22}"
    print(header + f" {'share of in-process':>22}")
    for name in phases(args.batch_sizes):
        if name not in rows[0]:
            continue
        seconds = [row[name][0] for row in rows]
        ratios = [row[name][0] / row["core"][0] for row in rows]
        held = [row[name][0] / row["core"][0] / row[name][1] for row in rows]
        # Steps per CPU-second as a share of the in-process env's, repeat by repeat.
        share = [row["in-process"][0] / row[name][0] for row in rows]
        print(
            f"  {name:<28} {spread([s * 1e6 for s in seconds], 1):>24} {spread([1 / s for s in seconds], 0):>26} "
            f"{spread(ratios):>22} {spread(held):>22} {spread(share, 3):>22}"
        )
    steps_held = [row["in-process"][1] for row in rows]
    print(f"  core steps per env step: {spread(steps_held)} (a remote vector's: the in-process env's, the same play)")
    print(f"load average (1 min) before/after: {load[0]:.1f}/{load[1]:.1f} on {os.cpu_count()} CPUs")


def compare_against(args: argparse.Namespace) -> None:
    """The working tree's in-process figures over ``args.against``'s, measured alternately in fresh processes."""

    def figures(tree: Path, seed: int) -> dict[str, float]:
        command = [sys.executable, "-c", TREE_SNIPPET, str(tree), str(args.steps), str(args.games), str(seed)]
        out = subprocess.run(command, cwd=tree, check=True, capture_output=True, text=True).stdout
        measured: dict[str, float] = json.loads(out.splitlines()[-1])
        measured["env step / core step"] = measured["env step"] / measured["core step"]
        return measured

    load_before = os.getloadavg()[0]
    ratios: dict[str, list[float]] = {}
    with tempfile.TemporaryDirectory() as scratch:
        earlier = export(args.against, Path(scratch))
        for repeat in range(args.repeats):
            trees = [("current", ROOT), ("earlier", earlier)]
            measured = {label: figures(tree, repeat + 1) for label, tree in trees[:: 1 if repeat % 2 == 0 else -1]}
            for key, value in measured["current"].items():
                ratios.setdefault(key, []).append(value / measured["earlier"][key])
            shown = ", ".join(
                f"{key} {value:.3g}/{measured['earlier'][key]:.3g}" for key, value in measured["current"].items()
            )
            print(f"repeat {repeat + 1}: current/earlier {shown}", flush=True)
    print(
        f"working tree / {args.against}: base/2p, {args.repeats} interleaved repeats of {args.steps} core and env "
        f"steps and {args.games} tournament games, CPU time; core {core_kind()}; median (min-max), lower is faster"
    )
    for key, values in ratios.items():
        print(f"  {key:<24} {statistics.median(values):.3f} ({min(values):.3f}-{max(values):.3f})")
    print(f"load average (1 min) before/after: {load_before:.1f}/{os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")


if __name__ == "__main__":
    main()
