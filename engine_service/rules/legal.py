"""Legal-action generation: the heart of the engine.

``legal_actions`` lists every action the acting seat may send, without
duplicates; purchases appear once, with the default payment. ``apply`` accepts
exactly these, plus purchases with any valid explicit payment.
"""

from __future__ import annotations

from itertools import combinations

from .actions import (
    Action,
    MainAction,
    Pass,
    PurchaseCard,
    ReserveCard,
    ReserveFromDeck,
    TakeGems,
    TakeTwoGems,
)
from .catalog import CARDS
from .colors import GOLD
from .errors import RuleViolation
from .gems import MAX_DIFFERENT, TWO_SAME_MIN_PILE
from .reserve import RESERVE_LIMIT
from .ruleset import Ruleset, ruleset_for
from .state import GameState

# Every set of different colours, by size, precomputed.
_COLOR_SETS = {size: tuple(combinations(range(5), size)) for size in range(1, MAX_DIFFERENT + 1)}


def legal_actions(state: GameState) -> list[Action]:
    """Every legal action of the acting seat (empty once the game is over)."""
    if state.end_reason is not None:
        return []
    ruleset = ruleset_for(state)
    if state.pending is not None:
        return ruleset.steps[ruleset.decision_steps[state.pending.kind]].choices(state)
    actions: list[Action] = list(main_actions(state, ruleset))
    return actions or [Pass()]


def main_actions(state: GameState, ruleset: Ruleset, stop_at_first: bool = False) -> list[MainAction]:
    """Every legal main action except Pass (``stop_at_first``: just enough to tell if there is one)."""
    actions: list[MainAction] = []
    bank = state.bank
    available = tuple(color for color in range(5) if bank[color])
    if available:
        size = min(MAX_DIFFERENT, len(available))
        if len(available) == 5:
            actions.extend(TakeGems(colors) for colors in _COLOR_SETS[size])
        else:
            actions.extend(TakeGems(colors) for colors in combinations(available, size))
        actions.extend(TakeTwoGems(color) for color in available if bank[color] >= TWO_SAME_MIN_PILE)
        if stop_at_first:
            return _filtered(state, ruleset, actions)
    player = state.players[state.seat]
    tokens = player.tokens
    bonuses = player.bonuses
    gold = tokens[GOLD]
    can_reserve = len(player.reserved) < RESERVE_LIMIT
    for row in state.market:
        for card_id in row:
            if card_id is None:
                continue
            if can_reserve:
                actions.append(ReserveCard(card_id))
            if _affordable(CARDS[card_id].cost, bonuses, tokens, gold):
                actions.append(PurchaseCard(card_id))
    if can_reserve:
        actions.extend(ReserveFromDeck(deck) for deck, pile in enumerate(state.decks) if pile)
    for card_id in player.reserved:
        if _affordable(CARDS[card_id].cost, bonuses, tokens, gold):
            actions.append(PurchaseCard(card_id))
    return _filtered(state, ruleset, actions)


def _affordable(cost: tuple[int, ...], bonuses: tuple[int, ...], tokens: tuple[int, ...], gold: int) -> bool:
    missing = 0
    for color in range(5):
        left = cost[color] - bonuses[color] - tokens[color]
        if left > 0:
            missing += left
            if missing > gold:
                return False
    return True


def _filtered(state: GameState, ruleset: Ruleset, actions: list[MainAction]) -> list[MainAction]:
    """Let modules forbid some actions and add their own."""
    for module in ruleset.modules:
        if module.check_main_action is not None:
            check = module.check_main_action
            kept = []
            for action in actions:
                try:
                    check(state, action)
                except RuleViolation:
                    continue
                kept.append(action)
            actions = kept
        if module.extra_main_actions is not None:
            actions.extend(module.extra_main_actions(state))
    return actions
