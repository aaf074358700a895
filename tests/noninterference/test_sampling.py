"""Sampling on the server tells a seat nothing it cannot see: Determinize and Simulate from a seat answer alike
about positions that seat cannot tell apart (the server's own entropy pinned so the draws match), and without
pinning the same request samples afresh each time."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.noninterference.twins import (
    RULESETS,
    SCALE,
    SealedPair,
    pb,
    pinned_entropy,
    random_position,
    same_answers,
    sealed_pair,
    twin,
)
from tests.sealing.api import call

EXAMPLES = 30 * SCALE  # positions per ruleset; each gives a pair per seat


def determinize(token: bytes, seat: int, key: str) -> pb.DeterminizeRequest:
    return pb.DeterminizeRequest(sealed_state=token, seat=seat, count=3, seed=7, seat_key=key)


def simulate(token: bytes, seat: int, key: str) -> pb.SimulateRequest:
    request = pb.SimulateRequest(sealed_state=token, seat=seat, playouts=2, max_actions=25, seed=9, seat_key=key)
    request.policies.add(policy="greedy", seed=3)
    return request


def compare_sampling(pair: SealedPair, seat: int) -> None:
    key = pair.keys[seat]
    samples = same_answers(pair, "Determinize", lambda token: determinize(token, seat, key))
    outcomes = same_answers(pair, "Simulate", lambda token: simulate(token, seat, key))
    assert samples[0] == outcomes[0] == "answered"


@pytest.mark.parametrize("ruleset", RULESETS)
@settings(max_examples=EXAMPLES, deadline=None, derandomize=True)
@given(players=st.integers(2, 4), seed=st.integers(0, 2**32))
def test_samples_and_playouts_are_the_same_for_positions_a_seat_cannot_tell_apart(
    ruleset: str, players: int, seed: int
) -> None:
    rng = random.Random(seed)
    state = random_position(rng, RULESETS[ruleset], players)
    with pinned_entropy():
        for seat in range(players):
            compare_sampling(sealed_pair(state, twin(state, seat, rng)), seat)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_same_sealed_request_samples_afresh_each_time(ruleset: str) -> None:
    rng = random.Random(3)
    state = random_position(rng, RULESETS[ruleset], 3)
    pair = sealed_pair(state, state)
    first = call("Determinize", determinize(pair.first, 1, pair.keys[1]))
    again = call("Determinize", determinize(pair.first, 1, pair.keys[1]))
    assert [sample.decks for sample in first.states] != [sample.decks for sample in again.states]
    with pinned_entropy():  # and alike once the server's entropy is pinned: the pinning is what makes pairs exact
        pinned = call("Determinize", determinize(pair.first, 1, pair.keys[1]))
        assert pinned == call("Determinize", determinize(pair.first, 1, pair.keys[1]))
