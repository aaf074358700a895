"""The transport-independent API: one function per ``splendor.v1.EngineService`` RPC.

``METHODS`` lists them (name, handler, request and response types); a transport adapter
(gRPC in ``engine_service.server``) decodes a request with ``Method.decode`` (which never
raises), binds a ``Call`` carrying its ``ApiConfig`` (key ring, bounds), runs ``invoke`` and
encodes the response or the ``ApiError``. Nothing here imports a transport.
"""

from .call import Call, bind, current_call, unbind
from .config import ApiConfig, default_config
from .errors import DOMAIN, INVALID_SEAT, STALE_STATE, ApiError, Code, FieldViolation
from .methods import METHODS, METHODS_BY_NAME, SERVICE, Method, Undecodable, invoke

__all__ = [
    "DOMAIN",
    "INVALID_SEAT",
    "METHODS",
    "METHODS_BY_NAME",
    "SERVICE",
    "STALE_STATE",
    "ApiConfig",
    "ApiError",
    "Call",
    "Code",
    "FieldViolation",
    "Method",
    "Undecodable",
    "bind",
    "current_call",
    "default_config",
    "invoke",
    "unbind",
]
