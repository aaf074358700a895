"""The observation codec (engine_service/codec/observation.py) writes packed wire bytes in one merge.

Rule: the message is the one the field-by-field writes of the core's ``observe`` build, for every ruleset,
player count and seat, acting or not, the game over included; with ``ids`` the legal actions are the ids the
mask flags, in increasing order, and the mask is empty.
"""

from __future__ import annotations

import random

import pytest
from splendor.v1 import observation_pb2

from engine_service.codec import fill_observation
from engine_service.rules import GameConfig, apply, legal_actions, new_game, observe

MODULES = (
    frozenset(),
    frozenset({"cities"}),
    frozenset({"trading_posts"}),
    frozenset({"strongholds"}),
    frozenset({"orient"}),
)


def _field_by_field(state: object, seat: int) -> observation_pb2.Observation:
    observation = observe(state, seat)  # type: ignore[arg-type]
    out = observation_pb2.Observation(seat=observation.seat, layout=observation.layout)
    out.values.extend(observation.values)
    out.legal_action_mask.extend(observation.legal_action_mask)
    return out


@pytest.mark.parametrize("modules", MODULES, ids=lambda modules: "+".join(modules) or "base")
@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_packed_observation_is_the_one_written_field_by_field(modules: frozenset[str], players: int) -> None:
    rng = random.Random(players)
    state = new_game(GameConfig(players, rng.getrandbits(32), modules=modules))[0]
    for ply in range(300):
        over = state.end_reason is not None
        for seat in range(players) if over or ply % 6 == 0 else ():
            expected = _field_by_field(state, seat)
            written = observation_pb2.Observation()
            fill_observation(written, state, seat)
            assert written == expected
            listed = observation_pb2.Observation()
            fill_observation(listed, state, seat, ids=True)
            flagged = [index for index, flag in enumerate(expected.legal_action_mask) if flag]
            assert list(listed.legal_action_ids) == flagged and not listed.legal_action_mask
            assert (listed.seat, listed.layout, listed.values) == (expected.seat, expected.layout, expected.values)
        if over:
            break
        actions = legal_actions(state)
        state = apply(state, actions[rng.randrange(len(actions))])[0]
