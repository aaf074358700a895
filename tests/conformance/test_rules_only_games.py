"""The whole games are checkable without a server, as an engine of its own checks them: deal the config, apply
each action to the state, and compare each state's digest and the final state. Here the engine is this one's
rules core, called directly (no API, no server)."""

from __future__ import annotations

import pytest
from google.protobuf import json_format
from splendor.v1 import actions_pb2, config_pb2, state_pb2
from splendor_client.conformance import Corpus, Game, load

from engine_service.codec import action_from_proto, config_from_proto, state_to_proto
from engine_service.rules import apply, new_game
from engine_service.rules.digest import state_digest
from tests.conformance.conftest import VECTORS

GAMES = load(VECTORS).games


def replay(game: Game) -> tuple[state_pb2.GameState, list[str], state_pb2.GameState]:
    """The dealt state, the digest after each action and the final state, from the rules core alone."""
    config = config_from_proto(json_format.ParseDict(game.config, config_pb2.GameConfig()))
    state = new_game(config)[0]
    dealt = state_to_proto(state)
    digests = []
    for action in game.actions:
        state = apply(state, action_from_proto(json_format.ParseDict(action, actions_pb2.Action())))[0]
        digests.append(state_digest(state))
    return dealt, digests, state_to_proto(state)


@pytest.mark.parametrize("game", GAMES, ids=[game.name for game in GAMES])
def test_a_whole_game_replays_on_the_rules_core_alone(game: Game) -> None:
    dealt, digests, final = replay(game)
    assert dealt == json_format.ParseDict(game.initial_state, state_pb2.GameState())
    assert digests == list(game.digests)
    assert final == json_format.ParseDict(game.final_state, state_pb2.GameState())


def test_a_changed_action_changes_the_digests(corpus: Corpus) -> None:
    """The check can fail: a game with its first two actions swapped no longer matches its digests."""
    game = corpus.games[0]
    swapped = Game(game.name, game.config, game.initial_state, (game.actions[1], game.actions[0], *game.actions[2:]),
                   game.digests, game.final_state)  # fmt: skip
    try:
        digests = replay(swapped)[1]
    except Exception:  # the swapped move may be illegal: a mismatch too
        return
    assert digests != list(game.digests)
