"""The twins the suite compares are what they claim: the same view for their viewer, other hidden cards."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine_service.rules import view_for
from tests.noninterference.twins import KEEP_TOP, RULESETS, random_position, twin


@settings(max_examples=60, deadline=None, derandomize=True)
@given(ruleset=st.sampled_from(sorted(RULESETS)), players=st.integers(2, 4), seed=st.integers(0, 2**32))
def test_a_twin_has_the_same_view_for_its_viewer_and_other_hidden_cards(ruleset: str, players: int, seed: int) -> None:
    rng = random.Random(seed)
    state = random_position(rng, RULESETS[ruleset], players)
    for viewer in [None, *range(players)]:
        other = twin(state, viewer, rng)
        assert view_for(other, viewer) == view_for(state, viewer)
        assert other.config.seed != state.config.seed and sorted(map(len, other.decks)) == sorted(map(len, state.decks))
        kept = twin(state, viewer, rng, keep_top=KEEP_TOP)
        assert view_for(kept, viewer) == view_for(state, viewer)
        assert all(mine[:KEEP_TOP] == theirs[:KEEP_TOP] for mine, theirs in zip(kept.decks, state.decks))


def test_twins_usually_differ_from_the_original_so_the_comparisons_can_fail() -> None:
    rng = random.Random(5)
    differing = 0
    for ruleset in RULESETS.values():
        for players in (2, 3, 4):
            state = random_position(rng, ruleset, players)
            differing += twin(state, 0, rng).decks != state.decks
            differing += twin(state, 0, rng, keep_top=KEEP_TOP).decks != state.decks
    assert differing == 2 * 15
