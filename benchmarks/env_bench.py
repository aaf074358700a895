"""What a Gymnasium env step costs next to a bare rules-core step, in-process, measured side by side.

    python benchmarks/env_bench.py [--module cities] [--players 2] [--steps 3000] [--repeats 5] [--action-ids ruleset]

Two loops alternate within each repeat, each timed in CPU time (``time.process_time``):

- **core**: random games on the rules core, one step = ``legal_actions`` + ``apply``
  (what any bot or learner loop needs at the least);
- **env**: ``SplendorEnv`` (in-process, random opponents), one step = ``env.step`` (the
  learner's move, the opponents' moves, the next observation and mask) and, at an
  episode's end, ``env.reset``; the learner's random pick from the mask is left out of the
  timing (the core loop's pick is a ``randrange``), so each env step is timed on its own.

Printed per repeat and as median (min-max) over the repeats: microseconds per core step,
per env step, the ratio env step / core step, and the ratio per core step the env step
contains (an env step plays the learner's action and every opponent's until the learner
acts again, so a 2-player env step holds about two core steps).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

import numpy as np

# Appended, not prepended: a compiled core on PYTHONPATH (scripts/build_compiled_core.py) takes precedence.
sys.path.append(str(Path(__file__).resolve().parent.parent))

from splendor_client.envs import SplendorEnv

from engine_service.rules import GameConfig, apply, legal_actions, new_game


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


def env_steps(env: SplendorEnv, steps: int, seed: int) -> tuple[float, float]:
    """CPU seconds per env step over ``steps`` steps, and the core steps (actions applied) per env step."""
    rng = np.random.default_rng(seed)
    observation, _ = env.reset(seed=seed)
    applied = -env.game.applied  # the opponents' moves before the learner's first
    elapsed = 0.0
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
    applied += env.game.applied
    return elapsed / steps, applied / steps


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--module", default=None)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--steps", type=int, default=3000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--action-ids", default="all", choices=["all", "ruleset"])
    args = parser.parse_args()
    modules = frozenset() if args.module is None else frozenset({args.module})
    env = SplendorEnv(num_players=args.players, module=args.module, action_ids=args.action_ids)
    core_steps(500, args.players, modules, 0)  # warm caches before the first timed repeat
    env_steps(env, 500, 0)
    rows = []
    for repeat in range(args.repeats):
        core = core_steps(args.steps, args.players, modules, repeat + 1)
        step, per_step = env_steps(env, args.steps, repeat + 1)
        rows.append((core, step, step / core, step / core / per_step if per_step else float("nan")))
        print(
            f"repeat {repeat + 1}: core {core * 1e6:.1f} us/step, env {step * 1e6:.1f} us/step, "
            f"ratio {step / core:.2f}, core steps per env step {per_step:.2f}",
            flush=True,
        )
    names = ("core us/step", "env us/step", "env/core", "env/(core x steps held)")
    scale = (1e6, 1e6, 1.0, 1.0)
    print(f"ruleset {args.module or 'base'}/{args.players}p, action ids {args.action_ids}, {args.repeats} repeats:")
    for index, name in enumerate(names):
        values = [row[index] * scale[index] for row in rows]
        print(f"  {name}: {statistics.median(values):.2f} ({min(values):.2f}-{max(values):.2f})")


if __name__ == "__main__":
    main()
