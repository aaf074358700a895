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

from .config import ApiConfig, default_config


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

    The defaults are class attributes, so a call costs only the fields a handler sets
    (one is made for every call, health checks included).

    ``config``: the transport's key ring and bounds (``ApiConfig``), never logged; a call
    without one uses the process default (``settings``).
    """

    reason: str | None = None
    seat: int | None = None
    turn: int | None = None
    action: str | None = None
    validate_only: bool | None = None
    end_reason: str | None = None
    players: int | None = None
    module: str | None = None
    actions: int | None = None
    viewer: int | str | None = None
    game_created: bool = False
    action_applied: bool = False
    state_bytes: int | None = None
    config: ApiConfig | None = None

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

    @property
    def settings(self) -> ApiConfig:
        """The config the transport attached, else the process default."""
        return self.config if self.config is not None else default_config()

    def log_fields(self) -> dict[str, object]:
        """The fields set, by their log names."""
        return {name: value for name, value in vars(self).items() if name in _LOGGED and value is not None}

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
_LOGGED: Final = frozenset(LOG_FIELDS)

_current: ContextVar[Call | None] = ContextVar("splendor_api_call", default=None)


def bind(call: Call) -> Token[Call | None]:
    """Make ``call`` the current call of this thread (until ``unbind``)."""
    return _current.set(call)


def unbind(token: Token[Call | None]) -> None:
    _current.reset(token)


def current_call() -> Call | None:
    """The call a transport bound for the running handler, if any."""
    return _current.get()
