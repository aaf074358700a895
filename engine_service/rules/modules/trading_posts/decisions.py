"""The decision the Trading Posts module asks."""

from __future__ import annotations

from typing import Final

from ...decisions import decision_kind

# Posts 0 and 1: choose the colour of the gem granted (the options are colours).
TAKE_GEM: Final = decision_kind(4, "TAKE_GEM", colors=True)
