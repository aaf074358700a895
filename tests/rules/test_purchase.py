"""Purchasing: a face-up card or one's own reserved card, paid after bonuses, gold as any colour."""

from __future__ import annotations

import pytest

from engine_service.rules import (
    CARDS,
    CardPurchased,
    CardRevealed,
    CardSource,
    MarketSlotEmptied,
    PurchaseCard,
    Reason,
    ReserveFromDeck,
    TakeGems,
    TurnEnded,
    legal_actions,
    validate_state,
)
from tests.rules.helpers import (
    BLUE,
    WHITE,
    card_ids,
    legal,
    of_type,
    play,
    position,
    refused,
    tokens,
)

# Card 5: level 1, white bonus, 0 points, costs 3 blue.
THREE_BLUE = 5
# Card 54: level 2, green bonus, 2 points, costs 5 green.
FIVE_GREEN = 54
THREE_BLUE_BONUSES = card_ids(level=1, bonus=BLUE)[:3]
TWO_BLUE_BONUSES = THREE_BLUE_BONUSES[:2]


def test_card_ids_used_here_have_the_printed_costs() -> None:
    assert CARDS[THREE_BLUE].cost == (0, 3, 0, 0, 0) and CARDS[THREE_BLUE].bonus == WHITE
    assert CARDS[FIVE_GREEN].cost == (0, 0, 5, 0, 0) and CARDS[FIVE_GREEN].points == 2


def test_purchase_face_up_card_pays_the_bank_and_gives_bonus_and_prestige() -> None:
    state = position(4, market={1: [None, FIVE_GREEN]}, held={0: tokens(green=5, gold=1)})
    after, events = play(state, PurchaseCard(FIVE_GREEN))
    player = after.players[0]
    assert player.tokens == tokens(gold=1)  # coloured tokens first, gold kept
    assert player.purchased == (FIVE_GREEN,)
    assert player.bonuses == (0, 0, 1, 0, 0) and player.prestige == 2
    assert after.bank[2] == 7
    assert of_type(events, CardPurchased) == [CardPurchased(0, FIVE_GREEN, CardSource.MARKET, 1, tokens(green=5))]


def test_purchased_card_replaced_from_its_deck_in_the_same_slot() -> None:
    state = position(2, market={0: [None, None, THREE_BLUE]}, held={0: tokens(blue=3)})
    top = state.decks[0][0]
    after, events = play(state, PurchaseCard(THREE_BLUE))
    assert after.market[0][2] == top
    assert after.market[0][:2] + after.market[0][3:] == state.market[0][:2] + state.market[0][3:]
    assert after.decks[0] == state.decks[0][1:]
    assert events == [
        CardPurchased(0, THREE_BLUE, CardSource.MARKET, 2, tokens(blue=3)),
        CardRevealed(0, 2, top),
        TurnEnded(0, 1, 1),
    ]


def test_purchase_from_an_empty_deck_leaves_the_slot_empty() -> None:
    state = position(2, market={0: [THREE_BLUE]}, empty_decks=[0], held={0: tokens(blue=3)})
    assert state.decks[0] == ()
    after, events = play(state, PurchaseCard(THREE_BLUE))
    assert after.market[0][0] is None
    assert of_type(events, MarketSlotEmptied) == [MarketSlotEmptied(0, 0)]
    assert of_type(events, CardRevealed) == []
    # the slot stays empty on later turns
    later, later_events = play(after, TakeGems((0, 1, 2)))
    assert later.market[0][0] is None and of_type(later_events, CardRevealed) == []
    validate_state(later)


def test_purchase_bonuses_reduce_the_cost() -> None:
    state = position(2, market={0: [THREE_BLUE]}, purchased={0: TWO_BLUE_BONUSES}, held={0: tokens(blue=1)})
    after, events = play(state, PurchaseCard(THREE_BLUE))
    assert of_type(events, CardPurchased)[0].payment == tokens(blue=1)
    assert after.players[0].tokens == tokens()


def test_purchase_fully_covered_by_bonuses_is_free() -> None:
    state = position(2, market={0: [THREE_BLUE]}, purchased={0: THREE_BLUE_BONUSES})
    assert legal(state, PurchaseCard(THREE_BLUE))
    after, events = play(state, PurchaseCard(THREE_BLUE))
    assert of_type(events, CardPurchased)[0].payment == tokens()
    assert after.bank == state.bank
    assert THREE_BLUE in after.players[0].purchased


def test_purchase_a_face_up_reserved_card_from_hand() -> None:
    state = position(2, reserved={0: [THREE_BLUE]}, held={0: tokens(blue=3)})
    assert legal(state, PurchaseCard(THREE_BLUE))
    after, events = play(state, PurchaseCard(THREE_BLUE))
    player = after.players[0]
    assert player.reserved == () and player.reserved_blind == ()
    assert player.purchased == (THREE_BLUE,)
    assert after.market == state.market and after.decks == state.decks
    assert of_type(events, CardPurchased) == [CardPurchased(0, THREE_BLUE, CardSource.RESERVE, None, tokens(blue=3))]
    assert of_type(events, CardRevealed) == []


