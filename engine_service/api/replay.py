"""ReplayGame: a whole action log from its config, bounded before any work and in its answer's size.

The bound on the actions (``ApiConfig.max_replay_actions``, derived in ``config.py``) is checked
first: a longer log is refused (REPLAY_TOO_LONG) before a single action is read. While the game
is replayed the response's size is checked every ``REPLAY_CHECK_EVERY`` actions, so an answer
over the largest message the service sends (RESPONSE_TOO_LARGE) stops early.
"""

from __future__ import annotations

from typing import Final

from splendor.v1 import actions_pb2, engine_service_pb2

from engine_service.codec import config_from_proto, fill_events, fill_state, state_to_proto
from engine_service.codec.action_cache import ACTIONS
from engine_service.rules import Action, Event, GameState, IncrementalDigest, RuleViolation, apply, events_for, new_game
from engine_service.sealing import new_game_id, new_game_secret

from .call import Call
from .encoding import encoded
from .errors import ApiError, abandoned, rejection
from .handlers import module_label
from .limits import check_length, check_size
from .sealed import binding_of, expiry_after, fill_sealed, seal_message
from .seat_access import seat_keys_of
from .source import check_seat
from .tracing import BUILD_RESPONSE, RULES, span

# ReplayGame is the one long call (about 9 µs an action bare, 13 with events, 23 with digests too: replay_bench.py):
# it checks every this many actions that the caller still waits, since no transport interrupts a running handler,
# and that the response still fits.
REPLAY_CHECK_EVERY: Final = 256


def replay_game(request: engine_service_pb2.ReplayGameRequest, call: Call) -> engine_service_pb2.ReplayGameResponse:
    config = request.config
    call.players = config.num_players
    call.module = module_label(config.modules)
    call.actions = len(request.actions)
    check_length(request, call)
    viewer = request.seat if request.sealed and request.HasField("seat") else None
    with span(RULES):  # the actions are converted and their events written as the game is replayed
        response, state, digests = _replay(request, viewer, call)
    with span(BUILD_RESPONSE):
        response.state_digests.extend(digests)
        if request.sealed:
            # The deal came from the request's seed: public.
            binding = binding_of(
                state,
                new_game_id(),
                len(request.actions),
                public_deal=True,
                expires_at=expiry_after(request.expires_in_seconds, call),
            )
            secret = new_game_secret()
            msg = state_to_proto(state)
            token = seal_message(msg, state, binding, secret, call)
            fill_sealed(response, token, binding, state, msg, viewer=viewer)
            response.seat_keys.extend(seat_keys_of(binding.game_id, secret, state.config.num_players, call))
        else:
            fill_state(response.state, state)
            call.state_bytes = response.state.ByteSize()
        encoded(response, call, limit_field="actions")
    return response


def _replay(
    request: engine_service_pb2.ReplayGameRequest, viewer: int | None, call: Call
) -> tuple[engine_service_pb2.ReplayGameResponse, GameState, list[str]]:
    """The events of the replayed game in a new response (redacted for ``viewer`` when sealed),
    its final state and the digest after each action.

    The actions go in batches of ``REPLAY_CHECK_EVERY`` (the caller and the response's size are
    checked between two): each batch's actions are converted first (through the process's cache:
    a game's actions come from a small vocabulary), then played, then their events and the
    digests of their states are written. One loop at a time keeps each loop's working set in the
    CPU's caches: interleaved with the moves, converting costs ~0.4 µs an action more and
    digesting ~2 µs.
    """
    try:
        state, dealt = new_game(config_from_proto(request.config))
    except RuleViolation as violation:
        raise rejection(violation) from None
    sealed = request.sealed
    if sealed:
        check_seat(viewer, state.config.num_players)
    response = engine_service_pb2.ReplayGameResponse()
    with_events = not request.skip_events
    pending: list[Event] = list(dealt) if with_events else []  # events not yet written into the response
    undigested: list[GameState] = []  # states after the actions of the batch, when digests are asked for
    digests: list[str] = []
    digester = None if request.skip_state_digests else IncrementalDigest()

    def write_batch() -> None:
        if pending:
            fill_events(response.events, events_for(tuple(pending), viewer) if sealed else pending)
            pending.clear()
        if digester is not None:
            digests.extend([digester.digest(after) for after in undigested])
            undigested.clear()

    msgs = request.actions
    for start in range(0, len(msgs), REPLAY_CHECK_EVERY):
        if start:
            if not call.is_active():
                raise abandoned(call.deadline_passed())
            write_batch()
            check_size(response, call, "actions")
        batch = msgs[start : start + REPLAY_CHECK_EVERY]
        actions, unconverted = _converted(batch)
        for offset, action in enumerate(actions):
            try:
                state, events = apply(state, action)
            except RuleViolation as violation:
                kind = batch[offset].WhichOneof("kind")
                raise _refused(violation, start + offset, state, kind, call) from None
            if with_events:
                pending += events
            if digester is not None:
                undigested.append(state)
        if unconverted is not None:  # the actions before it were all legal
            raise _refused(unconverted, start + len(actions), state, None, call)
    write_batch()
    return response, state, digests


def _converted(msgs: list[actions_pb2.Action]) -> tuple[list[Action], RuleViolation | None]:
    """The core actions of ``msgs`` up to the first that does not convert, and why that one does not."""
    convert = ACTIONS.action
    actions: list[Action] = []
    append = actions.append
    try:
        for msg in msgs:
            append(convert(msg))
    except RuleViolation as violation:
        return actions, violation
    return actions, None


def _refused(violation: RuleViolation, index: int, state: GameState, kind: str | None, call: Call) -> ApiError:
    """The refusal of the action at ``index`` (``kind`` None when it did not convert)."""
    call.seat = state.acting_seat
    metadata = {"action_index": str(index)}
    return rejection(violation, prefix=f"actions[{index}]", state=state, action_kind=kind, metadata=metadata)
