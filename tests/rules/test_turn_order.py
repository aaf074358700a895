"""Whose move it is: turn order, pending decisions, and refusals that leave the state untouched."""

from __future__ import annotations

import pytest

from engine_service.rules import (
    ChooseNoble,
    GameConfig,
    Pass,
    PurchaseCard,
    Reason,
    ReserveCard,
    ReserveFromDeck,
    ReturnTokens,
    TakeGems,
    TakeTwoGems,
    TurnEnded,
    apply,
    legal_actions,
    new_game,
)
from tests.rules.helpers import of_type, play, position, refused, tokens

TAKE = TakeGems((0, 1, 2))


def _pending_return():
    state = position(3, held={0: tokens(white=2, blue=2, green=2, red=2, black=2)})
    state, _ = play(state, TAKE)
    assert state.pending is not None
    return state


@pytest.mark.parametrize(("players", "first"), [(2, 1), (3, 2), (4, 0), (4, 3)])
def test_turns_go_round_the_table_from_the_first_seat(players: int, first: int) -> None:
    state, _ = new_game(GameConfig(players, seed=8, first_seat=first))
    seats = []
    for turn in range(2 * players):
        seats.append(state.seat)
        state, events = apply(state, legal_actions(state)[0])
        while state.pending is not None:
            state, more = apply(state, legal_actions(state)[0])
            events += more
        assert of_type(events, TurnEnded) == [TurnEnded(seats[-1], (seats[-1] + 1) % players, turn + 1)]
    assert seats == [(first + i) % players for i in range(2 * players)]
    assert state.turn == 2 * players and state.round == 2


def test_not_your_turn_refused() -> None:
    state, _ = new_game(GameConfig(3, seed=9, first_seat=1))
    for seat in (0, 2):
        refused(state, TAKE, Reason.NOT_YOUR_TURN, seat=seat)
    after, _ = apply(state, TAKE, seat=1)
    assert after.seat == 2


def test_not_your_turn_refused_while_another_seat_decides() -> None:
    state = _pending_return()
    assert state.acting_seat == 0
    refused(state, ReturnTokens(tokens(white=1, blue=1, green=1)), Reason.NOT_YOUR_TURN, seat=1)
    after, _ = apply(state, ReturnTokens(tokens(white=1, blue=1, green=1)), seat=0)
    assert after.pending is None and after.seat == 1


@pytest.mark.parametrize(
    "action",
    [TAKE, TakeTwoGems(4), ReserveFromDeck(0), ReserveCard(-5), PurchaseCard(0), Pass(), ChooseNoble(0)],
)
def test_decision_pending_refuses_main_actions_and_other_answers(action) -> None:
    state = _pending_return()
    refused(state, action, Reason.DECISION_PENDING)


def test_decision_pending_lists_only_answers() -> None:
    state = _pending_return()
    assert legal_actions(state) and all(type(a) is ReturnTokens for a in legal_actions(state))


@pytest.mark.parametrize("action", [ReturnTokens(tokens(white=1)), ChooseNoble(0), ChooseNoble(99)])
def test_no_decision_pending_refuses_decision_answers(action) -> None:
    state, _ = new_game(GameConfig(2, seed=10))
    refused(state, action, Reason.NO_DECISION_PENDING)


@pytest.mark.parametrize("action", ["take", (0, 1, 2), None, 42])
def test_unknown_action_refused(action) -> None:
    state, _ = new_game(GameConfig(2, seed=10))
    refused(state, action, Reason.UNKNOWN_ACTION)


def test_refusal_leaves_the_state_usable() -> None:
    state, _ = new_game(GameConfig(2, seed=10))
    refused(state, TakeGems((0, 0, 1)), Reason.DUPLICATE_COLOR)
    after, _ = apply(state, TAKE)
    assert after.players[state.seat].tokens == tokens(white=1, blue=1, green=1)
