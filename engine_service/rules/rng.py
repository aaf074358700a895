"""The documented shuffle every game derives from its seed.

Python's ``random`` may change between versions, so the engine uses its own
generator, whose output is fixed by this file alone:

* **SplitMix64** (Steele, Lea and Flood, 2014): state += 0x9E3779B97F4A7C15, then
  the mix ``z = (z ^ z>>30) * 0xBF58476D1CE4E5B9; z = (z ^ z>>27) * 0x94D049BB133111EB;
  z ^ z>>31``, all modulo 2**64.
* **Streams**: each random decision of setup has its own stream, a SplitMix64 seeded
  with ``seed XOR salt`` where the salt is fixed per purpose (``Stream``). Adding a
  module's stream later never changes the draws of the base game.
* **Bounded integers** in ``[0, n)`` by rejection: draw 64-bit values until one is
  below the largest multiple of ``n``, then take it modulo ``n`` (no bias).
* **Shuffle**: Fisher-Yates from the last position down: for ``i = len-1 .. 1`` swap
  position ``i`` with ``j = below(i + 1)``. Index 0 of the result is the top of a deck.
"""

from __future__ import annotations

from enum import IntEnum
from typing import Final, TypeVar

_MASK64: Final = (1 << 64) - 1
_GOLDEN_GAMMA: Final = 0x9E3779B97F4A7C15

T = TypeVar("T")


class Stream(IntEnum):
    """The purpose of a random stream; the value is the salt XORed into the seed."""

    FIRST_SEAT = 0x5EA7_0000_0000_0001
    NOBLES = 0x7AB1_E500_0000_0002
    DECK_LEVEL_1 = 0xDEC4_0000_0000_0011
    DECK_LEVEL_2 = 0xDEC4_0000_0000_0012
    DECK_LEVEL_3 = 0xDEC4_0000_0000_0013
    CITIES = 0xC171_E500_0000_0003
    CITY_SIDES = 0xC171_E500_0000_0004
    ORIENT_LEVEL_1 = 0x0E1E_0000_0000_0021
    ORIENT_LEVEL_2 = 0x0E1E_0000_0000_0022
    ORIENT_LEVEL_3 = 0x0E1E_0000_0000_0023


class SplitMix64:
    """The SplitMix64 generator."""

    __slots__ = ("_state",)

    def __init__(self, seed: int) -> None:
        self._state = seed & _MASK64

    def next_u64(self) -> int:
        self._state = (self._state + _GOLDEN_GAMMA) & _MASK64
        z = self._state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
        return z ^ (z >> 31)

    def below(self, bound: int) -> int:
        """An unbiased integer in ``[0, bound)``."""
        if bound <= 0:
            raise ValueError("bound must be positive")
        limit = (1 << 64) - (1 << 64) % bound
        while True:
            value = self.next_u64()
            if value < limit:
                return value % bound


def stream(seed: int, purpose: Stream) -> SplitMix64:
    """The generator for one purpose of one game."""
    return SplitMix64(seed ^ int(purpose))


def shuffled(items: tuple[T, ...], generator: SplitMix64) -> tuple[T, ...]:
    """A Fisher-Yates shuffle of ``items`` (see the module docstring)."""
    result = list(items)
    for i in range(len(result) - 1, 0, -1):
        j = generator.below(i + 1)
        result[i], result[j] = result[j], result[i]
    return tuple(result)
