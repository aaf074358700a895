"""What a finished call's status code means for its log line and the game's metrics, for every transport.

The gRPC interceptor (``engine_service/server/interceptors.py``) and the HTTP observer
(``engine_service/http/observe.py``) both end a call here: the level of its log line from its
code, and the game's series from the facts its handler recorded on the ``Call``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any, Final

from engine_service.api import Call
from engine_service.api.labels import ANSWERED, MEMO_HIT, MEMO_MISS, REFUSED

from .metrics import Metrics

OK: Final = "OK"
ERROR_CODES: Final = frozenset({"UNKNOWN", "INTERNAL", "DATA_LOSS", "UNIMPLEMENTED"})
WARNING_CODES: Final = frozenset({"RESOURCE_EXHAUSTED", "DEADLINE_EXCEEDED", "CANCELLED", "UNAVAILABLE"})
REJECTION_CODES: Final = frozenset({"INVALID_ARGUMENT", "FAILED_PRECONDITION"})
# Log levels by name, for comparing a line's level with the configured minimum.
LEVELS: Final = {"debug": 10, "info": 20, "warning": 30, "error": 40}


def level_for(code: str, quiet: bool = False) -> str:
    """``error`` for server faults, ``warning`` for shedding and abandoned calls; ``debug`` for quiet successes."""
    if code in ERROR_CODES:
        return "error"
    if code in WARNING_CODES:
        return "warning"
    return "debug" if quiet else "info"


class _Counted:
    """A labelled counter whose children are looked up once per label set."""

    __slots__ = ("children", "counter")

    def __init__(self, counter: Any) -> None:
        self.counter = counter
        self.children: dict[tuple[str, ...], Any] = {}

    def inc_all(self, counts: Mapping[tuple[str, ...], int]) -> None:
        """Each label set's count at once (a batch's items: one increment a label set, not one an item)."""
        children = self.children
        for labels, amount in counts.items():
            child = children.get(labels)
            if child is None:
                child = children[labels] = self.counter.labels(*labels)
            child.inc(amount)


class GameMetrics:
    """The game's metrics, fed from each call's ``Call``, and the memo's lookups as each call ends."""

    def __init__(self, metrics: Metrics) -> None:
        self.games_created = _Counted(metrics.games_created)
        self.actions_applied = _Counted(metrics.actions_applied)
        self.rejections = _Counted(metrics.rejections)
        self.games_finished = _Counted(metrics.games_finished)
        self.batch_items = _Counted(metrics.batch_items)
        self.memo_lookups = _Counted(metrics.memo_lookups)
        self.state_size_bytes = metrics.state_size_bytes

    def record(self, call: Call, code: str) -> None:
        counts = _Counts()
        if code == OK:
            self._succeeded(call, counts)
            refused = 0
            for item in call.item_calls:  # a batch's items, each counted as its own call would be
                item_code = item.refusal_code
                if item_code is None:
                    self._succeeded(item, counts)
                else:
                    refused += 1
                    if item.reason is not None and item_code in REJECTION_CODES:
                        counts.rejections[(item.reason,)] += 1
            answered = len(call.item_calls) - refused
            if answered:
                counts.batch_items[(ANSWERED,)] = answered
            if refused:
                counts.batch_items[(REFUSED,)] = refused
        elif call.reason is not None and code in REJECTION_CODES:
            counts.rejections[(call.reason,)] += 1
        for kind, found, amount in call.settings.memo.take_lookups():
            counts.memo_lookups[(kind, MEMO_HIT if found else MEMO_MISS)] = amount
        # Added up first: a batch's items cost one increment a label set, not one an item.
        for counter, label_counts in (
            (self.batch_items, counts.batch_items),
            (self.rejections, counts.rejections),
            (self.games_created, counts.games_created),
            (self.games_finished, counts.games_finished),
            (self.memo_lookups, counts.memo_lookups),
        ):
            counter.inc_all(label_counts)
        self.actions_applied.inc_all({(action,): amount for action, amount in counts.actions_applied.items()})

    def _succeeded(self, call: Call, counts: _Counts) -> None:
        if call.state_bytes is not None:
            self.state_size_bytes.observe(call.state_bytes)
        if call.game_created:
            counts.games_created[(str(call.module), str(call.players))] += 1
        if call.action_applied:
            applied = counts.actions_applied
            action = str(call.action)
            applied[action] = applied.get(action, 0) + 1
        if call.end_reason is not None:
            counts.games_finished[(call.end_reason,)] += 1


class _Counts:
    """A call's counts by label set (a batch's items' added up), before they are counted."""

    __slots__ = ("actions_applied", "batch_items", "games_created", "games_finished", "memo_lookups", "rejections")

    def __init__(self) -> None:
        self.batch_items: Counter[tuple[str, ...]] = Counter()
        self.rejections: Counter[tuple[str, ...]] = Counter()
        self.games_created: Counter[tuple[str, ...]] = Counter()
        # By the action kind alone: a batch's items add to one plain dictionary (the labels made once a kind).
        self.actions_applied: dict[str, int] = {}
        self.games_finished: Counter[tuple[str, ...]] = Counter()
        self.memo_lookups: Counter[tuple[str, ...]] = Counter()
