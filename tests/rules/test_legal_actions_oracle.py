"""Rule: ``legal_actions`` lists exactly the actions ``apply`` accepts (python-chess style perft check).

Every one of the ACTION_ID_COUNT possible actions is tried against ``apply`` in
states from random games; the accepted ids must be the listed ids, with no
duplicates in the list. The 8100 ids of moved strongholds are tried in every
state with a pending decision and in every tenth other state (they answer a
decision, so elsewhere they are refused before any rule is looked at), the
other ids in every state.
"""

from __future__ import annotations

import random

import pytest

from engine_service.rules import (
    ACTION_ID_COUNT,
    GameConfig,
    GameState,
    RuleViolation,
    action_from_id,
    action_id,
    apply,
    legal_actions,
    new_game,
)
from engine_service.rules.modules.strongholds import MOVE_STRONGHOLD
from tests.rulesets import MODULE_NAMES

ALL_IDS = tuple(range(ACTION_ID_COUNT))
IDS_BUT_MOVES = tuple(range(MOVE_STRONGHOLD))


def accepted_ids(state: GameState, candidates: tuple[int, ...]) -> set[int]:
    accepted = set()
    for candidate in candidates:
        try:
            apply(state, action_from_id(candidate))
        except RuleViolation:
            continue
        accepted.add(candidate)
    return accepted


def check_random_games(players: int, seeds: range, modules: frozenset[str] = frozenset()) -> int:
    chooser = random.Random(players)
    checked = 0
    for seed in seeds:
        state, _ = new_game(GameConfig(num_players=players, seed=seed, modules=modules))
        while not state.is_over:
            listed = [action_id(action) for action in legal_actions(state)]
            assert len(listed) == len(set(listed)), "legal_actions lists an action twice"
            every_id = state.pending is not None or checked % 10 == 0
            candidates = ALL_IDS if every_id else IDS_BUT_MOVES
            assert accepted_ids(state, candidates) == {id_ for id_ in listed if id_ in set(candidates)}
            checked += 1
            state, _ = apply(state, chooser.choice(legal_actions(state)))
    return checked


@pytest.mark.parametrize("players", [2, 3, 4])
def test_legal_actions_are_exactly_the_actions_apply_accepts(players: int) -> None:
    assert check_random_games(players, range(3)) > 100


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("module", MODULE_NAMES)
def test_legal_actions_are_exactly_the_accepted_actions_in_every_module(module: str, players: int) -> None:
    assert check_random_games(players, range(1), frozenset({module})) > 30
