"""The per-call context: what a handler learned about its call, for logs, metrics and traces.

A transport creates one ``Call`` per request (``bind`` makes it the current one for the
handler's thread), the handler fills it in as it goes, and the transport's observability
reads it afterwards: it never has to look into requests or error statuses again. It also
tells a long handler whether its caller is still waiting.

Only public facts go in: seats, turns, action kinds, reasons, counts. Never a state, a
card, the seed or an error message (a malformed state's message may quote its cards).
"""

from __future__ import annotations

from collections.abc import Callable
from contextvars import ContextVar, Token
from typing import Final


def _always_active() -> bool:
    return True


def _no_deadline() -> float | None:
    return None


class Call:
    """One call's facts. Fields left at None are not logged.

    Log fields: ``seat`` (the acting seat), ``turn``, ``action`` (the action kind),
    ``validate_only``, ``reason`` (the refusal's reason), ``end_reason``, ``players``,
    ``module``, ``actions`` (number replayed), ``viewer`` (a seat or ``spectator``).
    Metric facts, recorded when the call succeeds: ``game_created`` (counted by
    ``module`` and ``players``), ``action_applied`` (counted by ``action``), ``end_reason``
    (a finished game), ``state_bytes`` (the response state's serialized size).
    """

    __slots__ = (
        "action",
        "action_applied",
        "actions",
        "end_reason",
        "game_created",
        "is_active",
        "method",
        "module",
        "players",
        "reason",
        "seat",
        "state_bytes",
        "time_remaining",
        "turn",
        "validate_only",
        "viewer",
    )

    def __init__(
        self,
        method: str,
        *,
        is_active: Callable[[], bool] = _always_active,
        time_remaining: Callable[[], float | None] = _no_deadline,
    ) -> None:
        self.method = method
        # Is the caller still waiting, and how long it will wait (None: no deadline)?
        self.is_active = is_active
        self.time_remaining = time_remaining
        self.reason: str | None = None
        self.seat: int | None = None
        self.turn: int | None = None
        self.action: str | None = None
        self.validate_only: bool | None = None
        self.end_reason: str | None = None
        self.players: int | None = None
        self.module: str | None = None
        self.actions: int | None = None
        self.viewer: int | str | None = None
        self.game_created = False
        self.action_applied = False
        self.state_bytes: int | None = None

    def log_fields(self) -> dict[str, object]:
        """The fields set, by their log names."""
        fields: dict[str, object] = {}
        for name in LOG_FIELDS:
            value = getattr(self, name)
            if value is not None:
                fields[name] = value
        return fields

    def deadline_passed(self) -> bool:
        """For a caller that stopped waiting: was it its deadline (else it cancelled)?"""
        remaining = self.time_remaining()
        return remaining is not None and remaining <= 0


LOG_FIELDS: Final = (
    "reason",
    "seat",
    "action",
    "turn",
    "validate_only",
    "end_reason",
    "players",
    "module",
    "actions",
    "viewer",
)

_current: ContextVar[Call | None] = ContextVar("splendor_api_call", default=None)


def bind(call: Call) -> Token[Call | None]:
    """Make ``call`` the current call of this thread (until ``unbind``)."""
    return _current.set(call)


def unbind(token: Token[Call | None]) -> None:
    _current.reset(token)


def current_call() -> Call | None:
    """The call a transport bound for the running handler, if any."""
    return _current.get()
