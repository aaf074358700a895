"""Token format version 2 authenticates the binding's public_deal flag; version-1 tokens still open, as public deals."""

from __future__ import annotations

import secrets
import struct

import pytest

from engine_service.sealing import VERSION, Binding, TokenInvalid, TokenMalformed, read_binding, seal, unseal
from engine_service.sealing.token import FLAG_PUBLIC_DEAL, NONCE_BYTES, PAD_TO, VERSION_WITHOUT_FLAGS
from tests.sealing.rings import BINDING, STATE, key_line, ring

KEYS = ring(key_line("k1", 1))


def version_1_token(state: bytes, binding: Binding) -> bytes:
    """A token as the previous release sealed it: the header without the flags byte."""
    key_id = KEYS.current_id.encode("ascii")
    header = bytes((VERSION_WITHOUT_FLAGS, len(key_id))) + key_id
    header += struct.pack(">16sIQ", bytes.fromhex(binding.game_id), binding.turn, binding.step)
    nonce = secrets.token_bytes(NONCE_BYTES)
    plaintext = state + b"\x80" + bytes(PAD_TO - len(state) % PAD_TO - 1)
    return header + nonce + KEYS.cipher(KEYS.current_id).encrypt(nonce, plaintext, header)


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
