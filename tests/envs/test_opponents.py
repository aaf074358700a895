"""Opponents: policy names (in-process and on a server, spelt alike), functions, trained models (self-play)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from splendor_client import EngineClient, connect
from splendor_client.envs import SplendorEnv
from splendor_client.envs.observer import ObsType

from engine_service.runtime.settings import Settings
from engine_service.server.app import build_server, start

MAX_ITERATIONS = 20  # the bounded server's max_bot_iterations
TURN_LIMIT = 40  # the lowest legal action hoards gems: a limit ends such games


def _lowest_legal(observation: ObsType) -> int:
    return int(np.flatnonzero(observation["action_mask"])[0])


def _episode(env: SplendorEnv, seed: int) -> tuple[float, int]:
    observation, _ = env.reset(seed=seed)
    steps = 0
    while True:
        observation, reward, terminated, _, info = env.step(_lowest_legal(observation))
        assert not info.get("illegal_action")
        steps += 1
        if terminated:
            return float(reward), steps


def test_a_function_opponent_sees_its_own_seats_observation() -> None:
    seen: list[tuple[int, int]] = []

    def opponent(observation: ObsType) -> int:
        seen.append((int(observation["action_mask"].sum()), len(observation["observation"])))
        return _lowest_legal(observation)

    env = SplendorEnv(num_players=3, opponents=opponent, action_ids="ruleset", turn_limit=TURN_LIMIT)
    _episode(env, 1)
    assert seen and all(legal >= 1 and length == env.game.observation_length for legal, length in seen)


class _Model:
    """A model in Stable-Baselines3's shape that records whether it was given a mask."""

    def __init__(self) -> None:
        self.masks: list[np.ndarray] = []

    def predict(
        self, observation: ObsType, state: Any = None, deterministic: bool = False, action_masks: Any = None
    ) -> tuple[np.ndarray, None]:
        self.masks.append(action_masks)
        return np.array(np.flatnonzero(action_masks)[-1]), None


def test_a_trained_model_plays_the_other_seats_with_its_mask() -> None:
    model = _Model()
    env = SplendorEnv(opponents=model, turn_limit=TURN_LIMIT)
    _episode(env, 2)
    assert model.masks and all(mask.dtype == np.bool_ and mask.any() for mask in model.masks)


def test_one_opponent_per_seat_and_bad_opponents_are_refused() -> None:
    env = SplendorEnv(num_players=3, opponents=["greedy", _lowest_legal], turn_limit=TURN_LIMIT)
    assert _episode(env, 3)[1] > 0
    with pytest.raises(ValueError, match="one opponent for every other seat"):
        SplendorEnv(num_players=3, opponents=["greedy"])
    with pytest.raises(ValueError, match="unknown policy"):
        SplendorEnv(opponents="smart")
    with pytest.raises(TypeError, match="policy name, a function or a model"):
        SplendorEnv(opponents=3)  # type: ignore[arg-type]


def test_an_opponent_choosing_an_illegal_action_is_reported() -> None:
    env = SplendorEnv(seat=1, opponents=lambda observation: int(np.flatnonzero(observation["action_mask"] == 0)[0]))
    with pytest.raises(ValueError, match="not legal there"):
        env.reset(seed=1)


def test_remote_opponents_take_the_in_process_spelling(client: EngineClient) -> None:
    local = SplendorEnv(opponents="ismcts:3", turn_limit=TURN_LIMIT)
    remote = SplendorEnv(opponents="ismcts:3", client=client, turn_limit=TURN_LIMIT)
    assert _episode(local, 4) == _episode(remote, 4)
    with pytest.raises(ValueError, match=r"bad bot 'ismcts:x': .* positive number"):
        SplendorEnv(opponents="ismcts:x", client=client)
    with pytest.raises(ValueError, match="the server has no policy 'smart': it has random, greedy, ismcts"):
        SplendorEnv(opponents="smart", client=client)
    with pytest.raises(ValueError, match=r"the server refuses policy 'greedy:3': .*greedy does not search"):
        SplendorEnv(opponents="greedy:3", client=client)


def test_a_budget_the_server_refuses_is_refused_when_the_env_is_made() -> None:
    server, port, health = build_server(
        Settings(address="127.0.0.1:0", threads=1, metrics_port=0, max_bot_iterations=MAX_ITERATIONS)
    )
    start(server, health)
    try:
        with connect(f"127.0.0.1:{port}") as bounded:
            SplendorEnv(opponents=f"ismcts:{MAX_ITERATIONS}", client=bounded)
            with pytest.raises(ValueError, match=f"the server refuses policy 'ismcts:{MAX_ITERATIONS + 1}'"):
                SplendorEnv(opponents=f"ismcts:{MAX_ITERATIONS + 1}", client=bounded)
    finally:
        server.stop(0).wait()
