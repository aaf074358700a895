"""The Orient module's events."""

from __future__ import annotations

from typing import NamedTuple

from ...records import distinct_kind


@distinct_kind
class CardPaired(NamedTuple):
    """The Orient: a paired card attached to an owned card, worth one bonus of its colour."""

    seat: int
    card_id: int
    partner_card_id: int
    color: int


@distinct_kind
class FreeCardTaken(NamedTuple):
    """The Orient: a face-up card taken for free by a card's ability."""

    seat: int
    card_id: int
    deck: int
    slot: int


@distinct_kind
class NobleReserved(NamedTuple):
    """The Orient: a noble set aside that only this seat can be visited by."""

    seat: int
    noble_id: int


@distinct_kind
class CardsDiscarded(NamedTuple):
    """The Orient: owned cards back to the box (gold cards spent, bonus cards sacrificed)."""

    seat: int
    card_ids: tuple[int, ...]


# One keyword constructor per event (see ``engine_service/rules/records.py``, "Building records").


def new_card_paired(*, seat: int, card_id: int, partner_card_id: int, color: int) -> CardPaired:
    return tuple.__new__(CardPaired, (seat, card_id, partner_card_id, color))


def new_free_card_taken(*, seat: int, card_id: int, deck: int, slot: int) -> FreeCardTaken:
    return tuple.__new__(FreeCardTaken, (seat, card_id, deck, slot))


def new_noble_reserved(*, seat: int, noble_id: int) -> NobleReserved:
    return tuple.__new__(NobleReserved, (seat, noble_id))


def new_cards_discarded(*, seat: int, card_ids: tuple[int, ...]) -> CardsDiscarded:
    return tuple.__new__(CardsDiscarded, (seat, card_ids))
