"""Positions of seeded play in every module, with blind reserves, for the bot tests."""

from __future__ import annotations

import random
from collections.abc import Iterator

from engine_service.rules import GameConfig, GameState, ReserveFromDeck, apply, legal_actions, new_game
from tests.rulesets import RULESETS, ruleset_name

MODULES = RULESETS  # the base game, then each module
module_name = ruleset_name


def played_positions(modules: frozenset[str], num_players: int, seed: int, every: int = 5) -> Iterator[GameState]:
    """Every ``every``-th state of a random game that reserves from a deck whenever it can, one time in three."""
    rng = random.Random(seed)
    state = new_game(GameConfig(num_players=num_players, seed=seed, modules=modules))[0]
    step = 0
    while state.end_reason is None:
        if step % every == 0:
            yield state
        legal = legal_actions(state)
        blind = [action for action in legal if isinstance(action, ReserveFromDeck)]
        action = rng.choice(blind) if blind and rng.random() < 1 / 3 else rng.choice(legal)
        state = apply(state, action)[0]
        step += 1


def has_hidden_reserve(state: GameState, seat: int) -> bool:
    """True if a seat other than ``seat`` holds a card reserved blind."""
    return any(any(player.reserved_blind) for other, player in enumerate(state.players) if other != seat)
