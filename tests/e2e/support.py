"""Helpers for the end-to-end tests."""

from __future__ import annotations

import base64
from collections.abc import Callable

import pytest
from splendor.v1 import actions_pb2, common_pb2, state_pb2
from splendor_client import EngineError

from engine_service.codec import state_to_proto
from engine_service.rules import GameState
from engine_service.sealing import parse_key_ring

# The key ring of the session's server: a current key, and a retired one whose tokens it refuses.
E2E_KEY = "e2e-current:" + base64.b64encode(bytes(range(32))).decode()
E2E_RING = parse_key_ring(f"{E2E_KEY}\ne2e-retired:retired")

RED, BLUE, GREEN, WHITE, BLACK, GOLD = (
    common_pb2.COLOR_RED,
    common_pb2.COLOR_BLUE,
    common_pb2.COLOR_GREEN,
    common_pb2.COLOR_WHITE,
    common_pb2.COLOR_BLACK,
    common_pb2.COLOR_GOLD,
)


def refusal(call: Callable[[], object]) -> EngineError:
    """The EngineError a call raises (fails the test if it succeeds)."""
    with pytest.raises(EngineError) as caught:
        call()
    return caught.value


def proto(state: GameState) -> state_pb2.GameState:
    return state_to_proto(state)


def take_gems(*colors: int) -> actions_pb2.Action:
    return actions_pb2.Action(take_gems=actions_pb2.TakeGems(colors=colors))  # type: ignore[arg-type]


def take_two(color: int) -> actions_pb2.Action:
    return actions_pb2.Action(take_two_gems=actions_pb2.TakeTwoGems(color=color))  # type: ignore[arg-type]


def reserve(card_id: int) -> actions_pb2.Action:
    return actions_pb2.Action(reserve_card=actions_pb2.ReserveCard(card_id=card_id))


def reserve_from_deck(deck: int) -> actions_pb2.Action:
    return actions_pb2.Action(reserve_from_deck=actions_pb2.ReserveFromDeck(deck=deck))


def purchase(card_id: int, payment: tuple[int, ...] | None = None) -> actions_pb2.Action:
    move = actions_pb2.PurchaseCard(card_id=card_id)
    if payment is not None:
        move.payment.CopyFrom(tokens(payment))
    return actions_pb2.Action(purchase_card=move)


def pass_turn() -> actions_pb2.Action:
    action = actions_pb2.Action()
    getattr(action, "pass").SetInParent()
    return action


def return_tokens(counts: tuple[int, ...]) -> actions_pb2.Action:
    return actions_pb2.Action(return_tokens=actions_pb2.ReturnTokens(tokens=tokens(counts)))


def choose_noble(noble_id: int) -> actions_pb2.Action:
    return actions_pb2.Action(choose_noble=actions_pb2.ChooseNoble(noble_id=noble_id))


def tokens(counts: tuple[int, ...]) -> common_pb2.TokenCounts:
    white, blue, green, red, black, gold = counts
    return common_pb2.TokenCounts(white=white, blue=blue, green=green, red=red, black=black, gold=gold)
