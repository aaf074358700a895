"""``splendor.v1.EngineService`` over gRPC: a thin adapter around the API's method table.

Each RPC of ``engine_service.api.METHODS`` becomes a unary gRPC handler that runs the
API handler with the ``Call`` the interceptor bound (or a fresh one without it), the
server's ``ApiConfig`` attached, and turns an ``ApiError`` into the call's rich status
(``errors.grpc_status``). Requests are decoded by ``Method.decode``, which never raises:
bytes that are no request reach the handler's path as ``Undecodable`` and are refused there
(REQUEST_UNDECODABLE), logged and counted like any call, instead of gRPC's bare INTERNAL.
"""

from __future__ import annotations

from typing import Any

import grpc

from engine_service.api import METHODS, SERVICE, ApiConfig, ApiError, Call, Method, current_call
from engine_service.api.limits import EXPENSIVE_METHODS
from engine_service.runtime.admission import Admission, invoke_admitted

from .errors import grpc_status


def add_engine_service(server: grpc.Server, config: ApiConfig, admission: Admission | None = None) -> None:
    """Register every method of the table on ``server``, its calls configured by ``config``, its expensive
    calls in ``admission``'s slots (shared with the HTTP server of the process)."""
    admission = admission or Admission(None)
    handlers = {method.name: _grpc_handler(method, config, admission) for method in METHODS}
    server.add_generic_rpc_handlers((grpc.method_handlers_generic_handler(SERVICE, handlers),))
    server.add_registered_method_handlers(SERVICE, handlers)


def _grpc_handler(
    method: Method[Any, Any], config: ApiConfig, admission: Admission | None = None
) -> grpc.RpcMethodHandler[Any, Any]:
    slots = admission or Admission(None)

    # The interceptor gives a method expensive by name a place among the expensive calls at dispatch.
    expensive_by_name = method.name in EXPENSIVE_METHODS

    def behavior(received: tuple[Any, bytes], context: grpc.ServicerContext) -> Any:
        request, data = received
        call = current_call()
        entered = expensive_by_name and call is not None
        if call is None:  # served without the observability interceptor
            call = Call(method.name, is_active=context.is_active, time_remaining=context.time_remaining)
        call.config = config
        call.request_bytes = data
        try:
            return method.encode(invoke_admitted(method, request, call, slots, entered=entered), call)
        except ApiError as error:
            context.abort_with_status(grpc_status(error))

    behavior.__name__ = method.name
    return grpc.unary_unary_rpc_method_handler(
        behavior,
        # The request and its bytes: a plain state's memo key is read from them (Call.request_bytes).
        request_deserializer=lambda data: (method.decode(data), data),
        response_serializer=bytes,  # the behaviour answers the bytes (Method.encode)
    )
