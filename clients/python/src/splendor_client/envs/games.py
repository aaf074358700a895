"""One game for an environment, played in-process on the engine or remotely through the server.

Both speak action ids and observation vectors (``splendor.v1.Observation``): an
environment never sees a state's structure, so it runs the same either way.

- ``LocalGame`` needs the ``splendor-engine`` package in the same Python, reached only
  through its public in-process API (``local_engine``); opponents are the engine's
  policies (``policy_names()`` there).
- ``RemoteGame`` needs only a server address: one ``ApplyAction`` a move, asking for the
  next seat's observation with its legal actions as ids (``include_observation``,
  ``observation_legal_ids``); opponents are server-side bots (``ApplyActionRequest.bot``,
  the catalog's ``bot_policies``), spelt as in-process (``ismcts:20``).

``play_moves`` plays moves of many games at once: a server's games in one
``BatchApplyActions`` call (a vector environment's step), in-process games one after the other.
A move may carry the replies of server-side bots (``Move.replies``): the opponents' moves that
follow it, played in the same item remotely (``reply_bots``), one after the other in-process.
A remote game can also be dealt in the next call (``RemoteGame.deal_later``): its deal rides
in that call's item for it (``ApplyActionRequest.deal``) instead of a ``CreateGame`` call.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any, Final, Protocol

import numpy as np
from numpy.typing import NDArray
from splendor.v1 import catalog_pb2, engine_service_pb2, observation_pb2, view_pb2

from ..client import EngineClient, game_config, server_bot
from ..errors import EngineError, InvalidRequest, RuleRejected, from_status
from ..local_engine import local_engine
from .observation_writer import ObservationWriter

# What a look asks for (``Move`` with neither action nor policy): a validate-only move of this policy, which changes
# nothing and answers with the acting seat's observation.
LOOK_POLICY: Final = "random"
# The policies a server plays as replies (``ApplyActionRequest.reply_bots``): those that do not search.
REPLY_POLICIES: Final = frozenset({"random", "greedy"})


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
    replied: int  # replies (``Move.replies``) played after the last move

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


@dataclass(frozen=True)
class Move:
    """One move of the acting seat in ``game``: an action by its stable id, or the choice of the named policy
    seeded with ``seed``; with neither, a look: nothing is played, the acting seat's observation is fetched
    (a remote game just dealt has none). ``observe``: a remote game fetches the observation of the seat that
    must act next with the move (without, reading it later costs a look). ``observe_seat``: instead, that seat's
    observation, whichever seat must act next and once the game is over (its last one: no call to read it).
    ``replies``: (seat, policy) pairs of ``REPLY_POLICIES``: once the move is played, while one of these seats must
    act, its policy plays, the k-th reply seeded with ``reply_seeds[k]``, until the seeds run out (``Game.replied``
    counts them)."""

    game: Game
    action_id: int | None = None
    policy: str | None = None
    seed: int = 0
    observe: bool = True
    observe_seat: int | None = None
    replies: tuple[tuple[int, str], ...] = ()
    reply_seeds: tuple[int, ...] = ()


def play_moves(moves: Sequence[Move]) -> list[bool]:
    """Play each move in its game (one move per game): a server's games together, in one ``BatchApplyActions``
    call per ``limits.max_batch_items`` moves. For each move, whether it was played: False for an action its game
    refused (illegal: nothing changed) and for any move of a game over. Any other refusal raises."""
    played = [True] * len(moves)
    remote: dict[int, list[int]] = {}  # one batch per client
    for index, move in enumerate(moves):
        game = move.game
        game.replied = 0
        if isinstance(game, RemoteGame):
            remote.setdefault(id(game.client), []).append(index)
        else:
            played[index] = _play_one(move)
    for indices in remote.values():
        for index, was_played in zip(indices, RemoteGame.play_batch([moves[index] for index in indices])):
            played[index] = was_played
    return played


def _play_one(move: Move) -> bool:
    game = move.game
    if move.action_id is not None:
        if not game.play(move.action_id):
            return False
    elif move.policy is not None:
        game.play_bot(move.policy, move.seed)
    bots = dict(move.replies)
    for seed in move.reply_seeds:
        seat = game.acting_seat
        if seat is None or seat not in bots:
            break
        game.play_bot(bots[seat], seed)
        game.replied += 1
    return True


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
        self.replied = 0

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

    def __init__(self, client: EngineClient, ruleset: Ruleset, catalog: catalog_pb2.Catalog | None = None) -> None:
        """A game of ``ruleset`` on ``client``'s server (``catalog``: the server's, if already fetched)."""
        self.client = client
        self.ruleset = ruleset
        self._catalog = client.get_catalog() if catalog is None else catalog
        name = f"{ruleset.module or 'base'}/{ruleset.num_players}p"
        self.observation_length = next(
            layout.length for layout in self._catalog.observation_layouts if layout.name == name
        )
        self.action_count = self._catalog.action_id_count
        # The most moves one batch carries (a server that publishes no limits takes one at a time).
        self.batch_limit = self._catalog.limits.max_batch_items or 1
        self._state: Any = None
        self._observation: Any = None  # the last response's observation (of the seat that must act)
        self._deal: Any = None  # the config of a deal to send with the next move (``deal_later``)
        self.acting_seat: int | None = None
        self.winners: tuple[int, ...] = ()
        self.applied = 0
        self.replied = 0

    def _config(self, seed: int) -> Any:
        ruleset = self.ruleset
        modules = () if ruleset.module is None else (ruleset.module,)
        return game_config(ruleset.num_players, seed, modules=modules, turn_limit=ruleset.turn_limit)

    def reset(self, seed: int) -> None:
        self._deal = None
        self._state = self.client.create_game(self._config(seed)).state
        self._observation = None
        self.acting_seat = self._state.seat  # a freshly dealt game waits for no decision
        self.winners = ()
        self.applied = 0

    def deal_later(self, seed: int) -> None:
        """Deal again, as ``reset`` does, in the next move's call: until then the game is ``dealing`` and any move
        plays on the new game (a move with neither action nor policy plays none: its replies, if any, still play)."""
        self._deal = self._config(seed)
        self._observation = None
        self.winners = ()
        self.applied = 0

    @property
    def dealing(self) -> bool:
        """Is a deal waiting for the next move (``deal_later``)?"""
        return self._deal is not None

    def _settle(self) -> None:
        """Send a deal that waits (in a call of its own: a caller that reads the game before its next move)."""
        if self._deal is not None:
            self._play(Move(self, observe=False))

    def _observation_of(self, seat: int) -> Any:
        self._settle()
        observation = self._observation
        if observation is None or observation.seat != seat:
            request = engine_service_pb2.GetPlayerViewRequest(
                state=self._state, seat=seat, include_observation=True, observation_legal_ids=True
            )
            observation = self._observation = self.client.view_request(request).observation
        return observation

    def observed(self, seat: int) -> bool:
        """Is ``seat``'s observation at hand (else reading it costs a call)?"""
        return self._observation is not None and self._observation.seat == seat

    def write_observation(self, seat: int, out: NDArray[np.float32]) -> None:
        out[:] = packed_values(self._observation_of(seat))

    def legal_ids(self, seat: int) -> Sequence[int]:
        if seat != self.acting_seat:
            return ()
        return tuple(self._observation_of(seat).legal_action_ids)

    def _fill(self, request: engine_service_pb2.ApplyActionRequest, move: Move) -> None:
        """``move`` as a request about this game (an empty one: a batch's item is filled in place). The game reads
        the new state and the observation, never the events or the view: the response leaves them out."""
        deal = self._deal
        if deal is None:
            request.state.CopyFrom(self._state)
        else:
            request.deal.CopyFrom(deal)
        request.skip_events = request.skip_view = True
        looks = move.action_id is None and move.policy is None
        if move.observe_seat is not None:
            request.observation_seat = move.observe_seat
            request.observation_legal_ids = True
        elif move.observe or looks:
            request.include_observation = True
            request.observation_legal_ids = True
        if move.action_id is not None:
            request.action.action_id = move.action_id
        elif not looks:
            bot = request.bot
            bot.policy, bot.iterations = _spelled(move.policy or LOOK_POLICY)
            bot.seed = move.seed
        elif deal is None:  # a look at a game as it is: a bot's choice checked, not applied
            bot = request.bot
            bot.policy, bot.iterations = _spelled(LOOK_POLICY)
            request.validate_only = True
        if move.reply_seeds:
            bots = request.reply_bots
            for seat, policy in move.replies:
                bots[seat].policy = _spelled(policy)[0]
            request.reply_seeds.extend(move.reply_seeds)

    def _absorb(self, response: engine_service_pb2.ApplyActionResponse, move: Move) -> None:
        """The game after ``move``, from its response."""
        self._observation = response.observation if response.HasField("observation") else None
        moved = move.action_id is not None or move.policy is not None
        if not moved and self._deal is None:
            return  # a look: the game is where it was
        self._deal = None
        self._state = response.state
        self.acting_seat = response.acting_seat if response.HasField("acting_seat") else None
        self.winners = tuple(self._state.winners)
        self.replied = len(response.replies)
        self.applied += moved + self.replied

    def _play(self, move: Move) -> bool:
        if move.action_id is not None and self.acting_seat is None and self._deal is None:
            return False
        request = engine_service_pb2.ApplyActionRequest()
        self._fill(request, move)
        try:
            response = self.client.apply_request(request)
        except RuleRejected:
            if move.action_id is None:
                raise
            return False
        self._absorb(response, move)
        return True

    @staticmethod
    def play_batch(moves: Sequence[Move]) -> list[bool]:
        """Moves of games of one client, each game once, in ``BatchApplyActions`` calls of at most the server's
        ``max_batch_items``: whether each was played (``play_moves``)."""
        played = [False] * len(moves)
        pending = [index for index, move in enumerate(moves) if _playable(move)]
        if not pending:
            return played
        first = moves[pending[0]].game
        assert isinstance(first, RemoteGame)
        limit = first.batch_limit
        for start in range(0, len(pending), limit):
            chunk = pending[start : start + limit]
            batch = engine_service_pb2.BatchApplyActionsRequest()
            items = batch.requests
            for index in chunk:
                move = moves[index]
                game = move.game
                assert isinstance(game, RemoteGame) and game.client is first.client
                game._fill(items.add(), move)
            results = first.client.batch_request(batch).results
            for index, result in zip(chunk, results):
                move = moves[index]
                if result.HasField("error"):
                    error: EngineError = from_status(result.error)
                    if move.action_id is not None and isinstance(error, RuleRejected):
                        continue  # an illegal action: nothing changed
                    raise error
                game = move.game
                assert isinstance(game, RemoteGame)
                game._absorb(result.response, move)
                played[index] = True
        return played

    def play(self, action_id: int) -> bool:
        return self._play(Move(self, action_id=action_id))

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
        self._play(Move(self, policy=policy, seed=seed))

    def view(self, seat: int) -> view_pb2.GameView:
        self._settle()
        return self.client.view_request(engine_service_pb2.GetPlayerViewRequest(state=self._state, seat=seat)).view

    def catalog(self) -> catalog_pb2.Catalog:
        return self._catalog


@cache
def _spelled(spec: str) -> tuple[str, int]:
    """A bot spec's policy and iterations (``server_bot``'s reading, once per spec)."""
    choice = server_bot(spec)
    return choice.policy, choice.iterations


def _playable(move: Move) -> bool:
    """Has the move's game a seat to move (or to look at), or a deal to send? A game over has none: nothing to
    send."""
    game = move.game
    return game.acting_seat is not None or (isinstance(game, RemoteGame) and game.dealing)


def packed_values(observation: observation_pb2.Observation) -> NDArray[np.float32]:
    """``observation.values`` as float32, read from their packed wire bytes in one copy: converting the repeated field
    takes a Python float per value. Alone in a message, the field's bytes end it (proto3 packs repeated numbers)."""
    count = len(observation.values)
    data = observation_pb2.Observation(values=observation.values).SerializeToString()
    return np.frombuffer(data, "<f4", count, len(data) - 4 * count)


def make_game(ruleset: Ruleset, client: EngineClient | None) -> Game:
    """In-process without a client, remote with one."""
    return LocalGame(ruleset) if client is None else RemoteGame(client, ruleset)
