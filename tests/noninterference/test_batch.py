"""Many moves in one call tell the caller nothing it cannot see: BatchApplyActions answers alike, item by item and
as a whole, about positions the acting seat cannot tell apart, whatever else the call carries (moves of the same
game with the seat's key, without it or with another's, validate_only, server-side bots, illegal and malformed
items, other games, plain and sealed); a malformed item among valid ones is refused alone."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from splendor.v1 import actions_pb2, bots_pb2, config_pb2

from engine_service.rules import ACTION_ID_COUNT, action_id, legal_actions
from tests.noninterference.twins import (
    KEEP_TOP,
    RULESETS,
    SCALE,
    SealedPair,
    answer,
    pb,
    pinned_entropy,
    random_position,
    sealed_pair,
    twin,
)
from tests.sealing.api import call

EXAMPLES = 10 * SCALE  # positions per ruleset, one pair each


def items_about(
    token: bytes, pair: SealedPair, seat: int, move: int, others: list[pb.ApplyActionRequest]
) -> list[pb.ApplyActionRequest]:
    """What a caller holding ``seat``'s key may send about its game (``token``), mixed with other games' items."""
    key = pair.keys[seat]
    stranger = pair.keys[(seat + 1) % len(pair.keys)]
    action = actions_pb2.Action(action_id=move)
    mine = [
        pb.ApplyActionRequest(
            sealed_state=token,
            action=action,
            seat=seat,
            seat_key=key,
            include_legal_actions=True,
            include_observation=True,
        ),
        pb.ApplyActionRequest(
            sealed_state=token, action=action, seat_key=key, validate_only=True, include_legal_actions=True
        ),
        pb.ApplyActionRequest(
            sealed_state=token, action=action, seat_key=key, include_observation=True, observation_legal_ids=True
        ),
        pb.ApplyActionRequest(
            sealed_state=token, action=actions_pb2.Action(action_id=ACTION_ID_COUNT - 1), seat_key=key
        ),
        pb.ApplyActionRequest(sealed_state=token, bot=bots_pb2.BotChoice(policy="greedy", seed=4), seat_key=key),
        pb.ApplyActionRequest(
            sealed_state=token,
            bot=bots_pb2.BotChoice(policy="ismcts", iterations=5),
            seat_key=key,
            include_legal_actions=True,
        ),
        pb.ApplyActionRequest(sealed_state=token, action=action),  # no key
        pb.ApplyActionRequest(sealed_state=token, action=action, seat_key=stranger),  # another seat's key
        pb.ApplyActionRequest(sealed_state=token, action=action, seat=seat, seat_key=key, expected_turn=2**31),
        pb.ApplyActionRequest(sealed_state=token[: len(token) // 2], action=action, seat_key=key),  # malformed
    ]
    mixed: list[pb.ApplyActionRequest] = []
    for index, item in enumerate(mine):
        mixed.append(item)
        if index < len(others):
            mixed.append(others[index])
    return mixed


def other_games(rng: random.Random, modules: frozenset[str], players: int) -> list[pb.ApplyActionRequest]:
    """Items of games the caller also holds: a sealed one (with its key) and a plain one, the same in both calls."""
    position = random_position(rng, modules, players)
    held = sealed_pair(position, position)
    seat = position.acting_seat
    move = action_id(rng.choice(legal_actions(position)))
    created = call("CreateGame", pb.CreateGameRequest(config=config_pb2.GameConfig(num_players=players)))
    plain = created.state
    plain_move = call("ListLegalActions", pb.ListLegalActionsRequest(state=plain)).actions[0].action_id
    return [
        pb.ApplyActionRequest(
            sealed_state=held.first, action=actions_pb2.Action(action_id=move), seat_key=held.keys[seat]
        ),
        pb.ApplyActionRequest(state=plain, action=actions_pb2.Action(action_id=plain_move), include_observation=True),
        pb.ApplyActionRequest(),  # no game at all
    ]


def results(items: list[pb.ApplyActionRequest]) -> list[tuple[object, ...]]:
    """Each item's answer as the caller learns it: its response without the token, or its status in full."""
    response = call("BatchApplyActions", pb.BatchApplyActionsRequest(requests=items))
    answers = []
    for result in response.results:
        if result.HasField("error"):
            answers.append(("refused", result.error.SerializeToString(deterministic=True)))
        else:
            result.response.ClearField("sealed_state")
            answers.append(("answered", result.response.SerializeToString(deterministic=True)))
    return answers


@pytest.mark.parametrize("ruleset", RULESETS)
@settings(max_examples=EXAMPLES, deadline=None, derandomize=True)
@given(players=st.integers(2, 4), seed=st.integers(0, 2**32))
def test_a_batch_answers_alike_for_positions_the_acting_seat_cannot_tell_apart(
    ruleset: str, players: int, seed: int
) -> None:
    rng = random.Random(seed)
    modules = RULESETS[ruleset]
    state = random_position(rng, modules, players)
    seat = state.acting_seat
    pair = sealed_pair(state, twin(state, seat, rng, keep_top=KEEP_TOP))
    move = action_id(rng.choice(legal_actions(state)))
    others = other_games(rng, modules, players)
    with pinned_entropy():  # the sealed bots' sampling: the same draws in both calls
        first = results(items_about(pair.first, pair, seat, move, others))
        second = results(items_about(pair.second, pair, seat, move, others))
    assert first == second, "BatchApplyActions answers differently about two positions its caller cannot tell apart"
    with pinned_entropy():  # and each item as ApplyAction alone answers it
        alone = [answer("ApplyAction", item) for item in items_about(pair.first, pair, seat, move, others)]
    assert [kind for kind, *_ in first] == [kind for kind, *_ in alone]
    kinds = [kind for kind, _ in first]
    assert kinds.count("refused") >= 5 and kinds.count("answered") >= 5  # the malformed among the valid, alone
