"""Nobles: checked at the end of the turn on bonuses only, at most one visit, the player chooses."""

from __future__ import annotations

import pytest

from engine_service.rules import (
    NOBLES,
    CardPurchased,
    CardRevealed,
    ChooseNoble,
    DecisionKind,
    DecisionRequired,
    NobleVisited,
    PurchaseCard,
    Reason,
    ReturnTokens,
    TakeGems,
    TakeTwoGems,
    TurnEnded,
    legal_actions,
    validate_state,
)
from tests.rules.helpers import GREEN, card_ids, of_type, play, position, refused, tokens

WHITE4 = card_ids(level=1, bonus=0, points=0)[:4]
BLUE4 = card_ids(level=1, bonus=1, points=0)[:4]
BLUE3 = BLUE4[:3]
GREEN3 = card_ids(level=1, bonus=2, points=0)[:3]
GREEN_CARD = 19  # green bonus, costs 1 white, 1 blue, 1 red, 1 black
BLUE_CARD = 12  # blue bonus, costs 1 white, 1 green, 1 red, 1 black
# Noble 0 needs 4 white + 4 blue, noble 2 needs 4 blue + 4 green, noble 4 needs 4 red + 4 black.
WB, BG, RK = 0, 2, 4
WBG = 5  # 3 white + 3 blue + 3 green


def test_noble_ids_used_here_have_the_printed_requirements() -> None:
    assert NOBLES[WB].requirement == (4, 4, 0, 0, 0)
    assert NOBLES[BG].requirement == (0, 4, 4, 0, 0)
    assert NOBLES[RK].requirement == (0, 0, 0, 4, 4)
    assert NOBLES[WBG].requirement == (3, 3, 3, 0, 0)
    assert all(noble.points == 3 for noble in NOBLES)
    assert GREEN_CARD not in GREEN3 and BLUE_CARD not in BLUE3


def _two_nobles_qualify():
    state = position(
        2,
        table_nobles=(WB, BG, RK),
        purchased={0: WHITE4 + BLUE4 + GREEN3},
        market={0: [GREEN_CARD]},
        held={0: tokens(red=1, black=1)},
    )
    after, events = play(state, PurchaseCard(GREEN_CARD))
    return after, events


def test_two_nobles_qualifying_gives_exactly_two_choices() -> None:
    state, events = _two_nobles_qualify()
    assert state.players[0].bonuses == (4, 4, 4, 0, 0)
    assert state.pending is not None and state.pending.kind is DecisionKind.CHOOSE_NOBLE
    assert set(state.pending.options) == {WB, BG}
    actions = legal_actions(state)
    assert len(actions) == 2
    assert all(isinstance(a, ChooseNoble) for a in actions)
    assert {a.noble_id for a in actions} == {WB, BG}
    options = state.pending.options
    assert of_type(events, DecisionRequired) == [DecisionRequired(0, DecisionKind.CHOOSE_NOBLE, 0, options)]
    assert of_type(events, NobleVisited) == [] and of_type(events, TurnEnded) == []
    validate_state(state)


def test_two_nobles_qualifying_only_the_chosen_one_visits_and_the_other_stays() -> None:
    state, _ = _two_nobles_qualify()
    after, events = play(state, ChooseNoble(BG))
    assert of_type(events, NobleVisited) == [NobleVisited(0, BG)]
    assert after.players[0].nobles == (BG,)
    assert after.players[0].prestige == 3
    assert set(after.nobles) == {WB, RK}
    assert after.pending is None and after.seat == 1
    assert of_type(events, TurnEnded) == [TurnEnded(0, 1, 1)]


def test_noble_left_on_the_table_visits_on_a_later_turn() -> None:
    state, _ = _two_nobles_qualify()
    state, _ = play(state, ChooseNoble(WB), TakeGems((0, 1, 2)))
    assert state.seat == 0
    after, events = play(state, TakeGems((0, 1, 2)))
    assert of_type(events, NobleVisited) == [NobleVisited(0, BG)]
    assert after.players[0].nobles == (WB, BG) and after.players[0].prestige == 6
    assert after.nobles == (RK,)


