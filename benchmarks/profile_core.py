"""Where the rules core spends its time in random play: a cProfile summary.

    python benchmarks/profile_core.py [--players 2] [--games 100] [--module orient] [--top 25]

Plays ``--games`` uniformly random legal games, as ``engine_bench.py`` does, under
``cProfile``, and prints the functions with the most own time (``tottime``) and
the most cumulative time. cProfile adds a fixed cost to every call, so it
overstates small functions called very often; use it to see where time goes,
and ``engine_bench.py`` / ``peer_bench.py`` to measure speed.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import sys
from pathlib import Path

# Appended, not prepended: a compiled core on PYTHONPATH (scripts/build_compiled_core.py) takes precedence.
sys.path.append(str(Path(__file__).resolve().parent.parent))

from engine_bench import play_random_games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--module", default="", help="a Cities of Splendor module to enable, e.g. orient")
    parser.add_argument("--top", type=int, default=25, help="rows per table")
    args = parser.parse_args()
    modules = frozenset({args.module}) if args.module else frozenset()
    play_random_games(args.players, 5, 0, modules)  # fill the caches first, as a long-running engine has them
    profiler = cProfile.Profile()
    profiler.enable()
    _, steps = play_random_games(args.players, args.games, 1, modules)
    profiler.disable()
    print(f"{args.games} random games ({args.module or 'base game'}, {args.players} players), {steps} steps")
    stats = pstats.Stats(profiler).strip_dirs()
    for order, title in (("tottime", "own time"), ("cumulative", "cumulative time")):
        print(f"\nTop {args.top} functions by {title}")
        stats.sort_stats(order).print_stats(args.top)


if __name__ == "__main__":
    main()
