"""``splendor/Splendor-v0`` as one Gymnasium ``VectorEnv`` of many games, stepped together.

    envs = SplendorVectorEnv(64, address="localhost:50051", opponents="greedy")
    envs = gymnasium.make_vec("splendor/Splendor-v0", num_envs=64, address="localhost:50051")  # the same
    observations, infos = envs.reset(seed=1)        # observations["observation"]: float32[64, L]
    observations, rewards, terminations, truncations, infos = envs.step(actions)

Each game is a ``SplendorEnv``'s (the same options, observations, masks, rewards and infos),
and the whole behaves as Gymnasium's ``SyncVectorEnv`` of ``SplendorEnv``: game ``i`` of
``reset(seed=s)`` is seeded ``s + i``, and every autoreset mode (``autoreset_mode``) and the
``reset_mask`` option of ``reset`` work as there, so the same seeds play the same games.

What it changes is the cost through a server (``address`` or ``client``): a step is one
``BatchApplyActions`` call with one item per game, instead of one ``ApplyAction`` call per move
and game. With opponents the server plays as replies (``random``, ``greedy``), a game's item
carries the learner's move, its opponents' moves until the learner must act again
(``reply_bots``, seeded with the seeds ``SplendorEnv`` would draw: the games are the same) and
the learner's observation, the last one of a game included; a game dealt again rides in the same
call (``deal``). Other opponents (a search policy, a function, a model) move in one more call per
round. The server's ``limits.max_batch_items`` splits larger vectors into several calls.
In-process (no address) the games are played one after the other, as ``SyncVectorEnv`` would.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any, Final

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space
from numpy.typing import NDArray

from ..client import EngineClient, connect, server_bot
from .games import REPLY_POLICIES, Game, Move, RemoteGame, Ruleset, make_game, play_moves
from .gym_env import RENDER_MODES, ActionIds, action_space_for, check_ruleset
from .observer import Observer, ObsType, observation_space
from .opponents import Opponent, OpponentSpec, check_played, opponents_for

# A PCG64 generator's period: advancing by it less n steps it back n draws.
_GENERATOR_PERIOD: Final = 2**128


class _Lane:
    """One game of the vector and what plays it: its opponents, observer and random generator."""

    def __init__(self, game: Game, opponents: dict[int, Opponent], observer: Observer, learner: int) -> None:
        self.game = game
        self.opponents = opponents
        self.observer = observer
        self.rng, _ = seeding.np_random()
        self.over = True  # until the first reset
        # Every move fetches the learner's observation, the last one of a game included, unless an opponent reads
        # its own (a function's): then each move fetches the observation of the seat that must act next.
        names = [opponent.name for opponent in opponents.values()]
        self.observe_seat = learner if None not in names else None
        # A remote game's opponents reply to each move in its item when the server plays them all as replies, with
        # seeds drawn ahead from the game's generator (as many as the moves to the learner's next turn may take,
        # decisions included); those a move leaves unused are given back (``return_seeds``).
        remote = isinstance(game, RemoteGame)
        replying = remote and all(name is not None and server_bot(name).policy in REPLY_POLICIES for name in names)
        self.replies = tuple((seat, opponent.name or "") for seat, opponent in opponents.items()) if replying else ()
        self.seeds_ahead = 2 * len(opponents) + 2
        self.drawn = 0  # seeds drawn ahead for the move in play

    def reply_seeds(self) -> tuple[int, ...]:
        """Seeds for the replies of the next move, drawn ahead (none without replies)."""
        if not self.replies:
            return ()
        raws = self.rng.bit_generator.random_raw(self.seeds_ahead)
        self.drawn = len(raws)
        return tuple(int(raw) >> 1 for raw in raws)

    def return_seeds(self) -> None:
        """Step the game's generator back over the seeds drawn ahead that its replies left unused, so that it draws
        what one draw per opponent move would have (``SplendorEnv``'s, in-process the same)."""
        unused = self.drawn - self.game.replied
        self.drawn = 0
        if unused > 0:
            bits = self.rng.bit_generator
            if not isinstance(bits, np.random.PCG64):  # gymnasium's seeding gives one; nothing else is stepped back
                raise TypeError(f"a game's generator is a PCG64 (gymnasium.utils.seeding), not {type(bits).__name__}")
            bits.advance(_GENERATOR_PERIOD - unused)  # it goes round: back by ``unused``

    def move(self, **fields: Any) -> Move:
        """A move of this game with the lane's observation and replies."""
        return Move(
            self.game, observe_seat=self.observe_seat, replies=self.replies, reply_seeds=self.reply_seeds(), **fields
        )

    def seed(self, seed: int | None) -> None:
        """Seed the game's generator as ``Env.reset(seed=...)`` seeds an environment's (None: keep it)."""
        if seed is not None:
            self.rng, _ = seeding.np_random(seed)

    def deal(self) -> None:
        """Deal the game again: a remote game in its next move's call."""
        seed = int(self.rng.integers(2**63))
        game = self.game
        if isinstance(game, RemoteGame):
            game.deal_later(seed)
        else:
            game.reset(seed)

    def opponent_move(self, learner: int) -> Move | None:
        """The next move of an opponent of ``learner``, or None when the learner must act or the game is over."""
        game = self.game
        seat = game.acting_seat
        if seat is None or seat == learner:
            return None
        # 63 random bits from the game's generator, drawn as SplendorEnv draws them for each opponent move.
        seed = int(self.rng.bit_generator.random_raw()) >> 1
        move = self.opponents[seat].choose(game, seat, self.observer, seed)
        if self.observe_seat is None and not self.replies:
            return move
        return replace(move, observe_seat=self.observe_seat, replies=self.replies, reply_seeds=self.reply_seeds())


class SplendorVectorEnv(VectorEnv[ObsType, NDArray[np.int64], NDArray[Any]]):
    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP}  # noqa: RUF012  (gymnasium reads a class attribute)

    def __init__(
        self,
        num_envs: int = 1,
        *,
        num_players: int = 2,
        module: str | None = None,
        seat: int = 0,
        opponents: OpponentSpec | Sequence[OpponentSpec] = "random",
        turn_limit: int = 0,
        action_ids: ActionIds = "all",
        autoreset_mode: AutoresetMode | str = AutoresetMode.NEXT_STEP,
        address: str | None = None,
        client: EngineClient | None = None,
    ) -> None:
        check_ruleset(num_players, None, RENDER_MODES)
        if num_envs < 1:
            raise ValueError(f"a vector environment holds at least one game, not {num_envs}")
        if not 0 <= seat < num_players:
            raise ValueError(f"seat {seat} is not a seat of a {num_players}-player game")
        self.autoreset_mode = AutoresetMode(autoreset_mode)
        self.metadata = {**self.metadata, "autoreset_mode": self.autoreset_mode}
        self._own_client = connect(address) if client is None and address is not None else None
        client = client or self._own_client
        self.num_envs = num_envs
        self.seat = seat
        ruleset = Ruleset(num_players, module, turn_limit)
        first = make_game(ruleset, client)
        games = [first] + [_another(first, ruleset, client) for _ in range(num_envs - 1)]
        self.actions = action_space_for(first, module, action_ids)
        others = [other for other in range(num_players) if other != seat]
        self._lanes = [
            _Lane(
                game,
                opponents_for(opponents, others, game),
                Observer(game, self.actions, num_players, placeholder=True),
                seat,
            )
            for game in games
        ]
        self._length = first.observation_length
        self.single_observation_space = observation_space(first, self.actions)
        self.single_action_space = spaces.Discrete(self.actions.size)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._autoreset = np.zeros(num_envs, np.bool_)

    def reset(
        self, *, seed: int | Sequence[int | None] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[ObsType, dict[str, Any]]:
        """Deal every game again, or with ``options={"reset_mask": mask}`` the games ``mask`` flags (their
        observations change, the others' are returned as they are). ``seed``: an int seeds game ``i`` with
        ``seed + i``; a list, one seed (or None) per game."""
        seeds = _seeds(seed, self.num_envs)
        options = dict(options or {})
        mask = options.pop("reset_mask", None)
        if options:
            raise ValueError(f"unknown reset options: {', '.join(sorted(options))} (only reset_mask)")
        chosen = np.ones(self.num_envs, np.bool_) if mask is None else _reset_mask(mask, self.num_envs)
        lanes = [lane for lane, flagged in zip(self._lanes, chosen) if flagged]
        for lane, lane_seed in zip(self._lanes, seeds):
            if lane in lanes:
                lane.seed(lane_seed)
                lane.deal()
        self._opponents_move(lanes)
        self._autoreset[chosen] = False
        return self._observations(), {}

    def step(
        self, actions: NDArray[np.int64] | Sequence[int]
    ) -> tuple[ObsType, NDArray[Any], NDArray[Any], NDArray[Any], dict[str, Any]]:
        indices = np.asarray(actions).reshape(self.num_envs)
        rewards = np.zeros(self.num_envs, np.float64)
        terminated = np.zeros(self.num_envs, np.bool_)
        truncated = np.zeros(self.num_envs, np.bool_)
        infos: dict[str, Any] = {}
        if self.autoreset_mode == AutoresetMode.DISABLED and self._autoreset.any():
            first = int(np.flatnonzero(self._autoreset)[0])
            raise RuntimeError(f"the episode of game {first} is over: reset it (options={{'reset_mask': ...}})")
        resetting = self._autoreset.copy() if self.autoreset_mode == AutoresetMode.NEXT_STEP else None
        stepping = [i for i in range(self.num_envs) if resetting is None or not resetting[i]]
        moves: list[Move] = []
        movers: list[int] = []
        illegal: list[int] = []
        for i in stepping:
            lane = self._lanes[i]
            if lane.over:
                raise RuntimeError(f"the episode of game {i} is over: call reset()")
            index = int(indices[i])
            if 0 <= index < self.actions.size:
                # The learner's observation (when its game ends, or its replies or a decision of its own bring it
                # back to the learner), or none: the opponents' moves that follow bring the observation of the seat
                # that acts next.
                moves.append(lane.move(action_id=int(self.actions.stable_ids[index]), observe=False))
                movers.append(i)
            else:
                illegal.append(i)
        dealt = [] if resetting is None else [i for i in range(self.num_envs) if resetting[i]]
        for i in dealt:
            self._lanes[i].deal()
        # Games dealt again in the same call, with their opponents' first moves when they reply.
        moves += [self._lanes[i].move() for i in dealt if self._dealing(self._lanes[i])]
        illegal += [i for i, played in zip(movers, play_moves(moves)) if not played]
        for move_lane in movers + dealt:
            self._lanes[move_lane].return_seeds()
        legal = sorted(set(movers) - set(illegal))
        self._opponents_move([self._lanes[i] for i in legal + dealt])
        step_infos: dict[int, dict[str, Any]] = {i: {"illegal_action": True} for i in illegal}
        for i in illegal:
            self._lanes[i].over = True
            rewards[i], terminated[i] = -1.0, True
        for i in legal:
            over = self._lanes[i].over
            rewards[i], terminated[i] = self._reward(i) if over else 0.0, over
        observations = self._observations()
        done = terminated | truncated
        if self.autoreset_mode == AutoresetMode.SAME_STEP and done.any():
            # As SyncVectorEnv does: the last observation and info of a finished game in the infos, then a new deal.
            finished = [int(i) for i in np.flatnonzero(done)]
            for i in finished:
                final = {key: values[i] for key, values in observations.items()}
                infos = self._add_info(infos, {"final_obs": final, "final_info": step_infos.pop(i, {})}, i)
                self._lanes[i].deal()
            self._opponents_move([self._lanes[i] for i in finished])
            observations = self._observations()
        else:
            self._autoreset = done
        for i, info in step_infos.items():
            infos = self._add_info(infos, info, i)
        return observations, rewards, terminated, truncated, infos

    def _opponents_move(self, lanes: Sequence[_Lane]) -> None:
        """Play the opponents of ``lanes`` until their learner must act or the game ends, one move of every game
        that waits for one a round: a server's games in one call a round. A remote game whose acting seat reads
        its observation (the learner, an opponent's function) and has none is looked at in the round (a game
        just dealt, a learner's own decision after its move). Then mark the games over."""
        waiting = list(lanes)
        while waiting:
            moves: list[Move] = []
            seats: list[int | None] = []  # the opponent's seat of each move; None for a look
            still = []
            for lane in waiting:
                seat = lane.game.acting_seat
                if self._dealing(lane):  # a deal to send: the game as dealt, its opponents' replies if any
                    moves.append(lane.move())
                    seats.append(None)
                elif seat is None:
                    continue
                elif self._needs_look(lane):
                    moves.append(Move(lane.game))
                    seats.append(None)
                elif seat != self.seat:
                    move = lane.opponent_move(self.seat)
                    assert move is not None
                    moves.append(move)
                    seats.append(seat)
                else:
                    continue  # the learner acts, its observation at hand
                still.append(lane)
            for move, seat, played in zip(moves, seats, play_moves(moves)):
                if seat is not None:
                    check_played(move, seat, played)
            for lane in still:
                lane.return_seeds()
            waiting = still
        for lane in lanes:
            lane.over = lane.game.acting_seat is None

    @staticmethod
    def _dealing(lane: _Lane) -> bool:
        game = lane.game
        return isinstance(game, RemoteGame) and game.dealing

    def _needs_look(self, lane: _Lane) -> bool:
        """A remote game whose acting seat reads its observation (the learner, an opponent's function) and has none."""
        game = lane.game
        seat = game.acting_seat
        if not isinstance(game, RemoteGame) or seat is None or game.observed(seat):
            return False
        return seat == self.seat or lane.opponents[seat].name is None

    def _reward(self, i: int) -> float:
        return 1.0 if self.seat in self._lanes[i].game.winners else -1.0

    def _observations(self) -> ObsType:
        """Every game's observation of the learner's seat, in new arrays (a caller may keep them)."""
        values = np.empty((self.num_envs, self._length), np.float32)
        masks = np.zeros((self.num_envs, self.actions.size), np.int8)
        for i, lane in enumerate(self._lanes):
            lane.game.write_observation(self.seat, values[i])
            masks[i, lane.observer.flagged(self.seat)] = 1
        return {"observation": values, "action_mask": masks}

    def action_masks(self) -> NDArray[np.bool_]:
        """The legal actions of the current observations as booleans, one row per game (sb3-contrib's protocol)."""
        return self._observations()["action_mask"].astype(np.bool_)

    def close_extras(self, **kwargs: Any) -> None:
        """Close the connection the environment opened from ``address`` (a ``client`` passed in stays open)."""
        if self._own_client is not None:
            self._own_client.close()
            self._own_client = None


def _another(first: Game, ruleset: Ruleset, client: EngineClient | None) -> Game:
    """One more game like ``first``; a remote one shares its catalog (no GetCatalog call per game)."""
    if isinstance(first, RemoteGame):
        return RemoteGame(first.client, ruleset, catalog=first.catalog())
    return make_game(ruleset, client)


def _seeds(seed: int | Sequence[int | None] | None, count: int) -> list[int | None]:
    if seed is None:
        return [None] * count
    if isinstance(seed, int | np.integer):
        return [int(seed) + i for i in range(count)]
    seeds = list(seed)
    if len(seeds) != count:
        raise ValueError(f"give one seed per game ({count}), not {len(seeds)}")
    return seeds


def _reset_mask(mask: Any, count: int) -> NDArray[np.bool_]:
    if not isinstance(mask, np.ndarray) or mask.dtype != np.bool_ or mask.shape != (count,):
        raise ValueError(f"reset_mask is a numpy array of {count} booleans")
    if not mask.any():
        raise ValueError("reset_mask flags no game")
    return mask
