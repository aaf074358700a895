"""ApplyAction: check the request, apply the action, answer in the request's mode (plain or sealed).

Each step is its own function, so that a new option of the request (a bot's move, the legal
actions of the next position...) adds a step rather than a branch inside another one.
"""

from __future__ import annotations

from splendor.v1 import engine_service_pb2

from engine_service.codec import fill_events, update_state
from engine_service.codec.action_cache import ACTIONS
from engine_service.rules import Action, Event, GameState, Reason, RuleViolation, apply

from .audiences import audiences_of, fill_audience_views
from .bot_choice import bot_action
from .call import Call
from .encoding import encoded
from .errors import STALE_STATE, STEP_MISMATCH, refusal, rejection
from .handlers import action_kind, class_kind
from .next_move import fill_applied, fill_next_move, observed_seat
from .replies import dealt_game, play_replies, reply_policies
from .sealed import binding_of, fill_sealed, seal_message
from .seat_access import require_seat_key
from .source import Game, game_of
from .tracing import BUILD_RESPONSE, CONVERT_REQUEST, RULES, span


def apply_action(request: engine_service_pb2.ApplyActionRequest, call: Call) -> engine_service_pb2.ApplyActionResponse:
    response = engine_service_pb2.ApplyActionResponse()
    answer(request, call, response)
    encoded(response, call)
    return response


def answer(
    request: engine_service_pb2.ApplyActionRequest, call: Call, response: engine_service_pb2.ApplyActionResponse
) -> None:
    """Fill ``response`` (empty) with ApplyAction's answer to ``request``; ``ApiError`` for a refusal, which may
    leave it partly filled. BatchApplyActions answers each item into its result's own message, copying none."""
    by_bot = request.HasField("bot")
    kind: str | None = request.action.WhichOneof("kind")
    dealing = request.WhichOneof("state_source") == "deal"
    moving = by_bot or kind is not None or not dealing  # a deal may come without a move
    call.action = action_kind(request.action, kind)
    validate_only = request.validate_only
    if validate_only:
        call.validate_only = True
    with span(CONVERT_REQUEST):
        game, dealt = dealt_game(request, call) if dealing else (game_of(request, call), ())
        state = game.state
        call.seat = state.acting_seat
        seat = request.seat if request.HasField("seat") else None
        require_seat_key(game, state.acting_seat if seat is None else seat, request.seat_key, call)
        audiences = audiences_of(request, game, call)
        observed = observed_seat(request, game, seat)
        check_expected_turn(request, state)
        check_expected_step(request, game)
        repliers = reply_policies(request, game, call)
        action: Action | None = None
        if by_bot:
            action = bot_action(request, game, call)
            kind = call.action = class_kind(action)
        elif moving:
            action = action_of(request, state)
    with span(RULES):
        new_state, events = (state, ()) if action is None else apply_checked(state, action, seat, kind)
        replies: list[Action] = []
        if repliers and not validate_only:
            new_state, events, replies = play_replies(new_state, events, repliers, list(request.reply_seeds))
    with span(BUILD_RESPONSE):
        if validate_only:
            new_state, events = state, ()
        shown = () if request.skip_events else dealt + events
        if game.sealed:
            sealed_response(response, game, new_state, shown, viewer=seat, call=call, applied=not validate_only)
        else:
            plain_response(response, game, new_state, shown, call, dealt=dealing)
        if audiences:  # the opened token's message, patched; or the response's new state
            fill_audience_views(
                response, audiences, new_state, game.msg if game.sealed else response.state, dealt + events
            )
        # A choice not applied shows no event: in sealed mode only the acting seat may see it (a blind purchase).
        if action is not None and not (game.sealed and validate_only and seat != state.acting_seat):
            fill_applied(response.applied, action, None if by_bot else request.action)
        for reply in replies:
            fill_applied(response.replies.add(), reply, None)
        fill_next_move(
            response,
            new_state,
            legal=request.include_legal_actions,
            observation=request.include_observation or observed is not None,
            sealed=game.sealed,
            viewer=seat,
            ids=request.observation_legal_ids,
            observed=observed,
            view=not request.skip_view,
            legal_ids=request.include_legal_action_ids,
        )
    if not validate_only and (action is not None or replies):
        record_applied(new_state, call, moved=action is not None)


