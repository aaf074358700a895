"""Token colours.

Colours are plain ints so that token counts can live in tuples indexed by colour,
which keeps the hot paths of the engine free of dictionary look-ups.
"""

from __future__ import annotations

from enum import IntEnum
from typing import Final


class Color(IntEnum):
    """The five gem colours and gold, in the order used by every count tuple."""

    WHITE = 0
    BLUE = 1
    GREEN = 2
    RED = 3
    BLACK = 4
    GOLD = 5


GOLD: Final = 5
GEM_COLORS: Final[tuple[int, ...]] = (0, 1, 2, 3, 4)
TOKEN_KINDS: Final = 6
COLOR_NAMES: Final[tuple[str, ...]] = ("white", "blue", "green", "red", "black", "gold")
NO_TOKENS: Final[tuple[int, ...]] = (0, 0, 0, 0, 0, 0)
NO_BONUSES: Final[tuple[int, ...]] = (0, 0, 0, 0, 0)


def color_by_name(name: str) -> int:
    """The colour index of a colour name such as ``"red"``."""
    return COLOR_NAMES.index(name)


def format_tokens(tokens: tuple[int, ...]) -> str:
    """A short human form of a count tuple, e.g. ``"2 red, 1 gold"``."""
    parts = [f"{count} {COLOR_NAMES[color]}" for color, count in enumerate(tokens) if count]
    return ", ".join(parts) if parts else "nothing"
