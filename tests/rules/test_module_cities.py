"""Rules of the Cities module (Cities of Splendor): setup, claiming a city, the end and the ranking."""

from __future__ import annotations

import random

import pytest

from engine_service.rules import (
    CARDS,
    DecisionKind,
    EndReason,
    FinalRoundTriggered,
    GameConfig,
    GameEnded,
    GameState,
    PlayerState,
    Reason,
    RuleViolation,
    TakeGems,
    action_from_id,
    action_id,
    apply,
    legal_actions,
    new_game,
    validate_state,
    view_for,
)
from engine_service.rules.modules.cities import CITIES, ChooseCity, CitiesState, CityClaimed, qualifies
from engine_service.rules.modules.cities import STATE as CITIES_STATE
from tests.rules.helpers import position

CITIES_ON = frozenset({"cities"})


def player(prestige: int, bonuses: tuple[int, ...]) -> PlayerState:
    return PlayerState((0,) * 6, bonuses, prestige, (), (), (), ())


def cards_of(bonus: int, count: int, level: int = 3) -> list[int]:
    """``count`` purchased cards of one bonus colour, highest level first for prestige."""
    ids = [card.id for card in CARDS if card.bonus == bonus and card.level == level]
    ids += [card.id for card in CARDS if card.bonus == bonus and card.level != level]
    return ids[:count]


def cities_position(available: tuple[int, ...], purchased: dict[int, list[int]], seat: int = 0) -> GameState:
    """A 2-player Cities game with chosen cities on the table and chosen purchased cards."""
    base = position(2, seed=3, seat=seat, purchased=purchased)
    config = base.config._replace(modules=CITIES_ON)
    held: tuple[tuple[int, ...], ...] = ((), ())
    state = CITIES_STATE.put(base._replace(config=config, nobles=()), CitiesState(available, held))
    validate_state(state)
    return state


# --- setup -----------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_three_cities_of_different_tiles_and_no_nobles(players: int) -> None:
    for seed in range(20):
        state, _ = new_game(GameConfig(players, seed, modules=CITIES_ON))
        assert state.nobles == ()
        assert CITIES_STATE.find(state) is not None
        tiles = [CITIES[city].tile for city in CITIES_STATE.find(state).available]
        assert len(tiles) == 3 and len(set(tiles)) == 3
        assert CITIES_STATE.find(state).held == ((),) * players


def test_setup_draws_tiles_and_sides_from_the_seed() -> None:
    deals = {CITIES_STATE.find(new_game(GameConfig(2, seed, modules=CITIES_ON))[0]).available for seed in range(40)}
    assert len(deals) > 20  # varied across seeds
    again = CITIES_STATE.find(new_game(GameConfig(2, 7, modules=CITIES_ON))[0])
    assert again == CITIES_STATE.find(new_game(GameConfig(2, 7, modules=CITIES_ON))[0])
    sides = {CITIES[city].side for deal in deals for city in deal}
    assert sides == {"A", "B"}


def test_modules_are_played_one_at_a_time() -> None:
    with pytest.raises(RuleViolation) as refused:
        new_game(GameConfig(2, 1, modules=frozenset({"cities", "orient"})))
    assert refused.value.reason is Reason.MODULE_COMBINATION_NOT_SUPPORTED


# --- the requirements, with the rulebook's examples ------------------------------


def test_city_13_prestige_4_red_3_black() -> None:
    city = next(c for c in CITIES if c.prestige == 13 and c.requirement == (0, 0, 0, 4, 3))
    assert qualifies(city, player(13, (0, 0, 0, 4, 3)))
    assert qualifies(city, player(20, (5, 5, 5, 5, 5)))
    assert not qualifies(city, player(12, (0, 0, 0, 4, 3)))
    assert not qualifies(city, player(13, (0, 0, 0, 3, 3)))
    assert not qualifies(city, player(13, (9, 9, 9, 9, 2)))


def test_city_15_prestige_5_bonuses_of_any_one_colour() -> None:
    city = next(c for c in CITIES if c.prestige == 15 and c.same_color == 5)
    for color in range(5):
        bonuses = [0] * 5
        bonuses[color] = 5
        assert qualifies(city, player(15, tuple(bonuses)))
    assert not qualifies(city, player(15, (4, 4, 4, 4, 4)))
    assert not qualifies(city, player(14, (5, 0, 0, 0, 0)))


def test_city_14_prestige_4_green_and_4_of_another_colour() -> None:
    city = next(c for c in CITIES if c.prestige == 14 and c.same_color_excludes_listed)
    assert qualifies(city, player(14, (0, 0, 4, 0, 4)))
    assert qualifies(city, player(14, (4, 0, 5, 0, 0)))
    assert not qualifies(city, player(14, (0, 0, 8, 0, 0)))  # the other colour must not be green
    assert not qualifies(city, player(14, (3, 3, 4, 3, 3)))
    assert not qualifies(city, player(13, (0, 0, 4, 0, 4)))


