"""A fixed integer for every possible action, for legal-action masks in any language.

The layout is a list of ranges, one source for everything that shows it: the
base game's ranges here, each module's in its own package, assembled by the
registry into ``IdLayout`` (``registry.action_id`` and ``registry.action_from_id``
use it; the catalog's ``action_id_ranges`` and the table in ``docs/api.md`` are written
from it). A range fixes its offset, like a field number: ids of existing actions
never change, and a new module appends its ranges after the last one.

An id is ``offset + index``; each range says how its index is formed.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable, Iterable
from itertools import combinations, combinations_with_replacement
from typing import Any, Final, NamedTuple

from .actions import (
    ChooseNoble,
    Decline,
    Pass,
    PurchaseCard,
    ReserveCard,
    ReserveFromDeck,
    ReturnTokens,
    TakeGems,
    TakeTwoGems,
)
from .catalog import CARD_ID_SPACE, NOBLE_ID_SPACE
from .colors import TOKEN_KINDS
from .errors import Reason, RuleViolation

COLOR_RULE: Final = "colour indices 0 white, 1 blue, 2 green, 3 red, 4 black, 5 gold (proto Color value - 1)"
MAX_DECKS: Final = 6  # the base game's three and the Orient's three; fixes the ReserveFromDeck range


class IdRange(NamedTuple):
    """Consecutive ids of one kind of action: ``offset + index`` for ``index`` in ``range(size)``."""

    offset: int
    size: int
    action: type  # the action record the ids decode to
    encode: Callable[[Any], int | None]  # the index of an action of that type in this range, None if outside it
    decode: Callable[[int], Any]  # the action of an index
    rule: str  # how the index is formed, for the catalog and the README

    @property
    def kind(self) -> str:
        """The action's name in snake case, as in the contract's ``Action`` oneof (``take_gems``)."""
        return snake_case(self.action.__name__)


def snake_case(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


def in_range(count: int, value: object) -> int | None:
    """``value`` as an index when it is one of ``range(count)``."""
    return value if isinstance(value, int) and 0 <= value < count else None


def id_range(offset: int, action: type, count: int, field: str, rule: str) -> IdRange:
    """The usual range: the index is one integer field of the action (a card id, a colour...)."""
    position = action._fields.index(field)  # type: ignore[attr-defined]  # a record (a NamedTuple): read by position
    return IdRange(offset, count, action, lambda act: in_range(count, act[position]), action, rule)


def single_id(offset: int, action: type, rule: str) -> IdRange:
    """One id for an action without fields (Pass, Decline)."""
    instance = action()
    return IdRange(offset, 1, action, lambda act: 0, lambda index: instance, rule)


# --- the base game's ranges ---------------------------------------------------------------

_COLOR_SETS: Final = [c for size in (3, 2, 1) for c in combinations(range(5), size)]
_COLOR_SET_INDEX: Final = {colors: index for index, colors in enumerate(_COLOR_SETS)}
_RETURN_SETS: Final = [c for size in (1, 2, 3) for c in combinations_with_replacement(range(TOKEN_KINDS), size)]
_RETURN_SET_INDEX: Final = {
    tuple(combo.count(color) for color in range(TOKEN_KINDS)): index for index, combo in enumerate(_RETURN_SETS)
}


def _take_gems_index(action: TakeGems) -> int | None:
    colors = action.colors
    try:
        index = _COLOR_SET_INDEX.get(colors)  # the core lists its actions' colours in order: found as they are
        return index if index is not None else _COLOR_SET_INDEX.get(tuple(sorted(colors)))
    except TypeError:  # colours that do not hash or compare (a client's odd values)
        return None


def _return_tokens_index(action: ReturnTokens) -> int | None:
    try:
        return _RETURN_SET_INDEX.get(tuple(action.tokens))
    except TypeError:
        return None


def _return_tokens(index: int) -> ReturnTokens:
    combo = _RETURN_SETS[index]
    return ReturnTokens(tuple(combo.count(color) for color in range(TOKEN_KINDS)))


def _purchase_index(action: PurchaseCard) -> int | None:
    return in_range(CARD_ID_SPACE, action.card_id)  # a purchase's explicit payment is not part of its id


TAKE_GEMS: Final = 0
TAKE_TWO: Final = TAKE_GEMS + len(_COLOR_SETS)
RESERVE_CARD: Final = TAKE_TWO + 5
RESERVE_DECK: Final = RESERVE_CARD + CARD_ID_SPACE
PURCHASE: Final = RESERVE_DECK + MAX_DECKS
PASS: Final = PURCHASE + CARD_ID_SPACE
RETURN_TOKENS: Final = PASS + 1
CHOOSE_NOBLE: Final = RETURN_TOKENS + len(_RETURN_SETS)
BASE_ID_COUNT: Final = CHOOSE_NOBLE + NOBLE_ID_SPACE  # the modules' ranges start here
DECLINE: Final = 389  # a generic answer, placed when the Strongholds first needed it

BASE_RANGES: Final[tuple[IdRange, ...]] = (
    IdRange(
        TAKE_GEMS,
        len(_COLOR_SETS),
        TakeGems,
        _take_gems_index,
        lambda index: TakeGems(_COLOR_SETS[index]),
        "0-9: three colours, the rank of the sorted colour set in itertools.combinations(range(5), 3); "
        "10-19: two colours, the same for combinations(range(5), 2); 20-24: one colour, its index; " + COLOR_RULE,
    ),
    id_range(TAKE_TWO, TakeTwoGems, 5, "color", "the colour index; " + COLOR_RULE),
    id_range(RESERVE_CARD, ReserveCard, CARD_ID_SPACE, "card_id", "the card id"),
    id_range(RESERVE_DECK, ReserveFromDeck, MAX_DECKS, "deck", "the deck id (0-2: levels 1-3; 3-5: Orient levels 1-3)"),
    IdRange(
        PURCHASE,
        CARD_ID_SPACE,
        PurchaseCard,
        _purchase_index,
        PurchaseCard,
        "the card id (a purchase by id uses the default payment)",
    ),
    single_id(PASS, Pass, "always 0"),
    IdRange(
        RETURN_TOKENS,
        len(_RETURN_SETS),
        ReturnTokens,
        _return_tokens_index,
        _return_tokens,
        "the rank of the returned tokens as a sorted multiset of colour indices: all multisets of 1 token, "
        "then of 2, then of 3, each size in the order of itertools.combinations_with_replacement(range(6), size); "
        + COLOR_RULE,
    ),
    id_range(CHOOSE_NOBLE, ChooseNoble, NOBLE_ID_SPACE, "noble_id", "the noble id"),
    single_id(DECLINE, Decline, "always 0 (an optional decision declined: the Strongholds' conquest)"),
)


class IdLayout:
    """Every id range in id order, checked not to overlap.

    Ids in a gap between ranges decode to nothing (a range left for a module that
    is not registered); the built-in rules leave none.
    """

    def __init__(self, ranges: Iterable[IdRange]) -> None:
        self.ranges: tuple[IdRange, ...] = tuple(sorted(ranges, key=lambda item: item.offset))
        end = 0
        for item in self.ranges:
            if item.offset < end or item.size <= 0:
                raise ValueError(f"the {item.kind} ids start at {item.offset}: the previous range ends at {end}")
            end = item.offset + item.size
        self.count = end
        self.gaps = end - sum(item.size for item in self.ranges)
        self._offsets = [item.offset for item in self.ranges]
        self._by_type: dict[type, tuple[IdRange, ...]] = {}
        for item in self.ranges:
            self._by_type[item.action] = self._by_type.get(item.action, ()) + (item,)

    def action_id(self, action: object) -> int:
        """The id of an action (a purchase's explicit payment is not part of its id)."""
        for item in self._by_type.get(type(action), ()):
            index = item.encode(action)
            if index is not None:
                return item.offset + index
        raise RuleViolation(Reason.UNKNOWN_ACTION, f"{action!r} has no action id")

    def action_from_id(self, value: int) -> Any:
        """The action with this id (purchases with the default payment)."""
        if not 0 <= value < self.count:
            raise RuleViolation(Reason.UNKNOWN_ACTION, f"action ids run from 0 to {self.count - 1}, not {value}")
        item = self.ranges[bisect_right(self._offsets, value) - 1]
        if value >= item.offset + item.size:
            raise RuleViolation(Reason.UNKNOWN_ACTION, f"action id {value} belongs to no registered module")
        return item.decode(value - item.offset)

    def markdown(self) -> str:
        """The layout as the README's table."""
        lines = ["| offset | count | action | index |", "| ---: | ---: | --- | --- |"]
        lines += [f"| {r.offset} | {r.size} | `{r.kind}` | {r.rule} |" for r in self.ranges]
        return "\n".join(lines) + "\n"
