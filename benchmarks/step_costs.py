"""Where a random game's time goes, by kind of step: the base game next to one module.

    python benchmarks/step_costs.py [--module strongholds] [--players 2] [--games 300] [--repeats 3]

Plays random legal games as ``engine_bench.py`` does and times each step's two
halves apart: listing the legal actions, and applying the chosen one. Steps are
grouped by what was pending when they were taken (``main``: no decision; else
the decision kind). Per game: how many steps of each kind, and the microseconds
spent listing and applying them; per turn: the whole game's time over its turns.

Each step is timed on its own with ``time.perf_counter_ns`` (a per-call CPU
clock would cost more than some of the steps), so the figures include a little
timer overhead, alike for both variants. The variants alternate within each
repeat and the table shows medians over the repeats; use ``engine_bench.py
--compare-modules`` for the throughput ratio itself.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from collections import defaultdict
from pathlib import Path
from time import perf_counter_ns

# Appended, not prepended: a compiled core on PYTHONPATH (scripts/build_compiled_core.py) takes precedence.
sys.path.append(str(Path(__file__).resolve().parent.parent))

from engine_service.rules import GameConfig, apply, legal_actions, new_game

TURN_LIMIT = 1000  # random games end long before this; it only guards the benchmark

# Per kind of step: [steps, ns listing, ns applying].
Costs = dict[str, list[int]]


def play(players: int, games: int, seed: int, modules: frozenset[str]) -> tuple[Costs, int]:
    """The costs by kind of step over ``games`` random games, and the turns they took."""
    chooser = random.Random(seed)
    costs: Costs = defaultdict(lambda: [0, 0, 0])
    turns = 0
    for game in range(games):
        config = GameConfig(num_players=players, seed=seed * 100_003 + game, modules=modules, turn_limit=TURN_LIMIT)
        state, _ = new_game(config)
        while state.end_reason is None:
            kind = "main" if state.pending is None else state.pending.kind.name
            start = perf_counter_ns()
            actions = legal_actions(state)
            listed = perf_counter_ns()
            state, _ = apply(state, actions[chooser.randrange(len(actions))])
            applied = perf_counter_ns()
            row = costs[kind]
            row[0] += 1
            row[1] += listed - start
            row[2] += applied - listed
        turns += state.turn
    return costs, turns


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--module", default="strongholds")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    variants = {"base game": frozenset[str](), args.module: frozenset({args.module})}
    # Per variant, per repeat: the per-game figures of each kind, and (µs per game, turns per game).
    kinds: dict[str, dict[str, list[tuple[float, float, float]]]] = {name: defaultdict(list) for name in variants}
    totals: dict[str, list[tuple[float, float]]] = {name: [] for name in variants}
    for repeat in range(args.repeats):
        for name, modules in variants.items():
            costs, turns = play(args.players, args.games, repeat + 1, modules)
            games = args.games
            for kind, (steps, listing, applying) in costs.items():
                kinds[name][kind].append((steps / games, listing / games / 1000, applying / games / 1000))
            total_us = sum(listing + applying for _, listing, applying in costs.values()) / games / 1000
            totals[name].append((total_us, turns / games))
            print(f"repeat {repeat + 1}/{args.repeats} {name}: {total_us:.0f} µs per game", file=sys.stderr)
    print(f"\nRandom legal play, {args.players} players, {args.games} games per run, median of {args.repeats} runs")
    print(f"{'variant':<14} {'step kind':<18} {'steps/game':>10} {'µs listing':>11} {'µs applying':>12}")
    for name in variants:
        for kind, rows in kinds[name].items():
            steps, listing, applying = (statistics.median(col) for col in zip(*rows))
            print(f"{name:<14} {kind:<18} {steps:>10.1f} {listing:>11.0f} {applying:>12.0f}")
    print(f"\n{'variant':<14} {'µs/game':>8} {'turns/game':>11} {'µs/turn':>8}")
    for name, rows in totals.items():
        per_game = statistics.median(row[0] for row in rows)
        turns = statistics.median(row[1] for row in rows)
        print(f"{name:<14} {per_game:>8.0f} {turns:>11.1f} {per_game / turns:>8.1f}")


if __name__ == "__main__":
    main()
