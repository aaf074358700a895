"""A fixed integer for every possible action, for legal-action masks in any language.

The layout (ids are ``offset + index``) never changes for existing actions;
modules append their ranges after the base ones.

| offset | count | action | index |
|-------:|------:|--------|-------|
| 0      | 10    | TakeGems, 3 colours | rank of the colour set in ``combinations(range(5), 3)`` |
| 10     | 10    | TakeGems, 2 colours | same, for ``combinations(range(5), 2)`` |
| 20     | 5     | TakeGems, 1 colour  | the colour |
| 25     | 5     | TakeTwoGems         | the colour |
| 30     | 120   | ReserveCard         | the card id |
| 150    | 6     | ReserveFromDeck     | the deck (0-2: levels 1-3; 3-5: Orient levels 1-3) |
| 156    | 120   | PurchaseCard        | the card id (default payment) |
| 276    | 1     | Pass                | - |
| 277    | 83    | ReturnTokens        | rank of the returned multiset (see below) |

ReturnTokens ranks: the multisets of 1, then 2, then 3 tokens, each size in the order
of ``combinations_with_replacement(range(6), size)``.
| 360    | 10    | ChooseNoble         | the noble id |
| 370    | 14    | ChooseCity          | the city id (the Cities module) |
| 384    | 5     | TakeGem             | the colour (Trading Posts) |
| 389    | 1     | Decline             | - (the Strongholds' conquest) |
| 390    | 90    | PlaceStronghold, from the supply | the card id (Strongholds: base cards only) |
| 480    | 90    | RemoveStronghold    | the card id |
| 570    | 120   | PairCard            | the card id of the partner (the Orient) |
| 690    | 120   | TakeFreeCard        | the card id |
| 810    | 10    | ReserveNoble        | the noble id |
| 820    | 8100  | PlaceStronghold, moved | ``90 * from_card_id + card_id`` |

Colours: 0 white, 1 blue, 2 green, 3 red, 4 black, 5 gold.
"""

from __future__ import annotations

from itertools import combinations, combinations_with_replacement
from typing import Final

from .actions import (
    Action,
    ChooseCity,
    ChooseNoble,
    Decline,
    PairCard,
    Pass,
    PlaceStronghold,
    PurchaseCard,
    RemoveStronghold,
    ReserveCard,
    ReserveFromDeck,
    ReserveNoble,
    ReturnTokens,
    TakeFreeCard,
    TakeGem,
    TakeGems,
    TakeTwoGems,
)
from .catalog import BASE_CARDS, CARD_ID_SPACE, CITY_ID_SPACE, NOBLE_ID_SPACE
from .colors import TOKEN_KINDS
from .errors import Reason, RuleViolation

_COLOR_SETS: Final = [c for size in (3, 2, 1) for c in combinations(range(5), size)]
_RETURN_SETS: Final = [c for size in (1, 2, 3) for c in combinations_with_replacement(range(TOKEN_KINDS), size)]
MAX_DECKS: Final = 6

TAKE_GEMS: Final = 0
TAKE_TWO: Final = TAKE_GEMS + len(_COLOR_SETS)
RESERVE_CARD: Final = TAKE_TWO + 5
RESERVE_DECK: Final = RESERVE_CARD + CARD_ID_SPACE
PURCHASE: Final = RESERVE_DECK + MAX_DECKS
PASS: Final = PURCHASE + CARD_ID_SPACE
RETURN_TOKENS: Final = PASS + 1
CHOOSE_NOBLE: Final = RETURN_TOKENS + len(_RETURN_SETS)
CHOOSE_CITY: Final = CHOOSE_NOBLE + NOBLE_ID_SPACE
TAKE_GEM: Final = CHOOSE_CITY + CITY_ID_SPACE
DECLINE: Final = TAKE_GEM + 5
STRONGHOLD_CARDS: Final = len(BASE_CARDS)  # strongholds stand on base cards only
PLACE_STRONGHOLD: Final = DECLINE + 1
REMOVE_STRONGHOLD: Final = PLACE_STRONGHOLD + STRONGHOLD_CARDS
PAIR_CARD: Final = REMOVE_STRONGHOLD + STRONGHOLD_CARDS
TAKE_FREE_CARD: Final = PAIR_CARD + CARD_ID_SPACE
RESERVE_NOBLE: Final = TAKE_FREE_CARD + CARD_ID_SPACE
MOVE_STRONGHOLD: Final = RESERVE_NOBLE + NOBLE_ID_SPACE
ACTION_ID_COUNT: Final = MOVE_STRONGHOLD + STRONGHOLD_CARDS * STRONGHOLD_CARDS  # ids are 0 .. ACTION_ID_COUNT-1

_COLOR_SET_INDEX: Final = {colors: index for index, colors in enumerate(_COLOR_SETS)}
_RETURN_SET_INDEX: Final = {
    tuple(combo.count(color) for color in range(TOKEN_KINDS)): index for index, combo in enumerate(_RETURN_SETS)
}


