"""A ruleset-sized action space: its size per ruleset, its mapping to the stable action ids, and its source, the
catalog (a server's serves as well as the engine's own)."""

from __future__ import annotations

import numpy as np
import pytest
from splendor_client import EngineClient
from splendor_client.envs import ActionSpace, SplendorEnv

from engine_service import in_process
from engine_service.rules import Decline, action_from_id, action_id, legal_actions, module_named
from tests.rulesets import MODULE_NAMES

DECLINE = action_id(Decline())  # an answer the core shares between modules


@pytest.mark.parametrize(
    ("module", "size"),
    [(None, 370), ("cities", 385), ("trading_posts", 376), ("strongholds", 8651), ("orient", 621)],
)
def test_the_ruleset_space_holds_the_base_ids_and_the_modules_ranges(module: str | None, size: int) -> None:
    space = ActionSpace.for_ruleset(module, in_process.catalog_message())
    assert space.size == size
    expected = set(range(370)) | ({DECLINE} if module else set())
    for id_range in module_named(module).action_ids if module else ():
        expected |= set(range(id_range.offset, id_range.offset + id_range.size))
    assert set(space.stable_ids.tolist()) == expected
    assert np.array_equal(space.index_of[space.stable_ids], np.arange(size))


@pytest.mark.parametrize("module", [None, *MODULE_NAMES])
def test_a_servers_catalog_gives_the_ruleset_space_the_engine_gives(client: EngineClient, module: str | None) -> None:
    # Rule: a remote environment needs no engine installed; the catalog names the modules using each range.
    space = ActionSpace.for_ruleset(module, client.get_catalog())
    assert tuple(space.stable_ids.tolist()) == in_process.ruleset_action_ids(module)


def test_a_remote_environment_with_the_ruleset_space_plays(client: EngineClient) -> None:
    env = SplendorEnv(module="cities", action_ids="ruleset", client=client)
    observation, _ = env.reset(seed=3)
    assert env.action_space.n == 385
    for _ in range(20):
        observation, _, terminated, _, _ = env.step(int(np.flatnonzero(observation["action_mask"])[0]))
        if terminated:
            break


def test_every_legal_action_of_a_game_lies_in_its_ruleset_space() -> None:
    env = SplendorEnv(module="orient", action_ids="ruleset")
    observation, _ = env.reset(seed=5)
    for _ in range(60):
        legal = np.flatnonzero(observation["action_mask"])
        stable = env.actions.stable_ids[legal]
        state = env.game.state  # type: ignore[attr-defined]
        assert {type(action_from_id(int(i))) for i in stable} <= {type(action) for action in legal_actions(state)}
        observation, _, terminated, _, _ = env.step(int(legal[-1]))
        if terminated:
            break


def test_the_same_seed_plays_the_same_game_in_either_space() -> None:
    full, compact = SplendorEnv(module="cities"), SplendorEnv(module="cities", action_ids="ruleset")
    a, _ = full.reset(seed=9)
    b, _ = compact.reset(seed=9)
    for _ in range(40):
        assert np.array_equal(a["observation"], b["observation"])
        assert np.array_equal(
            np.flatnonzero(a["action_mask"]), compact.actions.stable_ids[np.flatnonzero(b["action_mask"])]
        )
        index = int(np.flatnonzero(b["action_mask"])[0])
        a, _, done, _, _ = full.step(int(compact.actions.stable_ids[index]))
        b, _, _, _, _ = compact.step(index)
        if done:
            break


def test_bad_action_space_arguments_are_refused() -> None:
    with pytest.raises(ValueError, match="'all' or 'ruleset'"):
        SplendorEnv(action_ids="small")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="outside the action space"):
        ActionSpace.full(10).stable_id(10)
    with pytest.raises(ValueError, match="increasing order"):
        ActionSpace([3, 1], 10)
