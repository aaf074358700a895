"""The working tree against an earlier commit, side by side in one run: rules core and service.

    python benchmarks/compare_commits.py --against <commit> [--rounds 5] [--suite engine service] [--compiled]

The earlier commit is exported (``git archive``) into a temporary directory, so
both trees run from source with the same virtual environment. Each round runs
every measurement once in each tree, alternating which goes first, so a change
in the machine's load hits both alike. Reported per measurement: the current
tree's figure over the earlier one's, median, min and max over the rounds.

* ``engine``: random legal play of the base game, or of ``--module``, (2, 3 and 4 players) with
  ``benchmarks/engine_bench.py``'s ``play_random_games``, as games per CPU
  second of the process (``time.process_time``: other load on the machine
  does not count).
* ``service``: ``benchmarks/service_bench.py`` (ApplyAction against an echo
  RPC), its ApplyAction calls/s and the server's CPU microseconds per call.

``--compiled`` (``engine`` only): each tree's rules core is first compiled with mypyc
(``scripts/build_compiled_core.py``, that tree's own, into a temporary directory; its
build cache makes an unchanged tree's build a copy) and the games run on it, as a
server runs them; the run stops if either tree's core is not the compiled one.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

ENGINE_SNIPPET = """
import sys, time
sys.path.insert(0, sys.argv[1])
if sys.argv[2]:  # the tree's compiled core, before its sources
    sys.path.insert(0, sys.argv[2])
    from engine_service.core_info import core_kind
    assert core_kind() == "compiled", core_kind()
from benchmarks.engine_bench import play_random_games
games = int(sys.argv[3])
modules = frozenset(sys.argv[4:])
total = 0.0
for players in (2, 3, 4):
    start = time.process_time()
    play_random_games(players, games, 7, modules)
    total += time.process_time() - start
print(3 * games / total)
"""


def engine_games_per_cpu_second(tree: Path, games: int, module: str | None, core: Path | None) -> dict[str, float]:
    command = [
        sys.executable,
        "-c",
        ENGINE_SNIPPET,
        str(tree),
        str(core or ""),
        str(games),
        *([module] if module else []),
    ]
    out = subprocess.run(command, check=True, capture_output=True, text=True)
    return {f"engine games per CPU s ({module or 'base game'})": float(out.stdout.strip())}


def service_figures(tree: Path, duration: float) -> dict[str, float]:
    command = [sys.executable, str(tree / "benchmarks" / "service_bench.py"), "--duration", str(duration)]
    out = subprocess.run([*command, "--repeats", "2"], check=True, capture_output=True, text=True).stdout
    apply = re.search(r"^apply\s+.*?\s(\d+)\s+[\d.]+\s+[\d.]+\s+(\d+)$", out, re.M)
    ratio = re.search(r"^ratio apply/echo: ([\d.]+)", out, re.M)
    if apply is None or ratio is None:
        raise RuntimeError(f"unexpected service_bench output:\n{out}")
    return {
        "ApplyAction calls/s": float(apply.group(1)),
        "ApplyAction / echo calls/s": float(ratio.group(1)),
        "server CPU us per ApplyAction (lower is better)": float(apply.group(2)),
    }


def compiled_core(tree: Path, out: Path) -> Path:
    """``tree``'s rules core compiled into ``out`` (``SPLENDOR_CORE=compiled``: a failed build stops the run)."""
    script = tree / "scripts" / "build_compiled_core.py"
    environment = {**os.environ, "SPLENDOR_CORE": "compiled"}
    subprocess.run([sys.executable, str(script), "--out", str(out)], check=True, env=environment, cwd=tree)
    return out


def export(commit: str, into: Path) -> Path:
    into.mkdir(parents=True)
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", commit], check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    return into


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--against", required=True, help="the earlier commit")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--games", type=int, default=60, help="engine: games per player count and run")
    parser.add_argument("--duration", type=float, default=2.0, help="service: seconds per phase")
    parser.add_argument("--suite", nargs="+", choices=("engine", "service"), default=["engine", "service"])
    parser.add_argument("--module", help="engine: play this module instead of the base game")
    parser.add_argument("--compiled", action="store_true", help="engine: on each tree's core compiled with mypyc")
    args = parser.parse_args()
    if args.compiled and args.suite != ["engine"]:
        parser.error("--compiled measures the engine suite only: add --suite engine")
    ratios: dict[str, list[float]] = {}
    with tempfile.TemporaryDirectory() as scratch:
        earlier = export(args.against, Path(scratch) / "earlier")
        cores: dict[Path, Path | None] = {ROOT: None, earlier: None}
        if args.compiled:
            cores = {tree: compiled_core(tree, Path(scratch) / f"core-{index}") for index, tree in enumerate(cores)}
        runs: dict[str, Callable[[Path], dict[str, float]]] = {}
        if "engine" in args.suite:
            runs["engine"] = lambda tree: engine_games_per_cpu_second(tree, args.games, args.module, cores[tree])
        if "service" in args.suite:
            runs["service"] = lambda tree: service_figures(tree, args.duration)
        for round_ in range(args.rounds):
            for name, run in runs.items():
                trees = (("current", ROOT), ("earlier", earlier))
                figures = {label: run(tree) for label, tree in (trees if round_ % 2 == 0 else trees[::-1])}
                for key, value in figures["current"].items():
                    ratios.setdefault(key, []).append(value / figures["earlier"][key])
                shown = ", ".join(
                    f"{key} {figures['current'][key]:.1f} vs {figures['earlier'][key]:.1f}"
                    for key in figures["current"]
                )
                print(f"round {round_ + 1}/{args.rounds} {name}: {shown}", file=sys.stderr)
    print(f"\nworking tree / {args.against}, {args.rounds} interleaved rounds")
    print(f"{'measure':<50}{'median':>8}{'min':>8}{'max':>8}")
    for key, values in ratios.items():
        print(f"{key:<50}{statistics.median(values):>8.3f}{min(values):>8.3f}{max(values):>8.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
