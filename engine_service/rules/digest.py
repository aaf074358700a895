"""A canonical fingerprint of a state, identical on every machine and Python version.

The state is written as compact JSON (NamedTuples as arrays in field order, enums
as their names, module sets sorted, None as null) and hashed with SHA-256.
Trailing null fields of a NamedTuple are left out: fields added to the state
later (module states, always defaulting to None) leave the digests of existing
games unchanged. The module states are written after the other fields, each at
its module's slot.
Platforms keep only the action log and compare these digests on replay.
"""

from __future__ import annotations

import hashlib
import json
from enum import Enum

from .decisions import DecisionKind
from .state import GameState

Jsonable = int | str | bool | None | list["Jsonable"]


def _canonical(value: object) -> Jsonable:
    if value is None or (isinstance(value, (bool, int, str)) and not isinstance(value, Enum)):
        return value
    if isinstance(value, (Enum, DecisionKind)):
        return value.name
    if isinstance(value, frozenset):
        return sorted(_canonical(item) for item in value)  # type: ignore[type-var]
    if isinstance(value, GameState):
        # The module states follow the other fields, each at its slot: the form the state had when
        # it named the four built-in modules' fields, so the digests of existing games never change.
        items = [_canonical(item) for item in value[:-1]] + [_canonical(item) for item in value.module_states]
        while items and items[-1] is None:
            items.pop()
        return items
    if isinstance(value, tuple):
        items = [_canonical(item) for item in value]
        if hasattr(value, "_fields"):
            while items and items[-1] is None:
                items.pop()
        return items
    raise TypeError(f"cannot fingerprint {type(value).__name__}")


def state_digest(state: GameState) -> str:
    """SHA-256 hex digest of the canonical form of ``state``."""
    text = json.dumps(_canonical(state), separators=(",", ":"))
    return hashlib.sha256(text.encode("ascii")).hexdigest()


class IncrementalDigest:
    """``state_digest`` of the successive states of one game, writing again only what changed.

    Successive states share the parts a move did not change (the same tuple objects), so
    the text of each top-level field, and of each element of a tuple field (a player, a
    deck, a market row, a module state), is kept from the previous state and reused when
    the object is the same one. The digests equal ``state_digest``'s.
    """

    def __init__(self) -> None:
        self._previous: dict[int, tuple[object, str]] = {}

    def digest(self, state: GameState) -> str:
        current: dict[int, tuple[object, str]] = {}
        fields: list[object] = list(state[:-1]) + list(state.module_states)
        while fields and fields[-1] is None:
            fields.pop()
        text = "[" + ",".join(self._field_text(value, current) for value in fields) + "]"
        self._previous = current
        return hashlib.sha256(text.encode("ascii")).hexdigest()

    def _field_text(self, value: object, current: dict[int, tuple[object, str]]) -> str:
        if isinstance(value, tuple) and not hasattr(value, "_fields"):
            return "[" + ",".join(self._text(item, current) for item in value) + "]"
        return self._text(value, current)

    def _text(self, value: object, current: dict[int, tuple[object, str]]) -> str:
        if not isinstance(value, tuple):
            if type(value) is int:  # the common case, without json's overhead (a bool's type is bool)
                return str(value)
            return json.dumps(_canonical(value), separators=(",", ":"))
        key = id(value)
        known = self._previous.get(key) or current.get(key)
        if known is None or known[0] is not value:
            known = (value, json.dumps(_canonical(value), separators=(",", ":")))
        current[key] = known  # holds the object, so its id cannot be reused while the text is kept
        return known[1]
