"""End of the game: 15 prestige triggers the final round, the round is completed, then ranking."""

from __future__ import annotations

from collections import Counter

import pytest

from engine_service.rules import (
    CARDS,
    ChooseNoble,
    EndReason,
    FinalRoundTriggered,
    GameConfig,
    GameEnded,
    PurchaseCard,
    Reason,
    ReturnTokens,
    Standing,
    TakeGems,
    TurnEnded,
    apply,
    legal_actions,
    new_game,
    validate_state,
)
from tests.rules.helpers import of_type, play, position, refused, tokens

FOURTEEN = [73, 77, 71]  # level 3: 5 + 5 + 4 prestige
ONE_POINT = 7  # level 1, white bonus, 1 prestige, costs 4 green
TAKE = TakeGems((0, 1, 2))


def test_card_ids_used_here_have_the_printed_points() -> None:
    assert sum(CARDS[c].points for c in FOURTEEN) == 14
    assert CARDS[ONE_POINT].points == 1 and CARDS[ONE_POINT].cost == (0, 0, 4, 0, 0)


def _turns_played(events) -> Counter:
    return Counter(event.seat for event in of_type(events, TurnEnded))


def _play_to_the_end(state, trigger_seat: int):
    """Every seat takes gems except ``trigger_seat``, which buys the 1-point card; play until the game ends."""
    events = []
    while not state.is_over:
        if state.seat == trigger_seat and not state.final_round:
            action = PurchaseCard(ONE_POINT)
        else:
            action = next(a for a in legal_actions(state) if isinstance(a, TakeGems))
        state, new = apply(state, action)
        events.extend(new)
    return state, events


@pytest.mark.parametrize(
    ("players", "first", "trigger"),
    [
        (3, 0, 0),  # the first seat triggers
        (3, 0, 2),  # the last seat triggers
        (3, 0, 1),
        (4, 2, 2),  # first seat is not seat 0
        (4, 2, 1),  # the last seat is seat 1
        (4, 2, 3),
        (2, 1, 1),
        (2, 1, 0),
    ],
)
def test_final_round_completes_so_every_seat_plays_the_same_number_of_turns(
    players: int, first: int, trigger: int
) -> None:
    state = position(
        players,
        first_seat=first,
        turn=5 * players,
        purchased={trigger: FOURTEEN},
        held={trigger: tokens(green=4)},
        market={0: [ONE_POINT]},
    )
    state, events = _play_to_the_end(state, trigger)
    assert state.end_reason is EndReason.FINAL_ROUND_COMPLETED
    assert of_type(events, FinalRoundTriggered) == [FinalRoundTriggered(trigger, 15)]
    turns = _turns_played(events)
    assert set(turns) == set(range(players))
    assert len(set(turns.values())) == 1  # same number of turns for every seat
    assert turns[trigger] == 1
    assert state.turn % players == 0
    assert state.seat == first
    ended = of_type(events, GameEnded)
    assert len(ended) == 1 and events[-1] == ended[0]
    assert ended[0].winners == (trigger,) and state.winners == (trigger,)
    last_turn = of_type(events, TurnEnded)[-1]
    assert last_turn.seat == (first - 1) % players and last_turn.next_seat == first


def test_last_seat_triggering_ends_the_game_at_once() -> None:
    state = position(
        3, first_seat=0, seat=2, turn=2, purchased={2: FOURTEEN}, held={2: tokens(green=4)}, market={0: [ONE_POINT]}
    )
    after, events = play(state, PurchaseCard(ONE_POINT))
    assert after.is_over and after.end_reason is EndReason.FINAL_ROUND_COMPLETED
    assert [type(e) for e in events][-3:] == [FinalRoundTriggered, TurnEnded, GameEnded]


def test_fourteen_prestige_does_not_trigger_the_final_round() -> None:
    state = position(2, purchased={0: FOURTEEN})
    after, events = play(state, TAKE)
    assert not after.final_round and of_type(events, FinalRoundTriggered) == []


def test_fifteen_reached_with_a_noble_triggers_the_final_round() -> None:
    white4 = [0, 1, 2, 3]
    blue3 = [8, 9, 10]
    twelve = [79, 83, 87]  # green, red, black level-3 cards worth 4 each
    state = position(2, table_nobles=(0, 3, 4), purchased={0: white4 + blue3 + twelve}, market={0: [12]})
    assert state.players[0].prestige == 12
    after, events = play(state, PurchaseCard(12))  # free with the bonuses; fourth blue bonus: noble 0 visits
    assert after.players[0].prestige == 15 and after.players[0].nobles == (0,)
    assert after.final_round and of_type(events, FinalRoundTriggered) == [FinalRoundTriggered(0, 15)]


