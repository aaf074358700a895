"""The transport-independent API: one function per ``splendor.v1.EngineService`` RPC.

``METHODS`` lists them (name, handler, request and response types); a transport adapter
(gRPC in ``engine_service.server``) decodes a request, binds a ``Call``, runs ``invoke``
and encodes the response or the ``ApiError``. Nothing here imports a transport.
"""

from .call import Call, bind, current_call, unbind
from .errors import DOMAIN, INVALID_SEAT, STALE_STATE, ApiError, Code, FieldViolation
from .methods import METHODS, METHODS_BY_NAME, SERVICE, Method, invoke

__all__ = [
    "DOMAIN",
    "INVALID_SEAT",
    "METHODS",
    "METHODS_BY_NAME",
    "SERVICE",
    "STALE_STATE",
    "ApiError",
    "Call",
    "Code",
    "FieldViolation",
    "Method",
    "bind",
    "current_call",
    "invoke",
    "unbind",
]
