"""``ApiError`` as a Connect error: the same ErrorInfo and BadRequest details as over gRPC.

Connect carries the details as ``google.protobuf.Any`` values (type name and bytes); they
are the very messages the gRPC adapter packs into ``grpc-status-details-bin``, built once
by ``engine_service.api.error_status``, so both transports always agree. Over
gRPC-Web the runtime sends them in ``grpc-status-details-bin`` too.
"""

from __future__ import annotations

from typing import Final

from connectrpc.code import Code as ConnectCode
from connectrpc.errors import ConnectError, ErrorDetail
from protobuf.wkt import Any

from engine_service.api import ApiError
from engine_service.api.error_status import status_message

# The API's codes by their gRPC names; Connect's codes are the same set in lower case.
_CODES: Final = {code.name: code for code in ConnectCode}
_CANCELLED: Final = "CANCELLED"  # Connect spells it "canceled"


def connect_code(grpc_name: str) -> ConnectCode:
    """The Connect code of a gRPC status name (``FAILED_PRECONDITION`` -> ``failed_precondition``)."""
    return ConnectCode.CANCELED if grpc_name == _CANCELLED else _CODES[grpc_name]


def grpc_name(code: ConnectCode) -> str:
    """The gRPC status name of a Connect code, as metrics and logs spell it."""
    return _CANCELLED if code is ConnectCode.CANCELED else code.name


class HandlerError(ConnectError):
    """An error the service's handler answered (every other ``ConnectError`` is the runtime's: the
    request's framing, encoding or compression, found before the handler ran)."""


def connect_error(error: ApiError) -> HandlerError:
    """The Connect error for ``error``, with the gRPC adapter's details."""
    status = status_message(error)
    details = [ErrorDetail(Any(type_url=detail.type_url, value=detail.value)) for detail in status.details]
    return HandlerError(connect_code(error.code.name), error.message, details)
