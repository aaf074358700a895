"""The Orient: per-card tables and the seat-level facts the module's rules share.

The tables are indexed by card id and built once at import, because the payment
and legality hooks read them for every candidate card on every move.
"""

from __future__ import annotations

from typing import Final

from ...catalog import BASE_DECKS, CARDS, ORIENT_DECKS, CardKind
from ...state import GameState
from .state import STATE, OrientState

PAIRED_KINDS: Final = frozenset({CardKind.PAIRED, CardKind.PAIRED_TAKE_LEVEL1})

KIND: Final[tuple[CardKind, ...]] = tuple(card.kind for card in CARDS)
BONUS: Final[tuple[int | None, ...]] = tuple(card.bonus for card in CARDS)  # None: gold and paired cards
BONUS_COUNT: Final[tuple[int, ...]] = tuple(card.bonus_count if card.bonus is not None else 0 for card in CARDS)
POINTS: Final[tuple[int, ...]] = tuple(card.points for card in CARDS)
COSTS: Final[tuple[tuple[int, ...], ...]] = tuple(card.cost for card in CARDS)
IS_PAIRED: Final[tuple[bool, ...]] = tuple(card.kind in PAIRED_KINDS for card in CARDS)
IS_GOLD_CARD: Final[tuple[int, ...]] = tuple(int(card.kind is CardKind.GOLD_X2) for card in CARDS)  # summed
GOLD_CARDS: Final = frozenset(card.id for card in CARDS if card.kind is CardKind.GOLD_X2)
# Bound once: compiled code calls a bound method it holds directly, but looks ``GOLD_CARDS.isdisjoint`` up by
# name on every call (both are read on every legal-action list).
OWNS_NO_GOLD_CARD: Final = GOLD_CARDS.isdisjoint  # (purchased cards) -> whether none is a gold card
GOLD_CARD_COUNT: Final = IS_GOLD_CARD.__getitem__  # card id -> 1 for a gold card, else 0
# SACRIFICE cards: (colour, count) of the bonuses their price discards; None for every other card.
SACRIFICE: Final[tuple[tuple[int, int] | None, ...]] = tuple(
    (card.sacrifice_color, card.sacrifice_count)
    if card.kind is CardKind.SACRIFICE and card.sacrifice_color is not None
    else None
    for card in CARDS
)
# A free card is taken from the face-up cards of one level: its base row and its Orient row.
ROWS_OF_LEVEL: Final[dict[int, tuple[int, int]]] = {
    level: (base, orient) for level, (base, orient) in enumerate(zip(BASE_DECKS, ORIENT_DECKS), start=1)
}


_SLOT: Final = STATE.index


def orient_of(state: GameState) -> OrientState:
    """The game's Orient state; a client's Orient game without one is refused (read on every turn: inlined)."""
    states = state.module_states
    if len(states) > _SLOT:
        orient = states[_SLOT]
        if type(orient) is OrientState:
            return orient
    return STATE.of(state)  # raises INVALID_STATE


def partners(purchased: tuple[int, ...]) -> tuple[int, ...]:
    """The owned cards a paired card may attach to: those with a printed bonus (a double bonus too)."""
    return tuple([card_id for card_id in purchased if BONUS[card_id] is not None])


def face_up(state: GameState, level: int) -> tuple[int, ...]:
    """The face-up cards of a level, base row first, as a free card's options."""
    market = state.market
    return tuple([card_id for deck in ROWS_OF_LEVEL[level] for card_id in market[deck] if card_id is not None])
