"""How the runner reaches an implementation of ``splendor.v1.EngineService``: gRPC, or Connect over HTTP.

Both call any method of the service by name, with the request and response types its descriptor names, so
a method added to the contract needs nothing here. A refusal comes back as ``Refused``: the status code's
gRPC name and the ``google.rpc.ErrorInfo`` of its details.
"""

from __future__ import annotations

import base64
import http.client
import json
from typing import Any, Final, Protocol
from urllib.parse import urlsplit

import grpc  # type: ignore[import-untyped, unused-ignore]
from google.protobuf import message_factory
from google.protobuf.message import DecodeError, Message
from google.rpc import error_details_pb2  # type: ignore[import-untyped, unused-ignore]
from splendor.v1 import engine_service_pb2

from splendor_client.errors import from_rpc_error

SERVICE: Final = engine_service_pb2.DESCRIPTOR.services_by_name["EngineService"]
PROTOCOLS: Final = ("grpc", "connect")
_ERROR_INFO_TYPE: Final = "google.rpc.ErrorInfo"


class Refused(Exception):
    """The call was refused: its status code (gRPC's name), ErrorInfo reason and domain, and message."""

    def __init__(self, code: str, reason: str, domain: str, message: str) -> None:
        super().__init__(f"{code} {reason}: {message}" if reason else f"{code}: {message}")
        self.code = code
        self.reason = reason
        self.domain = domain
        self.message = message


class Transport(Protocol):
    """Calls one method of the service; raises ``Refused`` when the call fails."""

    def call(self, method: str, request: Message) -> Message: ...

    def close(self) -> None: ...


def message_types(method: str) -> tuple[type[Message], type[Message]]:
    """The request and response classes of a method of the service (KeyError for an unknown one)."""
    descriptor = SERVICE.methods_by_name[method]
    return message_factory.GetMessageClass(descriptor.input_type), message_factory.GetMessageClass(
        descriptor.output_type
    )


class GrpcTransport:
    """gRPC over plaintext HTTP/2 (``host:port``)."""

    def __init__(self, address: str, timeout: float) -> None:
        self._channel = grpc.insecure_channel(address)
        self._timeout = timeout
        self._callables: dict[str, Any] = {}

    def call(self, method: str, request: Message) -> Message:
        unary = self._callables.get(method)
        if unary is None:
            _, response_type = message_types(method)
            unary = self._channel.unary_unary(
                f"/{SERVICE.full_name}/{method}",
                request_serializer=lambda message: message.SerializeToString(),
                response_deserializer=response_type.FromString,
            )
            self._callables[method] = unary
        try:
            response: Message = unary(request, timeout=self._timeout)
        except grpc.RpcError as error:
            engine_error = from_rpc_error(error)
            raise Refused(
                engine_error.code_name, engine_error.reason, engine_error.domain, engine_error.message
            ) from None
        return response

    def close(self) -> None:
        self._channel.close()


class ConnectTransport:
    """The Connect protocol's unary calls with binary messages (``application/proto``) over HTTP/1.1: ``host:port``
    or ``http://host:port`` (``https://`` for TLS)."""

    def __init__(self, address: str, timeout: float) -> None:
        url = urlsplit(address if "://" in address else f"http://{address}")
        if url.scheme not in {"http", "https"} or not url.hostname:
            raise ValueError(f"not an HTTP address: {address!r}")
        connection_type = http.client.HTTPSConnection if url.scheme == "https" else http.client.HTTPConnection
        self._connection = connection_type(url.hostname, url.port, timeout=timeout)
        self._prefix = url.path.rstrip("/")
        self._timeout_ms = str(int(timeout * 1000))

    def call(self, method: str, request: Message) -> Message:
        _, response_type = message_types(method)
        headers = {
            "Content-Type": "application/proto",
            "Connect-Protocol-Version": "1",
            "Connect-Timeout-Ms": self._timeout_ms,
        }
        self._connection.request(
            "POST", f"{self._prefix}/{SERVICE.full_name}/{method}", request.SerializeToString(), headers
        )
        answer = self._connection.getresponse()
        body = answer.read()
        if answer.status == 200:
            try:
                return response_type.FromString(body)
            except DecodeError as error:
                raise Refused("INTERNAL", "", "", f"the response is not a {response_type.__name__}: {error}") from None
        raise _connect_refusal(answer.status, body)

    def close(self) -> None:
        self._connection.close()


def _connect_refusal(status: int, body: bytes) -> Refused:
    """A Connect error body (JSON: code, message, details) as ``Refused``."""
    try:
        error = json.loads(body)
    except ValueError:
        return Refused("UNKNOWN", "", "", f"HTTP {status} without a Connect error: {body[:200]!r}")
    code = str(error.get("code", "unknown")).upper()
    reason = domain = ""
    for detail in error.get("details", ()):
        if detail.get("type") == _ERROR_INFO_TYPE:
            value = str(detail.get("value", ""))
            info = error_details_pb2.ErrorInfo.FromString(base64.b64decode(value + "=" * (-len(value) % 4)))
            reason, domain = str(info.reason), str(info.domain)
    return Refused(code, reason, domain, str(error.get("message", "")))


def open_transport(protocol: str, address: str, timeout: float) -> Transport:
    """A transport of ``protocol`` (one of ``PROTOCOLS``) to ``address``."""
    if protocol == "grpc":
        return GrpcTransport(address, timeout)
    if protocol == "connect":
        return ConnectTransport(address, timeout)
    raise ValueError(f"unknown protocol {protocol!r}: use one of {', '.join(PROTOCOLS)}")
