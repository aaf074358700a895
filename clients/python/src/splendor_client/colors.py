"""Colour names and token counts: the friendly side of ``Color``, ``TokenCounts`` and ``GemCounts``.

Colours are named ``white``, ``blue``, ``green``, ``red``, ``black`` and ``gold``
(the five gem colours, then the wild token), matching the fields of
``TokenCounts`` and the ``COLOR_*`` values of the ``Color`` enum.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final, TypeAlias

from splendor.v1 import common_pb2

ColorValue: TypeAlias = common_pb2.Color.ValueType
ColorLike: TypeAlias = str | int
"""A colour name (case-insensitive, e.g. ``"red"``) or a ``Color`` enum value."""
CountsLike: TypeAlias = Mapping[str, int] | common_pb2.TokenCounts | common_pb2.GemCounts
"""Token counts: a mapping of colour name to count, or a ``TokenCounts``/``GemCounts`` message."""

GEM_NAMES: Final[tuple[str, ...]] = ("white", "blue", "green", "red", "black")
TOKEN_NAMES: Final[tuple[str, ...]] = (*GEM_NAMES, "gold")

_BY_NAME: Final[dict[str, ColorValue]] = {
    "white": common_pb2.COLOR_WHITE,
    "blue": common_pb2.COLOR_BLUE,
    "green": common_pb2.COLOR_GREEN,
    "red": common_pb2.COLOR_RED,
    "black": common_pb2.COLOR_BLACK,
    "gold": common_pb2.COLOR_GOLD,
}
_BY_VALUE: Final[dict[int, str]] = {int(value): name for name, value in _BY_NAME.items()}


def color(value: ColorLike) -> ColorValue:
    """The ``Color`` enum value of a colour name or value.

    >>> color("red") == common_pb2.COLOR_RED
    True

    Raises ``ValueError`` for an unknown name or value (``COLOR_UNSPECIFIED`` included).
    """
    if isinstance(value, str):
        key = value.strip().lower().removeprefix("color_")
        if key not in _BY_NAME:
            raise ValueError(f"unknown colour {value!r}: use one of {', '.join(TOKEN_NAMES)}")
        return _BY_NAME[key]
    if int(value) not in _BY_VALUE:
        raise ValueError(f"unknown colour value {value!r}: use 1-6 (COLOR_WHITE..COLOR_GOLD)")
    return common_pb2.Color.ValueType(int(value))


def color_name(value: int) -> str:
    """The lower-case name of a ``Color`` value (``"red"``), or ``"colour N"`` if it is not one."""
    return _BY_VALUE.get(int(value), f"colour {int(value)}")


def token_counts(counts: CountsLike | None = None, /, **named: int) -> common_pb2.TokenCounts:
    """A ``TokenCounts`` from a mapping, a counts message and/or keyword counts (added together).

    >>> token_counts({"red": 2}, gold=1)
    red: 2
    gold: 1
    <BLANKLINE>

    Raises ``ValueError`` for an unknown colour name or a negative count.
    """
    merged = dict.fromkeys(TOKEN_NAMES, 0)
    sources: list[Mapping[str, int]] = [named]
    if counts is not None:
        sources.insert(0, counts if isinstance(counts, Mapping) else counts_dict(counts))
    for source in sources:
        for name, count in source.items():
            key = name.strip().lower()
            if key not in merged:
                raise ValueError(f"unknown colour {name!r}: use one of {', '.join(TOKEN_NAMES)}")
            if count < 0:
                raise ValueError(f"token counts cannot be negative ({name}={count})")
            merged[key] += int(count)
    return common_pb2.TokenCounts(**merged)


def counts_dict(counts: common_pb2.TokenCounts | common_pb2.GemCounts) -> dict[str, int]:
    """The counts of a message by colour name, in colour order, gold included for ``TokenCounts``."""
    if isinstance(counts, common_pb2.TokenCounts):
        return {
            "white": counts.white,
            "blue": counts.blue,
            "green": counts.green,
            "red": counts.red,
            "black": counts.black,
            "gold": counts.gold,
        }
    return {
        "white": counts.white,
        "blue": counts.blue,
        "green": counts.green,
        "red": counts.red,
        "black": counts.black,
    }


def format_counts(counts: CountsLike, *, empty: str = "nothing") -> str:
    """Counts as text, in colour order and skipping zeros: ``"3 red, 1 gold"`` (``empty`` if all zero)."""
    values = counts if isinstance(counts, Mapping) else counts_dict(counts)
    parts = [f"{values[name]} {name}" for name in TOKEN_NAMES if values.get(name, 0)]
    return ", ".join(parts) if parts else empty


def total(counts: CountsLike) -> int:
    """The number of tokens (or gems) in all."""
    values = counts if isinstance(counts, Mapping) else counts_dict(counts)
    return sum(values.values())