def check_expected_turn(request: engine_service_pb2.ApplyActionRequest, state: GameState) -> None:
    """STALE_STATE when the request expects another turn than the state's."""
    if request.HasField("expected_turn") and request.expected_turn != state.turn:
        message = f"the game is at turn {state.turn}, not {request.expected_turn}: reload the game"
        metadata = {"expected_turn": str(request.expected_turn), "turn": str(state.turn)}
        metadata["acting_seat"] = str(state.acting_seat)
        raise refusal(STALE_STATE, message, field="expected_turn", metadata=metadata)


def check_expected_step(request: engine_service_pb2.ApplyActionRequest, game: Game) -> None:
    """STEP_MISMATCH when the request expects another step than the token's (or sends one with a plain state)."""
    if not request.HasField("expected_step"):
        return
    expected = request.expected_step
    if game.binding is None:
        message = "a plain state carries no step: expected_step applies to sealed states (use expected_turn)"
        raise refusal(STEP_MISMATCH, message, field="expected_step", metadata={"expected_step": str(expected)})
    step = game.binding.step
    if expected != step:
        message = f"the token is at step {step}, not {expected}: a rewound token, or a move already made on it"
        metadata = {"expected_step": str(expected), "step": str(step)}
        metadata |= {"acting_seat": str(game.state.acting_seat), "turn": str(game.state.turn)}
        raise refusal(STEP_MISMATCH, message, field="expected_step", metadata=metadata)


def action_of(request: engine_service_pb2.ApplyActionRequest, state: GameState) -> Action:
    try:
        return ACTIONS.action(request.action)
    except RuleViolation as violation:
        raise rejection(violation, prefix="action", state=state) from None


def apply_checked(
    state: GameState, action: Action, seat: int | None, kind: str | None
) -> tuple[GameState, tuple[Event, ...]]:
    """The rules core's answer, its refusals as ``ApiError``."""
    try:
        return apply(state, action, seat)
    except RuleViolation as violation:
        field = "seat" if violation.reason is Reason.NOT_YOUR_TURN else None
        raise rejection(violation, prefix="action", state=state, action_kind=kind, field=field) from None


def plain_response(
    response: engine_service_pb2.ApplyActionResponse,
    game: Game,
    new_state: GameState,
    events: tuple[Event, ...],
    call: Call,
    *,
    dealt: bool = False,
) -> None:
    """The new state in full, and every event. The state is measured and remembered as checked (the game's next
    call brings it), a game ``dealt`` in the call too when no move changed it, once the response is serialized
    (``encoding.encoded``): its bytes there are the key."""
    # Patching a copy of the request's state beats writing the whole state afresh.
    out = response.state
    out.CopyFrom(game.msg)
    update_state(out, game.state, new_state, has_unknown=False)  # game_of drops them
    fill_events(response.events, events)
    call.answered_state = new_state
    if call.settings.memo.enabled and (dealt or new_state is not game.state):
        call.remember_answered = True
        call.replaced_key = game.memo_key


def sealed_response(
    response: engine_service_pb2.ApplyActionResponse,
    game: Game,
    new_state: GameState,
    events: tuple[Event, ...],
    *,
    viewer: int | None,
    call: Call,
    applied: bool,
) -> None:
    """A new token one step further (the request's own when nothing was applied), the viewer's view and events."""
    binding = game.binding
    assert binding is not None
    token = game.token
    msg = game.msg  # the opened token's message: the handler's own, patched in place
    if applied:
        update_state(msg, game.state, new_state, has_unknown=False)  # an opened token's: see open_state
        binding = binding_of(
            new_state, binding.game_id, binding.step + 1, public_deal=binding.public_deal, expires_at=binding.expires_at
        )
        token = seal_message(msg, new_state, binding, game.game_secret, call)
    fill_sealed(response, token, binding, new_state, msg, viewer=viewer, events=events)


def record_applied(new_state: GameState, call: Call, *, moved: bool = True) -> None:
    """The facts of a call that changed its game: its own move applied (``moved``; else only replies were), the end."""
    if moved:
        call.action_applied = True
    if new_state.end_reason is not None:
        call.end_reason = new_state.end_reason.name