def test_purchase_a_blind_reserved_card_from_hand() -> None:
    state = position(2, deck_tops={0: [THREE_BLUE]}, held={0: tokens(blue=3), 1: tokens(white=1)})
    state, _ = play(state, ReserveFromDeck(0))
    assert state.players[0].reserved == (THREE_BLUE,) and state.players[0].reserved_blind == (True,)
    refused(state, PurchaseCard(THREE_BLUE), Reason.CARD_NOT_AVAILABLE)  # seat 1 cannot buy seat 0's card
    state, _ = play(state, TakeGems((1, 2, 3)))  # seat 1
    assert legal(state, PurchaseCard(THREE_BLUE))
    after, events = play(state, PurchaseCard(THREE_BLUE, payment=tokens(blue=2, gold=1)))
    player = after.players[0]
    assert player.reserved == () and player.reserved_blind == ()
    assert player.purchased == (THREE_BLUE,) and player.tokens == tokens(blue=1)
    assert of_type(events, CardPurchased) == [
        CardPurchased(0, THREE_BLUE, CardSource.RESERVE, None, tokens(blue=2, gold=1))
    ]


def test_purchase_reserved_card_of_another_seat_is_card_not_available() -> None:
    state = position(2, reserved={1: [THREE_BLUE]}, held={0: tokens(blue=3)})
    refused(state, PurchaseCard(THREE_BLUE), Reason.CARD_NOT_AVAILABLE)
    assert not legal(state, PurchaseCard(THREE_BLUE))


def test_purchase_card_in_a_deck_is_card_not_available() -> None:
    state = position(2, deck_tops={0: [THREE_BLUE]}, held={0: tokens(blue=3)})
    refused(state, PurchaseCard(THREE_BLUE), Reason.CARD_NOT_AVAILABLE)


@pytest.mark.parametrize("card", [-1, 120, 500])
def test_purchase_unknown_card_is_unknown_card(card: int) -> None:
    refused(position(2), PurchaseCard(card), Reason.UNKNOWN_CARD)


def test_gold_chosen_over_coloured_tokens_via_explicit_payment() -> None:
    state = position(2, market={0: [THREE_BLUE]}, held={0: tokens(blue=3, gold=2)})
    after, events = play(state, PurchaseCard(THREE_BLUE, payment=tokens(blue=1, gold=2)))
    assert after.players[0].tokens == tokens(blue=2)
    assert after.bank == (4, 2, 4, 4, 4, 5)
    assert of_type(events, CardPurchased)[0].payment == tokens(blue=1, gold=2)


def test_default_payment_spends_coloured_tokens_before_gold() -> None:
    state = position(2, market={0: [THREE_BLUE]}, held={0: tokens(blue=2, gold=2)})
    after, events = play(state, PurchaseCard(THREE_BLUE))
    assert of_type(events, CardPurchased)[0].payment == tokens(blue=2, gold=1)
    assert after.players[0].tokens == tokens(gold=1)


def test_purchase_listed_once_with_the_default_payment() -> None:
    state = position(2, market={0: [THREE_BLUE]}, held={0: tokens(blue=3, gold=2)})
    purchases = [a for a in legal_actions(state) if isinstance(a, PurchaseCard) and a.card_id == THREE_BLUE]
    assert purchases == [PurchaseCard(THREE_BLUE, None)]


@pytest.mark.parametrize(
    "payment",
    [
        tokens(blue=3, gold=1),  # overpay: a gold too many
        tokens(white=1, blue=2),  # overpay: white is not due
        tokens(blue=2),  # too little: one short, no gold
        tokens(blue=1, gold=1),  # too little gold
        tokens(gold=3),  # gold not held (only two)
        tokens(blue=4),  # blue not held (only three) and overpay
        (0, 3, 0, 0, 0),  # five counts
        (0, 3, 0, 0, 0, 0, 0),  # seven counts
        (1, 3, 0, 0, 0, -1),  # a negative count
    ],
)
def test_invalid_payment_refused_with_payment_invalid(payment: tuple[int, ...]) -> None:
    state = position(2, market={0: [THREE_BLUE]}, held={0: tokens(white=1, blue=3, gold=2)})
    refused(state, PurchaseCard(THREE_BLUE, payment=payment), Reason.PAYMENT_INVALID)


def test_payment_for_a_cost_covered_by_bonuses_is_payment_invalid() -> None:
    state = position(2, market={0: [THREE_BLUE]}, purchased={0: TWO_BLUE_BONUSES}, held={0: tokens(blue=3)})
    refused(state, PurchaseCard(THREE_BLUE, payment=tokens(blue=3)), Reason.PAYMENT_INVALID)
    after, _ = play(state, PurchaseCard(THREE_BLUE, payment=tokens(blue=1)))
    assert after.players[0].tokens == tokens(blue=2)


def test_cannot_afford_is_cannot_afford() -> None:
    state = position(2, market={0: [THREE_BLUE]}, held={0: tokens(white=3, blue=2)})
    refused(state, PurchaseCard(THREE_BLUE), Reason.CANNOT_AFFORD)
    refused(state, PurchaseCard(THREE_BLUE, payment=tokens(blue=2)), Reason.CANNOT_AFFORD)
    assert not legal(state, PurchaseCard(THREE_BLUE))


def test_cannot_afford_tokens_of_other_seats_do_not_help() -> None:
    state = position(2, market={0: [THREE_BLUE]}, held={0: tokens(blue=1), 1: tokens(blue=3, gold=5)})
    refused(state, PurchaseCard(THREE_BLUE), Reason.CANNOT_AFFORD)


def test_gold_makes_a_card_affordable() -> None:
    state = position(2, market={0: [THREE_BLUE]}, held={0: tokens(blue=2, gold=1)})
    assert legal(state, PurchaseCard(THREE_BLUE))
    after, _ = play(state, PurchaseCard(THREE_BLUE))
    assert after.players[0].tokens == tokens()


@pytest.mark.parametrize("card", [90, 119])
def test_purchase_orient_card_in_a_base_game_is_card_not_available(card: int) -> None:
    refused(position(2), PurchaseCard(card), Reason.CARD_NOT_AVAILABLE)
