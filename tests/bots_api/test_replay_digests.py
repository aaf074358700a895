"""ReplayGame's digests and events: digests computed incrementally, equal to state_digest; each skipped on request."""

from __future__ import annotations

import random

import pytest
from splendor.v1 import engine_service_pb2

from engine_service.api import Call, replay
from engine_service.codec import action_to_proto, fill_config
from engine_service.rules import Event, GameConfig, IncrementalDigest, apply, legal_actions, new_game, state_digest
from tests.rulesets import MODULE_NAMES


@pytest.mark.parametrize("modules", ["", *MODULE_NAMES])
def test_incremental_digests_equal_full_digests_along_random_games(modules: str) -> None:
    chosen = frozenset({modules}) if modules else frozenset()
    for seed in range(2):
        state = new_game(GameConfig(3, seed, modules=chosen))[0]
        digester = IncrementalDigest()
        rng = random.Random(seed)
        assert digester.digest(state) == state_digest(state)
        while state.end_reason is None:
            actions = legal_actions(state)
            state = apply(state, actions[rng.randrange(len(actions))])[0]
            assert digester.digest(state) == state_digest(state)


def test_replay_returns_the_digest_after_each_action_or_none_when_skipped() -> None:
    config = GameConfig(2, 5)
    state = new_game(config)[0]
    rng = random.Random(5)
    request = engine_service_pb2.ReplayGameRequest()
    fill_config(request.config, config)
    expected = []
    for _ in range(30):
        action = legal_actions(state)[rng.randrange(len(legal_actions(state)))]
        request.actions.append(action_to_proto(action))
        state = apply(state, action)[0]
        expected.append(state_digest(state))
    assert list(replay.replay_game(request, Call("t")).state_digests) == expected
    request.skip_state_digests = True
    skipped = replay.replay_game(request, Call("t"))
    assert not skipped.state_digests and skipped.state.turn == state.turn


def _replay_request(
    config: GameConfig, moves: int, seed: int
) -> tuple[engine_service_pb2.ReplayGameRequest, list[Event]]:
    """A request replaying ``moves`` random actions, and the events the core gave for the deal and each of them."""
    state, dealt = new_game(config)
    rng = random.Random(seed)
    request = engine_service_pb2.ReplayGameRequest()
    fill_config(request.config, config)
    events = list(dealt)
    for _ in range(moves):
        action = rng.choice(legal_actions(state))
        request.actions.append(action_to_proto(action))
        state, more = apply(state, action)
        events += more
    return request, events


def test_replay_skipping_events_answers_the_same_state_and_digests_without_events() -> None:
    request, events = _replay_request(GameConfig(3, 8, modules=frozenset({"strongholds"})), 60, 8)
    full = replay.replay_game(request, Call("t"))
    assert len(full.events) == len(events)  # every event of the deal and of each action, by default
    request.skip_events = True
    bare = replay.replay_game(request, Call("t"))
    assert not bare.events
    assert bare.state == full.state and list(bare.state_digests) == list(full.state_digests)
    request.skip_state_digests = True
    neither = replay.replay_game(request, Call("t"))
    assert not neither.events and not neither.state_digests and neither.state == full.state


def test_a_sealed_replay_skipping_events_still_answers_its_token_and_view() -> None:
    request, _ = _replay_request(GameConfig(2, 9), 20, 9)
    request.sealed, request.seat, request.skip_events = True, 1, True
    response = replay.replay_game(request, Call("t"))
    assert not response.events and response.sealed_state and response.view.seat == 1
    assert response.sealed_state_binding.step == 20 and not response.HasField("state")
