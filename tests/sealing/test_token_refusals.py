"""Every token that does not open is refused with its own reason: nothing but the service's own tokens open."""

from __future__ import annotations

import random

import pytest

from engine_service.sealing import (
    MAX_TOKEN_BYTES,
    KeyRetired,
    KeyUnknown,
    SealingError,
    TokenInvalid,
    TokenMalformed,
    TokenTooLarge,
    TokenVersionUnsupported,
    read_binding,
    seal,
    unseal,
)
from tests.sealing.rings import BINDING, STATE, key_line, ring

KEYS = ring(key_line("k1", 1))
TOKEN = seal(KEYS, STATE, BINDING)


def reason_of(token: bytes) -> str:
    with pytest.raises(SealingError) as refused:
        unseal(KEYS, token)
    return refused.value.reason


def test_every_single_bit_flip_is_refused() -> None:
    refused: dict[str, int] = {}
    for bit in range(len(TOKEN) * 8):
        flipped = bytearray(TOKEN)
        flipped[bit // 8] ^= 1 << (bit % 8)
        reason = reason_of(bytes(flipped))
        refused[reason] = refused.get(reason, 0) + 1
    assert sum(refused.values()) == len(TOKEN) * 8
    # Flips in the version, the key id, the binding and the ciphertext each fail their own way.
    assert set(refused) >= {
        "SEALED_STATE_VERSION_UNSUPPORTED",
        "SEALED_STATE_KEY_UNKNOWN",
        "SEALED_STATE_INVALID",
        "SEALED_STATE_MALFORMED",
    }


def test_an_altered_binding_is_refused_though_the_header_still_reads() -> None:
    header_start = 2 + TOKEN[1]
    altered = bytearray(TOKEN)
    altered[header_start + 16 + 3] ^= 1  # the lowest byte of the turn
    assert read_binding(bytes(altered)).turn == BINDING.turn ^ 1
    with pytest.raises(TokenInvalid):
        unseal(KEYS, bytes(altered))


def test_a_token_of_another_key_under_the_same_id_is_refused_as_invalid() -> None:
    other = seal(ring(key_line("k1", 2)), STATE, BINDING)
    assert reason_of(other) == "SEALED_STATE_INVALID"


def test_a_token_of_an_unknown_key_id_is_refused_as_key_unknown() -> None:
    other = seal(ring(key_line("elsewhere", 2)), STATE, BINDING)
    with pytest.raises(KeyUnknown, match="elsewhere"):
        unseal(KEYS, other)


def test_a_token_of_a_retired_key_is_refused_as_key_retired() -> None:
    old = seal(ring(key_line("old", 2)), STATE, BINDING)
    rotated = ring(key_line("new", 3), "old:retired")
    with pytest.raises(KeyRetired, match="old"):
        unseal(rotated, old)
    assert KeyRetired.reason == "SEALED_STATE_KEY_RETIRED"


def test_an_empty_token_is_malformed() -> None:
    with pytest.raises(TokenMalformed):
        unseal(KEYS, b"")


@pytest.mark.parametrize("length", [1, 2, 10, 40, 60, len(TOKEN) - 17, len(TOKEN) - 1])
def test_a_truncated_token_is_refused(length: int) -> None:
    assert reason_of(TOKEN[:length]) in {"SEALED_STATE_MALFORMED", "SEALED_STATE_INVALID"}


def test_a_token_cut_inside_its_header_is_malformed() -> None:
    for length in range(1, 2 + TOKEN[1] + 28):
        assert reason_of(TOKEN[:length]) == "SEALED_STATE_MALFORMED", length


def test_a_token_with_bytes_appended_is_refused() -> None:
    assert reason_of(TOKEN + b"\x00") == "SEALED_STATE_INVALID"


def test_an_oversized_token_is_refused_before_anything_else() -> None:
    with pytest.raises(TokenTooLarge):
        unseal(KEYS, TOKEN + bytes(MAX_TOKEN_BYTES))
    with pytest.raises(TokenTooLarge):
        unseal(KEYS, b"\xff" * (MAX_TOKEN_BYTES + 1))


def test_another_format_version_is_refused_as_unsupported() -> None:
    for version in (0, 4, 255):
        with pytest.raises(TokenVersionUnsupported):
            unseal(KEYS, bytes([version]) + TOKEN[1:])


def test_a_key_id_length_beyond_the_token_is_malformed() -> None:
    assert reason_of(TOKEN[:1] + b"\xff" + TOKEN[2:]) == "SEALED_STATE_MALFORMED"
    assert reason_of(TOKEN[:1] + b"\x00" + TOKEN[2:]) == "SEALED_STATE_MALFORMED"


def test_a_key_id_of_forbidden_characters_is_malformed() -> None:
    assert reason_of(TOKEN[:2] + b"k\xff" + TOKEN[4:]) == "SEALED_STATE_MALFORMED"


def test_random_garbage_is_refused() -> None:
    rng = random.Random(1)
    for _ in range(2000):
        garbage = rng.randbytes(rng.randrange(0, 600))
        if garbage[:1] == b"\x01" and rng.random() < 0.5:
            garbage = TOKEN[: 2 + TOKEN[1]] + garbage  # a plausible header, random rest
        with pytest.raises(SealingError):
            unseal(KEYS, garbage)


def test_every_refusal_names_a_distinct_published_reason() -> None:
    from splendor.v1 import errors_pb2

    kinds = [TokenMalformed, TokenTooLarge, TokenVersionUnsupported, KeyUnknown, KeyRetired, TokenInvalid]
    reasons = [kind.reason for kind in kinds]
    assert len(set(reasons)) == len(reasons)
    published = set(errors_pb2.RejectionReason.keys())
    assert {f"REJECTION_REASON_{reason}" for reason in reasons} <= published
