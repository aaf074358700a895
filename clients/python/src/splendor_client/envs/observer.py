"""A seat's observation dict, in new arrays at every call (a caller may keep one while the environment moves on).

The values come from the game (``Game.write_observation``, which writes every one); the
mask is a zeroed array (one allocation, no per-flag work) with the legal action ids set:
a few entries of 8,920.
"""

from __future__ import annotations

from typing import cast

import numpy as np
from gymnasium import spaces
from numpy.typing import NDArray

from .action_space import ActionSpace
from .games import Game

ObsType = dict[str, np.ndarray]  # "observation": float32 values, "action_mask": int8 flags
# The index flagged when a seat has nothing to do (the episode is over): masked samplers need one
# legal entry, and the environment refuses to step an episode that is over, so it is never applied.
PLACEHOLDER_INDEX = 0


def observation_space(game: Game, actions: ActionSpace) -> spaces.Space[ObsType]:
    """The same space in both environments: float32 values, an int8 (MultiBinary) mask over the action space."""
    space = spaces.Dict(
        {
            "observation": spaces.Box(0.0, np.inf, (game.observation_length,), np.float32),
            "action_mask": spaces.MultiBinary(actions.size),
        }
    )
    return cast(spaces.Space[ObsType], space)


class Observer:
    """Observations of every seat of one game."""

    def __init__(self, game: Game, actions: ActionSpace, num_players: int, *, placeholder: bool) -> None:
        self.game = game
        self.actions = actions
        self.placeholder = placeholder
        self._placeholder = np.array([PLACEHOLDER_INDEX], np.int64)
        self._none = np.zeros(0, np.int64)

    def flagged(self, seat: int) -> NDArray[np.int64]:
        """The indices the seat's mask flags."""
        legal = self.game.legal_ids(seat)
        if legal:
            return self.actions.indices(legal)
        return self._placeholder if self.placeholder else self._none

    def mask(self, seat: int) -> NDArray[np.int8]:
        """The seat's legal-action mask over the action space (a new array)."""
        mask = np.zeros(self.actions.size, np.int8)
        mask[self.flagged(seat)] = 1
        return mask

    def observe(self, seat: int) -> ObsType:
        values = np.empty(self.game.observation_length, np.float32)
        self.game.write_observation(seat, values)  # every value: nothing is left of np.empty's contents
        return {"observation": values, "action_mask": self.mask(seat)}
