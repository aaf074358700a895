"""Every seat an agent: Splendor as a PettingZoo AEC environment.

    env = SplendorAECEnv(num_players=3)
    env.reset(seed=1)
    for agent in env.agent_iter():
        obs, reward, termination, truncation, info = env.last()
        action = None if termination or truncation else pick(obs["observation"], obs["action_mask"])
        env.step(action)

Agents ``seat_0``... act in the game's order (the seat that must act, decisions
included). Rewards at the end: +1 to each seat sharing first place, -1 to the others.
An illegal action ends the game: -1 to its agent, 0 to the others. The observation space
is the Gymnasium environment's (an int8 ``MultiBinary`` mask), and so are
``action_ids="ruleset"`` and ``render_mode="ansi"`` (the table from the acting seat). Pass
``address`` (or ``client``) to play through a server instead of in-process.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv  # type: ignore[import-untyped]

from ..client import EngineClient, connect
from .board_text import BoardText
from .games import Game, Ruleset, make_game
from .gym_env import RENDER_MODES, ActionIds, action_space_for, check_ruleset
from .observer import Observer, ObsType, observation_space


class SplendorAECEnv(AECEnv[str, ObsType, int]):  # type: ignore[misc]  # pettingzoo ships no types
    metadata = {"name": "splendor_v0", "render_modes": list(RENDER_MODES), "is_parallelizable": False}  # noqa: RUF012

    def __init__(
        self,
        *,
        num_players: int = 2,
        module: str | None = None,
        turn_limit: int = 0,
        action_ids: ActionIds = "all",
        render_mode: str | None = None,
        address: str | None = None,
        client: EngineClient | None = None,
    ) -> None:
        super().__init__()
        check_ruleset(num_players, render_mode, RENDER_MODES)
        self._own_client = connect(address) if client is None and address is not None else None
        client = client or self._own_client
        self.render_mode = render_mode
        self.game: Game = make_game(Ruleset(num_players, module, turn_limit), client)
        self.actions = action_space_for(self.game, module, action_ids)
        # A seat that need not act sees an empty mask: PettingZoo's loop passes None for it.
        self.observer = Observer(self.game, self.actions, num_players, placeholder=False)
        self.possible_agents = [f"seat_{seat}" for seat in range(num_players)]
        space = observation_space(self.game, self.actions)
        self.observation_spaces = dict.fromkeys(self.possible_agents, space)
        self.action_spaces = {agent: spaces.Discrete(self.actions.size) for agent in self.possible_agents}
        self._board = BoardText()

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def observe(self, agent: str) -> ObsType:
        return self.observer.observe(self.possible_agents.index(agent))

    def close(self) -> None:
        """Close the connection the environment opened from ``address`` (a ``client`` passed in stays open)."""
        if self._own_client is not None:
            self._own_client.close()
            self._own_client = None

    def render(self) -> str | None:
        if self.render_mode != "ansi":
            return None
        return self._board.of(self.game, self.possible_agents.index(self.agent_selection))

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        generator = np.random.default_rng(seed)
        self.game.reset(int(generator.integers(2**63)))
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.agent_selection = self._acting_agent()

    def _acting_agent(self) -> str:
        seat = self.game.acting_seat
        return self.possible_agents[seat if seat is not None else 0]

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        if (
            action is None
            or not 0 <= int(action) < self.actions.size
            or not self.game.play(int(self.actions.stable_ids[int(action)]))
        ):
            self.rewards[agent] = -1.0
            self.infos[agent] = {"illegal_action": True}
            self.terminations = dict.fromkeys(self.agents, True)
        elif self.game.acting_seat is None:
            winners = self.game.winners
            for seat, name in enumerate(self.possible_agents):
                self.rewards[name] = 1.0 if seat in winners else -1.0
            self.terminations = dict.fromkeys(self.agents, True)
        self._accumulate_rewards()
        self.agent_selection = self._acting_agent() if self.game.acting_seat is not None else agent
        if all(self.terminations.values()):
            self.agent_selection = agent
            self._deads_step_first()
