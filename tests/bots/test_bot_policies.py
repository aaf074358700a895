"""Policies: only legal actions in every module, the same choices for the same seed, whole games played out."""

from __future__ import annotations

import random
import re

import pytest

from engine_service.bots import (
    GreedyPolicy,
    Policy,
    SearchSettings,
    make_policy,
    playout,
    policy_names,
    policy_spec,
    policy_specs,
)
from engine_service.bots.greedy import target_need
from engine_service.rules import (
    CARDS,
    GameConfig,
    GameState,
    PurchaseCard,
    TakeGems,
    TakeTwoGems,
    apply,
    legal_actions,
    new_game,
    state_digest,
)
from tests.bots.positions import MODULES, module_name

SMALL_SEARCH = SearchSettings(iterations=12, playout_depth=4)


def _play(state: GameState, policies: list[Policy], max_actions: int) -> list[object]:
    """Play up to ``max_actions``, checking each choice is among the legal actions; the actions chosen."""
    chosen: list[object] = []
    while state.end_reason is None and len(chosen) < max_actions:
        action = policies[state.acting_seat].choose(state)
        assert action in legal_actions(state)
        chosen.append(action)
        state = apply(state, action)[0]
    return chosen


def _replayed(state: GameState, actions: list[object]) -> GameState:
    for action in actions:
        state = apply(state, action)[0]
    return state


PLAYING_POLICIES = [spec.name for spec in policy_specs() if not spec.searches]  # whole games stay cheap


@pytest.mark.parametrize("modules", MODULES, ids=module_name)
@pytest.mark.parametrize("name", PLAYING_POLICIES)
def test_every_policy_that_does_not_search_chooses_only_legal_actions_to_the_end_of_a_game(
    modules: frozenset[str], name: str
) -> None:
    for seed in range(3):
        state = new_game(GameConfig(num_players=3, seed=seed, modules=modules))[0]
        policies = [make_policy(name, seed * 10 + seat) for seat in range(3)]
        chosen = _play(state, policies, max_actions=10_000)
        final = _replayed(state, chosen)
        assert final.end_reason is not None, f"seed {seed}: no end after {len(chosen)} actions"


@pytest.mark.parametrize("modules", MODULES, ids=module_name)
@pytest.mark.parametrize("name", [spec.name for spec in policy_specs() if spec.searches])
def test_every_search_policy_chooses_only_legal_actions(modules: frozenset[str], name: str) -> None:
    state = new_game(GameConfig(num_players=2, seed=3, modules=modules))[0]
    spec = policy_spec(name)
    policies = [spec.make(1, SMALL_SEARCH), spec.make(2, SMALL_SEARCH)]
    assert len(_play(state, policies, max_actions=40)) == 40


@pytest.mark.parametrize("name", policy_names())
def test_the_same_seed_gives_the_same_choices(name: str) -> None:
    spec = policy_spec(name)

    def actions(seed: int) -> list[object]:
        state = new_game(GameConfig(num_players=2, seed=8, modules=frozenset({"orient"})))[0]
        return _play(state, [spec.make(seed, SMALL_SEARCH), spec.make(seed + 1, SMALL_SEARCH)], max_actions=30)

    assert actions(4) == actions(4)


def test_different_seeds_give_different_random_games() -> None:
    def digest(seed: int) -> str:
        state = new_game(GameConfig(num_players=2, seed=8))[0]
        return state_digest(playout(state, [make_policy("random", seed), make_policy("random", seed + 1)]).final)

    assert digest(1) != digest(2)


def test_greedy_buys_the_affordable_card_with_the_most_points() -> None:
    state = new_game(GameConfig(num_players=2, seed=1, first_seat=0))[0]
    rich = state.players[0]._replace(tokens=(4, 4, 4, 4, 4, 0))
    bank = tuple(count - (4 if color < 5 else 0) for color, count in enumerate(state.bank))
    state = state._replace(players=(rich, state.players[1]), bank=bank)
    purchases = [action for action in legal_actions(state) if isinstance(action, PurchaseCard)]
    best_points = max(CARDS[action.card_id].points for action in purchases)
    choice = GreedyPolicy(0).choose(state)
    assert isinstance(choice, PurchaseCard)
    assert CARDS[choice.card_id].points == best_points


def test_greedy_takes_the_gems_its_nearest_card_lacks_most_at_the_start() -> None:
    state = new_game(GameConfig(num_players=2, seed=1))[0]
    need = target_need(state, state.players[state.seat])
    choice = GreedyPolicy(0).choose(state)
    assert isinstance(choice, TakeGems | TakeTwoGems)
    gained = [choice.color] * 2 if isinstance(choice, TakeTwoGems) else list(choice.colors)
    useful = sum(min(gained.count(color), need[color]) for color in range(5))
    assert need == (2, 1, 0, 0, 0)  # seed 1: the nearest card lacks two white and one blue
    assert useful == 2  # the most one take can bring: white and blue, or two white


def test_playout_reports_the_winners_ranking_and_length() -> None:
    state = new_game(GameConfig(num_players=3, seed=21))[0]
    outcome = playout(state, [make_policy("greedy", seat) for seat in range(3)], random.Random(5))
    final = outcome.final
    assert final.end_reason is not None
    assert outcome.winners == final.winners and outcome.winners
    assert outcome.ranking == tuple((standing.seat, standing.place) for standing in final.ranking)
    assert sorted(seat for seat, _ in outcome.ranking) == [0, 1, 2]
    assert outcome.length > 0


def test_playout_with_one_generator_is_reproducible_whatever_the_policies_seeds() -> None:
    state = new_game(GameConfig(num_players=2, seed=21))[0]
    first = playout(state, [make_policy("random", 1), make_policy("random", 2)], random.Random(9))
    second = playout(state, [make_policy("random", 3), make_policy("random", 4)], random.Random(9))
    assert state_digest(first.final) == state_digest(second.final)


def test_playout_needs_one_policy_per_seat() -> None:
    state = new_game(GameConfig(num_players=3, seed=1))[0]
    with pytest.raises(ValueError, match="2 policies for 3 seats"):
        playout(state, [make_policy("random", 1), make_policy("random", 2)])


@pytest.mark.parametrize(
    ("name", "reason"),
    [
        ("minimax", "unknown policy 'minimax': use one of random, greedy, ismcts"),
        ("random:3", "random does not search: it takes no iterations"),
        ("ismcts:0", "positive number of iterations"),
        ("ismcts:many", "positive number of iterations"),
    ],
)
def test_unknown_policy_names_are_refused(name: str, reason: str) -> None:
    with pytest.raises(ValueError, match=re.escape(reason)):
        make_policy(name, 1)


def test_ismcts_name_carries_its_iterations() -> None:
    assert make_policy("ismcts:50", 1).name == "ismcts:50"
    assert make_policy("ismcts", 1).name == f"ismcts:{SearchSettings().iterations}"
