"""The Orient: what a purchase costs when gold cards and sacrifice cards are in play.

Gold cards (GOLD_X2): an owned gold card is worth two gold for one purchase; it
is a card, not tokens, so it never counts against the ten-token limit. A half
left unused is lost, and a spent card goes back to the box (the seat's
``discarded``). A payment of coloured tokens, ``g`` gold tokens and ``k`` gold
cards covering the ``r`` units left after bonuses and coloured tokens is valid
when ``g <= r``, ``g + 2k >= r`` and every card is needed (``g + 2(k-1) < r``).

Sacrifice cards (SACRIFICE) cost no tokens: their price is owned cards giving
``sacrifice_count`` bonuses of ``sacrifice_color``. Paired cards of that colour go
first: with at least that many, only paired cards (any of them); otherwise all
of them, then cards printed with that colour (a double bonus counts 2), none of
which may be superfluous. Reserved cards are never discarded. The prestige of
discarded cards is lost with them.

``PurchaseCard.cards_spent`` lists the gold cards spent or the cards sacrificed;
None, or an empty list, lets the engine choose: coloured tokens first, then gold
tokens, then as few gold cards as needed (lowest ids first); for a sacrifice,
paired cards first (lowest ids), then the set losing the least prestige (then
the lowest ids). With an explicit list and no explicit payment, the tokens are
coloured first, then gold for what the listed cards leave.
"""

from __future__ import annotations

from itertools import combinations

from ...actions import PurchaseCard
from ...colors import COLOR_NAMES, GOLD, NO_TOKENS
from ...errors import Reason, RuleViolation
from ...events import Event
from ...payment import amount_due, cannot_afford, check_payment_tokens, default_payment, shortfall
from ...plugin import PaymentRules, Price, new_price
from ...state import GameState, PlayerState, new_player_state, with_player
from .affordable import affordable
from .cards import BONUS, BONUS_COUNT, COSTS, IS_GOLD_CARD, OWNS_NO_GOLD_CARD, POINTS, SACRIFICE, orient_of
from .events import new_cards_discarded
from .state import new_orient_state, with_orient


def price(state: GameState, seat: int, action: PurchaseCard) -> Price:
    """The tokens and cards the purchase gives up, after checking them (see the module docstring)."""
    if action.payment is None and not action.cards_spent and SACRIFICE[action.card_id] is None:
        return _default_token_price(state.players[seat], action.card_id)  # almost every purchase
    spent = tuple(action.cards_spent) if action.cards_spent else None
    if spent is not None and len(set(spent)) != len(spent):
        raise RuleViolation(Reason.CARDS_SPENT_INVALID, "cards_spent lists a card twice", card_id=str(action.card_id))
    if spent is not None:
        owned = state.players[seat].purchased
        for card_id in spent:
            if card_id not in owned:
                raise RuleViolation(
                    Reason.CARDS_SPENT_INVALID, f"card {card_id} is not one of the seat's cards", card_id=str(card_id)
                )
    if SACRIFICE[action.card_id] is not None:
        if action.payment is not None and tuple(action.payment) != NO_TOKENS:
            raise RuleViolation(
                Reason.PAYMENT_INVALID, f"card {action.card_id} costs no tokens: its price is discarded cards"
            )
        return Price(NO_TOKENS, _sacrifice(state, seat, action.card_id, spent))
    return _token_price(state.players[seat], action.card_id, action.payment, spent)


def sacrifice_not_possible(card_id: int, color: int, count: int, held: int) -> RuleViolation:
    """The SACRIFICE_NOT_POSSIBLE refusal: ``count`` bonuses of ``color`` needed, ``held`` owned."""
    return RuleViolation(
        Reason.SACRIFICE_NOT_POSSIBLE,
        f"card {card_id} needs {count} {COLOR_NAMES[color]} bonuses from purchased cards to discard, "
        f"the seat has {held}",
        card_id=str(card_id),
        color=COLOR_NAMES[color],
        needed=str(count),
    )


