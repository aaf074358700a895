"""The rules in force for a game: the base game plus its enabled modules (see ``plugin.py``).

The turn pipeline is built once per set of modules: the modules' ``after_purchase``
steps, the market refill, the token return, the noble visit, then the modules'
``end_of_turn`` steps. The end condition and the ranking are the base ones unless
a module replaces them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from .ending import rank_by_prestige, reached_prestige_goal
from .modules import MODULES
from .plugin import Module
from .state import DecisionKind, GameState, Standing
from .turn import VISIT_NOBLE, RefillMarket, ReturnExcessTokens, TurnStep


class Ruleset(NamedTuple):
    modules: tuple[Module, ...]
    steps: tuple[TurnStep, ...]
    decision_steps: dict[DecisionKind, int]  # which step asks each kind of decision
    refill_step: int  # index of the market refill among the steps
    triggers_final_round: Callable[[GameState, int], bool]
    rank: Callable[[GameState], tuple[Standing, ...]]


def known_modules() -> frozenset[str]:
    return frozenset(MODULES)


def _build(module_names: frozenset[str]) -> Ruleset:
    modules = tuple(MODULES[name] for name in sorted(module_names))
    steps: list[TurnStep] = [step for module in modules for step in module.after_purchase]
    refill_step = len(steps)
    steps += [RefillMarket(), ReturnExcessTokens(), VISIT_NOBLE]
    steps += [step for module in modules for step in module.end_of_turn]
    decision_steps = {step.decision: index for index, step in enumerate(steps) if step.decision is not None}
    triggers: Callable[[GameState, int], bool] = reached_prestige_goal
    rank: Callable[[GameState], tuple[Standing, ...]] = rank_by_prestige
    for module in modules:
        triggers = module.triggers_final_round or triggers
        rank = module.rank or rank
    return Ruleset(modules, tuple(steps), decision_steps, refill_step, triggers, rank)


_CACHE: dict[frozenset[str], Ruleset] = {}


def ruleset_for(state_or_modules: GameState | frozenset[str]) -> Ruleset:
    """The (cached) ruleset of a game or of a set of module names."""
    names = state_or_modules if isinstance(state_or_modules, frozenset) else state_or_modules.config.modules
    ruleset = _CACHE.get(names)
    if ruleset is None:
        ruleset = _CACHE[names] = _build(names)
    return ruleset
