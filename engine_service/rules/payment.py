"""What a card costs a player, and which payments are valid.

A payment is six token counts (gold last) handed to the bank after bonuses.
It is valid when it covers the cost exactly: for each colour, no more coloured
tokens than the cost left after bonuses, and gold making up precisely the rest.
Gold may be spent while the player still holds the coloured tokens.
"""

from __future__ import annotations

from .colors import GOLD, TOKEN_KINDS, format_tokens
from .errors import Reason, RuleViolation
from .state import PlayerState


def amount_due(cost: tuple[int, ...], bonuses: tuple[int, ...]) -> tuple[int, ...]:
    """Per colour, the tokens still needed after bonuses."""
    return tuple(c - b if c > b else 0 for c, b in zip(cost, bonuses))


def shortfall(due: tuple[int, ...], tokens: tuple[int, ...]) -> int:
    """How many gold the player needs to cover ``due`` with their coloured tokens."""
    return sum(d - t for d, t in zip(due, tokens) if d > t)


def can_afford(player: PlayerState, cost: tuple[int, ...]) -> bool:
    tokens = player.tokens
    bonuses = player.bonuses
    missing = 0
    for color in range(5):
        left = cost[color] - bonuses[color] - tokens[color]
        if left > 0:
            missing += left
    return missing <= tokens[GOLD]


def default_payment(player: PlayerState, cost: tuple[int, ...]) -> tuple[int, ...]:
    """Coloured tokens first, gold for the rest. Assumes the card is affordable."""
    tokens = player.tokens
    bonuses = player.bonuses
    paid = [0] * TOKEN_KINDS
    for color in range(GOLD):
        due = cost[color] - bonuses[color]
        if due > 0:
            held = tokens[color]
            paid[color] = due if due < held else held
            paid[GOLD] += due - paid[color]
    return tuple(paid)


def cannot_afford(card_id: int, missing: int, how: str = "") -> RuleViolation:
    """The CANNOT_AFFORD refusal: ``missing`` tokens more than the player can pay (``how``: with what)."""
    return RuleViolation(
        Reason.CANNOT_AFFORD,
        f"card {card_id} needs {missing} more token(s) than the player can pay{how}",
        card_id=str(card_id),
        missing=str(missing),
    )


def check_payment_tokens(player: PlayerState, due: tuple[int, ...], payment: tuple[int, ...]) -> None:
    """Raise PAYMENT_INVALID unless ``payment`` is six counts the player holds, no colour above ``due``.

    What gold must make up is left to the caller: it depends on what a gold is worth.
    """
    if len(payment) != TOKEN_KINDS or any(count < 0 for count in payment):
        raise RuleViolation(Reason.PAYMENT_INVALID, "a payment is six non-negative token counts, gold last")
    if any(count > held for count, held in zip(payment, player.tokens)):
        raise RuleViolation(
            Reason.PAYMENT_INVALID,
            f"the payment uses {format_tokens(payment)} but the player holds {format_tokens(player.tokens)}",
        )
    if any(count > owed for count, owed in zip(payment, due)):
        raise RuleViolation(
            Reason.PAYMENT_INVALID,
            f"the payment overpays a colour: {format_tokens(payment)} for a cost of {format_tokens(due)} after bonuses",
        )


def check_payment(player: PlayerState, cost: tuple[int, ...], payment: tuple[int, ...]) -> None:
    """Raise PAYMENT_INVALID unless ``payment`` pays ``cost`` exactly from the player's tokens."""
    due = amount_due(cost, player.bonuses)
    check_payment_tokens(player, due, payment)
    gold_needed = sum(due) - sum(payment[:GOLD])
    if payment[GOLD] != gold_needed:
        raise RuleViolation(
            Reason.PAYMENT_INVALID,
            f"the payment needs exactly {gold_needed} gold to cover {format_tokens(due)}, not {payment[GOLD]}",
        )
