"""ReplayGame's digests: computed incrementally, equal to state_digest; skipped on request."""

from __future__ import annotations

import random

import pytest
from splendor.v1 import engine_service_pb2

from engine_service.api import Call, replay
from engine_service.codec import action_to_proto, fill_config
from engine_service.rules import GameConfig, IncrementalDigest, apply, legal_actions, new_game, state_digest


@pytest.mark.parametrize("modules", ["", "cities", "trading_posts", "strongholds", "orient"])
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
