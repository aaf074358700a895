"""The engine's errors as Python exceptions, with the rich error details parsed.

Every ``grpc.RpcError`` raised by a call of ``EngineClient`` becomes an
``EngineError``:

- ``RuleRejected`` (``FAILED_PRECONDITION``): a well-formed move the rules refuse,
  e.g. reason ``"PILE_BELOW_FOUR"`` or ``"NOT_YOUR_TURN"``;
- ``InvalidRequest`` (``INVALID_ARGUMENT``): a malformed request or an impossible
  state, e.g. reason ``"INVALID_PLAYER_COUNT"``, usually with the faulty request
  field in ``field_violations``; its subclasses ``TokenRefused`` (a game token that
  does not open: ``SEALED_STATE_*``), ``RequestUndecodable``, ``ReplayTooLong`` and
  ``ResponseTooLarge`` name the service's bounds;
- ``PermissionDenied`` (``PERMISSION_DENIED``): a sealed request that names a seat, or
  acts, without that seat's key (``SEAT_KEY_MISSING``), with another key
  (``SEAT_KEY_INVALID``), or with a key of a game dealt before token format 3 whose ring
  key was retired (``SEAT_KEY_RETIRED``);
- plain ``EngineError`` for everything else: ``UNAVAILABLE`` (no server there),
  ``DEADLINE_EXCEEDED``, ``RESOURCE_EXHAUSTED``, ``INTERNAL``...

A refused item of a batch (``EngineClient.apply_batch``) is the same ``EngineError`` its
``ApplyAction`` would have raised, built from the item's ``google.rpc.Status`` (``from_status``).

The reason is the ``google.rpc.ErrorInfo`` reason: a ``RejectionReason`` name
without its ``REJECTION_REASON_`` prefix (see ``splendor/v1/errors.proto``).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import grpc  # type: ignore[import-untyped, unused-ignore]
from google.rpc import error_details_pb2, status_pb2  # type: ignore[import-untyped, unused-ignore]
from grpc_status import rpc_status  # type: ignore[import-untyped, unused-ignore]

_DETAILS_KEY = "grpc-status-details-bin"

DOMAIN = "splendor.v1"
"""The ``ErrorInfo.domain`` of the engine's own errors."""


class EngineError(Exception):
    """A call to the engine failed.

    Attributes:
        code: the ``grpc.StatusCode``.
        message: the status message, for people.
        reason: the ``ErrorInfo`` reason, for programs (``""`` when the error has none).
        domain: the ``ErrorInfo`` domain (``"splendor.v1"`` for the engine's own errors).
        metadata: the ``ErrorInfo`` metadata, such as the acting seat.
        field_violations: ``(field, description)`` pairs from a ``google.rpc.BadRequest``.
        status: the parsed ``google.rpc.Status``, or ``None`` when the error carried none.
    """

    def __init__(
        self,
        code: grpc.StatusCode,
        message: str,
        *,
        reason: str = "",
        domain: str = "",
        metadata: dict[str, str] | None = None,
        field_violations: Iterable[tuple[str, str]] = (),
        status: Any = None,
    ) -> None:
        super().__init__(code, message)
        self.code: grpc.StatusCode = code
        self.message = message
        self.reason = reason
        self.domain = domain
        self.metadata: dict[str, str] = dict(metadata or {})
        self.field_violations: list[tuple[str, str]] = list(field_violations)
        self.status: Any = status

    @property
    def code_name(self) -> str:
        """The status code's name, e.g. ``"FAILED_PRECONDITION"``."""
        name = getattr(self.code, "name", None)
        return name if isinstance(name, str) else str(self.code)

    def __str__(self) -> str:
        head = f"{self.code_name} {self.reason}" if self.reason else self.code_name
        text = f"{head}: {self.message}" if self.message else head
        if self.field_violations:  # the field, and its description unless it only repeats the message
            parts = [
                field if description == self.message else f"{field}: {description}"
                for field, description in self.field_violations
            ]
            text += " (" + "; ".join(parts) + ")"
        return text

    def __repr__(self) -> str:
        return f"{type(self).__name__}(code={self.code_name}, reason={self.reason!r}, message={self.message!r})"


class RuleRejected(EngineError):
    """The rules refuse the move (``FAILED_PRECONDITION``): the request was well formed but illegal now."""


class InvalidRequest(EngineError):
    """The request is malformed or its state impossible (``INVALID_ARGUMENT``)."""


class PermissionDenied(EngineError):
    """A sealed request named a seat, or acted, without that seat's key (``PERMISSION_DENIED``, reason
    ``SEAT_KEY_MISSING``) or with a key that is not that seat's in this game (``SEAT_KEY_INVALID``).
    Nothing changed: send the seat's key (``seat_key``), or look as a spectator (no seat)."""


class TokenRefused(InvalidRequest):
    """A ``sealed_state`` that does not open (reason ``SEALED_STATE_*``): altered, truncated, sealed by
    another deployment or with a retired key. The game must be rebuilt from its action log (``replay``)."""


