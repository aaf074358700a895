"""Taking cards out of the face-up market and refilling it from the decks."""

from __future__ import annotations

from typing import Final

from .catalog import CARDS
from .events import Event, new_card_revealed, new_market_slot_emptied
from .state import GameState, with_table

MARKET_SLOTS: Final = 4  # face-up cards per base level (a module's extra deck declares its own)


def find_in_market(state: GameState, card_id: int) -> int | None:
    """The market slot holding this card, or None."""
    deck = CARDS[card_id].deck
    if deck >= len(state.market):  # a module's card in a game without that module
        return None
    row = state.market[deck]
    for slot, slot_card in enumerate(row):
        if slot_card == card_id:
            return slot
    return None


def remove_from_market(
    market: tuple[tuple[int | None, ...], ...],
    decks: tuple[tuple[int, ...], ...],
    deck: int,
    slot: int,
    events: list[Event],
) -> tuple[tuple[int | None, ...], ...]:
    """The market with one slot vacated; the slot is refilled later by ``refill_market``.

    Refilling waits until the purchase has been fully resolved, because module
    powers (trading posts, strongholds, Orient pairing) act before the new card
    is shown. A slot whose deck is already empty stays empty for good, which is
    announced here.
    """
    row = list(market[deck])
    row[slot] = None
    if not decks[deck]:
        events.append(new_market_slot_emptied(deck=deck, slot=slot))
    return market[:deck] + (tuple(row),) + market[deck + 1 :]


def refill_market(state: GameState, events: list[Event]) -> GameState:
    """Turn up the top card of the matching deck into every empty slot that can be filled."""
    market = state.market
    decks = state.decks
    changed = False
    for deck, row in enumerate(market):
        if not decks[deck]:
            continue  # nothing left to turn up: the row's empty slots stay empty
        # A row with no empty slot (most rows, most turns) is skipped. ``None in row`` would compare every card
        # with None, which compiled code does through the generic rich comparison; identity tests are cheap.
        for slot_card in row:
            if slot_card is None:
                break
        else:
            continue
        new_row = list(row)
        pile = decks[deck]
        for slot, slot_card in enumerate(new_row):
            if slot_card is None and pile:
                new_row[slot] = pile[0]
                events.append(new_card_revealed(deck=deck, slot=slot, card_id=pile[0]))
                pile = pile[1:]
        market = market[:deck] + (tuple(new_row),) + market[deck + 1 :]
        decks = decks[:deck] + (pile,) + decks[deck + 1 :]
        changed = True
    if not changed:
        return state
    return with_table(state, state.bank, market, decks, state.players)
