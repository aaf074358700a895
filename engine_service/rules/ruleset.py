"""The rules in force for a game: the base game plus its enabled modules (see ``plugin.py``).

The turn pipeline is built once per set of modules, in the order of the rules
README's end-of-turn decision: the modules' ``after_main_action`` steps (before
the market refill), the refill, the noble visit (or a module's replacement),
the modules' ``end_of_turn`` steps, then the return of tokens above ten. The
end condition, the ranking and the payment rules are the base ones unless a
module replaces them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final, NamedTuple

from . import registry
from .actions import Action, MainAction
from .catalog import BASE_DECKS, CARDS_BY_DECK
from .decisions import DecisionKind
from .ending import rank_by_prestige, reached_prestige_goal
from .events import Event
from .market import MARKET_SLOTS
from .plugin import FollowUp, ForbiddenCards, Module, PaymentRules
from .state import GameState, Standing
from .turn import VISIT_NOBLE, RefillMarket, ReturnExcessTokens, TurnStep


class Ruleset(NamedTuple):
    modules: tuple[Module, ...]
    steps: tuple[TurnStep, ...]
    decision_steps: dict[DecisionKind, int]  # which step asks each kind of decision
    refill_step: int  # index of the market refill among the steps
    follow_ups: tuple[FollowUp, ...]  # steps told the main action (the first steps of the pipeline)
    noble_visit: TurnStep
    payment: PaymentRules | None  # None: the base payment rules
    triggers_final_round: Callable[[GameState, int], bool]
    rank: Callable[[GameState], tuple[Standing, ...]]
    deck_slots: tuple[int, ...]  # face-up slots per deck (and market row)
    deck_cards: tuple[frozenset[int], ...]  # the cards of each deck
    all_cards: frozenset[int]  # every card in play in this game
    # The steps' methods, bound once and in step order: compiled code calls a method looked up
    # on a Protocol by name, which costs more than the call itself on the hot path of every turn.
    begins: tuple[Callable[[GameState, list[Event]], GameState], ...]
    resolvers: tuple[Callable[[GameState, Action, list[Event]], GameState], ...]
    choosers: tuple[Callable[[GameState], list[Action]], ...]
    follows: tuple[Callable[[GameState, MainAction, list[Event]], GameState], ...]  # the follow-ups'
    # The modules' hooks on main actions, gathered once so that no list or move looks through every module.
    main_action_checks: tuple[Callable[[GameState, MainAction], None], ...]  # each module's check_main_action
    forbidders: tuple[Callable[[GameState], ForbiddenCards], ...]  # each module's forbidden_cards
    list_filters: tuple[Module, ...]  # the modules that check listed actions one by one, or add their own


def known_modules() -> frozenset[str]:
    return registry.known_modules()


def _build(module_names: frozenset[str]) -> Ruleset:
    modules = tuple(registry.module_named(name) for name in sorted(module_names))
    follow_ups = tuple(module.after_main_action for module in modules if module.after_main_action is not None)
    noble_visit: TurnStep = VISIT_NOBLE
    payment: PaymentRules | None = None
    triggers: Callable[[GameState, int], bool] = reached_prestige_goal
    rank: Callable[[GameState], tuple[Standing, ...]] = rank_by_prestige
    deck_slots = [MARKET_SLOTS] * len(BASE_DECKS)
    for module in modules:
        noble_visit = module.noble_visit or noble_visit
        payment = module.payment or payment
        triggers = module.triggers_final_round or triggers
        rank = module.rank or rank
        for spec in module.decks:
            if spec.deck != len(deck_slots):
                raise ValueError(f"module {module.name}: deck {spec.deck} does not follow deck {len(deck_slots) - 1}")
            deck_slots.append(spec.slots)
    steps: list[TurnStep] = list(follow_ups)
    refill_step = len(steps)
    steps += [RefillMarket(), noble_visit]
    steps += [step for module in modules for step in module.end_of_turn]
    steps.append(ReturnExcessTokens())
    decision_steps: dict[DecisionKind, int] = {}
    for index, step in enumerate(steps):
        for kind in step.decisions:
            if kind in decision_steps:
                raise ValueError(f"two steps ask {kind.name}")
            decision_steps[kind] = index
    deck_cards = tuple(frozenset(CARDS_BY_DECK[deck]) for deck in range(len(deck_slots)))
    return Ruleset(
        modules=modules,
        steps=tuple(steps),
        decision_steps=decision_steps,
        refill_step=refill_step,
        follow_ups=follow_ups,
        noble_visit=noble_visit,
        payment=payment,
        triggers_final_round=triggers,
        rank=rank,
        deck_slots=tuple(deck_slots),
        deck_cards=deck_cards,
        all_cards=frozenset().union(*deck_cards),
        begins=tuple(step.begin for step in steps),
        resolvers=tuple(step.resolve for step in steps),
        choosers=tuple(step.choices for step in steps),
        follows=tuple(follow_up.follow for follow_up in follow_ups),
        main_action_checks=tuple(module.check_main_action for module in modules if module.check_main_action),
        forbidders=tuple(module.forbidden_cards for module in modules if module.forbidden_cards),
        list_filters=tuple(module for module in modules if _filters_listed_actions(module)),
    )


def _filters_listed_actions(module: Module) -> bool:
    """Whether the legal-action list needs the module's ``check_main_action`` per action, or its extra actions."""
    per_action = module.check_main_action is not None and module.forbidden_cards is None
    return per_action or module.extra_main_actions is not None


# The rulesets built so far, by module names. ``apply`` and ``legal_actions`` read it directly, twice a step,
# and call ``ruleset_for`` only for a ruleset not built yet: the call costs more than the lookup.
RULESETS: Final[dict[frozenset[str], Ruleset]] = {}
registry.on_change(RULESETS.clear)


def ruleset_for(state_or_modules: GameState | frozenset[str]) -> Ruleset:
    """The (cached) ruleset of a game or of a set of module names."""
    names = state_or_modules if isinstance(state_or_modules, frozenset) else state_or_modules.config.modules
    ruleset = RULESETS.get(names)
    if ruleset is None:
        ruleset = RULESETS[names] = _build(names)
    return ruleset
