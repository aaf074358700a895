"""The short RPCs of ``splendor.v1.EngineService``: request message -> response message.

Stateless: every request carries the state it works on, plain or sealed (``source.py``), and
is answered in the same mode. Handlers raise ``ApiError`` for refusals and record their call's
public facts (seat, turn, action kind...) on the ``Call`` they are given; they know nothing of
the transport. ApplyAction is in ``apply.py``, ReplayGame in ``replay.py``.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable, Sequence
from typing import Final

from splendor.v1 import actions_pb2, catalog_pb2, config_pb2, engine_service_pb2

from engine_service.bots import policy_specs
from engine_service.codec import (
    action_to_proto,
    catalog,
    config_from_proto,
    events_from_proto,
    fill_events,
    fill_observation,
    fill_revealed_seed,
    fill_state,
    fill_view,
    legal_action_table,
    state_to_proto,
)
from engine_service.rules import (
    Action,
    GameConfig,
    GameState,
    Reason,
    RuleViolation,
    action_from_id,
    action_id,
    actions_seen_by,
    events_for,
    legal_actions,
    new_game,
    view_for,
)
from engine_service.sealing import new_game_id, new_game_secret

from .call import Call
from .config import ApiConfig
from .encoding import encoded
from .entropy import SEED_BITS
from .errors import INVALID_SEAT, SEED_NOT_ALLOWED, refusal, rejection
from .sealed import acting_seat_of, binding_of, expiry_after, fill_sealed, seal_message
from .seat_access import require_seat_key, seat_keys_of
from .source import check_seat, game_of
from .tracing import BUILD_RESPONSE, CONVERT_REQUEST, RULES, span

# Every action by id, built at import (not on a first call): a legal-action list is copied from these.
LEGAL_ACTIONS: Final = legal_action_table()


def get_catalog(request: engine_service_pb2.GetCatalogRequest, call: Call) -> engine_service_pb2.GetCatalogResponse:
    with span(BUILD_RESPONSE):
        response = engine_service_pb2.GetCatalogResponse(catalog=catalog(policy_specs()))
        fill_limits(response.catalog.limits, call.settings)
        return response


def fill_limits(out: catalog_pb2.ServiceLimits, config: ApiConfig) -> None:
    """The bounds this server's calls are held to (its settings)."""
    out.max_batch_items = config.max_batch_items
    out.max_request_bytes = config.max_request_bytes
    out.max_response_bytes = config.max_response_bytes
    out.max_replay_actions = config.max_replay_actions
    out.max_bot_iterations = config.max_bot_iterations


def create_game(request: engine_service_pb2.CreateGameRequest, call: Call) -> engine_service_pb2.CreateGameResponse:
    config = request.config
    call.players = config.num_players
    call.module = module_label(config.modules)
    try:
        with span(CONVERT_REQUEST):
            core_config = config_from_proto(config)
            if request.sealed and not request.public_deal:
                core_config = server_drawn_deal(core_config)
        with span(RULES):
            state, events = new_game(core_config)
    except RuleViolation as violation:
        raise rejection(violation) from None
    with span(BUILD_RESPONSE):
        response = engine_service_pb2.CreateGameResponse()
        if request.sealed:
            viewer = request.seat if request.HasField("seat") else None
            check_seat(viewer, core_config.num_players)
            binding = binding_of(
                state,
                new_game_id(),
                0,
                public_deal=request.public_deal,
                expires_at=expiry_after(request.expires_in_seconds, call),
            )
            secret = new_game_secret()
            msg = state_to_proto(state)
            token = seal_message(msg, state, binding, secret, call)
            fill_sealed(response, token, binding, state, msg, viewer=viewer, events=events)
            response.seat_keys.extend(seat_keys_of(binding.game_id, secret, core_config.num_players, call))
        else:
            fill_state(response.state, state)
            fill_events(response.events, events)
            call.state_bytes = response.state.ByteSize()
        fill_acting_seat(response, state)
    call.game_created = True
    return response


def server_drawn_deal(config: GameConfig) -> GameConfig:
    """A sealed game's config dealt from a seed the server draws (and never returns); SEED_NOT_ALLOWED if the
    request chose one: a seed the caller knows gives away every deck order the token hides."""
    if config.seed != 0:
        message = "a sealed game is dealt from a seed the server draws: send seed 0, or set public_deal"
        raise refusal(SEED_NOT_ALLOWED, message, field="config.seed")
    return config._replace(seed=secrets.randbits(SEED_BITS))


def list_legal_actions(
    request: engine_service_pb2.ListLegalActionsRequest, call: Call
) -> engine_service_pb2.ListLegalActionsResponse:
    with span(CONVERT_REQUEST):
        game = game_of(request, call)
        state = game.state
        seat = request.seat if request.HasField("seat") else None
        if game.sealed:
            check_seat(seat, state.config.num_players)
            require_seat_key(game, seat, request.seat_key, call)
    try:
        with span(RULES):
            legal: Sequence[Action] = ()
            # In sealed mode another seat's options are not the asking seat's to see (a spectator sees them
            # without the purchases that would name a blind reserve).
            if not (game.sealed and seat is not None and seat != state.acting_seat):
                legal = legal_actions(state)
            if game.sealed:
                legal = actions_seen_by(legal, state, seat)
            listed = [LEGAL_ACTIONS[action_id(action)] for action in legal]
    except RuleViolation as violation:  # only a state no game reaches has an action without an id
        raise rejection(RuleViolation(Reason.INVALID_STATE, violation.message), prefix="state", field="state") from None
    call.seat = state.acting_seat
    with span(BUILD_RESPONSE):
        response = engine_service_pb2.ListLegalActionsResponse(seat=state.acting_seat)
        response.actions.extend(listed)
        fill_acting_seat(response, state)
    return response


def get_player_view(
    request: engine_service_pb2.GetPlayerViewRequest, call: Call
) -> engine_service_pb2.GetPlayerViewResponse:
    viewer = request.seat if request.HasField("seat") else None
    call.viewer = "spectator" if viewer is None else viewer
    with span(CONVERT_REQUEST):
        game = game_of(request, call)
        state = game.state
        check_seat(viewer, state.config.num_players)
        require_seat_key(game, viewer, request.seat_key, call)
        if viewer is None and request.include_observation:
            message = "a spectator has no observation: set seat"
            raise refusal(INVALID_SEAT, message, field="seat", metadata={"num_players": str(state.config.num_players)})
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
        fill_revealed_seed(response.view, state)
        fill_events(response.events, seen)
        if viewer is not None and request.include_observation:
            fill_observation(response.observation, state, viewer, ids=request.observation_legal_ids)
        fill_acting_seat(response, state)
        encoded(response, call, limit_field="events")
    return response


def fill_acting_seat(
    response: engine_service_pb2.CreateGameResponse
    | engine_service_pb2.ListLegalActionsResponse
    | engine_service_pb2.GetPlayerViewResponse,
    state: GameState,
) -> None:
    """The seat that must act, unless the game is over."""
    acting = acting_seat_of(state)
    if acting is not None:
        response.acting_seat = acting


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
    return class_kind(action)


def class_kind(action: Action) -> str:
    known = _KIND_OF_CLASS.get(type(action))
    if known is None:  # at most once per class (a race computes the same value twice: harmless)
        known = _KIND_OF_CLASS[type(action)] = str(action_to_proto(action).WhichOneof("kind"))
    return known
