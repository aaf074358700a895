"""The rules in force for a game: the base game plus its enabled modules.

A ``Module`` plugs into named points of the turn instead of adding branches to
the base turn:

* ``setup``: change the freshly dealt game (add decks, tiles, remove nobles...);
* ``check_main_action``: refuse a main action the module forbids;
* ``extra_main_actions``: main actions the module adds to the legal list;
* ``after_purchase`` steps: run after a purchase, before the market is refilled;
* ``end_of_turn`` steps: run after the token return, in the order listed;
* ``triggers_final_round`` and ``rank``: replace the base end condition and ranking.

The base game alone is ``Ruleset(modules=frozenset())``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final, NamedTuple

from .actions import MainAction
from .ending import rank_by_prestige, reached_prestige_goal
from .state import DecisionKind, GameState, Standing
from .turn import RefillMarket, ReturnExcessTokens, TurnStep, VisitNoble


class Module(NamedTuple):
    """What a Cities of Splendor module changes, at the named points of the turn."""

    name: str
    setup: Callable[[GameState], GameState] | None = None
    check_main_action: Callable[[GameState, MainAction], None] | None = None
    extra_main_actions: Callable[[GameState], list[MainAction]] | None = None
    after_purchase: tuple[TurnStep, ...] = ()
    end_of_turn: tuple[TurnStep, ...] = ()
    triggers_final_round: Callable[[GameState, int], bool] | None = None
    rank: Callable[[GameState], tuple[Standing, ...]] | None = None


# Modules register here (name -> Module); the Cities of Splendor issue adds them.
MODULES: Final[dict[str, Module]] = {}


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
    steps += [RefillMarket(), ReturnExcessTokens(), VisitNoble()]
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
