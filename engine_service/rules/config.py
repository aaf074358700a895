"""Game configuration and its validation."""

from __future__ import annotations

from typing import Final, NamedTuple

from .errors import Reason, RuleViolation

MIN_PLAYERS: Final = 2
MAX_PLAYERS: Final = 4
MAX_SEED: Final = (1 << 64) - 1


class GameConfig(NamedTuple):
    """Everything that fixes a game before its first move.

    ``first_seat`` None means "drawn from the seed". ``turn_limit`` counts turns of
    all seats together; 0 means no limit.
    """

    num_players: int
    seed: int
    first_seat: int | None = None
    modules: frozenset[str] = frozenset()
    turn_limit: int = 0


def validate_config(config: GameConfig, known_modules: frozenset[str]) -> None:
    """Raise ``RuleViolation`` unless the configuration describes a playable game."""
    if not MIN_PLAYERS <= config.num_players <= MAX_PLAYERS:
        raise RuleViolation(
            Reason.INVALID_PLAYER_COUNT,
            f"a game has {MIN_PLAYERS} to {MAX_PLAYERS} players, not {config.num_players}",
            num_players=str(config.num_players),
        )
    if not 0 <= config.seed <= MAX_SEED:
        raise RuleViolation(Reason.INVALID_SEED, "the seed must be an integer from 0 to 2**64-1")
    if config.first_seat is not None and not 0 <= config.first_seat < config.num_players:
        raise RuleViolation(
            Reason.INVALID_FIRST_SEAT,
            f"first seat {config.first_seat} is not a seat of a {config.num_players}-player game",
            first_seat=str(config.first_seat),
        )
    if config.turn_limit < 0:
        raise RuleViolation(Reason.INVALID_TURN_LIMIT, "the turn limit must be 0 (none) or positive")
    if len(config.modules) > 1:
        names = ", ".join(sorted(config.modules))
        raise RuleViolation(
            Reason.MODULE_COMBINATION_NOT_SUPPORTED,
            f"the Cities of Splendor modules are played one at a time, not together ({names})",
            modules=names,
        )
    unknown = sorted(config.modules - known_modules)
    if unknown:
        known = ", ".join(sorted(known_modules)) or "none yet"
        raise RuleViolation(
            Reason.UNKNOWN_MODULE,
            f"unknown module {unknown[0]!r} (known: {known})",
            module=unknown[0],
        )


def new_game_config(
    *, num_players: int, seed: int, first_seat: int | None, modules: frozenset[str], turn_limit: int
) -> GameConfig:
    """A ``GameConfig`` as it is (no check: ``validate_config`` checks); see ``records.py``, "Building records"."""
    return tuple.__new__(GameConfig, (num_players, seed, first_seat, modules, turn_limit))
