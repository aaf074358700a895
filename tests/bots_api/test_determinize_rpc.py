"""Determinize: samples keep the seat's view, are uniform over what it cannot see, and carry nothing of the truth."""

from __future__ import annotations

from collections import Counter

import pytest
from splendor.v1 import engine_service_pb2

from engine_service.api import ApiError, Call, Code
from engine_service.api.determinize import MAX_SAMPLES, determinize
from engine_service.codec import state_from_proto, state_to_proto
from engine_service.rules import GameConfig, GameState, ReserveFromDeck, TakeGems, apply, new_game, view_for

# Chi-square critical values at p = 0.001 (fixed seeds: the test is deterministic, the margin wide).
_CRITICAL_0001 = {35: 66.62}


def _with_blind_reserve() -> GameState:
    """Seat 1 reserved the top card of deck 0 unseen."""
    state = new_game(GameConfig(2, 11, first_seat=0))[0]
    state = apply(state, TakeGems((0, 1, 2)))[0]
    return apply(state, ReserveFromDeck(0))[0]


def _samples(state: GameState, seat: int, count: int, seed: int) -> list[GameState]:
    request = engine_service_pb2.DeterminizeRequest(state=state_to_proto(state), seat=seat, count=count, seed=seed)
    return [state_from_proto(each) for each in determinize(request, Call("t")).states]


def _chi_square(counts: Counter[int], categories: int, total: int) -> float:
    expected = total / categories
    return sum((counts.get(index, 0) - expected) ** 2 / expected for index in range(categories))


def test_every_sample_looks_the_same_to_the_seat_and_is_not_the_truth() -> None:
    state = _with_blind_reserve()
    samples = _samples(state, 0, MAX_SAMPLES, seed=1)
    assert all(view_for(sample, 0) == view_for(state, 0) for sample in samples)
    assert all(sample.config.seed != state.config.seed for sample in samples)
    assert len({sample.decks for sample in samples}) == MAX_SAMPLES


def test_the_other_seats_blind_card_is_uniform_over_the_cards_it_could_be() -> None:
    state = _with_blind_reserve()
    pool = sorted(state.decks[0] + (state.players[1].reserved[0],))
    index = {card: position for position, card in enumerate(pool)}
    counts: Counter[int] = Counter()
    for seed in range(100):
        for sample in _samples(state, 0, MAX_SAMPLES, seed):
            counts[index[sample.players[1].reserved[0]]] += 1
    total = 100 * MAX_SAMPLES
    assert len(pool) - 1 in _CRITICAL_0001
    assert _chi_square(counts, len(pool), total) < _CRITICAL_0001[len(pool) - 1]


def test_samples_are_not_correlated_with_the_true_deck_order() -> None:
    state = _with_blind_reserve()
    truth_top = state.decks[0][0]
    pool = sorted(state.decks[0] + (state.players[1].reserved[0],))
    position_of_truth_top: Counter[int] = Counter()
    for seed in range(100):
        for sample in _samples(state, 0, MAX_SAMPLES, seed):
            where = sample.decks[0] + sample.players[1].reserved
            position_of_truth_top[where.index(truth_top)] += 1
    total = 100 * MAX_SAMPLES
    assert _chi_square(position_of_truth_top, len(pool), total) < _CRITICAL_0001[len(pool) - 1]


def test_the_seats_own_blind_reserve_never_moves() -> None:
    state = _with_blind_reserve()
    assert all(sample.players[1].reserved == state.players[1].reserved for sample in _samples(state, 1, 16, seed=2))


@pytest.mark.parametrize(
    ("seat", "count", "reason"), [(2, 1, "INVALID_SEAT"), (0, 0, "BUDGET_EXCEEDED"), (0, 65, "BUDGET_EXCEEDED")]
)
def test_a_seat_outside_the_game_or_a_count_out_of_range_is_refused(seat: int, count: int, reason: str) -> None:
    request = engine_service_pb2.DeterminizeRequest(state=state_to_proto(_with_blind_reserve()), seat=seat, count=count)
    with pytest.raises(ApiError) as caught:
        determinize(request, Call("t"))
    assert caught.value.code is Code.INVALID_ARGUMENT and caught.value.reason == reason


def test_a_missing_state_is_refused_like_every_call() -> None:
    with pytest.raises(ApiError) as caught:
        determinize(engine_service_pb2.DeterminizeRequest(seat=0, count=1), Call("t"))
    assert caught.value.reason == "INVALID_STATE"
