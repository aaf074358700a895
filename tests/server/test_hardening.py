"""No request can hurt the server: undecodable bytes, counters at the top of their type, oversized lists,
replays longer than a game and answers larger than a message are refused with a reason, never a crash."""

from __future__ import annotations

import pytest
from splendor.v1 import actions_pb2, common_pb2, config_pb2, engine_service_pb2

from engine_service.api import METHODS_BY_NAME, ApiConfig, ApiError, Call, Undecodable, invoke
from engine_service.codec import state_to_proto
from engine_service.rules import GameConfig, new_game
from engine_service.runtime.settings import defaults_from_env
from engine_service.sealing import KeyRing


def _call(**config: int) -> Call:
    call = Call("test")
    call.config = ApiConfig(KeyRing.generate(), **config)
    return call


def _refusal(method: str, request: object, call: Call) -> ApiError:
    with pytest.raises(ApiError) as caught:
        invoke(METHODS_BY_NAME[method], request, call)
    return caught.value


def _take_three() -> actions_pb2.Action:
    colors = [common_pb2.COLOR_RED, common_pb2.COLOR_BLUE, common_pb2.COLOR_GREEN]
    return actions_pb2.Action(take_gems=actions_pb2.TakeGems(colors=colors))


@pytest.mark.parametrize("data", [b"\x00", b"\xff" * 7, b"\x0a\xff\xff\xff\xff\x0f", b"\x0b"])
@pytest.mark.parametrize("method", sorted(METHODS_BY_NAME))
def test_undecodable_bytes_are_refused_through_the_normal_path(method: str, data: bytes) -> None:
    decoded = METHODS_BY_NAME[method].decode(data)
    assert isinstance(decoded, Undecodable)
    call = _call()
    error = _refusal(method, decoded, call)
    assert error.reason == call.reason == "REQUEST_UNDECODABLE" and error.code.name == "INVALID_ARGUMENT"


def test_a_turn_that_cannot_advance_is_an_invalid_state() -> None:
    state, _ = new_game(GameConfig(2, 1, first_seat=0))
    last = state_to_proto(state._replace(turn=2**32 - 2))
    applied = invoke(
        METHODS_BY_NAME["ApplyAction"], engine_service_pb2.ApplyActionRequest(state=last, action=_take_three()), _call()
    )
    assert applied.state.turn == 2**32 - 1  # the last turn a state can be at
    request = engine_service_pb2.ApplyActionRequest(state=applied.state, action=_take_three())
    error = _refusal("ApplyAction", request, _call())
    assert error.reason == "INVALID_STATE" and error.field_violations[0].field == "state.turn"


def test_an_oversized_list_is_refused_before_it_is_read() -> None:
    state, _ = new_game(GameConfig(2, 1))
    msg = state_to_proto(state)
    msg.decks[0].card_ids.extend([1] * 200)
    error = _refusal("ListLegalActions", engine_service_pb2.ListLegalActionsRequest(state=msg), _call())
    assert error.reason == "INVALID_STATE" and error.field_violations[0].field == "state.decks[0].card_ids"


def test_a_replay_longer_than_the_bound_is_refused_before_any_work() -> None:
    # The config is invalid too: the length is checked first, so no game is even dealt.
    request = engine_service_pb2.ReplayGameRequest(config=config_pb2.GameConfig(num_players=9))
    request.actions.extend([_take_three()] * 4)
    error = _refusal("ReplayGame", request, _call(max_replay_actions=3))
    assert error.reason == "REPLAY_TOO_LONG" and error.metadata == {"actions": "4", "limit": "3"}
    assert error.field_violations[0].field == "actions"


def test_an_answer_over_the_largest_message_is_refused() -> None:
    config = config_pb2.GameConfig(num_players=2, seed=1, first_seat=0)
    request = engine_service_pb2.ReplayGameRequest(config=config, actions=[_take_three()])
    size = invoke(METHODS_BY_NAME["ReplayGame"], request, _call()).ByteSize()
    assert invoke(METHODS_BY_NAME["ReplayGame"], request, _call(max_response_bytes=size)).state_digests
    error = _refusal("ReplayGame", request, _call(max_response_bytes=size - 1))
    assert error.reason == "RESPONSE_TOO_LARGE" and error.metadata == {"limit": str(size - 1)}


def test_the_bounds_are_settings() -> None:
    settings = defaults_from_env({"SPLENDOR_MAX_REPLAY_ACTIONS": "50", "SPLENDOR_MAX_REQUEST_BYTES": "1000"})
    assert settings.max_replay_actions == 50 and settings.max_request_bytes == 1000
    assert defaults_from_env({}).max_replay_actions == 10_000
