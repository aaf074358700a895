"""SplendorVectorEnv: many games in one Gymnasium VectorEnv, stepped together.

Rules: it behaves exactly as Gymnasium's SyncVectorEnv of SplendorEnv (observations, masks, rewards,
terminations, truncations and infos, in every autoreset mode, with illegal actions, every kind of opponent),
in-process and through a server; through a server a step costs one BatchApplyActions call per round of moves
(the learners', then the opponents'), whatever the number of games, and no call per game but a new deal's.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

import grpc
import gymnasium
import numpy as np
import pytest
from gymnasium.vector import AutoresetMode, SyncVectorEnv
from splendor_client import EngineClient, connect
from splendor_client.envs import ENV_ID, SplendorEnv, SplendorVectorEnv

from engine_service.runtime.settings import Settings
from engine_service.server.app import build_server, start

STEPS = 120
ILLEGAL_SHARE = 0.02


def first_legal(observation: dict[str, np.ndarray]) -> int:
    return int(np.flatnonzero(observation["action_mask"])[0])


class Counted(grpc.UnaryUnaryClientInterceptor):  # type: ignore[misc]
    """Counts the calls of a channel by method name."""

    def __init__(self) -> None:
        self.calls: Counter[str] = Counter()

    def intercept_unary_unary(self, continuation: Callable[..., Any], details: Any, request: Any) -> Any:
        self.calls[details.method.rsplit("/", 1)[-1]] += 1
        return continuation(details, request)


@pytest.fixture(scope="module")
def small_batches() -> Iterator[str]:
    """A server that takes at most 3 items a call: a vector of more games splits its rounds."""
    settings = Settings(address="127.0.0.1:0", threads=2, metrics_port=0, http_address="", max_batch_items=3)
    server, port, health = build_server(settings)
    start(server, health)
    yield f"127.0.0.1:{port}"
    server.stop(0).wait()


def same(first: Any, second: Any) -> bool:
    """Equal, arrays and dicts of arrays included (object arrays of dicts: final observations and infos)."""
    if isinstance(first, dict):
        return (
            isinstance(second, dict) and first.keys() == second.keys() and all(same(first[k], second[k]) for k in first)
        )
    if isinstance(first, np.ndarray) and first.dtype == object:
        return len(first) == len(second) and all(same(a, b) for a, b in zip(first, second))
    if isinstance(first, np.ndarray):
        return bool(np.array_equal(first, second)) and first.dtype == np.asarray(second).dtype
    return bool(first == second)


def play_alike(envs: list[gymnasium.vector.VectorEnv], mode: AutoresetMode, steps: int = STEPS) -> int:
    """Step every vector with the same actions (masked random, a few illegal), checking every output is the
    reference's (the first); returns the episodes ended."""
    rng = np.random.default_rng(list(AutoresetMode).index(mode))
    outputs = [env.reset(seed=11) for env in envs]
    ended = 0
    for _ in range(steps):
        for output in outputs[1:]:
            assert all(same(a, b) for a, b in zip(output, outputs[0], strict=True))
        observations = outputs[0][0]
        if len(outputs[0]) == 5 and mode == AutoresetMode.DISABLED:
            done = outputs[0][2] | outputs[0][3]
            if done.any():
                outputs = [env.reset(options={"reset_mask": done.copy()}) for env in envs]
                continue
        masks = observations["action_mask"]
        actions = np.array(
            [rng.choice(np.flatnonzero(mask)) if rng.random() > ILLEGAL_SHARE else 9_000 for mask in masks]
        )
        outputs = [env.step(actions) for env in envs]
        ended += int((outputs[0][2] | outputs[0][3]).sum())
    return ended


def reference(count: int, mode: AutoresetMode, **options: Any) -> SyncVectorEnv:
    return SyncVectorEnv([lambda: SplendorEnv(**options) for _ in range(count)], autoreset_mode=mode)


@pytest.mark.parametrize("mode", list(AutoresetMode))
def test_it_steps_as_sync_vector_envs_of_splendor_env_in_every_autoreset_mode(
    client: EngineClient, mode: AutoresetMode
) -> None:
    envs = [
        reference(4, mode),
        SplendorVectorEnv(4, autoreset_mode=mode),
        SplendorVectorEnv(4, autoreset_mode=mode, client=client),
    ]
    assert play_alike(envs, mode) >= 4  # episodes ended, illegal actions among them