class RequestUndecodable(InvalidRequest):
    """The request bytes are not the method's request message (``REQUEST_UNDECODABLE``)."""


class ReplayTooLong(InvalidRequest):
    """``replay`` was sent more actions than the service replays in one call (``REPLAY_TOO_LONG``)."""


class ResponseTooLarge(InvalidRequest):
    """The answer would exceed the largest message the service sends (``RESPONSE_TOO_LARGE``)."""


class BatchTooLarge(InvalidRequest):
    """A batch had more items than the service takes in one call (``BATCH_TOO_LARGE``; the bound is the
    catalog's ``limits.max_batch_items``). Nothing was applied: send the items in smaller batches."""


def from_rpc_error(error: Any) -> EngineError:
    """The ``EngineError`` (of the right subclass) for a ``grpc.RpcError`` raised by a call.

    ``error`` needs ``code()``, ``details()`` and ``trailing_metadata()``, as the
    errors raised by gRPC calls have. Details that cannot be parsed are ignored:
    the code and the message are always kept.
    """
    code = _call(error, "code") or grpc.StatusCode.UNKNOWN
    message = _call(error, "details") or ""
    return _error(code, str(message), _rich_status(error))


def from_status(status: Any) -> EngineError:
    """The ``EngineError`` (of the right subclass) for a ``google.rpc.Status``: a batch item's refusal
    (``BatchApplyActionsResult.error``), the error its ``ApplyAction`` would have raised."""
    return _error(_CODE_BY_VALUE.get(status.code, grpc.StatusCode.UNKNOWN), str(status.message), status)


def _error(code: Any, message: str, status: Any) -> EngineError:
    """The error of ``code`` with ``message``, its details read from ``status`` (None: none)."""
    kwargs: dict[str, Any] = {}
    if status is not None:
        kwargs["status"] = status
        for detail in status.details:
            if detail.Is(error_details_pb2.ErrorInfo.DESCRIPTOR):
                info = error_details_pb2.ErrorInfo()
                detail.Unpack(info)
                kwargs["reason"] = str(info.reason)
                kwargs["domain"] = str(info.domain)
                kwargs["metadata"] = {str(key): str(value) for key, value in info.metadata.items()}
            elif detail.Is(error_details_pb2.BadRequest.DESCRIPTOR):
                bad_request = error_details_pb2.BadRequest()
                detail.Unpack(bad_request)
                kwargs["field_violations"] = [
                    (str(violation.field), str(violation.description)) for violation in bad_request.field_violations
                ]
    cls = _CLASS_BY_CODE.get(code, EngineError)
    reason = kwargs.get("reason", "")
    if cls is InvalidRequest:
        cls = TokenRefused if reason.startswith("SEALED_STATE_") else _CLASS_BY_REASON.get(reason, cls)
    return cls(code, message, **kwargs)


def _call(error: Any, method: str) -> Any:
    function = getattr(error, method, None)
    if not callable(function):
        return None
    try:
        return function()
    except Exception:  # a half-built error object must not hide the original failure
        return None


def _rich_status(error: Any) -> Any:
    """The ``google.rpc.Status`` of the error's trailing metadata, if it has a well-formed one.

    ``rpc_status.from_call`` refuses a status whose code or message differs from the
    call's; the details are still the server's word, so they are then read as they are
    (the exception keeps the call's own code and message).
    """
    try:
        return rpc_status.from_call(error)
    except ValueError:
        pass
    except Exception:  # no trailing metadata to read: keep the code and the message only
        return None
    try:
        for key, value in _call(error, "trailing_metadata") or ():
            if key == _DETAILS_KEY:
                return status_pb2.Status.FromString(value)
    except Exception:  # malformed details: keep the code and the message only
        return None
    return None


_CLASS_BY_CODE: dict[Any, type[EngineError]] = {
    grpc.StatusCode.FAILED_PRECONDITION: RuleRejected,
    grpc.StatusCode.INVALID_ARGUMENT: InvalidRequest,
    grpc.StatusCode.PERMISSION_DENIED: PermissionDenied,
}

_CLASS_BY_REASON: dict[str, type[InvalidRequest]] = {
    "REQUEST_UNDECODABLE": RequestUndecodable,
    "REPLAY_TOO_LONG": ReplayTooLong,
    "RESPONSE_TOO_LARGE": ResponseTooLarge,
    "BATCH_TOO_LARGE": BatchTooLarge,
}
# A google.rpc.Status carries the code's number.
_CODE_BY_VALUE: dict[int, Any] = {code.value[0]: code for code in grpc.StatusCode}

__all__ = [
    "DOMAIN",
    "BatchTooLarge",
    "EngineError",
    "InvalidRequest",
    "PermissionDenied",
    "ReplayTooLong",
    "RequestUndecodable",
    "ResponseTooLarge",
    "RuleRejected",
    "TokenRefused",
    "from_rpc_error",
    "from_status",
]
