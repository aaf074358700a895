"""Main actions that reserve a card: face up from the market, or unseen from a deck."""

from __future__ import annotations

from typing import Final

from .actions import ReserveCard, ReserveFromDeck
from .catalog import CARDS, is_known_card
from .colors import GOLD
from .errors import Reason, RuleViolation
from .events import Event, new_card_reserved, new_gold_received
from .market import find_in_market, remove_from_market
from .state import GameState, PlayerState, new_player_state, with_player, with_table

RESERVE_LIMIT: Final = 3


def _check_limit(player: PlayerState) -> None:
    if len(player.reserved) >= RESERVE_LIMIT:
        raise RuleViolation(Reason.RESERVE_LIMIT, f"a player may hold at most {RESERVE_LIMIT} reserved cards")


def locate_reservable(state: GameState, action: ReserveCard) -> int:
    """The market slot of the card to reserve; raises if the reservation is illegal."""
    _check_limit(state.players[state.seat])
    if not is_known_card(action.card_id):
        raise RuleViolation(Reason.UNKNOWN_CARD, f"there is no card {action.card_id}", card_id=str(action.card_id))
    slot = find_in_market(state, action.card_id)
    if slot is None:
        raise RuleViolation(
            Reason.CARD_NOT_AVAILABLE,
            f"card {action.card_id} is not face up in the market",
            card_id=str(action.card_id),
        )
    return slot


def reserve_card(state: GameState, action: ReserveCard, events: list[Event]) -> GameState:
    slot = locate_reservable(state, action)
    deck = CARDS[action.card_id].deck
    events.append(new_card_reserved(seat=state.seat, card_id=action.card_id, deck=deck, blind=False, slot=slot))
    market = remove_from_market(state.market, state.decks, deck, slot, events)
    return _add_to_hand(state, action.card_id, False, events, market=market, decks=state.decks)


def check_reserve_from_deck(state: GameState, action: ReserveFromDeck) -> None:
    _check_limit(state.players[state.seat])
    if not 0 <= action.deck < len(state.decks):
        raise RuleViolation(Reason.UNKNOWN_DECK, f"there is no deck {action.deck}", deck=str(action.deck))
    if not state.decks[action.deck]:
        raise RuleViolation(Reason.DECK_EMPTY, f"deck {action.deck} is empty", deck=str(action.deck))


def reserve_from_deck(state: GameState, action: ReserveFromDeck, events: list[Event]) -> GameState:
    check_reserve_from_deck(state, action)
    deck = action.deck
    pile = state.decks[deck]
    card_id = pile[0]
    events.append(new_card_reserved(seat=state.seat, card_id=card_id, deck=deck, blind=True, slot=None))
    decks = state.decks[:deck] + (pile[1:],) + state.decks[deck + 1 :]
    return _add_to_hand(state, card_id, True, events, market=state.market, decks=decks)


def _add_to_hand(
    state: GameState,
    card_id: int,
    blind: bool,
    events: list[Event],
    *,
    market: tuple[tuple[int | None, ...], ...],
    decks: tuple[tuple[int, ...], ...],
) -> GameState:
    """The reserved card to the seat's hand, with a gold if any is left; ``market`` and ``decks`` without it."""
    seat = state.seat
    player = state.players[seat]
    bank = state.bank
    tokens = player.tokens
    if bank[GOLD]:
        bank = bank[:GOLD] + (bank[GOLD] - 1,)
        tokens = tokens[:GOLD] + (tokens[GOLD] + 1,)
        events.append(new_gold_received(seat=seat, amount=1))
    reserved = player.reserved + (card_id,)
    reserved_blind = player.reserved_blind + (blind,)
    player = new_player_state(
        tokens=tokens,
        bonuses=player.bonuses,
        prestige=player.prestige,
        purchased=player.purchased,
        reserved=reserved,
        reserved_blind=reserved_blind,
        nobles=player.nobles,
    )
    return with_table(state, bank, market, decks, with_player(state.players, seat, player))