@pytest.mark.parametrize("noble", [RK, 7, 99, -1])
def test_choose_noble_not_among_the_qualifying_is_noble_not_available(noble: int) -> None:
    state, _ = _two_nobles_qualify()
    refused(state, ChooseNoble(noble), Reason.NOBLE_NOT_AVAILABLE)


def test_single_qualifying_noble_visits_automatically() -> None:
    state = position(
        2,
        table_nobles=(WB, BG, RK),
        purchased={0: WHITE4 + BLUE3},
        market={0: [BLUE_CARD]},
        held={0: tokens(green=1, red=1, black=1)},
    )
    after, events = play(state, PurchaseCard(BLUE_CARD))
    assert after.pending is None
    assert [type(e) for e in events] == [CardPurchased, CardRevealed, NobleVisited, TurnEnded]
    assert of_type(events, NobleVisited) == [NobleVisited(0, WB)]
    assert after.players[0].prestige == 3 and after.players[0].nobles == (WB,)
    assert after.nobles == (BG, RK)


def test_nobles_need_bonuses_not_tokens() -> None:
    state = position(2, table_nobles=(WB, BG, RK), held={0: tokens(white=4, blue=4)})
    after, events = play(state, TakeTwoGems(GREEN))
    assert of_type(events, NobleVisited) == [] and after.pending is None
    assert after.players[0].nobles == () and after.nobles == (WB, BG, RK)


def test_nobles_tokens_do_not_complete_missing_bonuses() -> None:
    state = position(
        2,
        table_nobles=(WB, BG, RK),
        purchased={0: WHITE4 + BLUE3},
        held={0: tokens(blue=4)},
    )
    after, events = play(state, TakeTwoGems(GREEN))
    assert of_type(events, NobleVisited) == [] and after.players[0].nobles == ()


def test_nobles_visit_only_the_seat_whose_turn_ends() -> None:
    state = position(2, table_nobles=(WB, BG, RK), purchased={1: WHITE4 + BLUE4})
    after, events = play(state, TakeGems((0, 1, 2)))  # seat 0's turn
    assert of_type(events, NobleVisited) == []
    after, events = play(after, TakeGems((0, 1, 2)))  # seat 1's turn
    assert of_type(events, NobleVisited) == [NobleVisited(1, WB)]


def test_end_of_turn_order_noble_choice_comes_before_the_token_return() -> None:
    """docs/rules.md, decision 5 (end of turn): the noble visit, then tokens above ten. Three nobles
    qualify at once; one visits; two turns later both others still qualify and tokens exceed ten."""
    state = position(
        2,
        table_nobles=(WB, BG, WBG),
        purchased={0: WHITE4 + BLUE4 + GREEN3},
        market={0: [GREEN_CARD]},
        held={0: tokens(white=2, blue=2, green=2, red=2, black=2)},
    )
    state, _ = play(state, PurchaseCard(GREEN_CARD))
    assert set(state.pending.options) == {WB, BG, WBG}
    state, _ = play(state, ChooseNoble(WBG), TakeGems((0, 1, 2)))
    assert state.seat == 0 and sum(state.players[0].tokens) == 8
    state, events = play(state, TakeGems((2, 3, 4)))
    assert [e.kind for e in of_type(events, DecisionRequired)] == [DecisionKind.CHOOSE_NOBLE]
    assert set(state.pending.options) == {WB, BG}
    assert sum(state.players[0].tokens) == 11
    state, events = play(state, ChooseNoble(WB))
    assert of_type(events, NobleVisited) == [NobleVisited(0, WB)]
    assert [e.kind for e in of_type(events, DecisionRequired)] == [DecisionKind.RETURN_TOKENS]
    assert state.pending.amount == 1
    state, events = play(state, ReturnTokens(tokens(green=1)))
    assert sum(state.players[0].tokens) == 10 and state.seat == 1
    assert state.players[0].nobles == (WBG, WB) and state.nobles == (BG,)