def _token_price(
    player: PlayerState, card_id: int, payment: tuple[int, ...] | None, spent: tuple[int, ...] | None
) -> Price:
    """A token card's price with an explicit payment or explicit gold cards (``price`` takes the default)."""
    tokens = player.tokens
    due = amount_due(COSTS[card_id], player.bonuses)
    gold_cards = _gold_cards(player)
    missing = shortfall(due, tokens) - tokens[GOLD] - 2 * len(gold_cards)
    if missing > 0:
        raise cannot_afford(card_id, missing)
    if spent is not None:
        for spent_id in spent:
            if not IS_GOLD_CARD[spent_id]:
                raise RuleViolation(
                    Reason.CARDS_SPENT_INVALID,
                    f"card {spent_id} is not a gold card: only gold cards pay for this purchase",
                    card_id=str(spent_id),
                )
    if payment is None:
        assert spent is not None, "the engine's own payment returned above"
        coloured = tuple(d if d < t else t for d, t in zip(due, tokens))
        rest = sum(due) - sum(coloured)
        gold = max(0, rest - 2 * len(spent))
        if gold > tokens[GOLD]:
            raise cannot_afford(card_id, gold - tokens[GOLD], " with these gold cards")
        _check_cards_needed(spent, gold, rest)
        return Price(coloured + (gold,), spent)
    payment = tuple(payment)
    check_payment_tokens(player, due, payment)
    rest = sum(due) - sum(payment[:GOLD])
    gold = payment[GOLD]
    if gold > rest:
        raise RuleViolation(
            Reason.PAYMENT_INVALID,
            f"the payment spends {gold} gold where {rest} is left to cover after coloured tokens",
        )
    if spent is None:
        needed = (rest - gold + 1) // 2
        if needed > len(gold_cards):
            raise RuleViolation(
                Reason.PAYMENT_INVALID,
                f"the payment leaves {rest - gold} to cover and the seat has {len(gold_cards)} gold card(s)",
            )
        return Price(payment, tuple(gold_cards[:needed]))
    if gold + 2 * len(spent) < rest:
        raise RuleViolation(
            Reason.PAYMENT_INVALID,
            f"the payment and {len(spent)} gold card(s) cover {gold + 2 * len(spent)} of the {rest} left to pay",
        )
    _check_cards_needed(spent, gold, rest)
    return Price(payment, spent)


def _gold_cards(player: PlayerState) -> list[int]:
    """The seat's gold cards, lowest ids first (most seats own none: answered in C)."""
    purchased = player.purchased
    return [] if OWNS_NO_GOLD_CARD(purchased) else sorted([card for card in purchased if IS_GOLD_CARD[card]])


