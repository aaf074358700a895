"""One game for an environment, played in-process on the rules core or remotely through the server.

Both speak action ids and observation vectors (``splendor.v1.Observation``): an
environment never sees a state's structure, so it runs the same either way.

- ``LocalGame`` needs the ``splendor-engine`` package (``engine_service``) in the same
  Python; opponents are ``engine_service.bots`` policies.
- ``RemoteGame`` needs only a server address: one ``ApplyAction`` a move, asking for the
  next seat's observation (``include_observation``); opponents are server-side bots
  (``ApplyActionRequest.bot``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np
from numpy.typing import NDArray
from splendor.v1 import bots_pb2, engine_service_pb2

from ..client import EngineClient, game_config
from ..errors import RuleRejected


@dataclass(frozen=True)
class Ruleset:
    """What game is dealt: player count, the module in play (None: the base game), a turn limit (0: none)."""

    num_players: int = 2
    module: str | None = None
    turn_limit: int = 0

    @property
    def modules(self) -> frozenset[str]:
        return frozenset() if self.module is None else frozenset({self.module})


class Game(Protocol):
    """A game an environment drives."""

    observation_length: int
    action_count: int
    acting_seat: int | None  # None once the game is over
    winners: tuple[int, ...]

    def reset(self, seed: int) -> None: ...

    def observe(self, seat: int) -> tuple[NDArray[np.float32], NDArray[np.int8]]:
        """The seat's observation values and legal-action mask."""
        ...

    def play(self, action_id: int) -> bool:
        """Apply the acting seat's action; False (and nothing changes) if it is not legal."""
        ...

    def play_bot(self, policy: str, seed: int) -> None:
        """Let the named policy move for the acting seat."""
        ...


class LocalGame:
    """The rules core in this process."""

    def __init__(self, ruleset: Ruleset) -> None:
        from engine_service import bots, rules  # noqa: PLC0415  (the splendor-engine package: only this backend needs it)

        self._rules: Any = rules
        self._bots: Any = bots
        self.ruleset = ruleset
        self.observation_length = rules.observation_layout(ruleset.modules, ruleset.num_players).length
        self.action_count = rules.ACTION_ID_COUNT
        self._state: Any = None
        self.acting_seat: int | None = None
        self.winners: tuple[int, ...] = ()

    def reset(self, seed: int) -> None:
        ruleset = self.ruleset
        config = self._rules.GameConfig(
            ruleset.num_players, seed, modules=ruleset.modules, turn_limit=ruleset.turn_limit
        )
        self._state = self._rules.new_game(config)[0]
        self._update()

    def _update(self) -> None:
        state = self._state
        self.acting_seat = None if state.end_reason is not None else state.acting_seat
        self.winners = state.winners

    def observe(self, seat: int) -> tuple[NDArray[np.float32], NDArray[np.int8]]:
        observation = self._rules.observe(self._state, seat)
        return np.asarray(observation.values, np.float32), np.asarray(observation.legal_action_mask, np.int8)

    def play(self, action_id: int) -> bool:
        rules = self._rules
        try:
            action = rules.action_from_id(action_id)
            self._state = rules.apply(self._state, action)[0]
        except rules.RuleViolation:
            return False
        self._update()
        return True

    def play_bot(self, policy: str, seed: int) -> None:
        # Seeded afresh for every move, as the server's bots are: the same seeds play the same game either way.
        chooser = self._bots.make_policy(policy, seed)
        self._state = self._rules.apply(self._state, chooser.choose(self._state))[0]
        self._update()


class RemoteGame:
    """The rules engine behind a server address, in plain mode (the environment is the trusted platform)."""

    def __init__(self, client: EngineClient, ruleset: Ruleset) -> None:
        self.client = client
        self.ruleset = ruleset
        catalog = client.get_catalog()
        name = f"{ruleset.module or 'base'}/{ruleset.num_players}p"
        self.observation_length = next(layout.length for layout in catalog.observation_layouts if layout.name == name)
        self.action_count = catalog.action_id_count
        self._state: Any = None
        self._observation: Any = None  # the last response's observation (of the seat that must act)
        self.acting_seat: int | None = None
        self.winners: tuple[int, ...] = ()

    def reset(self, seed: int) -> None:
        ruleset = self.ruleset
        modules = () if ruleset.module is None else (ruleset.module,)
        config = game_config(ruleset.num_players, seed, modules=modules, turn_limit=ruleset.turn_limit)
        self._state = self.client.create_game(config).state
        self._observation = None
        self.acting_seat = self._state.seat  # a freshly dealt game waits for no decision
        self.winners = ()

    def observe(self, seat: int) -> tuple[NDArray[np.float32], NDArray[np.int8]]:
        observation = self._observation
        if observation is None or observation.seat != seat:
            request = engine_service_pb2.GetPlayerViewRequest(state=self._state, seat=seat, include_observation=True)
            observation = self.client.view_request(request).observation
        return np.asarray(observation.values, np.float32), np.asarray(observation.legal_action_mask, np.int8)

    def _apply(self, request: engine_service_pb2.ApplyActionRequest) -> None:
        request.state.CopyFrom(self._state)
        request.include_observation = True
        response = self.client.apply_request(request)
        self._state = response.state
        self._observation = response.observation if response.HasField("observation") else None
        self.acting_seat = response.acting_seat if response.HasField("acting_seat") else None
        self.winners = tuple(response.view.winners)

    def play(self, action_id: int) -> bool:
        request = engine_service_pb2.ApplyActionRequest()
        request.action.action_id = action_id
        try:
            self._apply(request)
        except RuleRejected:
            return False
        return True

    def play_bot(self, policy: str, seed: int) -> None:
        self._apply(engine_service_pb2.ApplyActionRequest(bot=bots_pb2.BotChoice(policy=policy, seed=seed)))


def make_game(ruleset: Ruleset, client: EngineClient | None) -> Game:
    """In-process without a client, remote with one."""
    return LocalGame(ruleset) if client is None else RemoteGame(client, ruleset)