def test_city_17_needs_prestige_only() -> None:
    city = next(c for c in CITIES if c.prestige == 17)
    assert qualifies(city, player(17, (0, 0, 0, 0, 0)))
    assert not qualifies(city, player(16, (9, 9, 9, 9, 9)))


# --- claiming ----------------------------------------------------------------


def _red_black_13() -> int:
    return next(c.id for c in CITIES if c.prestige == 13 and c.requirement == (0, 0, 0, 4, 3))


def _prestige_17() -> int:
    return next(c.id for c in CITIES if c.prestige == 17)


def test_a_qualifying_player_takes_the_city_at_the_end_of_the_turn_and_triggers_the_final_round() -> None:
    city = _red_black_13()
    other = next(c.id for c in CITIES if c.tile not in (CITIES[city].tile,) and c.prestige == 17)
    state = cities_position((city, other), {0: cards_of(3, 4) + cards_of(4, 3, level=1)})
    assert state.players[0].prestige >= 13
    after, events = apply(state, legal_actions(state)[0])
    assert CityClaimed(0, city) in events
    assert CITIES_STATE.find(after) is not None and CITIES_STATE.find(after).held[0] == (city,)
    assert city not in CITIES_STATE.find(after).available and other in CITIES_STATE.find(after).available
    assert after.final_round and any(isinstance(e, FinalRoundTriggered) for e in events)


def test_several_qualifying_cities_give_exactly_those_choices_and_only_one_is_taken() -> None:
    first, second = _red_black_13(), _prestige_17()
    purchased = cards_of(3, 4) + cards_of(4, 4)  # 8 level-3 cards: well over 17 prestige
    state = cities_position((first, second), {0: purchased})
    assert state.players[0].prestige >= 17
    pending, events = apply(state, TakeGems((0, 1, 2)))
    assert pending.pending is not None and pending.pending.kind is DecisionKind.CHOOSE_CITY
    assert set(pending.pending.options) == {first, second}
    assert set(legal_actions(pending)) == {ChooseCity(first), ChooseCity(second)}
    with pytest.raises(RuleViolation) as refused:
        apply(pending, ChooseCity(99))
    assert refused.value.reason is Reason.CITY_NOT_AVAILABLE
    done, events = apply(pending, ChooseCity(second))
    assert CITIES_STATE.find(done) is not None and CITIES_STATE.find(done).held[0] == (second,)
    assert CITIES_STATE.find(done).available == (first,)
    assert CityClaimed(0, second) in events


def test_reaching_fifteen_prestige_without_a_city_does_not_trigger_the_final_round() -> None:
    city = _prestige_17()
    state = cities_position((city,), {0: cards_of(3, 4)})  # 16 prestige, below 17
    assert 15 <= state.players[0].prestige < 17
    after, events = apply(state, TakeGems((0, 1, 2)))
    assert not after.final_round
    assert not any(isinstance(e, FinalRoundTriggered) for e in events)


def test_city_holders_rank_first_even_with_less_prestige() -> None:
    city = _red_black_13()
    # Seat 0 will take the city with 16 prestige; seat 1 has far more but no city.
    state = cities_position((city,), {0: cards_of(3, 4) + cards_of(4, 3, level=1), 1: cards_of(0, 4) + cards_of(1, 4)})
    assert state.players[1].prestige > state.players[0].prestige
    state, _ = apply(state, TakeGems((0, 1, 2)))  # seat 0 takes the city; final round
    state, events = apply(state, legal_actions(state)[0])  # seat 1 completes the round
    assert state.end_reason is EndReason.FINAL_ROUND_COMPLETED
    assert state.winners == (0,)
    ended = next(e for e in events if isinstance(e, GameEnded))
    assert [standing.seat for standing in ended.ranking] == [0, 1]


# --- ids, views, whole games -------------------------------------------------------


def test_choose_city_has_action_ids() -> None:
    for city in CITIES:
        assert action_from_id(action_id(ChooseCity(city.id))) == ChooseCity(city.id)


def test_cities_are_public_in_every_view() -> None:
    state, _ = new_game(GameConfig(3, 5, modules=CITIES_ON))
    for viewer in (None, 0, 1, 2):
        assert CITIES_STATE.find(view_for(state, viewer)) == CITIES_STATE.find(state)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_cities_games_end_and_stay_consistent(players: int) -> None:
    for seed in range(8):
        state, _ = new_game(GameConfig(players, seed, modules=CITIES_ON, turn_limit=600))
        chooser = random.Random(seed)
        while not state.is_over:
            state, _ = apply(state, chooser.choice(legal_actions(state)))
            validate_state(state)
        assert CITIES_STATE.find(state) is not None
        holders = [seat for seat, held in enumerate(CITIES_STATE.find(state).held) if held]
        if state.end_reason is EndReason.FINAL_ROUND_COMPLETED:
            assert holders, "only a city ends a Cities game"
            assert set(state.winners) <= set(holders)
