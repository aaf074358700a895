"""The Strongholds module's answers and their action ids (the conquest is a ``PurchaseCard``, or ``Decline``)."""

from __future__ import annotations

from typing import Final, NamedTuple

from ...action_ids import IdRange, id_range, in_range
from ...catalog import BASE_CARDS
from ...records import distinct_kind

STRONGHOLD_CARDS: Final = len(BASE_CARDS)  # strongholds stand on base cards only


@distinct_kind
class PlaceStronghold(NamedTuple):
    """Strongholds: answer to PLACE_STRONGHOLD, put one of your strongholds on a face-up card.

    ``from_card_id`` None places one from your supply; a card id moves the one
    standing on that card.
    """

    card_id: int
    from_card_id: int | None = None


@distinct_kind
class RemoveStronghold(NamedTuple):
    """Strongholds: answer to PLACE_STRONGHOLD, give back an opponent's stronghold standing on this card."""

    card_id: int


def _placed_index(action: PlaceStronghold) -> int | None:
    return in_range(STRONGHOLD_CARDS, action.card_id) if action.from_card_id is None else None


def _moved_index(action: PlaceStronghold) -> int | None:
    source, target = in_range(STRONGHOLD_CARDS, action.from_card_id), in_range(STRONGHOLD_CARDS, action.card_id)
    return None if source is None or target is None else STRONGHOLD_CARDS * source + target


MOVE_STRONGHOLD: Final = 820

ACTION_IDS: Final[tuple[IdRange, ...]] = (
    IdRange(
        390,
        STRONGHOLD_CARDS,
        PlaceStronghold,
        _placed_index,
        PlaceStronghold,
        "placing from the supply (from_card_id absent): the card id (a base card, 0-89; the Strongholds)",
    ),
    id_range(480, RemoveStronghold, STRONGHOLD_CARDS, "card_id", "the card id (a base card, 0-89; the Strongholds)"),
    IdRange(
        MOVE_STRONGHOLD,
        STRONGHOLD_CARDS * STRONGHOLD_CARDS,
        PlaceStronghold,
        _moved_index,
        lambda index: PlaceStronghold(index % STRONGHOLD_CARDS, index // STRONGHOLD_CARDS),
        "moving from another card: 90 * from_card_id + card_id (both base cards, 0-89; the Strongholds)",
    ),
)
