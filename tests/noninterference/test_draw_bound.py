"""Moves draw only from the top of a deck, at most KEEP_TOP cards of one deck per action: the twins for moves
keep that many in place."""

from __future__ import annotations

import random

import pytest

from engine_service.rules import GameConfig, apply, legal_actions, new_game
from tests.noninterference.twins import KEEP_TOP, RULESETS

GAMES_PER_RULESET = 12


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_action_draws_at_most_keep_top_cards_from_the_top_of_each_deck(ruleset: str) -> None:
    drawn_most = 0
    for game in range(GAMES_PER_RULESET):
        rng = random.Random(game)
        state, _ = new_game(GameConfig(2 + game % 3, game, modules=RULESETS[ruleset]))
        while state.end_reason is None and state.turn < 300:
            after = apply(state, rng.choice(legal_actions(state)))[0]
            for before, now in zip(state.decks, after.decks):
                drawn = len(before) - len(now)
                assert 0 <= drawn <= KEEP_TOP and before[drawn:] == now
                drawn_most = max(drawn_most, drawn)
            state = after
    assert drawn_most == KEEP_TOP  # the bound is reached: it is the true maximum, not a guess
