"""The decision the Cities module asks."""

from __future__ import annotations

from typing import Final

from ...decisions import decision_kind

CHOOSE_CITY: Final = decision_kind(3, "CHOOSE_CITY")  # several cities qualify: choose the one to take
