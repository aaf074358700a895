"""This project's rules core side by side with a public Python + Numba Splendor engine, in one run.

    python benchmarks/peer_bench.py [--players 2 4] [--repeats 5] [--games 200] [--peer-path DIR]
    python benchmarks/peer_bench.py --modules [--players 2 4]

The peer is the Splendor game of ``cestpasphoto/alpha-zero-general`` (Python,
NumPy and Numba), the fastest public Python engine we know of. It is never
vendored: check it out anywhere, give its folder (the one holding ``Game.py``
and ``splendor/``) with ``--peer-path`` or the ``PEER_SPLENDOR_PATH``
environment variable, and run this script with an interpreter that has
``numpy`` and ``numba``, for example a separate virtual environment::

    python3 -m venv PEER_VENV && PEER_VENV/bin/pip install numpy numba
    PEER_VENV/bin/python benchmarks/peer_bench.py --peer-path PEER_CHECKOUT

The rules core needs nothing beyond the standard library, so it runs in that
interpreter as well: install the engine there (``PEER_VENV/bin/pip install .``, which
compiles the core when a C compiler is present) and the script plays the installed
core, as users get it; without that, the checkout's pure core. The first column's name
says which (``core-compiled`` or ``core-pure``). ``--compiled-core DIR [DIR ...]`` adds
copies built by ``scripts/build_compiled_core.py`` (at several ``SPLENDOR_CORE_OPT_LEVEL``
values, say), each played in child processes. Without a peer the script measures the
cores alone.

Both engines play uniformly random legal games: the core picks among
``legal_actions(state)`` and applies the choice with ``apply``; the peer picks
among the set entries of its valid-move mask. The peer is played two ways:
``peer`` goes through its ``Game`` interface (``getValidMoves``,
``getNextState``, ``getGameEnded``), which, like the core, returns a fresh state
at each step; ``peer-inplace`` mutates one ``Board`` in place, the fastest way
to play it, which keeps no previous position. The peer's actions include
passing and giving back gems at any time, so its random games have more steps;
steps/s is printed next to games/s for that reason.

Each repeat plays the core's games, then the peer's, for every player count
(A, B, A, B, ...), in one process, timed in CPU time (``time.process_time``);
the ratio core/peer is taken within each repeat, and the table shows the
median, min and max over the repeats. The peer's JIT compilation happens in a
warm-up before the first repeat and is not timed.

``--modules`` plays every Cities of Splendor module next to the base game in the
same way and prints each module's ratio to the base game (it is
``engine_bench.py --compare-modules``).
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import os
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

# Appended, not prepended: a compiled core on PYTHONPATH (scripts/build_compiled_core.py) takes precedence.
sys.path.append(str(Path(__file__).resolve().parent.parent))

from engine_bench import compare_modules, play_random_games

import engine_service.rules.engine
from engine_service.core_info import core_kind

PEER_PATH_VARIABLE = "PEER_SPLENDOR_PATH"
COMPILED_CORE_VARIABLE = "COMPILED_CORE_PATH"
PEER_PACKAGE = "peer_splendor"  # the peer's folder is called ``splendor``, like this project's client package
WARM_UP_GAMES = 20

GameRunner = Callable[[int, int, int], tuple[float, int]]


def core_games(players: int, games: int, seed: int) -> tuple[float, int]:
    """CPU seconds and steps for ``games`` random base games in this project's core."""
    return play_random_games(players, games, seed, frozenset())


def compiled_core_runner(compiled_path: Path) -> GameRunner:
    """The core found in ``compiled_path`` (see scripts/build_compiled_core.py), played in a child process.

    The child warms its caches up, then times only the games, in its own CPU time.
    """
    environment = {**os.environ, "PYTHONPATH": str(compiled_path)}

    def compiled_games(players: int, games: int, seed: int) -> tuple[float, int]:
        command = [sys.executable, __file__, "--play-core", str(players), str(games), str(seed)]
        output = subprocess.run(command, env=environment, check=True, capture_output=True, text=True).stdout
        kind, seconds, steps = output.split()
        if kind != "compiled":
            raise SystemExit(f"no compiled core in {compiled_path}: run scripts/build_compiled_core.py")
        return float(seconds), int(steps)

    return compiled_games


