"""The Strongholds module's events."""

from __future__ import annotations

from typing import NamedTuple

from ...records import distinct_kind


@distinct_kind
class StrongholdPlaced(NamedTuple):
    """Strongholds: a stronghold put on a face-up card, from the supply or moved from another card."""

    seat: int
    card_id: int
    from_card_id: int | None  # None: from the player's supply


@distinct_kind
class StrongholdRemoved(NamedTuple):
    """Strongholds: ``seat`` gave an opponent's stronghold on ``card_id`` back to ``owner``."""

    seat: int
    card_id: int
    owner: int


@distinct_kind
class StrongholdsReturned(NamedTuple):
    """Strongholds: a card left the market and the strongholds on it went back to their owner."""

    owner: int
    card_id: int
    returned: int  # how many strongholds (the contract's ``count``)


@distinct_kind
class CardConquered(NamedTuple):
    """Strongholds: the conquest purchase of the card all three strongholds stood on (CardPurchased follows)."""

    seat: int
    card_id: int


def new_stronghold_placed(*, seat: int, card_id: int, from_card_id: int | None) -> StrongholdPlaced:
    """A ``StrongholdPlaced`` (see ``engine_service/rules/records.py``, "Building records")."""
    return tuple.__new__(StrongholdPlaced, (seat, card_id, from_card_id))
