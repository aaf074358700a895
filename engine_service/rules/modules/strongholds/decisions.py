"""The decisions the Strongholds module asks."""

from __future__ import annotations

from typing import Final

from ...decisions import decision_kind

# After a purchase: place or move one of yours, or remove another's (options: the cards one may go to).
PLACE_STRONGHOLD: Final = decision_kind(5, "PLACE_STRONGHOLD")
# Buy the card your three strongholds stand on, or decline (options: that card).
CONQUER: Final = decision_kind(6, "CONQUER")