def test_final_round_trigger_checked_after_the_noble_choice() -> None:
    white4, blue4, green3 = [0, 1, 2, 3], [8, 9, 10, 11], [16, 17, 18]
    twelve = [79, 83, 87]
    state = position(2, table_nobles=(0, 2, 4), purchased={0: white4 + blue4 + green3 + twelve}, market={0: [19]})
    state, events = play(state, PurchaseCard(19))  # free; fourth green bonus: nobles 0 and 2 qualify
    assert state.pending is not None and not state.final_round
    assert of_type(events, FinalRoundTriggered) == []
    state, events = play(state, ChooseNoble(2))
    assert state.final_round and of_type(events, FinalRoundTriggered) == [FinalRoundTriggered(0, 15)]
    assert not state.is_over and state.seat == 1


def _ending(players: int, purchased: dict, **extra):
    """A position in the final round where the last seat takes gems and the game ends."""
    state = position(
        players, first_seat=0, seat=players - 1, turn=players * 8 - 1, purchased=purchased, final_round=True, **extra
    )
    after, events = play(state, TAKE)
    assert after.end_reason is EndReason.FINAL_ROUND_COMPLETED
    validate_state(after)
    return after, of_type(events, GameEnded)[0]


def test_tie_on_prestige_broken_by_fewer_purchased_cards() -> None:
    after, ended = _ending(2, {0: [71, 72, 75, 70], 1: [73, 77, 81]})  # 15 with 4 cards, 15 with 3 cards
    assert after.ranking == (Standing(1, 1, 15, 3), Standing(0, 2, 15, 4))
    assert after.winners == (1,) and ended.winners == (1,)
    assert ended.ranking == after.ranking


def test_most_prestige_wins_before_card_count() -> None:
    after, _ = _ending(2, {0: [73, 77, 81, 1], 1: [85, 89, 76]})  # 15 with 4 cards, 14 with 3
    assert after.ranking == (Standing(0, 1, 15, 4), Standing(1, 2, 14, 3))


def test_still_tied_gives_shared_victory_two_winners_same_place() -> None:
    after, ended = _ending(3, {0: [73, 77, 71, 7], 1: [81, 85, 72, 15], 2: [89, 70]})
    assert [p.prestige for p in after.players] == [15, 15, 8]
    assert after.winners == (0, 1) and ended.winners == (0, 1)
    places = {standing.seat: standing.place for standing in after.ranking}
    assert places == {0: 1, 1: 1, 2: 3}
    assert after.ranking[2] == Standing(2, 3, 8, 2)


def test_reserved_cards_and_nobles_are_not_counted_as_purchased_cards() -> None:
    after, _ = _ending(
        2,
        {0: [79, 83, 87], 1: [71, 72, 75, 70]},  # 12 + a noble, with 3 cards; 15 with 4 cards
        reserved={0: [40, 41, 42]},
        player_nobles={0: [9]},
    )
    assert after.players[0].prestige == 15 and len(after.players[0].reserved) == 3
    assert after.ranking == (Standing(0, 1, 15, 3), Standing(1, 2, 15, 4))


def test_reserved_cards_give_no_prestige() -> None:
    state = position(2, reserved={0: [73, 77, 81]})
    assert state.players[0].prestige == 0
    after, _ = play(state, TAKE)
    assert not after.final_round


def test_turn_limit_ends_the_game_after_that_many_turns() -> None:
    state, _ = new_game(GameConfig(2, seed=4, turn_limit=3))
    for _ in range(2):
        state, events = apply(state, legal_actions(state)[0])
        assert not state.is_over and of_type(events, GameEnded) == []
    state, events = apply(state, legal_actions(state)[0])
    assert state.is_over and state.end_reason is EndReason.TURN_LIMIT_REACHED
    assert state.turn == 3
    ended = of_type(events, GameEnded)
    assert len(ended) == 1 and ended[0].reason is EndReason.TURN_LIMIT_REACHED
    assert len(state.ranking) == 2
    validate_state(state)


def test_turn_limit_zero_never_ends_the_game() -> None:
    state, _ = new_game(GameConfig(2, seed=4))
    for _ in range(20):
        state, _ = apply(state, legal_actions(state)[0])
    assert not state.is_over


def test_game_over_refuses_everything() -> None:
    state, _ = new_game(GameConfig(2, seed=4, turn_limit=1))
    state, _ = apply(state, legal_actions(state)[0])
    assert state.is_over
    assert legal_actions(state) == []
    for action in (TAKE, PurchaseCard(state.market[0][0]), ReturnTokens(tokens(white=1))):
        refused(state, action, Reason.GAME_OVER)
    refused(state, TAKE, Reason.GAME_OVER, seat=state.seat)
