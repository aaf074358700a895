"""Reserving: a face-up card or the top of a deck, a gold if any is left, at most three in hand."""

from __future__ import annotations

import pytest

from engine_service.rules import (
    CardReserved,
    CardRevealed,
    GoldReceived,
    MarketSlotEmptied,
    Reason,
    ReserveCard,
    ReserveFromDeck,
    TurnEnded,
    legal_actions,
)
from tests.rules.helpers import card_ids, legal, of_type, play, position, refused, tokens


def test_reserve_face_up_card_takes_a_gold_and_the_slot_is_refilled_from_its_deck() -> None:
    state = position(2)
    card = state.market[1][2]
    top = state.decks[1][0]
    after, events = play(state, ReserveCard(card))
    player = after.players[0]
    assert player.reserved == (card,) and player.reserved_blind == (False,)
    assert player.tokens == tokens(gold=1) and after.bank[5] == 4
    assert after.market[1][2] == top and after.decks[1] == state.decks[1][1:]
    assert events == [
        CardReserved(0, card, 1, False, 2),
        GoldReceived(0, 1),
        CardRevealed(1, 2, top),
        TurnEnded(0, 1, 1),
    ]


def test_reserve_from_deck_takes_the_top_card_unseen_and_leaves_the_market() -> None:
    state = position(3)
    top = state.decks[2][0]
    after, events = play(state, ReserveFromDeck(2))
    player = after.players[0]
    assert player.reserved == (top,) and player.reserved_blind == (True,)
    assert after.decks[2] == state.decks[2][1:]
    assert after.market == state.market
    assert of_type(events, CardReserved) == [CardReserved(0, top, 2, True, None)]
    assert of_type(events, GoldReceived) == [GoldReceived(0, 1)]
    assert of_type(events, CardRevealed) == []


@pytest.mark.parametrize("blind", [False, True])
def test_reserve_with_no_gold_left_reserves_without_gold(blind: bool) -> None:
    state = position(2, held={1: tokens(gold=5)})
    assert state.bank[5] == 0
    action = ReserveFromDeck(0) if blind else ReserveCard(state.market[0][0])
    assert legal(state, action)
    after, events = play(state, action)
    assert len(after.players[0].reserved) == 1
    assert after.players[0].tokens == tokens()
    assert after.bank[5] == 0
    assert of_type(events, GoldReceived) == []
    assert len(of_type(events, CardReserved)) == 1


def test_reserve_last_gold_then_none() -> None:
    state = position(2, held={1: tokens(gold=4)})
    after, events = play(state, ReserveFromDeck(0))
    assert of_type(events, GoldReceived) == [GoldReceived(0, 1)] and after.bank[5] == 0
    after, events = play(after, ReserveFromDeck(0))
    assert of_type(events, GoldReceived) == [] and after.players[1].tokens == tokens(gold=4)


def test_reserve_limit_of_three_third_allowed() -> None:
    state = position(2, reserved={0: card_ids(level=2)[:2]})
    card = state.market[0][0]
    after, _ = play(state, ReserveCard(card))
    assert len(after.players[0].reserved) == 3


def test_reserve_limit_of_three_fourth_refused() -> None:
    state = position(2, reserved={0: card_ids(level=2)[:3]})
    refused(state, ReserveCard(state.market[0][0]), Reason.RESERVE_LIMIT)
    refused(state, ReserveFromDeck(0), Reason.RESERVE_LIMIT)
    assert not [a for a in legal_actions(state) if isinstance(a, (ReserveCard, ReserveFromDeck))]


def test_reserve_limit_counts_only_the_acting_seat() -> None:
    state = position(2, reserved={1: card_ids(level=2)[:3]})
    assert legal(state, ReserveFromDeck(1))


def test_blind_reserve_from_an_empty_deck_is_deck_empty() -> None:
    state = position(2, empty_decks=[2])
    assert state.decks[2] == () and all(card is not None for card in state.market[2])
    refused(state, ReserveFromDeck(2), Reason.DECK_EMPTY)
    assert not legal(state, ReserveFromDeck(2))
    assert legal(state, ReserveFromDeck(1))
    # face-up cards of that level can still be reserved
    assert legal(state, ReserveCard(state.market[2][0]))


@pytest.mark.parametrize("deck", [-1, 3, 6, 99])
def test_blind_reserve_from_an_unknown_deck_is_unknown_deck(deck: int) -> None:
    refused(position(2), ReserveFromDeck(deck), Reason.UNKNOWN_DECK)


@pytest.mark.parametrize("card", [-1, 120, 1000])
def test_reserve_unknown_card_is_unknown_card(card: int) -> None:
    refused(position(2), ReserveCard(card), Reason.UNKNOWN_CARD)


def test_reserve_card_not_face_up_is_card_not_available() -> None:
    state = position(2, reserved={1: [40]}, purchased={1: [0]})
    refused(state, ReserveCard(state.decks[0][0]), Reason.CARD_NOT_AVAILABLE)  # in a deck
    refused(state, ReserveCard(40), Reason.CARD_NOT_AVAILABLE)  # reserved by seat 1
    refused(state, ReserveCard(0), Reason.CARD_NOT_AVAILABLE)  # purchased by seat 1


def test_reserve_face_up_card_when_its_deck_is_empty_leaves_the_slot_empty() -> None:
    state = position(2, empty_decks=[2])
    card = state.market[2][3]
    after, events = play(state, ReserveCard(card))
    assert after.market[2] == state.market[2][:3] + (None,)
    assert of_type(events, MarketSlotEmptied) == [MarketSlotEmptied(2, 3)]
    assert of_type(events, CardRevealed) == []
    assert not legal(after, ReserveCard(card))


@pytest.mark.parametrize("card", [90, 100])
def test_reserve_orient_card_in_a_base_game_is_card_not_available(card: int) -> None:
    refused(position(2), ReserveCard(card), Reason.CARD_NOT_AVAILABLE)
