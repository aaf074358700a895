"""Sealed game tokens in the handlers: open a request's ``sealed_state``, seal a response's.

A token that opened was sealed by a holder of the key ring, but its state is still checked in
full (``state_from_proto``: bounds, ids, conservation, and a version-3 header's turn and acting
seat against the state's) before use, once per distinct token
(``state_memo.py`` remembers the tokens that opened and those sealed here): a ring key that leaked (the
published example key, say) must let a forger make refusals (INVALID_ARGUMENT, INVALID_STATE on
``sealed_state``), never crash a handler. A token that does not open is INVALID_ARGUMENT with the
``SEALED_STATE_*`` reason of its ``SealingError``, pointing at the request field; so is a token
past its expiry (SEALED_STATE_EXPIRED: checked on every call, remembered or not, against the
config's clock). Responses in sealed mode carry the token, its binding in clear and the view of the request's
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
from engine_service.sealing import VERSION, Binding, SealingError, check_expiry, seal, unseal

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
    """A request's token, opened: the state as a message and as the core reads it, its binding and the
    game's seat-key secret (empty for a game begun before token version 3)."""

    msg: state_pb2.GameState
    state: GameState
    binding: Binding
    game_secret: bytes


def open_state(token: bytes, call: Call, field: str = "sealed_state") -> OpenedState:
    """The state sealed in ``token``; ``ApiError`` (a SEALED_STATE_* reason) if it does not open."""
    config = call.settings
    ring, memo = config.key_ring, config.memo
    remembered = memo.token(token, ring)
    if remembered is not None:  # opened or sealed here before: the handler gets its own copy of the message
        _check_unexpired(remembered.binding, call, field)
        call.turn = remembered.state.turn
        msg = state_pb2.GameState.FromString(remembered.state_bytes)
        return OpenedState(msg, remembered.state, remembered.binding, remembered.game_secret)
    try:
        opened = unseal(ring, token)
    except SealingError as error:
        raise _refused(error, field) from None
    _check_unexpired(opened.binding, call, field)
    try:
        msg = state_pb2.GameState.FromString(opened.state_bytes)
        state = state_from_proto(msg)
    except DecodeError:
        violation = RuleViolation(Reason.INVALID_STATE, "the token's content is not a game state")
        raise rejection(violation, field=field) from None
    except RuleViolation as violation:
        raise rejection(violation, field=field) from None
    if opened.version >= VERSION:
        _check_header_matches(opened.binding, state, field)
    call.turn = state.turn
    # Fields this version does not know (a newer replica's, a key holder's) are dropped once, here:
    # an opened state's message, and the bytes remembered for it, never carry any (``update_state``).
    msg.DiscardUnknownFields()
    memo.tokens.put(token, OpenedToken(msg.SerializeToString(), state, opened.binding, ring, opened.game_secret))
    return OpenedState(msg, state, opened.binding, opened.game_secret)


def _refused(error: SealingError, field: str) -> ApiError:
    message = str(error)
    return ApiError(Code.INVALID_ARGUMENT, error.reason, message, field_violations=(FieldViolation(field, message),))


def _check_unexpired(binding: Binding, call: Call, field: str) -> None:
    if binding.expires_at:
        try:
            check_expiry(binding, call.settings.clock())
        except SealingError as error:
            raise _refused(error, field) from None


def _check_header_matches(binding: Binding, state: GameState, field: str) -> None:
    """INVALID_STATE when a version-3 header's turn or acting seat is not the state's (only a key holder can
    seal such a token, but platforms read the header: it must never say something else than the state)."""
    if (binding.turn, binding.acting_seat) != (state.turn, acting_seat_of(state)):
        message = "the token's header does not match its state (turn or acting seat)"
        raise rejection(RuleViolation(Reason.INVALID_STATE, message), field=field)


def acting_seat_of(state: GameState) -> int | None:
    """The seat that must act; None once the game is over."""
    return None if state.end_reason is not None else state.acting_seat


def binding_of(state: GameState, game_id: str, step: int, *, public_deal: bool, expires_at: int) -> Binding:
    """The binding of a token of ``state`` at ``step`` of the game ``game_id``."""
    return Binding(game_id, state.turn, step, public_deal, acting_seat_of(state), expires_at)


def expiry_after(seconds: int, call: Call) -> int:
    """The ``expires_at`` of a game dealt now whose tokens live ``seconds`` (0: never, so 0)."""
    return int(call.settings.clock()) + seconds if seconds else 0


def seal_message(msg: state_pb2.GameState, state: GameState, binding: Binding, game_secret: bytes, call: Call) -> bytes:
    """``msg`` (the message of ``state``) and the game's seat-key secret sealed under the ring's current key,
    bound to ``binding`` (the state's size recorded on ``call``); remembered as opened, since the game's next
    call usually brings it back."""
    data = msg.SerializeToString()
    call.state_bytes = len(data)
    config = call.settings
    token = seal(config.key_ring, data, binding, game_secret)
    config.memo.tokens.put(token, OpenedToken(data, state, binding, config.key_ring, game_secret))
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
    fill_binding(response.sealed_state_binding, binding, state)
    fill_view_of_state(response.view, msg, state, viewer)
    fill_events(response.events, events_for(tuple(events), viewer))


def fill_binding(out: sealing_pb2.SealedStateBinding, binding: Binding, state: GameState) -> None:
    """The binding of a token of ``state`` (its acting seat from the state: a version 1 or 2 header has none)."""
    out.game_id, out.turn, out.step, out.public_deal = binding.game_id, binding.turn, binding.step, binding.public_deal
    acting = acting_seat_of(state)
    if acting is not None:
        out.acting_seat = acting
    if binding.expires_at:
        out.expires_at = binding.expires_at
