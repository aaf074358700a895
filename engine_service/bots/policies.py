"""Seeded policies over the rules core, and whole games played between them.

    policy = make_policy("ismcts:300", seed=1)   # by name: registry.py
    action = policy.choose(state)            # for state.acting_seat
    outcome = playout(state, [make_policy("greedy", 1), make_policy("random", 2)], random.Random(3))

A policy sees the full state but uses only what its seat may see: ``greedy`` reads the
market and its own holdings, ``ismcts`` resamples everything hidden from its seat before
each iteration.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Final, NamedTuple, Protocol

from engine_service.rules import Action, GameState, apply, legal_actions

from .greedy import greedy_action
from .ismcts import SearchSettings, search

# A game that long has gone wrong (the longest random games are far shorter); stops a broken loop.
MAX_PLAYOUT_ACTIONS: Final = 10_000


class Policy(Protocol):
    """Chooses an action for the acting seat of a game that is not over."""

    name: str

    def choose(self, state: GameState) -> Action: ...

    def reseed(self, seed: int) -> None:
        """Restart the policy's random generator from ``seed``."""
        ...


class _Seeded:
    """A policy's own generator, so two policies never share draws."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def reseed(self, seed: int) -> None:
        self.rng.seed(seed)


class RandomPolicy(_Seeded):
    """Any legal action, uniformly."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.name = "random"

    def choose(self, state: GameState) -> Action:
        legal = _legal(state)
        return legal[self.rng.randrange(len(legal))]


class GreedyPolicy(_Seeded):
    """The greedy strategy (``greedy.py``), ties broken by the seeded generator."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.name = "greedy"

    def choose(self, state: GameState) -> Action:
        return greedy_action(state, _legal(state), self.rng)


class IsmctsPolicy(_Seeded):
    """Information-set Monte Carlo tree search (``ismcts.py``)."""

    def __init__(self, seed: int, settings: SearchSettings | None = None) -> None:
        super().__init__(seed)
        settings = settings if settings is not None else SearchSettings()
        self.name = f"ismcts:{settings.iterations}"
        self.settings = settings

    def choose(self, state: GameState) -> Action:
        return search(state, self.settings, self.rng)


class Outcome(NamedTuple):
    """How a game played out."""

    winners: tuple[int, ...]  # seats sharing first place
    ranking: tuple[tuple[int, int], ...]  # (seat, place), best first
    length: int  # actions applied, decisions included
    final: GameState


def playout(state: GameState, policies: Sequence[Policy], rng: random.Random | None = None) -> Outcome:
    """Play ``state`` to its end, seat ``i`` choosing with ``policies[i]``.

    ``rng``, when given, reseeds every policy first, so one generator fixes the whole game.
    """
    if len(policies) != len(state.players):
        raise ValueError(f"{len(policies)} policies for {len(state.players)} seats")
    if rng is not None:
        for policy in policies:
            policy.reseed(rng.getrandbits(64))
    length = 0
    while state.end_reason is None:
        if length >= MAX_PLAYOUT_ACTIONS:
            raise RuntimeError(f"the game did not end within {MAX_PLAYOUT_ACTIONS} actions")
        action = policies[state.acting_seat].choose(state)
        state = apply(state, action, state.acting_seat)[0]
        length += 1
    ranking = tuple((standing.seat, standing.place) for standing in state.ranking)
    return Outcome(state.winners, ranking, length, state)


def _legal(state: GameState) -> list[Action]:
    legal = legal_actions(state)
    if not legal:
        raise ValueError("the game is over: there is no action to choose")
    return legal
