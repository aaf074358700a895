"""The seats an environment plays itself: a policy name, a function, or a trained policy (self-play).

- a name (``"random"``, ``"greedy"``, ``"ismcts:20"``): in-process the engine's policy,
  remotely the server's bot, spelt the same either way;
- a function from the seat's observation dict to an action (an index of the environment's
  action space);
- an object with ``predict`` (a trained Stable-Baselines3 model, e.g. a loaded
  ``MaskablePPO``): asked for its deterministic choice on the seat's observation, with
  the seat's mask when its ``predict`` takes ``action_masks``.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Sequence
from typing import Any, Protocol, cast, runtime_checkable

import numpy as np

from .games import Game, Move, play_moves
from .observer import Observer, ObsType

Chooser = Callable[[ObsType], Any]


@runtime_checkable
class Predictor(Protocol):
    """A trained policy in Stable-Baselines3's shape."""

    def predict(self, observation: Any, *args: Any, **kwargs: Any) -> tuple[Any, Any]: ...


OpponentSpec = str | Chooser | Predictor


class Opponent:
    """One seat's way of moving."""

    def __init__(self, spec: OpponentSpec, game: Game) -> None:
        self.name: str | None = None
        self._choose: Chooser | None = None
        if isinstance(spec, str):
            game.check_policy(spec)
            self.name = spec
        elif isinstance(spec, Predictor):
            self._choose = _predicting(spec)
        elif callable(spec):
            self._choose = spec
        else:
            raise TypeError(f"an opponent is a policy name, a function or a model with predict(), not {spec!r}")

    def move(self, game: Game, seat: int, observer: Observer, seed: int) -> None:
        """Play the acting seat's move; ValueError if a function or model picks an illegal action."""
        move = self.choose(game, seat, observer, seed)
        check_played(move, seat, play_moves([move])[0])

    def choose(self, game: Game, seat: int, observer: Observer, seed: int) -> Move:
        """The acting seat's move, to play (``play_moves``, then ``check_played``): the named policy's, seeded with
        ``seed``, or the function's or model's pick on the seat's observation."""
        if self.name is not None:
            return Move(game, policy=self.name, seed=seed)
        assert self._choose is not None
        index = int(self._choose(observer.observe(seat)))
        return Move(game, action_id=observer.actions.stable_id(index))


def check_played(move: Move, seat: int, played: bool) -> None:
    """ValueError for the action of the opponent at ``seat`` that its game refused."""
    if not played:
        raise ValueError(f"the opponent at seat {seat} chose action id {move.action_id}, which is not legal there")


def _predicting(model: Predictor) -> Chooser:
    masked = "action_masks" in inspect.signature(model.predict).parameters

    def choose(observation: ObsType) -> Any:
        if masked:
            mask = observation["action_mask"].astype(np.bool_)
            return model.predict(observation, deterministic=True, action_masks=mask)[0]
        return model.predict(observation, deterministic=True)[0]

    return choose


def opponents_for(spec: OpponentSpec | Sequence[OpponentSpec], seats: Sequence[int], game: Game) -> dict[int, Opponent]:
    """One opponent per seat in ``seats``: the same spec for all, or one spec per seat in seat order."""
    specs: Sequence[OpponentSpec] = spec if isinstance(spec, list | tuple) else [cast(OpponentSpec, spec)] * len(seats)
    if len(specs) != len(seats):
        raise ValueError(f"give one opponent for every other seat ({len(seats)}), not {len(specs)}")
    return {seat: Opponent(one, game) for seat, one in zip(seats, specs)}
