"""Rule: ReplayGame plays its actions in batches, yet refuses the first bad one by its index, as one by one."""

from __future__ import annotations

import pytest
from splendor.v1 import actions_pb2, engine_service_pb2

from engine_service.api import ApiError, Call, replay
from engine_service.codec import action_to_proto, fill_config
from engine_service.rules import ChooseNoble, GameConfig, state_digest
from tests.server.positions import random_game

SEED = 4


def _request(actions: list[actions_pb2.Action]) -> engine_service_pb2.ReplayGameRequest:
    request = engine_service_pb2.ReplayGameRequest()
    fill_config(request.config, GameConfig(2, SEED))
    request.actions.extend(actions)
    return request


def _refusal(request: engine_service_pb2.ReplayGameRequest) -> ApiError:
    with pytest.raises(ApiError) as caught:
        replay.replay_game(request, Call("ReplayGame"))
    return caught.value


@pytest.fixture(autouse=True)
def _small_batches(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(replay, "REPLAY_CHECK_EVERY", 4)


def test_a_replay_across_batches_answers_every_digest_and_the_final_state() -> None:
    moves = list(random_game(2, SEED))
    response = replay.replay_game(_request([action_to_proto(action) for _, action, _, _ in moves]), Call("t"))
    assert list(response.state_digests) == [state_digest(after) for _, _, after, _ in moves]
    assert response.state.turn == moves[-1][2].turn and len(moves) > 3 * 4


def test_an_action_that_does_not_convert_in_a_later_batch_is_refused_at_its_index() -> None:
    moves = list(random_game(2, SEED))[:9]
    error = _refusal(_request([action_to_proto(action) for _, action, _, _ in moves] + [actions_pb2.Action()] * 2))
    assert error.reason == "UNKNOWN_ACTION" and error.metadata["action_index"] == "9"
    assert error.field_violations[0][0] == "actions[9]"
    assert error.metadata["turn"] == str(moves[-1][2].turn)  # the state the nine actions before it led to


def test_an_illegal_action_is_refused_before_a_later_one_of_its_batch_that_does_not_convert() -> None:
    moves = list(random_game(2, SEED))[:5]
    illegal = action_to_proto(ChooseNoble(0))  # no noble to choose
    actions = [action_to_proto(action) for _, action, _, _ in moves] + [illegal, actions_pb2.Action()]
    error = _refusal(_request(actions))
    assert error.reason != "UNKNOWN_ACTION" and error.metadata["action_index"] == "5"
    assert error.metadata["turn"] == str(moves[-1][2].turn)
