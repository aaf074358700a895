"""Legal-action generation: the heart of the engine.

``legal_actions`` lists every action the acting seat may send, without
duplicates; purchases appear once, with the default payment. ``apply`` accepts
exactly these, plus purchases with any valid explicit payment.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, cast

from .actions import (
    Action,
    MainAction,
    Pass,
    PurchaseCard,
    ReserveCard,
    ReserveFromDeck,
)
from .catalog import CARDS
from .colors import GOLD
from .errors import RuleViolation
from .gems import gem_actions
from .plugin import ForbiddenCards
from .reserve import RESERVE_LIMIT
from .ruleset import RULESETS, Ruleset, ruleset_for
from .state import GameState

# Actions are immutable, so each possible one is built once and shared (Final: compiled code reads these tables
# as C globals instead of looking them up in the module's dict for every listed action).
_RESERVE: Final = tuple(ReserveCard(card.id) for card in CARDS)
_RESERVE_DECK: Final = tuple(ReserveFromDeck(deck) for deck in range(8))
_RESERVE_DECKS: Final = tuple(_RESERVE_DECK[:count] for count in range(len(_RESERVE_DECK) + 1))  # by number of decks
_PURCHASE: Final = tuple(PurchaseCard(card.id) for card in CARDS)
_COSTS: Final = tuple(card.cost for card in CARDS)


def legal_actions(state: GameState) -> list[Action]:
    """Every legal action of the acting seat (empty once the game is over)."""
    if state.end_reason is not None:
        return []
    ruleset = RULESETS.get(state.config.modules) or ruleset_for(state)
    if state.pending is not None:
        return ruleset.choosers[ruleset.decision_steps[state.pending.kind]](state)
    actions = main_actions(state, ruleset)  # a new list, the caller's to keep
    return cast("list[Action]", actions) if actions else [Pass()]


def main_actions(state: GameState, ruleset: Ruleset, stop_at_first: bool = False) -> list[MainAction]:
    """Every legal main action except Pass (``stop_at_first``: just enough to tell if there is one)."""
    actions: list[MainAction] = list(gem_actions(state.bank))
    if actions and stop_at_first:
        return _filtered(state, ruleset, actions)
    player = state.players[state.seat]
    can_reserve = len(player.reserved) < RESERVE_LIMIT
    reserved: Sequence[int] = player.reserved
    forbidden = _forbidden_cards(state, ruleset)
    if forbidden is not None and forbidden.reserve is forbidden.purchase:
        # One set forbids reserving and buying alike (the Strongholds' occupied cards): its cards are left out at once.
        not_takeable = forbidden.reserve
        candidates = [
            card_id for row in state.market for card_id in row if card_id is not None and card_id not in not_takeable
        ]
        if not not_takeable.isdisjoint(reserved):
            reserved = [card_id for card_id in reserved if card_id not in not_takeable]
        forbidden = None
    else:
        candidates = [card_id for row in state.market for card_id in row if card_id is not None]
    if can_reserve:
        if forbidden is None or not forbidden.reserve:
            actions += [_RESERVE[card_id] for card_id in candidates]
        else:
            not_reservable = forbidden.reserve
            actions.extend(_RESERVE[card_id] for card_id in candidates if card_id not in not_reservable)
        decks = state.decks
        if all(decks):  # every deck has cards (most of the game): the whole prebuilt tuple
            actions.extend(_RESERVE_DECKS[len(decks)])
        else:
            actions += [_RESERVE_DECK[deck] for deck, pile in enumerate(decks) if pile]
    candidates.extend(reserved)
    if ruleset.payment is not None:  # its ``affordable`` leaves out the forbidden purchases too (plugin.py)
        actions += [_PURCHASE[card_id] for card_id in ruleset.payment.affordable(state, state.seat, candidates)]
        return _filtered(state, ruleset, actions) if ruleset.list_filters else actions
    if forbidden is not None:
        not_purchasable = forbidden.purchase
        candidates = [card_id for card_id in candidates if card_id not in not_purchasable]
    tokens = player.tokens
    bonuses = player.bonuses
    # What the player can spend per colour, and their gold (unrolled: this is the hottest loop).
    h0 = tokens[0] + bonuses[0]
    h1 = tokens[1] + bonuses[1]
    h2 = tokens[2] + bonuses[2]
    h3 = tokens[3] + bonuses[3]
    h4 = tokens[4] + bonuses[4]
    gold = tokens[GOLD]
    for card_id in candidates:
        c0, c1, c2, c3, c4 = _COSTS[card_id]
        missing = (
            (c0 - h0 if c0 > h0 else 0)
            + (c1 - h1 if c1 > h1 else 0)
            + (c2 - h2 if c2 > h2 else 0)
            + (c3 - h3 if c3 > h3 else 0)
            + (c4 - h4 if c4 > h4 else 0)
        )
        if missing <= gold:
            actions.append(_PURCHASE[card_id])
    return _filtered(state, ruleset, actions) if ruleset.list_filters else actions


def _forbidden_cards(state: GameState, ruleset: Ruleset) -> ForbiddenCards | None:
    """The cards the modules forbid reserving or buying now (None: no module says)."""
    forbidders = ruleset.forbidders
    if not forbidders:
        return None
    if len(forbidders) == 1:  # modules are played one at a time: that module's answer, as it is
        theirs = forbidders[0](state)
        return theirs if theirs.reserve or theirs.purchase else None
    forbidden = None
    for forbidden_cards in forbidders:
        theirs = forbidden_cards(state)
        if not theirs.reserve and not theirs.purchase:
            continue  # nothing forbidden: the list needs no filtering
        if forbidden is None:
            forbidden = theirs
        else:
            forbidden = ForbiddenCards(forbidden.reserve | theirs.reserve, forbidden.purchase | theirs.purchase)
    return forbidden


def _filtered(state: GameState, ruleset: Ruleset, actions: list[MainAction]) -> list[MainAction]:
    """Let modules forbid some actions and add their own.

    A module listing its ``forbidden_cards`` had them left out already: its
    ``check_main_action`` only refuses actions sent to ``apply``.
    """
    for module in ruleset.list_filters:  # in module order: a later module's check sees an earlier one's extras
        if module.check_main_action is not None and module.forbidden_cards is None:
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
