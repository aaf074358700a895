"""When the game ends and who wins."""

from __future__ import annotations

from typing import Final

from .state import GameState, Standing

PRESTIGE_GOAL: Final = 15


def reached_prestige_goal(state: GameState, seat: int) -> bool:
    """Base rule: 15 or more prestige at the end of one's turn triggers the final round."""
    return state.players[seat].prestige >= PRESTIGE_GOAL


def rank_by_prestige(
    state: GameState, seats: tuple[int, ...] | None = None, purchased_counts: tuple[int, ...] | None = None
) -> tuple[Standing, ...]:
    """Most prestige first, then fewest purchased cards; seats still tied share a place.

    ``seats`` limits who can win (the Cities module ranks city holders first);
    the others are placed after them by the same order. ``purchased_counts``
    replaces the per-seat count of purchased cards (the Orient's spent gold
    cards still count).
    """
    eligible = set(range(len(state.players)) if seats is None else seats)
    counts = purchased_counts or tuple(len(player.purchased) for player in state.players)

    def key(seat: int) -> tuple[int, int, int]:
        return (0 if seat in eligible else 1, -state.players[seat].prestige, counts[seat])

    order = sorted(range(len(state.players)), key=lambda seat: (key(seat), seat))
    standings = []
    for seat in order:
        place = 1 + sum(1 for other in order if key(other) < key(seat))
        standings.append(Standing(seat, place, state.players[seat].prestige, counts[seat]))
    return tuple(standings)
