"""The greedy strategy, on the rules core's own types: the ``greedy`` policy.

The Python client's ``GreedyBot`` (``splendor_client/bots.py``) mirrors it on the contract's
messages, so that the client plays it without the engine: change both together
(``tests/bots/test_greedy_mirror.py`` checks that they choose the same moves).

1. Buy the affordable card with the most points (fewest tokens spent on ties).
2. Otherwise take the gems that bring it closest to the card it is nearest to
   affording (the "target": least missing, then most points).
3. Otherwise reserve the market card with the most points, or do anything legal.

Decisions: return the tokens it holds most of (gold last); choose the noble with the
most points; buy a conquerable card; take the free card or reserve the noble with the
most points; take the gem colour its target lacks most; any legal answer to the others.

It reads only what the acting seat sees (the market, its own holdings and reserves).
Module decisions are told apart by the pending decision's kind and read through the
actions' fields, so only names the rules core exports are needed.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Final

from engine_service.rules import (
    CARDS,
    GOLD,
    NOBLES,
    Action,
    ChooseNoble,
    DecisionKind,
    GameState,
    PlayerState,
    PurchaseCard,
    ReserveCard,
    ReturnTokens,
    TakeGems,
    TakeTwoGems,
)

_GEMS: Final = range(5)
_COST_SUMS: Final = tuple(sum(card.cost) for card in CARDS)


def greedy_action(state: GameState, legal: Sequence[Action], rng: random.Random) -> Action:
    """The greedy choice among ``legal`` (never empty); ties go to a random one."""
    if not legal:
        raise ValueError("no legal action to choose from")
    options = list(legal)
    rng.shuffle(options)  # max() keeps the first best, so ties go to a random one
    player = state.players[state.acting_seat]
    pending = state.pending
    if pending is not None:
        return _decision(state, player, pending.kind, options)
    purchases = [action for action in options if isinstance(action, PurchaseCard)]
    if purchases:
        return max(purchases, key=lambda action: (CARDS[action.card_id].points, -_COST_SUMS[action.card_id]))
    takes = [action for action in options if isinstance(action, TakeGems | TakeTwoGems)]
    need = target_need(state, player)
    if takes and any(need):
        best = max(takes, key=lambda action: _useful(action, need))
        if _useful(best, need) > 0:
            return best
    reserves = [action for action in options if isinstance(action, ReserveCard)]
    if reserves:
        return max(reserves, key=lambda action: CARDS[action.card_id].points)
    if takes:
        return max(takes, key=_gem_count)
    return options[0]


def _decision(state: GameState, player: PlayerState, kind: DecisionKind, options: list[Action]) -> Action:
    if kind == DecisionKind.RETURN_TOKENS:
        held = player.tokens
        return max(options, key=lambda action: _return_score(action, held))
    if kind == DecisionKind.CHOOSE_NOBLE:
        return max(options, key=lambda action: NOBLES[action.noble_id].points if isinstance(action, ChooseNoble) else 0)
    if kind == DecisionKind.RESERVE_NOBLE:
        return max(options, key=lambda action: _noble_points(_field(action, "noble_id")))
    if kind in (DecisionKind.TAKE_FREE_CARD, DecisionKind.CONQUER):
        # CONQUER: buying the card beats declining (a decline has no card, scoring below every card).
        return max(options, key=lambda action: _card_points(_field(action, "card_id")))
    if kind == DecisionKind.TAKE_GEM:
        need = target_need(state, player)
        return max(options, key=lambda action: _color_need(_field(action, "color"), need))
    return options[0]


def target_need(state: GameState, player: PlayerState) -> tuple[int, ...]:
    """The gems still missing for the card the player is nearest to affording (all zero if none)."""
    candidates = [card_id for row in state.market for card_id in row if card_id is not None]
    candidates += player.reserved
    tokens = player.tokens
    bonuses = player.bonuses
    best: tuple[int, int] | None = None
    best_need: tuple[int, ...] = (0, 0, 0, 0, 0)
    for card_id in candidates:
        card = CARDS[card_id]
        cost = card.cost
        need = tuple(max(0, cost[color] - bonuses[color] - tokens[color]) for color in _GEMS)
        missing = sum(need) - tokens[GOLD]
        if missing <= 0:
            continue  # affordable already: buying it is up to the purchase rule
        rank = (missing, -card.points)
        if best is None or rank < best:
            best, best_need = rank, need
    return best_need


def _field(action: Action, name: str) -> int | None:
    value = getattr(action, name, None)  # module answers are records with named fields
    return value if isinstance(value, int) else None


def _card_points(card_id: int | None) -> int:
    return CARDS[card_id].points if card_id is not None else -1


def _noble_points(noble_id: int | None) -> int:
    return NOBLES[noble_id].points if noble_id is not None else -1


def _color_need(color: int | None, need: tuple[int, ...]) -> int:
    return need[color] if color is not None and 0 <= color < len(need) else 0


def _return_score(action: Action, held: tuple[int, ...]) -> int:
    if not isinstance(action, ReturnTokens):
        return 0
    returned = action.tokens
    return sum(returned[color] * held[color] for color in _GEMS) - 100 * returned[GOLD]


def _gained(action: TakeGems | TakeTwoGems) -> tuple[int, ...]:
    if isinstance(action, TakeTwoGems):
        return tuple(2 if color == action.color else 0 for color in _GEMS)
    return tuple(action.colors.count(color) for color in _GEMS)


def _useful(action: TakeGems | TakeTwoGems, need: tuple[int, ...]) -> int:
    return sum(min(gained, missing) for gained, missing in zip(_gained(action), need))


def _gem_count(action: TakeGems | TakeTwoGems) -> int:
    return 2 if isinstance(action, TakeTwoGems) else len(action.colors)
