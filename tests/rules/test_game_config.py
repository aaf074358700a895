"""Configuration validation: refused with a named reason, never a crash."""

from __future__ import annotations

import pytest

from engine_service.rules import GameConfig, Reason, RuleViolation, new_game


def _refused(config: GameConfig, reason: Reason) -> None:
    with pytest.raises(RuleViolation) as caught:
        new_game(config)
    assert caught.value.reason is reason


@pytest.mark.parametrize("players", [0, 1, 5, -2])
def test_config_player_count_must_be_two_to_four(players: int) -> None:
    _refused(GameConfig(players, seed=1), Reason.INVALID_PLAYER_COUNT)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_config_player_counts_two_to_four_accepted(players: int) -> None:
    state, _ = new_game(GameConfig(players, seed=1))
    assert len(state.players) == players


@pytest.mark.parametrize(("players", "first"), [(2, 2), (2, -1), (3, 3), (4, 4), (4, 99)])
def test_config_first_seat_must_be_a_seat(players: int, first: int) -> None:
    _refused(GameConfig(players, seed=1, first_seat=first), Reason.INVALID_FIRST_SEAT)


def test_config_negative_turn_limit_refused() -> None:
    _refused(GameConfig(2, seed=1, turn_limit=-1), Reason.INVALID_TURN_LIMIT)


def test_config_zero_turn_limit_means_no_limit() -> None:
    state, _ = new_game(GameConfig(2, seed=1, turn_limit=0))
    assert state.config.turn_limit == 0


@pytest.mark.parametrize("module", ["no_such_module", "", "CITIES-of-nowhere"])
def test_config_unknown_module_refused(module: str) -> None:
    _refused(GameConfig(2, seed=1, modules=frozenset({module})), Reason.UNKNOWN_MODULE)


@pytest.mark.parametrize("seed", [-1, 2**64, 2**70])
def test_config_seed_outside_64_bits_refused(seed: int) -> None:
    _refused(GameConfig(2, seed=seed), Reason.INVALID_SEED)


@pytest.mark.parametrize("seed", [0, 2**64 - 1])
def test_config_seed_bounds_accepted(seed: int) -> None:
    state, _ = new_game(GameConfig(2, seed=seed))
    assert state.config.seed == seed
