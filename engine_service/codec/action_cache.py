"""Core actions by the wire form of their message, converted once per process.

The actions of every game come from a small vocabulary (a few thousand across the base game and
the modules: measured, a cache warmed on 45 random games answers 95% of the actions of 45 others),
so a replay mostly looks its actions up instead of converting them field by field. A message
that does not convert raises as ``action_from_proto`` does and is not kept. The cache is bounded
(in entries, and only short messages are kept, so a stranger's padded actions cannot grow it),
emptied when full, and emptied whenever the registered modules change, since the conversion
follows them.
"""

from __future__ import annotations

from typing import Final

from splendor.v1 import actions_pb2

from engine_service.rules import Action, registry

from .actions import action_from_proto

# Real actions take a few bytes; longer messages (unknown fields, padding) are converted every time.
LONGEST_KEPT: Final = 64


class ActionCache:
    """At most ``capacity`` converted actions by wire form (dict operations are atomic: threads may share it)."""

    def __init__(self, capacity: int) -> None:
        self._capacity = capacity
        self._by_wire: dict[bytes, Action] = {}

    def action(self, msg: actions_pb2.Action) -> Action:
        """``action_from_proto(msg)``, from the cache when a message of the same wire form was converted."""
        wire = msg.SerializeToString()
        action = self._by_wire.get(wire)
        if action is None:
            action = action_from_proto(msg)
            if len(wire) <= LONGEST_KEPT:
                if len(self._by_wire) >= self._capacity:
                    self._by_wire.clear()
                self._by_wire[wire] = action
        return action

    def clear(self) -> None:
        self._by_wire.clear()

    def __len__(self) -> int:
        return len(self._by_wire)


ACTIONS: Final = ActionCache(capacity=16384)
registry.on_change(ACTIONS.clear)
