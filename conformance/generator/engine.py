"""The engine the vectors come from: the API's handlers, called in-process as a transport calls them."""

from __future__ import annotations

from typing import Any

from google.protobuf.message import Message
from splendor_client.conformance.vectors import Refusal

from engine_service.api import METHODS_BY_NAME, ApiConfig, ApiError, Call, invoke
from engine_service.sealing import KeyRing


class Engine:
    """Calls one RPC of the API at a time, with a key ring of its own (tokens are normalised in the vectors)."""

    def __init__(self) -> None:
        self._config = ApiConfig(KeyRing.generate())

    def call(self, method: str, request: Message) -> Any:
        """The response, or the ``Refusal`` (code and reason) the call was refused with."""
        call = Call(method)
        call.config = self._config
        try:
            return invoke(METHODS_BY_NAME[method], request, call)
        except ApiError as error:
            return Refusal(error.code.name, error.reason or "")

    def answer(self, method: str, request: Message) -> Any:
        """The response of a call that must succeed (a bug in the generator otherwise)."""
        outcome = self.call(method, request)
        if isinstance(outcome, Refusal):
            raise AssertionError(f"{method} refused while generating: {outcome}")
        return outcome
