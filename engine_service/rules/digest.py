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
from operator import is_

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


# A tuple of the state as last written: the tuple, its canonical text, the texts of its items, and the
# nodes of its items that are written item by item themselves (None for the others).
_Node = tuple[tuple[object, ...], str, list[str], list["_Node | None"]]
_NO_NODE: _Node = ((), "", [], [])


class IncrementalDigest:
    """``state_digest`` of the successive states of one game (a replay), writing again only the parts a move replaced.

    The core's states share every part a move left alone (the same tuple objects). The canonical
    text of each tuple, at every depth, is kept at its place in the state (field, then index
    within its parent) with the object it was written from, and reused while that place holds
    the same object. One version per place is kept, so the memory is one state's.
    """

    def __init__(self) -> None:
        self._last: _Node = _NO_NODE  # the digested fields of the last state: the others, then the module states

    def digest(self, state: GameState) -> str:
        self._last = _node((*state[:-1], *state.module_states), self._last, True)
        return hashlib.sha256(self._last[1].encode("ascii")).hexdigest()


def _node(value: tuple[object, ...], previous: _Node, record: bool) -> _Node:
    """``value`` written from ``previous``, the node last written at its place: only its replaced items again."""
    old_value, _, old_texts, old_nodes = previous
    size = len(value)
    if size == len(old_value):  # copied, then the replaced items overwritten
        texts = old_texts.copy()
        nodes = old_nodes.copy()
    else:
        old_value = ()
        texts = ["null"] * size
        nodes = [None] * size
    kept = len(old_value)
    for index, item in enumerate(value):
        if index < kept:
            old = old_value[index]
            if old is item:
                continue
        else:
            old = None
        if type(item) is int:
            texts[index] = str(item)
            nodes[index] = None
        elif isinstance(item, tuple):
            text = ""
            if type(old) is tuple and nodes[index] is None:
                text = _tail_text(item, old, texts[index])
            if not text:
                text = _flat_text(item)
            if text:
                texts[index] = text
                nodes[index] = None
            else:
                child = nodes[index]
                child = _node(item, _NO_NODE if child is None else child, hasattr(item, "_fields"))
                texts[index] = child[1]
                nodes[index] = child
        else:
            texts[index] = _scalar_text(item)
            nodes[index] = None
    if record and size and texts[-1] == "null":  # a record: its trailing null fields are left out
        end = size - 1
        while end and texts[end - 1] == "null":
            end -= 1
        return (value, "[" + ",".join(texts[:end]) + "]", texts, nodes)
    return (value, "[" + ",".join(texts) + "]", texts, nodes)


def _tail_text(value: tuple[object, ...], old: tuple[object, ...], old_text: str) -> str:
    """The text of ``value`` cut from ``old_text`` when ``value`` is ``old`` without its first items (a deck
    drawn from: the same objects, so the same texts), else ""."""
    dropped = len(old) - len(value)
    if dropped <= 0 or not value or value[-1] is not old[-1] or not all(map(is_, value, old[dropped:])):
        return ""
    cut = 0
    for _ in range(dropped):
        cut = old_text.index(",", cut) + 1
    return "[" + old_text[cut:]


def _flat_text(value: tuple[object, ...]) -> str:
    """The text of a tuple of non-negative ints only (or of None too, in a plain tuple: a market row), else "".

    The list's repr, written in C, is their JSON array once its spaces are gone (and None is null); checked by
    what is left between the commas: digits only, so no bool, negative, string or nested item slipped in.
    """
    if not value:
        return "[]"
    first = value[0]
    plain = type(value) is tuple
    if type(first) is int or (first is None and plain):
        text = repr(list(value)).replace(" ", "")
        if text[1:-1].replace(",", "").isdigit():
            return text
        if plain and "None" in text:  # a record's trailing None would be left out: records never come here
            text = text.replace("None", "null")
            if text[1:-1].replace(",", "").replace("null", "").isdigit():
                return text
    return ""


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
