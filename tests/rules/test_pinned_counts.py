"""Rule: the number of legal actions and of two-action sequences from pinned positions never drifts.

The data in ``tests/rules/pinned/`` was written by ``generate_pinned.py`` (see
there) from the rules as they were; a refactor must leave every count and every
state digest as it is. Random-play positions are replayed from their config by
action id; hand-built positions are read through the protobuf contract.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from google.protobuf import json_format
from splendor.v1 import state_pb2

from engine_service.codec import state_from_proto
from engine_service.rules import GameConfig, GameState, action_from_id, apply, legal_actions, new_game, state_digest
from tests.rulesets import MODULE_NAMES

PINNED = Path(__file__).resolve().parent / "pinned"
RULESETS = ("base", *MODULE_NAMES)


def load(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((PINNED / f"{name}.json").read_text(encoding="utf-8"))
    return data


def check_position(state: GameState, pinned: dict[str, Any], where: str) -> None:
    pending = state.pending.kind.name if state.pending is not None else None
    assert (pending, state_digest(state)) == (pinned["pending"], pinned["digest"]), where
    actions = legal_actions(state)
    two_moves = sum(len(legal_actions(apply(state, action)[0])) for action in actions)
    assert (len(actions), two_moves) == (pinned["legal"], pinned["two_moves"]), where


@pytest.mark.parametrize("ruleset", RULESETS)
def test_pinned_counts_of_random_play_positions(ruleset: str) -> None:
    data = load(ruleset)
    modules = frozenset(data["modules"])
    checked = 0
    for game in data["games"]:
        state, _ = new_game(GameConfig(game["players"], game["seed"], modules=modules))
        checkpoints = {position["after"]: position for position in game["positions"]}
        for step in range(max(checkpoints) + 1):
            if step in checkpoints:
                check_position(state, checkpoints[step], f"{ruleset} seed {game['seed']} after {step} actions")
                checked += 1
            if step < len(game["actions"]):
                state, _ = apply(state, action_from_id(game["actions"][step]))
    assert checked >= 30


def test_pinned_counts_of_pending_decisions_cover_every_kind_of_each_ruleset() -> None:
    """The data itself: every decision each ruleset can ask is pinned, for every player count."""
    expected = {
        "base": {"RETURN_TOKENS", "CHOOSE_NOBLE"},
        "cities": {"RETURN_TOKENS", "CHOOSE_CITY"},
        "trading_posts": {"RETURN_TOKENS", "CHOOSE_NOBLE", "TAKE_GEM"},
        "strongholds": {"RETURN_TOKENS", "CHOOSE_NOBLE", "PLACE_STRONGHOLD", "CONQUER"},
        "orient": {"RETURN_TOKENS", "CHOOSE_NOBLE", "PAIR_CARD", "TAKE_FREE_CARD", "RESERVE_NOBLE"},
    }
    for ruleset, kinds in expected.items():
        for players in (2, 3, 4):
            games = [game for game in load(ruleset)["games"] if game["players"] == players]
            pinned = {position["pending"] for game in games for position in game["positions"]}
            assert pinned == kinds | {None}, (ruleset, players)


def test_pinned_counts_of_hand_built_positions() -> None:
    positions = load("examples")["positions"]
    for pinned in positions:
        message = json_format.ParseDict(pinned["state"], state_pb2.GameState())
        check_position(state_from_proto(message), pinned, pinned["label"])
    assert len(positions) >= 5