def play_core_in_child(players: int, games: int, seed: int) -> None:
    core_games(players, WARM_UP_GAMES, 0)
    seconds, steps = core_games(players, games, seed)
    print(core_kind(), seconds, steps)


def load_peer(peer_path: Path) -> ModuleType:
    """The peer's ``splendor/SplendorGame`` module, imported under a name of its own."""
    package_dir = peer_path / "splendor"
    if not (package_dir / "SplendorGame.py").is_file() or not (peer_path / "Game.py").is_file():
        raise SystemExit(f"{peer_path} does not look like an alpha-zero-general checkout (Game.py, splendor/)")
    sys.path.insert(0, str(peer_path))  # the peer imports its base class as ``from Game import Game``
    spec = importlib.util.spec_from_file_location(
        PEER_PACKAGE, package_dir / "__init__.py", submodule_search_locations=[str(package_dir)]
    )
    if spec is None or spec.loader is None:
        raise SystemExit(f"cannot import the peer package from {package_dir}")
    package = importlib.util.module_from_spec(spec)
    sys.modules[PEER_PACKAGE] = package
    spec.loader.exec_module(package)
    try:
        return importlib.import_module(f"{PEER_PACKAGE}.SplendorGame")
    except ImportError as error:
        raise SystemExit(f"the peer engine needs numpy and numba in this interpreter ({error})") from error


def peer_runners(peer_module: ModuleType) -> dict[str, GameRunner]:
    """Random games in the peer engine, played two ways, with the same signature as ``core_games``.

    ``peer``: through its ``Game`` interface, which copies the board at every move, so that every
    step yields a fresh state as the core's does (what a tree search keeping positions needs).
    ``peer-inplace``: its ``Board`` mutated in place, the fastest way to play it, for reference.
    """
    import numba
    import numpy as np

    @numba.njit(cache=False)  # type: ignore[misc]
    def seed_jitted_random(seed: int) -> None:
        np.random.seed(seed)  # Numba keeps its own generator, which the peer's deck draws use

    flatnonzero = np.flatnonzero
    games_by_players: dict[int, Any] = {}

    def game_for(players: int) -> Any:
        if players not in games_by_players:
            peer_module.NUMBER_PLAYERS = players  # read by SplendorGame.__init__
            games_by_players[players] = peer_module.SplendorGame()
        return games_by_players[players]

    def through_game_interface(players: int, games: int, seed: int) -> tuple[float, int]:
        game = game_for(players)
        chooser = random.Random(seed)
        seed_jitted_random(seed)
        steps = 0
        start = time.process_time()
        for _ in range(games):
            board = game.getInitBoard()
            player = 0
            while not game.getGameEnded(board, player).any():
                moves = flatnonzero(game.getValidMoves(board, player))
                board, player = game.getNextState(board, player, int(moves[chooser.randrange(len(moves))]))
                steps += 1
        return time.process_time() - start, steps

    def in_place(players: int, games: int, seed: int) -> tuple[float, int]:
        board = peer_module.Board(players)
        chooser = random.Random(seed)
        seed_jitted_random(seed)
        steps = 0
        start = time.process_time()
        for _ in range(games):
            board.init_game()
            player = 0
            while not board.check_end_game().any():
                moves = flatnonzero(board.valid_moves(player))
                player = board.make_move(int(moves[chooser.randrange(len(moves))]), player, 0)
                steps += 1
        return time.process_time() - start, steps

    return {"peer": through_game_interface, "peer-inplace": in_place}


def side_by_side(runners: dict[str, GameRunner], players_counts: list[int], games: int, repeats: int) -> None:
    """Interleaved repeats; the first runner is the reference of the ratio column."""
    for players in players_counts:
        for runner in runners.values():
            runner(players, WARM_UP_GAMES, 0)
    rows: dict[tuple[int, str], list[tuple[float, float, float]]] = {}
    for repeat in range(repeats):
        for players in players_counts:
            reference = 0.0
            for name, runner in runners.items():
                seconds, steps = runner(players, games, repeat + 1)
                games_per_s = games / seconds
                reference = reference or games_per_s
                rows.setdefault((players, name), []).append((games_per_s, steps / seconds, steps / games))
                print(
                    f"repeat {repeat + 1}/{repeats}  {players}p  {name:<12} {games_per_s:7.0f} games/s "
                    f"{steps / seconds:8.0f} steps/s  first ÷ this {reference / games_per_s:.2f}",
                    file=sys.stderr,
                )
    print_table(rows, runners, players_counts, games, repeats)


