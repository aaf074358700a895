"""Expiry: a sealed game dealt with expires_in_seconds carries one authenticated expires_at in every token; once the
service's clock is more than EXPIRY_GRACE_SECONDS past it, every call with any of its tokens is refused
(SEALED_STATE_EXPIRED), remembered token or not; a game dealt without one never expires."""

from __future__ import annotations

import pytest
from google.rpc import error_details_pb2  # type: ignore[import-untyped, unused-ignore]
from hypothesis import given
from hypothesis import strategies as st
from splendor.v1 import bots_pb2, config_pb2
from splendor.v1 import engine_service_pb2 as pb

from engine_service.api import ApiConfig, ApiError, Code
from engine_service.api.state_memo import StateMemo
from engine_service.sealing import EXPIRY_GRACE_SECONDS, TokenExpired, check_expiry, read_binding
from tests.sealing.api import CONFIG, call
from tests.sealing.rings import BINDING

DEALT_AT = 1_800_000_000.0
LIFETIME = 3600


class Clock:
    """A clock the test moves."""

    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def _configs(clock: Clock) -> list[ApiConfig]:
    return [ApiConfig(CONFIG.key_ring, memo=StateMemo(entries), clock=clock) for entries in (64, 0)]


def _deal(config: ApiConfig, lifetime: int = LIFETIME, method: str = "CreateGame") -> pb.CreateGameResponse:
    game = config_pb2.GameConfig(num_players=2, seed=3)
    if method == "ReplayGame":
        request = pb.ReplayGameRequest(config=game, sealed=True, expires_in_seconds=lifetime)
        return call("ReplayGame", request, config)
    request = pb.CreateGameRequest(config=game, sealed=True, public_deal=True, expires_in_seconds=lifetime)
    return call("CreateGame", request, config)


def _move(token: bytes, keys: list[str], config: ApiConfig) -> pb.ApplyActionResponse:
    seat = read_binding(token).acting_seat
    assert seat is not None
    listed = call("ListLegalActions", pb.ListLegalActionsRequest(sealed_state=token), config)
    request = pb.ApplyActionRequest(sealed_state=token, action=listed.actions[0].action, seat=seat, seat_key=keys[seat])
    return call("ApplyAction", request, config)


def _every_call(token: bytes, keys: list[str]) -> list[tuple[str, object]]:
    seat = read_binding(token).acting_seat
    assert seat is not None
    return [
        ("GetPlayerView", pb.GetPlayerViewRequest(sealed_state=token)),
        ("GetPlayerView", pb.GetPlayerViewRequest(sealed_state=token, seat=seat, seat_key=keys[seat])),
        ("ListLegalActions", pb.ListLegalActionsRequest(sealed_state=token)),
        ("Determinize", pb.DeterminizeRequest(sealed_state=token, seat=seat, count=1, seat_key=keys[seat])),
    ]


@pytest.mark.parametrize("method", ["CreateGame", "ReplayGame"])
def test_every_token_of_a_game_carries_the_expiry_it_was_dealt_with(method: str) -> None:
    clock = Clock(DEALT_AT)
    config = _configs(clock)[0]
    dealt = _deal(config, method=method)
    expires_at = int(DEALT_AT) + LIFETIME
    assert dealt.sealed_state_binding.expires_at == read_binding(dealt.sealed_state).expires_at == expires_at
    token, keys = dealt.sealed_state, list(dealt.seat_keys)
    for _ in range(5):
        clock.now += 60
        applied = _move(token, keys, config)
        token = applied.sealed_state
        assert applied.sealed_state_binding.expires_at == read_binding(token).expires_at == expires_at


def test_a_token_is_served_through_the_grace_and_refused_after_by_every_call() -> None:
    clock = Clock(DEALT_AT)
    for config in _configs(clock):
        clock.now = DEALT_AT
        dealt = _deal(config)
        keys = list(dealt.seat_keys)
        token = _move(dealt.sealed_state, keys, config).sealed_state  # remembered by the memo, if on
        expires_at = int(DEALT_AT) + LIFETIME
        for now in (expires_at, expires_at + EXPIRY_GRACE_SECONDS):
            clock.now = now
            for method, request in _every_call(token, keys):
                call(method, request, config)
        clock.now = expires_at + EXPIRY_GRACE_SECONDS + 0.5
        for sent in (token, dealt.sealed_state):
            for method, request in _every_call(sent, keys):
                with pytest.raises(ApiError) as refused:
                    call(method, request, config)
                error = refused.value
                assert (error.code, error.reason) == (Code.INVALID_ARGUMENT, "SEALED_STATE_EXPIRED"), method
                assert error.field_violations[0].field == "sealed_state"
                assert str(expires_at) in error.message


def test_a_game_dealt_without_an_expiry_never_expires() -> None:
    clock = Clock(DEALT_AT)
    config = _configs(clock)[1]
    dealt = _deal(config, lifetime=0)
    assert dealt.sealed_state_binding.expires_at == read_binding(dealt.sealed_state).expires_at == 0
    clock.now = 2.0**40
    for method, request in _every_call(dealt.sealed_state, list(dealt.seat_keys)):
        call(method, request, config)


@given(expires_at=st.integers(1, 2**63), offset=st.floats(-1e6, 1e6, allow_nan=False))
def test_check_expiry_refuses_exactly_past_the_grace(expires_at: int, offset: float) -> None:
    now = expires_at + EXPIRY_GRACE_SECONDS + offset
    binding = BINDING._replace(expires_at=expires_at)
    if now > expires_at + EXPIRY_GRACE_SECONDS:
        with pytest.raises(TokenExpired):
            check_expiry(binding, now)
    else:
        check_expiry(binding, now)
    check_expiry(BINDING, now)  # 0: never


def test_an_expired_token_is_refused_as_a_batch_item_alone() -> None:
    clock = Clock(DEALT_AT)
    config = _configs(clock)[0]
    dealt = _deal(config)
    keys = list(dealt.seat_keys)
    seat = read_binding(dealt.sealed_state).acting_seat
    assert seat is not None
    listed = call("ListLegalActions", pb.ListLegalActionsRequest(sealed_state=dealt.sealed_state), config)
    item = pb.ApplyActionRequest(sealed_state=dealt.sealed_state, action=listed.actions[0].action, seat_key=keys[seat])
    clock.now = DEALT_AT + LIFETIME + EXPIRY_GRACE_SECONDS + 0.5
    other = _deal(config)  # dealt now: not expired
    other_seat = read_binding(other.sealed_state).acting_seat
    assert other_seat is not None
    moved = pb.ApplyActionRequest(
        sealed_state=other.sealed_state,
        bot=bots_pb2.BotChoice(policy="random"),
        seat_key=other.seat_keys[other_seat],
    )
    results = call("BatchApplyActions", pb.BatchApplyActionsRequest(requests=[item, moved]), config).results
    info = error_details_pb2.ErrorInfo()
    assert results[0].error.code == Code.INVALID_ARGUMENT.value and results[0].error.details[0].Unpack(info)
    assert info.reason == "SEALED_STATE_EXPIRED"
    assert results[1].HasField("response")
