"""A seat's observation dict, written into arrays allocated once per seat.

The values come from the game (``Game.write_observation``); the mask is set from the
legal action ids alone (a few entries), not rebuilt as 8,920 flags each step: the
entries set last time are cleared, the new ones set. Each call returns fresh copies, so
a caller may keep an observation while the environment moves on.
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
        self._values = [np.zeros(game.observation_length, np.float32) for _ in range(num_players)]
        self._masks = [np.zeros(actions.size, np.int8) for _ in range(num_players)]
        self._flagged: list[NDArray[np.int64]] = [np.zeros(0, np.int64) for _ in range(num_players)]

    def mask(self, seat: int) -> NDArray[np.int8]:
        """The seat's legal-action mask over the action space (written in place)."""
        mask = self._masks[seat]
        mask[self._flagged[seat]] = 0
        legal = self.game.legal_ids(seat)
        if legal:
            flagged = self.actions.indices(legal)
        elif self.placeholder:
            flagged = np.array([PLACEHOLDER_INDEX], np.int64)
        else:
            flagged = np.zeros(0, np.int64)
        mask[flagged] = 1
        self._flagged[seat] = flagged
        return mask

    def observe(self, seat: int) -> ObsType:
        values = self._values[seat]
        self.game.write_observation(seat, values)
        return {"observation": values.copy(), "action_mask": self.mask(seat).copy()}
