"""ReplayGame: a whole action log from its config, bounded before any work and in its answer's size.

The bound on the actions (``ApiConfig.max_replay_actions``, derived in ``config.py``) is checked
first: a longer log is refused (REPLAY_TOO_LONG) before a single action is read. While the game
is replayed the response's size is checked every ``REPLAY_CHECK_EVERY`` actions, so an answer
over the largest message the service sends (RESPONSE_TOO_LARGE) stops early.
"""

from __future__ import annotations

from typing import Final

from splendor.v1 import engine_service_pb2

from engine_service.codec import config_from_proto, fill_events, fill_state, state_to_proto
from engine_service.codec.action_cache import ACTIONS
from engine_service.rules import Event, GameState, IncrementalDigest, RuleViolation, apply, events_for, new_game
from engine_service.sealing import Binding, new_game_id

from .call import Call
from .errors import ApiError, abandoned, rejection
from .handlers import module_label
from .limits import check_length, check_size
from .sealed import fill_sealed, seal_message
from .source import check_seat
from .tracing import BUILD_RESPONSE, RULES, span

# ReplayGame is the one long call (about 15 µs an action, 25 with digests: benchmarks/replay_bench.py): it checks
# every this many actions that the caller still waits, since no transport interrupts a running handler, and that
# the response still fits.
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
            binding = Binding(new_game_id(), state.turn, len(request.actions))
            msg = state_to_proto(state)
            token = seal_message(msg, binding, call)
            fill_sealed(response, token, binding, state, msg, viewer=viewer)
        else:
            fill_state(response.state, state)
            call.state_bytes = response.state.ByteSize()
        check_size(response, call, "actions")
    return response


def _replay(
    request: engine_service_pb2.ReplayGameRequest, viewer: int | None, call: Call
) -> tuple[engine_service_pb2.ReplayGameResponse, GameState, list[str]]:
    """The events of the replayed game in a new response (redacted for ``viewer`` when sealed),
    its final state and the digest after each action.

    The actions are converted through the process's cache (a game's actions come from a small
    vocabulary). Their events and the digests of their states are written in batches, at each size
    check and at the end: digesting the states of a batch after its moves, rather than one between
    two moves, keeps each loop's working set in the CPU's caches (measured: ~3 µs an action less).
    """
    try:
        state, dealt = new_game(config_from_proto(request.config))
    except RuleViolation as violation:
        raise rejection(violation) from None
    sealed = request.sealed
    if sealed:
        check_seat(viewer, state.config.num_players)
    response = engine_service_pb2.ReplayGameResponse()
    pending: list[Event] = list(dealt)  # events not yet written into the response
    undigested: list[GameState] = []  # states after the actions of the batch, when digests are asked for
    digests: list[str] = []
    digester = None if request.skip_state_digests else IncrementalDigest()

    def write_batch() -> None:
        fill_events(response.events, events_for(tuple(pending), viewer) if sealed else pending)
        pending.clear()
        if digester is not None:
            digests.extend([digester.digest(after) for after in undigested])
            undigested.clear()

    convert = ACTIONS.action
    for index, msg in enumerate(request.actions):
        if index % REPLAY_CHECK_EVERY == 0 and index:
            if not call.is_active():
                raise abandoned(call.deadline_passed())
            write_batch()
            check_size(response, call, "actions")
        try:
            action = convert(msg)
        except RuleViolation as violation:
            raise _refused(violation, index, state, None, call) from None
        try:
            state, events = apply(state, action)
        except RuleViolation as violation:
            raise _refused(violation, index, state, msg.WhichOneof("kind"), call) from None
        pending += events
        if digester is not None:
            undigested.append(state)
    write_batch()
    return response, state, digests


def _refused(violation: RuleViolation, index: int, state: GameState, kind: str | None, call: Call) -> ApiError:
    """The refusal of the action at ``index`` (``kind`` None when it did not convert)."""
    call.seat = state.acting_seat
    metadata = {"action_index": str(index)}
    return rejection(violation, prefix=f"actions[{index}]", state=state, action_kind=kind, metadata=metadata)
