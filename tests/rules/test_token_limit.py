"""The ten-token limit: checked at the end of the turn, the player chooses what to return."""

from __future__ import annotations

from itertools import product

import pytest

from engine_service.rules import (
    DecisionKind,
    DecisionRequired,
    GemsReturned,
    Reason,
    ReserveCard,
    ReturnTokens,
    TakeGems,
    TakeTwoGems,
    TurnEnded,
    legal_actions,
)
from tests.rules.helpers import BLACK, BLUE, RED, WHITE, of_type, play, position, refused, tokens


def _over_ten():
    """Seat 0 holds nine tokens including a gold, then takes three: twelve, two to return."""
    state = position(2, held={0: tokens(white=2, blue=2, green=2, red=2, gold=1)})
    after, events = play(state, TakeGems((WHITE, BLUE, BLACK)))
    return state, after, events


def _expected_returns(held: tuple[int, ...], amount: int) -> set[tuple[int, ...]]:
    return {combo for combo in product(*(range(count + 1) for count in held)) if sum(combo) == amount}


def test_token_limit_over_ten_asks_the_player_to_return_the_excess() -> None:
    _, state, events = _over_ten()
    assert state.players[0].tokens == tokens(white=3, blue=3, green=2, red=2, black=1, gold=1)
    assert state.pending is not None
    assert state.pending.kind is DecisionKind.RETURN_TOKENS
    assert state.pending.seat == 0 and state.pending.amount == 2
    assert of_type(events, DecisionRequired) == [DecisionRequired(0, DecisionKind.RETURN_TOKENS, 2, ())]
    assert of_type(events, TurnEnded) == []  # the turn is not over yet
    assert state.seat == 0 and state.turn == 0 and state.acting_seat == 0


def test_token_limit_return_options_listed_exactly() -> None:
    _, state, _ = _over_ten()
    actions = legal_actions(state)
    assert all(isinstance(action, ReturnTokens) for action in actions)
    listed = [action.tokens for action in actions]
    assert len(listed) == len(set(listed))
    expected = _expected_returns(state.players[0].tokens, 2)
    assert set(listed) == expected
    assert len(expected) == 19  # 21 pairs of six kinds, minus two black and two gold (only one of each held)


def test_token_limit_return_may_include_gold_and_just_taken_tokens() -> None:
    before, state, _ = _over_ten()
    returned = tokens(black=1, gold=1)  # the black was just taken
    after, events = play(state, ReturnTokens(returned))
    assert after.players[0].tokens == tokens(white=3, blue=3, green=2, red=2)
    assert sum(after.players[0].tokens) == 10
    assert after.bank == tuple(b - t + r for b, t, r in zip(before.bank, tokens(white=1, blue=1, black=1), returned))
    assert of_type(events, GemsReturned) == [GemsReturned(0, returned)]
    assert of_type(events, TurnEnded) == [TurnEnded(0, 1, 1)]
    assert after.pending is None and after.seat == 1


@pytest.mark.parametrize(
    "returned",
    [
        tokens(white=1),  # too few
        tokens(white=1, blue=1, green=1),  # too many
        tokens(),  # nothing
        (3, -1, 0, 0, 0, 0),  # a negative count
        (1, 1, 0, 0, 0),  # five counts
        (1, 1, 0, 0, 0, 0, 0),  # seven counts
    ],
)
def test_token_limit_return_wrong_amount_refused(returned: tuple[int, ...]) -> None:
    _, state, _ = _over_ten()
    refused(state, ReturnTokens(returned), Reason.RETURN_WRONG_AMOUNT)


@pytest.mark.parametrize("returned", [tokens(black=2), tokens(gold=2)])
def test_token_limit_return_tokens_not_held_refused(returned: tuple[int, ...]) -> None:
    _, state, _ = _over_ten()  # holds one black and one gold
    refused(state, ReturnTokens(returned), Reason.RETURN_NOT_HELD)


def test_token_limit_return_two_of_a_colour_held_three_times() -> None:
    _, state, _ = _over_ten()
    after, _ = play(state, ReturnTokens(tokens(white=2)))
    assert after.players[0].tokens[WHITE] == 1 and after.pending is None


def test_token_limit_exactly_ten_needs_no_return() -> None:
    state = position(2, held={0: tokens(white=2, blue=2, green=2, red=2)})
    after, events = play(state, TakeTwoGems(BLACK))
    assert sum(after.players[0].tokens) == 10
    assert after.pending is None and of_type(events, DecisionRequired) == []
    assert after.seat == 1


def test_token_limit_gold_from_a_reservation_counts_towards_ten() -> None:
    state = position(2, held={0: tokens(white=2, blue=2, green=2, red=2, black=2)})
    card = state.market[0][0]
    after, _ = play(state, ReserveCard(card))
    assert after.pending is not None and after.pending.amount == 1
    options = {action.tokens for action in legal_actions(after)}
    assert options == {tokens(white=1), tokens(blue=1), tokens(green=1), tokens(red=1), tokens(black=1), tokens(gold=1)}
    done, _ = play(after, ReturnTokens(tokens(gold=1)))
    assert done.players[0].tokens == tokens(white=2, blue=2, green=2, red=2, black=2)
    assert done.players[0].reserved == (card,)
    assert done.bank[5] == 5


def test_token_limit_bonuses_do_not_count_as_tokens() -> None:
    state = position(4, held={0: tokens(white=2, blue=2, green=2, red=2)}, purchased={0: [0, 1, 2, 8, 9, 16]})
    after, _ = play(state, TakeTwoGems(RED))
    assert sum(after.players[0].tokens) == 10 and sum(after.players[0].bonuses) == 6
    assert after.pending is None
