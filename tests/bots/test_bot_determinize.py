"""Determinization: samples a seat cannot tell from the truth, every arrangement equally likely."""

from __future__ import annotations

from collections import Counter

import pytest

from engine_service.bots import determinize
from engine_service.rules import GameConfig, GameState, ReserveFromDeck, apply, new_game, validate_state, view_for
from tests.bots.positions import MODULES, has_hidden_reserve, module_name, played_positions

# Chi-square critical values at significance 0.001 (upper tail, from the standard tables), by degrees of
# freedom. The seeds are fixed, so each test gives the same statistic every run; a uniform sampler passes
# a given seed set with probability 0.999, and a biased one fails it.
CHI_SQUARE_CRITICAL_0_001 = {25: 52.62, 35: 66.62}
SAMPLES = 4000


@pytest.mark.parametrize("modules", MODULES, ids=module_name)
@pytest.mark.parametrize("num_players", [2, 4])
def test_every_sample_shows_the_seat_the_same_view_and_passes_the_integrity_check(
    modules: frozenset[str], num_players: int
) -> None:
    checked = 0
    for index, state in enumerate(played_positions(modules, num_players, seed=11 + num_players)):
        for seat in range(num_players):
            sample = determinize(state, seat, rng_seed=index * 10 + seat)
            assert view_for(sample, seat) == view_for(state, seat)
            validate_state(sample)
            checked += has_hidden_reserve(state, seat)
    assert checked > 0, "the positions must include another seat's blind reserve"


@pytest.mark.parametrize("modules", MODULES, ids=module_name)
def test_the_seats_own_cards_never_move_and_the_hidden_ones_do(modules: frozenset[str]) -> None:
    moved_deck = moved_reserve = 0
    for index, state in enumerate(played_positions(modules, 3, seed=5)):
        for seat in range(3):
            sample = determinize(state, seat, rng_seed=index)
            assert sample.players[seat] == state.players[seat]
            moved_deck += sample.decks != state.decks
            for other in range(3):
                if other != seat:
                    moved_reserve += sample.players[other].reserved != state.players[other].reserved
    assert moved_deck > 0
    assert moved_reserve > 0


def test_a_sample_never_carries_the_truths_seed() -> None:
    state = new_game(GameConfig(num_players=2, seed=123))[0]
    assert determinize(state, 0, rng_seed=1).config.seed != state.config.seed


def test_the_same_seed_gives_the_same_sample_and_another_seed_another() -> None:
    state = _after_blind_reserve()
    assert determinize(state, 0, rng_seed=7) == determinize(state, 0, rng_seed=7)
    assert determinize(state, 0, rng_seed=7) != determinize(state, 0, rng_seed=8)


def test_a_seat_out_of_range_is_refused() -> None:
    state = new_game(GameConfig(num_players=2, seed=1))[0]
    with pytest.raises(ValueError, match="seat 2"):
        determinize(state, 2, rng_seed=0)


def test_the_card_in_an_opponents_blind_slot_is_uniform_over_the_cards_the_seat_cannot_place() -> None:
    state = _after_blind_reserve()
    unseen = set(state.decks[0]) | {state.players[1].reserved[0]}
    counts = Counter(determinize(state, 0, rng_seed=seed).players[1].reserved[0] for seed in range(SAMPLES))
    assert set(counts) == unseen  # every candidate appears, and nothing else
    assert _chi_square(counts, len(unseen)) < CHI_SQUARE_CRITICAL_0_001[len(unseen) - 1]


def test_the_top_card_of_a_deck_is_uniform_over_the_cards_the_seat_cannot_place() -> None:
    state = new_game(GameConfig(num_players=2, seed=99))[0]
    unseen = set(state.decks[1])  # 30 level-2 cards, 4 face up: 26 in the deck
    counts = Counter(determinize(state, 0, rng_seed=seed).decks[1][0] for seed in range(SAMPLES))
    assert set(counts) == unseen
    assert _chi_square(counts, len(unseen)) < CHI_SQUARE_CRITICAL_0_001[len(unseen) - 1]


def _after_blind_reserve() -> GameState:
    """Two players; seat 1 has reserved the top level-1 card unseen (36 level-1 cards left unplaced for seat 0)."""
    state = new_game(GameConfig(num_players=2, seed=42, first_seat=1))[0]
    state = apply(state, ReserveFromDeck(0))[0]
    assert state.players[1].reserved_blind == (True,)
    return state


def _chi_square(counts: Counter[int], categories: int) -> float:
    total = sum(counts.values())
    expected = total / categories
    missing = categories - len(counts)  # categories never drawn add their whole expectation
    return sum((count - expected) ** 2 / expected for count in counts.values()) + expected * missing
