"""One function per ``splendor.v1.EngineService`` RPC: request message -> response message.

Stateless: every request carries the state it works on. Handlers raise ``ApiError`` for
refusals and record their call's public facts (seat, turn, action kind...) on the
``Call`` they are given; they know nothing of the transport.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from splendor.v1 import actions_pb2, config_pb2, engine_service_pb2, state_pb2

from engine_service.codec import (
    action_from_proto,
    action_to_proto,
    catalog,
    config_from_proto,
    events_from_proto,
    fill_events,
    fill_state,
    fill_view,
    state_from_proto,
    update_state,
)
from engine_service.rules import (
    ACTION_ID_COUNT,
    Action,
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

from .call import Call
from .errors import INVALID_SEAT, STALE_STATE, abandoned, refusal, rejection
from .tracing import BUILD_RESPONSE, CONVERT_REQUEST, RULES, span

# Every action by id, built once: a legal-action list is copied from these.
_LEGAL_ACTIONS: Final[tuple[actions_pb2.LegalAction, ...]] = tuple(
    actions_pb2.LegalAction(action_id=value, action=action_to_proto(action_from_id(value)))
    for value in range(ACTION_ID_COUNT)
)

# ReplayGame is the one long call (about 70 µs an action): it checks every this many
# actions that the caller still waits, since no transport interrupts a running handler.
REPLAY_CHECK_EVERY: Final = 256


def _state_of(present: bool, msg: state_pb2.GameState, call: Call) -> GameState:
    """The validated core state of a request's ``state`` field (``present``: HasField("state")).

    Records the turn: only a valid state has one worth logging.
    """
    if not present:
        violation = RuleViolation(Reason.INVALID_STATE, "the request carries no state", field="")
        raise rejection(violation, prefix="state")
    try:
        state = state_from_proto(msg)
    except RuleViolation as violation:
        raise rejection(violation, prefix="state") from None
    call.turn = state.turn
    return state


def get_catalog(request: engine_service_pb2.GetCatalogRequest, call: Call) -> engine_service_pb2.GetCatalogResponse:
    with span(BUILD_RESPONSE):
        return engine_service_pb2.GetCatalogResponse(catalog=catalog())


def create_game(request: engine_service_pb2.CreateGameRequest, call: Call) -> engine_service_pb2.CreateGameResponse:
    config = request.config
    call.players = config.num_players
    call.module = module_label(config.modules)
    try:
        with span(CONVERT_REQUEST):
            core_config = config_from_proto(config)
        with span(RULES):
            state, events = new_game(core_config)
    except RuleViolation as violation:
        raise rejection(violation) from None
    with span(BUILD_RESPONSE):
        response = engine_service_pb2.CreateGameResponse()
        fill_state(response.state, state)
        fill_events(response.events, events)
        call.state_bytes = response.state.ByteSize()
    call.game_created = True
    return response


def list_legal_actions(
    request: engine_service_pb2.ListLegalActionsRequest, call: Call
) -> engine_service_pb2.ListLegalActionsResponse:
    with span(CONVERT_REQUEST):
        state = _state_of(request.HasField("state"), request.state, call)
    try:
        with span(RULES):
            listed = [_LEGAL_ACTIONS[action_id(action)] for action in legal_actions(state)]
    except RuleViolation as violation:  # only a state no game reaches has an action without an id
        raise rejection(RuleViolation(Reason.INVALID_STATE, violation.message), prefix="state", field="state") from None
    call.seat = state.acting_seat
    with span(BUILD_RESPONSE):
        response = engine_service_pb2.ListLegalActionsResponse(seat=state.acting_seat)
        response.actions.extend(listed)
    return response


def apply_action(request: engine_service_pb2.ApplyActionRequest, call: Call) -> engine_service_pb2.ApplyActionResponse:
    msg = request.state
    kind = request.action.WhichOneof("kind")
    call.action = action_kind(request.action, kind)
    validate_only = request.validate_only
    if validate_only:
        call.validate_only = True
    with span(CONVERT_REQUEST):
        state = _state_of(request.HasField("state"), msg, call)
        call.seat = state.acting_seat
        if request.HasField("expected_turn") and request.expected_turn != state.turn:
            message = f"the game is at turn {state.turn}, not {request.expected_turn}: reload the game"
            metadata = {"expected_turn": str(request.expected_turn), "turn": str(state.turn)}
            metadata["acting_seat"] = str(state.acting_seat)
            raise refusal(STALE_STATE, message, field="expected_turn", metadata=metadata)
        try:
            action = action_from_proto(request.action)
        except RuleViolation as violation:
            raise rejection(violation, prefix="action", state=state) from None
    seat = request.seat if request.HasField("seat") else None
    try:
        with span(RULES):
            new_state, events = apply(state, action, seat)
    except RuleViolation as violation:
        field = "seat" if violation.reason is Reason.NOT_YOUR_TURN else None
        raise rejection(violation, prefix="action", state=state, action_kind=kind, field=field) from None
    with span(BUILD_RESPONSE):
        response = engine_service_pb2.ApplyActionResponse()
        # Patching a copy of the request's state beats writing the whole state afresh.
        out = response.state
        out.CopyFrom(msg)
        if validate_only:
            update_state(out, state, state)
        else:
            update_state(out, state, new_state)
            fill_events(response.events, events)
        call.state_bytes = out.ByteSize()
    if not validate_only:
        call.action_applied = True
        if new_state.end_reason is not None:
            call.end_reason = new_state.end_reason.name
    return response


def get_player_view(
    request: engine_service_pb2.GetPlayerViewRequest, call: Call
) -> engine_service_pb2.GetPlayerViewResponse:
    viewer = request.seat if request.HasField("seat") else None
    call.viewer = "spectator" if viewer is None else viewer
    with span(CONVERT_REQUEST):
        state = _state_of(request.HasField("state"), request.state, call)
        num_players = state.config.num_players
        if viewer is not None and viewer >= num_players:
            message = f"seat {viewer} is not a seat of this {num_players}-player game"
            metadata = {"seat": str(viewer), "num_players": str(num_players)}
            raise refusal(INVALID_SEAT, message, field="seat", metadata=metadata)
        try:
            events = events_from_proto(request.events)
        except RuleViolation as violation:
            raise rejection(violation) from None
    with span(RULES):
        view = view_for(state, viewer)
        seen = events_for(events, viewer)
    with span(BUILD_RESPONSE):
        response = engine_service_pb2.GetPlayerViewResponse()
        fill_view(response.view, view)
        fill_events(response.events, seen)
    return response


def replay_game(request: engine_service_pb2.ReplayGameRequest, call: Call) -> engine_service_pb2.ReplayGameResponse:
    config = request.config
    call.players = config.num_players
    call.module = module_label(config.modules)
    call.actions = len(request.actions)
    with span(RULES):  # the actions are converted and their events written as the game is replayed
        response, state, digests = _replay(request, call)
    with span(BUILD_RESPONSE):
        fill_state(response.state, state)
        response.state_digests.extend(digests)
        call.state_bytes = response.state.ByteSize()
    return response


def _replay(
    request: engine_service_pb2.ReplayGameRequest, call: Call
) -> tuple[engine_service_pb2.ReplayGameResponse, GameState, list[str]]:
    """The events of the replayed game in a new response, its final state and the digest after each action."""
    try:
        state, dealt = new_game(config_from_proto(request.config))
    except RuleViolation as violation:
        raise rejection(violation) from None
    response = engine_service_pb2.ReplayGameResponse()
    fill_events(response.events, dealt)
    digests = []
    for index, msg in enumerate(request.actions):
        if index % REPLAY_CHECK_EVERY == 0 and index and not call.is_active():
            raise abandoned(call.deadline_passed())
        prefix = f"actions[{index}]"
        metadata = {"action_index": str(index)}
        try:
            action = action_from_proto(msg)
        except RuleViolation as violation:
            call.seat = state.acting_seat
            raise rejection(violation, prefix=prefix, state=state, metadata=metadata) from None
        try:
            state, events = apply(state, action)
        except RuleViolation as violation:
            call.seat = state.acting_seat
            kind = msg.WhichOneof("kind")
            raise rejection(violation, prefix=prefix, state=state, action_kind=kind, metadata=metadata) from None
        fill_events(response.events, events)
        digests.append(state_digest(state))
    return response, state, digests


def module_label(modules: Iterable[config_pb2.Module.ValueType]) -> str:
    """``base``, or the modules' names (``cities``); an unknown value (refused by the call) as its number."""
    names = []
    for value in modules:
        try:
            names.append(config_pb2.Module.Name(value).removeprefix("MODULE_").lower())
        except ValueError:
            names.append(str(value))
    return "+".join(sorted(names)) if names else "base"


# The Action oneof field of each core action class, learnt from the first action of each class.
_KIND_OF_CLASS: dict[type, str] = {}


def action_kind(msg: actions_pb2.Action, kind: str | None) -> str:
    """The log and metric name of an action's kind (``kind``: its oneof field): an action sent
    by id counts as the kind the id stands for; an unknown id as ``action_id``, none as ``none``."""
    if kind is None:
        return "none"
    if kind != "action_id":
        return kind
    try:
        action = action_from_id(msg.action_id)
    except RuleViolation:
        return kind
    return _class_kind(action)


def _class_kind(action: Action) -> str:
    known = _KIND_OF_CLASS.get(type(action))
    if known is None:  # at most once per class (a race computes the same value twice: harmless)
        known = _KIND_OF_CLASS[type(action)] = str(action_to_proto(action).WhichOneof("kind"))
    return known
