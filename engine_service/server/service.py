"""The ``splendor.v1.EngineService`` servicer: stateless, one core call per RPC.

Every request carries the state it works on; nothing is kept between calls, so
any replica can answer any call. Handlers raise ``Rejected`` for refusals;
``EngineService._run`` turns that into the call's status (see ``errors.py``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final, TypeVar

import grpc
import structlog
from splendor.v1 import actions_pb2, engine_service_pb2, engine_service_pb2_grpc, state_pb2

from engine_service.rules import (
    ACTION_ID_COUNT,
    GameState,
    Reason,
    RuleViolation,
    action_from_id,
    action_id,
    apply,
    events_for,
    legal_actions,
    new_game,
    state_digest,
    view_for,
)

from .catalog import catalog
from .convert import (
    action_from_proto,
    action_to_proto,
    config_from_proto,
    fill_state,
    fill_view,
    state_from_proto,
    update_state,
)
from .errors import INVALID_SEAT, STALE_STATE, Rejected, abandoned_status, error_status, internal_status, rejection
from .event_convert import events_from_proto, fill_events

log = structlog.get_logger(__name__)

Request = TypeVar("Request")
Response = TypeVar("Response")

# Every action by id, built once: a legal-action list is copied from these.
_LEGAL_ACTIONS: Final[tuple[actions_pb2.LegalAction, ...]] = tuple(
    actions_pb2.LegalAction(action_id=value, action=action_to_proto(action_from_id(value)))
    for value in range(ACTION_ID_COUNT)
)


def _state_of(present: bool, msg: state_pb2.GameState) -> GameState:
    """The validated core state of a request's ``state`` field (``present``: HasField("state"))."""
    if not present:
        violation = RuleViolation(Reason.INVALID_STATE, "the request carries no state", field="")
        raise rejection(violation, prefix="state")
    try:
        return state_from_proto(msg)
    except RuleViolation as violation:
        raise rejection(violation, prefix="state") from None


def get_catalog(request: engine_service_pb2.GetCatalogRequest) -> engine_service_pb2.GetCatalogResponse:
    return engine_service_pb2.GetCatalogResponse(catalog=catalog())


def create_game(request: engine_service_pb2.CreateGameRequest) -> engine_service_pb2.CreateGameResponse:
    try:
        state, events = new_game(config_from_proto(request.config))
    except RuleViolation as violation:
        raise rejection(violation) from None
    response = engine_service_pb2.CreateGameResponse()
    fill_state(response.state, state)
    fill_events(response.events, events)
    return response


def list_legal_actions(
    request: engine_service_pb2.ListLegalActionsRequest,
) -> engine_service_pb2.ListLegalActionsResponse:
    state = _state_of(request.HasField("state"), request.state)
    try:
        listed = [_LEGAL_ACTIONS[action_id(action)] for action in legal_actions(state)]
    except RuleViolation as violation:  # only a state no game reaches has an action without an id
        raise rejection(RuleViolation(Reason.INVALID_STATE, violation.message), prefix="state", field="state") from None
    response = engine_service_pb2.ListLegalActionsResponse(seat=state.acting_seat)
    response.actions.extend(listed)
    return response


def apply_action(request: engine_service_pb2.ApplyActionRequest) -> engine_service_pb2.ApplyActionResponse:
    msg = request.state
    state = _state_of(request.HasField("state"), msg)
    if request.HasField("expected_turn") and request.expected_turn != state.turn:
        message = f"the game is at turn {state.turn}, not {request.expected_turn}: reload the game"
        metadata = {"expected_turn": str(request.expected_turn), "turn": str(state.turn)}
        metadata["acting_seat"] = str(state.acting_seat)
        raise Rejected(error_status(STALE_STATE, message, field="expected_turn", metadata=metadata))
    try:
        action = action_from_proto(request.action)
    except RuleViolation as violation:
        raise rejection(violation, prefix="action", state=state) from None
    seat = request.seat if request.HasField("seat") else None
    try:
        new_state, events = apply(state, action, seat)
    except RuleViolation as violation:
        field = "seat" if violation.reason is Reason.NOT_YOUR_TURN else None
        kind = request.action.WhichOneof("kind")
        raise rejection(violation, prefix="action", state=state, action_kind=kind, field=field) from None
    response = engine_service_pb2.ApplyActionResponse()
    # Patching a copy of the request's state beats writing the whole state afresh.
    out = response.state
    out.CopyFrom(msg)
    if request.validate_only:
        update_state(out, state, state)
    else:
        update_state(out, state, new_state)
        fill_events(response.events, events)
    return response


