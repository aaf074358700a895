"""``splendor/Splendor-v0``: one learning seat against opponents, as a Gymnasium environment.

    env = gymnasium.make("splendor/Splendor-v0", num_players=2, opponents="greedy")
    obs, info = env.reset(seed=1)     # obs: {"observation": float32[L], "action_mask": int8[actions]}
    obs, reward, terminated, truncated, info = env.step(action)
    env.unwrapped.action_masks()      # the mask as booleans: sb3-contrib's MaskablePPO reads it

Actions are stable action ids (``Catalog.action_id_ranges``), or with
``action_ids="ruleset"`` only those of the ruleset (370 for the base game;
``env.unwrapped.actions.stable_ids`` maps them). The mask flags the legal ones at every
observation; once the episode is over, it flags action 0 alone, so that a masked
sampler (and a vector environment's autoreset, in every mode) always has one to pick;
``step()`` then refuses until ``reset()``. Opponents move between the learner's turns:
a policy name (``ismcts:20`` in-process or on the server alike), a function of the
seat's observation, or a trained model (self-play); see ``opponents.py``. Reward at the
end: +1 when the learner shares first place, -1 otherwise; 0 before. An illegal action
ends the episode with -1 (``info["illegal_action"]``). ``render_mode="ansi"`` renders the
table from the learner's seat as ``splendor-play`` shows it. Pass ``address`` (or
``client``) to play through a server instead of in-process.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

import gymnasium
import numpy as np
from gymnasium import spaces
from numpy.typing import NDArray

from ..client import EngineClient, connect
from .action_space import ActionSpace
from .board_text import BoardText
from .games import Game, Ruleset, make_game
from .observer import Observer, ObsType, observation_space
from .opponents import OpponentSpec, opponents_for

ActionIds = Literal["all", "ruleset"]
RENDER_MODES = ("ansi",)  # the table as text; no pictures


def action_space_for(game: Game, module: str | None, action_ids: str) -> ActionSpace:
    if action_ids == "all":
        return ActionSpace.full(game.action_count)
    if action_ids == "ruleset":
        return ActionSpace.for_ruleset(module, game.catalog())
    raise ValueError(f"action_ids is 'all' or 'ruleset', not {action_ids!r}")


def check_ruleset(num_players: int, render_mode: str | None, modes: Sequence[str]) -> None:
    if not 2 <= num_players <= 4:
        raise ValueError(f"a game has 2 to 4 players, not {num_players}")
    if render_mode is not None and render_mode not in modes:
        raise ValueError(f"render_mode is one of {', '.join(modes)} or None, not {render_mode!r}")


class SplendorEnv(gymnasium.Env[ObsType, np.int64]):
    metadata = {"render_modes": list(RENDER_MODES), "render_fps": 4}  # noqa: RUF012  (gymnasium reads a class attribute)

    def __init__(
        self,
        *,
        num_players: int = 2,
        module: str | None = None,
        seat: int = 0,
        opponents: OpponentSpec | Sequence[OpponentSpec] = "random",
        turn_limit: int = 0,
        action_ids: ActionIds = "all",
        render_mode: str | None = None,
        address: str | None = None,
        client: EngineClient | None = None,
    ) -> None:
        check_ruleset(num_players, render_mode, RENDER_MODES)
        if not 0 <= seat < num_players:
            raise ValueError(f"seat {seat} is not a seat of a {num_players}-player game")
        self._own_client = connect(address) if client is None and address is not None else None
        client = client or self._own_client
        self.seat = seat
        self.render_mode = render_mode
        self.game: Game = make_game(Ruleset(num_players, module, turn_limit), client)
        self.actions = action_space_for(self.game, module, action_ids)
        others = [other for other in range(num_players) if other != seat]
        self.opponents = opponents_for(opponents, others, self.game)
        self.observer = Observer(self.game, self.actions, num_players, placeholder=True)
        self.observation_space = observation_space(self.game, self.actions)
        self.action_space = spaces.Discrete(self.actions.size)
        self._over = True  # until the first reset
        self._board = BoardText()

    def _observation(self) -> ObsType:
        return self.observer.observe(self.seat)

    def _opponents_move(self) -> None:
        game = self.game
        while game.acting_seat is not None and game.acting_seat != self.seat:
            seat = game.acting_seat
            # 63 random bits from the env's generator (raw: the cheapest draw, taken once per opponent move).
            seed = int(self.np_random.bit_generator.random_raw()) >> 1
            self.opponents[seat].move(game, seat, self.observer, seed)

    def _reward(self) -> float:
        if self.game.acting_seat is not None:
            return 0.0
        return 1.0 if self.seat in self.game.winners else -1.0

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[ObsType, dict[str, Any]]:
        super().reset(seed=seed)
        self.game.reset(int(self.np_random.integers(2**63)))
        self._opponents_move()
        self._over = self.game.acting_seat is None
        return self._observation(), {}

    def step(self, action: np.int64 | int) -> tuple[ObsType, float, bool, bool, dict[str, Any]]:
        if self._over:
            raise RuntimeError("the episode is over: call reset()")
        index = int(action)
        if not (0 <= index < self.actions.size and self.game.play(int(self.actions.stable_ids[index]))):
            self._over = True
            return self._observation(), -1.0, True, False, {"illegal_action": True}
        self._opponents_move()
        self._over = self.game.acting_seat is None
        return self._observation(), self._reward(), self._over, False, {}

    def action_masks(self) -> NDArray[np.bool_]:
        """The legal actions of the current observation as booleans (sb3-contrib's ``MaskablePPO`` protocol)."""
        return self.observer.mask(self.seat).astype(np.bool_)

    def close(self) -> None:
        """Close the connection the environment opened from ``address`` (a ``client`` passed in stays open)."""
        if self._own_client is not None:
            self._own_client.close()
            self._own_client = None

    def render(self) -> str | None:
        if self.render_mode != "ansi":
            return None
        return self._board.of(self.game, self.seat)
