"""The game a request carries: a plain ``state`` or a ``sealed_state`` (opened), each checked in full.

Either is read once per distinct bytes: ``state_memo.py`` remembers what a check gave.

Every handler that reads a game goes through ``game_of``; the rest of the handler only asks
whether the game came sealed (``Game.sealed``) to answer in the same mode.
"""

from __future__ import annotations

from typing import Final, NamedTuple, get_args

from splendor.v1 import engine_service_pb2, state_pb2

from engine_service.codec import state_from_proto
from engine_service.codec.wire import single_field
from engine_service.rules import GameState, Reason, RuleViolation
from engine_service.sealing import Binding

from .call import Call
from .errors import INVALID_SEAT, refusal, rejection
from .sealed import open_state

# The requests with the ``state_source`` oneof.
StateRequest = (
    engine_service_pb2.ListLegalActionsRequest
    | engine_service_pb2.ApplyActionRequest
    | engine_service_pb2.GetPlayerViewRequest
    | engine_service_pb2.SimulateRequest
    | engine_service_pb2.DeterminizeRequest
)


# The field number of ``state`` in every request that carries one (the same in each: checked here, at import).
STATE_FIELD: Final = engine_service_pb2.ApplyActionRequest.DESCRIPTOR.fields_by_name["state"].number
if any(
    request_type.DESCRIPTOR.fields_by_name["state"].number != STATE_FIELD for request_type in get_args(StateRequest)
):
    raise TypeError("every request with a state_source oneof must give its state the same field number")


class Game(NamedTuple):
    """A request's game: its state message and core state, and for a token its binding, bytes and the game's
    seat-key secret (empty for a game begun before token version 3)."""

    msg: state_pb2.GameState  # the request's state, or the opened token's (the handler's own copy): no unknown fields
    state: GameState
    binding: Binding | None  # None in plain mode
    token: bytes = b""
    game_secret: bytes = b""
    memo_key: bytes = b""  # a plain state's key in the memo (its bytes), when the memo holds it

    @property
    def sealed(self) -> bool:
        return self.binding is not None


def game_of(request: StateRequest, call: Call) -> Game:
    """The request's game, plain or sealed; ``ApiError`` for a missing, invalid or unopenable one.

    Records the turn: only a valid state has one worth logging.
    """
    source = request.WhichOneof("state_source")
    if source == "sealed_state":
        token = request.sealed_state
        opened = open_state(token, call)
        return Game(opened.msg, opened.state, opened.binding, token, opened.game_secret)
    if source is None:
        violation = RuleViolation(Reason.INVALID_STATE, "the request carries no state", field="")
        raise rejection(violation, prefix="state")
    msg = request.state
    memo = call.settings.memo
    state = None
    key = b""
    if memo.enabled:
        key = received_state(call.request_bytes)
        # Only a hit is counted here: a miss is looked up again under the bytes serialized now, which differ when
        # the sender wrote fields in another order (and then may still hit).
        state = memo.plain.get(key, count_miss=False) if key else None
        if state is None:
            key = msg.SerializeToString(deterministic=True)
            state = memo.plain.get(key)
    if state is None:
        try:
            state = state_from_proto(msg)
        except RuleViolation as violation:
            raise rejection(violation, prefix="state") from None
        # Fields this version does not know are dropped (the answer never carries them), so every key the memo
        # holds is bytes without them, and a state read from the memo or here has none (``Game.msg``).
        msg.DiscardUnknownFields()
        if memo.enabled:
            key = msg.SerializeToString(deterministic=True)
            memo.plain.put(key, state)
    call.turn = state.turn
    return Game(msg, state, None, memo_key=key)


def received_state(request_bytes: bytes) -> bytes:
    """The ``state`` field's bytes in a request as received (``Call.request_bytes``), when it holds exactly one: the
    message the parser read, byte for byte (two would be merged into one message, matching neither); else b"".

    Bytes the memo holds are a state it checked, serialized by this service, so a request whose state field is
    those bytes carries that state, however the rest of the request is written."""
    if not request_bytes:
        return b""
    span = single_field(request_bytes, STATE_FIELD)
    return b"" if span is None else request_bytes[span[0] : span[1]]


def check_seat(seat: int | None, num_players: int, field: str = "seat") -> None:
    """INVALID_SEAT unless ``seat`` (None: a spectator) is a seat of a ``num_players``-player game."""
    if seat is not None and seat >= num_players:
        message = f"seat {seat} is not a seat of this {num_players}-player game"
        metadata = {"seat": str(seat), "num_players": str(num_players)}
        raise refusal(INVALID_SEAT, message, field=field, metadata=metadata)
