"""The per-call context: what a handler learned about its call, for logs, metrics and traces.

A transport creates one ``Call`` per request (``bind`` makes it the current one for the
handler's thread), the handler fills it in as it goes, and the transport's observability
reads it afterwards: it never has to look into requests or error statuses again. It also
tells a long handler whether it should go on: its caller is still waiting (the transport's
deadline, a disconnect) and the server's own time budget for the call is not spent.

Only public facts are logged, counted or traced: seats, turns, action kinds, reasons, counts
(``LOG_FIELDS`` and the metric facts). Never a state, a card, the seed or an error message (a
malformed state's message may quote its cards). The call also carries what its transport and its
handler hand each other for the call's own work, the request's and the response's bytes and a
plain move's new state (``request_bytes``, ``encoded_response``, ``answered_state``): none of it
is ever read by observability.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from contextvars import ContextVar, Token
from typing import Final

from engine_service.rules import GameState

from .config import ApiConfig, default_config

# A deadline at least this long that passes while a call queues is the server's fault (runtime/deadlines.py).
MIN_BLAMED_DEADLINE_SECONDS: Final = 1.0


def _always_active() -> bool:
    return True


def _no_deadline() -> float | None:
    return None


class _Limits:
    """How long a call (and each of its items) may go on: its caller, the server's budget, a cancellation."""

    __slots__ = ("budget_ends", "caller_active", "caller_remaining", "cancelled")

    def __init__(
        self,
        caller_active: Callable[[], bool],
        caller_remaining: Callable[[], float | None],
        budget_ends: float | None,
    ) -> None:
        # Is the caller still waiting, and how long it will wait (None: no deadline)?
        self.caller_active = caller_active
        self.caller_remaining = caller_remaining
        self.budget_ends = budget_ends  # time.monotonic() when the server's budget ends (None: no budget)
        self.cancelled = False

    def is_active(self) -> bool:
        if self.cancelled:
            return False
        if self.budget_ends is not None and time.monotonic() >= self.budget_ends:
            return False
        return self.caller_active()

    def time_remaining(self) -> float | None:
        caller = self.caller_remaining()
        if self.budget_ends is None:
            return caller
        own = self.budget_ends - time.monotonic()
        return own if caller is None else min(own, caller)


class Call:
    """One call's facts. Fields left at None are not logged.

    Log fields: ``seat`` (the acting seat), ``turn``, ``action`` (the action kind),
    ``validate_only``, ``reason`` (the refusal's reason), ``end_reason``, ``players``,
    ``module``, ``actions`` (number replayed), ``viewer`` (a seat or ``spectator``),
    ``items`` and ``items_refused`` (a batch's items, and those refused).
    Metric facts, recorded when the call succeeds: ``game_created`` (counted by
    ``module`` and ``players``), ``action_applied`` (counted by ``action``), ``end_reason``
    (a finished game), ``state_bytes`` (the response state's serialized size), and a
    batch's ``item_calls``: each item's own facts (``item``), and for a refused item its
    ``refusal_code`` (the status code's name) and ``reason``.

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
    items: int | None = None
    items_refused: int | None = None
    item_calls: tuple[Call, ...] = ()
    refusal_code: str | None = None
    config: ApiConfig | None = None
    # The request's bytes as the transport received them (gRPC; empty otherwise): a plain state's memo key is read
    # from them (``source.game_of``), not serialized again. A batch's item gets its own item's bytes.
    request_bytes: bytes = b""
    # A plain ApplyAction's new state, and whether the memo should remember it (a state the call made), once the
    # response is serialized (``encoding.encoded``): its key is its bytes there.
    answered_state: GameState | None = None
    remember_answered: bool = False
    replaced_key: bytes = b""  # the memo key of the state the move left (its entry gives way to the new state's)
    # The handler's response and its wire bytes, when it serialized it as its last step (``encoding.encoded``):
    # ``Method.encode`` sends those bytes rather than serializing it again.
    encoded_response: tuple[object, bytes] | None = None

    def __init__(
        self,
        method: str,
        *,
        is_active: Callable[[], bool] = _always_active,
        time_remaining: Callable[[], float | None] = _no_deadline,
        budget_seconds: float | None = None,
        budget_from: float | None = None,
    ) -> None:
        # The server's own limit on the call's work (--max-call-seconds), whatever the caller allows, counted
        # from ``budget_from`` (``time.monotonic()``; by default now): the time it queued in the server is its.
        start = time.monotonic() if budget_from is None else budget_from
        budget_ends = None if budget_seconds is None else start + budget_seconds
        self._begin(method, start, _Limits(is_active, time_remaining, budget_ends), running=False)

    def _begin(self, method: str, created: float, limits: _Limits, *, running: bool) -> None:
        """The instance's own attributes (a batch's item gets them here too, without ``__init__``)."""
        self.method = method
        self._created = created
        self._limits = limits
        self._running = running

    def is_active(self) -> bool:
        """Should the handler go on: not cancelled, within the server's budget, and the caller still waiting?"""
        return self._limits.is_active()

    def time_remaining(self) -> float | None:
        """Seconds left before the caller's deadline or the server's budget, whichever comes first (None: neither)."""
        return self._limits.time_remaining()

    def item(self, method: str) -> Call:
        """A call of ``method`` for one item of this call (a batch's): its own facts, this call's config,
        caller, budget and cancellation.

        The item shares this call's limits, not the call itself: a batch's calls and items, which hold one
        another otherwise, would be a reference cycle, left to the cyclic collector at every call."""
        item = Call.__new__(Call)
        item._begin(method, self._created, self._limits, running=self._running)
        item.config = self.config
        return item

    def running(self) -> None:
        """Its handler starts (it no longer waits in the server's queues)."""
        self._running = True

    def deadline_cause(self) -> str:
        """For a call that ran out of time, whose time it was: ``server_budget`` (the server's budget ended
        first), ``server_queue`` (the caller allowed ``MIN_BLAMED_DEADLINE_SECONDS`` or more and it passed
        before the handler started) or ``caller`` (``engine_service/runtime/deadlines.py``)."""
        now = time.monotonic()
        limits = self._limits
        caller = limits.caller_remaining()
        caller_ends = None if caller is None else now + caller
        budget_ends = limits.budget_ends
        if budget_ends is not None and (caller_ends is None or budget_ends <= caller_ends):
            return "server_budget"
        if caller_ends is not None and not self._running and caller_ends - self._created >= MIN_BLAMED_DEADLINE_SECONDS:
            return "server_queue"
        return "caller"

    def cancel(self) -> None:
        """The caller went away (a transport noticed): the handler stops at its next check."""
        self._limits.cancelled = True

    @property
    def settings(self) -> ApiConfig:
        """The config the transport attached, else the process default."""
        return self.config if self.config is not None else default_config()

    def log_fields(self) -> dict[str, object]:
        """The fields set, by their log names."""
        return {name: value for name, value in vars(self).items() if name in _LOGGED and value is not None}

    def deadline_passed(self) -> bool:
        """For a call told to stop: was it a deadline or the server's budget (else the caller cancelled)?"""
        if self._limits.cancelled:
            return False
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
    "items",
    "items_refused",
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
