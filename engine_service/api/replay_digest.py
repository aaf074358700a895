"""The ``state_digest`` of each state of a replay, writing again only the parts a move replaced.

The rules core's states share every part a move left alone (the same tuple objects). The
canonical text of each tuple, at every depth, is kept at its place in the state (field,
then index within its parent) with the object it was written from, and reused while that
place holds the same object: a move that changes a seat's tokens writes those tokens again
and joins the kept texts of everything else. One version per place is kept, so the memory
is one state's. The text is ``state_digest``'s (``engine_service/rules/digest.py``), byte
for byte; the tests compare the two over random games of every module.
"""

from __future__ import annotations

import hashlib
import json
import re
from enum import Enum
from typing import Final, NamedTuple

from engine_service.rules import DecisionKind, GameState

# The repr of a plain tuple of non-negative ints: written in C, then made into the JSON array.
_INTS_REPR: Final = re.compile(r"\((?:\d+, )*(?:\d+,?)?\)")


class _Node(NamedTuple):
    """A tuple of the state, its canonical text, and the nodes of its tuple items (None for the others)."""

    value: tuple[object, ...]
    text: str
    children: tuple[_Node | None, ...]


class ReplayDigests:
    """``digest(state)`` for the successive states of one game: ``state_digest(state)``, cheaper."""

    def __init__(self) -> None:
        self._fields: list[_Node | None] = []  # by position among the digested fields

    def digest(self, state: GameState) -> str:
        values = [*state[:-1], *state.module_states]
        kept = self._fields
        fields: list[_Node | None] = []
        texts = []
        for index, value in enumerate(values):
            if isinstance(value, tuple):
                node = _node(value, kept[index] if index < len(kept) else None)
                fields.append(node)
                texts.append(node.text)
            else:
                fields.append(None)
                texts.append(_scalar_text(value))
        self._fields = fields
        while texts and texts[-1] == "null":
            texts.pop()
        return hashlib.sha256(("[" + ",".join(texts) + "]").encode("ascii")).hexdigest()


def _node(value: tuple[object, ...], previous: _Node | None) -> _Node:
    if previous is not None and previous.value is value:
        return previous
    if type(value) is tuple and (not value or type(value[0]) is int):
        shown = repr(value)
        if _INTS_REPR.fullmatch(shown):  # decks, tokens, card lists: most of what a move changes
            return _Node(value, "[" + shown[1:-1].replace(" ", "").rstrip(",") + "]", ())
    old = previous.children if previous is not None else ()
    texts = []
    children: list[_Node | None] = []
    for index, item in enumerate(value):
        if type(item) is int:
            children.append(None)
            texts.append(str(item))
        elif isinstance(item, tuple):
            child = _node(item, old[index] if index < len(old) else None)
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
