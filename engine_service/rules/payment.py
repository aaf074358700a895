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
    """Coloured tokens first, gold for the rest (the gold count may exceed what the player holds: callers check).

    Unrolled: it prices almost every purchase of every ruleset.
    """
    t0, t1, t2, t3, t4, _gold = player.tokens
    b0, b1, b2, b3, b4 = player.bonuses
    c0, c1, c2, c3, c4 = cost[:GOLD]
    # Per colour, what is due after bonuses, then the coloured tokens paid towards it.
    d0 = c0 - b0 if c0 > b0 else 0
    d1 = c1 - b1 if c1 > b1 else 0
    d2 = c2 - b2 if c2 > b2 else 0
    d3 = c3 - b3 if c3 > b3 else 0
    d4 = c4 - b4 if c4 > b4 else 0
    p0 = d0 if d0 < t0 else t0
    p1 = d1 if d1 < t1 else t1
    p2 = d2 if d2 < t2 else t2
    p3 = d3 if d3 < t3 else t3
    p4 = d4 if d4 < t4 else t4
    return (p0, p1, p2, p3, p4, d0 - p0 + d1 - p1 + d2 - p2 + d3 - p3 + d4 - p4)


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