def _default_token_price(player: PlayerState, card_id: int) -> Price:
    """The engine's payment of a token card: coloured tokens first, then gold tokens, then the fewest gold cards.

    The path of almost every purchase, so it looks at the gold cards only when the gold tokens fall short.
    """
    paid = default_payment(player, COSTS[card_id])  # the base game's: coloured first, all the rest in gold
    rest = paid[GOLD]
    held = player.tokens[GOLD]
    if rest <= held:
        return new_price(tokens=paid, cards=())
    cards = _gold_cards(player)
    missing = rest - held - 2 * len(cards)
    if missing > 0:
        raise cannot_afford(card_id, missing)
    return new_price(tokens=paid[:GOLD] + (held,), cards=tuple(cards[: (rest - held + 1) // 2]))


def _check_cards_needed(spent: tuple[int, ...], gold: int, rest: int) -> None:
    if spent and gold + 2 * (len(spent) - 1) >= rest:
        raise RuleViolation(
            Reason.CARDS_SPENT_INVALID,
            f"{len(spent)} gold card(s) with {gold} gold token(s) for {rest} to cover: a gold card is not needed",
        )


def _sacrifice(state: GameState, seat: int, card_id: int, spent: tuple[int, ...] | None) -> tuple[int, ...]:
    """The cards a sacrifice card's purchase discards (the given ones, checked, or the engine's choice)."""
    sacrifice = SACRIFICE[card_id]
    assert sacrifice is not None
    color, count = sacrifice
    player = state.players[seat]
    if player.bonuses[color] < count:
        raise sacrifice_not_possible(card_id, color, count, player.bonuses[color])
    paired = sorted(card for card, partner in orient_of(state).pairs[seat] if BONUS[partner] == color)
    printed = [card for card in player.purchased if BONUS[card] == color]
    if spent is None:
        if len(paired) >= count:
            return tuple(paired[:count])
        return tuple(paired) + _cheapest_cover(printed, count - len(paired))
    for spent_id in spent:
        if spent_id not in paired and BONUS[spent_id] != color:
            raise RuleViolation(
                Reason.CARDS_SPENT_INVALID,
                f"card {spent_id} gives no {COLOR_NAMES[color]} bonus to discard",
                card_id=str(spent_id),
            )
    total = sum(BONUS_COUNT[card] if BONUS[card] is not None else 1 for card in spent)
    if total < count:
        raise RuleViolation(
            Reason.SACRIFICE_NOT_POSSIBLE,
            f"the cards listed give {total} {COLOR_NAMES[color]} bonus(es): card {card_id} needs {count}",
            card_id=str(card_id),
            color=COLOR_NAMES[color],
            needed=str(count),
        )
    kept_paired = [card for card in paired if card not in spent]
    spent_printed = [card for card in spent if card not in paired]
    if spent_printed and kept_paired:
        raise RuleViolation(
            Reason.SACRIFICE_NOT_POSSIBLE,
            f"paired cards of the colour are discarded first: card {kept_paired[0]} before card {spent_printed[0]}",
            card_id=str(kept_paired[0]),
        )
    superfluous = (
        len(spent) > count if not spent_printed else any(total - BONUS_COUNT[c] >= count for c in spent_printed)
    )
    if superfluous:
        raise RuleViolation(
            Reason.CARDS_SPENT_INVALID,
            f"the cards listed give {total} {COLOR_NAMES[color]} bonuses for {count} to discard: one is not needed",
            card_id=str(card_id),
        )
    return spent


def _cheapest_cover(cards: list[int], need: int) -> tuple[int, ...]:
    """The set of cards covering ``need`` bonuses, none superfluous, losing the least prestige (then lowest ids).

    Every card gives at least one bonus, so such a set has at most ``need`` cards.
    """
    best: tuple[int, tuple[int, ...]] | None = None
    for size in range(1, need + 1):
        for combo in combinations(sorted(cards), size):
            total = sum(BONUS_COUNT[card] for card in combo)
            if total < need or any(total - BONUS_COUNT[card] >= need for card in combo):
                continue
            key = (sum(POINTS[card] for card in combo), combo)
            if best is None or key < best:
                best = key
    assert best is not None, "the seat's bonuses of the colour cover the need"
    return best[1]


def give_up(state: GameState, seat: int, price: Price, events: list[Event]) -> GameState:
    """The cards of the price leave the seat for the box, taking their bonuses and prestige with them."""
    orient = orient_of(state)
    player = state.players[seat]
    gone = set(price.cards)
    partner_of = dict(orient.pairs[seat])
    bonuses = list(player.bonuses)
    prestige = player.prestige
    for card in price.cards:
        color = BONUS[card]
        if color is not None:
            bonuses[color] -= BONUS_COUNT[card]
        elif card in partner_of:
            partner_color = BONUS[partner_of[card]]
            assert partner_color is not None
            bonuses[partner_color] -= 1
        prestige -= POINTS[card]
    purchased = tuple([card for card in player.purchased if card not in gone])
    p = player
    player = new_player_state(
        tokens=p.tokens,
        bonuses=tuple(bonuses),
        prestige=prestige,
        purchased=purchased,
        reserved=p.reserved,
        reserved_blind=p.reserved_blind,
        nobles=p.nobles,
    )
    pairs = orient.pairs
    pairs = pairs[:seat] + (tuple([pair for pair in pairs[seat] if pair[0] not in gone]),) + pairs[seat + 1 :]
    discarded = orient.discarded
    discarded = discarded[:seat] + (discarded[seat] + price.cards,) + discarded[seat + 1 :]
    events.append(new_cards_discarded(seat=seat, card_ids=price.cards))
    players = with_player(state.players, seat, player)
    orient = new_orient_state(pairs=pairs, reserved_nobles=orient.reserved_nobles, discarded=discarded)
    return with_orient(state, players, orient, state.pending)


ORIENT_PAYMENT = PaymentRules(affordable=affordable, price=price, give_up=give_up)
