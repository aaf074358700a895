"""OpenSpiel's IS-MCTS bot on ``python_splendor`` against this project's ISMCTS and greedy policies.

    python examples/openspiel_tournament.py --simulations 20 --opponents ismcts:20 greedy --games 20

Two-player base games, seats alternated, one deal per pair of games. OpenSpiel's bot is
``open_spiel.python.algorithms.ismcts.ISMCTSBot`` with ``--simulations`` simulations a
move and one random rollout per leaf; the opponents are the engine's policies
(``engine_service.in_process.make_policy``) choosing on the same core state. Prints a Markdown
row per opponent: OpenSpiel's wins (first place, shared or not) with a 95 % Wilson interval,
and each side's CPU ms a move.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import pyspiel  # type: ignore[import-not-found]  # a compiled module without types
import splendor_client.openspiel  # noqa: F401  (registers python_splendor)
from open_spiel.python.algorithms import ismcts, mcts  # type: ignore[import-untyped]
from train_maskable_ppo import wilson

from engine_service.in_process import action_id, make_policy


def play(game: pyspiel.Game, bot: ismcts.ISMCTSBot, opponent: str, seat: int, deal: int) -> tuple[bool, list[float]]:
    """One game with OpenSpiel's bot at ``seat``: whether it placed first, and CPU seconds and moves per side."""
    index_of = game.actions.index_of
    policy = make_policy(opponent, deal)
    state = game.new_initial_state()
    state.apply_action(deal)
    cost = [0.0, 0.0, 0.0, 0.0]  # OpenSpiel CPU, its moves, opponent CPU, its moves
    while not state.is_terminal():
        side = 0 if state.current_player() == seat else 2
        start = time.process_time()
        action = bot.step(state) if side == 0 else int(index_of[action_id(policy.choose(state.core))])
        cost[side] += time.process_time() - start
        cost[side + 1] += 1
        state.apply_action(action)
    return state.returns()[seat] > 0, cost


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--simulations", type=int, default=20)
    parser.add_argument("--opponents", nargs="+", default=["ismcts:20", "greedy"])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    game = pyspiel.load_game("python_splendor(players=2)")
    rng = np.random.RandomState(args.seed)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rng), 2.0, args.simulations, random_state=rng)
    print("| OpenSpiel IS-MCTS | opponent | games | OpenSpiel wins (95 % CI) | CPU ms/move: OpenSpiel, opponent |")
    print("| --- | --- | ---: | --- | --- |")
    for opponent in args.opponents:
        wins = 0
        totals = [0.0, 0.0, 0.0, 0.0]
        for game_index in range(args.games):
            won, cost = play(game, bot, opponent, game_index % 2, args.seed * 1000 + game_index // 2)
            wins += won
            totals = [total + part for total, part in zip(totals, cost)]
        low, high = wilson(wins, args.games)
        share = wins / args.games
        ms = f"{1000 * totals[0] / totals[1]:.0f}, {1000 * totals[2] / totals[3]:.1f}"
        print(
            f"| {args.simulations} simulations | {opponent} | {args.games} | "
            f"{100 * share:.0f} % ({100 * low:.0f}-{100 * high:.0f}) | {ms} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
