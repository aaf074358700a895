"""End to end: full random games of each Cities of Splendor module through the real server.

For 2, 3 and 4 players each game is played with ListLegalActions and ApplyAction,
every answer is compared with the rules core applied locally, the game must
end, its replay must give the same state and digests, and every seat's view must
carry the module's public state. Across the games of a module, the events that
only the module emits must have happened.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from splendor.v1 import config_pb2, state_pb2
from splendor_client import EngineClient

from engine_service.codec import action_from_proto, state_from_proto
from engine_service.rules import apply, state_digest

pytestmark = pytest.mark.e2e

MODULES = {
    "cities": (config_pb2.MODULE_CITIES, {"city_claimed"}),
    "trading_posts": (config_pb2.MODULE_TRADING_POSTS, {"shield_placed", "power_gem_taken"}),
    "strongholds": (config_pb2.MODULE_STRONGHOLDS, {"stronghold_placed", "strongholds_returned"}),
    "orient": (config_pb2.MODULE_ORIENT, {"card_paired", "cards_discarded"}),
}


def _play(client: EngineClient, name: str, num_players: int) -> Counter[str]:
    """Play a random game of module ``name`` through the API, checking each answer; its events, counted by kind."""
    module, _ = MODULES[name]
    config = config_pb2.GameConfig(num_players=num_players, seed=700 + num_players, modules=[module])
    rng = random.Random(num_players)
    state = client.create_game(config).state
    assert state.HasField(name), f"a {name} game carries its module state"
    played = []
    seen: Counter[str] = Counter()
    while state.end_reason == state_pb2.END_REASON_UNSPECIFIED:
        assert state.turn < 1000, "the game never ended"
        chosen = rng.choice(client.legal_actions(state))
        result = client.apply(state, chosen.action, expected_turn=state.turn)
        expected, _ = apply(state_from_proto(state), action_from_proto(chosen.action))
        assert state_from_proto(result.state) == expected
        seen.update(event.WhichOneof("kind") for event in result.events)
        played.append(chosen.action)
        state = result.state
    replay = client.replay(config, played)
    assert replay.state == state
    assert replay.state_digests[-1] == state_digest(state_from_proto(state))
    for seat in range(num_players):
        view = client.view(state, seat=seat).view
        assert getattr(view, name) == getattr(state, name)
    return seen


@pytest.mark.parametrize("name", sorted(MODULES))
def test_random_module_games_through_the_api_show_the_modules_events(client: EngineClient, name: str) -> None:
    seen: Counter[str] = Counter()
    for num_players in (2, 3, 4):
        seen.update(_play(client, name, num_players))
    _, expected = MODULES[name]
    assert expected <= set(seen), seen
