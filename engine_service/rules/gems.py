"""Main actions that take gems from the bank: three different, or two of a colour."""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations
from typing import Final

from .actions import TakeGems, TakeTwoGems
from .colors import COLOR_NAMES, GOLD, TOKEN_KINDS
from .errors import Reason, RuleViolation
from .events import Event, new_gems_taken
from .state import GameState, add_tokens, sub_tokens, with_player, with_table, with_tokens

MAX_DIFFERENT: Final = 3
# No action gains more than three tokens, so a turn ends at most three over the limit.
MAX_TOKENS_TAKEN: Final = 3
TWO_SAME_MIN_PILE: Final = 4


# Actions are immutable, so each possible one is built once and shared.
_TAKE_SETS: Final = {
    available: tuple(TakeGems(colors) for colors in combinations(available, min(MAX_DIFFERENT, len(available))))
    for size in range(1, 6)
    for available in combinations(range(5), size)
}
_TAKE_TWO: Final = tuple(TakeTwoGems(color) for color in range(5))


# Banks come from clients too: keep the caches bounded.
@lru_cache(maxsize=8192)
def gem_actions(bank: tuple[int, ...]) -> tuple[TakeGems | TakeTwoGems, ...]:
    """Every legal gem-taking action for this bank (few distinct banks occur: cached)."""
    available = tuple(color for color in range(5) if bank[color])
    if not available:
        return ()
    two_same = tuple(_TAKE_TWO[color] for color in available if bank[color] >= TWO_SAME_MIN_PILE)
    return _TAKE_SETS[available] + two_same


@lru_cache(maxsize=8192)
def _legal_color_sets(bank: tuple[int, ...]) -> frozenset[tuple[int, ...]]:
    """The colour tuples of the legal TakeGems actions for this bank."""
    return frozenset(action.colors for action in gem_actions(bank) if isinstance(action, TakeGems))


def _check_color(color: int) -> None:
    if color == GOLD:
        raise RuleViolation(Reason.GOLD_NOT_TAKEABLE, "gold can only be gained by reserving a card")
    if not 0 <= color < GOLD:
        raise RuleViolation(Reason.INVALID_COLOR, f"{color} is not a gem colour (0-4)", color=str(color))


def colors_in_bank(bank: tuple[int, ...]) -> int:
    return sum(1 for count in bank[:GOLD] if count)


def check_take_gems(state: GameState, action: TakeGems) -> None:
    colors = action.colors
    for color in colors:
        _check_color(color)
    if len(set(colors)) != len(colors):
        raise RuleViolation(Reason.DUPLICATE_COLOR, "the colours taken must all differ")
    if len(colors) > MAX_DIFFERENT:
        raise RuleViolation(Reason.TOO_MANY_COLORS, f"at most {MAX_DIFFERENT} different colours may be taken")
    bank = state.bank
    for color in colors:
        if not bank[color]:
            raise RuleViolation(
                Reason.NOT_ENOUGH_IN_BANK, f"the bank has no {COLOR_NAMES[color]} left", color=COLOR_NAMES[color]
            )
    required = min(MAX_DIFFERENT, colors_in_bank(bank))
    if len(colors) < required or not colors:
        raise RuleViolation(
            Reason.TOO_FEW_COLORS,
            f"take {required} different colours: the bank has {colors_in_bank(bank)} colours left",
            required=str(required),
        )


def take_gems(state: GameState, action: TakeGems, events: list[Event]) -> GameState:
    colors = action.colors
    if type(colors) is not tuple or colors not in _legal_color_sets(state.bank):
        check_take_gems(state, action)  # the full check, which names what is wrong
    taken = [0] * TOKEN_KINDS
    for color in action.colors:
        taken[color] = 1
    return _move_to_player(state, tuple(taken), events)


def check_take_two(state: GameState, action: TakeTwoGems) -> None:
    _check_color(action.color)
    in_bank = state.bank[action.color]
    if in_bank < TWO_SAME_MIN_PILE:
        raise RuleViolation(
            Reason.PILE_BELOW_FOUR,
            f"two {COLOR_NAMES[action.color]} may be taken only from a pile of {TWO_SAME_MIN_PILE} or more; "
            f"it holds {in_bank}",
            color=COLOR_NAMES[action.color],
            in_bank=str(in_bank),
        )


def take_two_gems(state: GameState, action: TakeTwoGems, events: list[Event]) -> GameState:
    check_take_two(state, action)
    taken = [0] * TOKEN_KINDS
    taken[action.color] = 2
    return _move_to_player(state, tuple(taken), events)


def _move_to_player(state: GameState, taken: tuple[int, ...], events: list[Event]) -> GameState:
    seat = state.seat
    player = state.players[seat]
    events.append(new_gems_taken(seat=seat, tokens=taken))
    players = with_player(state.players, seat, with_tokens(player, add_tokens(player.tokens, taken)))
    return with_table(state, sub_tokens(state.bank, taken), state.market, state.decks, players)
