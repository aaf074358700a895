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
from typing import NamedTuple

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


class _Node(NamedTuple):
    """A tuple of the state, its canonical text, and the nodes of its tuple items (None for the others)."""

    value: tuple[object, ...]
    text: str
    children: tuple[_Node | None, ...]


class IncrementalDigest:
    """``state_digest`` of the successive states of one game (a replay), writing again only the parts a move replaced.

    The core's states share every part a move left alone (the same tuple objects). The canonical
    text of each tuple, at every depth, is kept at its place in the state (field, then index
    within its parent) with the object it was written from, and reused while that place holds
    the same object. One version per place is kept, so the memory is one state's.
    """

    def __init__(self) -> None:
        # By position among the digested fields: the value last written, its text, and its node (tuples only).
        # Updated in place where a field changed: most fields of a move's state are the very objects of the last.
        self._values: list[object] = []
        self._texts: list[str] = []
        self._nodes: list[_Node | None] = []

    def digest(self, state: GameState) -> str:
        values = [*state[:-1], *state.module_states]
        if len(values) != len(self._values):  # the first state (a game's count of fields never changes)
            self._values = [None] * len(values)
            self._texts = ["null"] * len(values)
            self._nodes = [None] * len(values)
        kept_values, texts, nodes = self._values, self._texts, self._nodes
        for index, value in enumerate(values):
            if kept_values[index] is value:
                continue
            if isinstance(value, tuple):
                node = _node(value, nodes[index])
                texts[index] = node.text
                nodes[index] = node
            else:
                texts[index] = _scalar_text(value)
                nodes[index] = None
        self._values = values
        end = len(texts)
        while end and texts[end - 1] == "null":
            end -= 1
        return hashlib.sha256(("[" + ",".join(texts[:end]) + "]").encode("ascii")).hexdigest()


def _node(value: tuple[object, ...], previous: _Node | None) -> _Node:
    if previous is not None and previous.value is value:
        return previous
    if type(value) is tuple and (not value or type(value[0]) is int):
        # Decks, tokens, card lists: most of what a move changes. The list's repr, written in C, is their JSON
        # array when nothing but digits and commas is inside (no None, bool, negative or nested item).
        text = repr(list(value)).replace(" ", "")
        if len(text) == 2 or text[1:-1].replace(",", "").isdigit():
            return _Node(value, text, ())
    old = previous.children if previous is not None else ()
    kept = len(old)
    texts: list[str] = []
    children: list[_Node | None] = []
    for index, item in enumerate(value):
        if type(item) is int:
            children.append(None)
            texts.append(str(item))
        elif isinstance(item, tuple):
            child = old[index] if index < kept else None
            if child is None or child.value is not item:
                child = _node(item, child)
            children.append(child)
            texts.append(child.text)
        else:
            children.append(None)
            texts.append(_scalar_text(item))
    if hasattr(value, "_fields"):  # a record: its trailing null fields are left out
        while texts and texts[-1] == "null":
            texts.pop()
    return _Node(value, "[" + ",".join(texts) + "]", tuple(children))


def _scalar_text(value: object) -> str:
    kind = type(value)
    if kind is int:
        return str(value)
    if value is None:
        return "null"
    if kind is bool:
        return "true" if value else "false"
    if isinstance(value, (Enum, DecisionKind)):
        return json.dumps(value.name)
    if kind is str:
        return json.dumps(value)
    if isinstance(value, frozenset):  # the modules of the config: names
        return "[" + ",".join(json.dumps(item) for item in sorted(value)) + "]"
    raise TypeError(f"cannot fingerprint {kind.__name__}")
