"""Rule: ``legal_actions`` lists exactly the actions ``apply`` accepts (python-chess style perft check).

Every one of the ACTION_ID_COUNT possible actions is tried against ``apply`` in
states from random games; the accepted ids must be the listed ids, with no
duplicates in the list.
"""

from __future__ import annotations

import random

import pytest

from engine_service.rules import (
    ACTION_ID_COUNT,
    GameConfig,
    RuleViolation,
    action_from_id,
    action_id,
    apply,
    legal_actions,
    new_game,
)


def accepted_ids(state: object) -> set[int]:
    accepted = set()
    for candidate in range(ACTION_ID_COUNT):
        try:
            apply(state, action_from_id(candidate))  # type: ignore[arg-type]
        except RuleViolation:
            continue
        accepted.add(candidate)
    return accepted


@pytest.mark.parametrize("players", [2, 3, 4])
def test_legal_actions_are_exactly_the_actions_apply_accepts(players: int) -> None:
    chooser = random.Random(players)
    checked = 0
    for seed in range(3):
        state, _ = new_game(GameConfig(num_players=players, seed=seed))
        while not state.is_over:
            listed = [action_id(action) for action in legal_actions(state)]
            assert len(listed) == len(set(listed)), "legal_actions lists an action twice"
            assert accepted_ids(state) == set(listed)
            checked += 1
            state, _ = apply(state, chooser.choice(legal_actions(state)))
    assert checked > 100
