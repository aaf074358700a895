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
