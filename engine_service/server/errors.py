"""``ApiError`` as a rich gRPC error: the ``google.rpc.Status`` of ``engine_service.api.error_status``
(ErrorInfo and BadRequest details) in ``grpc-status-details-bin``. See ``engine_service/api/errors.py``
for the codes and reasons.
"""

from __future__ import annotations

import grpc
from grpc_status import rpc_status

from engine_service.api import ApiError
from engine_service.api.error_status import status_message


def grpc_status(error: ApiError) -> grpc.Status:
    """The ``grpc.Status`` (code, message, ``grpc-status-details-bin``) for ``error``."""
    return rpc_status.to_status(status_message(error))
