"""Immutable records that are equal only to records of their own kind, and how the hot path builds them.

Actions and events are NamedTuples (cheap to build, immutable, hashable), but
plain tuples compare by value alone, so ``TakeTwoGems(2) == ReserveFromDeck(2)``
would hold. ``distinct_kind`` makes equality and hashing include the class.

Building records. A NamedTuple's generated ``__new__`` is an interpreted call, even
from compiled code, and a move builds several records. Each record the hot path
builds therefore has one keyword-only constructor beside its class, ``new_<record>``
(``new_player_state``, ``new_card_revealed``...), that builds the tuple with
``tuple.__new__`` in its fields' order: compiled, a native call with its arguments
resolved at compile time. A call site names every field, so two fields of the same
type cannot be swapped unseen, and ``tests/rules/test_records.py`` checks each
constructor against its record (parameters, order, result) and that ``tuple.__new__``
is used nowhere else but in ``state.py``'s ``with_*`` transitions, each checked equal
to ``_replace``.
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
