"""Token format version 3 authenticates the acting seat, the expiry and the game's seat-key secret beside the
binding; tokens of versions 1 and 2 still open (version 1 as a public deal) and their games play on in version 3,
their seat keys MACed under the ring key they name until that key is retired."""

from __future__ import annotations

import secrets
import struct

import pytest
from hypothesis import given
from hypothesis import strategies as st
from splendor.v1 import actions_pb2, config_pb2, engine_service_pb2

from engine_service.api import ApiConfig, ApiError
from engine_service.sealing import (
    VERSION,
    Binding,
    KeyRing,
    TokenInvalid,
    TokenMalformed,
    legacy_seat_key,
    new_game_id,
    read_binding,
    read_header,
    seal,
    unseal,
)
from engine_service.sealing.token import (
    FLAG_PUBLIC_DEAL,
    NO_ACTING_SEAT,
    NONCE_BYTES,
    PAD_TO,
    VERSION_WITHOUT_FLAGS,
    VERSION_WITHOUT_SEAT_OR_EXPIRY,
)
from tests.sealing.api import CONFIG, call
from tests.sealing.rings import BINDING, STATE, key_line, ring

KEYS = ring(key_line("k1", 1))
SECRET = bytes(range(32))


def older_token(version: int, state: bytes, binding: Binding, keys: KeyRing = KEYS) -> bytes:
    """A token as an earlier release sealed it: version 1 (no flags byte) or 2 (flags), no secret."""
    key_id = keys.current_id.encode("ascii")
    header = bytes((version, len(key_id))) + key_id
    header += struct.pack(">16sIQ", bytes.fromhex(binding.game_id), binding.turn, binding.step)
    if version == VERSION_WITHOUT_SEAT_OR_EXPIRY:
        header += bytes((FLAG_PUBLIC_DEAL if binding.public_deal else 0,))
    nonce = secrets.token_bytes(NONCE_BYTES)
    plaintext = state + b"\x80" + bytes(PAD_TO - len(state) % PAD_TO - 1)
    return header + nonce + keys.cipher(keys.current_id).encrypt(nonce, plaintext, header)


@given(
    public_deal=st.booleans(),
    acting_seat=st.sampled_from([None, 0, 1, 2, 3]),
    expires_at=st.sampled_from([0, 1, 1_900_000_000, 2**64 - 1]),
    secret=st.sampled_from([b"", SECRET]),
)
def test_every_header_field_and_the_secret_round_trip_through_a_version_3_token(
    public_deal: bool, acting_seat: int | None, expires_at: int, secret: bytes
) -> None:
    binding = BINDING._replace(public_deal=public_deal, acting_seat=acting_seat, expires_at=expires_at)
    token = seal(KEYS, STATE, binding, secret)
    assert token[0] == VERSION == 3
    opened = unseal(KEYS, token)
    assert (opened.binding, opened.game_secret, opened.state_bytes, opened.version) == (binding, secret, STATE, 3)
    assert read_header(token) == (3, "k1", binding)


def test_the_version_3_header_layout_is_the_documented_one() -> None:
    binding = Binding("00112233445566778899aabbccddeeff", 7, 9, True, 2, 1_900_000_000)
    token = seal(KEYS, STATE, binding, SECRET)
    n = len("k1")
    assert token[:2] == bytes((3, n)) and token[2 : 2 + n] == b"k1"
    assert token[2 + n : 18 + n] == bytes.fromhex(binding.game_id)
    assert struct.unpack(">IQ", token[18 + n : 30 + n]) == (7, 9)
    assert token[30 + n] == FLAG_PUBLIC_DEAL and token[31 + n] == 2
    assert struct.unpack(">Q", token[32 + n : 40 + n]) == (1_900_000_000,)
    assert token[31 + n] != NO_ACTING_SEAT
    over = seal(KEYS, STATE, binding._replace(acting_seat=None))
    assert over[31 + n] == NO_ACTING_SEAT == 255 and read_binding(over).acting_seat is None


@pytest.mark.parametrize("offset", range(2 + 2, 40 + 2))
def test_a_change_of_any_header_byte_after_the_key_id_does_not_open(offset: int) -> None:
    """Game id, turn, step, flags, acting seat, expiry: all authenticated (flips that no header allows are
    malformed before the key is tried)."""
    token = bytearray(seal(KEYS, STATE, BINDING._replace(acting_seat=1, expires_at=5), SECRET))
    token[offset] ^= 0x01
    with pytest.raises((TokenInvalid, TokenMalformed)):
        unseal(KEYS, bytes(token))


@pytest.mark.parametrize("seat", [4, 5, 0x80, 0xFE])
def test_an_acting_seat_byte_no_game_has_is_malformed(seat: int) -> None:
    token = bytearray(seal(KEYS, STATE, BINDING._replace(acting_seat=0)))
    token[31 + 2] = seat
    with pytest.raises(TokenMalformed):
        read_binding(bytes(token))


@pytest.mark.parametrize("flags", [0x02, 0x80, 0xFF])
def test_flags_this_service_never_sets_are_malformed(flags: int) -> None:
    token = bytearray(seal(KEYS, STATE, BINDING))
    token[2 + token[1] + 28] = flags
    with pytest.raises(TokenMalformed):
        unseal(KEYS, bytes(token))


