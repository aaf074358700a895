"""The purchase main action: a face-up card or one of the player's reserved cards."""

from __future__ import annotations

from .actions import PurchaseCard
from .catalog import CARDS, is_known_card
from .errors import Reason, RuleViolation
from .events import CardSource, Event, new_card_purchased
from .market import find_in_market, remove_from_market
from .payment import amount_due, can_afford, cannot_afford, check_payment, default_payment, shortfall
from .plugin import PaymentRules, Price
from .state import GameState, add_tokens, new_player_state, sub_tokens, with_player, with_table


def resolve_purchase(
    state: GameState, action: PurchaseCard, payment_rules: PaymentRules | None = None
) -> tuple[int | None, Price]:
    """Where the card comes from (market slot, or None for the reserve) and its price.

    ``payment_rules`` are a module's, None for the base game's. Raises if the
    purchase is illegal.
    """
    card_id = action.card_id
    if not is_known_card(card_id):
        raise RuleViolation(Reason.UNKNOWN_CARD, f"there is no card {card_id}", card_id=str(card_id))
    player = state.players[state.seat]
    slot: int | None = None
    if card_id not in player.reserved:
        slot = find_in_market(state, card_id)
        if slot is None:
            raise RuleViolation(
                Reason.CARD_NOT_AVAILABLE,
                f"card {card_id} is neither face up in the market nor reserved by the player",
                card_id=str(card_id),
            )
    if payment_rules is not None:
        return slot, payment_rules.price(state, state.seat, action)
    if action.cards_spent:
        raise RuleViolation(Reason.CARDS_SPENT_INVALID, "only Orient games spend cards on a purchase")
    cost = CARDS[card_id].cost
    if not can_afford(player, cost):
        missing = shortfall(amount_due(cost, player.bonuses), player.tokens) - player.tokens[-1]
        raise cannot_afford(card_id, missing)
    if action.payment is None:
        return slot, Price(default_payment(player, cost))
    check_payment(player, cost, action.payment)
    return slot, Price(tuple(action.payment))


def purchase_card(
    state: GameState, action: PurchaseCard, events: list[Event], payment_rules: PaymentRules | None = None
) -> GameState:
    """Buy a card for the seat to play (validated first; see ``resolve_purchase``)."""
    slot, price = resolve_purchase(state, action, payment_rules)
    seat = state.seat
    if price.cards:
        assert payment_rules is not None
        state = payment_rules.give_up(state, seat, price, events)
    payment = price.tokens
    card = CARDS[action.card_id]
    player = state.players[seat]
    bonuses = player.bonuses
    if card.bonus is not None:
        added = list(bonuses)
        added[card.bonus] += card.bonus_count
        bonuses = tuple(added)
    reserved = player.reserved
    reserved_blind = player.reserved_blind
    market = state.market
    if slot is None:
        index = reserved.index(card.id)
        reserved = reserved[:index] + reserved[index + 1 :]
        reserved_blind = reserved_blind[:index] + reserved_blind[index + 1 :]
        events.append(
            new_card_purchased(seat=seat, card_id=card.id, source=CardSource.RESERVE, slot=None, payment=payment)
        )
    else:
        events.append(
            new_card_purchased(seat=seat, card_id=card.id, source=CardSource.MARKET, slot=slot, payment=payment)
        )
        market = remove_from_market(market, state.decks, card.deck, slot, events)
    tokens = sub_tokens(player.tokens, payment)
    prestige = player.prestige + card.points
    purchased = player.purchased + (card.id,)
    player = new_player_state(
        tokens=tokens,
        bonuses=bonuses,
        prestige=prestige,
        purchased=purchased,
        reserved=reserved,
        reserved_blind=reserved_blind,
        nobles=player.nobles,
    )
    players = with_player(state.players, seat, player)
    return with_table(state, add_tokens(state.bank, payment), market, state.decks, players)