def action_id(action: Action) -> int:
    """The id of an action (a purchase's explicit payment is not part of its id)."""
    if isinstance(action, TakeGems):
        index = _COLOR_SET_INDEX.get(tuple(sorted(action.colors)))
        if index is not None:
            return TAKE_GEMS + index
    elif isinstance(action, TakeTwoGems):
        if 0 <= action.color < 5:
            return TAKE_TWO + action.color
    elif isinstance(action, ReserveCard):
        if 0 <= action.card_id < CARD_ID_SPACE:
            return RESERVE_CARD + action.card_id
    elif isinstance(action, ReserveFromDeck):
        if 0 <= action.deck < MAX_DECKS:
            return RESERVE_DECK + action.deck
    elif isinstance(action, PurchaseCard):
        if 0 <= action.card_id < CARD_ID_SPACE:
            return PURCHASE + action.card_id
    elif isinstance(action, Pass):
        return PASS
    elif isinstance(action, ReturnTokens):
        index = _RETURN_SET_INDEX.get(tuple(action.tokens))
        if index is not None:
            return RETURN_TOKENS + index
    elif isinstance(action, ChooseNoble) and 0 <= action.noble_id < NOBLE_ID_SPACE:
        return CHOOSE_NOBLE + action.noble_id
    elif isinstance(action, ChooseCity) and 0 <= action.city_id < CITY_ID_SPACE:
        return CHOOSE_CITY + action.city_id
    elif isinstance(action, TakeGem) and 0 <= action.color < 5:
        return TAKE_GEM + action.color
    elif isinstance(action, Decline):
        return DECLINE
    elif isinstance(action, PlaceStronghold) and 0 <= action.card_id < STRONGHOLD_CARDS:
        if action.from_card_id is None:
            return PLACE_STRONGHOLD + action.card_id
        if 0 <= action.from_card_id < STRONGHOLD_CARDS:
            return MOVE_STRONGHOLD + STRONGHOLD_CARDS * action.from_card_id + action.card_id
    elif isinstance(action, RemoveStronghold) and 0 <= action.card_id < STRONGHOLD_CARDS:
        return REMOVE_STRONGHOLD + action.card_id
    elif isinstance(action, PairCard) and 0 <= action.card_id < CARD_ID_SPACE:
        return PAIR_CARD + action.card_id
    elif isinstance(action, TakeFreeCard) and 0 <= action.card_id < CARD_ID_SPACE:
        return TAKE_FREE_CARD + action.card_id
    elif isinstance(action, ReserveNoble) and 0 <= action.noble_id < NOBLE_ID_SPACE:
        return RESERVE_NOBLE + action.noble_id
    raise RuleViolation(Reason.UNKNOWN_ACTION, f"{action!r} has no action id")


def action_from_id(value: int) -> Action:
    """The action with this id (purchases with the default payment)."""
    if not 0 <= value < ACTION_ID_COUNT:
        raise RuleViolation(Reason.UNKNOWN_ACTION, f"action ids run from 0 to {ACTION_ID_COUNT - 1}, not {value}")
    if value < TAKE_TWO:
        return TakeGems(_COLOR_SETS[value - TAKE_GEMS])
    if value < RESERVE_CARD:
        return TakeTwoGems(value - TAKE_TWO)
    if value < RESERVE_DECK:
        return ReserveCard(value - RESERVE_CARD)
    if value < PURCHASE:
        return ReserveFromDeck(value - RESERVE_DECK)
    if value < PASS:
        return PurchaseCard(value - PURCHASE)
    if value < RETURN_TOKENS:
        return Pass()
    if value < CHOOSE_NOBLE:
        combo = _RETURN_SETS[value - RETURN_TOKENS]
        return ReturnTokens(tuple(combo.count(color) for color in range(TOKEN_KINDS)))
    if value < CHOOSE_CITY:
        return ChooseNoble(value - CHOOSE_NOBLE)
    if value < TAKE_GEM:
        return ChooseCity(value - CHOOSE_CITY)
    if value < DECLINE:
        return TakeGem(value - TAKE_GEM)
    if value < PLACE_STRONGHOLD:
        return Decline()
    if value < REMOVE_STRONGHOLD:
        return PlaceStronghold(value - PLACE_STRONGHOLD)
    if value < PAIR_CARD:
        return RemoveStronghold(value - REMOVE_STRONGHOLD)
    if value < TAKE_FREE_CARD:
        return PairCard(value - PAIR_CARD)
    if value < RESERVE_NOBLE:
        return TakeFreeCard(value - TAKE_FREE_CARD)
    if value < MOVE_STRONGHOLD:
        return ReserveNoble(value - RESERVE_NOBLE)
    from_card_id, card_id = divmod(value - MOVE_STRONGHOLD, STRONGHOLD_CARDS)
    return PlaceStronghold(card_id, from_card_id)
