"""Why an action or a configuration is refused.

Every refusal names one ``Reason``; the gRPC layer publishes the names in
UPPER_SNAKE as the ``reason`` of its error details, so they are part of the API.
"""

from __future__ import annotations

from enum import Enum, unique


@unique
class Reason(Enum):
    """Machine-readable reasons for refusing a configuration or an action."""

    # Configuration.
    INVALID_PLAYER_COUNT = "INVALID_PLAYER_COUNT"
    INVALID_SEED = "INVALID_SEED"
    INVALID_FIRST_SEAT = "INVALID_FIRST_SEAT"
    INVALID_TURN_LIMIT = "INVALID_TURN_LIMIT"
    UNKNOWN_MODULE = "UNKNOWN_MODULE"
    MODULE_COMBINATION_NOT_SUPPORTED = "MODULE_COMBINATION_NOT_SUPPORTED"
    # Whose move it is.
    GAME_OVER = "GAME_OVER"
    NOT_YOUR_TURN = "NOT_YOUR_TURN"
    DECISION_PENDING = "DECISION_PENDING"
    NO_DECISION_PENDING = "NO_DECISION_PENDING"
    # Taking gems.
    INVALID_COLOR = "INVALID_COLOR"
    GOLD_NOT_TAKEABLE = "GOLD_NOT_TAKEABLE"
    DUPLICATE_COLOR = "DUPLICATE_COLOR"
    TOO_MANY_COLORS = "TOO_MANY_COLORS"
    TOO_FEW_COLORS = "TOO_FEW_COLORS"
    NOT_ENOUGH_IN_BANK = "NOT_ENOUGH_IN_BANK"
    PILE_BELOW_FOUR = "PILE_BELOW_FOUR"
    # Reserving and purchasing.
    RESERVE_LIMIT = "RESERVE_LIMIT"
    UNKNOWN_DECK = "UNKNOWN_DECK"
    DECK_EMPTY = "DECK_EMPTY"
    UNKNOWN_CARD = "UNKNOWN_CARD"
    CARD_NOT_AVAILABLE = "CARD_NOT_AVAILABLE"
    CANNOT_AFFORD = "CANNOT_AFFORD"
    PAYMENT_INVALID = "PAYMENT_INVALID"
    # Passing.
    PASS_NOT_ALLOWED = "PASS_NOT_ALLOWED"
    # Decisions at the end of the turn.
    RETURN_WRONG_AMOUNT = "RETURN_WRONG_AMOUNT"
    RETURN_NOT_HELD = "RETURN_NOT_HELD"
    NOBLE_NOT_AVAILABLE = "NOBLE_NOT_AVAILABLE"
    CITY_NOT_AVAILABLE = "CITY_NOT_AVAILABLE"
    # Module decisions and restrictions.
    GEM_NOT_AVAILABLE = "GEM_NOT_AVAILABLE"  # Trading Posts: the chosen colour is not one of the options
    CARD_OCCUPIED = "CARD_OCCUPIED"  # Strongholds: another player's stronghold stands on the card
    STRONGHOLD_NOT_ALLOWED = "STRONGHOLD_NOT_ALLOWED"  # Strongholds: that placement, move or removal is not allowed
    PAIRING_NOT_POSSIBLE = "PAIRING_NOT_POSSIBLE"  # the Orient: no owned card to pair with, or not that one
    SACRIFICE_NOT_POSSIBLE = "SACRIFICE_NOT_POSSIBLE"  # the Orient: not the bonus cards a sacrifice card needs
    CARDS_SPENT_INVALID = "CARDS_SPENT_INVALID"  # the Orient: cards_spent lists cards that cannot be given up
    # The action itself.
    UNKNOWN_ACTION = "UNKNOWN_ACTION"
    # A state that cannot arise in a game (sent by a client).
    INVALID_STATE = "INVALID_STATE"


class RuleViolation(Exception):
    """A refused configuration or action. The state it was checked against is untouched."""

    def __init__(self, reason: Reason, message: str, **details: str) -> None:
        super().__init__(message)
        self.reason = reason
        self.message = message
        # Small string facts for machine use, e.g. {"color": "red", "in_bank": "3"}.
        self.details: dict[str, str] = details

    def __repr__(self) -> str:
        return f"RuleViolation({self.reason.name}, {self.message!r})"
