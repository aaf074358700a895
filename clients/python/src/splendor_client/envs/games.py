"""One game for an environment, played in-process on the engine or remotely through the server.

Both speak action ids and observation vectors (``splendor.v1.Observation``): an
environment never sees a state's structure, so it runs the same either way.

- ``LocalGame`` needs the ``splendor-engine`` package in the same Python, reached only
  through its public in-process API (``local_engine``); opponents are the engine's
  policies (``policy_names()`` there).
- ``RemoteGame`` needs only a server address: one ``ApplyAction`` a move, asking for the
  next seat's observation (``include_observation``); opponents are server-side bots
  (``ApplyActionRequest.bot``, the catalog's ``bot_policies``), spelt as in-process
  (``ismcts:20``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np
from numpy.typing import NDArray
from splendor.v1 import catalog_pb2, engine_service_pb2, view_pb2

from ..client import EngineClient, game_config, server_bot
from ..errors import InvalidRequest, RuleRejected
from ..local_engine import local_engine
from .observation_writer import ObservationWriter


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
    action_count: int  # stable action ids: the catalog's action_id_count
    acting_seat: int | None  # None once the game is over
    winners: tuple[int, ...]
    applied: int  # actions applied since the deal, every seat's and decisions included

    def reset(self, seed: int) -> None: ...

    def write_observation(self, seat: int, out: NDArray[np.float32]) -> None:
        """Write the seat's observation values into ``out``."""
        ...

    def legal_ids(self, seat: int) -> Sequence[int]:
        """The action ids legal for ``seat`` (none unless it must act)."""
        ...

    def play(self, action_id: int) -> bool:
        """Apply the acting seat's action; False (and nothing changes) if it is not legal."""
        ...

    def play_bot(self, policy: str, seed: int) -> None:
        """Let the named policy move for the acting seat."""
        ...

    def check_policy(self, policy: str) -> None:
        """Raise ValueError unless this game can run the named policy."""
        ...

    def view(self, seat: int) -> view_pb2.GameView:
        """The seat's view as the contract's message (for rendering)."""
        ...

    def catalog(self) -> catalog_pb2.Catalog: ...


class LocalGame:
    """The engine in this process, through its public in-process API (``engine_service.in_process``)."""

    def __init__(self, ruleset: Ruleset) -> None:
        engine = local_engine()
        self._engine = engine
        # The hot path's functions, looked up once.
        self._legal_actions = engine.legal_actions
        self._action_id = engine.action_id
        self._play = engine.play
        self.ruleset = ruleset
        self._writer = ObservationWriter(ruleset.modules, ruleset.num_players)
        self.observation_length = self._writer.length
        self.action_count = engine.ACTION_ID_COUNT
        self._state: Any = None
        self._legal: list[Any] | None = None  # the acting seat's legal actions, once listed
        self._legal_ids: list[int] = []  # their ids, in the same order
        self._policies: dict[str, Any] = {}  # one policy object per name, reseeded for every move
        self.acting_seat: int | None = None
        self.winners: tuple[int, ...] = ()
        self.applied = 0

    @property
    def state(self) -> Any:
        """The engine's ``GameState`` (the whole truth: for tools that search, never for a learner's input)."""
        return self._state

    def reset(self, seed: int) -> None:
        ruleset = self.ruleset
        self._set(self._engine.deal(ruleset.num_players, seed, modules=ruleset.modules, turn_limit=ruleset.turn_limit))
        self.applied = 0

    def _set(self, state: Any) -> None:
        self._state = state
        self._legal = None
        over = state.end_reason is not None
        self.acting_seat = None if over else state.acting_seat
        self.winners = state.winners if over else ()

    def write_observation(self, seat: int, out: NDArray[np.float32]) -> None:
        self._writer.write(self._state, seat, out)

    def legal_ids(self, seat: int) -> Sequence[int]:
        if seat != self.acting_seat:
            return ()
        return tuple(self._ids_of_acting())

    def _ids_of_acting(self) -> list[int]:
        """The acting seat's legal action ids, in the order of ``self._legal`` (listed once per state)."""
        if self._legal is None:
            self._legal = self._legal_actions(self._state)
            self._legal_ids = list(map(self._action_id, self._legal))
        return self._legal_ids

    def play(self, action_id: int) -> bool:
        if self.acting_seat is None:
            return False
        try:
            index = self._ids_of_acting().index(action_id)
        except ValueError:
            return False
        assert self._legal is not None
        self._set(self._play(self._state, self._legal[index]))
        self.applied += 1
        return True

    def check_policy(self, policy: str) -> None:
        self._engine.make_policy(policy, 0)

    def play_bot(self, policy: str, seed: int) -> None:
        # Seeded afresh for every move, as the server's bots are: the same seeds play the same game either way.
        chooser = self._policies.get(policy)
        if chooser is None:
            chooser = self._policies[policy] = self._engine.make_policy(policy, seed)
        chooser.reseed(seed)
        self._set(self._play(self._state, chooser.choose(self._state)))
        self.applied += 1

    def view(self, seat: int) -> view_pb2.GameView:
        message: view_pb2.GameView = self._engine.view_message(self._state, seat)
        return message

    def catalog(self) -> catalog_pb2.Catalog:
        message: catalog_pb2.Catalog = self._engine.catalog_message()
        return message


