"""What a finished call's status code means for its log line and the game's metrics, for every transport.

The gRPC interceptor (``engine_service/server/interceptors.py``) and the HTTP observer
(``engine_service/http/observe.py``) both end a call here: the level of its log line from its
code, and the game's series from the facts its handler recorded on the ``Call``.
"""

from __future__ import annotations

from typing import Any, Final

from engine_service.api import Call
from engine_service.api.labels import ANSWERED, REFUSED

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

    def inc(self, *labels: str) -> None:
        child = self.children.get(labels)
        if child is None:
            child = self.children[labels] = self.counter.labels(*labels)
        child.inc()


class GameMetrics:
    """The game's metrics, fed from each call's ``Call``."""

    def __init__(self, metrics: Metrics) -> None:
        self.games_created = _Counted(metrics.games_created)
        self.actions_applied = _Counted(metrics.actions_applied)
        self.rejections = _Counted(metrics.rejections)
        self.games_finished = _Counted(metrics.games_finished)
        self.batch_items = _Counted(metrics.batch_items)
        self.state_size_bytes = metrics.state_size_bytes

    def record(self, call: Call, code: str) -> None:
        if code == OK:
            self._succeeded(call)
            for item in call.item_calls:  # a batch's items, each counted as its own call would be
                item_code = item.refusal_code or OK
                self.batch_items.inc(ANSWERED if item_code == OK else REFUSED)
                self.record(item, item_code)
        elif call.reason is not None and code in REJECTION_CODES:
            self.rejections.inc(call.reason)

    def _succeeded(self, call: Call) -> None:
        if call.state_bytes is not None:
            self.state_size_bytes.observe(call.state_bytes)
        if call.game_created:
            self.games_created.inc(str(call.module), str(call.players))
        if call.action_applied:
            self.actions_applied.inc(str(call.action))
        if call.end_reason is not None:
            self.games_finished.inc(call.end_reason)
