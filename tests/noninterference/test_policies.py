"""The server's bots read nothing the acting seat cannot see: seeded alike, every registered policy (random, greedy,
ISMCTS) chooses the same move in positions the acting seat cannot tell apart (every hidden card dealt again, the
decks' tops too), and determinization samples the same states from them."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine_service.bots import SearchSettings, determinize, policy_specs
from tests.noninterference.twins import RULESETS, SCALE, random_position, twin

EXAMPLES = 15 * SCALE  # positions per ruleset


@pytest.mark.parametrize("ruleset", RULESETS)
@settings(max_examples=EXAMPLES, deadline=None, derandomize=True)
@given(players=st.integers(2, 4), seed=st.integers(0, 2**32))
def test_policies_and_samples_are_the_same_for_positions_the_acting_seat_cannot_tell_apart(
    ruleset: str, players: int, seed: int
) -> None:
    rng = random.Random(seed)
    state = random_position(rng, RULESETS[ruleset], players)
    seat = state.acting_seat
    other = twin(state, seat, rng)
    for spec in policy_specs():
        search = SearchSettings(iterations=8)
        assert spec.make(seed, search).choose(state) == spec.make(seed, search).choose(other), spec.name
    for viewer in range(players):
        unseen = twin(state, viewer, rng)
        assert determinize(state, viewer, seed) == determinize(unseen, viewer, seed)
