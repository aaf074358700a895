"""The Gymnasium and PettingZoo environments pass their libraries' checkers, in-process and through a server."""

from __future__ import annotations

import re
import sys
import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test
from splendor_client import EngineClient
from splendor_client.envs import ENV_ID, SplendorAECEnv, SplendorEnv
from splendor_client.local_engine import INSTALL_HINT, EngineNotInstalled


def _play(env: SplendorEnv, seed: int) -> tuple[float, bytes]:
    observation, _ = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    while True:
        legal = np.flatnonzero(observation["action_mask"])
        observation, reward, terminated, truncated, info = env.step(int(rng.choice(legal)))
        assert not info.get("illegal_action")
        if terminated or truncated:
            return float(reward), observation["observation"].tobytes()


def test_the_gymnasium_environment_is_registered_and_passes_check_env() -> None:
    env = gymnasium.make(ENV_ID, opponents="greedy")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # check_env's advice on unbounded boxes
        check_env(env.unwrapped)
        check_env(SplendorEnv(render_mode="ansi", action_ids="ruleset", module="orient"))
    assert _play(env.unwrapped, 1)[0] in (1.0, -1.0)


def test_an_illegal_action_ends_the_episode_with_a_penalty() -> None:
    env = SplendorEnv()
    observation, _ = env.reset(seed=2)
    illegal = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    _, reward, terminated, _, info = env.step(illegal)
    assert (reward, terminated, info) == (-1.0, True, {"illegal_action": True})


def test_the_pettingzoo_environment_passes_api_test_and_seed_test() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(SplendorAECEnv(num_players=3, module="orient"), num_cycles=300)
        api_test(SplendorAECEnv(action_ids="ruleset", render_mode="ansi"), num_cycles=100)
        seed_test(lambda: SplendorAECEnv(module="cities"), num_cycles=50)


def test_both_environments_declare_the_same_observation_space() -> None:
    gym_space = SplendorEnv(num_players=3, module="orient").observation_space
    aec_space = SplendorAECEnv(num_players=3, module="orient").observation_space("seat_1")
    assert gym_space == aec_space
    assert isinstance(gym_space["action_mask"], gymnasium.spaces.MultiBinary)


def test_the_remote_environments_play_the_same_games_as_the_in_process_ones(client: EngineClient) -> None:
    local, remote = SplendorEnv(module="cities"), SplendorEnv(module="cities", client=client)
    for seed in (3, 4):
        assert _play(local, seed) == _play(remote, seed)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(remote)
        api_test(SplendorAECEnv(client=client), num_cycles=100)


def test_an_in_process_environment_without_the_engine_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "engine_service", None)  # as if the package were not installed
    with pytest.raises(EngineNotInstalled, match=re.escape(INSTALL_HINT)):
        SplendorEnv()
    with pytest.raises(EngineNotInstalled, match=re.escape(INSTALL_HINT)):
        SplendorAECEnv()
