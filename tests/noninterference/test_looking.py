"""Looking at a sealed game tells each seat, and a spectator, nothing it cannot see: GetPlayerView (with
events and the observation) and ListLegalActions answer alike about positions it cannot tell apart, and a seat that
is not acting is listed no actions at all."""

from __future__ import annotations

import random
from functools import partial

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from splendor.v1 import events_pb2

from engine_service.codec import fill_events
from engine_service.rules import GameConfig, new_game
from tests.noninterference.twins import RULESETS, SCALE, pb, random_position, same_answers, sealed_pair, twin

EXAMPLES = 50 * SCALE  # positions per ruleset; each gives a pair per seat and one for the spectator


def dealt_events() -> list[events_pb2.Event]:
    """Events a caller sends back for redaction: a deal's, in the clear."""
    response = pb.GetPlayerViewRequest()
    fill_events(response.events, new_game(GameConfig(3, 1))[1])
    return list(response.events)


EVENTS = dealt_events()


def view_request(token: bytes, seat: int, key: str) -> pb.GetPlayerViewRequest:
    return pb.GetPlayerViewRequest(sealed_state=token, seat=seat, seat_key=key, events=EVENTS, include_observation=True)


def listing_request(token: bytes, seat: int, key: str) -> pb.ListLegalActionsRequest:
    return pb.ListLegalActionsRequest(sealed_state=token, seat=seat, seat_key=key)


@pytest.mark.parametrize("ruleset", RULESETS)
@settings(max_examples=EXAMPLES, deadline=None, derandomize=True)
@given(players=st.integers(2, 4), seed=st.integers(0, 2**32))
def test_views_and_legal_actions_are_the_same_for_positions_a_viewer_cannot_tell_apart(
    ruleset: str, players: int, seed: int
) -> None:
    rng = random.Random(seed)
    state = random_position(rng, RULESETS[ruleset], players)
    for viewer in [None, *range(players)]:
        pair = sealed_pair(state, twin(state, viewer, rng))
        if viewer is None:
            same_answers(
                pair, "GetPlayerView", lambda token: pb.GetPlayerViewRequest(sealed_state=token, events=EVENTS)
            )
            same_answers(pair, "ListLegalActions", lambda token: pb.ListLegalActionsRequest(sealed_state=token))
            continue
        key = pair.keys[viewer]
        same_answers(
            pair,
            "GetPlayerView",
            partial(view_request, seat=viewer, key=key),
        )
        listed = same_answers(
            pair,
            "ListLegalActions",
            partial(listing_request, seat=viewer, key=key),
        )
        assert listed[0] == "answered"
        if viewer != state.acting_seat:  # another seat's options are not its to see
            response = pb.ListLegalActionsResponse.FromString(listed[1])
            assert not response.actions and response.acting_seat == state.acting_seat
