"""Every audience of a move learns nothing it cannot see: ApplyAction's audience views (a seat's and a spectator's)
and the spectator's view and events beside them answer alike about positions that seat cannot tell apart, once the
cards a move may draw (the top of each deck) are the same in both."""

from __future__ import annotations

import random
from functools import partial

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from splendor.v1 import actions_pb2

from engine_service.rules import action_id, legal_actions
from tests.noninterference.twins import KEEP_TOP, RULESETS, SCALE, pb, random_position, same_answers, sealed_pair, twin

EXAMPLES = 25 * SCALE  # positions per ruleset; each gives a pair per seat
MOVES_TRIED = 3


def move_request(token: bytes, move: int, key: str, audiences: list[pb.Audience]) -> pb.ApplyActionRequest:
    return pb.ApplyActionRequest(
        sealed_state=token, action=actions_pb2.Action(action_id=move), seat_key=key, audiences=audiences
    )


@pytest.mark.parametrize("ruleset", RULESETS)
@settings(max_examples=EXAMPLES, deadline=None, derandomize=True)
@given(players=st.integers(2, 4), seed=st.integers(0, 2**32))
def test_audience_views_are_the_same_for_positions_the_audience_cannot_tell_apart(
    ruleset: str, players: int, seed: int
) -> None:
    rng = random.Random(seed)
    state = random_position(rng, RULESETS[ruleset], players)
    acting = state.acting_seat
    for viewer in range(players):
        other = twin(state, viewer, rng, keep_top=KEEP_TOP)
        pair = sealed_pair(state, other)
        # A move legal in one twin only names what the viewer cannot see (the acting seat's blind reserve).
        both = sorted({action_id(a) for a in legal_actions(state)} & {action_id(a) for a in legal_actions(other)})
        audiences = [pb.Audience(seat=viewer, seat_key=pair.keys[viewer]), pb.Audience()]
        for move in rng.sample(both, min(MOVES_TRIED, len(both))):
            request = partial(move_request, move=move, key=pair.keys[acting], audiences=audiences)
            assert same_answers(pair, "ApplyAction", request)[0] == "answered"