def get_player_view(request: engine_service_pb2.GetPlayerViewRequest) -> engine_service_pb2.GetPlayerViewResponse:
    state = _state_of(request.HasField("state"), request.state)
    viewer = request.seat if request.HasField("seat") else None
    num_players = state.config.num_players
    if viewer is not None and viewer >= num_players:
        message = f"seat {viewer} is not a seat of this {num_players}-player game"
        metadata = {"seat": str(viewer), "num_players": str(num_players)}
        raise Rejected(error_status(INVALID_SEAT, message, field="seat", metadata=metadata))
    try:
        events = events_from_proto(request.events)
    except RuleViolation as violation:
        raise rejection(violation) from None
    response = engine_service_pb2.GetPlayerViewResponse()
    fill_view(response.view, view_for(state, viewer))
    fill_events(response.events, events_for(events, viewer))
    return response


# ReplayGame is the one long call (about 70 µs an action): it checks every this many
# actions that the client still waits, since gRPC never interrupts a running handler.
REPLAY_CHECK_EVERY: Final = 256


def replay_game(
    request: engine_service_pb2.ReplayGameRequest, context: grpc.ServicerContext | None = None
) -> engine_service_pb2.ReplayGameResponse:
    try:
        state, dealt = new_game(config_from_proto(request.config))
    except RuleViolation as violation:
        raise rejection(violation) from None
    response = engine_service_pb2.ReplayGameResponse()
    fill_events(response.events, dealt)
    digests = []
    for index, msg in enumerate(request.actions):
        if context is not None and index % REPLAY_CHECK_EVERY == 0 and index and not context.is_active():
            remaining = context.time_remaining()
            raise Rejected(abandoned_status(remaining is not None and remaining <= 0))
        prefix = f"actions[{index}]"
        metadata = {"action_index": str(index)}
        try:
            action = action_from_proto(msg)
        except RuleViolation as violation:
            raise rejection(violation, prefix=prefix, state=state, metadata=metadata) from None
        try:
            state, events = apply(state, action)
        except RuleViolation as violation:
            kind = msg.WhichOneof("kind")
            raise rejection(violation, prefix=prefix, state=state, action_kind=kind, metadata=metadata) from None
        fill_events(response.events, events)
        digests.append(state_digest(state))
    fill_state(response.state, state)
    response.state_digests.extend(digests)
    return response


class EngineService(engine_service_pb2_grpc.EngineServiceServicer):
    """The gRPC face of the handlers above."""

    def GetCatalog(  # noqa: N802 (gRPC method names)
        self, request: engine_service_pb2.GetCatalogRequest, context: grpc.ServicerContext
    ) -> engine_service_pb2.GetCatalogResponse:
        return _run(context, get_catalog, request)

    def CreateGame(  # noqa: N802
        self, request: engine_service_pb2.CreateGameRequest, context: grpc.ServicerContext
    ) -> engine_service_pb2.CreateGameResponse:
        return _run(context, create_game, request)

    def ListLegalActions(  # noqa: N802
        self, request: engine_service_pb2.ListLegalActionsRequest, context: grpc.ServicerContext
    ) -> engine_service_pb2.ListLegalActionsResponse:
        return _run(context, list_legal_actions, request)

    def ApplyAction(  # noqa: N802
        self, request: engine_service_pb2.ApplyActionRequest, context: grpc.ServicerContext
    ) -> engine_service_pb2.ApplyActionResponse:
        return _run(context, apply_action, request)

    def GetPlayerView(  # noqa: N802
        self, request: engine_service_pb2.GetPlayerViewRequest, context: grpc.ServicerContext
    ) -> engine_service_pb2.GetPlayerViewResponse:
        return _run(context, get_player_view, request)

    def ReplayGame(  # noqa: N802
        self, request: engine_service_pb2.ReplayGameRequest, context: grpc.ServicerContext
    ) -> engine_service_pb2.ReplayGameResponse:
        return _run(context, lambda message: replay_game(message, context), request)


def _run(context: grpc.ServicerContext, handler: Callable[[Request], Response], request: Request) -> Response:
    try:
        return handler(request)
    except Rejected as rejected:
        status = rejected.status
    except Exception:
        # A bug, never a client's fault: log it in full, tell the client nothing internal.
        log.exception("handler_failed", handler=handler.__name__)
        status = internal_status()
    context.abort_with_status(status)
