"""The decisions the Orient module asks."""

from __future__ import annotations

from typing import Final

from ...decisions import decision_kind

PAIR_CARD: Final = decision_kind(7, "PAIR_CARD")  # the owned card a paired card attaches to (options: card ids)
TAKE_FREE_CARD: Final = decision_kind(8, "TAKE_FREE_CARD")  # a face-up card to take for free (options: card ids)
RESERVE_NOBLE: Final = decision_kind(9, "RESERVE_NOBLE")  # the noble to reserve (options: noble ids)
