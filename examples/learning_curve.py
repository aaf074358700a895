"""The learning curve of the recipe in train_maskable_ppo.py: win rates against random and greedy as training goes on.

    python examples/learning_curve.py --checkpoints 25000 50000 100000 --games 200

Trains one MaskablePPO model against ``random`` and, at each checkpoint (learner steps),
plays ``--games`` evaluation games against each opponent (deterministic policy, fresh
deals) and prints a Markdown row: steps, CPU seconds so far, and each win rate with
its 95 % Wilson interval.
"""

from __future__ import annotations

import argparse
import time

import torch
from sb3_contrib import MaskablePPO
from train_maskable_ppo import IllegalActionCounter, make_env, win_rate


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--checkpoints", type=int, nargs="+", default=[25_000, 50_000, 100_000])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    torch.set_num_threads(1)
    model = MaskablePPO("MultiInputPolicy", make_env("random", args.seed), n_steps=1024, batch_size=256, seed=args.seed)
    counter = IllegalActionCounter()
    print("| learner steps | training CPU s | vs random: wins (95 % CI) | vs greedy: wins (95 % CI) |")
    print("| ---: | ---: | --- | --- |")
    cpu = 0.0
    for checkpoint in [0, *args.checkpoints]:
        start = time.process_time()
        if checkpoint > model.num_timesteps:
            model.learn(checkpoint - model.num_timesteps, callback=counter, reset_num_timesteps=False)
        cpu += time.process_time() - start
        cells = []
        for opponents in ("random", "greedy"):
            share, low, high = win_rate(model, opponents, args.games)
            cells.append(f"{100 * share:.1f} % ({100 * low:.1f}-{100 * high:.1f})")
        print(f"| {model.num_timesteps} | {cpu:.0f} | {cells[0]} | {cells[1]} |", flush=True)
    print(f"illegal actions during training: {counter.illegal}")


if __name__ == "__main__":
    main()
