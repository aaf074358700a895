"""Random-play throughput of the rules core: games/s and steps/s for 2, 3 and 4 players.

    python benchmarks/engine_bench.py [--games 200] [--repeats 5] [--players 2 3 4] [--module orient]
    python benchmarks/engine_bench.py --compare-modules [--players 2 4]

Each step lists the legal actions (pending decisions included) and applies one
chosen uniformly at random, as a tree search or a random agent would. States are
immutable, so every step already yields a fresh state: no copy is needed to keep
the previous one, which this benchmark therefore gets for free.

Times are CPU time of this process (``time.process_time``), which the other
work on a shared machine disturbs less than wall-clock time. The machines are
still noisy, so the runs are interleaved (each repeat plays every player count
once) and the table shows the median of the repeats.
The last column divides steps/s by the speed of a fixed pure-Python calibration
loop measured in the same repeat, a figure that moves much less with the load of
the machine than the raw rates.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

# Appended, not prepended: a compiled core on PYTHONPATH (scripts/build_compiled_core.py) takes precedence.
sys.path.append(str(Path(__file__).resolve().parent.parent))

from engine_service.core_info import core_kind
from engine_service.rules import GameConfig, apply, legal_actions, new_game

TURN_LIMIT = 1000  # random games end long before this; it only guards the benchmark


def play_random_games(players: int, games: int, seed: int, modules: frozenset[str]) -> tuple[float, int]:
    """CPU seconds spent and steps played for ``games`` random games."""
    chooser = random.Random(seed)
    steps = 0
    start = time.process_time()
    for game in range(games):
        config = GameConfig(num_players=players, seed=seed * 100_003 + game, modules=modules, turn_limit=TURN_LIMIT)
        state, _ = new_game(config)
        while state.end_reason is None:
            actions = legal_actions(state)
            state, _ = apply(state, actions[chooser.randrange(len(actions))])
            steps += 1
    return time.process_time() - start, steps


def calibration_ops_per_second(iterations: int = 300_000) -> float:
    """A fixed mix of tuple building, indexing and arithmetic, to normalise for machine load."""
    start = time.process_time()
    acc = (0, 0, 0, 0, 0, 0)
    for i in range(iterations):
        acc = (acc[1], acc[2], acc[3], acc[4], acc[5], (acc[0] + i) & 0xFFFF)
    elapsed = time.process_time() - start
    return iterations / elapsed


MODULE_NAMES = ("cities", "trading_posts", "strongholds", "orient")


def compare_modules(games: int, repeats: int, players_counts: list[int]) -> None:
    """Each module next to the base game: every repeat plays them all, and ratios are taken within a repeat."""
    variants = ("base game", *MODULE_NAMES)
    for players in players_counts:
        rates: dict[str, list[tuple[float, float, float]]] = {name: [] for name in variants}
        for repeat in range(repeats):
            base_games_per_s = 0.0
            for name in variants:
                modules = frozenset() if name == "base game" else frozenset({name})
                seconds, steps = play_random_games(players, games, repeat + 1, modules)
                games_per_s = games / seconds
                base_games_per_s = base_games_per_s or games_per_s
                rates[name].append((games_per_s, steps / seconds, games_per_s / base_games_per_s))
                progress = f"repeat {repeat + 1}/{repeats}  {players}p  {name:<14} {games_per_s:7.0f} games/s"
                print(progress, file=sys.stderr)
        print(f"\nRandom legal play, {players} players, {games} games per run, {repeats} runs, CPU time")
        print(f"{'variant':<14} {'games/s':>9} {'steps/s':>9} {'vs base, same run: median':>26} {'min':>5} {'max':>5}")
        for name, rows in rates.items():
            games_per_s, steps_per_s, _ = (statistics.median(col) for col in zip(*rows))
            ratios = [row[2] for row in rows]
            print(
                f"{name:<14} {games_per_s:>9.0f} {steps_per_s:>9.0f} {statistics.median(ratios):>26.2f} "
                f"{min(ratios):>5.2f} {max(ratios):>5.2f}"
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=200, help="games per player count and repeat")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--players", type=int, nargs="+", default=[2, 3, 4])
    parser.add_argument("--module", default="", help="a Cities of Splendor module to enable, e.g. cities")
    parser.add_argument(
        "--compare-modules", action="store_true", help="every module next to the base game, for each --players count"
    )
    args = parser.parse_args()
    if args.compare_modules:
        compare_modules(args.games, args.repeats, args.players)
        return

    modules = frozenset({args.module}) if args.module else frozenset()
    results: dict[int, list[tuple[float, float, float, float]]] = {n: [] for n in args.players}
    for repeat in range(args.repeats):
        calibration = calibration_ops_per_second()
        for players in args.players:
            seconds, steps = play_random_games(players, args.games, repeat + 1, modules)
            games_per_s = args.games / seconds
            steps_per_s = steps / seconds
            results[players].append((games_per_s, steps_per_s, steps / args.games, steps_per_s / calibration))
            print(
                f"repeat {repeat + 1}/{args.repeats}  {players}p  "
                f"{games_per_s:7.0f} games/s  {steps_per_s:8.0f} steps/s",
                file=sys.stderr,
            )

    python = sys.version.split()[0]
    title = f"Random legal play ({args.module or 'base game'}), {args.games} games per run"
    print(f"\n{title}, median of {args.repeats} runs (Python {python}, {core_kind()} core)")
    print(f"{'players':>7} {'games/s':>9} {'steps/s':>9} {'steps/game':>11} {'steps per calib op':>19}")
    for players, rows in results.items():
        games_per_s, steps_per_s, steps_per_game, relative = (statistics.median(col) for col in zip(*rows))
        print(f"{players:>7} {games_per_s:>9.0f} {steps_per_s:>9.0f} {steps_per_game:>11.1f} {relative:>19.4f}")


if __name__ == "__main__":
    main()
