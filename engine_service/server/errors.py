"""``ApiError`` as a rich gRPC error: a google.rpc.Status with ErrorInfo and BadRequest details.

The one place the gRPC error model is built. A refusal carries a ``google.rpc.ErrorInfo``
with ``domain="splendor.v1"``, the reason and the metadata, and, when request fields are
at fault, a ``google.rpc.BadRequest`` naming them; errors without a reason (INTERNAL, a
caller that stopped waiting) carry no details. See ``engine_service/api/errors.py`` for
the codes and reasons.
"""

from __future__ import annotations

import grpc
from google.protobuf import any_pb2
from google.rpc import error_details_pb2, status_pb2  # type: ignore[import-untyped]
from grpc_status import rpc_status

from engine_service.api import DOMAIN, ApiError


def grpc_status(error: ApiError) -> grpc.Status:
    """The ``grpc.Status`` (code, message, ``grpc-status-details-bin``) for ``error``."""
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
    return rpc_status.to_status(status_pb2.Status(code=error.code.value, message=error.message, details=details))


def _pack(message: object) -> any_pb2.Any:
    packed = any_pb2.Any()
    packed.Pack(message)  # type: ignore[arg-type]  # google.rpc messages are untyped here
    return packed