@pytest.mark.parametrize(
    "options",
    [
        {"num_players": 3, "opponents": "greedy", "action_ids": "ruleset"},
        {"num_players": 2, "module": "cities", "seat": 1, "turn_limit": 25},
        {"num_players": 3, "opponents": ["random", first_legal], "turn_limit": 20},
    ],
    ids=["greedy-3p-ruleset", "cities-seat1", "function-opponent"],
)
def test_every_kind_of_game_and_opponent_plays_alike(client: EngineClient, options: dict[str, Any]) -> None:
    mode = AutoresetMode.NEXT_STEP
    envs = [
        reference(3, mode, **options),
        SplendorVectorEnv(3, **options),
        SplendorVectorEnv(3, client=client, **options),
    ]
    play_alike(envs, mode, steps=80)


def test_more_games_than_a_call_takes_are_split_over_calls(small_batches: str) -> None:
    with connect(small_batches) as client:
        play_alike(
            [reference(7, AutoresetMode.NEXT_STEP), SplendorVectorEnv(7, client=client)], AutoresetMode.NEXT_STEP
        )


def test_a_step_through_a_server_is_one_batch_call_whatever_the_games(client: EngineClient) -> None:
    counted = Counted()
    channel = grpc.intercept_channel(client.channel, counted)
    envs = SplendorVectorEnv(16, client=EngineClient(channel), opponents="greedy", turn_limit=20)
    counted.calls.clear()  # the catalog, read once
    observations, _ = envs.reset(seed=3)
    # Every deal, the opponents' replies up to each learner's first move and its observation: one call.
    assert counted.calls == {"BatchApplyActions": 1}
    counted.calls.clear()
    steps, resets = 40, 0
    for _ in range(steps):
        actions = np.array([np.flatnonzero(mask)[0] for mask in observations["action_mask"]])
        observations, _, terminated, truncated, _ = envs.step(actions)
        resets += int((terminated | truncated).sum())
    # No ApplyAction, CreateGame or GetPlayerView: each step's learner moves, their opponents' replies (decisions
    # included: these games never need more replies than the seeds drawn ahead), the last observations of the games
    # that end and the deals of those that ended the step before, in one call.
    assert resets > 0 and counted.calls == {"BatchApplyActions": steps}


def test_opponents_the_server_does_not_reply_for_move_in_rounds_of_their_own(client: EngineClient) -> None:
    counted = Counted()
    channel = grpc.intercept_channel(client.channel, counted)
    envs = SplendorVectorEnv(4, client=EngineClient(channel), opponents=first_legal, turn_limit=30)
    observations, _ = envs.reset(seed=5)
    counted.calls.clear()
    steps = 10
    for _ in range(steps):
        actions = np.array([np.flatnonzero(mask)[0] for mask in observations["action_mask"]])
        observations = envs.step(actions)[0]
    # A function reads its own observation: the learners' call, then a round of opponent moves (a look first when
    # an opponent has none), each a call.
    assert set(counted.calls) == {"BatchApplyActions"} and counted.calls["BatchApplyActions"] >= 2 * steps


def test_make_vec_builds_it_by_default_and_sync_on_request() -> None:
    envs = gymnasium.make_vec(ENV_ID, num_envs=2, opponents="greedy")
    assert isinstance(envs.unwrapped, SplendorVectorEnv) and envs.num_envs == 2
    assert isinstance(gymnasium.make_vec(ENV_ID, num_envs=2, vectorization_mode="sync"), SyncVectorEnv)


def test_wrong_uses_are_refused() -> None:
    with pytest.raises(ValueError, match="at least one game"):
        SplendorVectorEnv(0)
    envs = SplendorVectorEnv(2, autoreset_mode=AutoresetMode.DISABLED, turn_limit=3)
    observations, _ = envs.reset(seed=1)
    with pytest.raises(ValueError, match="reset_mask"):
        envs.reset(options={"reset_mask": np.array([1, 0])})
    with pytest.raises(ValueError, match="one seed per game"):
        envs.reset(seed=[1, 2, 3])
    done = np.zeros(2, np.bool_)
    while not done.all():  # the turn limit ends both games within a few steps
        actions = np.array([np.flatnonzero(mask)[0] for mask in observations["action_mask"]])
        observations, _, terminated, truncated, _ = envs.step(actions)
        done |= terminated | truncated
        if done.any() and not done.all():
            break
    with pytest.raises(RuntimeError, match="is over"):
        envs.step(np.zeros(2, np.int64))
    assert np.array_equal(envs.action_masks(), observations["action_mask"].astype(np.bool_))
