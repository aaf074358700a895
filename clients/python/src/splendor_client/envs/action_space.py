"""Which actions an environment offers: every stable action id, or only the ids its ruleset can use.

The stable ids (``Catalog.action_id_ranges``) number every action of every module: 8,920
of them, where the base game uses the first 370. A policy's output layer is as wide as
its action space, so ``ActionSpace.for_ruleset`` keeps only the ranges of the base game
and the module in play (370 for the base game), and maps each index to its stable id
(``stable_ids``) and back (``index_of``). An answer the core shares between modules
(``decline``, id 389) is kept whenever a module is in play. Which ids a ruleset uses is
the engine's to say: its catalog names the modules that use each range
(``ActionIdRange.modules``), so a server's catalog gives it without the engine installed.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np
from numpy.typing import NDArray
from splendor.v1 import catalog_pb2

from ..client import module_value

OUTSIDE = -1  # index_of's value for a stable id this space leaves out


class ActionSpace:
    """Indices ``0..size-1`` of an environment's actions, each one stable action id."""

    def __init__(self, stable_ids: Iterable[int], id_count: int) -> None:
        self.stable_ids: NDArray[np.int64] = np.fromiter(stable_ids, np.int64)
        if len(self.stable_ids) == 0 or np.any(np.diff(self.stable_ids) <= 0):
            raise ValueError("an action space needs stable ids in increasing order")
        if self.stable_ids[0] < 0 or self.stable_ids[-1] >= id_count:
            raise ValueError(f"stable ids must lie in 0..{id_count - 1}")
        self.index_of: NDArray[np.int64] = np.full(id_count, OUTSIDE, np.int64)
        self.index_of[self.stable_ids] = np.arange(len(self.stable_ids))
        self.is_full = len(self.stable_ids) == id_count

    @property
    def size(self) -> int:
        return len(self.stable_ids)

    @classmethod
    def full(cls, id_count: int) -> ActionSpace:
        """Every stable id, index = id."""
        return cls(range(id_count), id_count)

    @classmethod
    def for_ruleset(cls, module: str | None, catalog: catalog_pb2.Catalog) -> ActionSpace:
        """The base game's ids, the ranges of ``module`` and the answers modules share, in id order: the ranges
        of ``catalog`` that name no module, or name ``module``."""
        wanted = None if module is None else module_value(module)
        ranges = [
            (item.offset, item.count) for item in catalog.action_id_ranges if not item.modules or wanted in item.modules
        ]
        ids = sorted(stable_id for offset, count in ranges for stable_id in range(offset, offset + count))
        return cls(ids, catalog.action_id_count)

    def indices(self, stable_ids: Sequence[int]) -> NDArray[np.int64]:
        """The indices of stable ids (all inside this space: legal ids always are)."""
        if self.is_full:
            return np.asarray(stable_ids, np.int64)
        return self.index_of[np.asarray(stable_ids, np.int64)]

    def stable_id(self, index: int) -> int:
        """The stable id of an index; ValueError when it is not one."""
        if not 0 <= index < self.size:
            raise ValueError(f"action {index} is outside the action space (0..{self.size - 1})")
        return int(self.stable_ids[index])
