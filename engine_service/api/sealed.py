"""Sealed game tokens in the handlers: open a request's ``sealed_state``, seal a response's.

A token that opened was sealed by a holder of the key ring, but its state is still checked in
full (``state_from_proto``: bounds, ids, conservation) before use, once per distinct token
(``state_memo.py`` remembers the tokens that opened and those sealed here): a ring key that leaked (the
published example key, say) must let a forger make refusals (INVALID_ARGUMENT, INVALID_STATE on
``sealed_state``), never crash a handler. A token that does not open is INVALID_ARGUMENT with the
``SEALED_STATE_*`` reason of its ``SealingError``, pointing at the request field.
Responses in sealed mode carry the token, its binding in clear and the view of the request's
seat (a spectator's without one), never the state.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple, Protocol

from google.protobuf.internal.containers import RepeatedCompositeFieldContainer
from google.protobuf.message import DecodeError
from splendor.v1 import events_pb2, sealing_pb2, state_pb2, view_pb2

from engine_service.codec import fill_events, fill_view_of_state, state_from_proto
from engine_service.rules import Event, GameState, Reason, RuleViolation, events_for
from engine_service.sealing import Binding, SealingError, seal, unseal

from .call import Call
from .errors import ApiError, Code, FieldViolation, rejection
from .state_memo import OpenedToken


class SealedResponse(Protocol):
    """The sealed-mode fields every response that returns a token has."""

    sealed_state: bytes

    @property
    def sealed_state_binding(self) -> sealing_pb2.SealedStateBinding: ...

    @property
    def view(self) -> view_pb2.GameView: ...

    @property
    def events(self) -> RepeatedCompositeFieldContainer[events_pb2.Event]: ...


class OpenedState(NamedTuple):
    """A request's token, opened: the state as a message and as the core reads it, and its binding."""

    msg: state_pb2.GameState
    state: GameState
    binding: Binding


def open_state(token: bytes, call: Call, field: str = "sealed_state") -> OpenedState:
    """The state sealed in ``token``; ``ApiError`` (a SEALED_STATE_* reason) if it does not open."""
    config = call.settings
    ring, memo = config.key_ring, config.memo
    remembered = memo.token(token, ring)
    if remembered is not None:  # opened or sealed here before: the handler gets its own copy of the message
        call.turn = remembered.state.turn
        return OpenedState(state_pb2.GameState.FromString(remembered.state_bytes), remembered.state, remembered.binding)
    try:
        opened = unseal(ring, token)
    except SealingError as error:
        message = str(error)
        raise ApiError(
            Code.INVALID_ARGUMENT, error.reason, message, field_violations=(FieldViolation(field, message),)
        ) from None
    try:
        msg = state_pb2.GameState.FromString(opened.state_bytes)
        state = state_from_proto(msg)
    except DecodeError:
        violation = RuleViolation(Reason.INVALID_STATE, "the token's content is not a game state")
        raise rejection(violation, field=field) from None
    except RuleViolation as violation:
        raise rejection(violation, field=field) from None
    call.turn = state.turn
    # Fields this version does not know (a newer replica's, a key holder's) are dropped once, here:
    # an opened state's message, and the bytes remembered for it, never carry any (``update_state``).
    msg.DiscardUnknownFields()
    memo.tokens.put(token, OpenedToken(msg.SerializeToString(), state, opened.binding, ring))
    return OpenedState(msg, state, opened.binding)


def seal_message(msg: state_pb2.GameState, state: GameState, binding: Binding, call: Call) -> bytes:
    """``msg`` (the message of ``state``) sealed under the ring's current key, bound to ``binding`` (its size
    recorded on ``call``); remembered as opened, since the game's next call usually brings it back."""
    data = msg.SerializeToString()
    call.state_bytes = len(data)
    config = call.settings
    token = seal(config.key_ring, data, binding)
    config.memo.tokens.put(token, OpenedToken(data, state, binding, config.key_ring))
    return token


def fill_sealed(
    response: SealedResponse,
    token: bytes,
    binding: Binding,
    state: GameState,
    msg: state_pb2.GameState,
    *,
    viewer: int | None,
    events: Iterable[Event] = (),
) -> None:
    """Write the token, its binding, the viewer's view of ``state`` (``msg``: the message sealed in the token)
    and ``events`` redacted for the viewer."""
    response.sealed_state = token
    out = response.sealed_state_binding
    out.game_id, out.turn, out.step, out.public_deal = binding
    fill_view_of_state(response.view, msg, state, viewer)
    fill_events(response.events, events_for(tuple(events), viewer))
