"""Action ids: a fixed integer for every possible action, for legal-action masks."""

from __future__ import annotations

import random

import pytest

from engine_service.rules import (
    ACTION_ID_COUNT,
    ChooseNoble,
    GameConfig,
    Pass,
    PurchaseCard,
    Reason,
    ReserveCard,
    ReserveFromDeck,
    ReturnTokens,
    RuleViolation,
    TakeGems,
    TakeTwoGems,
    action_from_id,
    action_id,
    apply,
    legal_actions,
    new_game,
)
from tests.rules.helpers import tokens


def test_action_id_count_is_pinned() -> None:
    # Base game ranges (370 ids), then the Cities module's ChooseCity (14). Modules only append.
    base = 10 + 10 + 5 + 5 + 120 + 6 + 120 + 1 + 83 + 10
    modules = 14 + 5 + 1 + 90 + 90 + 120 + 120 + 10 + 90 * 90  # cities, trading posts, strongholds, orient
    assert ACTION_ID_COUNT == base + modules == 8920


def test_base_action_ids_never_move() -> None:
    assert action_id(TakeTwoGems(0)) == 25
    assert action_id(Pass()) == 276
    assert action_id(ChooseNoble(9)) == 369


def test_every_action_id_decodes_and_re_encodes_to_itself() -> None:
    for value in range(ACTION_ID_COUNT):
        assert action_id(action_from_id(value)) == value


def test_every_action_id_decodes_to_a_different_action() -> None:
    decoded = {(type(a).__name__, tuple(a)) for a in map(action_from_id, range(ACTION_ID_COUNT))}
    assert len(decoded) == ACTION_ID_COUNT


@pytest.mark.parametrize("value", [-1, ACTION_ID_COUNT, 10**6])
def test_action_id_out_of_range_is_unknown_action(value: int) -> None:
    with pytest.raises(RuleViolation) as caught:
        action_from_id(value)
    assert caught.value.reason is Reason.UNKNOWN_ACTION


@pytest.mark.parametrize(
    ("action", "value"),
    [
        (TakeGems((0, 1, 2)), 0),
        (TakeGems((2, 3, 4)), 9),
        (TakeGems((0, 1)), 10),
        (TakeGems((3, 4)), 19),
        (TakeGems((0,)), 20),
        (TakeGems((4,)), 24),
        (TakeTwoGems(0), 25),
        (TakeTwoGems(4), 29),
        (ReserveCard(0), 30),
        (ReserveCard(119), 149),
        (ReserveFromDeck(0), 150),
        (ReserveFromDeck(5), 155),
        (PurchaseCard(0), 156),
        (PurchaseCard(119), 275),
        (Pass(), 276),
        (ReturnTokens(tokens(white=1)), 277),
        (ReturnTokens(tokens(gold=1)), 282),
        (ReturnTokens(tokens(white=2)), 283),
        (ReturnTokens(tokens(gold=3)), 359),
        (ChooseNoble(0), 360),
        (ChooseNoble(9), 369),
    ],
)
def test_action_id_layout_is_pinned(action, value: int) -> None:
    assert action_id(action) == value
    decoded = action_from_id(value)
    assert type(decoded) is type(action) and decoded == action


def test_action_id_ignores_colour_order_and_explicit_payment() -> None:
    assert action_id(TakeGems((4, 0, 2))) == action_id(TakeGems((0, 2, 4)))
    assert action_id(PurchaseCard(12, tokens(white=1, gold=1))) == action_id(PurchaseCard(12))


@pytest.mark.parametrize(
    "action",
    [
        TakeGems((0, 0, 1)),
        TakeGems((0, 1, 2, 3)),
        TakeGems(()),
        TakeGems((0, 5)),
        TakeTwoGems(5),
        ReserveCard(120),
        ReserveFromDeck(6),
        PurchaseCard(-1),
        ReturnTokens(tokens(white=4)),
        ReturnTokens((1, 0, 0)),
        ChooseNoble(10),
        "pass",
    ],
)
def test_action_without_an_id_is_unknown_action(action) -> None:
    with pytest.raises(RuleViolation) as caught:
        action_id(action)
    assert caught.value.reason is Reason.UNKNOWN_ACTION


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_legal_action_in_random_games_has_a_unique_id(players: int) -> None:
    for game in range(4):
        rng = random.Random(game)
        state, _ = new_game(GameConfig(players, seed=1000 + game))
        while not state.is_over:
            actions = legal_actions(state)
            ids = [action_id(action) for action in actions]
            assert len(set(ids)) == len(ids)
            for action, value in zip(actions, ids):
                decoded = action_from_id(value)
                assert type(decoded) is type(action) and decoded == action
            state, _ = apply(state, rng.choice(actions))


def test_actions_of_different_kinds_never_compare_equal() -> None:
    """Actions are values: a deck reservation is not a take-two, even if both carry the number 2."""
    assert ReserveFromDeck(2) != TakeTwoGems(2)
    assert ReserveCard(3) != TakeTwoGems(3)
    assert ChooseNoble(1) != ReserveFromDeck(1)
    assert len({TakeTwoGems(2), ReserveFromDeck(2), ReserveCard(2), ChooseNoble(2)}) == 4


def test_legal_actions_are_distinct_as_a_set() -> None:
    state, _ = new_game(GameConfig(2, seed=1))
    actions = legal_actions(state)
    assert len(set(actions)) == len(actions)
