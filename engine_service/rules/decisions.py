"""Kinds of pending decision: an open set, the base game's two and those modules register.

A kind is a small immutable value with a stable number and an UPPER_SNAKE name
(the contract's ``DecisionKind`` values are ``DECISION_KIND_<name>``). Each kind
exists once, so kinds compare by identity. The class reads like an enum:
``DecisionKind.RETURN_TOKENS``, ``DecisionKind.CHOOSE_CITY`` once the Cities
module is registered, ``list(DecisionKind)`` for every kind registered.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import ClassVar, Final


class _DecisionKindType(type):
    """Enum-like class access to the registered kinds."""

    _registered: dict[str, DecisionKind]

    def __getattr__(cls, name: str) -> DecisionKind:
        kind = cls._registered.get(name)
        if kind is None:
            raise AttributeError(f"no decision kind {name} is registered")
        return kind

    def __iter__(cls) -> Iterator[DecisionKind]:
        return iter(sorted(cls._registered.values(), key=lambda kind: kind.value))


class DecisionKind(metaclass=_DecisionKindType):
    """A choice the rules leave to a player in the middle of a turn.

    ``colors``: the options are colour indices rather than ids (the contract
    carries them in ``colors``).
    """

    __slots__ = ("colors", "name", "value")
    _registered: ClassVar[dict[str, DecisionKind]] = {}
    _numbers: ClassVar[dict[int, DecisionKind]] = {}

    RETURN_TOKENS: ClassVar[DecisionKind]
    CHOOSE_NOBLE: ClassVar[DecisionKind]

    def __init__(self, value: int, name: str, colors: bool) -> None:
        self.value = value
        self.name = name
        self.colors = colors

    def __repr__(self) -> str:
        return f"DecisionKind.{self.name}"

    def __reduce__(self) -> tuple[object, ...]:
        return (decision_kind, (self.value, self.name, self.colors))

    @classmethod
    def numbered(cls, value: int) -> DecisionKind | None:
        """The registered kind with this number, or None."""
        return cls._numbers.get(value)


def decision_kind(value: int, name: str, colors: bool = False) -> DecisionKind:
    """The kind with this number and name, registered on first use (the same object ever after)."""
    known = DecisionKind._numbers.get(value)
    if known is not None:
        if (known.name, known.colors) != (name, colors):
            raise ValueError(f"decision kind {value} is already {known.name}, not {name}")
        return known
    if name in DecisionKind._registered:
        raise ValueError(f"decision kind {name} already has number {DecisionKind._registered[name].value}")
    if value <= 0 or not name.isidentifier() or name.upper() != name:
        raise ValueError(f"a decision kind has a positive number and an UPPER_SNAKE name, not {value} {name!r}")
    kind = DecisionKind(value, name, colors)
    DecisionKind._registered[name] = kind
    DecisionKind._numbers[value] = kind
    return kind


def remember_decision_kind(kind: DecisionKind) -> None:
    """Register ``kind`` again after ``forget_decision_kind`` (the same object, so identity still holds)."""
    if decision_kind(kind.value, kind.name, kind.colors) is not kind:
        DecisionKind._registered[kind.name] = kind
        DecisionKind._numbers[kind.value] = kind


def forget_decision_kind(kind: DecisionKind) -> None:
    """Unregister a kind (a module registered by a test, once the test is over)."""
    DecisionKind._registered.pop(kind.name, None)
    DecisionKind._numbers.pop(kind.value, None)


RETURN_TOKENS: Final = decision_kind(1, "RETURN_TOKENS")  # over ten tokens: choose which to return
CHOOSE_NOBLE: Final = decision_kind(2, "CHOOSE_NOBLE")  # several nobles qualify: choose the one that visits
DecisionKind.RETURN_TOKENS = RETURN_TOKENS
DecisionKind.CHOOSE_NOBLE = CHOOSE_NOBLE
