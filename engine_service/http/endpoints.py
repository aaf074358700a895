"""The API's method table as Connect endpoints, with the message-size limit on responses.

Each endpoint runs the API handler with the ``Call`` the observer bound (``observe.py``), an
expensive call in one of the process's expensive slots, and turns an ``ApiError`` into a
Connect error (a ``HandlerError``: the observer tells the handler's errors from the runtime's).
 Requests are parsed by the runtime with the
``google.protobuf`` codecs (binary and JSON, unknown JSON fields refused), so a message
means the same over every transport.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from connectrpc._server_shared import EndpointUnarySync  # the type EndpointSync.unary returns
from connectrpc.code import Code as ConnectCode
from connectrpc.method import IdempotencyLevel, MethodInfo, StreamType
from connectrpc.request import RequestContext
from connectrpc.server import EndpointSync

from engine_service.api import METHODS, SERVICE, ApiConfig, ApiError, Call, Method, current_call
from engine_service.runtime.admission import Admission, invoke_admitted

from .errors import HandlerError, connect_error

SERVICE_PATH: Final = f"/{SERVICE}"


def method_info(method: Method[Any, Any]) -> MethodInfo[Any, Any]:
    return MethodInfo(
        name=method.name,
        service_name=SERVICE,
        input=method.request_type,
        output=method.response_type,
        idempotency_level=IdempotencyLevel.UNKNOWN,  # POST only: a state does not fit in a URL
        stream_type=StreamType.UNARY,
    )


def endpoints(
    max_message_bytes: int, config: ApiConfig, admission: Admission | None = None
) -> dict[str, EndpointUnarySync[Any, Any]]:
    """``/splendor.v1.EngineService/ApplyAction`` -> its endpoint, for every method, with the server's config
    and the process's admission (its expensive slots, shared with gRPC)."""
    admission = admission or Admission(None)
    return {method.full_name: _endpoint(method, max_message_bytes, config, admission) for method in METHODS}


def _endpoint(
    method: Method[Any, Any], max_message_bytes: int, config: ApiConfig, admission: Admission
) -> EndpointUnarySync[Any, Any]:
    def function(request: Any, ctx: RequestContext[Any, Any]) -> Any:
        call = current_call() or Call(method.name)
        call.config = config  # the key ring and bounds the gRPC side uses too
        try:
            response = invoke_admitted(method, request, call, admission, queue=False)
        except ApiError as error:
            raise connect_error(error) from None
        if response.ByteSize() > max_message_bytes:  # gRPC's max_send_message_length
            message = f"the response is larger than the server's limit of {max_message_bytes} bytes"
            raise HandlerError(ConnectCode.RESOURCE_EXHAUSTED, message)
        return response

    handler: Callable[[Any, RequestContext[Any, Any]], Any] = function
    return EndpointSync.unary(method=method_info(method), function=handler)
