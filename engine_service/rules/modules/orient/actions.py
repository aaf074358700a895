"""The Orient module's answers and their action ids."""

from __future__ import annotations

from typing import Final, NamedTuple

from ...action_ids import IdRange, id_range
from ...catalog import CARD_ID_SPACE, NOBLE_ID_SPACE
from ...records import distinct_kind


@distinct_kind
class PairCard(NamedTuple):
    """The Orient: answer to PAIR_CARD, the owned card the new paired card attaches to."""

    card_id: int


@distinct_kind
class TakeFreeCard(NamedTuple):
    """The Orient: answer to TAKE_FREE_CARD, the face-up card taken for free."""

    card_id: int


@distinct_kind
class ReserveNoble(NamedTuple):
    """The Orient: answer to RESERVE_NOBLE, the noble only you can now be visited by."""

    noble_id: int


ACTION_IDS: Final[tuple[IdRange, ...]] = (
    id_range(570, PairCard, CARD_ID_SPACE, "card_id", "the card id of the partner (the Orient)"),
    id_range(690, TakeFreeCard, CARD_ID_SPACE, "card_id", "the card id (the Orient)"),
    id_range(810, ReserveNoble, NOBLE_ID_SPACE, "noble_id", "the noble id (the Orient)"),
)
