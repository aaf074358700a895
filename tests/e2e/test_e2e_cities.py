"""End to end: Cities games through the real server (ListLegalActions, ApplyAction, views, replay)."""

from __future__ import annotations

import random

import pytest
from splendor.v1 import config_pb2, state_pb2
from splendor_client import EngineClient, InvalidRequest

from engine_service.codec import action_from_proto, state_from_proto
from engine_service.rules import apply, state_digest

pytestmark = pytest.mark.e2e


def _cities_config(num_players: int, seed: int) -> config_pb2.GameConfig:
    return config_pb2.GameConfig(num_players=num_players, seed=seed, modules=[config_pb2.MODULE_CITIES])


@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_random_cities_game_through_the_api(client: EngineClient, num_players: int) -> None:
    rng = random.Random(num_players)
    config = _cities_config(num_players, 100 + num_players)
    state = client.create_game(config).state
    assert len(state.cities.available_city_ids) == 3 and not state.noble_ids
    played = []
    claimed = 0
    while state.end_reason == state_pb2.END_REASON_UNSPECIFIED:
        assert state.turn < 2000, "the game never ended"
        chosen = rng.choice(client.legal_actions(state))
        result = client.apply(state, chosen.action, expected_turn=state.turn)
        expected, _ = apply(state_from_proto(state), action_from_proto(chosen.action))
        assert state_from_proto(result.state) == expected
        claimed += sum(1 for event in result.events if event.WhichOneof("kind") == "city_claimed")
        played.append(chosen.action)
        state = result.state
    assert claimed >= 1, "a Cities game ends only when a city is taken"
    holders = {seat for seat, held in enumerate(state.cities.held) if held.city_ids}
    assert set(state.winners) <= holders
    replay = client.replay(config, played)
    assert replay.state == state
    assert replay.state_digests[-1] == state_digest(state_from_proto(state))
    view = client.view(state, seat=0).view
    assert view.cities == state.cities


def test_catalog_lists_the_cities(client: EngineClient) -> None:
    catalog = client.get_catalog()
    assert len(catalog.cities) == 14
    assert {city.tile for city in catalog.cities} == set(range(1, 8))
    assert any(r.kind == "choose_city" and r.count == 14 for r in catalog.action_id_ranges)


def test_a_cities_state_without_its_cities_is_invalid(client: EngineClient) -> None:
    state = client.create_game(_cities_config(2, 1)).state
    state.ClearField("cities")
    with pytest.raises(InvalidRequest) as refused:
        client.legal_actions(state)
    assert refused.value.reason == "INVALID_STATE"


def test_two_modules_together_are_refused(client: EngineClient) -> None:
    config = config_pb2.GameConfig(num_players=2, seed=1, modules=[config_pb2.MODULE_CITIES, config_pb2.MODULE_ORIENT])
    with pytest.raises(InvalidRequest) as refused:
        client.create_game(config)
    assert refused.value.reason == "MODULE_COMBINATION_NOT_SUPPORTED"
