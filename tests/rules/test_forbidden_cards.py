"""Rule: a module's ``forbidden_cards`` names exactly the reserves and purchases its ``check_main_action`` refuses.

The legal-action list leaves those cards out instead of asking ``check_main_action``
about every candidate, so the two must agree on every face-up and reserved card.
"""

from __future__ import annotations

import random

import pytest

from engine_service.rules import GameConfig, GameState, RuleViolation, apply, legal_actions, new_game
from engine_service.rules.actions import MainAction, PurchaseCard, ReserveCard
from engine_service.rules.plugin import Module
from engine_service.rules.registry import module_named

MODULES_WITH_FORBIDDEN_CARDS = ("strongholds", "orient")


def refuses(module: Module, state: GameState, action: MainAction) -> bool:
    assert module.check_main_action is not None
    try:
        module.check_main_action(state, action)
    except RuleViolation:
        return True
    return False


@pytest.mark.parametrize("name", MODULES_WITH_FORBIDDEN_CARDS)
def test_forbidden_cards_are_the_cards_check_main_action_refuses(name: str) -> None:
    module = module_named(name)
    assert module.forbidden_cards is not None
    chooser = random.Random(7)
    refusals = 0
    for seed in range(6):
        state, _ = new_game(GameConfig(num_players=2 + seed % 3, seed=seed, modules=frozenset({name})))
        while not state.is_over:
            if state.pending is None:
                forbidden = module.forbidden_cards(state)
                face_up = [card for row in state.market for card in row if card is not None]
                for card in face_up:
                    assert (card in forbidden.reserve) == refuses(module, state, ReserveCard(card))
                for card in face_up + list(state.players[state.seat].reserved):
                    refused = refuses(module, state, PurchaseCard(card))
                    assert (card in forbidden.purchase) == refused
                    refusals += refused
            state, _ = apply(state, chooser.choice(legal_actions(state)))
    assert refusals > 0, "the games never reached a refusal: the check compared nothing"
