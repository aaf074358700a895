"""What a player can send: the base game's main actions and answers to pending decisions.

Modules define their own answers (NamedTuples decorated with ``distinct_kind``)
in their packages and register them with their id ranges.

Actions do not carry the seat; ``apply`` takes the acting seat separately so that
a legal-action list is the same whoever asks.
"""

from __future__ import annotations

from typing import Any, NamedTuple, TypeAlias

from .records import distinct_kind


@distinct_kind
class TakeGems(NamedTuple):
    """Take one gem of each listed colour (three, or all colours left if fewer)."""

    colors: tuple[int, ...]


@distinct_kind
class TakeTwoGems(NamedTuple):
    """Take two gems of one colour (the pile must hold four or more)."""

    color: int


@distinct_kind
class ReserveCard(NamedTuple):
    """Reserve a face-up card and take a gold if any is left."""

    card_id: int


@distinct_kind
class ReserveFromDeck(NamedTuple):
    """Reserve the top card of a deck unseen and take a gold if any is left."""

    deck: int  # 0, 1, 2 for levels 1, 2, 3


@distinct_kind
class PurchaseCard(NamedTuple):
    """Buy a face-up card or one of your reserved cards.

    ``payment`` (six counts, gold last) is what to pay after bonuses; None lets
    the engine pay coloured tokens first and gold for the rest.

    ``cards_spent`` (the Orient) are owned cards given up for this purchase: gold
    cards spent as two gold each, and the bonus cards a sacrifice card discards.
    None lets the engine choose (no gold card unless needed; the sacrifice the
    rules force, cheapest in prestige first).
    """

    card_id: int
    payment: tuple[int, ...] | None = None
    cards_spent: tuple[int, ...] | None = None


@distinct_kind
class Pass(NamedTuple):
    """Do nothing; legal only when no other main action is."""


@distinct_kind
class ReturnTokens(NamedTuple):
    """Answer to RETURN_TOKENS: the six counts to put back in the bank."""

    tokens: tuple[int, ...]


@distinct_kind
class ChooseNoble(NamedTuple):
    """Answer to CHOOSE_NOBLE: the noble that visits."""

    noble_id: int


@distinct_kind
class Decline(NamedTuple):
    """Answer to an optional decision (the Strongholds' CONQUER): do not take the option.

    Generic, so any module's optional decision can use it."""


MainAction = TakeGems | TakeTwoGems | ReserveCard | ReserveFromDeck | PurchaseCard | Pass
DecisionAction = ReturnTokens | ChooseNoble | Decline  # the base game's answers; modules add their own
# Any action record, the base game's or a registered module's (each module's are NamedTuples in its package).
Action: TypeAlias = tuple[Any, ...]