def test_sealing_refuses_what_the_header_cannot_carry() -> None:
    for binding, secret in (
        (BINDING._replace(acting_seat=4), b""),
        (BINDING._replace(acting_seat=-1), b""),
        (BINDING._replace(expires_at=-1), b""),
        (BINDING._replace(expires_at=2**64), b""),
        (BINDING, b"short"),
        (BINDING, bytes(33)),
    ):
        with pytest.raises(ValueError):
            seal(KEYS, STATE, binding, secret)


@pytest.mark.parametrize("version", [VERSION_WITHOUT_FLAGS, VERSION_WITHOUT_SEAT_OR_EXPIRY])
def test_an_older_token_opens_without_a_secret_acting_seat_or_expiry(version: int) -> None:
    binding = BINDING._replace(public_deal=False)
    opened = unseal(KEYS, older_token(version, STATE, binding))
    assert opened.state_bytes == STATE and opened.game_secret == b"" and opened.version == version
    # Version 1 had no flags: its deals count as public (from the caller's seed or seed 0).
    assert opened.binding == binding._replace(public_deal=version == VERSION_WITHOUT_FLAGS)
    assert read_header(older_token(version, STATE, binding)).version == version


@pytest.mark.parametrize("version", [VERSION_WITHOUT_FLAGS, VERSION_WITHOUT_SEAT_OR_EXPIRY])
def test_an_older_token_relabelled_version_3_does_not_open(version: int) -> None:
    token = older_token(version, STATE, BINDING)
    with pytest.raises((TokenInvalid, TokenMalformed)):
        unseal(KEYS, bytes([VERSION]) + token[1:])


def test_a_version_3_header_whose_turn_or_acting_seat_is_not_the_states_is_refused() -> None:
    """Only a key holder can seal one, but platforms read the header: it never disagrees with the state."""
    state = call("CreateGame", engine_service_pb2.CreateGameRequest(config=config_pb2.GameConfig(num_players=2))).state
    content = state.SerializeToString()
    honest = Binding(new_game_id(), state.turn, 0, acting_seat=state.seat)
    request = engine_service_pb2.GetPlayerViewRequest(sealed_state=seal(CONFIG.key_ring, content, honest, SECRET))
    assert call("GetPlayerView", request).view.seat == state.seat
    lies = (honest._replace(acting_seat=1 - state.seat), honest._replace(acting_seat=None), honest._replace(turn=3))
    for lying in lies:
        request = engine_service_pb2.GetPlayerViewRequest(sealed_state=seal(CONFIG.key_ring, content, lying, SECRET))
        with pytest.raises(ApiError) as refused:
            call("GetPlayerView", request)
        assert (refused.value.reason, refused.value.field_violations[0].field) == ("INVALID_STATE", "sealed_state")


@pytest.mark.parametrize("version", [VERSION_WITHOUT_FLAGS, VERSION_WITHOUT_SEAT_OR_EXPIRY])
def test_a_game_in_an_older_token_plays_on_in_version_3_with_its_keys_until_their_ring_key_is_retired(
    version: int,
) -> None:
    old_ring = ring(key_line("2025-09", 11))
    state = call(
        "CreateGame", engine_service_pb2.CreateGameRequest(config=config_pb2.GameConfig(num_players=2, seed=8))
    ).state
    binding = Binding(new_game_id(), state.turn, 4, public_deal=True)
    token = older_token(version, state.SerializeToString(), binding, old_ring)
    key = legacy_seat_key(old_ring, "2025-09", binding.game_id, state.seat)
    rotated = ApiConfig(ring(key_line("2026-01", 12), key_line("2025-09", 11)))

    def move(config: ApiConfig, sealed_state: bytes) -> engine_service_pb2.ApplyActionResponse:
        request = engine_service_pb2.ApplyActionRequest(
            sealed_state=sealed_state, action=actions_pb2.Action(action_id=0), seat_key=key
        )
        response: engine_service_pb2.ApplyActionResponse = call("ApplyAction", request, config)
        return response

    applied = move(rotated, token)
    header = read_header(applied.sealed_state)
    assert (header.version, header.key_id) == (3, "2026-01")  # re-sealed in version 3 under the current key
    assert applied.sealed_state_binding.public_deal and applied.sealed_state_binding.step == 5
    assert unseal(rotated.key_ring, applied.sealed_state).game_secret == b""  # its keys are still the ring's
    # The old key retired: the token (re-sealed under the new key) opens, the game's old keys do not.
    retired = ApiConfig(ring(key_line("2026-01", 12), "2025-09:retired"))
    view = engine_service_pb2.GetPlayerViewRequest(sealed_state=applied.sealed_state)
    assert call("GetPlayerView", view, retired).view.seat == applied.acting_seat
    with pytest.raises(ApiError) as refused:
        move(retired, applied.sealed_state)
    assert (refused.value.code.name, refused.value.reason) == ("PERMISSION_DENIED", "SEAT_KEY_RETIRED")
    assert "2025-09" in refused.value.message and refused.value.field_violations[0].field == "seat_key"
