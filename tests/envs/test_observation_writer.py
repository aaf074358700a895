"""The numpy observation writer gives exactly the rules core's observation, for every ruleset, player count and seat."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from splendor_client.envs import SplendorEnv
from splendor_client.envs.games import LocalGame
from splendor_client.envs.observation_writer import ObservationWriter

from engine_service.rules import GameConfig, apply, encode_view, legal_actions, new_game, observe, view_for
from tests.rulesets import MODULE_NAMES

MODULES = [None, *MODULE_NAMES]


def _random_state(module: str | None, players: int, seed: int, moves: int) -> object:
    modules = frozenset() if module is None else frozenset({module})
    state = new_game(GameConfig(players, seed, modules=modules))[0]
    rng = random.Random(seed)
    for _ in range(moves):
        if state.end_reason is not None:
            break
        actions = legal_actions(state)
        state = apply(state, actions[rng.randrange(len(actions))])[0]
    return state


@settings(max_examples=60, deadline=None)
@given(
    module=st.sampled_from(MODULES),
    players=st.integers(2, 4),
    seed=st.integers(0, 2**32),
    moves=st.integers(0, 400),
)
def test_the_writer_equals_the_core_encoder(module: str | None, players: int, seed: int, moves: int) -> None:
    state = _random_state(module, players, seed, moves)
    writer = ObservationWriter(frozenset() if module is None else frozenset({module}), players)
    out = np.full(writer.length, -1.0, np.float32)
    for seat in range(players):
        writer.write(state, seat, out)
        assert np.array_equal(out, np.asarray(encode_view(view_for(state, seat)), np.float32))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_finished_game_with_blind_reserves_is_written_alike(players: int) -> None:
    for seed in range(40):
        state = _random_state(None, players, seed, 10_000)
        if any(any(player.reserved_blind) for player in state.players):
            break
    else:
        pytest.fail("no random game ended with a blind reserve")
    writer = ObservationWriter(frozenset(), players)
    out = np.zeros(writer.length, np.float32)
    for seat in range(players):
        writer.write(state, seat, out)
        assert np.array_equal(out, np.asarray(encode_view(view_for(state, seat)), np.float32))


@pytest.mark.parametrize("players", [2, 4])
def test_every_in_process_env_observation_is_the_cores_and_a_kept_one_never_changes(players: int) -> None:
    env = SplendorEnv(num_players=players)
    observation, _ = env.reset(seed=players)
    kept: list[tuple[dict[str, np.ndarray], np.ndarray, np.ndarray]] = []
    rng = np.random.default_rng(players)
    for _ in range(400):
        game = env.game
        assert isinstance(game, LocalGame)
        core = observe(game.state, env.seat)
        assert np.array_equal(observation["observation"], np.asarray(core.values, np.float32))
        if not env._over:
            assert np.array_equal(np.flatnonzero(observation["action_mask"]), np.flatnonzero(core.legal_action_mask))
        kept.append((observation, observation["observation"].copy(), observation["action_mask"].copy()))
        if env._over:
            observation, _ = env.reset()
            continue
        legal = np.flatnonzero(observation["action_mask"])
        observation, *_ = env.step(int(legal[rng.integers(len(legal))]))
    for old, values, mask in kept:
        assert np.array_equal(old["observation"], values) and np.array_equal(old["action_mask"], mask)
