"""ReplayGame stops working once its client has stopped waiting (deadline passed or cancelled)."""

from __future__ import annotations

import random

import pytest
from splendor.v1 import config_pb2, engine_service_pb2

from engine_service.api import ApiError, Call, Code, replay
from engine_service.codec import action_to_proto
from engine_service.rules import GameConfig, apply, legal_actions, new_game

CHECK_EVERY = 8  # instead of REPLAY_CHECK_EVERY, so that an ordinary game spans many checks


class FakeCaller:
    """A caller that waits for ``active_for`` checks, then leaves (``remaining``: its time left then)."""

    def __init__(self, active_for: int, remaining: float | None) -> None:
        self.checks = 0
        self.active_for = active_for
        self.remaining = remaining

    def is_active(self) -> bool:
        self.checks += 1
        return self.checks <= self.active_for

    def time_remaining(self) -> float | None:
        return self.remaining

    def call(self) -> Call:
        return Call("ReplayGame", is_active=self.is_active, time_remaining=self.time_remaining)


@pytest.fixture
def game_log(monkeypatch: pytest.MonkeyPatch) -> engine_service_pb2.ReplayGameRequest:
    monkeypatch.setattr(replay, "REPLAY_CHECK_EVERY", CHECK_EVERY)
    state, _ = new_game(GameConfig(2, 5))
    chooser = random.Random(5)
    request = engine_service_pb2.ReplayGameRequest(config=config_pb2.GameConfig(num_players=2, seed=5))
    while not state.is_over:
        action = chooser.choice(legal_actions(state))
        state, _ = apply(state, action)
        request.actions.append(action_to_proto(action))
    assert len(request.actions) > 3 * CHECK_EVERY
    return request


@pytest.mark.parametrize(("remaining", "code"), [(0.0, Code.DEADLINE_EXCEEDED), (None, Code.CANCELLED)])
def test_replay_stops_at_the_first_check_after_the_client_left(
    game_log: engine_service_pb2.ReplayGameRequest, remaining: float | None, code: Code
) -> None:
    caller = FakeCaller(active_for=1, remaining=remaining)
    with pytest.raises(ApiError) as stopped:
        replay.replay_game(game_log, caller.call())
    assert stopped.value.code is code and stopped.value.reason is None
    assert caller.checks == 2  # still waiting at the first check, gone at the second: stopped there


def test_replay_runs_to_the_end_while_the_client_waits(game_log: engine_service_pb2.ReplayGameRequest) -> None:
    caller = FakeCaller(active_for=10**6, remaining=30.0)
    response = replay.replay_game(game_log, caller.call())
    assert len(response.state_digests) == len(game_log.actions)
    assert caller.checks == (len(game_log.actions) - 1) // CHECK_EVERY
