"""Lengths of random games, for the ReplayGame bound: turns per game and actions per turn (a main
action and the decisions it opens), for the base game and every module, 2-4 players.

    .venv/bin/python benchmarks/game_lengths.py [--games 100]

Uniformly random legal play is far longer than real play (random players rarely buy), so its
longest games and busiest turns bound what a real action log holds. The service's default
bound (engine_service/api/config.py) is checked against these figures.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run from a checkout without installing

from engine_service.rules import GameConfig, apply, legal_actions, new_game

MODULES = ((), ("cities",), ("trading_posts",), ("strongholds",), ("orient",))
TURN_GUARD = 5_000  # a game still running after this many turns counts as endless


def play(config: GameConfig, rng: random.Random) -> tuple[int, int, int]:
    """(turns, actions, most actions in one turn) of one random game."""
    state, _ = new_game(config)
    actions = busiest = in_turn = 0
    while state.end_reason is None and state.turn < TURN_GUARD:
        turn = state.turn
        legal = legal_actions(state)
        state, _ = apply(state, legal[rng.randrange(len(legal))])
        actions += 1
        in_turn += 1
        if state.turn != turn or state.end_reason is not None:
            busiest, in_turn = max(busiest, in_turn), 0
    return state.turn, actions, busiest


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100, help="games per module and player count")
    args = parser.parse_args()
    rng = random.Random(1)
    print("module          players  turns max  actions max  actions/turn max")
    for modules in MODULES:
        for players in (2, 3, 4):
            results = [
                play(GameConfig(players, rng.getrandbits(64), modules=frozenset(modules)), rng)
                for _ in range(args.games)
            ]
            name = modules[0] if modules else "base"
            turns, actions, busiest = (max(column) for column in zip(*results))
            print(f"{name:<15} {players:>7}  {turns:>9}  {actions:>11}  {busiest:>16}")


if __name__ == "__main__":
    main()
