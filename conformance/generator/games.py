"""Whole games, rules only: a deal, its actions, and the state digest after each (what ReplayGame answers).

An engine of its own checks these without our server: deal the config (or load the initial state), apply
the actions in order, and compare the digest after each action and the final state.
"""

from __future__ import annotations

from splendor.v1 import engine_service_pb2
from splendor_client.conformance.vectors import Json

from .engine import Engine
from .paths import GamePath
from .recorder import to_json

pb = engine_service_pb2


def game_record(engine: Engine, game: GamePath) -> Json:
    actions = [move.applied.action for move in game.moves]
    replay = engine.answer("ReplayGame", pb.ReplayGameRequest(config=game.config, actions=actions, skip_events=True))
    if replay.state != game.final or len(replay.state_digests) != len(actions):
        raise AssertionError(f"{game.name}: the replay and the game differ")
    return {
        "name": game.name,
        "config": to_json(game.config),
        "initialState": to_json(game.created.state),
        "actions": [to_json(action) for action in actions],
        "digests": list(replay.state_digests),
        "finalState": to_json(game.final),
    }
