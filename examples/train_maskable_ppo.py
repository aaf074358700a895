"""Train sb3-contrib's MaskablePPO on ``splendor/Splendor-v0`` as registered (no wrapper), then play it.

    pip install 'splendor-client[train]'   # brings the engine and the RL extras; in this repository: make install
    python examples/train_maskable_ppo.py --steps 100000 --opponents random --games 200

The environment gives ``action_masks()``, which MaskablePPO reads at every step; the
ruleset-sized action space (``action_ids="ruleset"``: 370 actions for the base game,
not 8,920) keeps the policy small. Torch runs on one thread: the learner's batches are
small, and extra threads cost more CPU than they save here.
"""

from __future__ import annotations

import argparse
import math
from typing import Any

import gymnasium
import numpy as np
import splendor_client.envs  # noqa: F401  (registers splendor/Splendor-v0)
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback

ENV_ID = "splendor/Splendor-v0"


class IllegalActionCounter(BaseCallback):
    """Counts the steps the environment refused as illegal (0 when the policy is masked)."""

    def __init__(self) -> None:
        super().__init__()
        self.illegal = 0

    def _on_step(self) -> bool:
        self.illegal += sum(bool(info.get("illegal_action")) for info in self.locals["infos"])
        return True


def make_env(opponents: str = "random", seed: int = 0) -> gymnasium.Env[Any, Any]:
    env = gymnasium.make(ENV_ID, opponents=opponents, action_ids="ruleset")
    env.reset(seed=seed)
    return env


def train(steps: int, *, opponents: str = "random", seed: int = 0, n_steps: int = 1024) -> tuple[MaskablePPO, int]:
    """A model trained for ``steps`` learner steps, and how many of its actions were illegal."""
    torch.set_num_threads(1)
    model = MaskablePPO("MultiInputPolicy", make_env(opponents, seed), n_steps=n_steps, batch_size=256, seed=seed)
    counter = IllegalActionCounter()
    model.learn(steps, callback=counter)
    return model, counter.illegal


def win_rate(model: MaskablePPO, opponents: str, games: int, seed: int = 10_000) -> tuple[float, float, float]:
    """The model's share of games won (first place, shared or not) and its 95 % Wilson interval."""
    env = make_env(opponents)
    wins = 0
    for game in range(games):
        observation, _ = env.reset(seed=seed + game)
        done = False
        while not done:
            masks = env.unwrapped.action_masks()  # type: ignore[attr-defined]
            action, _ = model.predict(observation, action_masks=masks, deterministic=True)
            observation, reward, terminated, truncated, _ = env.step(int(action))
            done = terminated or truncated
        wins += float(reward) > 0
    return (wins / games, *wilson(wins, games))


def wilson(successes: int, trials: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson score interval of a proportion."""
    share = successes / trials
    centre = (share + z * z / (2 * trials)) / (1 + z * z / trials)
    half = z * math.sqrt(share * (1 - share) / trials + z * z / (4 * trials * trials)) / (1 + z * z / trials)
    return centre - half, centre + half


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", type=int, default=100_000, help="learner steps (default: %(default)s)")
    parser.add_argument("--opponents", default="random", help="the policy the learner trains against")
    parser.add_argument("--games", type=int, default=200, help="evaluation games per opponent")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--save", help="save the model to this .zip")
    args = parser.parse_args()
    model, illegal = train(args.steps, opponents=args.opponents, seed=args.seed)
    print(f"trained {args.steps} steps against {args.opponents}; illegal actions: {illegal}")
    if args.save:
        model.save(args.save)
    for opponents in ("random", "greedy"):
        share, low, high = win_rate(model, opponents, args.games)
        print(f"against {opponents}: {100 * share:.1f} % wins ({100 * low:.1f}-{100 * high:.1f}) in {args.games} games")


if __name__ == "__main__":
    np.set_printoptions(precision=3)
    main()
