"""The method table every transport adapter serves: name -> handler, request and response types."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final, Generic, NamedTuple, TypeVar

import structlog
from google.protobuf.message import Message
from splendor.v1 import engine_service_pb2

from . import apply, batch, determinize, handlers, replay, simulate
from .call import Call
from .errors import REQUEST_UNDECODABLE, ApiError, internal_error, refusal

log = structlog.get_logger(__name__)

Request = TypeVar("Request", bound=Message)
Response = TypeVar("Response", bound=Message)

SERVICE: Final = engine_service_pb2.DESCRIPTOR.services_by_name["EngineService"].full_name


@dataclass(frozen=True)
class Method(Generic[Request, Response]):
    """One RPC of the service."""

    name: str  # as in the proto: ApplyAction
    handler: Callable[[Request, Call], Response]
    request_type: type[Request]
    response_type: type[Response]

    @property
    def full_name(self) -> str:
        """``/splendor.v1.EngineService/ApplyAction``, the gRPC path."""
        return f"/{SERVICE}/{self.name}"

    def encode(self, response: Response, call: Call) -> bytes:
        """``response`` in wire bytes: those its handler serialized as its last step (``encoding.encoded``), else
        serialized now."""
        kept = call.encoded_response
        if kept is not None and kept[0] is response:
            return kept[1]
        return response.SerializeToString()

    def decode(self, data: bytes) -> Request | Undecodable:
        """The request in ``data``, or ``Undecodable``: never raises, so that a transport hands bytes that
        are not a request to ``invoke`` like any other, and the refusal is logged and counted."""
        try:
            return self.request_type.FromString(data)
        except Exception as error:  # DecodeError, and whatever else a parser may raise on hostile bytes
            return Undecodable(type(error).__name__)


class Undecodable(NamedTuple):
    """Request bytes that are not a message of the method's request type; ``invoke`` refuses them."""

    error: str  # the parser's exception class, e.g. DecodeError (its message may quote the bytes)


def invoke(method: Method[Request, Response], request: Request | Undecodable, call: Call) -> Response:
    """Run ``method``'s handler: its response, or an ``ApiError`` (its reason recorded on ``call``).

    An ``Undecodable`` request is refused (INVALID_ARGUMENT, REQUEST_UNDECODABLE) without running
    the handler. Any other exception is a bug: logged in full here, the caller gets a bare INTERNAL.
    """
    try:
        if isinstance(request, Undecodable):
            type_name = method.request_type.DESCRIPTOR.full_name
            raise refusal(REQUEST_UNDECODABLE, f"the request bytes are not a valid {type_name} ({request.error})")
        return method.handler(request, call)
    except ApiError as error:
        call.reason = error.reason
        raise
    except Exception:
        log.exception("handler_failed", handler=method.handler.__name__)
        raise internal_error() from None


pb = engine_service_pb2
METHODS: Final[tuple[Method[Any, Any], ...]] = (
    Method("GetCatalog", handlers.get_catalog, pb.GetCatalogRequest, pb.GetCatalogResponse),
    Method("CreateGame", handlers.create_game, pb.CreateGameRequest, pb.CreateGameResponse),
    Method("ListLegalActions", handlers.list_legal_actions, pb.ListLegalActionsRequest, pb.ListLegalActionsResponse),
    Method("ApplyAction", apply.apply_action, pb.ApplyActionRequest, pb.ApplyActionResponse),
    Method("GetPlayerView", handlers.get_player_view, pb.GetPlayerViewRequest, pb.GetPlayerViewResponse),
    Method("ReplayGame", replay.replay_game, pb.ReplayGameRequest, pb.ReplayGameResponse),
    Method("Simulate", simulate.simulate, pb.SimulateRequest, pb.SimulateResponse),
    Method("Determinize", determinize.determinize, pb.DeterminizeRequest, pb.DeterminizeResponse),
    Method("BatchApplyActions", batch.batch_apply_actions, pb.BatchApplyActionsRequest, pb.BatchApplyActionsResponse),
)
METHODS_BY_NAME: Final[dict[str, Method[Any, Any]]] = {method.name: method for method in METHODS}
