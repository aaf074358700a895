"""``ApiError`` as a ``google.rpc.Status``: the one error model both transports send.

A refusal carries a ``google.rpc.ErrorInfo`` with ``domain="splendor.v1"``, the reason and
the metadata, and, when request fields are at fault, a ``google.rpc.BadRequest`` naming
them; errors without a reason (INTERNAL, a caller that stopped waiting) carry no details.
gRPC sends the message in ``grpc-status-details-bin`` (``engine_service/server/errors.py``),
Connect as its error details (``engine_service/http/errors.py``).
"""

from __future__ import annotations

from google.protobuf import any_pb2
from google.rpc import error_details_pb2, status_pb2

from .errors import DOMAIN, ApiError


def status_message(error: ApiError) -> status_pb2.Status:
    """The ``google.rpc.Status`` (code, message, details) for ``error``."""
    details = []
    if error.reason is not None:
        info = error_details_pb2.ErrorInfo(reason=error.reason, domain=DOMAIN, metadata=dict(error.metadata))
        details.append(_pack(info))
    if error.field_violations:
        violations = [
            error_details_pb2.BadRequest.FieldViolation(field=field, description=description)
            for field, description in error.field_violations
        ]
        details.append(_pack(error_details_pb2.BadRequest(field_violations=violations)))
    return status_pb2.Status(code=error.code.value, message=error.message, details=details)


def _pack(message: object) -> any_pb2.Any:
    packed = any_pb2.Any()
    packed.Pack(message)  # type: ignore[arg-type]  # google.rpc messages are untyped here
    return packed
