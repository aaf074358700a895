"""Token format version 2 authenticates the binding's public_deal flag; version-1 tokens still open, as public deals."""

from __future__ import annotations

import secrets
import struct

import pytest
from splendor.v1 import actions_pb2, config_pb2, engine_service_pb2

from engine_service.sealing import (
    VERSION,
    Binding,
    KeyRing,
    TokenInvalid,
    TokenMalformed,
    issue_seat_keys,
    new_game_id,
    read_binding,
    seal,
    unseal,
)
from engine_service.sealing.token import FLAG_PUBLIC_DEAL, NONCE_BYTES, PAD_TO, VERSION_WITHOUT_FLAGS
from tests.sealing.api import CONFIG, call
from tests.sealing.rings import BINDING, STATE, key_line, ring

KEYS = ring(key_line("k1", 1))


def version_1_token(state: bytes, binding: Binding) -> bytes:
    return version_1_token_of(state, binding, KEYS)


def version_1_token_of(state: bytes, binding: Binding, keys: KeyRing = CONFIG.key_ring) -> bytes:
    """A token as the previous release sealed it: the header without the flags byte."""
    key_id = keys.current_id.encode("ascii")
    header = bytes((VERSION_WITHOUT_FLAGS, len(key_id))) + key_id
    header += struct.pack(">16sIQ", bytes.fromhex(binding.game_id), binding.turn, binding.step)
    nonce = secrets.token_bytes(NONCE_BYTES)
    plaintext = state + b"\x80" + bytes(PAD_TO - len(state) % PAD_TO - 1)
    return header + nonce + keys.cipher(keys.current_id).encrypt(nonce, plaintext, header)


@pytest.mark.parametrize("public_deal", [False, True])
def test_public_deal_round_trips_through_a_version_2_token(public_deal: bool) -> None:
    binding = BINDING._replace(public_deal=public_deal)
    token = seal(KEYS, STATE, binding)
    assert token[0] == VERSION == 2
    assert unseal(KEYS, token).binding == binding
    assert read_binding(token).public_deal is public_deal


def test_a_flipped_public_deal_flag_does_not_open() -> None:
    token = bytearray(seal(KEYS, STATE, BINDING))
    flags_at = 2 + token[1] + 28
    assert token[flags_at] == 0
    token[flags_at] ^= FLAG_PUBLIC_DEAL
    assert read_binding(bytes(token)).public_deal  # the header reads...
    with pytest.raises(TokenInvalid):  # ...but is authenticated
        unseal(KEYS, bytes(token))


@pytest.mark.parametrize("flags", [0x02, 0x80, 0xFF])
def test_flags_this_service_never_sets_are_malformed(flags: int) -> None:
    token = bytearray(seal(KEYS, STATE, BINDING))
    token[2 + token[1] + 28] = flags
    with pytest.raises(TokenMalformed):
        unseal(KEYS, bytes(token))


def test_a_version_1_token_opens_as_a_public_deal() -> None:
    opened = unseal(KEYS, version_1_token(STATE, BINDING))
    assert opened.state_bytes == STATE
    assert opened.binding == BINDING._replace(public_deal=True)


def test_a_version_1_token_relabelled_version_2_does_not_open() -> None:
    token = version_1_token(STATE, BINDING)
    with pytest.raises((TokenInvalid, TokenMalformed)):
        unseal(KEYS, bytes([VERSION]) + token[1:])


def test_a_game_in_a_version_1_token_plays_on_as_a_public_deal_in_version_2() -> None:
    state = call(
        "CreateGame", engine_service_pb2.CreateGameRequest(config=config_pb2.GameConfig(num_players=2, seed=8))
    ).state
    binding = Binding(new_game_id(), state.turn, 4)
    token = version_1_token_of(state.SerializeToString(), binding)
    key = issue_seat_keys(CONFIG.key_ring, binding.game_id, 2)[state.seat]
    applied = call(
        "ApplyAction",
        engine_service_pb2.ApplyActionRequest(sealed_state=token, action=actions_pb2.Action(action_id=0), seat_key=key),
    )
    assert applied.sealed_state[0] == VERSION
    assert applied.sealed_state_binding.public_deal and applied.sealed_state_binding.step == 5