class RemoteGame:
    """The rules engine behind a server address, in plain mode (the environment is the trusted platform)."""

    def __init__(self, client: EngineClient, ruleset: Ruleset) -> None:
        self.client = client
        self.ruleset = ruleset
        self._catalog = client.get_catalog()
        name = f"{ruleset.module or 'base'}/{ruleset.num_players}p"
        self.observation_length = next(
            layout.length for layout in self._catalog.observation_layouts if layout.name == name
        )
        self.action_count = self._catalog.action_id_count
        self._state: Any = None
        self._observation: Any = None  # the last response's observation (of the seat that must act)
        self.acting_seat: int | None = None
        self.winners: tuple[int, ...] = ()
        self.applied = 0

    def reset(self, seed: int) -> None:
        ruleset = self.ruleset
        modules = () if ruleset.module is None else (ruleset.module,)
        config = game_config(ruleset.num_players, seed, modules=modules, turn_limit=ruleset.turn_limit)
        self._state = self.client.create_game(config).state
        self._observation = None
        self.acting_seat = self._state.seat  # a freshly dealt game waits for no decision
        self.winners = ()
        self.applied = 0

    def _observation_of(self, seat: int) -> Any:
        observation = self._observation
        if observation is None or observation.seat != seat:
            request = engine_service_pb2.GetPlayerViewRequest(state=self._state, seat=seat, include_observation=True)
            observation = self._observation = self.client.view_request(request).observation
        return observation

    def write_observation(self, seat: int, out: NDArray[np.float32]) -> None:
        out[:] = self._observation_of(seat).values

    def legal_ids(self, seat: int) -> Sequence[int]:
        if seat != self.acting_seat:
            return ()
        mask = np.asarray(self._observation_of(seat).legal_action_mask, np.bool_)
        return tuple(int(action_id) for action_id in np.flatnonzero(mask))

    def _apply(self, request: engine_service_pb2.ApplyActionRequest) -> None:
        request.state.CopyFrom(self._state)
        request.include_observation = True
        response = self.client.apply_request(request)
        self._state = response.state
        self._observation = response.observation if response.HasField("observation") else None
        self.acting_seat = response.acting_seat if response.HasField("acting_seat") else None
        self.winners = tuple(response.view.winners)
        self.applied += 1

    def play(self, action_id: int) -> bool:
        if self.acting_seat is None:
            return False
        request = engine_service_pb2.ApplyActionRequest()
        request.action.action_id = action_id
        try:
            self._apply(request)
        except RuleRejected:
            return False
        return True

    def check_policy(self, policy: str) -> None:
        choice = server_bot(policy)  # the spelling; which policies exist and take iterations is the server's say
        if choice.policy not in self._catalog.bot_policies:
            known = ", ".join(self._catalog.bot_policies)
            raise ValueError(f"the server has no policy {choice.policy!r}: it has {known}")
        if choice.iterations:
            # The server's bound on iterations is its own setting: ask it (validate_only, one search when accepted).
            ruleset = self.ruleset
            modules = () if ruleset.module is None else (ruleset.module,)
            state = self.client.create_game(game_config(ruleset.num_players, 1, modules=modules)).state
            request = engine_service_pb2.ApplyActionRequest(state=state, bot=choice, validate_only=True)
            try:
                self.client.apply_request(request)
            except InvalidRequest as error:
                raise ValueError(f"the server refuses policy {policy!r}: {error}") from error

    def play_bot(self, policy: str, seed: int) -> None:
        self._apply(engine_service_pb2.ApplyActionRequest(bot=server_bot(policy, seed)))

    def view(self, seat: int) -> view_pb2.GameView:
        return self.client.view_request(engine_service_pb2.GetPlayerViewRequest(state=self._state, seat=seat)).view

    def catalog(self) -> catalog_pb2.Catalog:
        return self._catalog


def make_game(ruleset: Ruleset, client: EngineClient | None) -> Game:
    """In-process without a client, remote with one."""
    return LocalGame(ruleset) if client is None else RemoteGame(client, ruleset)
