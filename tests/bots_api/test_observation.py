"""Observation vectors: fixed length per ruleset, a function of the seat's view only, masks equal to legal actions."""

from __future__ import annotations

import random

import pytest
from splendor.v1 import engine_service_pb2

from engine_service.api import ApiError, Call, handlers
from engine_service.bots import determinize
from engine_service.codec import catalog, state_to_proto
from engine_service.rules import (
    ACTION_ID_COUNT,
    GameConfig,
    action_id,
    apply,
    legal_actions,
    new_game,
    observation_layout,
    observation_layouts,
    observe,
)
from tests.rulesets import RULESETS as ALL_RULESETS

RULESETS = list(ALL_RULESETS)


@pytest.mark.parametrize("modules", RULESETS, ids=lambda modules: next(iter(modules), "base"))
@pytest.mark.parametrize("players", [2, 4])
def test_length_is_fixed_the_mask_is_the_legal_actions_and_the_same_view_gives_the_same_values(
    modules: frozenset[str], players: int
) -> None:
    layout = observation_layout(modules, players)
    rng = random.Random(players)
    state = new_game(GameConfig(players, 21, modules=modules))[0]
    while state.end_reason is None:
        for seat in range(players):
            observation = observe(state, seat)
            assert len(observation.values) == layout.length and len(observation.legal_action_mask) == ACTION_ID_COUNT
            legal = {action_id(action) for action in legal_actions(state)} if seat == state.acting_seat else set()
            assert {index for index, flag in enumerate(observation.legal_action_mask) if flag} == legal
        seat = rng.randrange(players)
        sample = determinize(state, seat, rng.getrandbits(64))  # same view for the seat, other hidden cards
        assert observe(sample, seat).values == observe(state, seat).values
        actions = legal_actions(state)
        state = apply(state, actions[rng.randrange(len(actions))])[0]
    assert not any(observe(state, 0).legal_action_mask)


def test_values_are_seat_relative() -> None:
    state = new_game(GameConfig(3, 2, first_seat=0))[0]
    for move in range(3):
        state = apply(state, legal_actions(state)[move])[0]
    layout = {item.name: item for item in observation_layout(frozenset(), 3).slices}
    tokens = layout["seat0.tokens"]
    for seat in range(3):
        values = observe(state, seat).values
        assert values[tokens.offset : tokens.offset + tokens.length] == tuple(map(float, state.players[seat].tokens))


def test_the_catalog_publishes_every_layout_as_contiguous_slices() -> None:
    published = catalog().observation_layouts
    assert [layout.name for layout in published] == [layout.name for layout in observation_layouts()]
    assert len(published) == 15
    for layout in published:
        offset = 0
        for item in layout.slices:
            assert item.offset == offset and item.length > 0 and item.meaning
            offset += item.length
        assert offset == layout.length


def test_get_player_view_returns_the_observation_on_request_and_refuses_it_for_a_spectator() -> None:
    state = new_game(GameConfig(2, 8))[0]
    request = engine_service_pb2.GetPlayerViewRequest(state=state_to_proto(state), seat=1, include_observation=True)
    response = handlers.get_player_view(request, Call("t"))
    assert tuple(response.observation.values) == pytest.approx(observe(state, 1).values)
    assert response.observation.layout == "base/2p"
    request.ClearField("seat")
    with pytest.raises(ApiError) as caught:
        handlers.get_player_view(request, Call("t"))
    assert caught.value.reason == "INVALID_SEAT"
