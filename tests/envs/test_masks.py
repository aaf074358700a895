"""The legal-action mask: sb3-contrib's action_masks(), one legal entry at every observation, in vector envs too."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest
from gymnasium.vector import AutoresetMode
from splendor_client.envs import ENV_ID, SplendorEnv

EPISODES = 50


def test_action_masks_is_the_observations_mask_as_booleans() -> None:
    env = gymnasium.make(ENV_ID, module="trading_posts")
    observation, _ = env.reset(seed=3)
    for _ in range(20):
        masks = env.unwrapped.action_masks()
        assert masks.dtype == np.bool_
        assert np.array_equal(masks, observation["action_mask"].astype(bool))
        observation, *_ = env.step(int(np.flatnonzero(masks)[0]))


def test_an_episode_over_shows_one_placeholder_action_and_refuses_to_step() -> None:
    env = SplendorEnv(opponents="greedy", turn_limit=40)  # the lowest legal action alone may never end a game
    observation, _ = env.reset(seed=4)
    terminated = False
    while not terminated:
        action = int(np.flatnonzero(observation["action_mask"])[0])
        observation, _, terminated, _, _ = env.step(action)
    assert np.flatnonzero(observation["action_mask"]).tolist() == [0]
    with pytest.raises(RuntimeError, match="call reset"):
        env.step(0)
    assert np.array_equal(
        env.reset(seed=4)[0]["action_mask"],
        SplendorEnv(opponents="greedy", turn_limit=40).reset(seed=4)[0]["action_mask"],
    )


def test_step_after_an_illegal_action_is_refused() -> None:
    env = SplendorEnv()
    observation, _ = env.reset(seed=2)
    illegal = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    _, reward, terminated, _, info = env.step(illegal)
    assert (reward, terminated, info) == (-1.0, True, {"illegal_action": True})
    with pytest.raises(RuntimeError, match="call reset"):
        env.step(int(np.flatnonzero(env.action_masks())[0]))


def _vector_episodes(envs: gymnasium.vector.VectorEnv, mode: AutoresetMode) -> int:
    """Play EPISODES episodes with masked random actions; fail on any observation without a legal action."""
    rng = np.random.default_rng(int(mode.value == "NextStep"))
    observations, _ = envs.reset(seed=7)
    ended = 0
    while ended < EPISODES:
        masks = observations["action_mask"]
        assert masks.sum(axis=1).min() >= 1, "an observation with no legal action"
        actions = np.array([rng.choice(np.flatnonzero(mask)) for mask in masks])
        observations, _, terminated, truncated, infos = envs.step(actions)
        done = terminated | truncated
        ended += int(done.sum())
        if mode == AutoresetMode.SAME_STEP and done.any():
            assert infos["final_obs"][done][0]["action_mask"].sum() == 1  # the placeholder of the last observation
        if mode == AutoresetMode.DISABLED and done.any():
            observations, _ = envs.reset(options={"reset_mask": done})
    return ended


@pytest.mark.parametrize("mode", list(AutoresetMode))
def test_sync_vector_envs_never_show_an_all_zero_mask_in_any_autoreset_mode(mode: AutoresetMode) -> None:
    envs = gymnasium.make_vec(ENV_ID, num_envs=3, vectorization_mode="sync", vector_kwargs={"autoreset_mode": mode})
    assert _vector_episodes(envs, mode) >= EPISODES
    envs.close()


def test_async_vector_envs_run_the_registered_env_with_no_wrapper() -> None:
    mode = AutoresetMode.NEXT_STEP
    envs = gymnasium.make_vec(ENV_ID, num_envs=2, vectorization_mode="async", vector_kwargs={"autoreset_mode": mode})
    assert _vector_episodes(envs, mode) >= EPISODES
    envs.close()
