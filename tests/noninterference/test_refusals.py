"""Refusals about a sealed game tell the caller nothing hidden: a missing or wrong seat key, another seat's turn,
a stale turn, a seat out of range or a spectator's observation are refused alike for positions the caller
cannot tell apart."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from google.protobuf.message import Message
from hypothesis import given, settings
from hypothesis import strategies as st
from splendor.v1 import actions_pb2, bots_pb2

from tests.checklists.coverage import methods_whose_request_has
from tests.noninterference.twins import RULESETS, SCALE, pb, random_position, same_answers, sealed_pair, twin

EXAMPLES = 20 * SCALE  # positions per ruleset; each gives a pair per seat and one for the spectator


def refusals(
    seat: int | None, players: int, keys: list[str], acting: int
) -> list[tuple[str, Callable[[bytes], Message]]]:
    """Requests refused whatever the hidden cards, as ``seat`` (None: a spectator) may send them."""
    other = keys[(0 if seat is None else seat + 1) % players]
    not_acting = keys[(acting + 1) % players]
    requests: list[tuple[str, Callable[[bytes], Message]]] = [
        ("GetPlayerView", lambda token: pb.GetPlayerViewRequest(sealed_state=token, include_observation=True)),
        ("GetPlayerView", lambda token: pb.GetPlayerViewRequest(sealed_state=token, seat=players)),
        (
            "ApplyAction",
            lambda token: pb.ApplyActionRequest(sealed_state=token, action=actions_pb2.Action(action_id=0)),
        ),
        (
            "ApplyAction",
            lambda token: pb.ApplyActionRequest(
                sealed_state=token, action=actions_pb2.Action(action_id=0), seat_key=not_acting
            ),
        ),
        (
            "Simulate",
            lambda token: pb.SimulateRequest(
                sealed_state=token, playouts=1, policies=[bots_pb2.BotChoice(policy="random")]
            ),
        ),
    ]
    if seat is None:
        return requests
    key = keys[seat]
    for method, build in (
        ("GetPlayerView", lambda token, k: pb.GetPlayerViewRequest(sealed_state=token, seat=seat, seat_key=k)),
        ("ListLegalActions", lambda token, k: pb.ListLegalActionsRequest(sealed_state=token, seat=seat, seat_key=k)),
        ("Determinize", lambda token, k: pb.DeterminizeRequest(sealed_state=token, seat=seat, count=1, seat_key=k)),
    ):
        requests.append((method, lambda token, build=build: build(token, "")))  # type: ignore[misc]
        requests.append((method, lambda token, build=build: build(token, other)))  # type: ignore[misc]
    requests.append(
        (
            "ApplyAction",
            lambda token: pb.ApplyActionRequest(
                sealed_state=token, action=actions_pb2.Action(action_id=0), seat=seat, seat_key=key, expected_turn=2**31
            ),
        )
    )
    if seat != acting:  # another seat's turn
        requests.append(
            (
                "ApplyAction",
                lambda token: pb.ApplyActionRequest(
                    sealed_state=token, action=actions_pb2.Action(action_id=0), seat=seat, seat_key=key
                ),
            )
        )
    return requests


def test_every_rpc_that_opens_a_token_is_among_the_refusals_of_a_seat() -> None:
    keys = ["key-0", "key-1", "key-2"]
    refused = {method for seat in (0, 1) for method, _ in refusals(seat, 3, keys, acting=0)}
    assert refused == methods_whose_request_has("sealed_state")


@pytest.mark.parametrize("ruleset", RULESETS)
@settings(max_examples=EXAMPLES, deadline=None, derandomize=True)
@given(players=st.integers(2, 4), seed=st.integers(0, 2**32))
def test_refusals_are_the_same_for_positions_the_caller_cannot_tell_apart(
    ruleset: str, players: int, seed: int
) -> None:
    rng = random.Random(seed)
    state = random_position(rng, RULESETS[ruleset], players)
    for viewer in [None, *range(players)]:
        pair = sealed_pair(state, twin(state, viewer, rng))
        for method, build in refusals(viewer, players, pair.keys, state.acting_seat):
            assert same_answers(pair, method, build)[0] == "refused"
