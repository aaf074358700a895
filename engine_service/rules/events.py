"""What a transition did, in order, for front ends to animate and logs to tell.

The base game's events; modules define theirs in their packages. Field names
are the contract's, so one codec converts every event by name.
"""

from __future__ import annotations

from enum import Enum
from typing import Any, NamedTuple, TypeAlias

from .decisions import DecisionKind
from .records import distinct_kind
from .state import EndReason, Standing


class CardSource(Enum):
    MARKET = "MARKET"
    RESERVE = "RESERVE"


@distinct_kind
class GameStarted(NamedTuple):
    first_seat: int
    num_players: int


@distinct_kind
class GemsTaken(NamedTuple):
    seat: int
    tokens: tuple[int, ...]  # six counts


@distinct_kind
class GemsReturned(NamedTuple):
    seat: int
    tokens: tuple[int, ...]  # six counts


@distinct_kind
class CardReserved(NamedTuple):
    seat: int
    card_id: int | None  # None in a view where the card was drawn unseen by someone else
    deck: int
    blind: bool  # drawn from the top of a deck
    slot: int | None  # market slot it left (None when blind)


@distinct_kind
class GoldReceived(NamedTuple):
    seat: int
    amount: int


@distinct_kind
class CardPurchased(NamedTuple):
    seat: int
    card_id: int
    source: CardSource
    slot: int | None  # market slot it left (None when from the reserve)
    payment: tuple[int, ...]  # six counts paid into the bank


@distinct_kind
class CardRevealed(NamedTuple):
    """A card turned face up into an empty market slot."""

    deck: int
    slot: int
    card_id: int


@distinct_kind
class MarketSlotEmptied(NamedTuple):
    """A market slot left empty because its deck has run out."""

    deck: int
    slot: int


@distinct_kind
class NobleVisited(NamedTuple):
    seat: int
    noble_id: int


@distinct_kind
class DecisionRequired(NamedTuple):
    seat: int
    kind: DecisionKind
    amount: int
    options: tuple[int, ...]


@distinct_kind
class Passed(NamedTuple):
    seat: int


@distinct_kind
class FinalRoundTriggered(NamedTuple):
    seat: int  # the seat whose turn triggered it
    prestige: int


@distinct_kind
class TurnEnded(NamedTuple):
    seat: int
    next_seat: int
    turn: int  # turns completed after this one


@distinct_kind
class GameEnded(NamedTuple):
    reason: EndReason
    ranking: tuple[Standing, ...]
    winners: tuple[int, ...]


# Any event record, the base game's or a registered module's (each module's are NamedTuples in its package).
Event: TypeAlias = tuple[Any, ...]


# One keyword constructor per event the hot path builds (see ``records.py``, "Building records").


def new_gems_taken(*, seat: int, tokens: tuple[int, ...]) -> GemsTaken:
    return tuple.__new__(GemsTaken, (seat, tokens))


def new_card_reserved(*, seat: int, card_id: int | None, deck: int, blind: bool, slot: int | None) -> CardReserved:
    return tuple.__new__(CardReserved, (seat, card_id, deck, blind, slot))


def new_gold_received(*, seat: int, amount: int) -> GoldReceived:
    return tuple.__new__(GoldReceived, (seat, amount))


def new_card_purchased(
    *, seat: int, card_id: int, source: CardSource, slot: int | None, payment: tuple[int, ...]
) -> CardPurchased:
    return tuple.__new__(CardPurchased, (seat, card_id, source, slot, payment))


def new_card_revealed(*, deck: int, slot: int, card_id: int) -> CardRevealed:
    return tuple.__new__(CardRevealed, (deck, slot, card_id))


def new_market_slot_emptied(*, deck: int, slot: int) -> MarketSlotEmptied:
    return tuple.__new__(MarketSlotEmptied, (deck, slot))


def new_decision_required(*, seat: int, kind: DecisionKind, amount: int, options: tuple[int, ...]) -> DecisionRequired:
    return tuple.__new__(DecisionRequired, (seat, kind, amount, options))


def new_turn_ended(*, seat: int, next_seat: int, turn: int) -> TurnEnded:
    return tuple.__new__(TurnEnded, (seat, next_seat, turn))