def print_table(
    rows: dict[tuple[int, str], list[tuple[float, float, float]]],
    runners: dict[str, GameRunner],
    players_counts: list[int],
    games: int,
    repeats: int,
) -> None:
    cores = [name for name in runners if name.startswith("core")]
    print(f"\nRandom legal play, {games} games per engine and run, {repeats} interleaved runs, CPU time")
    header = f"{'players':>7} {'engine':<12} {'games/s median':>14} {'min':>6} {'max':>6}"
    print(f"{header} {'steps/s':>8} {'steps/game':>10}")
    for players in players_counts:
        for name in runners:
            samples = rows[(players, name)]
            rates = [sample[0] for sample in samples]
            steps_per_s = statistics.median(sample[1] for sample in samples)
            steps_per_game = statistics.median(sample[2] for sample in samples)
            print(
                f"{players:>7} {name:<12} {statistics.median(rates):>14.0f} {min(rates):>6.0f} {max(rates):>6.0f} "
                f"{steps_per_s:>8.0f} {steps_per_game:>10.1f}"
            )
    if len(runners) < 2:
        return
    print("\nRatios within each run")
    print(f"{'players':>7} {'ratio':<26} {'games/s median':>14} {'min':>5} {'max':>5} {'steps/s median':>15}")
    for players in players_counts:
        for index, core in enumerate(cores):  # each core against the peers and against the cores listed before it
            for other in [name for name in runners if name != core and name not in cores[index + 1 :]]:
                pairs = list(zip(rows[(players, core)], rows[(players, other)]))
                ratios = [mine[0] / theirs[0] for mine, theirs in pairs]
                step_ratio = statistics.median(mine[1] / theirs[1] for mine, theirs in pairs)
                print(
                    f"{players:>7} {f'{core} ÷ {other}':<26} {statistics.median(ratios):>14.2f} "
                    f"{min(ratios):>5.2f} {max(ratios):>5.2f} {step_ratio:>15.2f}"
                )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, nargs="+", default=[2, 4])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--games", type=int, default=200, help="games per engine, player count and repeat")
    parser.add_argument(
        "--peer-path", type=Path, default=os.environ.get(PEER_PATH_VARIABLE), help=f"or ${PEER_PATH_VARIABLE}"
    )
    parser.add_argument(
        "--compiled-core",
        type=Path,
        nargs="+",
        default=[Path(os.environ[COMPILED_CORE_VARIABLE])] if os.environ.get(COMPILED_CORE_VARIABLE) else [],
        help=f"compiled copies of the core to run too, each in child processes (or ${COMPILED_CORE_VARIABLE}); "
        "several (e.g. built at different optimisation levels) are compared side by side",
    )
    parser.add_argument("--modules", action="store_true", help="every module's ratio to the base game instead")
    parser.add_argument("--play-core", type=int, nargs=3, help=argparse.SUPPRESS)  # PLAYERS GAMES SEED, in a child
    args = parser.parse_args()
    if args.play_core:
        play_core_in_child(*args.play_core)
        return
    print(f"core in this process: {core_kind()} ({Path(engine_service.rules.engine.__file__).parent})", file=sys.stderr)
    if args.modules:
        compare_modules(args.games, args.repeats, args.players)
        return
    runners: dict[str, GameRunner] = {f"core-{core_kind()}": core_games}
    for compiled_path in args.compiled_core:
        name = "core-mypyc" if len(args.compiled_core) == 1 else f"core-{compiled_path.name}"
        runners[name] = compiled_core_runner(compiled_path.resolve())
    if args.peer_path:
        runners.update(peer_runners(load_peer(Path(args.peer_path).resolve())))
    else:
        print(f"no --peer-path or ${PEER_PATH_VARIABLE}: measuring the core alone", file=sys.stderr)
    side_by_side(runners, args.players, args.games, args.repeats)


if __name__ == "__main__":
    main()
