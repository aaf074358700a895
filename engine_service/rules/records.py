"""Immutable records that are equal only to records of their own kind.

Actions and events are NamedTuples (cheap to build, immutable, hashable), but
plain tuples compare by value alone, so ``TakeTwoGems(2) == ReserveFromDeck(2)``
would hold. ``distinct_kind`` makes equality and hashing include the class.
"""

from __future__ import annotations

from typing import TypeVar

T = TypeVar("T", bound=type)


def _eq(self: tuple[object, ...], other: object) -> bool:
    return type(self) is type(other) and tuple.__eq__(self, other)


def _ne(self: tuple[object, ...], other: object) -> bool:
    return not _eq(self, other)


def _hash(self: tuple[object, ...]) -> int:
    return hash((type(self).__name__, tuple.__hash__(self)))


_METHODS = {"__eq__": _eq, "__ne__": _ne, "__hash__": _hash}


def distinct_kind(cls: T) -> T:
    """Class decorator for a NamedTuple: equal only to instances of the same class."""
    for name, method in _METHODS.items():
        setattr(cls, name, method)
    return cls
