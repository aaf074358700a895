"""Setup: tokens, nobles and cards dealt for 2, 3 and 4 players."""

from __future__ import annotations

import pytest

from engine_service.rules import CARDS, CardRevealed, GameConfig, GameStarted, new_game, validate_state


@pytest.mark.parametrize(("players", "gems"), [(2, 4), (3, 5), (4, 7)])
def test_setup_gems_per_colour_depend_on_player_count(players: int, gems: int) -> None:
    state, _ = new_game(GameConfig(players, seed=11))
    assert state.bank[:5] == (gems,) * 5


@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_always_five_gold(players: int) -> None:
    state, _ = new_game(GameConfig(players, seed=12))
    assert state.bank[5] == 5


@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_reveals_players_plus_one_distinct_nobles(players: int) -> None:
    state, _ = new_game(GameConfig(players, seed=13))
    assert len(state.nobles) == players + 1
    assert len(set(state.nobles)) == players + 1
    assert all(0 <= noble < 10 for noble in state.nobles)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_four_face_up_cards_per_level_and_decks_36_26_16(players: int) -> None:
    state, _ = new_game(GameConfig(players, seed=14))
    assert [len(row) for row in state.market] == [4, 4, 4]
    assert all(card is not None for row in state.market for card in row)
    assert [len(pile) for pile in state.decks] == [36, 26, 16]
    for deck in range(3):
        cards = state.market[deck] + state.decks[deck]
        assert all(CARDS[card].level == deck + 1 for card in cards)
    every = [card for deck in range(3) for card in state.market[deck] + state.decks[deck]]
    assert sorted(every) == list(range(90))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_players_start_empty_and_first_seat_plays_first(players: int) -> None:
    state, _ = new_game(GameConfig(players, seed=15))
    assert len(state.players) == players
    for player in state.players:
        assert player.tokens == (0,) * 6
        assert player.bonuses == (0,) * 5
        assert player.prestige == 0
        assert player.purchased == player.reserved == player.nobles == ()
    assert 0 <= state.first_seat < players
    assert state.seat == state.first_seat
    assert state.turn == 0 and state.pending is None and not state.final_round
    assert state.end_reason is None and state.ranking == ()
    validate_state(state)


def test_setup_configured_first_seat_is_used() -> None:
    for first in range(3):
        state, _ = new_game(GameConfig(3, seed=16, first_seat=first))
        assert state.first_seat == first and state.seat == first


def test_setup_events_announce_start_and_twelve_revealed_cards() -> None:
    state, events = new_game(GameConfig(3, seed=17))
    assert events[0] == GameStarted(state.first_seat, 3)
    revealed = [event for event in events if isinstance(event, CardRevealed)]
    assert len(revealed) == 12 and len(events) == 13
    for event in revealed:
        assert state.market[event.deck][event.slot] == event.card_id
