"""Passing: only when no other action is legal; a whole round of passes ends the game."""

from __future__ import annotations

from engine_service.rules import (
    CARDS,
    EndReason,
    GameEnded,
    Pass,
    Passed,
    Reason,
    ReserveCard,
    ReturnTokens,
    Standing,
    TurnEnded,
    legal_actions,
    validate_state,
)
from tests.rules.helpers import can_pay, of_type, play, position, refused, tokens

# A two-player game with every gem in the players' hands (4 of each colour in all).
SEAT0 = tokens(white=4, blue=4, green=2)
SEAT1 = tokens(green=2, red=4, black=4)


def _unaffordable(level: int, count: int, exclude=()) -> list[int]:
    """Cards of a level neither seat can buy, even with one more gold."""
    found = [
        card.id
        for card in CARDS
        if card.level == level
        and card.id not in exclude
        and not any(can_pay(card.cost, held[:5] + (held[5] + 1,)) for held in (SEAT0, SEAT1))
    ]
    assert len(found) >= count
    return found[:count]


def _stuck(seat1_reserved: int = 3, seat: int = 0):
    """No gem in the bank, nothing anyone can buy; seat 0 holds three reserved cards."""
    reserved0 = _unaffordable(2, 3)
    reserved1 = _unaffordable(3, seat1_reserved)
    taken = reserved0 + reserved1
    market = {level - 1: _unaffordable(level, 4, exclude=taken) for level in (1, 2, 3)}
    taken += [card for row in market.values() for card in row]
    # the next card of each deck is unaffordable too, so a reservation reveals nothing buyable
    tops = {level - 1: _unaffordable(level, 1, exclude=taken) for level in (1, 2, 3)}
    return position(
        2,
        seat=seat,
        turn=seat,
        held={0: SEAT0, 1: SEAT1},
        reserved={0: reserved0, 1: reserved1},
        market=market,
        deck_tops=tops,
    )


def test_pass_only_when_nothing_else_is_legal() -> None:
    state = _stuck()
    assert state.bank[:5] == (0, 0, 0, 0, 0)
    assert len(state.players[0].reserved) == 3
    actions = legal_actions(state)
    assert len(actions) == 1 and type(actions[0]) is Pass
    after, events = play(state, Pass())
    assert of_type(events, Passed) == [Passed(0)]
    assert of_type(events, TurnEnded) == [TurnEnded(0, 1, 1)]
    assert after.passes_in_a_row == 1 and after.seat == 1 and not after.is_over


def test_pass_not_allowed_when_another_action_is_legal() -> None:
    refused(position(2), Pass(), Reason.PASS_NOT_ALLOWED)


def test_pass_not_allowed_when_only_a_reservation_is_possible() -> None:
    state = _stuck(seat1_reserved=2, seat=1)
    actions = legal_actions(state)
    assert actions and all(type(a) is not Pass for a in actions)
    assert {type(a).__name__ for a in actions} == {"ReserveCard", "ReserveFromDeck"}
    refused(state, Pass(), Reason.PASS_NOT_ALLOWED)


def test_all_players_passing_a_whole_round_ends_the_game() -> None:
    state = _stuck()
    state, events = play(state, Pass(), Pass())
    assert state.is_over and state.end_reason is EndReason.ALL_PLAYERS_PASSED
    ended = of_type(events, GameEnded)
    assert len(ended) == 1 and ended[0].reason is EndReason.ALL_PLAYERS_PASSED
    # nobody scored and nobody bought a card: a shared victory
    assert state.ranking == (Standing(0, 1, 0, 0), Standing(1, 1, 0, 0))
    assert ended[0].winners == (0, 1)
    assert legal_actions(state) == []
    validate_state(state)


def test_a_move_between_passes_resets_the_count() -> None:
    state = _stuck(seat1_reserved=2)
    state, _ = play(state, Pass())
    assert state.passes_in_a_row == 1
    card = state.market[0][0]
    state, _ = play(state, ReserveCard(card))  # seat 1 reserves its third card and an eleventh token
    assert state.passes_in_a_row == 0 and not state.is_over
    state, _ = play(state, ReturnTokens(tokens(gold=1)))
    assert state.bank[:5] == (0, 0, 0, 0, 0) and state.seat == 0
    state, _ = play(state, Pass())
    assert state.passes_in_a_row == 1 and not state.is_over
    actions = legal_actions(state)
    assert len(actions) == 1 and type(actions[0]) is Pass, actions
    state, _ = play(state, Pass())
    assert state.end_reason is EndReason.ALL_PLAYERS_PASSED
