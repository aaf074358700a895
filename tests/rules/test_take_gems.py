"""Taking gems: three different colours, or two of one colour from a pile of four or more."""

from __future__ import annotations

from itertools import combinations

import pytest

from engine_service.rules import GameConfig, GemsTaken, Reason, TakeGems, TakeTwoGems, legal_actions, new_game
from tests.rules.helpers import (
    BLACK,
    BLUE,
    GOLD,
    GREEN,
    RED,
    WHITE,
    legal,
    of_type,
    play,
    position,
    refused,
    tokens,
)


def _takes(state) -> tuple[list, list]:
    actions = legal_actions(state)
    return (
        sorted(a.colors for a in actions if isinstance(a, TakeGems)),
        sorted(a.color for a in actions if isinstance(a, TakeTwoGems)),
    )


def test_take_three_different_moves_one_of_each_from_bank_to_player() -> None:
    state = position(2)
    after, events = play(state, TakeGems((WHITE, GREEN, BLACK)))
    assert after.bank == (3, 4, 3, 4, 3, 5)
    assert after.players[0].tokens == tokens(white=1, green=1, black=1)
    assert of_type(events, GemsTaken) == [GemsTaken(0, tokens(white=1, green=1, black=1))]
    assert after.seat == 1


def test_take_three_lists_every_set_of_three_colours_with_a_full_bank() -> None:
    threes, twos = _takes(position(2))
    assert threes == sorted(combinations(range(5), 3))
    assert twos == [0, 1, 2, 3, 4]


def test_take_two_requires_four_in_pile_before_taking_exactly_four_allowed() -> None:
    state = position(2)  # 4 of each colour in a two-player bank
    assert state.bank[RED] == 4
    assert legal(state, TakeTwoGems(RED))
    after, events = play(state, TakeTwoGems(RED))
    assert after.bank[RED] == 2
    assert after.players[0].tokens == tokens(red=2)
    assert of_type(events, GemsTaken) == [GemsTaken(0, tokens(red=2))]


def test_take_two_requires_four_in_pile_before_taking_three_refused() -> None:
    state = position(2, held={1: tokens(red=1)})
    assert state.bank[RED] == 3
    assert not legal(state, TakeTwoGems(RED))
    error = refused(state, TakeTwoGems(RED), Reason.PILE_BELOW_FOUR)
    assert error.details.get("in_bank") == "3"
    # the last three of a pile can still be taken one at a time
    assert legal(state, TakeGems((WHITE, BLUE, RED)))


def test_take_two_from_a_larger_pile_allowed_four_player_bank() -> None:
    state = position(4, held={1: tokens(blue=2)})
    assert state.bank[BLUE] == 5
    after, _ = play(state, TakeTwoGems(BLUE))
    assert after.bank[BLUE] == 3


def test_fewer_than_three_colours_left_two_colours_must_take_exactly_two() -> None:
    state = position(2, held={0: tokens(green=4, red=4), 1: tokens(black=4)})
    assert [c for c in range(5) if state.bank[c]] == [WHITE, BLUE]
    threes, _ = _takes(state)
    assert threes == [(WHITE, BLUE)]
    refused(state, TakeGems((WHITE,)), Reason.TOO_FEW_COLORS)
    refused(state, TakeGems((BLUE,)), Reason.TOO_FEW_COLORS)
    refused(state, TakeGems((WHITE, BLUE, GREEN)), Reason.NOT_ENOUGH_IN_BANK)
    after, _ = play(state, TakeGems((WHITE, BLUE)))
    assert after.players[0].tokens == tokens(white=1, blue=1, green=4, red=4)
    assert after.bank == tokens(white=3, blue=3, gold=5)


def test_fewer_than_three_colours_left_one_colour_must_take_exactly_one() -> None:
    state = position(2, held={0: tokens(blue=2, green=4, red=2), 1: tokens(blue=2, red=2, black=4)})
    assert [c for c in range(5) if state.bank[c]] == [WHITE]
    threes, twos = _takes(state)
    assert threes == [(WHITE,)]
    assert twos == [WHITE]
    refused(state, TakeGems(()), Reason.TOO_FEW_COLORS)
    refused(state, TakeGems((WHITE, BLUE)), Reason.NOT_ENOUGH_IN_BANK)
    after, _ = play(state, TakeGems((WHITE,)))
    assert after.players[0].tokens == tokens(white=1, blue=2, green=4, red=2)


def test_fewer_than_three_colours_taken_when_three_available_is_too_few_colors() -> None:
    state = position(2, held={0: tokens(green=4), 1: tokens(red=4)})  # white, blue, black left
    refused(state, TakeGems((WHITE, BLUE)), Reason.TOO_FEW_COLORS)
    refused(state, TakeGems((BLACK,)), Reason.TOO_FEW_COLORS)
    threes, _ = _takes(state)
    assert threes == [(WHITE, BLUE, BLACK)]


@pytest.mark.parametrize("colors", [(WHITE, BLUE), (RED,), ()])
def test_taking_fewer_than_three_with_a_full_bank_is_too_few_colors(colors: tuple[int, ...]) -> None:
    refused(position(3), TakeGems(colors), Reason.TOO_FEW_COLORS)


def test_no_gems_in_bank_means_no_gem_action() -> None:
    state = position(
        2,
        held={0: tokens(white=2, blue=2, green=2, red=2, black=2), 1: tokens(white=2, blue=2, green=2, red=2, black=2)},
    )
    threes, twos = _takes(state)
    assert threes == [] and twos == []
    refused(state, TakeGems(()), Reason.TOO_FEW_COLORS)
    refused(state, TakeGems((GOLD,)), Reason.GOLD_NOT_TAKEABLE)


@pytest.mark.parametrize("action", [TakeGems((WHITE, BLUE, GOLD)), TakeGems((GOLD,)), TakeTwoGems(GOLD)])
def test_gold_never_takeable_with_a_gem_action(action) -> None:
    state, _ = new_game(GameConfig(2, seed=3))
    refused(state, action, Reason.GOLD_NOT_TAKEABLE)


def test_gold_never_listed_in_gem_actions() -> None:
    threes, twos = _takes(position(2, held={0: tokens(white=4, blue=4)}))
    assert all(GOLD not in colors for colors in threes) and GOLD not in twos
    assert threes == [(GREEN, RED, BLACK)]


def test_take_three_with_a_repeated_colour_is_duplicate_color() -> None:
    refused(position(2), TakeGems((RED, RED, BLUE)), Reason.DUPLICATE_COLOR)


def test_take_more_than_three_colours_is_too_many_colors() -> None:
    refused(position(2), TakeGems((WHITE, BLUE, GREEN, RED)), Reason.TOO_MANY_COLORS)


@pytest.mark.parametrize("action", [TakeGems((WHITE, BLUE, 6)), TakeGems((-1, BLUE, RED)), TakeTwoGems(7)])
def test_take_unknown_colour_is_invalid_color(action) -> None:
    refused(position(2), action, Reason.INVALID_COLOR)


def test_take_from_an_empty_pile_is_not_enough_in_bank() -> None:
    state = position(2, held={0: tokens(red=4)})
    refused(state, TakeGems((WHITE, BLUE, RED)), Reason.NOT_ENOUGH_IN_BANK)
    refused(state, TakeTwoGems(RED), Reason.PILE_BELOW_FOUR)
