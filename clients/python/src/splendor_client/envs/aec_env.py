"""Every seat an agent: Splendor as a PettingZoo AEC environment.

    env = SplendorAECEnv(num_players=3)
    env.reset(seed=1)
    for agent in env.agent_iter():
        obs, reward, termination, truncation, info = env.last()
        action = None if termination or truncation else pick(obs["observation"], obs["action_mask"])
        env.step(action)

Agents ``seat_0``... act in the game's order (the seat that must act, decisions
included). Rewards at the end: +1 to each seat sharing first place, -1 to the others.
An illegal action ends the game: -1 to its agent, 0 to the others. Pass ``address``
(or ``client``) to play through a server instead of in-process.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from ..client import EngineClient, connect
from .games import Game, Ruleset, make_game

ObsType = dict[str, np.ndarray]


class SplendorAECEnv(AECEnv[str, ObsType, int]):
    metadata = {"name": "splendor_v0", "render_modes": [], "is_parallelizable": False}  # noqa: RUF012

    def __init__(
        self,
        *,
        num_players: int = 2,
        module: str | None = None,
        turn_limit: int = 0,
        address: str | None = None,
        client: EngineClient | None = None,
    ) -> None:
        super().__init__()
        if client is None and address is not None:
            client = connect(address)
        self.game: Game = make_game(Ruleset(num_players, module, turn_limit), client)
        self.possible_agents = [f"seat_{seat}" for seat in range(num_players)]
        length, count = self.game.observation_length, self.game.action_count
        space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, np.inf, (length,), np.float32),
                "action_mask": spaces.Box(0, 1, (count,), np.int8),
            }
        )
        self.observation_spaces = dict.fromkeys(self.possible_agents, space)
        self.action_spaces = {agent: spaces.Discrete(count) for agent in self.possible_agents}

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def observe(self, agent: str) -> ObsType:
        values, mask = self.game.observe(self.possible_agents.index(agent))
        return {"observation": values, "action_mask": mask}

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
        if action is None or not self.game.play(int(action)):
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
