"""``splendor/Splendor-v0``: one learning seat against built-in opponents, as a Gymnasium environment.

    env = gymnasium.make("splendor/Splendor-v0", num_players=2, opponents="greedy")
    obs, info = env.reset(seed=1)     # obs: {"observation": float32[L], "action_mask": int8[action ids]}
    obs, reward, terminated, truncated, info = env.step(action_id)

Actions are action ids (``Catalog.action_id_ranges``); the mask flags the legal ones.
Opponents move between the learner's turns. Reward at the end: +1 when the learner
shares first place, -1 otherwise; 0 before. An illegal action ends the episode with -1
(``info["illegal_action"]``), so a policy that ignores the mask learns to use it.
Pass ``address`` (or ``client``) to play through a server instead of in-process.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from ..client import EngineClient, connect
from .games import Game, Ruleset, make_game

ObsType = dict[str, np.ndarray]


class SplendorEnv(gymnasium.Env[ObsType, np.int64]):
    metadata = {"render_modes": []}  # noqa: RUF012  (gymnasium reads a class attribute)

    def __init__(
        self,
        *,
        num_players: int = 2,
        module: str | None = None,
        seat: int = 0,
        opponents: str = "random",
        turn_limit: int = 0,
        address: str | None = None,
        client: EngineClient | None = None,
    ) -> None:
        if not 0 <= seat < num_players:
            raise ValueError(f"seat {seat} is not a seat of a {num_players}-player game")
        if client is None and address is not None:
            client = connect(address)
        self.seat = seat
        self.opponents = opponents
        self.game: Game = make_game(Ruleset(num_players, module, turn_limit), client)
        length, count = self.game.observation_length, self.game.action_count
        self.observation_space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, np.inf, (length,), np.float32),
                "action_mask": spaces.MultiBinary(count),
            }
        )
        self.action_space = spaces.Discrete(count)
        self._seed_source = np.random.default_rng()

    def _observation(self) -> ObsType:
        values, mask = self.game.observe(self.seat)
        return {"observation": values, "action_mask": mask}

    def _opponents_move(self) -> None:
        game = self.game
        while game.acting_seat is not None and game.acting_seat != self.seat:
            game.play_bot(self.opponents, int(self._seed_source.integers(2**63)))

    def _reward(self) -> float:
        if self.game.acting_seat is not None:
            return 0.0
        return 1.0 if self.seat in self.game.winners else -1.0

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[ObsType, dict[str, Any]]:
        super().reset(seed=seed)
        self._seed_source = self.np_random
        self.game.reset(int(self.np_random.integers(2**63)))
        self._opponents_move()
        return self._observation(), {}

    def step(self, action: np.int64 | int) -> tuple[ObsType, float, bool, bool, dict[str, Any]]:
        if self.game.acting_seat != self.seat:
            raise RuntimeError("the episode is over: call reset()")
        if not self.game.play(int(action)):
            return self._observation(), -1.0, True, False, {"illegal_action": True}
        self._opponents_move()
        return self._observation(), self._reward(), self.game.acting_seat is None, False, {}
