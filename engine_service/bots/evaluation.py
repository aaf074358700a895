"""How good a position is for each seat, when a search stops before the game ends.

A finished game scores 1 for each winner and 0 for the others. Otherwise each seat
gets a material score (prestige, then the engine of bonuses, then tokens and the
nearness of nobles) and a reward in (0, 1) from its lead over the best other seat
through a logistic curve, so a search can average it like a win rate.
"""

from __future__ import annotations

import math
from typing import Final

from engine_service.rules import NOBLES, GameState, PlayerState

# Weights in prestige points: what a bonus, a token and a reserved card are worth on average.
BONUS_WEIGHT: Final = 0.6
TOKEN_WEIGHT: Final = 0.15
GOLD_WEIGHT: Final = 0.25
RESERVED_WEIGHT: Final = 0.2
NOBLE_NEARNESS_WEIGHT: Final = 0.4  # per noble, times how much of its requirement is met
# A lead of this many points gives a reward of about 0.73.
LEAD_SCALE: Final = 2.0


def material(state: GameState, player: PlayerState) -> float:
    """The seat's holdings in prestige points."""
    tokens = player.tokens
    score = (
        player.prestige
        + BONUS_WEIGHT * sum(player.bonuses)
        + TOKEN_WEIGHT * (sum(tokens) - tokens[-1])
        + GOLD_WEIGHT * tokens[-1]
        + RESERVED_WEIGHT * len(player.reserved)
    )
    bonuses = player.bonuses
    for noble_id in state.nobles:
        requirement = NOBLES[noble_id].requirement
        total = sum(requirement)
        if total:
            met = sum(min(have, need) for have, need in zip(bonuses, requirement))
            score += NOBLE_NEARNESS_WEIGHT * (met / total) ** 2
    return score


def rewards(state: GameState, lead_scale: float = LEAD_SCALE) -> tuple[float, ...]:
    """Each seat's reward in [0, 1]: the result of a finished game, else the logistic of its lead."""
    seats = len(state.players)
    if state.end_reason is not None:
        winners = set(state.winners)
        return tuple(1.0 if seat in winners else 0.0 for seat in range(seats))
    scores = [material(state, player) for player in state.players]
    result = []
    for seat in range(seats):
        best_other = max(score for other, score in enumerate(scores) if other != seat)
        lead = scores[seat] - best_other
        result.append(1.0 / (1.0 + math.exp(-lead / lead_scale)))
    return tuple(result)
