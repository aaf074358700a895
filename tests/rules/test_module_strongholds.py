"""Rules of the Strongholds module (Cities of Splendor): occupation, placement after a purchase, conquest."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from engine_service.rules import (
    SPECTATOR,
    Action,
    CardPurchased,
    CardReserved,
    CardRevealed,
    CardSource,
    DecisionKind,
    DecisionRequired,
    Decline,
    EndReason,
    Event,
    GameConfig,
    GameState,
    GemsReturned,
    GemsTaken,
    GoldReceived,
    NobleVisited,
    PendingDecision,
    PurchaseCard,
    Reason,
    ReserveCard,
    ReserveFromDeck,
    ReturnTokens,
    RuleViolation,
    TakeGems,
    TurnEnded,
    action_from_id,
    action_id,
    apply,
    legal_actions,
    new_game,
    state_digest,
    validate_state,
    view_for,
)
from engine_service.rules.modules.strongholds import STATE as STRONGHOLDS_STATE
from engine_service.rules.modules.strongholds import (
    STRONGHOLDS_PER_PLAYER,
    CardConquered,
    PlaceStronghold,
    RemoveStronghold,
    StrongholdPlaced,
    StrongholdRemoved,
    StrongholdsReturned,
    StrongholdsState,
)
from tests.rules.helpers import GEMS_PER_COLOR, has_action, of_type, position, refused, tokens

STRONGHOLDS_ON = frozenset({"strongholds"})
PLACE, CONQUER = DecisionKind.PLACE_STRONGHOLD, DecisionKind.CONQUER

# Level-1 cards whose whole cost is three tokens of one colour.
WHITE_3_BLUE = 5  # white bonus, costs 3 blue
RED_3_WHITE = 30  # red bonus, costs 3 white
BLACK_3_GREEN = 34  # black bonus, costs 3 green
GREEN_3_RED = 16  # green bonus, costs 3 red
BLUE_3_BLACK = 8  # blue bonus, costs 3 black
GREEN_2W_1U = 22  # green bonus, costs 2 white 1 blue
ROW = [RED_3_WHITE, WHITE_3_BLUE, BLACK_3_GREEN, GREEN_3_RED]  # the level-1 market of most positions


def stronghold_position(
    placed: Mapping[int, Sequence[int]], num_players: int = 2, *, seed: int = 4, **kwargs: Any
) -> GameState:
    """A base position (see ``helpers.position``) turned into a Strongholds game with these strongholds."""
    kwargs.setdefault("market", {0: ROW})
    base = position(num_players, seed, **kwargs)
    state = STRONGHOLDS_STATE.put(
        base._replace(config=base.config._replace(modules=STRONGHOLDS_ON)),
        StrongholdsState(tuple(tuple(placed.get(seat, ())) for seat in range(num_players))),
    )
    validate_state(state)
    return state


def placed(state: GameState) -> tuple[tuple[int, ...], ...]:
    assert STRONGHOLDS_STATE.find(state) is not None
    return STRONGHOLDS_STATE.find(state).placed


def options_of(state: GameState) -> tuple[int, ...]:
    """The options of the pending decision (which must be there)."""
    assert state.pending is not None
    return state.pending.options


def face_up(state: GameState) -> list[int]:
    return sorted(card for row in state.market for card in row if card is not None)


def step(state: GameState, action: Action) -> tuple[GameState, tuple[Event, ...]]:
    """Apply and check that the result is a consistent state."""
    after, events = apply(state, action)
    validate_state(after)
    return after, events


def without_decisions(events: Sequence[Event]) -> list[Event]:
    return [event for event in events if not isinstance(event, DecisionRequired)]


# --- setup -------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_every_stronghold_starts_in_its_owners_supply_with_the_base_setup(players: int) -> None:
    state, _ = new_game(GameConfig(players, 11, modules=STRONGHOLDS_ON))
    assert placed(state) == ((),) * players
    assert len(state.nobles) == players + 1  # nobles are used normally
    assert state.bank == (GEMS_PER_COLOR[players],) * 5 + (5,)
    base, _ = new_game(GameConfig(players, 11))
    assert state.market == base.market and state.decks == base.decks
    validate_state(state)


# --- occupation --------------------------------------------------------------------


def test_occupation_an_opponent_can_neither_buy_nor_reserve_the_card() -> None:
    state = stronghold_position({1: [RED_3_WHITE]}, held={0: tokens(white=3)})
    error = refused(state, PurchaseCard(RED_3_WHITE), Reason.CARD_OCCUPIED)
    assert error.details == {"card_id": str(RED_3_WHITE), "owner": "1"}
    refused(state, ReserveCard(RED_3_WHITE), Reason.CARD_OCCUPIED)
    actions = legal_actions(state)
    assert not has_action(actions, PurchaseCard(RED_3_WHITE))
    assert not has_action(actions, ReserveCard(RED_3_WHITE))
    assert has_action(actions, ReserveCard(WHITE_3_BLUE))  # other cards are not affected


def test_occupation_is_checked_before_affordability() -> None:
    state = stronghold_position({1: [GREEN_3_RED]})
    refused(state, PurchaseCard(GREEN_3_RED), Reason.CARD_OCCUPIED)


def test_occupation_blind_reserves_are_unaffected() -> None:
    state = stronghold_position({1: [RED_3_WHITE, WHITE_3_BLUE, BLACK_3_GREEN]})
    assert has_action(legal_actions(state), ReserveFromDeck(0))
    after, events = step(state, ReserveFromDeck(0))
    assert placed(after) == placed(state)
    assert not of_type(events, StrongholdsReturned)
    assert of_type(events, CardReserved)[0].blind


def test_occupation_the_owner_reserves_the_card_and_gets_the_strongholds_back() -> None:
    state = stronghold_position({0: [RED_3_WHITE, RED_3_WHITE]})
    top = state.decks[0][0]
    after, events = step(state, ReserveCard(RED_3_WHITE))
    assert without_decisions(events) == [
        CardReserved(0, RED_3_WHITE, 0, False, 0),
        GoldReceived(0, 1),
        StrongholdsReturned(0, RED_3_WHITE, 2),
        CardRevealed(0, 0, top),
        TurnEnded(0, 1, 1),
    ]
    assert placed(after) == ((), ())
    assert not of_type(events, StrongholdPlaced)  # no placement after a reservation


def test_occupation_the_owner_buys_the_card_gets_the_strongholds_back_then_places_one() -> None:
    state = stronghold_position({0: [RED_3_WHITE, BLACK_3_GREEN]}, held={0: tokens(white=3)})
    pending, events = step(state, PurchaseCard(RED_3_WHITE))
    assert events[:2] == (
        CardPurchased(0, RED_3_WHITE, CardSource.MARKET, 0, tokens(white=3)),
        StrongholdsReturned(0, RED_3_WHITE, 1),
    )
    assert placed(pending)[0] == (BLACK_3_GREEN,)
    assert pending.pending is not None and pending.pending.kind is PLACE
    answers = legal_actions(pending)
    assert has_action(answers, PlaceStronghold(WHITE_3_BLUE))  # the returned one is back in the supply
    assert has_action(answers, PlaceStronghold(WHITE_3_BLUE, BLACK_3_GREEN))


def test_occupation_ends_once_the_last_opponent_stronghold_is_removed() -> None:
    state = stronghold_position({1: [BLACK_3_GREEN]}, held={0: tokens(blue=3, green=3)})
    state, _ = step(state, PurchaseCard(WHITE_3_BLUE))
    state, events = step(state, RemoveStronghold(BLACK_3_GREEN))
    assert StrongholdRemoved(0, BLACK_3_GREEN, 1) in events
    assert placed(state) == ((), ())
    state, _ = step(state, TakeGems((0, 1, 2)))  # seat 1
    assert has_action(legal_actions(state), PurchaseCard(BLACK_3_GREEN))


# --- the placement after every purchase ------------------------------------------------


def test_placement_after_a_market_purchase_comes_before_the_card_is_replaced() -> None:
    state = stronghold_position({}, held={0: tokens(blue=3)})
    top = state.decks[0][0]
    pending, events = step(state, PurchaseCard(WHITE_3_BLUE))
    assert pending.market[0] == (RED_3_WHITE, None, BLACK_3_GREEN, GREEN_3_RED)  # the slot is still empty
    options = tuple(card for card in face_up(state) if card != WHITE_3_BLUE)
    assert events[-1] == DecisionRequired(0, PLACE, 0, options)
    assert pending.pending == PendingDecision(PLACE, 0, options=options)
    assert top not in options  # the replacement is not shown yet
    assert set(legal_actions(pending)) == {PlaceStronghold(card) for card in options}
    refused(pending, PlaceStronghold(top), Reason.STRONGHOLD_NOT_ALLOWED)
    refused(pending, PlaceStronghold(WHITE_3_BLUE), Reason.STRONGHOLD_NOT_ALLOWED)
    after, events = step(pending, PlaceStronghold(GREEN_3_RED))
    assert events == (StrongholdPlaced(0, GREEN_3_RED, None), CardRevealed(0, 1, top), TurnEnded(0, 1, 1))
    assert placed(after) == ((GREEN_3_RED,), ())


def test_placement_after_a_purchase_from_the_reserve_too() -> None:
    state = stronghold_position({}, held={0: tokens(white=2, blue=1)}, reserved={0: [GREEN_2W_1U]})
    pending, events = step(state, PurchaseCard(GREEN_2W_1U))
    assert events[0] == CardPurchased(0, GREEN_2W_1U, CardSource.RESERVE, None, tokens(white=2, blue=1))
    assert pending.pending is not None and pending.pending.kind is PLACE
    assert pending.pending.options == tuple(face_up(state))  # nothing left the market
    after, events = step(pending, PlaceStronghold(RED_3_WHITE))
    assert events == (StrongholdPlaced(0, RED_3_WHITE, None), TurnEnded(0, 1, 1))
    assert placed(after) == ((RED_3_WHITE,), ()) and after.players[0].reserved == ()


def test_placement_stacking_on_your_own_card_is_allowed() -> None:
    state = stronghold_position({0: [RED_3_WHITE]}, held={0: tokens(blue=3)})
    pending, _ = step(state, PurchaseCard(WHITE_3_BLUE))
    assert RED_3_WHITE in options_of(pending)
    after, events = step(pending, PlaceStronghold(RED_3_WHITE))
    assert StrongholdPlaced(0, RED_3_WHITE, None) in events
    assert placed(after)[0] == (RED_3_WHITE, RED_3_WHITE)


def test_placement_never_onto_a_card_holding_another_colour() -> None:
    state = stronghold_position({0: [GREEN_3_RED], 1: [BLACK_3_GREEN]}, held={0: tokens(blue=3)})
    pending, _ = step(state, PurchaseCard(WHITE_3_BLUE))
    assert BLACK_3_GREEN not in options_of(pending)
    error = refused(pending, PlaceStronghold(BLACK_3_GREEN), Reason.STRONGHOLD_NOT_ALLOWED)
    assert error.details["card_id"] == str(BLACK_3_GREEN)
    refused(pending, PlaceStronghold(BLACK_3_GREEN, GREEN_3_RED), Reason.STRONGHOLD_NOT_ALLOWED)
    answers = legal_actions(pending)
    assert not any(isinstance(answer, PlaceStronghold) and answer.card_id == BLACK_3_GREEN for answer in answers)
    assert has_action(answers, RemoveStronghold(BLACK_3_GREEN))


def test_placement_moving_one_when_all_three_are_placed() -> None:
    state = stronghold_position({0: [RED_3_WHITE, RED_3_WHITE, GREEN_3_RED]}, held={0: tokens(blue=3)})
    pending, _ = step(state, PurchaseCard(WHITE_3_BLUE))
    error = refused(pending, PlaceStronghold(BLACK_3_GREEN), Reason.STRONGHOLD_NOT_ALLOWED)  # the supply is empty
    assert error.details["card_id"] == str(BLACK_3_GREEN)
    refused(pending, PlaceStronghold(RED_3_WHITE, RED_3_WHITE), Reason.STRONGHOLD_NOT_ALLOWED)  # not a move
    refused(pending, PlaceStronghold(RED_3_WHITE, BLACK_3_GREEN), Reason.STRONGHOLD_NOT_ALLOWED)  # none of yours there
    answers = legal_actions(pending)
    assert all(isinstance(answer, PlaceStronghold) and answer.from_card_id is not None for answer in answers)
    assert has_action(answers, PlaceStronghold(RED_3_WHITE, GREEN_3_RED))  # stacking by moving
    after, events = step(pending, PlaceStronghold(BLACK_3_GREEN, RED_3_WHITE))
    assert StrongholdPlaced(0, BLACK_3_GREEN, RED_3_WHITE) in events
    assert sorted(placed(after)[0]) == sorted([RED_3_WHITE, GREEN_3_RED, BLACK_3_GREEN])


def test_placement_all_three_stacked_can_only_move_off_their_card() -> None:
    # Unaffordable conquest (no white), so only the placement is asked.
    state = stronghold_position({0: [GREEN_3_RED] * 3}, held={0: tokens(blue=3)})
    pending, _ = step(state, PurchaseCard(WHITE_3_BLUE))
    options = options_of(pending)
    assert GREEN_3_RED not in options
    assert options == tuple(card for card in face_up(state) if card not in (WHITE_3_BLUE, GREEN_3_RED))
    assert set(legal_actions(pending)) == {PlaceStronghold(card, GREEN_3_RED) for card in options}


def test_placement_removing_an_opponents_stronghold_gives_it_back() -> None:
    state = stronghold_position({1: [BLACK_3_GREEN, BLACK_3_GREEN], 2: [RED_3_WHITE]}, 3, held={0: tokens(blue=3)})
    pending, _ = step(state, PurchaseCard(WHITE_3_BLUE))
    answers = legal_actions(pending)
    assert has_action(answers, RemoveStronghold(BLACK_3_GREEN)) and has_action(answers, RemoveStronghold(RED_3_WHITE))
    refused(pending, RemoveStronghold(GREEN_3_RED), Reason.STRONGHOLD_NOT_ALLOWED)  # nobody's there
    after, events = step(pending, RemoveStronghold(BLACK_3_GREEN))
    assert StrongholdRemoved(0, BLACK_3_GREEN, 1) in events
    assert placed(after) == ((), (BLACK_3_GREEN,), (RED_3_WHITE,))  # one removed; still occupied by seat 1


def test_placement_removing_your_own_stronghold_is_refused() -> None:
    state = stronghold_position({0: [RED_3_WHITE], 1: [BLACK_3_GREEN]}, held={0: tokens(blue=3)})
    pending, _ = step(state, PurchaseCard(WHITE_3_BLUE))
    error = refused(pending, RemoveStronghold(RED_3_WHITE), Reason.STRONGHOLD_NOT_ALLOWED)
    assert error.details == {"card_id": str(RED_3_WHITE)}


def test_placement_answers_of_the_wrong_kind_are_refused() -> None:
    state = stronghold_position({}, held={0: tokens(blue=3, white=3)})
    pending, _ = step(state, PurchaseCard(WHITE_3_BLUE))
    error = refused(pending, Decline(), Reason.DECISION_PENDING)
    assert error.details == {"decision": "PLACE_STRONGHOLD"}
    refused(pending, PurchaseCard(RED_3_WHITE), Reason.DECISION_PENDING)
    refused(pending, PlaceStronghold(RED_3_WHITE), Reason.NOT_YOUR_TURN, seat=1)


def test_placement_without_any_purchase_is_not_asked() -> None:
    state = stronghold_position({})
    refused(state, PlaceStronghold(RED_3_WHITE), Reason.NO_DECISION_PENDING)
    refused(state, Decline(), Reason.NO_DECISION_PENDING)
    after, events = step(state, TakeGems((0, 1, 2)))
    assert not of_type(events, DecisionRequired) and after.pending is None


def _sparse(placed: Mapping[int, Sequence[int]], level_1: Sequence[int | None], **kwargs: Any) -> GameState:
    """A late game: the decks have run out and only ``level_1`` is face up."""
    empty = [None] * 4
    return stronghold_position(
        placed, market={0: level_1, 1: empty, 2: empty}, empty_decks=[0, 1, 2], dump_seat=1, **kwargs
    )


def test_placement_with_exactly_one_answer_is_applied_at_once() -> None:
    state = _sparse({0: [RED_3_WHITE] * 3}, [RED_3_WHITE, WHITE_3_BLUE, BLACK_3_GREEN, None], held={0: tokens(blue=3)})
    after, events = step(state, PurchaseCard(WHITE_3_BLUE))
    assert not of_type(events, DecisionRequired)
    assert StrongholdPlaced(0, BLACK_3_GREEN, RED_3_WHITE) in events  # the only answer: move one off card 30
    assert isinstance(events[-1], TurnEnded)
    assert sorted(placed(after)[0]) == sorted([RED_3_WHITE, RED_3_WHITE, BLACK_3_GREEN])


def test_placement_with_no_possible_answer_is_skipped() -> None:
    # All three stand on the only face-up card left, and there is no opponent stronghold.
    state = _sparse({0: [RED_3_WHITE] * 3}, [RED_3_WHITE, WHITE_3_BLUE, None, None], held={0: tokens(blue=3)})
    after, events = step(state, PurchaseCard(WHITE_3_BLUE))
    assert not of_type(events, DecisionRequired) and not of_type(events, StrongholdPlaced)
    assert placed(after) == placed(state)
    assert isinstance(events[-1], TurnEnded)


# --- conquest ----------------------------------------------------------------------


def test_rulebook_example_red_places_his_third_stronghold_then_conquers_that_card() -> None:
    """strongholds.json ``rulebook_example``, with the exact order of events."""
    red = 0
    state = stronghold_position(
        {red: [RED_3_WHITE, RED_3_WHITE]},
        held={red: tokens(white=3, blue=3)},
        deck_tops={0: [GREEN_2W_1U, BLUE_3_BLACK]},
    )
    # Red buys a card; the placement comes before its slot is refilled.
    state, events = step(state, PurchaseCard(WHITE_3_BLUE))
    options = tuple(card for card in face_up(state))
    assert events == (
        CardPurchased(red, WHITE_3_BLUE, CardSource.MARKET, 1, tokens(blue=3)),
        DecisionRequired(red, PLACE, 0, options),
    )
    # He places his third stronghold on the card holding his other two; the bought card is replaced;
    # then the conquest is offered.
    state, events = step(state, PlaceStronghold(RED_3_WHITE))
    assert events == (
        StrongholdPlaced(red, RED_3_WHITE, None),
        CardRevealed(0, 1, GREEN_2W_1U),
        DecisionRequired(red, CONQUER, 0, (RED_3_WHITE,)),
    )
    assert legal_actions(state) == [PurchaseCard(RED_3_WHITE), Decline()]
    # He buys that card and takes back his three strongholds; he must place one before it is replaced.
    state, events = step(state, PurchaseCard(RED_3_WHITE))
    assert events[:3] == (
        CardConquered(red, RED_3_WHITE),
        CardPurchased(red, RED_3_WHITE, CardSource.MARKET, 0, tokens(white=2)),  # the new white bonus counts
        StrongholdsReturned(red, RED_3_WHITE, 3),
    )
    assert events[3] == DecisionRequired(red, PLACE, 0, options_of(state))
    assert GREEN_2W_1U in options_of(state)
    assert state.market[0][0] is None
    # He places one on the newly revealed card; the second card is then replaced.
    state, events = step(state, PlaceStronghold(GREEN_2W_1U))
    assert events == (
        StrongholdPlaced(red, GREEN_2W_1U, None),
        CardRevealed(0, 0, BLUE_3_BLACK),
        TurnEnded(red, 1, 1),
    )
    assert placed(state) == ((GREEN_2W_1U,), ())
    assert state.players[red].purchased == (WHITE_3_BLUE, RED_3_WHITE)
    assert state.players[red].tokens == tokens(white=1)


def test_conquest_after_a_gem_action_uses_the_gems_just_taken() -> None:
    state = stronghold_position({0: [RED_3_WHITE] * 3}, held={0: tokens(white=2)})
    top = state.decks[0][0]
    offered, events = step(state, TakeGems((0, 1, 2)))
    assert events == (GemsTaken(0, tokens(white=1, blue=1, green=1)), DecisionRequired(0, CONQUER, 0, (RED_3_WHITE,)))
    assert legal_actions(offered) == [PurchaseCard(RED_3_WHITE), Decline()]
    pending, events = step(offered, PurchaseCard(RED_3_WHITE))
    assert events[:3] == (
        CardConquered(0, RED_3_WHITE),
        CardPurchased(0, RED_3_WHITE, CardSource.MARKET, 0, tokens(white=3)),
        StrongholdsReturned(0, RED_3_WHITE, 3),
    )
    assert pending.pending is not None and pending.pending.kind is PLACE  # mandatory after the conquest
    after, events = step(pending, PlaceStronghold(GREEN_3_RED))
    assert events == (StrongholdPlaced(0, GREEN_3_RED, None), CardRevealed(0, 0, top), TurnEnded(0, 1, 1))
    assert placed(after) == ((GREEN_3_RED,), ()) and after.players[0].purchased == (RED_3_WHITE,)


def test_conquest_after_a_reservation_comes_after_the_reserved_card_is_replaced() -> None:
    state = stronghold_position({0: [RED_3_WHITE] * 3}, held={0: tokens(white=3)})
    top = state.decks[0][0]
    _, events = step(state, ReserveCard(GREEN_3_RED))
    assert events == (
        CardReserved(0, GREEN_3_RED, 0, False, 3),
        GoldReceived(0, 1),
        CardRevealed(0, 3, top),
        DecisionRequired(0, CONQUER, 0, (RED_3_WHITE,)),
    )


def test_conquest_may_be_declined_and_is_offered_again_on_a_later_turn() -> None:
    state = stronghold_position({0: [RED_3_WHITE] * 3}, held={0: tokens(white=3)})
    offered, _ = step(state, TakeGems((1, 2, 3)))
    after, events = step(offered, Decline())
    assert events == (TurnEnded(0, 1, 1),)
    assert placed(after) == placed(state)
    assert RED_3_WHITE in after.market[0]
    after, _ = step(after, TakeGems((1, 2, 3)))  # seat 1: it holds no stronghold, nothing to offer
    assert after.pending is None and after.seat == 0
    _, events = step(after, ReserveFromDeck(1))
    assert events[-1] == DecisionRequired(0, CONQUER, 0, (RED_3_WHITE,))


def test_conquest_is_not_offered_when_unaffordable() -> None:
    state = stronghold_position({0: [RED_3_WHITE] * 3}, held={0: tokens(white=1)})
    after, events = step(state, TakeGems((1, 2, 3)))
    assert not of_type(events, DecisionRequired) and isinstance(events[-1], TurnEnded)
    assert placed(after) == placed(state) and after.seat == 1


def test_conquest_is_not_offered_with_fewer_than_three_on_one_card() -> None:
    state = stronghold_position({0: [RED_3_WHITE, RED_3_WHITE, GREEN_3_RED]}, held={0: tokens(white=3, red=3)})
    _, events = step(state, TakeGems((1, 2, 4)))
    assert not of_type(events, DecisionRequired)


def test_conquest_payment_is_checked_like_any_purchase() -> None:
    state = stronghold_position({0: [RED_3_WHITE] * 3}, held={0: tokens(white=2, gold=2)})
    offered, _ = step(state, TakeGems((1, 2, 3)))
    refused(offered, PurchaseCard(RED_3_WHITE, tokens(white=3)), Reason.PAYMENT_INVALID)  # holds only two
    refused(offered, PurchaseCard(RED_3_WHITE, tokens(white=2)), Reason.PAYMENT_INVALID)  # short by one
    error = refused(offered, PurchaseCard(GREEN_3_RED), Reason.CARD_NOT_AVAILABLE)  # only that card
    assert error.details == {"card_id": str(GREEN_3_RED)}
    refused(offered, PlaceStronghold(GREEN_3_RED), Reason.DECISION_PENDING)
    refused(offered, PurchaseCard(RED_3_WHITE, cards_spent=(1,)), Reason.CARDS_SPENT_INVALID)
    _, events = step(offered, PurchaseCard(RED_3_WHITE, tokens(white=1, gold=2)))
    assert of_type(events, CardPurchased)[0].payment == tokens(white=1, gold=2)


def test_conquest_and_its_placement_come_before_the_noble_visit_and_the_token_return() -> None:
    # Three white, two red and three black bonuses: conquering the red card (free with three white
    # bonuses) brings the third red, so noble 7 (3 white, 3 red, 3 black) visits only after it.
    white_cards, red_cards, black_cards = [0, 1, 2], [24, 25], [32, 33, 35]
    state = stronghold_position(
        {0: [RED_3_WHITE] * 3},
        held={0: tokens(blue=3, green=3, black=3, gold=1)},
        purchased={0: white_cards + red_cards + black_cards},
        table_nobles=[7, 0, 1],
    )
    assert state.players[0].bonuses == (3, 0, 0, 2, 3)
    top = state.decks[0][0]
    offered, events = step(state, TakeGems((0, 3, 4)))  # 13 tokens now
    assert events == (GemsTaken(0, tokens(white=1, red=1, black=1)), DecisionRequired(0, CONQUER, 0, (RED_3_WHITE,)))
    placing, conquest = step(offered, PurchaseCard(RED_3_WHITE))
    returning, placement = step(placing, PlaceStronghold(GREEN_3_RED))
    after, ending = step(returning, ReturnTokens(tokens(blue=1, green=1, black=1)))
    kinds = [type(event).__name__ for event in conquest + placement + ending if not isinstance(event, DecisionRequired)]
    assert kinds == [
        "CardConquered",
        "CardPurchased",
        "StrongholdsReturned",
        "StrongholdPlaced",
        "CardRevealed",
        "NobleVisited",
        "GemsReturned",
        "TurnEnded",
    ]
    assert CardRevealed(0, 0, top) in placement
    assert NobleVisited(0, 7) in placement
    assert placement[-1] == DecisionRequired(0, DecisionKind.RETURN_TOKENS, 3, ())
    assert GemsReturned(0, tokens(blue=1, green=1, black=1)) in ending
    assert after.players[0].nobles == (7,)
    assert sum(after.players[0].tokens) == 10


# --- action ids and views -----------------------------------------------------------------------


def test_stronghold_answers_round_trip_through_action_ids() -> None:
    answers: list[Action] = [Decline()]
    for card in range(90):
        answers += [PlaceStronghold(card), RemoveStronghold(card)]
        answers += [PlaceStronghold(card, source) for source in range(90)]
    ids = [action_id(answer) for answer in answers]
    assert len(set(ids)) == len(ids)
    for answer, value in zip(answers, ids):
        decoded = action_from_id(value)
        assert type(decoded) is type(answer) and decoded == answer


def test_stronghold_answers_on_cards_beyond_the_base_game_have_no_id() -> None:
    for answer in (PlaceStronghold(90), PlaceStronghold(3, 95), RemoveStronghold(119)):
        with pytest.raises(RuleViolation) as caught:
            action_id(answer)
        assert caught.value.reason is Reason.UNKNOWN_ACTION


def test_strongholds_are_public_in_every_view() -> None:
    state = stronghold_position({0: [RED_3_WHITE, RED_3_WHITE], 2: [BLACK_3_GREEN]}, 3)
    for viewer in (SPECTATOR, 0, 1, 2):
        assert STRONGHOLDS_STATE.find(view_for(state, viewer)) == STRONGHOLDS_STATE.find(state)


# --- a client's state -------------------------------------------------------------------


def _invalid(state: GameState, field: str) -> None:
    with pytest.raises(RuleViolation) as caught:
        validate_state(state)
    assert caught.value.reason is Reason.INVALID_STATE
    assert caught.value.details["field"].startswith(field), caught.value.details


def test_validate_state_refuses_a_strongholds_game_without_strongholds() -> None:
    _invalid(STRONGHOLDS_STATE.put(stronghold_position({}), None), "strongholds")


def test_validate_state_refuses_a_wrong_number_of_seats() -> None:
    _invalid(STRONGHOLDS_STATE.put(stronghold_position({}), StrongholdsState(((),))), "strongholds.placed")


def test_validate_state_refuses_more_than_three_strongholds() -> None:
    four = (RED_3_WHITE,) * (STRONGHOLDS_PER_PLAYER + 1)
    _invalid(STRONGHOLDS_STATE.put(stronghold_position({}), StrongholdsState((four, ()))), "strongholds.placed[0]")


@pytest.mark.parametrize("where", ["deck", "reserved", "unknown"])
def test_validate_state_refuses_a_stronghold_off_the_face_up_cards(where: str) -> None:
    state = stronghold_position({}, reserved={1: [GREEN_2W_1U]})
    card = {"deck": state.decks[0][0], "reserved": GREEN_2W_1U, "unknown": 500}[where]
    _invalid(STRONGHOLDS_STATE.put(state, StrongholdsState(((), (card,)))), "strongholds.placed[1]")


def test_validate_state_refuses_a_card_holding_two_colours() -> None:
    state = stronghold_position({})
    _invalid(STRONGHOLDS_STATE.put(state, StrongholdsState(((RED_3_WHITE,), (RED_3_WHITE,)))), "strongholds.placed[1]")


def test_validate_state_checks_the_placement_options() -> None:
    state = stronghold_position({}, held={0: tokens(blue=3)})
    pending, _ = step(state, PurchaseCard(WHITE_3_BLUE))
    decision = pending.pending
    assert decision is not None
    _invalid(pending._replace(pending=decision._replace(options=decision.options[1:])), "pending_decision.options")


def test_validate_state_checks_the_conquest_option() -> None:
    state = stronghold_position({0: [RED_3_WHITE] * 3}, held={0: tokens(white=3)})
    offered, _ = step(state, TakeGems((1, 2, 3)))
    decision = offered.pending
    assert decision is not None
    _invalid(offered._replace(pending=decision._replace(options=(GREEN_3_RED,))), "pending_decision.options")
    two_and_one = StrongholdsState(((RED_3_WHITE, RED_3_WHITE, GREEN_3_RED), ()))
    _invalid(STRONGHOLDS_STATE.put(offered, two_and_one), "pending_decision.options")
    poor = offered.players[0]._replace(tokens=tokens(blue=1, green=1, red=1))  # cannot pay: never offered
    bank = tuple(b + t - p for b, t, p in zip(offered.bank, offered.players[0].tokens, poor.tokens))
    _invalid(offered._replace(players=(poor,) + offered.players[1:], bank=bank), "pending_decision.options")


def test_validate_state_refuses_a_conquest_offered_before_the_market_is_refilled() -> None:
    state = stronghold_position({0: [RED_3_WHITE] * 3}, held={0: tokens(white=3)})
    offered, _ = step(state, TakeGems((1, 2, 3)))
    card = offered.market[0][3]
    assert card is not None
    unrefilled = offered._replace(
        market=((*offered.market[0][:3], None), *offered.market[1:]),
        decks=((card, *offered.decks[0]), *offered.decks[1:]),
    )
    _invalid(unrefilled, "market")


# --- random play ----------------------------------------------------------------------------


def _stacking_choice(state: GameState, actions: list[Action], rng: random.Random) -> Action:
    """Random play that mostly stacks its strongholds and conquers, so that conquests happen often."""
    pending = state.pending
    if pending is not None and pending.kind is PLACE and rng.random() < 0.9:
        own = set(placed(state)[pending.seat])
        stacking = [a for a in actions if isinstance(a, PlaceStronghold) and a.card_id in own]
        if stacking:
            return rng.choice(stacking)
    if pending is not None and pending.kind is CONQUER and rng.random() < 0.8:
        return actions[0]  # the conquest purchase; Decline is listed last
    return rng.choice(actions)


def _illegal_samples(state: GameState) -> list[tuple[Action, Reason]]:
    """Actions the rules refuse in this state, with the reason."""
    pending = state.pending
    seat = state.acting_seat
    everyone = placed(state)
    own = everyone[seat]
    others = sorted({card for owner, cards in enumerate(everyone) if owner != seat for card in cards})
    shown = face_up(state)
    free = [card for card in shown if card not in others and card not in own]
    hidden = [pile[0] for pile in state.decks if pile]
    samples: list[tuple[Action, Reason]] = []
    if pending is None:
        for card in others:
            samples += [(ReserveCard(card), Reason.CARD_OCCUPIED), (PurchaseCard(card), Reason.CARD_OCCUPIED)]
        samples += [(Decline(), Reason.NO_DECISION_PENDING), (RemoveStronghold(0), Reason.NO_DECISION_PENDING)]
    elif pending.kind is PLACE:
        samples += [(PlaceStronghold(card), Reason.STRONGHOLD_NOT_ALLOWED) for card in others[:1] + hidden[:1]]
        samples += [(RemoveStronghold(card), Reason.STRONGHOLD_NOT_ALLOWED) for card in (own + tuple(free))[:1]]
        if own:
            samples.append((PlaceStronghold(own[0], own[0]), Reason.STRONGHOLD_NOT_ALLOWED))
        if len(own) == STRONGHOLDS_PER_PLAYER and free:
            samples.append((PlaceStronghold(free[0]), Reason.STRONGHOLD_NOT_ALLOWED))
        samples += [(Decline(), Reason.DECISION_PENDING), (TakeGems((0, 1, 2)), Reason.DECISION_PENDING)]
    elif pending.kind is CONQUER:
        other_cards = [card for card in shown if card != pending.options[0]]
        samples += [(PurchaseCard(card), Reason.CARD_NOT_AVAILABLE) for card in other_cards[:1]]
        samples.append((PlaceStronghold(pending.options[0]), Reason.DECISION_PENDING))
    else:
        samples.append((PlaceStronghold(shown[0] if shown else 0), Reason.DECISION_PENDING))
    return samples


def _check_conservation(state: GameState) -> None:
    gems = GEMS_PER_COLOR[state.config.num_players]
    piles = [state.bank] + [player.tokens for player in state.players]
    assert tuple(map(sum, zip(*piles))) == (gems,) * 5 + (5,)
    cards = [card for pile in state.decks for card in pile]
    cards += [card for row in state.market for card in row if card is not None]
    for player in state.players:
        cards += list(player.reserved) + list(player.purchased)
    assert sorted(cards) == list(range(90))
    shown = set(face_up(state))
    for cards_placed in placed(state):
        assert len(cards_placed) <= STRONGHOLDS_PER_PLAYER
        assert shown.issuperset(cards_placed)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_strongholds_games_end_and_every_step_is_consistent(players: int) -> None:
    conquests = placements = 0
    for seed in range(8):
        state, _ = new_game(GameConfig(players, seed, modules=STRONGHOLDS_ON, turn_limit=400))
        rng = random.Random(seed)
        choose = _stacking_choice if seed % 2 else (lambda s, actions, r: r.choice(actions))
        while not state.is_over:
            actions = legal_actions(state)
            assert actions
            digest = state_digest(state)
            for action in actions:  # every listed action is accepted, and has an id that round-trips
                apply(state, action)
                assert action_from_id(action_id(action)) == action
            for action, reason in _illegal_samples(state):
                with pytest.raises(RuleViolation) as caught:
                    apply(state, action)
                assert caught.value.reason is reason, (action, caught.value.message)
            assert state_digest(state) == digest
            action = choose(state, actions, rng)
            state, events = apply(state, action)
            validate_state(state)
            _check_conservation(state)
            conquests += len(of_type(events, CardConquered))
            placements += len(of_type(events, StrongholdPlaced)) + len(of_type(events, StrongholdRemoved))
        assert state.end_reason is not EndReason.TURN_LIMIT_REACHED
    assert placements > 0 and conquests > 0
